import { parseArgs, type ParseArgsConfig } from 'node:util';
import type { Options } from '../shared/types';
import { MODES } from '../shared/types';
import { UsageError } from './io';

/** The target options every fetching command takes (SPEC §6). */
export const targetOptionSpec = {
  mode: { type: 'string' },
  question: { type: 'string', short: 'q' },
  pages: { type: 'string' },
  grep: { type: 'string' },
  jq: { type: 'string' },
  context: { type: 'boolean' },
  recover: { type: 'boolean' },
} as const satisfies NonNullable<ParseArgsConfig['options']>;

export const commonSpec = {
  json: { type: 'boolean' },
  db: { type: 'string' },
  log: { type: 'string' },
  'allow-private': { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const satisfies NonNullable<ParseArgsConfig['options']>;

/** parseArgs with errors turned into UsageError (exit code 2) that name the bad flag. */
export function parse<T extends NonNullable<ParseArgsConfig['options']>>(argv: string[], options: T) {
  try {
    return parseArgs({ args: argv, options, allowPositionals: true, strict: true });
  } catch (err) {
    throw new UsageError(err instanceof Error ? err.message.replace(/^TypeError \[[A-Z_]+\]: /, '') : String(err));
  }
}

/** The Options object from parsed flags; empty fields left out. */
export function optionsFromFlags(values: Record<string, unknown>): Options {
  const o: Options = {};
  if (typeof values.mode === 'string') {
    if (!(MODES as string[]).includes(values.mode)) {
      throw new UsageError(`unknown mode "${values.mode}": use one of ${MODES.join(', ')}`);
    }
    o.mode = values.mode as Options['mode'];
  }
  if (typeof values.question === 'string' && values.question) o.question = values.question;
  if (typeof values.pages === 'string' && values.pages) o.pages = values.pages;
  if (typeof values.grep === 'string' && values.grep) o.grep = values.grep;
  if (typeof values.jq === 'string' && values.jq) o.jq = values.jq;
  if (values.context === true) o.context = true;
  if (values.recover === true) o.recover = true;
  return o;
}
