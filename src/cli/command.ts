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
