import type { CliIO } from './io';

/**
 * How long a command may wait in silence before it says what it waits for. On a terminal a
 * person watches: 2 s, past anything a command does at once (a list piped from a file has
 * ended; a small database's copy is written in milliseconds). In a log (stderr not a terminal)
 * a line explains a stall to whoever reads it later, and one for every 2 s wait would be noise
 * in a wrapper that shows stderr as an error: 10 s, past the copy of a database of a few
 * hundred MB.
 */
const QUIET_ON_TERMINAL_MS = 2_000;
const QUIET_IN_LOG_MS = 10_000;

/**
 * Writes line() on stderr once a wait has lasted as long as above (on a terminal only, with
 * terminalOnly: sift batch's first line must stay `job ID`, SPEC §6); the returned function
 * ends the wait, and the line is not written after it.
 */
export function sayIfStillWaiting(io: CliIO, line: () => string, o: { terminalOnly?: boolean } = {}): () => void {
  if (!io.isTTY && o.terminalOnly) return () => {};
  const timer = setTimeout(() => io.stderr.write(`${line()}\n`), io.isTTY ? QUIET_ON_TERMINAL_MS : QUIET_IN_LOG_MS);
  timer.unref();
  return () => clearTimeout(timer);
}
