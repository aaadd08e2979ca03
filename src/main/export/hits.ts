import { stringify } from 'csv-stringify/sync';
import { alsoIn, formatScore, lineLabel, type HitsFormat, type SearchHit } from '../../shared/search';
import { SPREADSHEET_SAFE } from './csv';
import { withoutBidiControls } from '../../shared/shown';
import { mdInline } from './render';

export interface HitsExport {
  query: string;
  /** The job searched; all jobs when undefined. */
  jobId?: string;
  hits: readonly SearchHit[];
  /** More results matched than the hits written. */
  more?: boolean;
  /** When the search ran (ms since epoch). */
  at: number;
}

const mdEscape = (s: string): string => s.replace(/([\\`*_[\]<>#|])/g, '\\$1');

/** Where a hit is, in words: "job J, target #3, line 12, page 2". */
export function citation(h: SearchHit): string {
  const parts = [`job ${h.jobId}`, `target #${h.idx + 1}`];
  const line = lineLabel(h);
  if (line !== undefined) parts.push(line);
  if (h.page !== undefined) parts.push(`page ${h.page}`);
  if (h.field !== 'body') parts.push(`in the ${h.field}`);
  const also = alsoIn(h);
  if (also) parts.push(`also in ${also}`);
  return parts.join(', ');
}

/** The snippet with its marks written by `mark` and the rest by `plain`. */
function marked(h: SearchHit, plain: (s: string) => string, mark: (s: string) => string): string {
  let out = '';
  let at = 0;
  for (const [a, b] of h.marks) {
    out += plain(h.snippet.slice(at, a)) + mark(h.snippet.slice(a, b));
    at = b;
  }
  return out + plain(h.snippet.slice(at));
}

/** The hits as one Markdown document: each a quote of its snippet (matches in bold) and where it is. */
export function hitsMarkdown(e: HitsExport): string {
  const scope = e.jobId ? `job ${e.jobId}` : 'all jobs';
  const n = `${e.hits.length} ${e.hits.length === 1 ? 'hit' : 'hits'}`;
  const at = new Date(e.at).toISOString();
  // Only the best are written when more match: the count alone read as every result there was.
  const head = e.more ? `The best ${n} in ${scope} (${at}); more results match than these.` : `${n} in ${scope}, best first (${at}).`;
  const lines = [`# Search: ${mdEscape(e.query)}`, '', head, ''];
  e.hits.forEach((h, i) => {
    // As the job's combined Markdown writes a title (mdInline): without a bidi override, which
    // showed the rest of the heading backwards ("\u202Egnp.exe" read "exe.png").
    lines.push(`## ${i + 1}. ${mdInline(h.title) || mdInline(h.url)}`, '');
    lines.push(`> ${marked(h, (s) => mdEscape(withoutBidiControls(s)), (s) => `**${mdEscape(withoutBidiControls(s))}**`)}`, '');
    lines.push(`<${h.url}> — ${citation(h)}`, '');
  });
  return lines.join('\n');
}

export const HITS_CSV_COLUMNS = ['rank', 'job', 'target', 'url', 'title', 'field', 'line', 'page', 'score', 'snippet', 'also_in'] as const;

/**
 * The hits as CSV, safe to open in a spreadsheet as the job CSV export is (SPREADSHEET_SAFE);
 * matches in the snippet are marked «like this».
 */
export function hitsCsv(e: HitsExport): string {
  const rows = e.hits.map((h, i) => [
    i + 1,
    h.jobId,
    h.idx + 1,
    h.url,
    h.title,
    h.field,
    h.line ?? '',
    h.page ?? '',
    formatScore(h.score, 3),
    marked(h, (s) => s, (s) => `«${s}»`),
    alsoIn(h),
  ]);
  return stringify(rows, { header: true, columns: [...HITS_CSV_COLUMNS], ...SPREADSHEET_SAFE });
}

/**
 * The file name a save dialog suggests for a search's hits: the query's words joined by
 * dashes, 40 characters at most. Cut at 40 UTF-16 units, a rare ideograph (𠀋, outside the
 * BMP) lost its low half and named the file with "\ufffd"; cut after the dashes were
 * trimmed, "net revenue 2023" could end in "-".
 */
export function hitsFileName(query: string, format: HitsFormat): string {
  const words = Array.from(query.replace(/[^\p{L}\p{N}]+/gu, '-')).slice(0, 40).join('').replace(/^-+|-+$/g, '');
  return `sift-search-${words || 'hits'}.${format}`;
}

export const writeHits = (format: HitsFormat, e: HitsExport): string => (format === 'csv' ? hitsCsv(e) : hitsMarkdown(e));
