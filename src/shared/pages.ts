/**
 * Where each page of a PDF result starts in its content: [page, first line] pairs in content
 * order, lines from 1 (meta.page_lines). Search cites pages from it, the app marks them.
 */
export type PageLines = [number, number][];

/** Whether a meta value is page_lines as the pipeline writes them (meta comes back from the store as JSON). */
export function isPageLines(v: unknown): v is PageLines {
  return Array.isArray(v) && v.every((e) => Array.isArray(e) && typeof e[0] === 'number' && typeof e[1] === 'number');
}

/** The page a line of the content (from 1) is on; undefined before the first page starts. */
export function pageAt(pageLines: PageLines, line: number): number | undefined {
  // The last page starting at or before the line: a grep's or a book's text asks once per line.
  let lo = 0;
  let hi = pageLines.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((pageLines[mid] as [number, number])[1] <= line) lo = mid + 1;
    else hi = mid;
  }
  return lo > 0 ? (pageLines[lo - 1] as [number, number])[0] : undefined;
}
