import { domainToASCII } from 'node:url';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import type { Options } from '../shared/types';
import { MODES, RENDER_MODES } from '../shared/types';
import { optionsConflict, setOption, validateOptions } from '../shared/urllist/options';
import { asksNothing, ASKS_NOTHING } from '../main/fetch/question';
import { UsageError } from './io';
import { closestName } from './suggest';

/** The target options every fetching command takes (SPEC §6). */
export const targetOptionSpec = {
  mode: { type: 'string' },
  question: { type: 'string', short: 'q' },
  pages: { type: 'string' },
  grep: { type: 'string' },
  jq: { type: 'string' },
  context: { type: 'boolean' },
  recover: { type: 'boolean' },
  render: { type: 'string' },
} as const satisfies NonNullable<ParseArgsConfig['options']>;

export const commonSpec = {
  json: { type: 'boolean' },
  db: { type: 'string' },
  log: { type: 'string' },
  'allow-private': { type: 'boolean' },
  'allow-host': { type: 'string', multiple: true },
  help: { type: 'boolean', short: 'h' },
} as const satisfies NonNullable<ParseArgsConfig['options']>;

/**
 * A negative number after an option that takes a value (`--limit -1`), joined to it as
 * `--limit=-1`. parseArgs refuses any value that starts with a dash as "ambiguous" (it may
 * be a forgotten value followed by the next flag), and that told the user how to spell the
 * value, not that -1 is no limit; no flag of Sift's is a dash and a digit, so the number
 * is the value, and the option's own check says what it accepts.
 */
function joinNegativeValues(argv: string[], options: NonNullable<ParseArgsConfig['options']>): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    const next = argv[i + 1];
    if (arg === '--') return [...out, ...argv.slice(i)];
    const name = arg.startsWith('--') ? arg.slice(2) : Object.keys(options).find((k) => arg === `-${options[k]?.short}`);
    if (name !== undefined && options[name]?.type === 'string' && next !== undefined && /^-\d|^-\.\d/.test(next)) {
      out.push(`--${name}=${next}`);
      i++;
    } else {
      out.push(arg);
    }
  }
  return out;
}

/** parseArgs with errors turned into UsageError (exit code 2) that name the bad flag. */
export function parse<T extends NonNullable<ParseArgsConfig['options']>>(argv: string[], options: T) {
  const parsed = parseOrExplain(argv, options);
  // `--db "$DB"` with DB unset is `--db ""`: it went on as if the flag were not there, so a
  // script meant for its own database listed, fetched into and exported the app's; `sift batch
  // --out ""` exported nothing and exited 0, and `--log ""` logged nowhere. No option of
  // Sift's means anything when it is empty.
  for (const [key, value] of Object.entries(parsed.values)) {
    if (value === '' || (Array.isArray(value) && value.includes(''))) throw new UsageError(`--${key} is empty: give it a value, or leave --${key} out`);
  }
  // So is a FILE, URL or ID given as "$LIST" with LIST unset: `sift batch ""` read the working
  // folder and said "cannot read : is a directory", `sift status ""` "no job : give the job's ID".
  if (parsed.positionals.includes('')) throw new UsageError('an argument is empty ("", as "$NAME" is when NAME is not set): give its value', { seeHelp: true });
  return parsed;
}

function parseOrExplain<T extends NonNullable<ParseArgsConfig['options']>>(argv: string[], options: T) {
  try {
    return parseArgs({ args: joinNegativeValues(argv, options), options, allowPositionals: true, strict: true });
  } catch (err) {
    const problem = err instanceof Error ? flagProblem(err, argv, options) : undefined;
    if (problem) throw new UsageError(problem.text, { seeHelp: problem.seeHelp });
    throw new UsageError(err instanceof Error ? err.message.replace(/^TypeError \[[A-Z_]+\]: /, '') : String(err));
  }
}

/**
 * parseArgs's complaint about a flag in the user's words, or undefined for one it does not
 * know. Its own were Node's: `--jsn` was "Unknown option '--jsn'. To specify a positional
 * argument starting with a '-', place it at the end of the command after '--', as in '--
 * "--jsn"" (advice for a file named --jsn, its quote left open), and Go-style `-json` was
 * "Unknown option '-j'", a flag nobody typed. Now the flag is named as typed, with the one
 * meant when it is a slip.
 */
function flagProblem(err: Error, argv: string[], options: NonNullable<ParseArgsConfig['options']>): { text: string; seeHelp: boolean } | undefined {
  const code = (err as NodeJS.ErrnoException).code;
  const longOf = (flag: string): string =>
    flag.startsWith('--') ? flag.slice(2) : (Object.keys(options).find((k) => options[k]?.short === flag.slice(1)) ?? flag.slice(1));
  const flags = argv.slice(0, argv.includes('--') ? argv.indexOf('--') : argv.length);
  if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') {
    const reported = /Unknown option '([^']+)'/.exec(err.message)?.[1];
    if (!reported) return undefined;
    // parseArgs names one letter of a group of short flags (-json is -j -s -o -n): the word typed.
    const typed = (reported.startsWith('--') ? reported : (flags.find((a) => /^-[^-]/.test(a) && a.includes(reported.slice(1))) ?? reported)).replace(/=.*$/s, '');
    const meant = closestName(typed.replace(/^-+/, ''), Object.keys(options));
    return { text: `unknown option ${typed}${meant ? `; did you mean --${meant}?` : ''}`, seeHelp: true };
  }
  if (code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE') {
    const named = /Option '(?:-\w, )?(--?[\w-]+)/.exec(err.message)?.[1];
    if (!named) return undefined;
    const flag = `--${longOf(named)}`;
    if (/does not take an argument/.test(err.message)) {
      const given = flags.find((a) => a.startsWith(`${flag}=`));
      return { text: `${flag} takes no value${given ? ` (${given})` : ''}: give ${flag} alone`, seeHelp: false };
    }
    if (/argument missing/.test(err.message)) return { text: `${flag} needs a value`, seeHelp: true };
    if (/ambiguous/.test(err.message)) {
      const at = flags.findIndex((a) => a === named || a === flag);
      const next = at >= 0 ? flags[at + 1] : undefined;
      const text = `${flag} needs a value${next ? `, and ${next} after it is read as an option` : ''}: give the value after ${flag} (one that starts with a dash as ${flag}=-VALUE)`;
      return { text, seeHelp: false };
    }
  }
  return undefined;
}

/**
 * The Options object from parsed flags; empty fields left out. A page range or regular
 * expression is checked here as a list line's is (setOption), and every value's length
 * (validateOptions): given as a flag it applies to every URL, and unchecked it would fetch
 * the whole list only to fail each target with it.
 */
export function optionsFromFlags(values: Record<string, unknown>): Options {
  const o: Options = {};
  // `--grep "$PATTERN"` with PATTERN unset fetched every URL whole, as if the flag were not
  // there; a list line's `grep=` is refused the same way (setOption).
  for (const key of ['question', 'pages', 'grep', 'jq'] as const) {
    // A question of blanks too: it fetched every page whole, as if there were no question.
    const v = values[key];
    if (v === '' || (key === 'question' && typeof v === 'string' && v.trim() === '')) throw new UsageError(`--${key} is empty: give it a value, or leave --${key} out`);
  }
  if (typeof values.mode === 'string') {
    if (!(MODES as string[]).includes(values.mode)) {
      throw new UsageError(`unknown mode "${values.mode}": use one of ${MODES.join(', ')}`);
    }
    o.mode = values.mode as Options['mode'];
  }
  if (typeof values.question === 'string' && values.question) o.question = values.question;
  for (const key of ['pages', 'grep'] as const) {
    const v = values[key];
    const why = typeof v === 'string' && v ? setOption(o, key, v) : undefined;
    if (why) throw new UsageError(`--${key}: ${why}`);
  }
  if (typeof values.jq === 'string' && values.jq) o.jq = values.jq;
  if (values.context === true) o.context = true;
  if (values.recover === true) o.recover = true;
  if (typeof values.render === 'string') {
    if (!(RENDER_MODES as string[]).includes(values.render)) {
      throw new UsageError(`unknown render "${values.render}": use one of ${RENDER_MODES.join(', ')}`);
    }
    o.render = values.render as Options['render'];
  }
  const clash = optionsConflict(o);
  if (clash) throw new UsageError(`--${clash.key} and --mode ${clash.mode} do not go together: ${clash.why}. ${clash.hint}`);
  const tooLong = validateOptions(o);
  if (tooLong) throw new UsageError(`--${tooLong}`);
  // "what is it?" for every target: each was fetched, then said it named nothing to look for
  // (meta.hint). A list line's own q= keeps that hint, as one line must not stop a list.
  if (o.question && asksNothing(o.question)) throw new UsageError(`--question "${o.question}": ${ASKS_NOTHING.why}. ${ASKS_NOTHING.hint}`);
  return o;
}

/** A host name in its own letters (wiki.例え.jp) as the URL parser writes it, to be checked so; '' when it cannot be one. */
function asciiHost(h: string): string {
  // ASCII, or more than a name (a path, a port, a user): left as it is, for the check to refuse.
  if (!/[^\x20-\x7e]/.test(h) || /[\s/\\?#@:%]/.test(h)) return h;
  const dot = h.startsWith('.') ? '.' : '';
  const ascii = domainToASCII(h.slice(dot.length));
  return ascii && dot + ascii;
}

/** --allow-host values, checked: a host name or an address, no scheme, port or path. */
export function allowHostsFromFlags(values: Record<string, unknown>): string[] {
  const raw = values['allow-host'];
  const list = Array.isArray(raw) ? (raw as unknown[]).filter((v): v is string => typeof v === 'string') : [];
  for (const h of list) {
    const v = asciiHost(h.trim());
    // An IPv6 address is all colons; a name or IPv4 address with a colon has a port.
    const hasPort = /:\d+$/.test(v) && (v.match(/:/g) ?? []).length === 1;
    if (!/^\.?[a-z0-9._:[\]-]+$/i.test(v) || hasPort) {
      throw new UsageError(`--allow-host "${h}" is not a host name or address: give the host alone, e.g. --allow-host intranet.example or --allow-host 127.0.0.1`);
    }
  }
  return list.map((h) => h.trim());
}
