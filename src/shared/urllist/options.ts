import { grepProblem } from '../grep';
import { MODES, MODE_NOTES, OptionsSchema, RENDER_MODES, type Mode, type Options } from '../types';
import type * as z from 'zod';

/** The keys a list may name, and what each means. `q` is short for question (SPEC §6). */
const KEY_ALIASES: Record<string, keyof Options> = {
  mode: 'mode',
  question: 'question',
  q: 'question',
  pages: 'pages',
  grep: 'grep',
  jq: 'jq',
  context: 'context',
  recover: 'recover',
  render: 'render',
};
const OPTION_ORDER: readonly (keyof Options)[] = ['mode', 'question', 'pages', 'grep', 'jq', 'context', 'recover', 'render'];
const FLAGS = new Set<keyof Options>(['context', 'recover']);
const TRUE = new Set(['true', '1', 'yes', 'on']);
const FALSE = new Set(['false', '0', 'no', 'off']);
// "1-3,7,10-" as SPEC §2 writes a PDF page selection.
const PAGES = /^\d+(?:-\d*)?(?:,\d+(?:-\d*)?)*$/;

/** A page list with an empty part (1,,2, a comma at an end): where it is and the list without it. */
export function emptyPagesPart(spec: string): string | undefined {
  const parts = spec.split(',');
  if (parts.length < 2 || parts.every((p) => p !== '')) return undefined;
  const rest = parts.filter((p) => p !== '').join(',');
  if (rest === '') return undefined;
  const empties = parts.filter((p) => p === '').length;
  const where = empties > 1 ? 'in more than one place between or around its commas' : parts[0] === '' ? 'before the first comma' : parts.at(-1) === '' ? 'after the last comma' : 'between two commas';
  return `pages "${clipValue(spec)}": there is nothing ${where}; write ${clipValue(rest)}`;
}

export type OptionsResult = { ok: true; options: Options } | { ok: false; reason: string };

/** The option a column or key name stands for, or undefined when it is none. */
export function optionKey(name: string): keyof Options | undefined {
  return Object.hasOwn(KEY_ALIASES, name.toLowerCase()) ? KEY_ALIASES[name.toLowerCase()] : undefined;
}

/** A URL's escape of a character (%20), which questionWords reads as the character and a list line Sift writes quotes to keep. */
const ESCAPED = /%[0-9a-f]{2}/i;

/**
 * A question written as a URL's query writes one (`who%20counted%20the%20crates`, copied from
 * an address, or typed so since a space ends an unquoted value), read as the words it encodes,
 * `+` as a space there too, as a form's query has it. Only a value with no blank and a valid escape:
 * a blank says it was written as words ("what does %20 mean?"), and `50%de` or `100%` is
 * no escape. Read as written, the question's words were `20counted` and `20crates`, it found
 * no passage, and "Asked with" showed the escapes.
 */
export function questionWords(value: string): string {
  if (/\s/.test(value) || !ESCAPED.test(value)) return value;
  try {
    return decodeURIComponent(value.replace(/\+/g, ' '));
  } catch {
    return value;
  }
}

/**
 * Sets one option from its text form, or says why the value is refused. Values are checked
 * here, not when the target is fetched, so the user fixes the list before submitting it.
 * A question is read as words when it is written as a URL's query (questionWords), unless it
 * was `quoted` on a list line, which keeps its characters as they are.
 */
export function setOption(o: Options, key: keyof Options, value: string | true, quoted = false): string | undefined {
  if (o[key] !== undefined) return `option ${key} given twice`;
  if (FLAGS.has(key)) {
    if (value === true) {
      o[key as 'context' | 'recover'] = true;
      return undefined;
    }
    const v = value.trim().toLowerCase();
    if (TRUE.has(v)) o[key as 'context' | 'recover'] = true;
    else if (FALSE.has(v)) o[key as 'context' | 'recover'] = false;
    else return `${key} must be true or false, not "${clipValue(value)}"`;
    return undefined;
  }
  if (value === true) return `option ${key} needs a value (${key}=…)`;
  if (key === 'question' && !quoted) value = questionWords(value);
  // A question of blanks asks nothing: it gave the whole page, as if there were no question.
  if (value === '' || (key === 'question' && value.trim() === '')) return `option ${key} has an empty value`;
  switch (key) {
    case 'mode':
      if (!(MODES as readonly string[]).includes(value)) {
        return `unknown mode "${clipValue(value)}": use one of ${MODES.join(', ')}`;
      }
      o.mode = value as Options['mode'];
      return undefined;
    case 'render':
      if (!(RENDER_MODES as readonly string[]).includes(value)) {
        return `unknown render "${clipValue(value)}": use one of ${RENDER_MODES.join(', ')}`;
      }
      o.render = value as Options['render'];
      return undefined;
    case 'pages': {
      const spec = value.replace(/\s+/g, '');
      // "-3" is "up to page 3" to someone who writes "10-" for "from page 10 on".
      const upTo = /^-(\d+)$/.exec(spec);
      if (upTo) return `pages "${spec}": a range names its first page too; ${upTo[1] === '1' ? 'for page 1 write 1' : `for the first ${upTo[1]} write 1-${upTo[1]}`}`;
      const empty = emptyPagesPart(spec);
      if (empty) return empty;
      if (!PAGES.test(spec)) return `pages must look like 1-3,7,10- (got "${clipValue(value)}")`;
      // What the fetcher refuses (parsePages) is refused here too, or every target of the
      // list fails with it after the whole list was submitted.
      const wrong = pagesProblem(spec);
      if (wrong) return wrong;
      o.pages = value;
      return undefined;
    }
    case 'grep': {
      const why = grepProblem(value);
      if (why) return `grep "${clipValue(value)}" is not a valid regular expression: ${why}`;
      o.grep = value;
      return undefined;
    }
    default:
      o[key as 'question' | 'jq'] = value;
      return undefined;
  }
}

/** Why a page selection of PAGES' syntax names no page: page 0, a range that runs backwards, a number past 6 digits. */
function pagesProblem(spec: string): string | undefined {
  for (const part of spec.split(',')) {
    const [from = '', to = ''] = part.split('-');
    if (from.length > 6 || to.length > 6) return `pages ${clipValue(part)}: no document has that many pages`;
    if (Number(from) < 1) return `pages ${part}: pages count from 1`;
    if (to !== '' && Number(to) < Number(from)) return `pages ${part} runs backwards: write ${to}-${from}`;
  }
  return undefined;
}

const lowerFirst = (s: string): string => s.charAt(0).toLowerCase() + s.slice(1);

function clipValue(v: string): string {
  return v.length <= 60 ? v : `${v.slice(0, 59)}…`;
}

/** Two options that ask for different results, with what to do: said, as neither can be honoured beside the other. */
export interface OptionsConflict {
  key: 'jq' | 'question';
  mode: Mode;
  /** Why the two do not go together ("with jq, the result is jq's output"). */
  why: string;
  hint: string;
}

/** The modes whose output is not text that passages can be ranked in: markup, the body as served, a list of links, the document's facts. */
const NO_PASSAGE_MODES = new Set<Mode>(['html', 'raw', 'links', 'meta']);

/**
 * Options that cannot both be honoured. jq's output is the result whatever the mode says,
 * so "jq with mode raw" gave jq's output where the body as served was asked for, and no word
 * of it; a question ranks passages of the readable text, and in markup, the body as served,
 * a page's links or its facts it found none ("no answer" on a page that answers it).
 */
export function optionsConflict(o: Options): OptionsConflict | undefined {
  const mode = o.mode;
  if (mode === undefined || !NO_PASSAGE_MODES.has(mode)) return undefined;
  if (o.jq !== undefined && o.jq.trim() !== '') {
    return {
      key: 'jq',
      mode,
      why: "with jq, the result is jq's output",
      hint: `Leave the mode out for jq's output as JSON, or make it text for its strings unquoted; or leave jq out for ${MODE_NOTES[mode]}.`,
    };
  }
  if (o.question !== undefined && o.question.trim() !== '') {
    return {
      key: 'question',
      mode,
      why: 'passages are ranked in the readable text',
      hint: `Leave the mode out (Markdown) or make it text to rank passages; or leave the question out for ${MODE_NOTES[mode]}.`,
    };
  }
  return undefined;
}

/** A conflict in one line, as a list's parse report and a failed target say it. */
export const conflictMessage = (c: OptionsConflict): string => `${c.key === 'jq' ? 'jq' : 'a question'} and mode ${c.mode} do not go together: ${c.why}`;


/** Checks the lengths OptionsSchema caps (question 2000, jq 8000, …) after parsing, and options that ask for different results. */
export function validateOptions(o: unknown): string | undefined {
  const r = OptionsSchema.safeParse(o);
  if (r.success) {
    const clash = optionsConflict(r.data);
    return clash && `${conflictMessage(clash)}; ${lowerFirst(clash.hint)}`;
  }
  const long = tooLongIn(o, r.error.issues);
  if (long) return `${long.key}: ${long.length} characters, at most ${long.max}; shorten it`;
  const issue = r.error.issues[0];
  return `${issue?.path.join('.') || 'options'}: ${issue?.message ?? 'invalid'}`;
}

type TooLong = { key: keyof Options; length: number; max: number };

/**
 * The first option longer than OptionsSchema takes, with its length and the cap. zod's own
 * words ("Too big: expected string to have <=2000 characters") say neither how long the value
 * is nor what to do; the CLI and the app's composer say both.
 */
export function tooLongOption(o: unknown): TooLong | undefined {
  const r = OptionsSchema.safeParse(o);
  return r.success ? undefined : tooLongIn(o, r.error.issues);
}

/** The first of a failed parse's issues that is an option too long (tooLongOption). */
function tooLongIn(o: unknown, issues: readonly z.core.$ZodIssue[]): TooLong | undefined {
  for (const issue of issues) {
    const key = issue.path[0];
    const value: unknown = typeof o === 'object' && o !== null && typeof key === 'string' ? (o as Record<string, unknown>)[key] : undefined;
    if (issue.code === 'too_big' && typeof value === 'string') return { key: key as keyof Options, length: value.length, max: Number(issue.maximum) };
  }
  return undefined;
}

/** Per-line options win over the list's defaults. */
export function mergeOptions(defaults: Options | undefined, own: Options | undefined): Options {
  if (!defaults) return own ?? {};
  if (!own) return { ...defaults };
  return { ...defaults, ...own };
}

/**
 * The options in fixed key order with empty strings and undefined dropped: the form that is
 * printed and compared. An explicit false is kept, because `context=false` on a line
 * overrides a list-wide `context` default and is not the same as "the mode's default".
 */
export function canonicalOptions(o: Options | undefined): Options {
  const out: Options = {};
  if (!o) return out;
  for (const k of OPTION_ORDER) {
    const v = o[k];
    if (v === undefined || v === '') continue;
    (out as Record<string, unknown>)[k] = v;
  }
  return out;
}

export function isEmptyOptions(o: Options): boolean {
  for (const k of OPTION_ORDER) if (o[k] !== undefined) return false;
  return true;
}

/**
 * Parses the options that follow the URL on a plain-text line: `key=value`, `key="a b"`,
 * `key='a b'` (or in typographic quotes, QUOTES), and bare `context` / `recover`. Inside
 * quotes a backslash escapes only the quote character and itself; any other backslash is
 * kept, so regular expressions and jq programs (`\d`, `"\(.name)"`) need no doubling. An unquoted word starting with `#` starts
 * a comment that runs to the end of the line.
 */
export function parseOptionsText(s: string): OptionsResult {
  const o: Options = {};
  const n = s.length;
  let i = 0;
  while (i < n) {
    let c = s.charCodeAt(i);
    if (c === 32 || c === 9) {
      i++;
      continue;
    }
    if (c === 35 /* # */) break;
    const keyStart = i;
    while (i < n) {
      c = s.charCodeAt(i);
      if (c === 61 /* = */ || c === 32 || c === 9) break;
      i++;
    }
    const name = s.slice(keyStart, i);
    const key = optionKey(name);
    // URLs pasted from a chat or a sentence, one after the other: no option to look up.
    if (!key && /^[a-z][a-z0-9+.-]*:\/\//i.test(name)) return { ok: false, reason: 'more than one URL on this line: put each URL on a line of its own' };
    if (!key) {
      // A word with no "=" right after the URL is most often the rest of a URL with a space in it ("…/My Report.pdf").
      const space = keyStart === s.search(/\S/) && (i >= n || s.charCodeAt(i) !== 61) ? '; a space ends the URL, so write a space inside one as %20' : '';
      return { ok: false, reason: `unknown option "${clipValue(name)}": use mode, question (q), pages, grep, jq, context, recover or render${space}` };
    }
    if (i >= n || s.charCodeAt(i) !== 61) {
      // "q = what": the "=" parted from its key by spaces.
      if (/^[ \t]+=/.test(s.slice(i, i + 64))) return { ok: false, reason: `option ${key}: no space before or after "=": write ${key}=…` };
      const err = setOption(o, key, true);
      if (err) return { ok: false, reason: err };
      continue;
    }
    i++; // past '='
    let value: string;
    const q = QUOTES[s[i] as string];
    const quoted = q !== undefined;
    if (q !== undefined) {
      i++;
      let v = '';
      let closed = false;
      while (i < n) {
        const ch = s[i] as string;
        if (ch === '\\' && (s[i + 1] === q || s[i + 1] === '\\')) {
          v += s[i + 1];
          i += 2;
          continue;
        }
        if (ch === q) {
          closed = true;
          i++;
          break;
        }
        v += ch;
        i++;
      }
      if (!closed) return { ok: false, reason: `option ${key}: missing closing ${q}` };
      if (i < n && s[i] !== ' ' && s[i] !== '\t') {
        // q="a"mode=text is two options run together; q="say "hi" please" is a quote inside the value.
        if (/^[a-z]+=/i.test(s.slice(i, i + 16))) return { ok: false, reason: `option ${key}: text right after the closing ${q}; put a space between options` };
        const other = q === '"' ? "'" : '"';
        return { ok: false, reason: `option ${key}: the ${q} inside the value ends it; write it as \\${q}, or quote the value with ${other}…${other}` };
      }
      value = v;
    } else {
      const start = i;
      while (i < n && s[i] !== ' ' && s[i] !== '\t') i++;
      value = s.slice(start, i);
    }
    const err = setOption(o, key, value, quoted);
    if (err) return { ok: false, reason: err };
  }
  const bad = validateOptions(o);
  if (bad) return { ok: false, reason: bad };
  return { ok: true, options: o };
}

/**
 * Each opening quote and the quote that closes it. Besides " and ', the typographic quotes
 * that macOS, Word, Google Docs and chat apps put in place of typed ones ("smart quotes"),
 * English and German: unread, q=“what does it cost?” was refused for an "unknown option
 * does", and q=“hi” asked for “hi” with its quotes, which no passage contains.
 */
const QUOTES: Record<string, string> = { '"': '"', "'": "'", '“': '”', '”': '”', '‘': '’', '„': '“' };

function quoteValue(v: string): string {
  // A list line cannot hold a line break; in a question or jq program it is whitespace.
  const flat = v.replace(/\r\n|[\r\n]/g, ' ');
  // A value that starts with a quote of any kind is quoted, or it would be read back without it.
  // So is one with an escape (%20), which would be read back as the character it encodes.
  if (flat !== '' && !/[\s"'\\]/.test(flat) && !ESCAPED.test(flat) && !Object.hasOwn(QUOTES, flat[0] as string)) return flat;
  return `"${flat.replace(/[\\"]/g, (m) => `\\${m}`)}"`;
}

/**
 * One plain-text list line, `URL key=value …`, that parseList reads back to the same target
 * (a list Sift writes, e.g. failed.txt, is a list Sift reads). Line breaks inside a value
 * become spaces, the only change a round trip can make.
 */
export function formatOptionsLine(t: { url: string; options?: Options }): string {
  const parts = [t.url];
  const o = canonicalOptions(t.options);
  for (const k of OPTION_ORDER) {
    const v = o[k];
    if (v === undefined) continue;
    if (typeof v === 'boolean') parts.push(v ? k : `${k}=false`);
    else parts.push(`${k}=${quoteValue(v)}`);
  }
  return parts.join(' ');
}

/**
 * Options given as an object (a JSON list's `{"url", "options"}`), checked with the same
 * rules as the text form so a list means the same thing in every format.
 */
export function optionsFromObject(v: unknown): OptionsResult {
  if (v === undefined || v === null) return { ok: true, options: {} };
  if (typeof v !== 'object' || Array.isArray(v)) return { ok: false, reason: 'options must be an object' };
  const o: Options = {};
  for (const [name, value] of Object.entries(v as Record<string, unknown>)) {
    const key = optionKey(name);
    if (!key) return { ok: false, reason: `unknown option "${clipValue(name)}": use mode, question (q), pages, grep, jq, context, recover or render` };
    if (value === undefined || value === null) continue;
    let err: string | undefined;
    if (typeof value === 'boolean' && FLAGS.has(key)) {
      err = o[key] !== undefined ? `option ${key} given twice` : undefined;
      if (!err) o[key as 'context' | 'recover'] = value;
    } else if (typeof value === 'string') {
      err = setOption(o, key, value);
    } else {
      err = `option ${key} must be ${FLAGS.has(key) ? 'true or false' : 'a string'}`;
    }
    if (err) return { ok: false, reason: err };
  }
  const bad = validateOptions(o);
  return bad ? { ok: false, reason: bad } : { ok: true, options: o };
}
