/**
 * Where the first "</name" (in any case) is in `html` from `from`, or -1; `name` in lower
 * case. Compared in place, as HTML compares tag names (ASCII letters in any case): not by
 * lowering the whole page (String#toLowerCase of a benchmark page, 182 KB on average, took
 * 1.5-2 ms of CPU, a tenth of extracting it), nor a slice of it at each "</" (a third of
 * judging a page, when classify.ts did so).
 */
export function endTagAt(html: string, name: string, from: number): number {
  for (let at = html.indexOf('</', from); at >= 0; at = html.indexOf('</', at + 2)) {
    if (nameAt(html, at + 2, name)) return at;
  }
  return -1;
}

/** Whether `name` (lower case) is at `i` in `text`, its ASCII letters in any case. */
function nameAt(text: string, i: number, name: string): boolean {
  if (i + name.length > text.length) return false;
  for (let k = 0; k < name.length; k++) {
    let ch = text.charCodeAt(i + k);
    if (ch >= 65 && ch <= 90) ch += 32;
    if (ch !== name.charCodeAt(k)) return false;
  }
  return true;
}
