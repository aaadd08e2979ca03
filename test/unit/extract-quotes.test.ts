/**
 * A quotation's attribution in a <footer> inside the <blockquote>: Readability removes every
 * footer of the article as page chrome, so the quote lost who said it.
 */
import { describe, expect, it } from 'vitest';
import { extractArticle } from '../../src/main/fetch';

const FILL = 'The talk returned again and again to one idea about design, which the speaker credited to an early pioneer of the field.';
const PAGE = `<!doctype html><html><head><title>Design</title></head><body><main><article><h1>Design</h1><p>${FILL}</p>
<blockquote class="blockquote"><p>Simple things should be simple, complex things should be possible.</p><footer class="blockquote-footer">Alan Kay, <cite>an interview</cite></footer></blockquote>
<p>${FILL}</p><footer class="article-footer">Share this article</footer></article></main><footer>Copyright the site</footer></body></html>`;

describe("a quote's attribution", () => {
  const a = extractArticle(PAGE, 'https://talks.example/design');

  it('stays in the quote, in Markdown, text and html', () => {
    expect(a.markdown).toMatch(/^> Simple things should be simple, complex things should be possible\.\n> ?\n> Alan Kay, an interview$/m);
    expect(a.text).toContain('Alan Kay, an interview');
    expect(a.html).toMatch(/<blockquote[^>]*>.*<p>Alan Kay, <cite>an interview<\/cite><\/p><\/blockquote>/s);
  });

  it("leaves the article's and the page's own footers out, as before", () => {
    expect(a.text).not.toContain('Share this article');
    expect(a.text).not.toContain('Copyright');
  });
});
