import type { Command } from '../command';
import { parseCommand } from './parse';
import { fetchCommand } from './fetch';
import { extractCommand } from './extract';
import { batchCommand } from './batch';
import { cancelCommand, exportCommand, jobsCommand, statusCommand } from './jobs';
import { searchCommand } from './search';

/** Every `sift` subcommand, in the order `sift --help` lists them. */
export const commands: Command[] = [fetchCommand, extractCommand, parseCommand, batchCommand, jobsCommand, statusCommand, cancelCommand, exportCommand, searchCommand];
