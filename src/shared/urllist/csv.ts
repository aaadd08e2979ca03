import { lineAt } from './lines';

/** One record of a CSV/TSV file and where it starts and ends in the input. */
export interface CsvRow {
  cells: string[];
  /** 1-based line the record starts on (a quoted cell may span lines). */
  line: number;
  /** Characters the record spans in the input, for the line-length cap. */
  length: number;
  /** The cell (0-based) whose opening quote no quote in the rest of the input closes. */
  unclosed?: number;
}

/**
 * A small RFC 4180 reader: `sep`-separated cells, double-quoted cells that may hold the
 * separator, line breaks and `""` for a quote; CRLF or LF. Written here rather than taken
 * from csv-parse because src/shared runs in the renderer too and must not pull Node code.
 * A quote inside an unquoted cell is kept as text, as spreadsheets write it; so is an
 * opening quote that no later quote closes (CsvRow.unclosed says where).
 */
export type Separator = ',' | ';' | '\t';

export function readCsv(input: string, sep: Separator): CsvRow[] {
  const rows: CsvRow[] = [];
  const n = input.length;
  const sepCode = sep.charCodeAt(0);
  let i = 0;
  let line = 1;
  while (i < n) {
    const start = i;
    const startLine = line;
    const cells: string[] = [];
    let unclosed: number | undefined;
    for (;;) {
      // One cell.
      if (input.charCodeAt(i) === 34 /* " */ && input.indexOf('"', i + 1) !== -1) {
        i++;
        let v = '';
        let from = i;
        for (;;) {
          const q = input.indexOf('"', i);
          if (q === -1) {
            // Only after a doubled quote: the rest of the input is this cell.
            v += input.slice(from);
            line += countNewlines(input, from, n);
            i = n;
            break;
          }
          line += countNewlines(input, from, q);
          if (input.charCodeAt(q + 1) === 34) {
            v += input.slice(from, q + 1);
            i = q + 2;
            from = i;
            continue;
          }
          v += input.slice(from, q);
          i = q + 1;
          break;
        }
        // Text between the closing quote and the separator is kept, not lost.
        const rest = i;
        while (i < n) {
          const c = input.charCodeAt(i);
          if (c === sepCode || c === 10 || c === 13) break;
          i++;
        }
        if (i > rest) v += input.slice(rest, i);
        cells.push(v);
      } else {
        // A quote that nothing after it closes is text: read as spreadsheets read it, the rest
        // of the input was this one cell, and every row after it was lost without a word.
        if (input.charCodeAt(i) === 34) unclosed ??= cells.length;
        const from = i;
        while (i < n) {
          const c = input.charCodeAt(i);
          if (c === sepCode || c === 10 || c === 13) break;
          i++;
        }
        cells.push(input.slice(from, i));
      }
      if (i < n && input.charCodeAt(i) === sepCode) {
        i++;
        continue;
      }
      break;
    }
    const end = i;
    if (input.charCodeAt(i) === 13) i++;
    // Lines are counted by LF, as every other reader counts them; a lone CR still ends a row.
    if (input.charCodeAt(i) === 10) {
      i++;
      line++;
    }
    rows.push(unclosed === undefined ? { cells, line: startLine, length: end - start } : { cells, line: startLine, length: end - start, unclosed });
  }
  return rows;
}

const countNewlines = (s: string, from: number, to: number): number => lineAt(s, from, 0, to);
