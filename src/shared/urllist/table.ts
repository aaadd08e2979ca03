import type { Options } from '../types';
import type { Collector } from './collect';
import { readCsv, type CsvRow, type Separator } from './csv';
import { optionKey, setOption, validateOptions } from './options';

const URL_HEADER = /^(?:url|link|href)$/i;
const LOOKS_LIKE_URL = /^\s*https?:\/\//i;
// How many rows to look at for the column that holds URLs when no header names it.
const SAMPLE_ROWS = 50;

function isBlank(row: CsvRow): boolean {
  return row.cells.every((c) => c.trim() === '');
}

// Excel's first line naming the separator of the rest ("sep=;"), which it also writes itself.
const SEP_LINE = /^sep=([,;\t])[ \t]*(?:\r?\n|$)/i;
const SEPARATORS: readonly Separator[] = [',', ';', '\t'];

/**
 * The separator of a file called CSV: a comma, or what the file shows it uses instead. Excel
 * writes ";" where the comma is the decimal mark (German, French, Spanish, Italian, Dutch,
 * Russian … settings) and a tab for "Unicode Text", which people save as .csv too. Read with
 * commas, such a file had "no column holds URLs" though its header named one. The header's
 * url/link/href column decides; else the first separator that sets a URL in a cell of its own.
 */
export function csvSeparator(input: string): { sep: Separator; sepLine: boolean } {
  const declared = SEP_LINE.exec(input);
  if (declared) return { sep: declared[1] as Separator, sepLine: true };
  const head = input.slice(0, 16384);
  const samples = SEPARATORS.map((sep) => ({ sep, rows: readCsv(head, sep).filter((r) => !isBlank(r)).slice(0, 20) }));
  for (const { sep, rows } of samples) {
    if (rows[0]?.cells.some((h) => URL_HEADER.test(h.trim()))) return { sep, sepLine: false };
  }
  for (const { sep, rows } of samples) {
    if (rows.some((r) => r.cells.some((cell) => LOOKS_LIKE_URL.test(cell)))) return { sep, sepLine: false };
  }
  return { sep: ',', sepLine: false };
}

/**
 * CSV or TSV (a spreadsheet's export; CSV separated by commas, semicolons or tabs, see
 * csvSeparator): the column named url, link or href (any case), else
 * the first column holding http(s) URLs. When the first row is a header, columns named like
 * option keys (mode, question or q, pages, grep, jq, context, recover) give each row its
 * options; other columns (title, notes, …) are ignored.
 */
export function readTable(input: string, format: 'csv' | 'tsv', c: Collector, maxLineLength: number): void {
  const { sep, sepLine } = format === 'tsv' ? { sep: '\t' as const, sepLine: false } : csvSeparator(input);
  const rows = readCsv(input, sep);
  let first = sepLine ? 1 : 0;
  while (first < rows.length && isBlank(rows[first] as CsvRow)) first++;
  const head = rows[first];
  if (!head) return;
  const names = head.cells.map((h) => h.trim().replace(/^\uFEFF/, ''));
  let urlCol = names.findIndex((h) => URL_HEADER.test(h));
  // A first row without any URL in it is a header even when no column is called url.
  const hasHeader = urlCol !== -1 || !names.some((h) => LOOKS_LIKE_URL.test(h));
  if (urlCol === -1) {
    const start = hasHeader ? first + 1 : first;
    for (let r = start; r < rows.length && r < start + SAMPLE_ROWS && urlCol === -1; r++) {
      urlCol = (rows[r] as CsvRow).cells.findIndex((cell) => LOOKS_LIKE_URL.test(cell));
    }
  }
  const optionCols: { col: number; key: keyof Options }[] = [];
  if (hasHeader) {
    names.forEach((h, col) => {
      const key = optionKey(h);
      if (key && col !== urlCol) optionCols.push({ col, key });
    });
  }
  const body = hasHeader ? first + 1 : first;
  if (urlCol === -1) {
    if (rows.length > body) {
      c.reject(head.line, head.cells.join(sep), 'no column holds URLs: name one url, link or href');
    }
    return;
  }
  for (let r = body; r < rows.length; r++) {
    const row = rows[r] as CsvRow;
    if (isBlank(row)) continue;
    if (c.full) {
      c.truncated = true;
      return;
    }
    const text = row.cells.join(sep);
    if (row.length > maxLineLength) {
      c.reject(row.line, text, `row too long (${row.length} characters; at most ${maxLineLength})`);
      continue;
    }
    const url = (row.cells[urlCol] ?? '').trim();
    if (row.unclosed === urlCol) {
      c.reject(row.line, text, 'the quote (") before the URL is never closed: close it after the URL, or remove it');
      continue;
    }
    if (url === '') {
      c.reject(row.line, text, `no URL in column ${urlCol + 1}${hasHeader ? ` (${names[urlCol]})` : ''}`);
      continue;
    }
    // A quote left open runs the cell on over the next rows, and URL parsing drops line
    // breaks: two URLs would be fetched as one made of both, and the rows after it lost.
    if (/[\r\n]/.test(url)) {
      c.reject(row.line, text, 'the URL cell runs over several lines: close the quote (") it opens with, or put one URL in each cell');
      continue;
    }
    let options: Options | undefined;
    let err: string | undefined;
    for (const { col, key } of optionCols) {
      const v = (row.cells[col] ?? '').trim();
      if (v === '') continue;
      options ??= {};
      err = setOption(options, key, v);
      if (err) break;
    }
    err ??= options ? validateOptions(options) : undefined;
    if (err) {
      c.reject(row.line, text, err);
      continue;
    }
    c.add(row.line, text, url, options);
  }
}
