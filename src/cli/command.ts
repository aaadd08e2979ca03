import type { CliIO } from './io';

/** One `sift` subcommand. run returns the exit code (SPEC §6). */
export interface Command {
  name: string;
  /** One line for `sift --help`. */
  summary: string;
  /** The full usage text for `sift NAME --help`. */
  usage: string;
  run(argv: string[], io: CliIO, signal: AbortSignal): Promise<number>;
}
