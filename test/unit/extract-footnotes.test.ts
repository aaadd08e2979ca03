/**
 * A page's footnotes: a raised link to a note in a list at the article's end. Each came out as
 * "<sup>[1](https://…#fn:1)</sup>", a link back to the web page, and the notes as a plain
 * numbered list; they are Markdown's own notes now, "[^1]" and "[^1]: …", where the page's
 * structure says so, and as they were where it does not.
 */
import { describe, expect, it } from 'vitest';
import { extractArticle } from '../../src/main/fetch/html';

const FILL = 'The study followed the river for three seasons, with enough words for the page to read as an article.';
const page = (body: string): string =>
  `<!doctype html><html><head><title>River notes</title></head><body><main><article><h1>River notes</h1><p>${FILL}</p>${body}</article></main></body></html>`;
const markdown = (body: string): string => extractArticle(page(body), 'https://blog.example/river').markdown;

describe('footnotes', () => {
  it.each([
    [
      'a raised link (kramdown, Python-Markdown)',
      '<p>The water rose<sup id="fnref:1"><a href="#fn:1" class="footnote-ref">1</a></sup> and fell<sup id="fnref:2"><a href="#fn:2">2</a></sup>.</p>' +
        '<div class="footnotes"><ol><li id="fn:1"><p>Measured at the weir.&nbsp;<a href="#fnref:1" class="reversefootnote">↩</a></p></li><li id="fn:2"><p>In <em>May</em>.&nbsp;<a href="#fnref:2">↩</a></p></li></ol></div>',
    ],
    [
      'a link around a raised number (Pandoc)',
      '<p>The water rose<a href="#fn1" class="footnote-ref" id="fnref1"><sup>1</sup></a> and fell<a href="#fn2" id="fnref2"><sup>2</sup></a>.</p>' +
        '<section class="footnotes"><ol><li id="fn1"><p>Measured at the weir.<a href="#fnref1" class="footnote-back">↩︎</a></p></li><li id="fn2"><p>In <em>May</em>.<a href="#fnref2">↩︎</a></p></li></ol></section>',
    ],
    [
      'bracketed numbers, the way back as a caret (markdown-it, encyclopedias)',
      '<p>The water rose<sup class="reference" id="cite_ref-1"><a href="#cite_note-1">[1]</a></sup> and fell<sup id="cite_ref-2"><a href="#cite_note-2">[2]</a></sup>.</p>' +
        '<ol class="references"><li id="cite_note-1"><a href="#cite_ref-1">^</a> Measured at the weir.</li><li id="cite_note-2"><a href="#cite_ref-2">^</a> In <em>May</em>.</li></ol>',
    ],
  ])('are Markdown notes: %s', (_what, body) => {
    const md = markdown(body);
    expect(md).toContain('The water rose[^1] and fell[^2].');
    expect(md).toMatch(/\n\[\^1\]: Measured at the weir\.\n\[\^2\]: In _May_\.$/);
    expect(md).not.toContain('blog.example');
  });

  it('keeps a note of several paragraphs under its label, indented as GFM reads it', () => {
    const md = markdown(
      '<p>The water rose<sup><a href="#fn:1">1</a></sup>.</p><ol><li id="fn:1"><p>Measured at the weir.</p><p>Twice a day.</p></li></ol>',
    );
    expect(md).toMatch(/\n\[\^1\]: Measured at the weir\.\n\n {4}Twice a day\.$/);
  });

  it('stays as it was where the structure is not clear: a list with an item no note points at, a note on another page', () => {
    const unreferenced = markdown('<p>The water rose<sup><a href="#fn:1">1</a></sup>.</p><ol><li id="fn:1">Measured at the weir.</li><li id="other">A plain step.</li></ol>');
    expect(unreferenced).not.toContain('[^1]');
    expect(unreferenced).toContain('1.  Measured at the weir.');
    const elsewhere = markdown('<p>The water rose<sup><a href="https://other.example/notes#fn:1">1</a></sup>.</p><ol><li id="fn:1">Measured at the weir.</li></ol>');
    expect(elsewhere).not.toContain('[^');
    expect(elsewhere).toContain('(https://other.example/notes#fn:1)');
    // A page cannot write notes with an attribute of its own.
    expect(markdown('<p>The water <span data-sift-note="x">rose</span>.</p>')).toContain('The water rose.');
  });
});
