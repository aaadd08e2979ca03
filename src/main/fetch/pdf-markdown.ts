/**
 * A PDF's text as Markdown (mode markdown): headings where the document sets lines in type
 * clearly larger than its body, and bulleted lines as list items. The words are the text's,
 * in its order; only marks are added (and a line a Markdown reader would take for a heading
 * of its own is escaped).
 *
 * The type sizes come from the PDF worker (pdf-layout's pageText: each line's size, by its
 * letters); the text they go on is the one text mode gives (furniture dropped, broken words
 * joined), so a heading is found in it by its words, page by page, in order.
 */
import type { PdfPage } from './pdf-pool';

/**
 * A heading's type is at least this many times the body's. A paper's sections are 11 pt over
 * its 9 (1.22), a LaTeX document's subsections and a manual's 12 over 10 (1.2); a size one
 * step up for a lead-in (10.5 over 10, 11 over 10.5) is not a heading.
 */
const HEADING_RATIO = 1.15;
/** A heading runs over at most this many lines (a paper's title over two). */
const HEADING_LINES = 4;
/**
 * A heading is at most this long, its lines joined: a paper's title is 67 characters, the
 * longest section title of the corpus's manuals 70; a paper's list of authors, set in its
 * sections' type, 270 over three lines.
 */
const HEADING_CHARS = 120;
/** Markdown has three levels of heading worth telling apart in a document's own sizes; smaller ones share the third. */
const LEVELS = 3;
/**
 * A heading has words: two letters, or a letter among three letters or digits ("v 0.2", a
 * version's notes); a page number, a figure's "(a)" or a lone symbol set large has none.
 */
const hasWords = (text: string): boolean => {
  const letters = (text.match(/\p{L}/gu) ?? []).length;
  return letters >= 2 || (letters === 1 && (text.match(/[\p{L}\p{N}]/gu) ?? []).length >= 3);
};
/** A section's number before its title: "1 Overview", "3.2 Trace Trees", "10. Future Work". */
const SECTION_NUMBER = /^\d+(?:\.\d+)*\.?\s+\p{L}/u;
/** A bullet a list item starts with, and the blank after it. */
const BULLET = /^[•◦▪‣●○■□]\s+/u;
/** A line Markdown would read as a heading (ATX "# …", a setext underline) or a rule, where the text is not one: a shell comment in a listing, "====". */
const READ_AS_MARKUP = /^(?:#{1,6}(?:\s|$)|[=-]+\s*$)/u;

interface Line {
  page: number;
  text: string;
  type: number;
}

/**
 * The pages' texts (`texts`, as text mode gives them) as Markdown, from the pages' own lines
 * and type sizes (`pages`, in the same order).
 */
export function pdfMarkdown(pages: PdfPage[], texts: string[]): string[] {
  const headings = headingsOf(pages);
  return texts.map((text, p) => marked(text, headings.get(p) ?? []));
}

/** Per page (by index), its heading lines in order, each with its level. */
function headingsOf(pages: PdfPage[]): Map<number, { text: string; level: number }[]> {
  const lines: Line[] = [];
  pages.forEach((p, page) => {
    const texts = p.text.split('\n').filter((l) => l !== '');
    // A page laid out without sizes (or with others than its lines) has no headings to tell.
    const types = p.types ?? [];
    if (types.length !== texts.length) return;
    texts.forEach((text, k) => lines.push({ page, text, type: types[k] as number }));
  });
  const body = bodyType(lines);
  const out = new Map<number, { text: string; level: number }[]>();
  if (body === 0) return out;
  const candidates = lines.filter((l) => l.type >= HEADING_RATIO * body && hasWords(l.text));
  const sizes = [...new Set(candidates.map((l) => l.type))].sort((a, b) => b - a);
  const byline = bylineOf(candidates);
  for (const l of candidates) {
    if (byline.has(l)) continue;
    const level = Math.min(LEVELS, sizes.indexOf(l.type) + 1);
    if (!out.has(l.page)) out.set(l.page, []);
    out.get(l.page)?.push({ text: l.text, level });
  }
  return out;
}

/** The body's type: the size most letters are set in. */
function bodyType(lines: Line[]): number {
  const letters = new Map<number, number>();
  for (const l of lines) letters.set(l.type, (letters.get(l.type) ?? 0) + l.text.replace(/\s+/g, '').length);
  let body = 0;
  let most = 0;
  for (const [type, n] of letters) if (n > most) [body, most] = [type, n];
  return body;
}

/**
 * The lines under a document's title that name its authors and date: in larger type than the
 * body, as LaTeX sets them (12 pt over 10, the size of its subsections), but no headings. They
 * are the candidates on the title's page after the title and before the page's first heading
 * in the largest type below the title's (the first section), set smaller than that heading;
 * never a line that opens with a section's number.
 */
function bylineOf(candidates: Line[]): Set<Line> {
  const out = new Set<Line>();
  const title = candidates[0];
  if (!title) return out;
  const below = candidates.filter((l) => l.page === title.page && l !== title && l.type < title.type);
  const section = Math.max(0, ...below.map((l) => l.type));
  for (const l of below) {
    if (l.type >= section) break;
    if (!SECTION_NUMBER.test(l.text)) out.add(l);
  }
  return out;
}

/**
 * One page's text with its headings marked (found in order by their words; a heading the text
 * dropped as furniture is passed over), its bulleted lines as list items, and the lines a
 * Markdown reader would misread escaped. A heading over several lines becomes one line; a
 * heading stands between blank lines.
 */
function marked(text: string, headings: { text: string; level: number }[]): string {
  const lines = text.split('\n');
  const levels: number[] = lines.map(() => 0);
  let next = 0;
  lines.forEach((line, i) => {
    for (let h = next; h < headings.length; h++) {
      if (headings[h]?.text !== line) continue;
      levels[i] = headings[h]?.level ?? 0;
      next = h + 1;
      break;
    }
  });
  const out: string[] = [];
  for (let i = 0; i < lines.length; ) {
    const level = levels[i] ?? 0;
    let j = i + 1;
    while (level > 0 && j < lines.length && levels[j] === level) j++;
    const heading = lines.slice(i, j).join(' ');
    if (level > 0 && j - i <= HEADING_LINES && [...heading].length <= HEADING_CHARS) {
      if (out.length > 0 && out[out.length - 1] !== '') out.push('');
      out.push(`${'#'.repeat(level)} ${heading}`);
      if (j < lines.length && lines[j] !== '') out.push('');
      i = j;
      continue;
    }
    for (const line of lines.slice(i, j)) out.push(asMarkdownLine(line));
    i = j;
  }
  return out.join('\n');
}

/**
 * How many headings and list items the pages' Markdown has (meta.pdf): a text line that would
 * read as either was escaped or is one (a "- " the PDF itself wrote is an item).
 */
export function markedIn(pages: string[]): { headings: number; list_items: number } {
  let headings = 0;
  let items = 0;
  for (const page of pages) {
    headings += (page.match(/^#{1,6} /gm) ?? []).length;
    items += (page.match(/^- /gm) ?? []).length;
  }
  return { headings, list_items: items };
}

/** A line of running text as Markdown: a bullet's item as a list item, a line that would read as markup escaped. */
function asMarkdownLine(line: string): string {
  if (BULLET.test(line)) return line.replace(BULLET, '- ');
  return READ_AS_MARKUP.test(line) ? `\\${line}` : line;
}
