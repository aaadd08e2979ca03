import type { CliIO } from './io';

/**
 * What exit code 1 also says, whatever the command: an error its run did not expect, a bug in
 * Sift (bug.ts). Each help lists it beside its own 1, so a script's author reads that a 1 from
 * `sift jobs` is not "some target failed".
 */
export const EXIT_BUG = 'a bug in Sift (stderr says so and names the log)';

/** One `sift` subcommand. run returns the exit code (SPEC §6). */
export interface Command {
  name: string;
  /** One line for `sift --help`. */
  summary: string;
  /** The full usage text for `sift NAME --help`. */
  usage: string;
  run(argv: string[], io: CliIO, signal: AbortSignal): Promise<number>;
}

/**
 * A command as `sift --help` lists it, before its module is loaded: the module (and what it
 * pulls in: the store, undici, linkedom) loads only when the command runs. Loading every
 * command's module at start made `sift --version` take 8.7x `node -e 0`.
 */
export interface CommandEntry {
  name: string;
  summary: string;
  load(): Promise<Command>;
}
