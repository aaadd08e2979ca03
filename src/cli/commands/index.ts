import type { Command } from '../command';
import { parseCommand } from './parse';

/** Every `sift` subcommand, in the order `sift --help` lists them. */
export const commands: Command[] = [parseCommand];
