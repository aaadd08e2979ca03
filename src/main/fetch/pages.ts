import { badOption } from './errors';
import type { PageRanges } from './pdf-pool';
import { pageAt, type PageLines } from '../../shared/pages';
import { emptyPagesPart } from '../../shared/urllist/options';

export type { PageLines } from '../../shared/pages';

export const PAGES_SYNTAX = 'Use page numbers and ranges separated by commas, e.g. "1-3,7,10-" ("10-" means page 10 to the end).';

/** Parses a page selection such as "1-3,7,10-" into inclusive ranges; invalid → 422 with the syntax. */
export function parsePages(spec: string | undefined): PageRanges | null {
  if (spec === undefined || spec.trim() === '') return null;
  const empty = emptyPagesPart(spec.replace(/\s+/g, ''));
  if (empty) throw badOption(`invalid ${empty}`, PAGES_SYNTAX);
  const ranges: PageRanges = [];
  for (const raw of spec.split(',')) {
    const part = raw.trim();
    const m = /^(\d{1,6})(?:\s*(-)\s*(\d{1,6})?)?$/.exec(part);
    if (!m) throw badOption(`invalid pages "${spec}"`, PAGES_SYNTAX);
    const from = Number(m[1]);
    const to = m[2] ? (m[3] ? Number(m[3]) : Number.MAX_SAFE_INTEGER) : from;
    if (from < 1 || to < from) throw badOption(`invalid pages "${spec}": ${part} is not a range of pages`, PAGES_SYNTAX);
    ranges.push([from, to]);
  }
  return ranges;
}

/**
 * page_lines for a content made of some lines of another (grep's, a question's passages):
 * `origin[i]` is the line (from 1) of the first content its line i + 1 came from, or 0 for a
 * line of its own (grep's "--", the blank line between passages), which stays on the page before.
 */
export function pageLinesOf(pageLines: PageLines, origin: readonly number[]): PageLines {
  const out: PageLines = [];
  let last: number | undefined;
  origin.forEach((from, i) => {
    const page = from > 0 ? pageAt(pageLines, from) : undefined;
    if (page !== undefined && page !== last) out.push([page, i + 1]);
    if (page !== undefined) last = page;
  });
  return out;
}

/** The pages some lines (from 1) are on, each once, in page order. */
export function pagesOf(pageLines: PageLines, lines: readonly number[]): number[] {
  const pages = new Set<number>();
  for (const l of lines) {
    const p = pageAt(pageLines, l);
    if (p !== undefined) pages.add(p);
  }
  return [...pages].sort((a, b) => a - b);
}
