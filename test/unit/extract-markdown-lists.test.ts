/**
 * An ordered list's numbers in Markdown: turndown counted every list up from its start, so
 * <ol reversed> (a countdown, a top-ten) read 1, 2, 3 and an item's value was lost. Markdown
 * counts a list up by one from its first number, so a list that counts otherwise goes on as a
 * new list (the delimiter changes) where its numbers jump; both the file and its rendering
 * (marked, as the app renders it) show the page's numbers.
 */
import { describe, expect, it } from 'vitest';
import { marked } from 'marked';
import { extractArticle } from '../../src/main/fetch/html';

const FILL = 'The guide walks through packing for a week on the water, with what to bring and what to leave on the quay.';
const page = (body: string): string =>
  `<!doctype html><html><head><title>Packing</title></head><body><main><article><h1>Packing</h1><p>${FILL}</p>${body}<p>${FILL}</p></article></main></body></html>`;
const markdownOf = (body: string): string => extractArticle(page(body), 'https://guide.example/packing').markdown;

/** The numbers a browser shows for the rendered Markdown's ordered items, in order (nested lists too). */
function renderedNumbers(md: string): number[] {
  const html = marked.parse(md, { async: false });
  const numbers: number[] = [];
  const counters: number[] = [];
  for (const m of html.matchAll(/<ol(?: start="(-?\d+)")?>|<\/ol>|<li>/g)) {
    if (m[0].startsWith('<ol')) counters.push(Number(m[1] ?? 1));
    else if (m[0] === '</ol>') counters.pop();
    else if (counters.length) numbers.push(counters[counters.length - 1]!++);
  }
  return numbers;
}

describe('an ordered list in Markdown', () => {
  it('counts down in a reversed list, in the file and once rendered', () => {
    const md = markdownOf('<ol reversed><li>Fenders</li><li>Lines</li><li>Engine</li></ol>');
    expect(md).toContain('\n\n3.  Fenders\n2)  Lines\n1.  Engine\n\n');
    expect(renderedNumbers(md)).toEqual([3, 2, 1]);
  });

  it("goes on from an item's value, and from a reversed list's start", () => {
    const valued = markdownOf('<ol><li>Fenders</li><li value="7">Lines</li><li>Engine</li></ol>');
    expect(valued).toContain('\n\n1.  Fenders\n7)  Lines\n8)  Engine\n\n');
    expect(renderedNumbers(valued)).toEqual([1, 7, 8]);
    expect(renderedNumbers(markdownOf('<ol reversed start="10"><li>Fenders</li><li>Lines</li></ol>'))).toEqual([10, 9]);
  });

  it('keeps a list that counts up by one as one list, from its start', () => {
    expect(markdownOf('<ol start="4"><li>Cast off</li><li>Clear the harbour</li></ol>')).toContain('\n\n4.  Cast off\n5.  Clear the harbour\n\n');
    expect(markdownOf('<ol><li>Cast off</li><li>Clear the harbour</li></ol>')).toContain('\n\n1.  Cast off\n2.  Clear the harbour\n\n');
  });

  it("makes a nested list that starts past 1 a list, not more of its item's text", () => {
    const md = markdownOf('<ol><li>Check the forecast<ol start="3"><li>wind</li><li>tide</li></ol></li><li>File a plan<ol reversed><li>copy</li><li>send</li></ol></li></ol>');
    expect(renderedNumbers(md)).toEqual([1, 3, 4, 2, 2, 1]);
    expect(md).toContain('1.  Check the forecast\n\n    3.  wind\n    4.  tide\n');
  });

  it('keeps two ordered lists side by side apart, each counted from its own start', () => {
    const md = markdownOf('<ol><li>Fenders</li><li>Lines</li></ol><ol><li>Charts</li><li>Flares</li></ol>');
    expect(renderedNumbers(md)).toEqual([1, 2, 1, 2]);
    expect(md).toContain('\n\n1.  Fenders\n2.  Lines\n\n1)  Charts\n2)  Flares\n\n');
    // After a list that changed its delimiter itself, the next starts on the other one.
    expect(renderedNumbers(markdownOf('<ol reversed><li>Fenders</li><li>Lines</li></ol>\n<ol><li>Charts</li></ol>'))).toEqual([2, 1, 1]);
  });
});

/** The lists a browser shows for the rendered Markdown, each as its items' words. */
function renderedLists(md: string): string[][] {
  const html = marked.parse(md, { async: false });
  return Array.from(html.matchAll(/<(ul|ol)[^>]*>([^]*?)<\/\1>/g), (m) => Array.from(m[2]!.matchAll(/<li>(?:<p>)?([^<]*)/g), (li) => li[1]!.trim()));
}

describe('lists side by side in Markdown', () => {
  it('keeps two bulleted lists apart, where they were one list of all their items', () => {
    const md = markdownOf('<ul><li>Fenders</li><li>Lines</li></ul><ul><li>Charts</li></ul>\n<ul><li>Flares</li></ul>');
    expect(renderedLists(md)).toEqual([['Fenders', 'Lines'], ['Charts'], ['Flares']]);
    expect(md).toContain('\n\n-   Fenders\n-   Lines\n\n*   Charts\n\n-   Flares\n\n');
  });

  it('keeps a bulleted list apart from a list in letters after it, which Markdown writes with bullets', () => {
    expect(renderedLists(markdownOf('<ul><li>Fenders</li></ul><ol type="a"><li>Charts</li></ol>'))).toEqual([['Fenders'], ['a. Charts']]);
  });

  it('keeps two lists inside an item apart', () => {
    const html = marked.parse(markdownOf('<ul><li>Deck<ul><li>Fenders</li></ul><ul><li>Lines</li></ul></li></ul>'), { async: false });
    expect(html.replace(/\s+/g, '')).toContain('<ul><li>Fenders</li></ul><ul><li>Lines</li></ul></li></ul>');
  });

  // What a reader sees between two lists may write nothing in Markdown, or the first list may
  // end a box of its own: the lists touched all the same, and were one list of all their items.
  it.each([
    ['a list that ends a <div>', '<div class="box"><ul><li>Fenders</li><li>Lines</li></ul></div><ul><li>Charts</li></ul>'],
    ['a list that starts a <div>', '<ul><li>Fenders</li><li>Lines</li></ul><div class="box"><ul><li>Charts</li></ul></div>'],
    ['each list in a <section>, an empty paragraph after the first', '<section><ul><li>Fenders</li><li>Lines</li></ul><p>&nbsp;</p></section>\n<section><ul><li>Charts</li></ul></section>'],
    ['a line break between', '<ul><li>Fenders</li><li>Lines</li></ul><br><ul><li>Charts</li></ul>'],
    ['an empty link between (an icon the page\'s style sheet draws)', '<ul><li>Fenders</li><li>Lines</li></ul><a href="https://guide.example/top"></a><ul><li>Charts</li></ul>'],
  ])('keeps two bulleted lists apart: %s', (_what, body) => {
    expect(renderedLists(markdownOf(body))).toEqual([['Fenders', 'Lines'], ['Charts']]);
  });

  it('keeps two bulleted lists apart with a comment between (turndown drops comments before its rules read a list\'s neighbours)', () => {
    expect(renderedLists(markdownOf('<ul><li>Fenders</li><li>Lines</li></ul>\n<!-- next list -->\n<ul><li>Charts</li></ul>'))).toEqual([['Fenders', 'Lines'], ['Charts']]);
    expect(renderedLists(markdownOf('<div><ul><li>Fenders</li><li>Lines</li></ul><!-- /box --></div><ul><li>Charts</li></ul>'))).toEqual([['Fenders', 'Lines'], ['Charts']]);
  });

  it('keeps two ordered lists apart where the first ends a <div>, each counted from its own start', () => {
    expect(renderedNumbers(markdownOf('<div class="steps"><ol><li>Fenders</li><li>Lines</li></ol></div><ol><li>Charts</li></ol>'))).toEqual([1, 2, 1]);
  });

  it('writes a list after a quote holding a list with "-": the quote\'s lines keep them apart', () => {
    expect(markdownOf('<blockquote><ul><li>Fenders</li></ul></blockquote><ul><li>Charts</li></ul>')).toContain('> -   Fenders\n\n-   Charts');
  });

  it('writes a bulleted list after a paragraph or an ordered list with "-", as before', () => {
    expect(markdownOf('<ul><li>Fenders</li></ul><p>Then:</p><ul><li>Charts</li></ul><ol><li>Flares</li></ol><ul><li>Lines</li></ul>')).toContain('-   Fenders\n\nThen:\n\n-   Charts\n\n1.  Flares\n\n-   Lines');
  });
});
