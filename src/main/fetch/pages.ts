import { badOption } from './errors';
import type { PageRanges } from './pdf-pool';

export const PAGES_SYNTAX = 'Use page numbers and ranges separated by commas, e.g. "1-3,7,10-" ("10-" means page 10 to the end).';

/** Parses a page selection such as "1-3,7,10-" into inclusive ranges; invalid → 422 with the syntax. */
export function parsePages(spec: string | undefined): PageRanges | null {
  if (spec === undefined || spec.trim() === '') return null;
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
