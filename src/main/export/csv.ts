import type { Options } from 'csv-stringify';

// Where a spreadsheet that does not split this file at its commas starts a new cell within a
// value: at a ';' (Excel's separator where ',' is the decimal mark, much of Europe), at a tab
// (LibreOffice's import offers it) or at a line break (a reader that did not take the
// field's opening quote, which comes mid-cell for it, ends the row there). Spaces between
// are skipped when the cell is read as a number or formula. The full-width signs are those
// escape_formulas takes at a value's start (Excel in East Asian locales may read them as = + - @).
const CELL_START_IN_VALUE = /([;\t\r\n][ \t\r\n]*)(?=[=+\-@\uff1d\uff0b\uff0d\uff20])/g;

/**
 * csv-stringify's options for a CSV a spreadsheet opens: RFC 4180 (CRLF, quotes doubled), a
 * UTF-8 BOM so Excel reads titles in any script, and no cell it would run as a formula
 * (OWASP's CSV injection; titles come from the web). A value starting with =, +, -, @, tab
 * or CR gets a leading apostrophe (escape_formulas), and so does each place inside a value
 * where such a spreadsheet starts a new cell: the title "Prices;=1+2;" ran "=1+2" there.
 */
export const SPREADSHEET_SAFE = {
  bom: true,
  record_delimiter: 'windows',
  escape_formulas: true,
  cast: { string: (value: string): string => value.replace(CELL_START_IN_VALUE, "$1'") },
} as const satisfies Options;
