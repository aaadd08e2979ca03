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
});
