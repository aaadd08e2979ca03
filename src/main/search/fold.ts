/**
 * The text the full-text index sees, made from a result's text in JS before FTS5's own
 * tokenizer (unicode61 remove_diacritics 2) runs over it. Queries pass through the same
 * function, so index and query always agree.
 *
 * Two things unicode61 does not do on its own, measured on the fixtures in
 * test/unit/search.test.ts:
 * - Arabic and Hebrew vowel marks (harakat, niqqud) split a word into one-letter tokens,
 *   so the unvoweled كتب (how people type) never found the voweled كَتَبَ. They are dropped.
 * - Chinese, Japanese and Korean are written without spaces between words, so unicode61
 *   makes a whole sentence one token and 東京 is not found in 東京都は日本の首都です.
 *   Each such character becomes its own token; a query's run of them becomes a phrase, so
 *   any substring of one or more characters is found (the trigram tokenizer needs three,
 *   and most Chinese words are two).
 */

// Arabic harakat, Quranic marks, superscript alef and tatweel; Hebrew cantillation and niqqud.
// Each mark is removed on its own, so a class of combining characters is what is meant here.
// eslint-disable-next-line no-misleading-character-class
const SEMITIC_MARKS = /[\u0591-\u05BD\u05BF\u05C1\u05C2\u05C4\u05C5\u05C7\u0610-\u061A\u0640\u064B-\u065F\u0670\u06D6-\u06DC\u06DF-\u06E4\u06E7\u06E8\u06EA-\u06ED]/g;

/** Han, kana and Hangul: scripts written without spaces between words. */
export const CJK_CHAR = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;
const CJK_ALL = new RegExp(CJK_CHAR.source, 'gu');

// Hebrew to Arabic, Hangul Jamo, CJK radicals to Yi, Hangul syllables, compatibility ideographs,
// half-width forms, and surrogates (supplementary ideographs): a superset of both sets above.
const MAYBE_FOLDED = /[\u0591-\u06ED\u1100-\u11FF\u2E80-\uA4CF\uA960-\uA97F\uAC00-\uD7FF\uD840-\uD8BF\uF900-\uFAFF\uFE30-\uFE4F\uFF00-\uFFEF]/;

/** The text handed to FTS5 for a title, URL, body or query term. */
export function foldForIndex(text: string): string {
  // Most results have neither; one scan for the blocks both live in skips two full passes.
  if (!MAYBE_FOLDED.test(text)) return text;
  return text.replace(SEMITIC_MARKS, '').replace(CJK_ALL, ' $& ');
}

/** A query term as FTS5 string syntax: quoted, with its quotes doubled (any text is safe). */
export const quoteTerm = (term: string): string => `"${foldForIndex(term).trim().replace(/"/g, '""')}"`;

const charCache = new Map<string, string>();
const NON_ASCII = /[\u0080-\uffff]/;

/** One character as the highlighter compares it: lower case, without accents or vowel marks. */
function foldChar(ch: string): string {
  let f = charCache.get(ch);
  if (f === undefined) {
    f = ch.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
    // The index folds case as Unicode's case folding does, where lower case keeps a few
    // letters apart: final ς and σ, the micro sign µ and μ, long ſ and s, Greek symbol forms
    // (ϐ ϑ ϕ ϖ ϰ ϱ ϵ). Such a hit (ΑΡΙΣΤΟΤΕΛΗΣ for a typed αριστοτελης, "5 µm" for μm) had
    // no match to mark and was cited "in the url", without its line. Upper then lower case
    // folds them alike; a letter whose capital is longer (ß, ŉ) the index keeps as it is.
    const upper = f.toUpperCase();
    if (upper.length === f.length) f = upper.toLowerCase();
    // Hangul decomposes under NFD into jamo; compare whole syllables instead.
    if (CJK_CHAR.test(ch)) f = ch;
    if (charCache.size < 20_000) charCache.set(ch, f);
  }
  return f;
}

/**
 * The text folded for matching, with the offset in `text` of each folded UTF-16 unit, so a
 * match found in the folded text can be marked in the original; `at` is undefined when the
 * offsets are the same (ASCII text, where allocating the map was 90% of a search hit's
 * snippet time). ASCII runs (most of most texts) are lower-cased in one call; a character at
 * a time cost 15 ms per 20 KB result.
 */
export function foldWithMap(text: string): { folded: string; at: Int32Array | undefined } {
  if (!NON_ASCII.test(text)) return { folded: text.toLowerCase(), at: undefined };
  const parts: string[] = [];
  const at = new Int32Array(text.length * 3 + 1);
  let n = 0;
  let i = 0;
  for (const m of text.matchAll(/[\u0080-\uffff]+/g)) {
    if (m.index > i) {
      parts.push(text.slice(i, m.index).toLowerCase());
      for (let k = i; k < m.index; k++) at[n++] = k;
    }
    const run = m[0];
    for (let j = 0; j < run.length; ) {
      const cp = run.codePointAt(j) as number;
      const ch = String.fromCodePoint(cp);
      const f = foldChar(ch);
      parts.push(f);
      for (let k = 0; k < f.length; k++) at[n++] = m.index + j;
      j += ch.length;
    }
    i = m.index + run.length;
  }
  if (i < text.length) {
    parts.push(text.slice(i).toLowerCase());
    for (let k = i; k < text.length; k++) at[n++] = k;
  }
  at[n] = text.length;
  return { folded: parts.join(''), at: at.subarray(0, n + 1) };
}

/** A query term folded the way foldWithMap folds text. */
export const foldTerm = (term: string): string => foldWithMap(term).folded;
