import { isPageLines } from '../../../shared/pages';

/**
 * The text cut where each PDF page starts (meta.page_lines: [page, first line] pairs), or
 * null for a result without pages. The pieces joined are the text, unchanged.
 */
export function pageSegments(text: string, pageLines: unknown): { page: number | null; text: string }[] | null {
  if (!isPageLines(pageLines) || pageLines.length === 0) return null;
  // Two pages on one line (an empty page): the later one starts there.
  const starts = new Map(pageLines.map(([page, line]) => [line, page]));
  const out: { page: number | null; text: string }[] = [];
  let page: number | null = null;
  let from = 0;
  // `at` is where line `line` starts.
  for (let line = 1, at = 0; ; line++) {
    const starting = starts.get(line);
    if (starting !== undefined && (at < text.length || at === 0)) {
      if (at > from) out.push({ page, text: text.slice(from, at) });
      from = at;
      page = starting;
    }
    const nl = text.indexOf('\n', at);
    if (nl < 0) break;
    at = nl + 1;
  }
  out.push({ page, text: text.slice(from) });
  return out;
}

/**
 * meta.page_lines for a part of the text that starts on `firstLine`: the lines counted from
 * the part's start, the page under way there starting on its first line.
 */
export function pageLinesFrom(pageLines: unknown, firstLine: number): unknown {
  if (firstLine === 1 || !isPageLines(pageLines)) return pageLines;
  const out: [number, number][] = [];
  let under: number | undefined;
  for (const [page, line] of pageLines) {
    if (line <= firstLine) under = page;
    else out.push([page, line - firstLine + 1]);
  }
  return under === undefined ? out : [[under, 1], ...out];
}
