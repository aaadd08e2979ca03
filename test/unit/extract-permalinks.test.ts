/**
 * Documentation generators put a link to each heading beside it ("¶", "#", an icon): it came
 * out as text after every heading, "## Basic Usage[¶](https://…#basic-usage "Link to this
 * heading")" in Markdown and "Basic Usage¶" in text.
 */
import { describe, expect, it } from 'vitest';
import { extractArticle } from '../../src/main/fetch/html';

const FILL = 'The section explains how the encoder and the decoder work, with enough words for the page to read as an article.';
const page = (body: string): string =>
  `<!doctype html><html><head><title>Reference</title></head><body><nav><a href="/">Home</a></nav><main><article><h1>Reference</h1><p>${FILL}</p>${body}<p>${FILL}</p></article></main></body></html>`;

describe('a heading\'s link to itself', () => {
  it.each([
    ['a pilcrow (Sphinx, MkDocs)', '<h2 id="usage">Basic Usage<a class="headerlink" href="#usage" title="Link to this heading">¶</a></h2>'],
    ['a hash sign', '<h2 id="usage"><a href="#usage">#</a> Basic Usage</h2>'],
    ['an icon (GitHub)', '<h2><a id="user-content-usage" class="anchor" aria-hidden="true" href="#usage"><svg class="octicon" viewBox="0 0 16 16"><path d="M0 0"></path></svg></a>Basic Usage</h2>'],
    ['a zero-width space (Docusaurus)', '<h2 id="usage">Basic Usage<a href="#usage" class="hash-link" aria-label="Direct link">\u200b</a></h2>'],
  ])('goes: %s', (_what, heading) => {
    const a = extractArticle(page(`${heading}<p>${FILL}</p>`), 'https://docs.example/ref');
    expect(a.markdown).toContain('\n## Basic Usage\n');
    expect(a.text).toContain('\nBasic Usage\n');
    expect(a.html).not.toContain('#usage');
  });

  it('on a term of a definition list goes too', () => {
    const a = extractArticle(page(`<dl><dt id="dump">dump(obj, fp)<a class="headerlink" href="#dump">¶</a></dt><dd>${FILL}</dd></dl>`), 'https://docs.example/ref');
    expect(a.text).toContain('dump(obj, fp)\n');
    expect(a.text).not.toContain('¶');
  });

  it.each([
    ['the heading\'s id', '<h2 id="basic-usage"><a href="#basic-usage">Basic Usage</a></h2>'],
    ['the link\'s own id', '<h2><a id="basic-usage" class="anchor" href="#basic-usage">Basic Usage</a></h2>'],
    ['an anchor\'s name inside', '<h2><a name="basic-usage"></a><a href="#basic-usage">Basic <em>Usage</em></a></h2>'],
    ['a fragment written escaped', '<h2 id="basic usage"><a href="#basic%20usage">Basic Usage</a></h2>'],
  ])('around the heading\'s words is left out, the words stay: %s', (_what, heading) => {
    const a = extractArticle(page(`${heading}<p>${FILL}</p>`), 'https://docs.example/ref');
    expect(a.markdown).toMatch(/\n## Basic _?Usage_?\n/);
    expect(a.text).toContain('\nBasic Usage\n');
    expect(a.markdown).not.toContain('](https://docs.example/ref#basic');
  });

  it('stays when it has a word or a number, or goes elsewhere', () => {
    const a = extractArticle(
      page(`<h2>Changes in <a href="#v2">version 2</a></h2><p>${FILL}</p><h2>Notes <a href="https://docs.example/more">§</a></h2><p>${FILL} <a href="#usage">¶</a></p>`),
      'https://docs.example/ref',
    );
    expect(a.markdown).toContain('## Changes in [version 2](https://docs.example/ref#v2)');
    // A link inside a heading to where no id of the heading is stays, and so does one whose fragment does not decode.
    expect(extractArticle(page(`<h2 id="v1">Notes on <a href="#%E0%A4%A">bad escapes</a></h2><p>${FILL}</p>`), 'https://docs.example/ref').markdown).toContain(
      '## Notes on [bad escapes](https://docs.example/ref#%E0%A4%A)',
    );
    expect(a.markdown).toContain('## Notes [§](https://docs.example/more)');
    expect(a.markdown).toContain('[¶](https://docs.example/ref#usage)');
  });

  it('a footnote\'s link back to its citation goes, in either convention; the note and its citation stay', () => {
    const a = extractArticle(
      page(
        `<p>${FILL}<sup id="fnref1"><a href="#fn1">1</a></sup></p><section class="footnotes"><ol><li id="fn1"><p>Counted twice. <a href="#fnref1" class="footnote-backref">↩︎</a></p></li>` +
          `<li id="fn2"><span><b><a href="#cite-2">^</a></b></span> Seen at dawn.</li></ol></section>`,
      ),
      'https://docs.example/ref',
    );
    expect(a.markdown).toContain('[1](https://docs.example/ref#fn1)');
    expect(a.markdown).toMatch(/Counted twice\.\n/);
    expect(a.markdown).not.toMatch(/[↩^]\]/);
    expect(a.text).toContain('Seen at dawn.');
  });
});

describe('a heading in a wrapper with a link beside it', () => {
  const edit = (id: string, title: string): string =>
    `<div class="mw-heading mw-heading2"><h2 id="${id}">${title}</h2><span class="mw-editsection"><span class="mw-editsection-bracket">[</span><a href="/w/index.php?title=Harbour&amp;action=edit&amp;section=1" title="Edit section: ${title}"><span>edit</span></a><span class="mw-editsection-bracket">]</span></span></div>`;

  it('keeps the heading (a wiki article lost every section heading with its "[edit]" link) and drops the link', () => {
    const a = extractArticle(page(`${edit('History', 'History')}<p>${FILL}</p>${edit('Trade', 'Trade')}<p>${FILL}</p>`), 'https://wiki.example/wiki/Harbour');
    expect(a.markdown).toContain(`\n\n## History\n\n${FILL}\n\n## Trade\n\n${FILL}`);
    expect(a.text).not.toContain('edit');
  });

  it('keeps words beside the heading, a date, in their wrapper', () => {
    const a = extractArticle(page(`<div class="title-row"><h2>Release notes</h2><span class="date">2 May 2024</span> <a href="#notes">#</a></div><p>${FILL}</p>`), 'https://blog.example/post');
    expect(a.text).toContain('\nRelease notes\n');
    expect(a.text).toContain('2 May 2024');
  });
});
