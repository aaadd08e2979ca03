/**
 * A page written in capitals, as the early web wrote HTML: linkedom keeps attribute names as
 * written, so getAttribute('href') found nothing on <A HREF=…>. Links mode listed no link and
 * the article lost its images.
 */
import { describe, expect, it } from 'vitest';
import { extractArticle, extractLinks, parseDocument } from '../../src/main/fetch/html';

const FILL = 'Old pages were written in capitals, as the early web wrote HTML, and they still hold a great deal of good reading today.';
const OLD = `<HTML><HEAD><TITLE>Old page</TITLE></HEAD><BODY BGCOLOR="#FFFFFF"><H1>Old page</H1><P>${FILL} <A HREF="next.html">Next chapter</A></P>
<P>${FILL}</P><IMG SRC="/pic.gif" ALT="A picture"><P>${FILL}</P></BODY></HTML>`;

describe('a page written in capitals', () => {
  it('gives its links in links mode, resolved', () => {
    expect(extractLinks(OLD, 'https://old.example/book/index.html')).toEqual(['https://old.example/book/next.html']);
  });

  it('keeps its images and links in the article', () => {
    const md = extractArticle(OLD, 'https://old.example/book/index.html').markdown;
    expect(md).toContain('[Next chapter](https://old.example/book/next.html)');
    expect(md).toContain('![A picture](https://old.example/pic.gif)');
  });

  it('has its attribute names in lower case, as an HTML parser makes them (scripts/patch-deps.mjs)', () => {
    const doc = parseDocument('<body><A HREF="x" Title="t">a</A><svg viewBox="0 0 8 8"><path d="M0 0"/></svg></body>', '');
    const a = doc.querySelector('a')!;
    expect(Array.from(a.attributes, (x) => `${x.name}=${x.value}`).sort()).toEqual(['href=x', 'title=t']);
    // A browser's parser reads an SVG's viewbox back as viewBox.
    expect(doc.querySelector('svg')?.outerHTML).toContain('viewbox="0 0 8 8"');
  });
});
