import { SiftError } from '../shared/errors';
import { EXIT, type CliIO } from './io';

/**
 * A typed error as one line and its hint on stderr; exit 2 (bad usage or input, or busy).
 * Apart from io.ts: SiftError brings the shared schemas (zod), which `sift --version` and
 * `--help` never load.
 */
export function reportError(err: unknown, io: CliIO): number {
  if (err instanceof SiftError) {
    io.stderr.write(`sift: ${err.message}${err.hint ? `\n  ${err.hint}` : ''}\n`);
    return EXIT.usage;
  }
  throw err;
}
