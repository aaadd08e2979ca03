import { englishForms } from '../fetch/word-forms';
import { ARABIC_WORD, arabicArticleForms, arabicPrefixStarts } from './arabic';
import { APOSTROPHES, compatFolded, foldForIndex, foldTerm, HYPHENS, PICTOGRAPH, quoteTerm } from './fold';
import { COLUMNS, type Column } from '../../shared/search';
import type { Needle } from './needle';

/** One thing to find, as the highlighter looks for it. */
export interface Term {
  /** The words of a word or phrase, as typed (folded later). */
  text: string;
  prefix: boolean;
  /**
   * For a word typed bare (not "quoted", no prefix*): its regular English forms, itself among them (englishForms), or an Arabic one's
   * spellings with the article (arabicArticleForms); for a word or phrase with a compound (e-mail), itself and the compound joined (joinedSpelling).
   */
  forms?: string[];
  /** Typed as title:word or url:word (COLUMNS): found in that column of the index only. */
  column?: Column;
}

/** The column a word's name before its colon names, and the rest of the word; undefined for none. */
export function columnOf(word: string): { column: Column; rest: string } | undefined {
  const m = /^(\p{L}+):(.*)$/su.exec(word);
  const name = m?.[1]?.toLowerCase();
  const column = name !== undefined && Object.hasOwn(COLUMNS, name) ? COLUMNS[name] : undefined;
  return m && column ? { column, rest: m[2] as string } : undefined;
}

/**
 * A term for a word typed bare: with its other regular forms when it is an English word, so
 * "report" finds reports, reported and reporting, and "reported" finds report. On the 91
 * articles of corpora/article-extraction (3,582 words as queries), the exact word found 0.65
 * of the articles holding one of its forms (as Snowball's English stemmer groups them); with
 * its forms 0.98, and 0.997 of what it found held one (a prefix of the word's form found 0.99
 * of them, but 0.77 of what it found did: report* is reporter, art* articles). A "quoted" word
 * stays exact.
 */
function wordTerm(text: string): Term {
  const folded = withoutEdgePunctuation(foldTerm(text));
  // e-mail is the phrase "e mail" to the index, and email, emails, emailed, emailing: the spelling
  // without the hyphen, in the forms of its last word (englishForms of the joined word made
  // wellknowning of well-known).
  const parts = folded.split(HYPHEN);
  const [first, last] = parts;
  if (parts.length === 2 && last !== undefined && joinedSpelling(folded) === first + last) return { text, prefix: false, forms: [...new Set([folded, ...englishForms(last).map((f) => first + f)])] };
  if (parts.length > 2 && joinedSpelling(folded) === parts.join('')) return { text, prefix: false, forms: [folded, ...joinings(parts)] };
  // O'Brien is the phrase "o brien" to the index, and obrien, as a page that wrote OBrien holds it (fold.ts joinedCompounds).
  const elided = ELIDED.exec(folded);
  if (elided) return { text, prefix: false, forms: [folded, `${elided[1]}${elided[2]}`] };
  const forms = ARABIC_WORD.test(folded) ? arabicArticleForms(folded) : englishForms(folded);
  return forms.length > 1 ? { text, prefix: false, forms } : { text, prefix: false };
}

/**
 * The punctuation around a word, as a sentence writes it: a period, comma or question mark
 * after it, a bracket or quote either side. Kept, "the results." looked for "results." alone,
 * without result, resulted and resulting: a fragment copied to a sentence's end lost its last
 * word's forms. A signed word keeps its signs (C#, .NET).
 */
const EDGE_PUNCTUATION = /^\p{P}+|\p{P}+$/gu;
const withoutEdgePunctuation = (folded: string): string => {
  if (hasSignedWord(folded)) return folded;
  const core = folded.replace(EDGE_PUNCTUATION, '');
  return isWordish(core) ? core : folded;
};

/** A word with an apostrophe before three letters or more (O'Brien, l'homme), which the index holds joined too; not a contraction's (it's, we're). */
const ELIDED = new RegExp(`^([\\p{L}\\p{N}]+)[${APOSTROPHES}]([\\p{L}\\p{N}]{3,})$`, 'u');
const HYPHEN = new RegExp(`[${HYPHENS}]`);
const HYPHEN_ALL = new RegExp(`[${HYPHENS}]`, 'g');
/** A compound of words joined by hyphens, as typed (e-mail, co-operate, covid-19, state-of-the-art). */
const COMPOUND = new RegExp(`(?<![\\p{L}\\p{N}${HYPHENS}])[\\p{L}\\p{N}]+(?:[${HYPHENS}][\\p{L}\\p{N}]+)+(?![\\p{L}\\p{N}${HYPHENS}])`, 'gu');

/**
 * Folded text with each compound written as one word (e-mail as email, "send e-mail now" as
 * "send email now", state-of-the-art as stateoftheart), the other spelling of it; undefined for
 * text without one, or whose parts hold no letter (2021-2022). Typed with its hyphen, e-mail was
 * the phrase "e mail" and found no email; a compound of three parts or more was its phrase alone.
 */
function joinedSpelling(folded: string): string | undefined {
  const joined = folded.replace(COMPOUND, (m) => (/\p{L}/u.test(m) ? m.replace(HYPHEN_ALL, '') : m));
  return joined === folded ? undefined : joined;
}

/** The most parts a compound is read with each way of writing it (joinings): 2^(n-1) - 1 spellings, 15 at 5. */
const MAX_JOINED_PARTS = 5;

/**
 * The other ways a compound of three parts or more is written, as phrases of its parts with
 * neighbours joined: e-mail-address as "email address", "e mailaddress" and emailaddress, so
 * a page that wrote email-address or email address is found by e-mail-address, and one that
 * wrote stateoftheart by state-of-the-art. Past MAX_JOINED_PARTS parts, the parts all joined.
 */
function joinings(parts: readonly string[]): string[] {
  if (parts.length > MAX_JOINED_PARTS) return [parts.join('')];
  const out: string[] = [];
  for (let mask = 1; mask < 2 ** (parts.length - 1); mask++) {
    // Bit k set: part k and part k + 1 are written as one.
    out.push(parts.reduce((acc, p, k) => (k === 0 ? p : acc + ((mask >> (k - 1)) & 1 ? '' : ' ') + p), ''));
  }
  return out;
}

/** A phrase's term: with its compounds joined as another spelling ("e-mail address" is "email address" too). */
function phraseTerm(text: string): Term {
  const folded = foldTerm(text);
  const joined = joinedSpelling(folded);
  return joined === undefined ? { text, prefix: false } : { text, prefix: false, forms: [folded, joined] };
}

/** A term as FTS5 syntax: a word with its forms is any of them. */
const termMatch = (term: Term): string => (term.forms ? `( ${term.forms.map(quoteTerm).join(' OR ')} )` : quoteTerm(term.text));

/** A term's FTS5 syntax inside the column it names, if it names one. */
const inColumn = (term: Term, match: string): string => (term.column ? `${term.column} : ${match}` : match);

export interface ParsedQuery {
  /** FTS5 MATCH syntax; every term quoted, so no user text reaches FTS5 unquoted. */
  match: string;
  /** Terms to mark in snippets (not those after NOT). */
  terms: Term[];
  /**
   * Set when a term holds a signed word (SIGNED_WORD), of which the index holds only the
   * letters: how a hit must hold the query as typed, signs and all.
   */
  literal?: Literal;
  /** The query was not valid syntax and is searched as plain words. */
  plain: boolean;
  /** For a query searched as plain words, what was wrong and what to type instead (whyNotSyntax). */
  why?: string;
  /** How many words and phrases it asks FTS5 for (those after NOT included). */
  count: number;
}

/**
 * A query with signed words, as typed: `matches` says whether a result matches the whole
 * query given whether it holds each term (its signs and all); `needles` are what such a
 * result must hold in any case, a cheap first check in SQL (literalNeedles): one needle of
 * each group.
 */
export interface Literal {
  matches(holds: (term: Term) => boolean): boolean;
  needles: Needle[][];
}

type Token =
  | { kind: 'term'; text: string; prefix: boolean; phrase: boolean; column?: Column }
  | { kind: 'op'; op: 'AND' | 'OR' | 'NOT' }
  /** A minus typed before the word or phrase after it (-draft): NOT after something to find, and before it, what its group leaves out. */
  | { kind: 'minus' }
  /** A ( typed, after title: or url: for a group searched in that column (title:(a -b)). */
  | { kind: 'open'; column?: Column }
  | { kind: 'close' };

/** Something the index holds: a letter, a digit or a pictograph (fold.ts). */
const WORDISH = new RegExp(`[\\p{L}\\p{N}]|${PICTOGRAPH.source}`, 'u');
/** Whether text holds something the index holds, a unit written as one character (㎏ as kg) among them. */
const isWordish = (text: string): boolean => WORDISH.test(compatFolded(text));

/**
 * A word whose signs are part of its name: C++, C#, F#, g++, Notepad++, Disney+ (a run of
 * letters or digits and one or two + or a #, digits may follow: C++17), and .NET (a dot
 * before letters, where no word stands before it). FTS5's unicode61 tokenizer keeps letters
 * and digits only, so "C++" was the word "c" and found every page with a lone c in it (a
 * vitamin C, "c) the third point") before, or instead of, the pages about C++. A run's signed
 * word is looked for from where the run starts only (a match inside it is one from its start
 * too): looked for at each letter, a query of 10,200 Chinese characters, one run as Chinese sets
 * no spaces, took 3.9 s a test, and 5.9 s to parse; 0.1 s now.
 */
export const SIGNED_WORD = /(?<![\p{L}\p{N}.])\.\p{L}[\p{L}\p{N}]*|(?<![\p{L}\p{N}])[\p{L}\p{N}]+(?:\+\+?|#)(?![\p{L}+#])/u;
// A word's marks are in it: हिंदी is one word, not ह and द (fold.ts INDIC_MARK).
const SIGNED_OR_WORD = new RegExp(`${SIGNED_WORD.source}|[\\p{L}\\p{N}][\\p{L}\\p{N}\\p{M}]*|${PICTOGRAPH.source}`, 'gu');

/**
 * What a result that holds the term as typed must hold in any case: its signed words (c++,
 * .net) folded as the highlighter reads them (Ｃ＋＋ as c++), those in ASCII only.
 */
export const literalNeedles = (term: Term): string[] => [...new Set(signedWords(foldTerm(term.text)).filter((w) => SIGNED_WORD.test(w) && /^[\x20-\x7e]+$/.test(w)))];

/** Whether a term holds a signed word, in any of the forms the index reads as one (Ｃ＋＋ is C++). */
const hasSignedWord = (text: string): boolean => SIGNED_WORD.test(compatFolded(text));

/** The words of a term as the highlighter and the literal check read them: signed words with their signs, each pictograph alone. */
export const signedWords = (text: string): string[] => text.match(SIGNED_OR_WORD) ?? [];

/**
 * The Arabic article ال typed as a word of its own (with its vowel marks or not), with a star
 * or without, in a phrase or not. It is no word: the index holds الكتاب as كتاب (arabic.ts), so
 * asked for alone it found nothing, and "ال كتاب" (the article typed apart from its noun) found
 * nothing either; ال* found only the few words the index keeps whole (الله, الآن). A query leaves it out.
 */
const isLoneArticle = (word: string): boolean => foldTerm(word) === 'ال';

/**
 * A phrase's text without the lone articles typed in it, as the index holds its words ("قرأ ال
 * كتاب" is "قرأ كتاب"), and whether its last word was one (so a star after it is no prefix of
 * the word before); the text as typed when it has none.
 */
function phraseWithoutArticles(text: string): { text: string; endsInArticle: boolean } {
  const words = text.split(/\s+/).filter(Boolean);
  const kept = words.filter((w) => !isLoneArticle(w));
  if (kept.length === words.length) return { text, endsInArticle: false };
  return { text: kept.join(' '), endsInArticle: isLoneArticle(words[words.length - 1] as string) };
}

/** The column the query names when it is only columns with no word after them (title:, url: title:), the first named; undefined otherwise. */
export function columnsOnly(q: string): Column | undefined {
  const words = q.trim().split(/\s+/);
  const named = words.map(columnOf);
  return named.every((n) => n && !isWordish(n.rest) && !/[("\u201C-\u201F\u00AB\u00BB\u300C-\u300F\u301D-\u301F]/.test(n.rest)) ? named[0]?.column : undefined;
}

/** Whether the query's words are all the lone article (isLoneArticle), so there is nothing else to search for. */
export const isArticleOnly = (q: string): boolean => {
  const words = q.match(/[\p{L}\p{N}\p{M}]+/gu) ?? [];
  return words.length > 0 && words.every(isLoneArticle);
};

/**
 * Quotation marks that make a phrase: the typewriter's, and those of print that a quote
 * pasted from a document or a word processor's smart quotes bring: “English”, „German“,
 * «French» and »Danish«, 「Japanese」 and 『』. Typed or pasted so, “in particular nothing”
 * was its three words anywhere and found every page holding them. A phrase ends at the next
 * one of them, whichever (German closes „ with “, Swedish ” with ”). Single quotes are not
 * among them: ’ is the apostrophe of don’t.
 */
const QUOTES = '"\u201C\u201D\u201E\u201F\u00AB\u00BB\u300C\u300D\u300E\u300F\u301D\u301E\u301F';
const isQuote = (c: string | undefined): boolean => c !== undefined && QUOTES.includes(c);
const WORD_END = new RegExp(`[\\s()${QUOTES}]`);

/** Where the phrase opened at `from` ends: the next quotation mark, or -1. */
function closingQuote(q: string, from: number): number {
  for (let i = from; i < q.length; i++) if (isQuote(q[i])) return i;
  return -1;
}

class Malformed extends Error {}

/** Reads the phrase whose opening quote is at `at` into `out` (nothing for one without words), in `column` if given; returns where reading goes on. */
function phraseAt(q: string, at: number, out: Token[], column?: Column): number {
  const end = closingQuote(q, at + 1);
  if (end < 0) throw new Malformed('unterminated phrase');
  const { text, endsInArticle } = phraseWithoutArticles(q.slice(at + 1, end));
  let i = end + 1;
  const star = q[i] === '*';
  if (star) i++;
  if (isWordish(text)) out.push({ kind: 'term', text, prefix: star && !endsInArticle, phrase: true, ...(column && { column }) });
  return i;
}

const OPERATORS = new Set(['AND', 'OR', 'NOT']);

/** The end of the word that starts at `at`. */
function wordEnd(q: string, at: number): number {
  let i = at;
  while (i < q.length && !WORD_END.test(q[i] as string)) i++;
  return i;
}

/**
 * Where the word a column named with a space after its colon (title: annual) is for starts:
 * the next word, phrase, group or -word, unless that is an operator, another column or
 * nothing; -1 for none. Read as the column alone, "title: annual" searched annual everywhere,
 * where a search box that takes field:word (Lucene's among them) reads title:annual.
 */
function spacedColumnWord(q: string, at: number): number {
  const j = at + (q.slice(at).match(/^\s+/)?.[0].length ?? 0);
  if (j === at || j === q.length || q[j] === ')') return -1;
  if (q[j] === '-') return leavesOutAt(q, j) ? j : -1;
  const next = q.slice(j, wordEnd(q, j));
  return OPERATORS.has(next) || columnOf(next) ? -1 : j;
}

/** Reads the word at `at` into `out` (an operator, or a term when it holds something the index holds), in `column` unless it names its own; returns where reading goes on. */
function wordAt(q: string, at: number, out: Token[], inColumn?: Column): number {
  const i = wordEnd(q, at);
  let word = q.slice(at, i);
  if (word === 'AND' || word === 'OR' || word === 'NOT') {
    out.push({ kind: 'op', op: word });
    return i;
  }
  const named = columnOf(word);
  const restAt = at + word.indexOf(':') + 1;
  if (named && (named.rest === '' || (q[restAt] === '-' && leavesOutAt(q, restAt)))) {
    // title:"an exact phrase", title:(a -b) (the group, inColumns), title:-word or, after a
    // space, the next word, phrase, group or -word (spacedColumnWord): in that column. Read as
    // the word "title" before a group, title:(-draft) found the results holding "title"
    // without draft.
    const j = named.rest !== '' ? restAt : isQuote(q[i]) || q[i] === '(' ? i : spacedColumnWord(q, i);
    if (j >= 0 && q[j] === '-') {
      // title:-draft and title: -draft leave draft out of the title, as title:(-draft) does: the
      // first was the word draft in the title (the index drops the minus) and found just the
      // titles it was to leave out; the second dropped the column, and left out every result
      // with a draft anywhere. title: -(a b) is -title:(a b), its group read on as any other.
      if (q[j + 1] === '(') {
        out.push({ kind: 'minus' }, { kind: 'open', column: named.column });
        return j + 2;
      }
      out.push({ kind: 'open', column: named.column });
      const end = minusAt(q, j, out);
      out.push({ kind: 'close' });
      return end;
    }
    if (j >= 0 && isQuote(q[j])) return phraseAt(q, j, out, named.column);
    if (j >= 0 && q[j] === '(') {
      out.push({ kind: 'open', column: named.column });
      return j + 1;
    }
    if (j >= 0) return wordAt(q, j, out, named.column);
  }
  // title: alone, or before signs only, is a column with its word still to come: read as the
  // word "title", it answered "no stored result matches title:". Quoted ("title:") it is the word.
  if (named && !isWordish(named.rest)) return i;
  const column = named?.column ?? inColumn;
  if (named) word = named.rest;
  const prefix = /[\p{L}\p{N}\p{M}]\*$/u.test(word);
  if (prefix) word = word.slice(0, -1);
  // A word with nothing to index (a lone "-", "&&") would be an empty phrase.
  if (isWordish(word) && !isLoneArticle(word)) out.push({ kind: 'term', text: word, prefix, phrase: false, ...(column && { column }) });
  return i;
}

const afterNot = (out: Token[]): boolean => {
  const last = out.at(-1);
  return last?.kind === 'op' && last.op === 'NOT';
};

/** What a minus leaves out when it comes first: a letter, a digit, a pictograph (two UTF-16 units past U+FFFF) or a group. */
const LEFT_OUT = new RegExp(`^(?:[\\p{L}\\p{N}(]|${PICTOGRAPH.source})`, 'u');

/** Whether the minus at `at` leaves out what follows it: a word, a phrase, a number, a pictograph or a group. */
const leavesOutAt = (q: string, at: number): boolean => LEFT_OUT.test(q.slice(at + 1, at + 3)) || isQuote(q[at + 1]);

/**
 * Reads the minus at `at` and what it leaves out into `out`: "-word", -"a phrase", -2022, -🍕 or
 * -(a group) at a word's start leaves out what holds it, as web searches read a minus ("trees
 * -forests" found and marked "forests"; typed first, "-draft revenue" found only drafts). The
 * index drops a number's minus, so read as a number, "report -2022" found only the 2022 reports.
 * Inside a word (covid-19, 2021-2022) the hyphen is wordAt's, and after NOT, which already
 * leaves out, the minus is the word's. Returns where reading goes on.
 */
function minusAt(q: string, at: number, out: Token[]): number {
  const first = out.length;
  out.push({ kind: 'minus' });
  let i: number;
  if (q[at + 1] === '(') {
    out.push({ kind: 'open' });
    i = at + 2;
  } else i = isQuote(q[at + 1]) ? phraseAt(q, at + 1, out) : wordAt(q, at + 1, out);
  // -ال, -"" or -OR holds nothing to leave out: the minus would leave out the next word instead.
  // -title:( and -( leave out their group.
  const next = out[first + 1]?.kind;
  if (next !== 'term' && next !== 'open') out.splice(first, 1);
  return i;
}

function lex(q: string): Token[] {
  const out: Token[] = [];
  let i = 0;
  while (i < q.length) {
    const c = q[i] as string;
    if (/\s/.test(c)) {
      i++;
    } else if (c === '-' && leavesOutAt(q, i) && !afterNot(out)) {
      i = minusAt(q, i, out);
    } else if (isQuote(c)) {
      i = phraseAt(q, i, out);
    } else if (c === '(') {
      out.push({ kind: 'open' });
      i++;
    } else if (c === ')') {
      out.push({ kind: 'close' });
      i++;
    } else {
      i = wordAt(q, i, out);
    }
  }
  return inColumns(out);
}

/** The tokens with each term inside a title:( or url:( group in that column, unless it names its own. */
function inColumns(tokens: Token[]): Token[] {
  const columns: (Column | undefined)[] = [];
  return tokens.map((t) => {
    if (t.kind === 'open') columns.push(t.column ?? columns.at(-1));
    else if (t.kind === 'close') columns.pop();
    const column = columns.at(-1);
    return t.kind === 'term' && column && !t.column ? { ...t, column } : t;
  });
}

/** A query made only of what to leave out (-draft): FTS5 starts no query with NOT, and there is nothing to find. */
class LeavesOutOnly extends Malformed {}

/** A query as FTS5 reads it: NOT binds closest, then AND (written or not), then OR; a group is a pair of parentheses typed. */
type Node =
  | { kind: 'term'; term: Term }
  | { kind: 'group'; of: Node }
  | { kind: 'AND' | 'OR' | 'NOT'; a: Node; b: Node };

/**
 * The deepest parentheses a query is read with; deeper, it is searched as plain words. Each
 * level is four calls deep here: 3,000 typed "(" ran the stack out, and `sift search` stopped
 * with a RangeError where it should have searched. No one nests a query for its meaning past a few.
 */
const MAX_NESTING = 100;

/**
 * What part of a query reads as: a node to find, or, for a part with nothing to find (-a -b,
 * (-draft)), what it leaves out: a result that holds any of `out` is left out.
 */
type Part = Node | { kind: 'out'; out: Node[] };

/** Reads the token list as an expression: operands joined by AND/OR/NOT or by nothing, parentheses balanced, none empty. */
function parse(tokens: readonly Token[]): Node {
  let i = 0;
  let depth = 0;
  const peek = (): Token | undefined => tokens[i];
  const isOp = (t: Token | undefined, op: string): boolean => t?.kind === 'op' && t.op === op;
  /** What a part that only leaves out finds where it must find something (after NOT, or beside a group that finds: a OR -b): its words, as before a first -word left out. */
  const found = (p: Part): Node => (p.kind === 'out' ? p.out.reduce((a, b) => ({ kind: 'AND', a, b })) : p);
  function operand(): Part {
    const t = tokens[i++];
    if (t?.kind === 'term') {
      const term = t.prefix ? { text: t.text, prefix: t.prefix } : t.phrase ? phraseTerm(t.text) : wordTerm(t.text);
      return { kind: 'term', term: t.column ? { ...term, column: t.column } : term };
    }
    if (t?.kind === 'open') {
      if (++depth > MAX_NESTING) throw new Malformed('nested too deep');
      const of = or();
      if (tokens[i++]?.kind !== 'close') throw new Malformed('unbalanced parentheses');
      depth--;
      // (-draft) leaves out as -draft does: read as a group to find, it found draft.
      return of.kind === 'out' ? of : { kind: 'group', of };
    }
    throw new Malformed(t ? `${t.kind === 'op' ? t.op : ')'} needs words on both sides` : 'the query ends early');
  }
  const isNot = (t: Token | undefined): boolean => isOp(t, 'NOT') || t?.kind === 'minus';
  function not(): Part {
    let n = operand();
    while (isNot(peek())) {
      i++;
      // After NOT, a group that only leaves out leaves out each of its words: x NOT (-a -b) is
      // x -a -b. Read as its words, it was x NOT a AND b, which FTS5 reads as (x NOT a) AND b.
      const b = operand();
      const out = b.kind === 'out' ? b.out : [b];
      // (-a) NOT b leaves out both.
      n = n.kind === 'out' ? { kind: 'out', out: [...n.out, ...out] } : out.reduce<Node>((a, b) => ({ kind: 'NOT', a, b }), n);
    }
    return n;
  }
  /**
   * Words joined by AND, written or not; a -word typed before any word to find is left out
   * of them all, so "-a b OR c" is "b -a OR c": (b NOT a) OR c.
   */
  function and(): Part {
    let n: Node | undefined;
    const leftOut: Node[] = [];
    const leave = (b: Node): void => {
      if (n) n = { kind: 'NOT', a: n, b };
      else leftOut.push(b);
    };
    for (let t = peek(); t && (t.kind === 'term' || t.kind === 'open' || t.kind === 'minus' || isOp(t, 'AND')); t = peek()) {
      const afterAnd = isOp(t, 'AND');
      if (afterAnd) {
        if (!n && leftOut.length === 0) break;
        i++;
      }
      // AND NOT, as library catalogues and Lucene write it, is NOT: searched as plain words,
      // "budget AND NOT draft" found the drafts that say "not", the results it was to leave out.
      if (peek()?.kind === 'minus' || (afterAnd && isOp(peek(), 'NOT'))) {
        i++;
        // After a word or AND ("a AND -b"), a minus leaves out of what comes before it.
        leave(found(operand()));
        continue;
      }
      const p = not();
      if (p.kind === 'out') p.out.forEach(leave);
      else n = n ? { kind: 'AND', a: n, b: p } : p;
    }
    if (!n) {
      if (leftOut.length === 0) throw new Malformed('a group needs words');
      return { kind: 'out', out: leftOut };
    }
    return leftOut.reduce<Node>((a, b) => ({ kind: 'NOT', a, b }), n);
  }
  /**
   * Groups joined by OR. Every group only leaving out (-a OR -b) leaves out what holds one word
   * of each group; one that only leaves out beside a group that finds (a OR -b) finds its words.
   */
  function or(): Part {
    const groups = [and()];
    while (isOp(peek(), 'OR')) {
      i++;
      groups.push(and());
    }
    if (groups.every((g) => g.kind === 'out')) {
      if (groups.length === 1) return groups[0] as Part;
      const anyOf = ([first, ...rest]: Node[]): Node => (rest.length === 0 ? (first as Node) : { kind: 'group', of: rest.reduce<Node>((a, b) => ({ kind: 'OR', a, b }), first as Node) });
      const each = groups.map((g) => anyOf((g as { out: Node[] }).out));
      return { kind: 'out', out: [{ kind: 'group', of: each.reduce((a, b) => ({ kind: 'AND', a, b })) }] };
    }
    return groups.map(found).reduce((a, b) => ({ kind: 'OR', a, b }));
  }
  const n = or();
  if (i < tokens.length) throw new Malformed('unbalanced parentheses');
  if (n.kind === 'out') throw new LeavesOutOnly('nothing to find');
  return n;
}

const isSigned = (n: Node): boolean => (n.kind === 'term' ? hasSignedWord(n.term.text) : n.kind === 'group' ? isSigned(n.of) : isSigned(n.a) || isSigned(n.b));

/**
 * The expression as FTS5 syntax, every term quoted. The index holds a signed word's letters
 * only, so what FTS5 is asked must find every result that holds the query as typed (the
 * literal check then keeps those that do): a signed word to find stands as its letters
 * (C++ as c: more results), one to leave out as nothing (rust -C++ as rust: else every
 * result with a lone c was left out). Undefined for nothing.
 */
function ftsOf(n: Node, negated = false): string | undefined {
  switch (n.kind) {
    case 'term':
      return negated && hasSignedWord(n.term.text) ? undefined : inColumn(n.term, n.term.prefix ? prefixOf(n.term.text) : termMatch(n.term));
    case 'group': {
      const of = ftsOf(n.of, negated);
      return of === undefined ? undefined : `( ${of} )`;
    }
    case 'NOT': {
      const a = ftsOf(n.a, negated);
      const b = ftsOf(n.b, !negated);
      return a === undefined || b === undefined ? a : `${a} NOT ${b}`;
    }
    default: {
      const a = ftsOf(n.a, negated);
      const b = ftsOf(n.b, negated);
      if (a === undefined || b === undefined) return n.kind === 'OR' ? (a ?? b) : undefined;
      return `${a} ${n.kind} ${b}`;
    }
  }
}

/** The last word of folded text, as unicode61 reads a word, and what comes before it. */
const LAST_WORD = /^(.*?)([\p{L}\p{N}\p{Co}]+)$/su;

/**
 * A prefix term as FTS5 syntax: each start the index may hold its last word beginning with
 * (arabicPrefixStarts), ORed, after the same words before it. A phrase's last word counts as
 * a word alone does: "في الك"* found nothing, as the index holds في الكتاب as في كتاب.
 */
function prefixOf(text: string): string {
  const [, head = '', last = ''] = LAST_WORD.exec(foldForIndex(text).trim()) ?? [];
  const starts = arabicPrefixStarts(last);
  return starts.length > 1 ? `( ${starts.map((s) => `${quoteTerm(head + s)}*`).join(' OR ')} )` : `${quoteTerm(text)}*`;
}

/** Whether a result matches the expression, given whether it holds each term. */
function matches(n: Node, holds: (term: Term) => boolean): boolean {
  switch (n.kind) {
    case 'term':
      return holds(n.term);
    case 'group':
      return matches(n.of, holds);
    case 'AND':
      return matches(n.a, holds) && matches(n.b, holds);
    case 'OR':
      return matches(n.a, holds) || matches(n.b, holds);
    case 'NOT':
      return matches(n.a, holds) && !matches(n.b, holds);
  }
}

/** The most needle groups one query checks in SQL; an OR of ORs multiplies them. */
const MAX_NEEDLE_GROUPS = 16;

/** A term's needles (literalNeedles), each to be found in the column the term names, if it names one. */
const termNeedles = (term: Term): Needle[] => literalNeedles(term).map((word) => (term.column ? { word, column: term.column } : { word }));

const distinctNeedles = (ns: Needle[]): Needle[] => [...new Map(ns.map((n) => [`${n.column ?? ''}:${n.word}`, n])).values()];

/**
 * Groups of needles a result matching the expression holds one of each, as far as they can
 * be told (a term without a signed word in ASCII tells none): C++ AND F# needs c++ and f#,
 * C++ OR F# one of them, C++ OR rust nothing the SQL check reads.
 */
function needlesOf(n: Node): Needle[][] {
  switch (n.kind) {
    case 'term':
      return termNeedles(n.term).map((w) => [w]);
    case 'group':
      return needlesOf(n.of);
    case 'NOT':
      return needlesOf(n.a);
    case 'AND':
      return [...needlesOf(n.a), ...needlesOf(n.b)].slice(0, MAX_NEEDLE_GROUPS);
    case 'OR': {
      const a = needlesOf(n.a);
      const b = needlesOf(n.b);
      return a.flatMap((x) => b.map((y) => distinctNeedles([...x, ...y]))).slice(0, MAX_NEEDLE_GROUPS);
    }
  }
}

/** The terms a hit is marked for: all but those a NOT leaves out. */
function markedTerms(n: Node, out: Term[] = []): Term[] {
  if (n.kind === 'term') out.push(n.term);
  else if (n.kind === 'group') markedTerms(n.of, out);
  else {
    markedTerms(n.a, out);
    if (n.kind !== 'NOT') markedTerms(n.b, out);
  }
  return out;
}

/** Checks the token list is a well-formed expression and writes it as FTS5 syntax, with how a hit holds its signed words. */
function toMatch(tokens: Token[]): { match: string; terms: Term[]; literal?: Literal; count: number } {
  // Words and phrases alone (all must match): a repeated one changes nothing about which
  // results match, yet FTS5 would read its postings and rank it once per repeat. It counts once.
  if (tokens.every((t) => t.kind === 'term')) {
    const seen = new Set<string>();
    // A "quoted" word is itself alone, a bare one any of its forms: two terms.
    const key = (t: Token): string => (t.kind === 'term' ? termKey(t.text, t.prefix) + (t.phrase ? '"' : '') + (t.column ?? '') : '');
    tokens = tokens.filter((t) => t.kind === 'term' && !seen.has(key(t)) && Boolean(seen.add(key(t))));
  }
  const tree = parse(tokens);
  const count = tokens.filter((t) => t.kind === 'term').length;
  const bare = tokens.every((t) => t.kind === 'term' && !t.phrase && !t.prefix && !t.column);
  const match = bare ? inOrderFirst(ftsOf(tree) as string, tokens.map((t) => (t.kind === 'term' ? t.text : ''))) : (ftsOf(tree) as string);
  if (!isSigned(tree)) return { match, terms: markedTerms(tree), count };
  return { match, terms: markedTerms(tree), literal: { matches: (holds) => matches(tree, holds), needles: needlesOf(tree) }, count };
}

/**
 * A match of words typed bare, all to be found, that ranks the results holding them in the order
 * typed, side by side, first: a line pasted from a page is most likely that page's. FTS5's BM25
 * reads each word apart, and on the article benchmark's 91 pages (bench/search-recall) a
 * fragment of 3-6 words pasted bare found its page first 0.83 of the time, and "quoted" 0.99:
 * "close of its" came 6th, after pages holding close, of and its far apart. ORed with the
 * words, the phrase finds no result the words do not (a result holding it holds each), and
 * adds its own weight to those that hold it. Undefined words (a signed one: C++ is the phrase's
 * c) leave the match as it is.
 */
function inOrderFirst(match: string, words: readonly string[]): string {
  if (words.length < 2 || words.some(hasSignedWord)) return match;
  return `( ${match} ) OR ${quoteTerm(words.join(' '))}`;
}

/** Two terms FTS5 would match alike (its tokenizer folds case; quoting folds the rest). */
const termKey = (text: string, prefix: boolean): string => quoteTerm(text).toLowerCase() + (prefix ? '*' : '');

/**
 * Letters and digits with their marks, and those a hyphen or an apostrophe joins to them
 * (e-mail, state-of-the-art, it's, O’Brien), as the lexer's word holds them: apart, the plain
 * reading (a query that is no valid syntax, such as e-mail followed by an open bracket) searched
 * e-mail as e and mail anywhere, not as e-mail or email, and it's as it and a lone s.
 */
const JOINED_RUN = `[\\p{L}\\p{N}][\\p{L}\\p{N}\\p{M}]*(?:[${HYPHENS}'\u2019][\\p{L}\\p{N}][\\p{L}\\p{N}\\p{M}]*)*`;

/**
 * A word of a query read as plain words: a signed word with its signs, a fraction (1/2, and ½ as
 * compatFolded writes it), a letter or digit and the letters, digits and marks after it (a lone
 * accent is no word: it was searched, and matched nothing), or a pictograph. A fraction is
 * one phrase, as the lexer's word 1/2 is: as the words 1 and 2 apart, "½ AND" found "step 1 of 2".
 */
const PLAIN_WORD = new RegExp(`${SIGNED_WORD.source}|\\p{Nd}+(?:/\\p{Nd}+)+|${JOINED_RUN}|${PICTOGRAPH.source}`, 'gu');

/**
 * A number written with its fraction (1½): compatFolded writes it 1 1/2, as people type it,
 * which is two words; written as one, it is the phrase "1 1/2", as the lexer reads it. Read
 * apart, "1½ AND" found a page's "Day 1: cut the 1/2 inch board".
 */
const MIXED_NUMBER = /(?<![\p{L}\p{N}])\p{Nd}+[\u00BC-\u00BE\u2150-\u215E\u2189]/gu;

/** The words of a query read as plain words (PLAIN_WORD), as the index reads them, each mixed number one phrase. */
function plainRuns(q: string): string[] {
  const out: string[] = [];
  let at = 0;
  for (const m of q.matchAll(MIXED_NUMBER)) {
    out.push(...(compatFolded(q.slice(at, m.index)).match(PLAIN_WORD) ?? []), compatFolded(m[0]).trim());
    at = m.index + m[0].length;
  }
  out.push(...(compatFolded(q.slice(at)).match(PLAIN_WORD) ?? []));
  return out;
}

/** Text of a query searched as plain words, in the column it names, if it names one. */
interface PlainText {
  text: string;
  column?: Column;
}

/** Whether a minus at `at` starts a word (after a space, a bracket or a quote, or first), where it leaves out what follows. */
const minusStartsWord = (q: string, at: number): boolean => at === 0 || /[\s()]/.test(q[at - 1] as string) || isQuote(q[at - 1]);

/**
 * A query FTS5 cannot read, split as its plain reading takes it: the text whose words are
 * found, and the texts left out, each one a word or a phrase. A -word, -"a phrase" or -( with
 * one word in it, at a word's start, is left out as the lexer leaves it out (-"a phrase not yet
 * closed too, to the end): read as a word to
 * find, "revenue -(2022", typed on the way to -(2022 OR 2023), showed just the 2022 results. A
 * -( group of more words might mean any of them or all: its words are neither found nor left
 * out. A NOT after a word to find leaves out the same. Inside a quote not closed, a minus is
 * the phrase's. A column named with no word after it (title:) is no word; with one, the word
 * stays in it (columnWordAt).
 */
function plainParts(q: string): { find: string; inColumn: PlainText[]; out: PlainText[] } {
  let find = '';
  const inColumn: PlainText[] = [];
  const out: PlainText[] = [];
  let i = 0;
  while (i < q.length) {
    const c = q[i] as string;
    if (isQuote(c)) {
      const end = closingQuote(q, i + 1);
      if (end < 0) return { find: find + q.slice(i), inColumn, out };
      find += ` ${q.slice(i + 1, end)} `;
      i = end + 1;
    } else if (c === '-' && minusStartsWord(q, i) && !/\bNOT\s*$/.test(find)) {
      const left = leavesOutAt(q, i) ? leftOutAt(q, i + 1) : undefined;
      if (left?.out !== undefined) out.push(left.out);
      if (left) i = left.end;
      else {
        find += c;
        i++;
      }
    } else {
      const end = wordEnd(q, i);
      const word = q.slice(i, end);
      // NOT after a word to find leaves out what comes next, as the lexer reads it: kept as a
      // word, "revenue NOT (2022", typed on the way to a group, searched "revenue not 2022" and
      // found the 2022 results. Typed first or after an operator it stays a word (plainWords).
      const left = word === 'NOT' && findsBefore(find) ? leftOutAt(q, end + (q.slice(end).match(/^\s*/)?.[0].length ?? 0)) : undefined;
      if (left) {
        if (left.out !== undefined) out.push(left.out);
        i = left.end;
        continue;
      }
      const named = columnOf(word);
      const columned = named && columnWordAt(q, i + word.indexOf(':') + 1, named.column);
      if (columned) {
        (columned.leftOut ? out : inColumn).push(columned.part);
        i = columned.end;
        continue;
      }
      find += end > i ? (named && !isWordish(named.rest) ? ' ' : word) : c;
      i = Math.max(end, i + 1);
    }
  }
  return { find, inColumn, out };
}

/**
 * The word, closed phrase or -word a column named at `at` (right after its colon) is for, as
 * the lexer's wordAt reads it: title:annual, title: annual, title:"annual report", title:-draft;
 * undefined for none. Searched as plain words, "title:annual (revenue" was the words title,
 * annual and revenue anywhere, and title:-draft the word draft in the title.
 */
function columnWordAt(q: string, at: number, column: Column): { part: PlainText; leftOut: boolean; end: number } | undefined {
  const j = q[at] === '-' || isQuote(q[at]) || !WORD_END.test(q[at] ?? ' ') ? at : spacedColumnWord(q, at);
  if (j < 0 || q[j] === '(') return undefined;
  if (q[j] === '-') {
    const left = leavesOutAt(q, j) && q[j + 1] !== '(' ? leftOutAt(q, j + 1) : undefined;
    return left?.out && { part: { ...left.out, column }, leftOut: true, end: left.end };
  }
  const close = isQuote(q[j]) ? closingQuote(q, j + 1) : wordEnd(q, j);
  if (close < 0) return undefined;
  const text = isQuote(q[j]) ? q.slice(j + 1, close) : q.slice(j, close);
  return isWordish(text) ? { part: { text, column }, leftOut: false, end: isQuote(q[j]) ? close + 1 : close } : undefined;
}

/** Whether the plain text read so far ends in a word to find, so a NOT after it has something to leave out of. */
function findsBefore(find: string): boolean {
  // AND NOT is NOT, as the parser reads it.
  const before = find.trimEnd().replace(/(?<!\S)AND$/, '').trimEnd();
  const last = plainRuns(before).at(-1);
  return last !== undefined && !OPERATORS.has(last) && !before.endsWith('(');
}

/**
 * What a minus or a NOT leaves out of the plain reading, from `at`: a group's one word (nothing
 * for a group of several, which might mean any of them or all), a phrase, or a word (its
 * column dropped); undefined for no such thing there (an operator, nothing).
 */
function leftOutAt(q: string, at: number): { out?: PlainText; end: number } | undefined {
  if (q[at] === '(') {
    const close = q.indexOf(')', at + 1);
    const end = close < 0 ? q.length : close;
    const inside = plainRuns(q.slice(at + 1, end)).filter((w) => !OPERATORS.has(w));
    return inside.length === 1 ? { out: { text: inside[0] as string }, end: end + 1 } : { end: end + 1 };
  }
  if (isQuote(q[at])) {
    // A phrase not closed yet is the rest of the query, as one being typed ends: NOT was a word
    // before it, and 'budget NOT "final draft' found only results saying "not", final and draft.
    const end = closingQuote(q, at + 1);
    return end < 0 ? { out: { text: q.slice(at + 1) }, end: q.length } : { out: { text: q.slice(at + 1, end) }, end: end + 1 };
  }
  const end = wordEnd(q, at);
  const word = q.slice(at, end);
  if (word === '' || OPERATORS.has(word)) return undefined;
  const named = columnOf(word);
  return { out: named ? { text: named.rest, column: named.column } : { text: word }, end };
}

/**
 * Every signed word and run of letters and digits, each a word to find (what a query FTS5
 * rejects becomes), but for those a minus leaves out (plainParts); a signed word keeps its
 * signs: "C++ AND", a query still being typed, found every page with a lone c. AND and OR in
 * capitals, and a NOT at the end, are left out when other words remain: they were meant as
 * operators, and a query still being typed ends in one ("revenue OR", searched as the box
 * fills) that, made a word, kept only the results holding "or" and showed none of revenue's.
 * A NOT before words stays a word: without it, "NOT currency" would find just the results it
 * meant to leave out.
 */
function plainWords(q: string): { match: string; terms: Term[]; literal?: Literal; count: number; leavesOut: boolean } {
  const seen = new Set<string>();
  const parts = plainParts(q);
  // Read as the index reads it (compatFolded), as the lexer's hasSignedWord does: PLAIN_WORD's
  // signs are ASCII, so Ｃ＋＋ was the word Ｃ and found every page with a lone c.
  const runs = plainRuns(parts.find).filter((w) => !isLoneArticle(w));
  const words = runs.filter((w, i) => !(w === 'AND' || w === 'OR' || (w === 'NOT' && i === runs.length - 1)));
  const unique = (words.length > 0 ? words : runs).filter((w) => {
    const key = termKey(w, false);
    return !seen.has(key) && Boolean(seen.add(key));
  });
  const inColumns = parts.inColumn.map(plainTerm).filter((t): t is Term => t !== undefined && !seen.has(termKey(t.text, false) + t.column) && Boolean(seen.add(termKey(t.text, false) + t.column)));
  const terms = [...unique.map(wordTerm), ...inColumns];
  // A signed word is left out by none: the index holds only its letters.
  const leftOut = parts.out
    .map(plainTerm)
    .filter((t): t is Term => t !== undefined && !hasSignedWord(t.text))
    .map((t) => inColumn(t, termMatch(t)));
  // FTS5 reads no group after a term without an AND between them.
  const anded = terms.map((t) => inColumn(t, termMatch(t))).join(' AND ');
  // A line pasted with a quote it does not close ("“Let's face it) is read so: its words in order first, as typed bare.
  const found = inColumns.length === 0 ? inOrderFirst(anded, words) : anded;
  const match = leftOut.length > 0 ? `( ${found} )${leftOut.map((m) => ` NOT ${m}`).join('')}` : found;
  const count = terms.length + leftOut.length;
  const leavesOut = terms.length === 0 && leftOut.length > 0;
  if (!terms.some((t) => hasSignedWord(t.text))) return { match, terms, count, leavesOut };
  const literal: Literal = { matches: (holds) => terms.every(holds), needles: terms.flatMap((t) => termNeedles(t).map((w) => [w])) };
  return { match, terms, literal, count, leavesOut };
}

/**
 * A text of the plain reading as one term, in its column: one word as the lexer's word is (its
 * forms too), several as a phrase (2021-2022 is "2021 2022" to the index); undefined for none.
 */
function plainTerm({ text, column }: PlainText): Term | undefined {
  const words = plainRuns(text).filter((w) => !isLoneArticle(w));
  if (words.length === 0) return undefined;
  const term = words.length === 1 ? wordTerm(words[0] as string) : { text: words.join(' '), prefix: false };
  return column ? { ...term, column } : term;
}

/** The closing mark for each opening quotation mark that has one of its own; any other closes with ". */
const CLOSING: Readonly<Record<string, string>> = { '\u201C': '\u201D', '\u201E': '\u201C', '\u00AB': '\u00BB', '\u00BB': '\u00AB', '\u300C': '\u300D', '\u300E': '\u300F', '\u301D': '\u301E' };

/** The opening quotation mark of a phrase not closed, if one is. */
function unclosedQuote(q: string): string | undefined {
  for (let i = 0; i < q.length; i++) {
    if (!isQuote(q[i])) continue;
    const end = closingQuote(q, i + 1);
    if (end < 0) return q[i];
    i = end;
  }
  return undefined;
}

/**
 * What makes a query no valid syntax, in a few words with what to type instead, the first
 * thing wrong from the start; undefined when it is none of these. Said as "not valid search
 * syntax" for all, an open quote, an open ( and "revenue OR" read alike, and none said what to
 * fix. `tokens` are the lexer's, undefined when it could not read the query: a quote not closed
 * is the one thing it stops at (phraseAt).
 */
function whyNotSyntax(q: string, tokens: readonly Token[] | undefined): string | undefined {
  if (!tokens) {
    const quote = unclosedQuote(q);
    return quote && `the ${quote} is not closed; add the closing ${CLOSING[quote] ?? '"'} to search the exact phrase`;
  }
  let depth = 0;
  let deepest = 0;
  for (const t of tokens) {
    if (t.kind === 'open') deepest = Math.max(deepest, ++depth);
    if (t.kind === 'close' && --depth < 0) return 'the ) has no ( before it; add the ( or remove the )';
  }
  if (deepest > MAX_NESTING) return `the parentheses nest deeper than ${MAX_NESTING}; remove some`;
  if (depth > 0) return 'the ( is not closed; add the closing ) to search the group';
  for (const [k, t] of tokens.entries()) {
    const before = tokens[k - 1];
    const after = tokens[k + 1];
    if (t.kind === 'open' && after?.kind === 'close') return 'the ( ) holds no words; put words in it, or remove it';
    if (t.kind !== 'op') continue;
    if (!after) return `${t.op} at the end has nothing after it; add a word after it, or remove it`;
    if (!before) return t.op === 'NOT' ? 'NOT at the start has nothing before it; type the word to find first, as in revenue NOT draft' : `${t.op} at the start has nothing before it; add a word before it, or remove it`;
    // AND NOT is NOT (parse's and): what is wrong is said of the NOT.
    if (after.kind === 'op' && !(t.op === 'AND' && after.op === 'NOT')) return `${t.op} ${after.op} has no word between them; remove one`;
    if (before.kind === 'open' || after.kind === 'close') return `${t.op} has no word on one side; add a word, or remove it`;
  }
  return undefined;
}

/** The plain reading of a query as a search takes it. */
function plainQueryOf(q: string): { match: string; terms: Term[]; literal?: Literal; count: number } {
  const { match, terms, literal, count } = plainWords(q);
  return literal ? { match, terms, literal, count } : { match, terms, count };
}

/**
 * Reads what the user typed: words, "exact phrases", prefix*, OR, NOT (or a leading minus:
 * -word), AND and parentheses.
 * Anything that is not valid syntax is searched as its plain words, never an error.
 * Returns undefined when there is nothing to search for.
 */
export function parseQuery(q: string): ParsedQuery | undefined {
  let parsed: { match: string; terms: Term[]; literal?: Literal; count: number };
  let plain = false;
  let why: string | undefined;
  let tokens: Token[] | undefined;
  try {
    tokens = lex(q);
    if (!tokens.some((t) => t.kind === 'term')) throw new Malformed('no words');
    parsed = toMatch(tokens);
  } catch (err) {
    if (err instanceof LeavesOutOnly) return undefined;
    if (!(err instanceof Malformed)) throw err;
    parsed = plainQueryOf(q);
    plain = true;
    why = whyNotSyntax(q, tokens);
  }
  if (parsed.terms.length === 0) return undefined;
  return { ...parsed, plain, ...(why && { why }) };
}

/** Whether the query only says what to leave out (-draft, -a OR -b), with no word to find. */
export function leavesOutOnly(q: string): boolean {
  try {
    const tokens = lex(q);
    if (tokens.some((t) => t.kind === 'term')) parse(tokens);
    return false;
  } catch (err) {
    // Searched as plain words, a query whose words are all left out (-(2022, typed first) has nothing to find either.
    return err instanceof LeavesOutOnly || (err instanceof Malformed && plainWords(q).leavesOut);
  }
}

/** The plain-words reading of a query, for when FTS5 itself rejects the parsed one. */
export function plainQuery(q: string): ParsedQuery | undefined {
  const p = plainQueryOf(q);
  return p.terms.length ? { ...p, plain: true } : undefined;
}
