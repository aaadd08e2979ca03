/**
 * The text cut where each PDF page starts (meta.page_lines: [page, first line] pairs), or
 * null for a result without pages. The pieces joined are the text, unchanged.
 */
export function pageSegments(text: string, pageLines: unknown): { page: number | null; text: string }[] | null {
  if (!Array.isArray(pageLines) || pageLines.length === 0) return null;
  const starts = new Map<number, number>();
  for (const e of pageLines) {
    if (!Array.isArray(e) || typeof e[0] !== 'number' || typeof e[1] !== 'number') return null;
    starts.set(e[1], e[0]); // two pages on one line (an empty page): the later one starts there
  }
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
