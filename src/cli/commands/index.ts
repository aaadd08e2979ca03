import type { Command } from '../command';

/** Every `sift` subcommand, in the order `sift --help` lists them. */
export const commands: Command[] = [];
