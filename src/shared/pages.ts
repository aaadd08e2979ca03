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

/**
 * What meta.pages_missing (the pages chosen past a PDF's end, as a selection: "15-20,30-,40")
 * says, in words: "the PDF has 14 pages: pages 15-20, 30 on and 40 are past its end"; '' for none.
 */
export function pagesMissingText(meta: Record<string, unknown>): string {
  const missing = typeof meta.pages_missing === 'string' ? meta.pages_missing.split(',').filter((p) => p !== '') : [];
  if (missing.length === 0) return '';
  const parts = missing.map((p) => (p.endsWith('-') ? `${p.slice(0, -1)} on` : p));
  const one = parts.length === 1 && /^\d+$/.test(parts[0] as string);
  const list = parts.length > 1 ? `${parts.slice(0, -1).join(', ')} and ${parts.at(-1)}` : parts[0];
  const total = typeof meta.pages_total === 'number' ? `the PDF has ${meta.pages_total} page${meta.pages_total === 1 ? '' : 's'}: ` : '';
  return `${total}${one ? 'page' : 'pages'} ${list} ${one ? 'is' : 'are'} past its end`;
}
