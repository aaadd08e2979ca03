/**
 * A quotation's attribution in a <footer> inside the <blockquote>: Readability removes every
 * footer of the article as page chrome, so the quote lost who said it.
 */
import { describe, expect, it } from 'vitest';
import { extractArticle, markdownOf } from '../../src/main/fetch/html';

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

describe('a note or warning of documentation (an admonition)', () => {
  const page = (box: string): string =>
    `<!doctype html><html><head><title>Guide</title></head><body><main><article><h1>Guide</h1><p>${FILL}</p>${box}<p>${FILL}</p></article></main></body></html>`;

  it.each([
    ['Sphinx and MkDocs', '<div class="admonition warning"><p class="admonition-title">Warning</p><p>Back up the disk first.</p></div>', 'Warning'],
    ['GitHub', '<div class="markdown-alert markdown-alert-tip" dir="auto"><p class="markdown-alert-title" dir="auto"><svg class="octicon"><path d="M0"></path></svg>Tip</p><p dir="auto">Back up the disk first.</p></div>', 'Tip'],
    [
      'Docusaurus (a type in lower case)',
      '<div class="theme-admonition theme-admonition-info alert alert--info admonition_xJq3"><div class="admonitionHeading_Gvgb"><span class="admonitionIcon_Rf37"><svg><path d="M0"></path></svg></span>info</div><div class="admonitionContent_BuS1"><p>Back up the disk first.</p></div></div>',
      'Info',
    ],
  ])('is a quote led by its title in bold: %s', (_what, box, title) => {
    const a = extractArticle(page(box), 'https://docs.example/guide');
    expect(a.markdown).toContain(`\n\n> **${title}**\n>\n> Back up the disk first.\n\n`);
    expect(a.text).toContain(`\n\n> ${title}\n>\n> Back up the disk first.\n\n`);
  });

  it('leaves a box that only has "admonition" inside a longer class name, and one without a title, as text', () => {
    const a = extractArticle(page('<div class="admonitions-list"><p>Not a note at all.</p></div><div class="admonition"><p>Untitled note.</p></div>'), 'https://docs.example/guide');
    expect(a.markdown).toContain('\n\nNot a note at all.\n\n');
    expect(a.markdown).toContain('\n\n> Untitled note.\n\n');
  });
});

describe('an inline quotation (<q>)', () => {
  const page = (lang: string, body: string): string =>
    `<!doctype html><html lang="${lang}"><head><title>Talk</title></head><body><main><article><h1>Talk</h1><p>${FILL}</p>${body}<p>${FILL}</p></article></main></body></html>`;

  it('has the quotation marks a browser draws, the inner pair inside another, in Markdown and text', () => {
    const a = extractArticle(page('en', '<p>He said <q>no, <q>never</q> again</q> twice.</p>'), 'https://talks.example/q');
    expect(a.markdown).toContain('He said “no, ‘never’ again” twice.');
    expect(a.text).toContain('He said “no, ‘never’ again” twice.');
  });

  it("has the marks of the quotation's language", () => {
    expect(extractArticle(page('de', '<p>Er sagte <q>nein</q>.</p>'), 'https://talks.example/q').text).toContain('Er sagte „nein“.');
    expect(extractArticle(page('fr', '<p>Il a dit <q>non</q>.</p>'), 'https://talks.example/q').text).toContain('Il a dit « non ».');
    expect(extractArticle(page('en', '<p lang="ja">彼は<q>いいえ</q>と言った。</p>'), 'https://talks.example/q').text).toContain('彼は「いいえ」と言った。');
  });
});

describe('a quotation (<blockquote>) in text', () => {
  const page = (body: string): string =>
    `<!doctype html><html><head><title>Talk</title></head><body><main><article><h1>Talk</h1><p>${FILL}</p>${body}<p>${FILL}</p></article></main></body></html>`;
  const url = 'https://talks.example/quote';

  it('has each line marked "> " as email and Markdown mark one, its blank lines ">", so it does not read as the author\'s words', () => {
    const t = extractArticle(page('<blockquote><p>Simple things should be simple.</p><p>Complex things should be possible.</p></blockquote><p>He was right.</p>'), url).text;
    expect(t).toContain(`${FILL}\n\n> Simple things should be simple.\n>\n> Complex things should be possible.\n\nHe was right.`);
  });

  it('marks a quote inside a quote twice, and a list, a line break and preformatted lines inside one', () => {
    const t = extractArticle(
      page('<blockquote><p>She wrote:</p><blockquote><p>Pack light.</p></blockquote><ul><li>boots</li><li>oilskins<br>the long ones</li></ul><pre>tide  06:10\n\nwind  NW 4</pre></blockquote>'),
      url,
    ).text;
    expect(t).toContain('\n\n> She wrote:\n>\n> > Pack light.\n>\n> • boots\n> • oilskins\n>   the long ones\n>\n> tide  06:10\n>\n> wind  NW 4\n\n');
  });

  it("indents a quote in a list item under the item, its mark after the indent", () => {
    const t = extractArticle(page('<ul><li>From the manual:<blockquote><p>Reef early.</p><p>Reef often.</p></blockquote></li><li>From the skipper</li></ul>'), url).text;
    expect(t).toContain('\n\n• From the manual:\n  > Reef early.\n  >\n  > Reef often.\n\n• From the skipper\n\n');
  });

  it("leaves the page's own control characters out, so none can pass for a quote's mark", () => {
    const t = extractArticle(page('<p>Tide\u0002tables at the office.</p>'), url).text;
    expect(t).toContain('Tidetables at the office.');
  });
});

describe('a quotation (<blockquote>) in Markdown', () => {
  it('marks its blank lines ">" with no blank after, a quote inside it and a block of code in it too', () => {
    expect(markdownOf('<blockquote><p>a</p><blockquote><p>b</p><p>c</p></blockquote><pre>x\n\ny</pre></blockquote>')).toBe('> a\n>\n> > b\n> >\n> > c\n>\n> ```\n> x\n>\n> y\n> ```');
    expect(markdownOf('<ul><li><p>a</p><blockquote><p>q</p><p>r</p></blockquote></li></ul>')).toBe('-   a\n\n    > q\n    >\n    > r');
  });
});
