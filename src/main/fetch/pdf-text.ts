/**
 * Whole-document clean-up of PDF page texts (the worker lays each page out on its own):
 * - line-end hyphens that only break a word are joined; compound hyphens stay;
 * - furniture (running headers and footers, page numbers, printer marks) is dropped.
 * Both need every page: a word's other spellings and a line's repeats are found document-wide.
 */

/** A letter (any script) or a combining mark. */
const WORDS = /[\p{L}\p{M}]+(?:-[\p{L}\p{M}]+)*/gu;
// The hyphen at the end of a line, the word part before it, and the word part after the line break.
// The lookbehind starts a try at a word's first letter only: it finds the same matches (a try
// inside a word meets the same hyphen as the try at its start), but without it each letter of
// each word starts a try that reads to the word's end, quadratic in a word's length (CJK text
// has no spaces): on the corpus PDFs' 498 pages, 162-338 ms against 103-192 ms.
const LINE_END_HYPHEN = /(?<![\p{L}\p{M}])([\p{L}\p{M}]+(?:-[\p{L}\p{M}]+)*)([-\u00ad\u2010])\n([\p{Ll}][\p{L}\p{M}]*)/gu;

export interface Vocabulary {
  /** Lower-cased words as written in the running text, hyphenated compounds as one word. */
  has(word: string): boolean;
}

/**
 * Every word of the texts, hyphenated compounds as one word. A word never spans a line break,
 * so "exam-\nple" gives "exam" and "ple", never "exam-ple".
 */
export function vocabulary(texts: string[]): Vocabulary {
  // match, not matchAll: the words alone, without a match object each. Lower-cased once per
  // spelling, not per occurrence: the book's 107k words are 10k spellings.
  const spellings = new Set<string>();
  for (const t of texts) for (const w of t.match(WORDS) ?? []) spellings.add(w);
  const words = new Set<string>();
  for (const w of spellings) words.add(w.toLowerCase());
  return words;
}

/**
 * Joins "exam-\nple" into "example" when the hyphen only breaks the word, and keeps
 * "well-\nknown" as "well-known" when the hyphen belongs to the word. The evidence is the
 * document's own vocabulary: the hyphenated form written elsewhere, or a word that already
 * has a hyphen ("state-of-the-\nart"), is a compound; anything else is a break, by far the
 * commoner case in print. A soft hyphen (U+00AD) is always a break; a line going on with a
 * capital or a digit is left alone. The two lines become one. Returns the text and counts.
 */
export function dehyphenate(text: string, vocab: Vocabulary): { text: string; joined: number; kept: number } {
  let joined = 0;
  let kept = 0;
  const out = text.replace(LINE_END_HYPHEN, (_m, before: string, hyphen: string, after: string) => {
    const keep = keepsHyphen(before, hyphen, after, vocab);
    if (keep) kept++;
    else joined++;
    return keep ? `${before}-${after}` : `${before}${after}`;
  });
  return { text: out, joined, kept };
}

/** Whether "before-" at a line end and "after" on the next line are a compound (see dehyphenate), not a word broken in two. */
function keepsHyphen(before: string, hyphen: string, after: string, vocab: Vocabulary): boolean {
  const last = before.slice(before.lastIndexOf('-') + 1);
  const compound = `${last}-${after}`.toLowerCase();
  return hyphen !== '\u00ad' && (before.includes('-') || (vocab.has(compound) && !vocab.has((last + after).toLowerCase())));
}

/** A block's last word, hyphenated: "rep-", "state-of-the-". */
const BLOCK_END_HYPHEN = /(?<![\p{L}\p{M}])([\p{L}\p{M}]+(?:-[\p{L}\p{M}]+)*)([-\u00ad\u2010])$/u;
/** A block's first word in lower case, the marks after it ("resentations,"), and the blank or line end after them. */
const BLOCK_START_WORD = /^([\p{Ll}][\p{L}\p{M}]*)(\S*)(?:[ \t]+|\n|$)/u;

/**
 * A page number in lower-case roman numerals (a book's front matter: "xiv PREFACE"), which a
 * page can start with where its running head was not dropped (a preface of four pages has
 * too few repeats): the book's "be-" at the foot of page xiii became "bexiv".
 */
const ROMAN_NUMERAL = /^m{0,3}(?:cm|cd|d?c{0,3})(?:xc|xl|l?x{0,3})(?:ix|iv|v?i{0,3})$/;

/**
 * Joins a word broken at the end of a block with its second half at the start of the next:
 * the foot of one column and the top of the next, the end of a page and the start of the
 * following one ("al-", then "lowed to enter…" on the next page: 49 such words in a 352-page
 * book, 2 in a 14-page two-column paper). The second half (with the marks after it) moves up
 * to its first half; the rest of its line stays where it is, so each line stays on its page.
 * Compounds are kept as dehyphenate keeps them. `numbers` are the pages' numbers: pages not
 * next to each other in the document (pages=1,3) are not joined.
 */
export function dehyphenateBreaks(pages: string[], numbers: number[], vocab: Vocabulary): { pages: string[]; joined: number; kept: number } {
  let joined = 0;
  let kept = 0;
  // Pages' blocks in order, each with its page; pages are blocks separated by one blank line (pageText, dropFurniture).
  const blocks = pages.map((p) => p.split('\n\n'));
  let prev: { page: number; block: number } | undefined;
  blocks.forEach((page, p) => {
    if (prev && numbers[p] !== (numbers[prev.page] as number) + 1) prev = undefined;
    for (let b = 0; b < page.length; b++) {
      if (page[b] === '') continue;
      if (prev) {
        const head = blocks[prev.page] as string[];
        const end = BLOCK_END_HYPHEN.exec(head[prev.block] as string);
        const start = end && BLOCK_START_WORD.exec(page[b] as string);
        if (end && start && !ROMAN_NUMERAL.test(start[1] as string)) {
          const [, before, hyphen] = end as unknown as [string, string, string];
          const [whole, after, marks] = start as unknown as [string, string, string];
          const keep = keepsHyphen(before, hyphen, after, vocab);
          if (keep) kept++;
          else joined++;
          head[prev.block] = `${(head[prev.block] as string).slice(0, end.index)}${before}${keep ? '-' : ''}${after}${marks}`;
          page[b] = (page[b] as string).slice(whole.length);
          if (page[b] === '') continue;
        }
      }
      prev = { page: p, block: b };
    }
  });
  return { pages: blocks.map((page) => page.filter((b) => b !== '').join('\n\n')), joined, kept };
}

/** Lines at the top and bottom of a page where running heads, feet and page numbers sit. */
const EDGE_LINES = 3;

/** Running heads and feet are short; a longer line must repeat word for word to count. */
const SHORT_LINE_WORDS = 6;
/** A word of a line, for its length: a run holding a letter; numbers and marks ("11", "3 / 81", "·") are none. */
const WORD = /\p{L}/u;

/**
 * A line's key for finding repeats: a short line's shape with its numbers masked, so
 * "Page 3" and "Page 4", "Chapter 2 · 17" and "Chapter 2 · 18", "Guide 11 / 1 / 17" and
 * "Guide 11 / 2 / 17" match; a longer line as it is. Only words with letters make a line
 * long, and only numbers standing alone are masked ("item3" is a word of its own).
 */
export function lineKey(line: string): string {
  return keyOfPlain(plainLine(line));
}

const plainLine = (line: string): string => line.toLowerCase().replace(/\s+/g, ' ').trim();

function keyOfPlain(plain: string): string {
  if (plain.split(' ').filter((w) => WORD.test(w)).length > SHORT_LINE_WORDS) return plain;
  const key = plain.replace(/(?<![\p{L}\d])\d+(?![\p{L}\d])/gu, '#').replace(/\b[ivxlcdm]+\b/g, '#');
  // Facing pages set the number on the outer side: "xiv PREFACE" and "PREFACE xv" are one head,
  // which a four-page preface repeated twice each way, under the three repeats needed.
  return key.startsWith('# ') && !key.endsWith(' #') ? `${key.slice(2)} #` : key;
}

/**
 * Drops furniture from page texts: a line (see lineKey) that stands among the first or
 * last lines of at least three pages, or that appears word for word on most pages anywhere
 * (a printer's mark, a margin line number). Anywhere on the page only an exact repeat
 * counts: with numbers masked, a table's or a contents list's lone numbers ("3", "12")
 * would match each other on most pages and go too. Only documents of three pages or more
 * have any. Returns the pages and how many lines were dropped.
 */
export function dropFurniture(pages: string[]): { pages: string[]; removed: number } {
  if (pages.length < 3) return { pages, removed: 0 };
  const split = pages.map((p) => p.split('\n'));
  // Per page: each line's exact text ('' for a blank one), the indexes of its edge lines,
  // and the masked key (lineKey) of those edge lines only.
  const keyed = split.map((lines) => {
    const exact = lines.map(plainLine);
    const content = exact.map((_k, i) => i).filter((i) => exact[i] !== '');
    const edges = new Set([...content.slice(0, EDGE_LINES), ...content.slice(-EDGE_LINES)]);
    const keys = exact.map((e, i) => (edges.has(i) ? keyOfPlain(e) : ''));
    return { keys, exact, edges };
  });
  const edge = new Map<string, number>();
  const anywhere = new Map<string, number>();
  const numbering = new Map<string, Set<number>>();
  keyed.forEach(({ keys, exact, edges }, p) => {
    for (const k of new Set([...edges].map((i) => keys[i] as string))) edge.set(k, (edge.get(k) ?? 0) + 1);
    for (const k of new Set(exact)) if (k !== '') anywhere.set(k, (anywhere.get(k) ?? 0) + 1);
    for (const i of edges) for (const o of pageOffsets(exact[i] as string, p)) numbering.set(keys[i] as string, (numbering.get(keys[i] as string) ?? new Set()).add(o));
  });
  const most = Math.max(3, Math.ceil(pages.length * 0.6));
  const runningHead = (key: string): boolean => (edge.get(key) ?? 0) >= 3;
  // A running head or foot that the layout read inside the page, alone between blank lines:
  // a foot under the left column of a two-column index comes after that column ("334 INDEX"
  // on a book's 6 even index pages, while "INDEX 335" ended the odd ones and went). Its number
  // must follow the page numbering the edges show for that head: the contents' "CONCLUSION 257"
  // on page 10 is no running head "CONCLUSION 259" of page 265. Words are needed too: a lone
  // number matches every lone number of a contents list (a manual lost 300 of them).
  const headInside = (exact: string[], i: number, p: number): boolean => {
    if (exact[i - 1] || exact[i + 1] || !WORD.test(exact[i] as string)) return false;
    const key = keyOfPlain(exact[i] as string);
    return runningHead(key) && pageOffsets(exact[i] as string, p).some((o) => numbering.get(key)?.has(o));
  };
  const drops = keyed.map(({ keys, exact, edges }, p) => {
    const drop = exact.map((e, i) => e !== '' && ((edges.has(i) && runningHead(keys[i] as string)) || (anywhere.get(e) ?? 0) >= most || headInside(exact, i, p)));
    keepRepeatedParagraphs(exact, edges, drop);
    return drop;
  });
  // Furniture frames a page's text. Pages of a few short lines of the same shape (tickets,
  // receipts, labels: "Seat 12", "Total 23.50") repeat in every line, and all of them went:
  // 500 pages of two such lines came back as an empty ok. Where most pages would be left with nothing,
  // the repeats are the text.
  const emptied = keyed.filter(({ exact }, p) => exact.some((e) => e !== '') && exact.every((e, i) => e === '' || drops[p]?.[i])).length;
  if (emptied * 2 > pages.length) return { pages, removed: 0 };
  let removed = 0;
  const out = split.map((lines, p) => {
    const drop = drops[p] as boolean[];
    removed += drop.filter(Boolean).length;
    return lines
      .filter((_l, i) => !drop[i])
      .join('\n')
      .replace(/\n{3,}/g, '\n\n')
      .trim();
  });
  return { pages: out, removed };
}

/** A line's numbers standing alone, each less the page's index: the same for a page number on every page. */
function pageOffsets(line: string, page: number): number[] {
  return (line.match(/(?<![\p{L}\d])\d+(?![\p{L}\d])/gu) ?? []).map((n) => Number(n) - page);
}

/**
 * Un-drops a paragraph that a document prints again: two or more long lines in a row, all
 * repeats, at least one of them inside the page rather than among its edge lines. Furniture
 * is a line or two at the top or bottom, or a lone mark; a clause, a form's instructions or a
 * worked example printed again on later pages is text (a 4-page example that repeats its
 * paragraphs lost 90 of its 190 lines). A repeated block wholly among the edge lines (a
 * footer's disclaimer) still goes.
 */
function keepRepeatedParagraphs(exact: string[], edges: Set<number>, drop: boolean[]): void {
  const long = (i: number): boolean => drop[i] === true && (exact[i] as string).split(' ').filter((w) => WORD.test(w)).length > SHORT_LINE_WORDS;
  for (let i = 0; i < exact.length; ) {
    if (!long(i)) {
      i++;
      continue;
    }
    let j = i;
    while (j < exact.length && long(j)) j++;
    let inside = false;
    for (let k = i; k < j; k++) if (!edges.has(k)) inside = true;
    if (j - i >= 2 && inside) drop.fill(false, i, j);
    i = j;
  }
}
