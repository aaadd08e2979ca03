import { arabicPrefixStarts } from './arabic';
import { APOSTROPHES, CJK_CHAR, foldTerm, foldWithMap, HYPHENS, INDIC_MARK_SOURCE, PICTOGRAPH, segmentWords } from './fold';
import { signedWords, type Term } from './query';
import { isPageLines, pageAt } from '../../shared/pages';
import { isSourceLines, sourceLineAt } from '../../shared/source-lines';
import { literally } from '../../shared/grep';

/** A piece of a result around a match; marks are [start, end) offsets into text. */
export interface Snippet {
  text: string;
  marks: [number, number][];
  /** 1-based line of the content where the shown match is. */
  line: number;
}

/**
 * A character that continues a word, as the index splits words: a letter or digit, but not a
 * Chinese, Japanese or Korean one, each of which the index makes a word of its own (fold.ts).
 * "KeePassの" and "Veyon的" hold the words KeePass and Veyon; with CJK counted as part of
 * the word, such a hit had no snippet and was cited as "in the url", without its line.
 */
const WORD_CHAR = `(?:(?!${CJK_CHAR.source})[\\p{L}\\p{N}]|${INDIC_MARK_SOURCE})`;

const SEP = '[^\\p{L}\\p{N}]';
/** A word of one character: a CJK character or a pictograph, found inside a run without spaces. */
const isCharWord = (s: string): boolean => CJK_CHAR.test(s) || PICTOGRAPH.test(s);

/**
 * A word as the highlighter finds it: with a hyphen or an apostrophe between two of its letters
 * too, as the index finds email in e-mail, cooperate in co-operate and obrien in O'Brien
 * (fold.ts joinedCompounds).
 */
const joinable = (word: string): string => Array.from(word, (c) => literally(c)).join(`[${HYPHENS}${APOSTROPHES}]?`);

/** A form of a term (query.ts wordTerm): its words in order (the phrase e-mail is e and mail), each joinable. */
const formSource = (form: string): string =>
  form
    .split(/[^\p{L}\p{N}\p{M}]+/u)
    .filter(Boolean)
    .map(joinable)
    .join(`${SEP}+?`);

/** A regex over folded text that finds one term the way FTS5 matched it: whole words, in order. */
function termRegex(term: Term): RegExp | undefined {
  // A word typed bare is any of its forms (query.ts wordTerm).
  if (term.forms) return new RegExp(`(?<!${WORD_CHAR})(?:${term.forms.map(formSource).join('|')})(?!${WORD_CHAR})`, 'gu');
  const pieces: string[] = [];
  for (const run of signedWords(foldTerm(term.text))) {
    // A signed word (C++, .NET) is found with its signs, as typed.
    if (/[^\p{L}\p{N}]/u.test(run)) {
      pieces.push(run);
      continue;
    }
    // A CJK run is one token per character, as the index has it.
    let word = '';
    for (const ch of run) {
      if (isCharWord(ch)) {
        if (word) pieces.push(word);
        word = '';
        pieces.push(ch);
      } else word += ch;
    }
    if (word) pieces.push(word);
  }
  if (pieces.length === 0) return undefined;
  let src = '';
  pieces.forEach((p, i) => {
    const prev = pieces[i - 1] as string;
    // C++17: the signs already part the words.
    if (i > 0) src += isCharWord(p) || isCharWord(prev) || /[+#]$/.test(prev) ? `${SEP}*?` : `${SEP}+?`;
    const word = (w: string): string => (/[^\p{L}\p{N}]/u.test(w) || isCharWord(w) ? literally(w) : joinable(w));
    // A prefix's last word typed with the article before a letter or two (الك*) is either start, as the index asked for it.
    src += term.prefix && i === pieces.length - 1 ? `(?:${arabicPrefixStarts(p).map(word).join('|')})` : word(p);
  });
  const first = pieces[0] as string;
  const last = pieces[pieces.length - 1] as string;
  // ASP.NET holds .NET; C++ is C++ in C++17 and in C++で (a CJK character is a word of its own), not in C+++ or C++x.
  const before = isCharWord(first) ? '' : first.startsWith('.') ? '(?<!\\.)' : `(?<!${WORD_CHAR})`;
  const after = term.prefix ? `${WORD_CHAR}*` : isCharWord(last) ? '' : /[+#]$/.test(last) ? `(?![+#]|(?!${CJK_CHAR.source})\\p{L})` : `(?!${WORD_CHAR})`;
  return new RegExp(before + src + after, 'gu');
}

export interface Match {
  start: number;
  end: number;
  term: number;
}

const BEFORE = 80;
const AFTER = 160;

/** The next match of re in folded at or after `from`, skipping empty ones; undefined at the end. */
function nextMatch(re: RegExp, folded: string, from: number): { s: number; e: number } | undefined {
  re.lastIndex = from;
  for (let m = re.exec(folded); m; m = re.exec(folded)) {
    if (m[0].length > 0) return { s: m.index, e: m.index + m[0].length };
    re.lastIndex++;
  }
  return undefined;
}

/**
 * The line holding the most distinct terms (earliest on a tie) and its first match, in folded
 * offsets. Each term's next match is looked up only once the lines before it are done, and the
 * walk stops at the first line holding every term: a word in every line (a common word in a
 * 20 KB result, 500 times) costs one match instead of all of them. Collecting every match first
 * took 5-15 ms of a 20-hit search's snippets (bench/search.ts's texts).
 */
function bestLine(folded: string, res: readonly RegExp[]): { first: { s: number; e: number }; start: number } | undefined {
  const next = res.map((re) => nextMatch(re, folded, 0));
  let best: { first: { s: number; e: number }; start: number; n: number; leaders: boolean } | undefined;
  for (;;) {
    let first: { s: number; e: number } | undefined;
    for (const m of next) if (m && (!first || m.s < first.s || (m.s === first.s && m.e > first.e))) first = m;
    if (!first) break;
    const start = folded.lastIndexOf('\n', first.s - 1) + 1;
    const nl = folded.indexOf('\n', first.s);
    const end = nl < 0 ? folded.length : nl + 1;
    let n = 0;
    next.forEach((m, i) => {
      if (!m || m.s >= end) return;
      n++;
      next[i] = nextMatch(res[i] as RegExp, folded, end);
    });
    if (!best || n > best.n || (n === best.n && best.leaders)) {
      const leaders = DOT_LEADERS.test(folded.slice(start, end));
      if (!best || n > best.n || !leaders) best = { first, start, n, leaders };
    }
    if (best.n === res.length && !best.leaders) break;
  }
  return best;
}

/**
 * A line of a contents page or an index: a title, a row of dots, a page number. A book's
 * comes first, so every word of a chapter's title was shown there ("3.2.1 安装 . . . . . 5")
 * though the chapter's own text held it too; such a line is shown only when no other holds
 * as many of the words.
 */
const DOT_LEADERS = /(?:\. ?){8}|…{3}/;

/** The matches of res in folded[from, to), mapped to offsets into the text, in order. */
function matchesIn(folded: string, at: Int32Array | undefined, res: readonly RegExp[], from: number, to: number): Match[] {
  const out: Match[] = [];
  res.forEach((re, term) => {
    for (let m = nextMatch(re, folded, from); m && m.e <= to; m = nextMatch(re, folded, m.e)) {
      out.push(at ? { start: at[m.s] as number, end: at[m.e] as number, term } : { start: m.s, end: m.e, term });
    }
  });
  return out.sort((a, b) => a.start - b.start || b.end - a.end);
}

/** The first folded offset whose text offset is at least `off` (at is non-decreasing). */
function foldedOffset(at: Int32Array | undefined, off: number): number {
  if (!at) return off;
  let lo = 0;
  let hi = at.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((at[mid] as number) < off) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * How far before a cut ICU starts reading to place word breaks. A break depends on the
 * characters before it: a combining accent or a joined emoji (a family is 11 UTF-16 units)
 * belongs to what precedes it, and Thai's dictionary reads whole words.
 */
const BREAK_CONTEXT = 64;
const REGIONAL_INDICATOR_PAIR = /\uD83C[\uDDE6-\uDDFF]$/;

/**
 * The first word break at or after `at` and at most `limit` (the match's start, itself a
 * break). Cut anywhere else, a snippet of text without spaces began with half a character: a
 * lone accent or vowel sign, the last members of a family emoji, the second letter of a flag
 * (🇷 of 🇫🇷), or the tail of a Thai word.
 */
function wordBreakFrom(content: string, at: number, limit: number): number {
  let lo = Math.max(0, at - BREAK_CONTEXT);
  // A flag is a pair of regional indicators, counted from the start of their run.
  while (REGIONAL_INDICATOR_PAIR.test(content.slice(Math.max(0, lo - 2), lo))) lo -= 2;
  for (const s of segmentWords(content.slice(lo, limit))) {
    if (lo + s.index >= at) return lo + s.index;
  }
  return limit;
}

/** The last word break at or before `at` and at least `limit` (the match's end, itself a break). */
function wordBreakUpTo(content: string, at: number, limit: number): number {
  let last = limit;
  for (const s of segmentWords(content.slice(limit, Math.min(content.length, at + BREAK_CONTEXT)))) {
    if (limit + s.index > at) break;
    last = limit + s.index;
  }
  return last;
}

/**
 * The line holding the most distinct terms (earliest on a tie), shown around its first match
 * with every match in view marked; whitespace collapsed to one space. Undefined when the
 * content itself has no match (the hit was on the title or URL).
 */
export function makeSnippet(content: string, terms: readonly Term[]): Snippet | undefined {
  const { folded, at } = foldWithMap(content);
  const res = terms.map(termRegex).filter((re): re is RegExp => re !== undefined);
  const found = bestLine(folded, res);
  if (!found) return undefined;
  // Folding keeps every newline where it was, so lines count the same in both.
  let line = 1;
  for (let i = folded.indexOf('\n'); i >= 0 && i < found.start; i = folded.indexOf('\n', i + 1)) line++;
  const first = at ? { start: at[found.first.s] as number, end: at[found.first.e] as number } : { start: found.first.s, end: found.first.e };
  let from = Math.max(0, first.start - BEFORE);
  let to = Math.min(content.length, first.end + AFTER);
  // Start and end on a word boundary, not in the middle of one: after a space, else (text
  // without spaces: Chinese, Thai, a row of emoji) where ICU's word breaks fall.
  if (from > 0) {
    const sp = content.slice(from, first.start).search(/\s/);
    from = sp >= 0 ? from + sp + 1 : wordBreakFrom(content, from, first.start);
  }
  if (to < content.length) {
    const tail = content.slice(first.end, to);
    const sp = tail.search(/\s\S*$/);
    to = sp >= 0 ? first.end + sp : wordBreakUpTo(content, to, first.end);
  }
  // Whitespace runs collapse to one space; outAt maps each content offset to the snippet's.
  const lead = from > 0 ? '… ' : '';
  let text = lead;
  const outAt = new Map<number, number>();
  for (let i = from; i < to; i++) {
    outAt.set(i, text.length);
    // Markdown's heading and quote marks at a line's start are not the page's words.
    if (i === 0 || content[i - 1] === '\n') {
      const mark = /^(?:#{1,6}|>)[ \t]+/.exec(content.slice(i, i + 8));
      if (mark) {
        for (let k = 1; k < mark[0].length && i + 1 < to; k++) outAt.set(++i, text.length);
        continue;
      }
    }
    const c = content[i] as string;
    if (/\s/.test(c)) {
      if (text.length > lead.length && !text.endsWith(' ')) text += ' ';
    } else text += c;
  }
  outAt.set(to, text.length);
  text = text.trimEnd();
  const marks: [number, number][] = [];
  let lastEnd = -1;
  for (const m of matchesIn(folded, at, res, foldedOffset(at, from), foldedOffset(at, to))) {
    if (m.start < from || m.end > to || m.start < lastEnd) continue;
    marks.push([outAt.get(m.start) as number, Math.min(text.length, outAt.get(m.end) as number)]);
    lastEnd = m.end;
  }
  if (to < content.length) text += ' …';
  return { text, marks, line };
}

/** Whether the text holds the term as the highlighter finds it: whole words in order, a signed word with its signs. */
export function holdsTerm(folded: string, term: Term): boolean {
  const re = termRegex(term);
  return re !== undefined && nextMatch(re, folded, 0) !== undefined;
}

/** The snippet's text with its marks written as «…» (the CLI and Markdown/CSV export). */
export function markedText(s: Pick<Snippet, 'text' | 'marks'>, open = '«', close = '»'): string {
  let out = '';
  let at = 0;
  for (const [a, b] of s.marks) {
    out += s.text.slice(at, a) + open + s.text.slice(a, b) + close;
    at = b;
  }
  return out + s.text.slice(at);
}

/**
 * The marks as code-point offsets (for --json readers: Python, Go runes and Rust chars index
 * text by code point, where a JS offset counts an emoji twice). «» in the marked text cannot
 * tell a mark from a page's own French quotation marks; these can.
 */
export function codePointMarks(s: Pick<Snippet, 'text' | 'marks'>): [number, number][] {
  let at = 0;
  let points = 0;
  const count = (to: number): number => {
    for (; at < to; at++) {
      const c = s.text.charCodeAt(at);
      // The high half of a pair counts; its low half does not.
      if (c < 0xdc00 || c > 0xdfff) points++;
    }
    return points;
  };
  return s.marks.map(([a, b]) => [count(a), count(b)]);
}

/** The line of the whole document a line of a result of some of its lines (grep, question) was (meta.source_lines). */
export function sourceLineOf(meta: Record<string, unknown> | undefined, line: number): number | undefined {
  const sl = meta?.source_lines;
  return isSourceLines(sl) ? sourceLineAt(sl, line) : undefined;
}

/** The PDF page a line of a PDF result's content is on (meta.page_lines: [page, first line] pairs). */
export function pageOfLine(meta: Record<string, unknown> | undefined, line: number): number | undefined {
  const pl = meta?.page_lines;
  return isPageLines(pl) ? pageAt(pl, line) : undefined;
}
