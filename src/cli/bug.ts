import { parseArgs } from 'node:util';
import { describe } from '../main/batchrun';
import { cliLog, cliLogPath } from './context';
import { EXIT, type CliIO } from './io';
import { forTerminal } from './terminal';

/**
 * A bug in Sift thrown out of a command's run. It exited 2, "bad usage or input", which told a
 * script to fix what it gave, and printed the error's own message: undici's and Node's quote
 * the target's URL or host. It is said as a bug, with the log that says where it happened (the
 * stack's frames are code, not targets), and exits 1, as a failed target or a full disk does.
 * Loaded only when that happens: the run's modules are loaded already, and `sift --version`
 * never needs it.
 */
export function reportBug(err: unknown, command: string, argv: string[], io: CliIO): number {
  const { name } = describe(err);
  const log = logBug(err, command, argv, io);
  const where = log ? `The log ${log} says where it happened; please report it with that line.` : 'Run it again with --log PATH to have where it happened written down, and report it.';
  io.stderr.write(forTerminal(`sift ${command}: internal error (${name}): this is a bug in Sift, not in what you gave it.\n  ${where}\n`));
  return EXIT.someFailed;
}

/** Writes the bug to the log the command's flags name (--db's folder, --log); its path, or '' when none can be written. */
function logBug(err: unknown, command: string, argv: string[], io: CliIO): string {
  // Not the command's own parse: what failed may be that, or a flag it has not seen.
  const { values } = parseArgs({ args: argv, options: { db: { type: 'string' }, log: { type: 'string' } }, strict: false, allowPositionals: true });
  const flags = { db: typeof values.db === 'string' ? values.db : undefined, log: typeof values.log === 'string' ? values.log : undefined };
  try {
    const log = cliLog(flags, io);
    // Its name and code, not its message: describe() cuts URLs out, but a bare host name
    // (Node's "getaddrinfo ENOTFOUND host") would stay.
    const { name, code } = describe(err);
    log.error({ command, err: code ? { name, code } : { name }, stack: stackFrames(err) }, 'a command failed with an unexpected error (a bug in Sift)');
    return cliLogPath(flags, io);
  } catch {
    return '';
  }
}

/** Where the error was thrown: the stack's "at …" lines, without the message above them (it may quote a target). */
function stackFrames(err: unknown): string[] {
  const stack = err instanceof Error && typeof err.stack === 'string' ? err.stack : '';
  return stack
    .split('\n')
    .filter((l) => /^\s+at /.test(l))
    .map((l) => l.trim());
}
