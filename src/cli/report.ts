import { SiftError } from '../shared/errors';
import { EXIT, type CliIO } from './io';
import { forTerminal } from './terminal';

/**
 * A typed error as one line and its hint on stderr, named by the command that met it as every
 * other line of its is ("sift export: cannot write to …"; it said "sift:"); exit 2 (bad usage
 * or input, or busy).
 * Apart from io.ts: SiftError brings the shared schemas (zod), which `sift --version` and
 * `--help` never load.
 */
export function reportError(err: unknown, io: CliIO, command: string): number {
  if (err instanceof SiftError) {
    io.stderr.write(forTerminal(`sift ${command}: ${err.message}${err.hint ? `\n  ${err.hint}` : ''}\n`));
    return EXIT.usage;
  }
  throw err;
}

/**
 * Failures of the disk, not of what the user gave: a full one, or a write the OS refused for
 * another reason (EIO). Exit 2 told a script its input was wrong, so it never tried again once
 * space was freed; the work is what failed, as a failed write of stdout exits 1.
 */
const WRITE_FAILURES = new Set(['disk_full', 'export_failed']);

/** reportError for a command that stores or writes results (batch, export): exit 1 when the disk failed it. */
export function reportWriteError(err: unknown, io: CliIO, command: string): number {
  const code = reportError(err, io, command);
  return err instanceof SiftError && WRITE_FAILURES.has(err.code) ? EXIT.someFailed : code;
}
