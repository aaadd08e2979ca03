import { isJsonObject } from '../../../shared/json';
import { warningLabel } from '../../../shared/reasons';
import { metaValue } from './format';
import { formatBytes } from '../../../shared/bytes';
import { counted } from '../../../shared/count';
import { shownMetaText, shownTitle } from '../../../shared/shown';

// The fields people look for first; the rest follow in the order main sent them.
const FIRST = ['title', 'url', 'final_url', 'status', 'content_type', 'bytes', 'pages_total', 'pages_returned', 'pages_no_text', 'pages_failed', 'pages_missing', 'matches', 'match_pages', 'passages', 'passage_pages', 'recovered', 'fetched_ms'];

// Bookkeeping for search citations and the pane's cut of long lines, not something a reader looks up; and what to do about an
// empty result (a scanned PDF, a grep written as /x/i), which the pane says above the table in
// its words ("The result is empty. …"): the table repeated it as "Hint".
const HIDDEN = new Set(['page_lines', 'source_lines', 'match_columns', 'hint']);

/**
 * The result's meta fields (SPEC §5's names, as the CLI's --json and the exports' front
 * matter write them) in people's words. A field not named here is shown by its name, its
 * underscores as spaces.
 */
export const META_LABELS: Record<string, string> = {
  title: 'Title',
  url: 'URL',
  final_url: 'Final URL',
  status: 'HTTP status',
  content_type: 'Content type',
  kind: 'Read as',
  // The fetched document's, decompressed; the pane's toolbar says the result's.
  bytes: 'Document size',
  charset: 'Character set',
  charset_detected: 'Character set guessed',
  charset_declared: 'Character set it names (its bytes are not)',
  pages_total: 'Pages in the PDF',
  pages_returned: 'Pages returned',
  pages_no_text: 'Pages without text',
  pages_failed: 'Pages damaged (not read)',
  pages_missing: 'Pages chosen past the end',
  attachments: 'Attached files (not read)',
  matches: 'Lines matching grep',
  match_pages: 'Pages with matches',
  passages: 'Passages answering',
  passage_pages: 'Pages of the passages',
  recovered: 'From an archived copy',
  recovered_from: 'Status of the live page',
  snapshot_url: 'Archived copy',
  snapshot_time: 'Archived at',
  fetched_ms: 'Fetched in',
  redirects: 'Redirects',
  http_lenient: 'Read as loose HTTP',
  compressed: 'Compressed as',
  compressed_bytes: 'Compressed size',
  rendered: 'Rendered in a browser',
  render: 'Render option',
  render_why: 'Why rendered',
  render_ms: 'Rendered in',
  render_partial: 'Rendering cut short',
  render_skipped: 'Not rendered because',
  render_refused: 'Requests the guard refused',
  render_refused_why: 'What the guard refused',
  warnings: 'Warnings',
  language: 'Language',
  lang: 'Language',
  byline: 'Byline',
  author: 'Author',
  excerpt: 'Excerpt',
  base_url: 'Links resolved against',
  title_from: 'Title taken from',
  filename: 'File name the server gave',
  text_layer: 'Text layer',
  pretty: 'Laid out',
  json_lines: 'JSON lines',
  jq_raw: 'jq strings as plain text',
  json_wrapper: 'JSON taken out of',
  links: 'Links',
  feed: 'Feed format',
  entries: 'Feed entries',
  pdf: 'PDF reading',
};

/** What the JSON came wrapped in (json-doc.ts wrappedJson): "Json wrapper: xssi" said nothing to most. */
const JSON_WRAPPERS: Record<string, string> = {
  xssi: "a guard against other sites' scripts ()]}', while(1);) before it",
  jsonp: 'a JSONP call (callback({…});)',
};

/**
 * Why a page was rendered (meta.render_why, render/decide.ts RenderWhy and render=always), in
 * words: the Meta table showed the code ("needs_js"), which only the CLI's --json should show.
 */
const RENDER_WHY: Record<string, string> = {
  always: 'the render option is “always”',
  needs_js: 'the page is an app shell: its text appears only once its scripts run',
  thin_with_scripts: 'the page had little text without its scripts',
  route: 'the address names a route of an app, which only its scripts read',
  catch_all: 'the site answers every address with one page, which its scripts fill in',
};

const SIZES = new Set(['bytes', 'compressed_bytes']);
const DURATIONS = new Set(['fetched_ms', 'render_ms']);

export interface MetaRow {
  key: string;
  label: string;
  value: string;
}

export const metaLabel = (key: string): string => META_LABELS[key] ?? (key.charAt(0).toUpperCase() + key.slice(1)).replace(/_/g, ' ');

const count = (n: unknown): number => (typeof n === 'number' && Number.isFinite(n) ? n : 0);

/**
 * What putting a PDF's pages in reading order did (meta.pdf), in words, the steps that did
 * nothing left out. The pane printed the object as it is stored: "bidi: false, bidi_lines: 0,
 * columns: 1, multi_column_pages: 0, dehyphenated: 0, compound_hyphens_kept: 0,
 * furniture_removed: 0". A field not named here keeps its name.
 */
export function pdfReadingText(v: Record<string, unknown>): string {
  const parts: string[] = [];
  const { bidi: _bidi, bidi_lines, columns, multi_column_pages, narrow_column_pages, dehyphenated, compound_hyphens_kept, furniture_removed, headings, list_items, ...rest } = v;
  const multi = count(multi_column_pages);
  if (multi > 0) parts.push(`${counted(multi, 'page')} in ${count(columns) > 2 ? `up to ${count(columns)}` : count(columns)} columns read column by column`);
  const narrow = count(narrow_column_pages);
  if (narrow > 0) parts.push(`${counted(narrow, 'page')} with narrow columns side by side (tables, figure labels) read one column after the other`);
  if (count(bidi_lines) > 0) parts.push(`${counted(count(bidi_lines), 'right-to-left line')} put in reading order`);
  if (count(dehyphenated) > 0) parts.push(`${counted(count(dehyphenated), 'word')} hyphenated at a line end joined`);
  if (count(compound_hyphens_kept) > 0) parts.push(`${counted(count(compound_hyphens_kept), 'hyphen')} of compound words kept`);
  if (count(furniture_removed) > 0) parts.push(`${counted(count(furniture_removed), 'line')} repeated on the pages' edges (headers, footers, page numbers) left out`);
  // Mode markdown's marks (pdf-markdown.ts): "headings: 14; list items: 20" read as two more steps of the reading.
  const marked = [count(headings) > 0 ? counted(count(headings), 'heading') : '', count(list_items) > 0 ? counted(count(list_items), 'list item') : ''].filter(Boolean);
  if (marked.length > 0) parts.push(`${marked.join(' and ')} marked in Markdown, by type size and bullets`);
  for (const [k, x] of Object.entries(rest)) parts.push(`${k.replace(/_/g, ' ')}: ${metaValue(x)}`);
  return parts.length ? parts.join('; ') : 'as laid out: one column, nothing joined or left out';
}

/** A field's value as people read it: sizes in KB, times in ms or s, yes and no, warnings by their labels; cut where too long to lay out. */
export const metaFieldValue = (key: string, v: unknown): string => shownMetaText(fieldText(key, v));

function fieldText(key: string, v: unknown): string {
  if (key === 'pdf' && isJsonObject(v)) return pdfReadingText(v);
  if (key === 'json_wrapper' && typeof v === 'string') return JSON_WRAPPERS[v] ?? v;
  if (key === 'render_why' && typeof v === 'string') return RENDER_WHY[v] ?? v;
  if (typeof v === 'number' && SIZES.has(key)) return formatBytes(v);
  if (typeof v === 'number' && DURATIONS.has(key)) return v < 1000 ? `${Math.round(v)} ms` : `${(v / 1000).toFixed(1)} s`;
  if (typeof v === 'boolean') return v ? 'yes' : 'no';
  if (key === 'title' && typeof v === 'string') return metaValue(shownTitle(v));
  if (key === 'warnings' && Array.isArray(v)) return v.length ? v.map((w) => (typeof w === 'string' ? warningLabel(w) : metaValue(w))).join(', ') : '—';
  return metaValue(v);
}

/** The rows of the Meta table: the first fields first, then the rest in main's order, bookkeeping left out. */
export function metaRows(meta: Record<string, unknown>): MetaRow[] {
  const keys = [...FIRST.filter((k) => k in meta), ...Object.keys(meta).filter((k) => !FIRST.includes(k) && !HIDDEN.has(k))];
  return keys.map((key) => ({ key, label: metaLabel(key), value: metaFieldValue(key, meta[key]) }));
}
