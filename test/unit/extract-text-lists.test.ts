/**
 * Lists in text mode: an item was a line like any other, so a list read as short paragraphs
 * and a nested list as more items of the outer one. A list of bullets has them, as a browser
 * draws them, an ordered list its numbers as a browser counts them, and a nested list is indented.
 */
import { describe, expect, it } from 'vitest';
import { extractArticle } from '../../src/main/fetch/html';

const FILL = 'The guide walks through packing for a week on the water, with what to bring and what to leave on the quay.';
const page = (body: string): string =>
  `<!doctype html><html><head><title>Packing</title></head><body><main><article><h1>Packing</h1><p>${FILL}</p>${body}<p>${FILL}</p></article></main></body></html>`;

describe('a list in text', () => {
  it('has a bullet before each item, a nested list indented two blanks a level with the bullet of its depth', () => {
    const t = extractArticle(
      page('<ul><li><p>Clothes</p><ul><li>Oilskins</li><li>Boots<ul><li>spare laces</li></ul></li></ul></li><li>Food</li><li></li></ul>'),
      'https://guide.example/packing',
    ).text;
    expect(t).toContain(`${FILL}\n\n• Clothes\n\n  ◦ Oilskins\n  ◦ Boots\n    ▪ spare laces\n• Food\n\n${FILL}`);
  });

  it('numbers an ordered list\'s items, a nested one from 1 again and indented, with no Markdown marks around them', () => {
    const t = extractArticle(page('<ol><li>Check the forecast<ol><li>wind</li><li>tide</li></ol></li><li>File a plan</li></ol>'), 'https://guide.example/packing').text;
    expect(t).toContain('\n\n1. Check the forecast\n  1. wind\n  2. tide\n2. File a plan\n\n');
    expect(t).not.toMatch(/^\s*[-*+]\s/m);
  });

  it('counts from <ol start>, down in a reversed list, anew from an item\'s value, as a browser numbers them', () => {
    const url = 'https://guide.example/packing';
    expect(extractArticle(page('<ol start="4"><li>Cast off</li><li>Clear the harbour</li></ol>'), url).text).toContain('\n\n4. Cast off\n5. Clear the harbour\n\n');
    expect(extractArticle(page('<ol reversed><li>Fenders</li><li>Lines</li><li>Engine</li></ol>'), url).text).toContain('\n\n3. Fenders\n2. Lines\n1. Engine\n\n');
    expect(extractArticle(page('<ol reversed start="10"><li>Fenders</li><li>Lines</li></ol>'), url).text).toContain('\n\n10. Fenders\n9. Lines\n\n');
    expect(extractArticle(page('<ol><li>Fenders</li><li value="7">Lines</li><li>Engine</li></ol>'), url).text).toContain('\n\n1. Fenders\n7. Lines\n8. Engine\n\n');
  });

  it('counts an item without text, which a browser numbers too', () => {
    const t = extractArticle(page('<ol><li>Fenders</li><li></li><li>Engine</li></ol>'), 'https://guide.example/packing').text;
    expect(t).toContain('\n\n1. Fenders\n3. Engine\n\n');
  });

  it('numbers in letters or Roman numerals when the list says so', () => {
    const url = 'https://guide.example/packing';
    expect(extractArticle(page('<ol type="a"><li>wind</li><li>tide</li></ol>'), url).text).toContain('\n\na. wind\nb. tide\n\n');
    expect(extractArticle(page('<ol type="I" start="3"><li>wind</li><li>tide</li></ol>'), url).text).toContain('\n\nIII. wind\nIV. tide\n\n');
    expect(extractArticle(page('<ol type="A" start="27"><li>wind</li></ol>'), url).text).toContain('\n\nAA. wind\n\n');
  });

  it("leaves a page's own control characters out, so they cannot pass for an indent", () => {
    const t = extractArticle(page('<p>Tide\u0001tables at the office.</p><ul><li>one</li></ul>'), 'https://guide.example/packing').text;
    expect(t).toContain('Tidetables at the office.\n\n• one');
  });
});

describe("an item's or a definition's lines in text", () => {
  const url = 'https://guide.example/packing';

  it("indents an item's second paragraph and a line after a <br> under the item, so they do not read as text after the list", () => {
    const t = extractArticle(page('<ul><li>Oilskins<br>the long ones</li><li><p>Boots</p><p>Dry them after each trip.</p></li></ul>'), url).text;
    expect(t).toContain('\n\n• Oilskins\n  the long ones\n• Boots\n\n  Dry them after each trip.\n\n');
  });

  it("indents a nested item's own lines under it", () => {
    const t = extractArticle(page('<ol><li>Check the forecast<ol><li><p>wind</p><p>Above force 6, stay in.</p></li></ol></li><li>File a plan</li></ol>'), url).text;
    expect(t).toContain('\n\n1. Check the forecast\n  1. wind\n\n    Above force 6, stay in.\n\n2. File a plan\n\n');
  });

  it("indents an item's preformatted lines (its code) under the item, keeping their own indent, so they do not read as text after the list", () => {
    const t = extractArticle(page('<ol><li>Install:<pre><code>npm ci\n\nnpm test</code></pre></li><li>Run<ul><li>with a flag<pre>sift fetch URL\n  --mode text</pre></li></ul></li></ol>'), url).text;
    expect(t).toContain('\n\n1. Install:\n  npm ci\n\n  npm test\n\n2. Run\n  ◦ with a flag\n    sift fetch URL\n      --mode text\n\n');
  });

  it('indents a definition under its term, and a list inside it', () => {
    const t = extractArticle(page('<dl><dt>Neap</dt><dd>A weak tide.<ul><li>twice a month</li></ul></dd><dt>Spring</dt><dd>A strong tide.</dd></dl>'), url).text;
    expect(t).toContain('\n\nNeap\n  A weak tide.\n  • twice a month\n\nSpring\n  A strong tide.\n\n');
  });
});
