import { PICTOGRAPH, quoteTerm } from './fold';

/** One thing to find, as the highlighter looks for it. */
export interface Term {
  /** The words of a word or phrase, as typed (folded later). */
  text: string;
  prefix: boolean;
}

export interface ParsedQuery {
  /** FTS5 MATCH syntax; every term quoted, so no user text reaches FTS5 unquoted. */
  match: string;
  /** Terms to mark in snippets (not those after NOT). */
  terms: Term[];
  /**
   * Terms with a signed word (SIGNED_WORD) that every hit must hold as typed, signs and all:
   * the index only holds their letters. Those of a query of words and phrases joined by AND
   * or nothing; a term under OR or in parentheses is left to the index.
   */
  literal: Term[];
  /** The query was not valid syntax and is searched as plain words. */
  plain: boolean;
  /** How many words and phrases it asks FTS5 for (those after NOT included). */
  count: number;
}

type Token =
  | { kind: 'term'; text: string; prefix: boolean; phrase: boolean }
  | { kind: 'op'; op: 'AND' | 'OR' | 'NOT' }
  | { kind: 'open' }
  | { kind: 'close' };

/** Something the index holds: a letter, a digit or a pictograph (fold.ts). */
const WORDISH = new RegExp(`[\\p{L}\\p{N}]|${PICTOGRAPH.source}`, 'u');

/**
 * A word whose signs are part of its name: C++, C#, F#, g++, Notepad++, Disney+ (a run of
 * letters or digits and one or two + or a #, digits may follow: C++17), and .NET (a dot
 * before letters, where no word stands before it). FTS5's unicode61 tokenizer keeps letters
 * and digits only, so "C++" was the word "c" and found every page with a lone c in it (a
 * vitamin C, "c) the third point") before, or instead of, the pages about C++.
 */
export const SIGNED_WORD = /(?<![\p{L}\p{N}.])\.\p{L}[\p{L}\p{N}]*|[\p{L}\p{N}]+(?:\+\+?|#)(?![\p{L}+#])/u;
const SIGNED_OR_WORD = new RegExp(`${SIGNED_WORD.source}|[\\p{L}\\p{N}]+|${PICTOGRAPH.source}`, 'gu');

/**
 * What a result that holds the literal terms as typed must hold in any case, as a cheap
 * first check in SQL: their signed words (c++, .net) in lower case, those in ASCII only
 * (SQLite's lower() folds no other letter). A superset of the results that hold them.
 */
export const literalNeedles = (terms: readonly Term[]): string[] => [
  ...new Set(terms.flatMap((t) => signedWords(t.text.toLowerCase()).filter((w) => SIGNED_WORD.test(w) && /^[\x20-\x7e]+$/.test(w)))),
];

/** The words of a term as the highlighter and the literal check read them: signed words with their signs, each pictograph alone. */
export const signedWords = (text: string): string[] => text.match(SIGNED_OR_WORD) ?? [];

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

function lex(q: string): Token[] {
  const out: Token[] = [];
  let i = 0;
  while (i < q.length) {
    const c = q[i] as string;
    if (/\s/.test(c)) {
      i++;
    } else if (c === '-' && (/^\p{L}/u.test(q[i + 1] ?? '') || isQuote(q[i + 1])) && out.length > 0 && out[out.length - 1]?.kind !== 'op') {
      // "-word" or -"a phrase" after something to find: leave out what holds it, as web
      // searches read a leading minus ("trees -forests" found and marked "forests"). Not
      // before a digit: "-5" is a number.
      out.push({ kind: 'op', op: 'NOT' });
      i++;
    } else if (isQuote(c)) {
      const end = closingQuote(q, i + 1);
      if (end < 0) throw new Malformed('unterminated phrase');
      const text = q.slice(i + 1, end);
      i = end + 1;
      const prefix = q[i] === '*';
      if (prefix) i++;
      if (WORDISH.test(text)) out.push({ kind: 'term', text, prefix, phrase: true });
    } else if (c === '(') {
      out.push({ kind: 'open' });
      i++;
    } else if (c === ')') {
      out.push({ kind: 'close' });
      i++;
    } else {
      let j = i;
      while (j < q.length && !WORD_END.test(q[j] as string)) j++;
      let word = q.slice(i, j);
      i = j;
      if (word === 'AND' || word === 'OR' || word === 'NOT') {
        out.push({ kind: 'op', op: word });
        continue;
      }
      const prefix = /[\p{L}\p{N}]\*$/u.test(word);
      if (prefix) word = word.slice(0, -1);
      // A word with nothing to index (a lone "-", "&&") would be an empty phrase.
      if (WORDISH.test(word)) out.push({ kind: 'term', text: word, prefix, phrase: false });
    }
  }
  return out;
}

/**
 * Checks the token list is a well-formed expression (operands joined by AND/OR/NOT or by
 * nothing, parentheses balanced, none empty) and writes it as FTS5 syntax.
 */
function toMatch(tokens: Token[]): { match: string; terms: Term[]; literal: Term[]; count: number } {
  const parts: string[] = [];
  const terms: Term[] = [];
  let count = 0;
  let depth = 0;
  let expectOperand = true;
  // Depth at which a NOT's operand began; terms inside it are not marked.
  let negatedFrom = -1;
  let pendingNot = false;
  // Words and phrases alone (all must match): a repeated one changes nothing about which
  // results match, yet FTS5 would read its postings and rank it once per repeat. It counts once.
  const seen = tokens.every((t) => t.kind === 'term') ? new Set<string>() : undefined;
  for (const t of tokens) {
    if (t.kind === 'term') {
      if (seen) {
        const key = termKey(t.text, t.prefix);
        if (seen.has(key)) continue;
        seen.add(key);
      }
      if (!expectOperand) parts.push('AND');
      parts.push(quoteTerm(t.text) + (t.prefix ? '*' : ''));
      count++;
      if (negatedFrom < 0 && !pendingNot) terms.push({ text: t.text, prefix: t.prefix });
      pendingNot = false;
      expectOperand = false;
    } else if (t.kind === 'open') {
      if (!expectOperand) parts.push('AND');
      if (pendingNot && negatedFrom < 0) negatedFrom = depth;
      pendingNot = false;
      parts.push('(');
      depth++;
      expectOperand = true;
    } else if (t.kind === 'close') {
      if (expectOperand || depth === 0) throw new Malformed('empty or unbalanced parentheses');
      depth--;
      if (negatedFrom === depth) negatedFrom = -1;
      parts.push(')');
      expectOperand = false;
    } else {
      if (expectOperand) throw new Malformed(`${t.op} needs words on both sides`);
      parts.push(t.op);
      pendingNot = t.op === 'NOT';
      expectOperand = true;
    }
  }
  if (expectOperand || depth !== 0) throw new Malformed('the query ends early');
  // Without OR and parentheses every term marked is one each hit holds (those after NOT are not marked).
  const conjunctive = tokens.every((t) => t.kind === 'term' || (t.kind === 'op' && t.op !== 'OR'));
  const literal = conjunctive ? terms.filter((t) => SIGNED_WORD.test(t.text)) : [];
  return { match: parts.join(' '), terms, literal, count };
}

/** Two terms FTS5 would match alike (its tokenizer folds case; quoting folds the rest). */
const termKey = (text: string, prefix: boolean): string => quoteTerm(text).toLowerCase() + (prefix ? '*' : '');

/**
 * Every run of letters and digits, each a word to find (what a query FTS5 rejects becomes).
 * AND and OR in capitals, and a NOT at the end, are left out when other words remain: they
 * were meant as operators, and a query still being typed ends in one ("revenue OR", searched
 * as the box fills) that, made a word, kept only the results holding "or" and showed none of
 * revenue's. A NOT before words stays a word: without it, "NOT currency" would find just
 * the results it meant to leave out.
 */
function plainWords(q: string): { match: string; terms: Term[]; literal: Term[]; count: number } {
  const seen = new Set<string>();
  const runs = q.match(new RegExp(`[\\p{L}\\p{N}\\p{M}]+|${PICTOGRAPH.source}`, 'gu')) ?? [];
  const words = runs.filter((w, i) => !(w === 'AND' || w === 'OR' || (w === 'NOT' && i === runs.length - 1)));
  const unique = (words.length > 0 ? words : runs).filter((w) => {
    const key = termKey(w, false);
    return !seen.has(key) && Boolean(seen.add(key));
  });
  return { match: unique.map(quoteTerm).join(' '), terms: unique.map((text) => ({ text, prefix: false })), literal: [], count: unique.length };
}

/**
 * Reads what the user typed: words, "exact phrases", prefix*, OR, NOT (or a leading minus:
 * -word), AND and parentheses.
 * Anything that is not valid syntax is searched as its plain words, never an error.
 * Returns undefined when there is nothing to search for.
 */
export function parseQuery(q: string): ParsedQuery | undefined {
  let parsed: { match: string; terms: Term[]; literal: Term[]; count: number };
  let plain = false;
  try {
    const tokens = lex(q);
    if (!tokens.some((t) => t.kind === 'term')) throw new Malformed('no words');
    parsed = toMatch(tokens);
  } catch (err) {
    if (!(err instanceof Malformed)) throw err;
    parsed = plainWords(q);
    plain = true;
  }
  if (parsed.terms.length === 0) return undefined;
  return { ...parsed, plain };
}

/** The plain-words reading of a query, for when FTS5 itself rejects the parsed one. */
export function plainQuery(q: string): ParsedQuery | undefined {
  const p = plainWords(q);
  return p.terms.length ? { ...p, plain: true } : undefined;
}
