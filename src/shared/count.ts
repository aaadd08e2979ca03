/**
 * A count with its noun ("1 target", "3,000 targets"), written the same way by the app, the
 * CLI and "Ask this job". Each writes the number its own way, so the noun rule lives here and
 * the number's writer is given: the CLI's output is read by scripts and pinned in en-US, the
 * app's in the reader's locale.
 */
export const countWith =
  (format: (n: number) => string) =>
  (n: number, one: string, many = `${one}s`): string =>
    `${format(n)} ${n === 1 ? one : many}`;

/** What an export wrote, with `count`'s numbers: its files ("8 files"), or the one zip and the files it holds. */
export const filesWritten = (count: (n: number, one: string) => string, s: { files: number; entries?: number }): string =>
  s.entries === undefined ? count(s.files, 'file') : `a zip of ${count(s.entries, 'file')}`;

/** A count as the app writes one, in the reader's locale. */
export const counted = countWith((n) => n.toLocaleString());
