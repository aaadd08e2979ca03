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

/** A count as the app writes one, in the reader's locale. */
export const counted = countWith((n) => n.toLocaleString());
