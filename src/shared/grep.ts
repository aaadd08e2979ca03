import { hasFraction } from './fraction';
/**
 * A grep option as JavaScript compiles it: one place, so the list reader, the up-front check
 * and the compute worker agree on what is valid and what it matches.
 *
 * A leading `(?i)` ignores case, as `grep -i` does and as PCRE, Python, Go and Java write it
 * inline: the first thing people try, and JavaScript takes inline flags only from Node 23
 * (V8 12.5). The u flag is used where the pattern takes it (`\p{L}`, code points beyond
 * U+FFFF), else none: a pattern valid only without it ("\-") is still a valid expression.
 */
export const IGNORE_CASE = '(?i)';

/** A text as a regular expression's source that matches it and nothing else: `a.b` as `a\.b`. */
export const literally = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

export interface GrepParts {
  pattern: string;
  flags: string;
}

/**
 * Inline flags at the very start, as Python writes them: (?i), (?m), (?s), (?ims), (?i)(?s).
 * JavaScript's i, m and s flags mean what they do there; a line is matched alone, so (?m) and
 * (?s) change nothing but a line with U+2028 in it, and were refused as JavaScript's syntax.
 */
const LEADING_FLAGS = /^(?:\(\?[ims]+\))+/;

/** The inline flags a grep option starts with ('(?i)', '(?im)'), or ''. */
export const leadingFlags = (grep: string): string => LEADING_FLAGS.exec(grep)?.[0] ?? '';

/** The pattern and flags of a grep option; throws the RegExp's SyntaxError when it is not valid. */
export function grepParts(grep: string): GrepParts {
  const { pattern, flags } = parsed(grep);
  return { pattern, flags };
}

/** grepParts, and the inline flags the pattern came after. */
function parsed(grep: string): GrepParts & { lead: string } {
  const lead = leadingFlags(grep);
  const pattern = grep.slice(lead.length);
  const flags = ['i', 'm', 's'].filter((f) => lead.includes(f)).join('');
  try {
    new RegExp(pattern, `${flags}u`);
    return { pattern, flags: `${flags}u`, lead };
  } catch {
    new RegExp(pattern, flags);
    return { pattern, flags, lead };
  }
}

/** A word character in every script, as grep -w and Python read one: letters, their marks, digits, _ and the like. */
const WORD = '\\p{L}\\p{M}\\p{N}\\p{Pc}';
const WORD_ESCAPES: Record<string, string> = {
  w: `[${WORD}]`,
  W: `[^${WORD}]`,
  b: `(?:(?<=[${WORD}])(?![${WORD}])|(?<![${WORD}])(?=[${WORD}]))`,
  B: `(?:(?<=[${WORD}])(?=[${WORD}])|(?<![${WORD}])(?![${WORD}]))`,
};

/**
 * A pattern for the u flag whose \w, \W, \b and \B know every script's letters. JavaScript's
 * are ASCII's: \bкот\b matched no line of Russian, \bcafé\b none with "café" in it (é is
 * no \w to it), and \w+ stopped inside "naïve". GNU grep and Python read them by Unicode.
 * Inside [...] a \w is its letters too; \b there is a backspace and \W is left as it is (a
 * class cannot hold a negated one). The pattern unchanged when it has none of them.
 */
export function unicodeWords(pattern: string): string {
  if (!/\\[wWbB]/.test(pattern)) return pattern;
  let out = '';
  let inClass = false;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i] as string;
    if (c === '\\' && i + 1 < pattern.length) {
      const e = pattern[i + 1] as string;
      i++;
      if (!inClass && WORD_ESCAPES[e]) out += WORD_ESCAPES[e];
      else if (inClass && e === 'w') out += WORD;
      else out += c + e;
      continue;
    }
    if (c === '[' && !inClass) inClass = true;
    else if (c === ']' && inClass) inClass = false;
    out += c;
  }
  return out;
}

/**
 * What the JavaScript engine's complaints about an expression mean, in words about the
 * pattern (V8's, as Node 20 and Electron word them). Its own message, "Invalid regular
 * expression: /(/: Unterminated group", names the engine and the slashes, not the bracket.
 */
const SYNTAX_PROBLEMS: [RegExp, string][] = [
  [/^Unterminated group/, 'a ( has no ) to close it'],
  [/^Unmatched '\)'/, 'a ) has no ( before it to open it'],
  [/^Unterminated character class/, 'a [ has no ] to close it'],
  [/^Nothing to repeat/, 'a *, +, ? or {n} comes where there is nothing to repeat; put a \\ before it to match the character itself'],
  [/^Lone quantifier brackets/, 'a { or } stands alone; put a \\ before it to match the character itself'],
  [/^Incomplete quantifier/, 'a { starts a count such as {2,5} that it does not finish'],
  [/^numbers out of order/, 'the numbers in a {min,max} count are the wrong way round'],
  [/^Range out of order/, 'a range in [...] runs backwards; write it low to high, as a-z'],
  [/^Invalid character class/, 'a range in [...] has a class such as \\d at one end'],
  [/^Duplicate capture group name/, 'two groups have the same name'],
  [/^Invalid capture group name/, 'a group name (?<name>...) must start with a letter'],
  [/^Invalid named (capture )?reference|^Invalid named capture referenced/, 'a \\k<name> names no group'],
  [/^Invalid group/, 'a (? is followed by what JavaScript does not take: it takes (?:, (?=, (?!, (?<=, (?<! and (?<name>, and (?i), (?m) and (?s) only at the very start'],
  [/^\\ at end of pattern/, 'it ends in a lone \\; write \\\\ to match a backslash'],
  [/^Invalid property name/, 'a \\p{...} names no Unicode property'],
  [/^Invalid (Unicode )?escape/, 'a \\ escape is one JavaScript does not know, or is unfinished'],
  [/^Regular expression too large/, 'it is too large'],
];

/** Why a grep option is not a valid expression, in plain words; undefined when it is valid. */
export function grepProblem(grep: string): string | undefined {
  try {
    const { pattern, flags, lead } = parsed(grep);
    // (?i) alone kept every line, where an empty --grep is refused: it has no pattern either.
    if (pattern === '' && lead) return `nothing follows ${lead}; write the pattern after it, as ${lead}error`;
    return posixClassProblem(pattern) ?? (flags.includes('u') ? undefined : foreignSyntaxProblem(pattern));
  } catch (err) {
    const engine = err instanceof Error ? err.message : String(err);
    // The engine's reason comes after "Invalid regular expression: /PATTERN/FLAGS: ".
    const why = engine.slice(engine.lastIndexOf(': ') + 2);
    return SYNTAX_PROBLEMS.find(([re]) => re.test(why))?.[1] ?? why.charAt(0).toLowerCase() + why.slice(1);
  }
}

/** The class JavaScript writes for each POSIX class grep -E takes: inside [...] too, under the u flag. */
const POSIX_CLASSES: Record<string, string> = {
  alpha: '\\p{L}', digit: '\\d', alnum: '\\p{L}\\p{N}', upper: '\\p{Lu}', lower: '\\p{Ll}', space: '\\s', blank: ' \\t',
  punct: '\\p{P}\\p{S}', xdigit: '0-9A-Fa-f', word: '\\w', cntrl: '\\p{Cc}', print: '^\\p{C}', graph: '^\\s\\p{C}',
};
const POSIX_CLASS = /(?<!\\)\[:([a-z]+):\]/;

/**
 * A POSIX class ([[:digit:]]), which grep -E and sed users type: JavaScript reads it as a class
 * of its letters and colons and a "]" after it, so [[:digit:]]+ matched "t]" and no digit.
 */
function posixClassProblem(pattern: string): string | undefined {
  const m = POSIX_CLASS.exec(pattern);
  const js = m ? POSIX_CLASSES[m[1] ?? ''] : undefined;
  return js === undefined ? undefined : `[:${m![1]}:] is a POSIX class, which JavaScript does not know (it reads the letters one by one): write ${js} in its place`;
}

/**
 * What PCRE, Python or grep mean by the escapes JavaScript does not have. Without the u flag
 * JavaScript reads such an escape as its letter: \A matched an "A", and \Z a "Z".
 */
const FOREIGN_ESCAPES: Record<string, string> = {
  A: 'an escape of PCRE and Python, not of JavaScript, which reads it as the letter A: write ^ for the start of the line',
  Z: 'an escape of PCRE and Python, not of JavaScript, which reads it as the letter Z: write $ for the end of the line',
  z: 'an escape of PCRE, not of JavaScript, which reads it as the letter z: write $ for the end of the line',
  G: 'an escape of PCRE, not of JavaScript, which reads it as the letter G: write ^ for the start of the line',
  h: 'an escape of PCRE, not of JavaScript, which reads it as the letter h: write [ \\t] for a space or tab',
  K: 'an escape of PCRE, not of JavaScript, which reads it as the letter K: Sift keeps whole lines, so leave it out',
  R: 'an escape of PCRE, not of JavaScript, which reads it as the letter R: a line holds no line break, so leave it out',
  Q: 'an escape of PCRE, not of JavaScript, which reads it as the letter Q: put a \\ before each of . * + ? ^ $ | ( ) [ ] { } in place of \\Q…\\E',
  E: 'an escape of PCRE, not of JavaScript, which reads it as the letter E: put a \\ before each of . * + ? ^ $ | ( ) [ ] { } in place of \\Q…\\E',
};
/** The letters JavaScript escapes without the u flag: classes, controls, \cX, \xHH, \uHHHH, \k<name>. */
const JS_LETTER_ESCAPE = /^(?:[dDwWsSbBnrtfv]|c[A-Za-z]|x[0-9a-fA-F]{2}|u[0-9a-fA-F]{4}|k<)/;

/**
 * What a pattern valid only without the u flag (it has "\-", which u refuses) holds that
 * JavaScript then reads as other characters than the writer meant: a letter escape it does not
 * have (\A, \Z, \h, \K; \p{…} left unfinished), or a count with no lowest number ({,3}).
 * Each was an ok that matched nothing, or the wrong lines.
 */
function foreignSyntaxProblem(pattern: string): string | undefined {
  for (let i = 0; i < pattern.length; i++) {
    if (pattern[i] !== '\\') continue;
    const rest = pattern.slice(i + 1, i + 6);
    i++;
    const letter = rest[0] ?? '';
    if (!/[A-Za-z]/.test(letter) || JS_LETTER_ESCAPE.test(rest)) continue;
    if (letter === 'p' || letter === 'P') return `a \\${letter}{...} is unfinished or names no Unicode property (write it as \\p{L} or \\p{Script=Greek})`;
    const said = FOREIGN_ESCAPES[letter];
    return `\\${letter} is ${said ?? `no escape JavaScript knows, and it reads it as the letter ${letter}: leave the \\ out to match ${letter}`}`;
  }
  const count = /(?<!\\)\{,(\d+)\}/.exec(pattern);
  if (count) return `a count {,${count[1]}} needs its lowest number in JavaScript, which reads it as the characters "{,${count[1]}}": write {0,${count[1]}}`;
  return undefined;
}

/**
 * Text as people type it: typographic apostrophes and quotes straight, a non-breaking or thin
 * space a space, a hyphen or dash used as one (en dash, minus, non-breaking hyphen) a "-".
 * Books and news pages set "Disney’s" and "1990–2000", and grep "Disney's" found none of a
 * book's 18 lines. Line for line: no line break is added or taken away.
 * - Latin letters, digits and signs in full-width forms (U+FF01-U+FF5E, as Japanese and Chinese
 *   input write them) as their ASCII, as search reads them (search/fold.ts COMPAT): grep GPU
 *   found no ＧＰＵ, Ctrl\+Alt no Ctrl＋Alt. A sentence's own punctuation (，：（）, SENTENCE_MARKS)
 *   stays unless full-width letters or digits are in its run (１，０００): read as ASCII, `,` found
 *   409 of the 1,424 Chinese lines of the Debian manual's pdftotext, where 4 hold a comma typed
 *   so; read so only beside a Latin word (GeoGebra，Kalzium), still 78. Case stays as written,
 *   so (?i) still decides whether gpu finds ＧＰＵ. The ideographic space is a space.
 * - A vulgar fraction (½ ⅓ ¾) and the fraction slash (1⁄2) as people type them, 1/2, as search
 *   reads them since its step 21; after a digit with a space before it, so 1½ is "1 1/2".
 */
export function asTyped(text: string): string {
  const fractions = hasFraction(text);
  if (!fractions && !TYPOGRAPHIC.test(text)) return text;
  const typed = text.replace(TYPOGRAPHIC_ALL, (c: string) => {
    if (!FULL_WIDTH.test(c)) return TYPED[c] ?? ' ';
    const latin = FULL_WIDTH_WORDISH.test(c);
    return c.replace(FULL_WIDTH_ALL, (w) => (latin || !SENTENCE_MARKS.includes(w) ? String.fromCharCode(w.charCodeAt(0) - 0xfee0) : w));
  });
  return fractions ? typed.replace(FRACTION_ALL, (f, at: number) => (/[0-9]/.test(typed[at - 1] ?? '') ? ' ' : '') + f.normalize('NFKC').replace('\u2044', '/')) : typed;
}
const TYPED: Record<string, string> = {
  '\u2018': "'", '\u2019': "'", '\u201A': "'", '\u201B': "'", '\u2032': "'", '\u02BC': "'",
  '\u201C': '"', '\u201D': '"', '\u201E': '"', '\u201F': '"', '\u2033': '"',
  '\u00A0': ' ', '\u2007': ' ', '\u2009': ' ', '\u202F': ' ', '\u3000': ' ',
  '\u2010': '-', '\u2011': '-', '\u2012': '-', '\u2013': '-', '\u2212': '-',
  '\u2044': '/',
};
const TYPOGRAPHIC = new RegExp(`[${Object.keys(TYPED).join('')}\\uFF01-\\uFF5E]`);
const TYPOGRAPHIC_ALL = new RegExp(`[${Object.keys(TYPED).join('')}]|[\\uFF01-\\uFF5E]+`, 'g');
const FULL_WIDTH = /^[\uFF01-\uFF5E]/;
const FULL_WIDTH_ALL = /[\uFF01-\uFF5E]/g;
const FULL_WIDTH_WORDISH = /[\uFF10-\uFF19\uFF21-\uFF3A\uFF41-\uFF5A]/;
/** The full-width marks a Chinese or Japanese sentence sets as its own punctuation (，：（）！？), ASCII only in a run with full-width letters or digits (１，０００, （ＧＰＵ）). */
const SENTENCE_MARKS = '！＂＇（），．：；？［］｛｝';
const FRACTION_ALL = /[\u00BC-\u00BE\u2150-\u215F\u2189]/g;
const FRACTION_ONE = /^[\u00BC-\u00BE\u2150-\u215F\u2189]$/;

/**
 * A pattern whose vulgar fractions and fraction slash also match as asTyped writes them: ½ as
 * (?:½|1/2), after a digit (?:½| 1/2) as 1½ reads "1 1/2", ⁄ as (?:⁄|/). A line matches as
 * written or as asTyped reads it, so 1/2 typed found a page's ½, but ½ typed found no page's
 * 1/2: none of the 20 vulgar fractions did. Inside [...] a fraction stays the character it is (a
 * class holds characters, and 1/2 is three), as does one after a backslash.
 */
export function fractionsAsTyped(pattern: string): string {
  if (!hasFraction(pattern) && !pattern.includes('\u2044')) return pattern;
  let out = '';
  let inClass = false;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i] as string;
    if (c === '\\' && i + 1 < pattern.length) {
      out += c + (pattern[++i] as string);
    } else if (inClass) {
      inClass = c !== ']';
      out += c;
    } else if (c === '[') {
      inClass = true;
      out += c;
    } else if (c === '\u2044') {
      out += '(?:\u2044|/)';
    } else if (FRACTION_ONE.test(c)) {
      out += `(?:${c}|${/[0-9]/.test(pattern[i - 1] ?? '') ? ' ' : ''}${c.normalize('NFKC').replace('\u2044', '/')})`;
    } else {
      out += c;
    }
  }
  return out;
}

/** What a user is told of an invalid grep option: what it takes, with an example of each kind. */
export const GREP_HINT = 'grep takes a JavaScript regular expression, e.g. "net (revenue|income)"; (?i) at its start ignores case.';

/** A pattern written as JavaScript code writes one, between slashes with flags after: /error/i. */
const SLASHED = /^\/(.+)\/([dgimsuvy]*)$/s;

/**
 * Why a grep option matched no line, when more can be said than "it tells capitals from small
 * letters; (?i) at its start ignores case": that advice was given to (?i)error and to 404,
 * whose case nothing changes, and said nothing to /error/i, whose slashes grep looked for in
 * every line (a pattern as JavaScript code writes it, and as people paste it). Undefined when
 * the case advice is the one to give.
 */
export function noMatchWhy(grep: string): string | undefined {
  const slashed = SLASHED.exec(grep);
  // A path (/usr/local/) has slashes inside too; a pattern between slashes escapes its own (\/).
  if (slashed && !/(?<!\\)\//.test(slashed[1] ?? '')) {
    const inner = slashed[1] ?? '';
    const ignoreCase = slashed[2]?.includes('i') === true;
    return `No line matches ${grep}, slashes included: if they wrap the pattern, as JavaScript code writes one, write ${ignoreCase ? IGNORE_CASE : ''}${inner} instead (Sift's grep takes the pattern alone, as grep does${ignoreCase ? ', and (?i) at its start ignores case' : ''}).`;
  }
  const { pattern, flags } = (() => {
    try {
      return grepParts(grep);
    } catch {
      return { pattern: grep, flags: '' };
    }
  })();
  if (flags.includes('i')) return 'No line matches the grep expression, with capitals and small letters alike: the page was read, and nothing in it matched.';
  // No letter that has a capital (digits, punctuation, Chinese) outside escapes and group names: \b, \d or \p{L} match no letter.
  const letters = pattern.replace(/\\(?:[pPu]\{[^}]*\}|u[0-9a-fA-F]{4}|x[0-9a-fA-F]{2}|c[A-Za-z]|k<[^>]*>|[\s\S])|\(\?<[^>=!]*>/g, '');
  if (letters.toLowerCase() === letters.toUpperCase()) return 'No line matches the grep expression: the page was read, and nothing in it matched.';
  return undefined;
}
