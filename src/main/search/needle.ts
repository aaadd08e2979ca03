import { foldWithMap } from './fold';
import type { Column } from '../../shared/search';

/** A signed word a hit must hold (c++, folded), in the column its term named (title:C++), else in its title, URL or result. */
export interface Needle {
  word: string;
  column?: Column;
}

/**
 * Where a needle (a signed word in ASCII, folded: c++, c#, .net; query.ts literalNeedles) is in
 * a text's fold (foldWithMap) at a place where the text is not ASCII: Ｃ＋＋ and Ĉ# hold c++ and
 * c#, and the index, which reads them so, finds them. The store checks needles with SQLite's
 * lower(), which folds ASCII only; this answers for the rest.
 *
 * Only the few places that can fold into the needle are read, and only texts holding its
 * anchor (+ or ＋ for c++) are decoded. Measured in CPU time for C++ among 2,000 results of
 * 20 KB that all hold a lone c (median of 9, lower() alone before): English 98 -> 113 ms,
 * English with curly quotes 118 -> 119, French 139 -> 165, Japanese 413 -> 650 (its 50 KB of
 * UTF-8 handed to JS each). Folding each whole text instead took the French ones 4.9 s.
 */

/**
 * The blocks holding every character the fold writes with ASCII letters, digits or signs (é as
 * e, Ｃ as c, ﬁ as fi, K the Kelvin sign as k, ı as i, ≠ as =, ① as 1): Latin-1 to Latin Extended-B,
 * the Greek question mark, Latin Extended Additional and Greek Extended, superscripts to number
 * forms, two mathematical operators, enclosed numbers, enclosed CJK and CJK compatibility (㈱, ㎏),
 * ligatures, full-width forms and Mathematical Alphanumeric Symbols. test/unit/search-needle.test.ts folds every character of
 * planes 0, 1 and 14 and finds no other.
 */
const TO_ASCII_RANGES = [[0x80, 0x24f], [0x37e, 0x37e], [0x1e00, 0x1fff], [0x2070, 0x218f], [0x2260, 0x226f], [0x2460, 0x24ff], [0x3200, 0x33ff], [0xfb00, 0xfb06], [0xff01, 0xffee], [0x1d400, 0x1d7ff]] as const;
/**
 * What the fold writes for nothing: marks (a mark after a Latin letter, é written as e and U+0301),
 * and the soft hyphen, tatweel, zero-width characters and half-width sound marks.
 */
const TO_NOTHING = '\\p{M}\\u00AD\\u0640\\u200B-\\u200D\\u2060\\uFEFF\\uFF9E\\uFF9F';

/**
 * A character as NFKD writes it, in lower case, and its fraction slash as the fold writes it (½
 * as 1/2, fold.ts): a superset of the ASCII characters the fold writes for it
 * (search-needle.test.ts checks every one).
 */
const looseFold = (ch: string): string => ch.normalize('NFKD').replaceAll('\u2044', '/').toLowerCase().toUpperCase().toLowerCase();

let toAscii: [string, string][] | undefined;
/** Each character of TO_ASCII_RANGES that NFKD writes with an ASCII character, and what it writes; made at first use (1,877 of 3,222, in 7 ms). */
function charsToAscii(): [string, string][] {
  if (toAscii) return toAscii;
  toAscii = [];
  for (const [from, to] of TO_ASCII_RANGES) {
    for (let cp = from; cp <= to; cp++) {
      const ch = String.fromCodePoint(cp);
      const f = looseFold(ch);
      if (/[\x21-\x7e]/.test(f)) toAscii.push([ch, f]);
    }
  }
  return toAscii;
}

const TO_NOTHING_ONE = new RegExp(`^[${TO_NOTHING}]$`, 'u');
const NON_ASCII = /[\u0080-\uffff]/;

interface NeedleScan {
  /** Each way a text may write the needle's anchor, the character of it written in the fewest ways (a sign: + as + or ＋), and those in UTF-8. */
  anchors: string[];
  anchorBytes: Buffer[];
  /** The needle's ASCII characters in either case. */
  ascii: Set<string>;
  /** The characters written with one of the needle's characters. */
  written: Set<string>;
}

const scans = new Map<string, NeedleScan>();
function scanOf(needle: string): NeedleScan {
  let s = scans.get(needle);
  if (s) return s;
  // Not those written as a word of their own (⁺ as " + "): the needle is one word.
  const ways = (c: string): string[] => [...new Set([c, c.toUpperCase(), ...charsToAscii().flatMap(([ch, f]) => (f.includes(c) && !/\s/.test(f) ? [ch] : []))])];
  const anchors = [...new Set(needle)].map(ways).reduce((a, b) => (b.length < a.length ? b : a));
  const written = new Set(charsToAscii().flatMap(([ch, f]) => ([...f].some((c) => needle.includes(c)) ? [ch] : [])));
  s = { anchors, anchorBytes: anchors.map((a) => Buffer.from(a)), ascii: new Set(needle + needle.toUpperCase()), written };
  // A query holds at most 16 groups of needles (query.ts MAX_NEEDLE_GROUPS).
  if (scans.size >= 256) scans.clear();
  scans.set(needle, s);
  return s;
}

/** The character of text that ends at `end` (two units for one past U+FFFF). */
const charBefore = (text: string, end: number): string => (end >= 2 && /[\uDC00-\uDFFF]/.test(text[end - 1] as string) && /[\uD800-\uDBFF]/.test(text[end - 2] as string) ? text.slice(end - 2, end) : text.slice(end - 1, end));
const charAt = (text: string, at: number): string => (at < text.length ? String.fromCodePoint(text.codePointAt(at) as number) : '');

/**
 * Whether text's fold holds `needle` (ASCII, folded) at a place where text is not ASCII; where
 * it is, SQLite's lower() tells. Each way the text may write one character of the needle (its
 * sign, for a signed word) is looked for with indexOf, and the place around it (the characters
 * that are one of the needle's, are written with one or with nothing) folded if it is not all
 * ASCII. A pattern over the characters that may fold into c++ took 200 µs for 20 KB of
 * Japanese; indexOf of + and ＋ and the few others about 10.
 */
export function foldsInto(text: string, needle: string): boolean {
  if (!NON_ASCII.test(text)) return false;
  const { anchors, ascii, written } = scanOf(needle);
  const inPlace = (ch: string): boolean => ascii.has(ch) || written.has(ch) || TO_NOTHING_ONE.test(ch);
  for (const anchor of anchors) {
    for (let at = text.indexOf(anchor); at >= 0; ) {
      let from = at;
      for (let c = charBefore(text, from); from > 0 && inPlace(c); c = charBefore(text, from)) from -= c.length;
      let to = at;
      for (let c = charAt(text, to); to < text.length && inPlace(c); c = charAt(text, to)) to += c.length;
      const place = text.slice(from, to);
      if (NON_ASCII.test(place) && foldWithMap(place).folded.includes(needle)) return true;
      at = text.indexOf(anchor, Math.max(to, at + 1));
    }
  }
  return false;
}

/**
 * foldsInto for text in UTF-8, as SQLite hands it over when asked for a blob: only a text that
 * holds the needle's anchor (+ or ＋ for c++) is decoded. Handed over as text, every result
 * lower() found no needle in was decoded, all of it.
 */
export function foldsIntoUtf8(bytes: Buffer, needle: string): boolean {
  const { anchorBytes } = scanOf(needle);
  return anchorBytes.some((a) => bytes.includes(a)) && foldsInto(bytes.toString('utf8'), needle);
}
