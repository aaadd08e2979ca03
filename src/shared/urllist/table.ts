import type { Options } from '../types';
import type { Collector } from './collect';
import { readCsv, type CsvRow } from './csv';
import { optionKey, setOption, validateOptions } from './options';

const URL_HEADER = /^(?:url|link|href)$/i;
const LOOKS_LIKE_URL = /^\s*https?:\/\//i;
// How many rows to look at for the column that holds URLs when no header names it.
const SAMPLE_ROWS = 50;

function isBlank(row: CsvRow): boolean {
  return row.cells.every((c) => c.trim() === '');
}

/**
 * CSV or TSV (a spreadsheet's export): the column named url, link or href (any case), else
 * the first column holding http(s) URLs. When the first row is a header, columns named like
 * option keys (mode, question or q, pages, grep, jq, context, recover) give each row its
 * options; other columns (title, notes, …) are ignored.
 */
export function readTable(input: string, sep: ',' | '\t', c: Collector, maxLineLength: number): void {
  const rows = readCsv(input, sep);
  let first = 0;
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
