/**
 * Calls fn for each line (without its line break; a CR before the LF is dropped) with its
 * 1-based number. indexOf over the string rather than split(), so a 200,000-line list
 * does not first become an array of 200,000 strings. fn returns false to stop early.
 */
export function forEachLine(input: string, fn: (line: string, n: number) => void | false): void {
  let start = 0;
  let n = 1;
  const len = input.length;
  while (start < len) {
    let end = input.indexOf('\n', start);
    if (end === -1) end = len;
    const stop = end > start && input.charCodeAt(end - 1) === 13 ? end - 1 : end;
    if (fn(input.slice(start, stop), n) === false) return;
    start = end + 1;
    n++;
  }
}

/**
 * The offset just past line `maxLines`, or -1 when the input has no more lines than that.
 * Readers get input cut there, so nothing after the line cap is ever looked at.
 */
export function lineCapOffset(input: string, maxLines: number): number {
  let pos = 0;
  for (let n = 0; n < maxLines; n++) {
    const nl = input.indexOf('\n', pos);
    if (nl === -1) return -1;
    pos = nl + 1;
  }
  return pos < input.length ? pos : -1;
}

/**
 * Line number (1-based) of `offset`, counting on from a known (offset, line) pair. Counts only
 * between the two: indexOf('\n') ran on to the next line break, so on a list written on one
 * line (a minified sitemap or bookmarks file) every call read the rest of the file: 50,000
 * sitemap entries on one line took 12.6 s.
 */
export function lineAt(input: string, from: number, fromLine: number, offset: number): number {
  let line = fromLine;
  for (let i = from; i < offset; i++) if (input.charCodeAt(i) === 10) line++;
  return line;
}

/** Why a line over the length cap is refused. */
export function tooLong(line: string, max: number): string {
  return `line too long (${line.length} characters; at most ${max})`;
}
