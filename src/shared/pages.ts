import { isLinePairs, lastPairAtOrBefore, type LinePairs } from './line-pairs';

/**
 * Where each page of a PDF result starts in its content: [page, first line] pairs in content
 * order, lines from 1 (meta.page_lines). Search cites pages from it, the app marks them.
 */
export type PageLines = LinePairs;

/** Whether a meta value is page_lines as the pipeline writes them. */
export const isPageLines: (v: unknown) => v is PageLines = isLinePairs;

/** The page a line of the content (from 1) is on; undefined before the first page starts. */
export function pageAt(pageLines: PageLines, line: number): number | undefined {
  return lastPairAtOrBefore(pageLines, 1, line)?.[0];
}
