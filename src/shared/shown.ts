import { isPdfMarkdown, isPlainText, type Mode, type Options, type Result } from './types';
import { prettyJson } from './json';
import { isLinePairs } from './line-pairs';
import type { LongLine, ResultPart } from './ipc/contract';
import { optionsWords } from './job-label';
import { fileNameOfUrl, hostLabel } from './urllist/url';
import { isLowSurrogate } from './cut';

// A <pre> of several MB makes layout crawl; the export has the whole text.
export const MAX_SHOWN_TEXT = 1024 * 1024;

// Markdown past this size is shown as text: marked takes ~1 s per few MB on the window's
// thread, and a result can be 8 MiB.
export const MAX_RENDERED_MARKDOWN = 512 * 1024;

/**
 * Past this many characters a line is shown in part. Chromium lays out a line of the pane
 * (wrapped anywhere, its direction its own) in time that grows faster than its length past
 * ~128 KiB: in headless Chromium one line of 256 KiB took 0.6 s and one of 1 MiB 14–16 s,
 * while 1 MiB in lines of 64 KiB took 0.9–1.1 s, as 1 MiB in lines of 80 characters does.
 */
export const MAX_SHOWN_LINE = 64 * 1024;

/** What of such a line is shown: 8 KiB either side of its match, its place in a minified page readable. */
export const LINE_WINDOW = 16 * 1024;

/**
 * Bidi embeddings, overrides and isolates: one left open in a title (U+202E, RIGHT-TO-LEFT
 * OVERRIDE) shows the rest of its line backwards, in a heading and in the contents line that
 * links to it, as file names would ("U+202E txt.exe" reads "exe.txt"; names.ts drops them
 * too). Right-to-left titles read right without them: the bidi algorithm orders their letters.
 */
const BIDI_CONTROLS = /[\u202a-\u202e\u2066-\u2069]/g;
export const withoutBidiControls = (s: string): string => s.replace(BIDI_CONTROLS, '');

const BIDI_NAMES: Record<string, string> = {
  '\u202a': 'left-to-right embedding',
  '\u202b': 'right-to-left embedding',
  '\u202c': 'pop directional formatting',
  '\u202d': 'left-to-right override',
  '\u202e': 'right-to-left override',
  '\u2066': 'left-to-right isolate',
  '\u2067': 'right-to-left isolate',
  '\u2068': 'first strong isolate',
  '\u2069': 'pop directional isolate',
};

/** A piece of a text shown as written: its words, or a bidi control that stood there (its code point and name). */
export type BidiPiece = { text: string } | { control: string; name: string };

/**
 * Past this many, controls are dropped unmarked: a pane's MiB of text could hold a million, each
 * an element to lay out. In headless Chromium at 1024 px, 1,000 marks took 0.16–0.33 s to lay
 * out and 10,000 took 2.6–4.2 s; none of the 91 article pages or the 6 PDFs of ../shared/corpora has one.
 */
export const MAX_BIDI_MARKS = 1000;

/**
 * A text shown as written ("Show source", a text or PDF result), cut at each bidi control, so
 * the control is marked where it stands and not applied: left in, an override turned the rest
 * of its line around ("Invoice \u202Etxt.exe done" read "Invoice enod exe.txt"), and dropped
 * silently, a reader checking the source would not see it is there. The texts joined are the
 * text without them.
 */
export function bidiPieces(s: string): BidiPiece[] {
  if (s.search(BIDI_CONTROLS) < 0) return [{ text: s }];
  const out: BidiPiece[] = [];
  let from = 0;
  let marks = 0;
  for (const m of s.matchAll(BIDI_CONTROLS)) {
    if (marks++ === MAX_BIDI_MARKS) break;
    const c = m[0];
    if (m.index > from) out.push({ text: s.slice(from, m.index) });
    out.push({ control: `U+${c.charCodeAt(0).toString(16).toUpperCase()}`, name: BIDI_NAMES[c] ?? 'bidi control' });
    from = m.index + 1;
  }
  const rest = withoutBidiControls(s.slice(from));
  if (rest) out.push({ text: rest });
  return out;
}

/**
 * Past this many characters a title is shown cut. The longest of the 167 titles of the pages in
 * ../shared/corpora has 153; a page's <title> of 2 MB (one word, no place to wrap) froze the
 * window for 142 s when its result pane opened at 1440 px, laid out in the pane's heading and
 * its Meta row. The exports and the stored meta keep it whole.
 */
export const MAX_SHOWN_TITLE = 300;

/** Text cut past `max` characters with "…" (max + 2 at most: a character is not split, and the "…"). */
export const cutText = (s: string, max: number): string => (s.length > max ? `${s.slice(0, atCharStart(s, max))}…` : s);

/** A title cut past MAX_SHOWN_TITLE, where it is shown (a terminal writes its bidi controls out instead). */
export const cutTitle = (title: string): string => cutText(title, MAX_SHOWN_TITLE);

/** A page's title as the app shows it: cut, and without bidi controls that turned its words around. */
export const shownTitle = (title: string): string => withoutBidiControls(cutTitle(title));

/**
 * What names a finished result whose document gave no title (a JSON document without a
 * top-level "title" or "name"): what was asked of it ("jq .items[].name"), else its file name,
 * else its host. Its table cell was empty, and one document fetched with a jq program and
 * without showed two rows alike.
 */
export const untitledName = (t: { url: string; options?: Options }): string => shownTitle(optionsWords(t.options) || fileNameOfUrl(t.url) || hostLabel(t.url));

/**
 * Past this many characters any other meta value is shown cut: a page's author meta tag of
 * 2 MB on one line was laid out whole in the pane's Meta row, as a 2 MB title was. The longest
 * value a reader would read among the article benchmark's 2,907 meta tags is an og:description
 * of 1,816 characters, shown whole; at 8 KiB a one-word value stood ~585 lines tall in the
 * Meta row's 125 px at 1024 px wide. Copy and the exports keep every value whole.
 */
export const MAX_SHOWN_META = 2000;

/** A meta value as the pane shows it: cut past MAX_SHOWN_META, without bidi controls (an author's override turned it around as a title's did). */
export const shownMetaText = (s: string): string => withoutBidiControls(cutText(s, MAX_SHOWN_META));

/** Where a line's match starts (a UTF-16 index), when known. */
type MatchOf = (line: number, text: string) => number | undefined;

/** `at` moved off the second half of a surrogate pair, so a cut never splits a character. */
function atCharStart(s: string, at: number): number {
  return isLowSurrogate(s.charCodeAt(at)) ? at + 1 : at;
}

/** LINE_WINDOW characters of a long line, around its match (else its start), with "…" where it is cut. */
function lineWindow(text: string, at: number | undefined): { shown: string; from: number } {
  const from = atCharStart(text, Math.max(0, Math.min((at ?? 0) - LINE_WINDOW / 2, text.length - LINE_WINDOW)));
  const to = atCharStart(text, from + LINE_WINDOW);
  return { shown: `${from > 0 ? '…' : ''}${text.slice(from, to)}${to < text.length ? '…' : ''}`, from };
}

/**
 * The text with each line longer than MAX_SHOWN_LINE cut to a window around its match, and
 * those lines. Found without splitting the text: a result of short lines may be 40 MB.
 */
export function cutLongLines(t: string, matchOf: MatchOf): { text: string; long: LongLine[] } {
  const long: LongLine[] = [];
  const out: string[] = [];
  let copied = 0;
  for (let at = 0, line = 1; ; line++) {
    const nl = t.indexOf('\n', at);
    const end = nl < 0 ? t.length : nl;
    if (end - at > MAX_SHOWN_LINE) {
      const text = t.slice(at, end);
      const match = matchOf(line, text);
      const { shown, from } = lineWindow(text, match);
      out.push(t.slice(copied, at), shown);
      copied = end;
      long.push({ line, length: text.length, from, match: match !== undefined });
    }
    if (nl < 0) break;
    at = nl + 1;
  }
  if (long.length === 0) return { text: t, long };
  out.push(t.slice(copied));
  return { text: out.join(''), long };
}

/**
 * Where a stored result's line matches: a search hit's words on its line (any case), else
 * the grep's first match, which the pipeline noted for each long line it kept
 * (meta.match_columns: [line, column] pairs), as the pattern ran where it may run long.
 */
function matchOf(result: Result, hit: { line: number; needle?: string } | undefined): MatchOf {
  const columns = isLinePairs(result.meta?.match_columns) ? new Map(result.meta.match_columns) : undefined;
  const needle = hit?.needle?.trim().toLowerCase();
  return (line, text) => {
    if (needle && hit?.line === line) {
      const at = text.toLowerCase().indexOf(needle);
      if (at >= 0) return at;
    }
    return columns?.get(line);
  };
}

/** What of a text is shown: all of it, or MAX_SHOWN_TEXT characters from `from`, which starts line `firstLine`. */
export interface Shown {
  text: string;
  from: number;
  firstLine: number;
}

/**
 * The text's first MAX_SHOWN_TEXT characters, or, when a search hit's line lies past them,
 * as much around that line, from a line's start: the first megabyte only, a hit further on
 * left the view at the top, or highlighted another occurrence of its words.
 */
export function shownPart(t: string, line?: number): Shown {
  if (t.length <= MAX_SHOWN_TEXT) return { text: t, from: 0, firstLine: 1 };
  let at = 0;
  let l = 1;
  if (line !== undefined) {
    for (; l < line; l++) {
      const nl = t.indexOf('\n', at);
      if (nl < 0) break;
      at = nl + 1;
    }
  }
  // The hit's line starts well within the first part: that part, as without a hit.
  if (at < MAX_SHOWN_TEXT - 64 * 1024) return { text: t.slice(0, MAX_SHOWN_TEXT), from: 0, firstLine: 1 };
  // Half a part before the hit, back to the start of its line.
  const from = t.lastIndexOf('\n', Math.max(0, at - MAX_SHOWN_TEXT / 2)) + 1;
  let firstLine = l;
  for (let i = t.indexOf('\n', from); i >= 0 && i < at; i = t.indexOf('\n', i + 1)) firstLine--;
  return { text: t.slice(from, from + MAX_SHOWN_TEXT), from, firstLine };
}

export type Shape = 'markdown' | 'json' | 'text';

/** How the pane shows a result: by the mode asked and what Sift read the document as. */
export function shapeOf(mode: Mode | undefined, result: Result): Shape {
  const type = typeof result.meta?.content_type === 'string' ? result.meta.content_type : '';
  if (mode === 'meta') return 'json';
  // A feed (RSS, Atom, JSON Feed) was read into its entries: Markdown, or as asked.
  if (result.meta?.feed) return mode === undefined || mode === 'markdown' ? 'markdown' : 'text';
  // jq -r's lines (text asked of a jq program) are text, though the document was JSON.
  if (result.meta?.jq_raw) return 'text';
  // By what Sift read it as, too: JSON sent as text/html is JSON.
  if (/json/i.test(type) || result.meta?.kind === 'json') return 'json';
  // grep's lines, as grep prints them: read as Markdown, matches a line apart ran into one
  // paragraph, and the "--" between two groups of context made the line above it a heading.
  if (typeof result.meta?.matches === 'number') return 'text';
  // A PDF's text is not Markdown: a line "1. Introduction" would become a list, an indented
  // one code. It reads as laid out, with its pages marked. Its Markdown (mode markdown: its
  // headings and list items marked) reads as a page's does, its pages marked too.
  if (result.meta?.kind === 'pdf') return isPdfMarkdown(result.meta) && (mode === undefined || mode === 'markdown') ? 'markdown' : 'text';
  // A text document reads as it is laid out: as Markdown a CSV's rows ran into one paragraph
  // and an XML file lost its tags.
  if (isPlainText(result.meta)) return 'text';
  if (mode === undefined || mode === 'markdown') return 'markdown';
  return 'text';
}

/**
 * What of a result the pane is sent: the whole when it shows it whole, else the part it shows
 * (around `hit`'s line, a search hit's), JSON laid out first as the pane lays it out, each line
 * too long to lay out cut around its match, with where the part lies and which lines were cut.
 */
export function partForPane(result: Result, options: Options | undefined, hit?: { line: number; needle?: string }): { content: string; part?: ResultPart } {
  const { content } = result;
  const shape = shapeOf(options?.mode, result);
  // Rendered as HTML: a long line is a paragraph there, read whole.
  if (shape === 'markdown' && content.length <= MAX_RENDERED_MARKDOWN) return { content };
  const laid = shape === 'json' ? prettyJson(content) : null;
  // A hit's line and the grep's columns are the stored content's; laid out JSON has its own lines.
  const { text, long } = cutLongLines(laid ?? content, laid === null ? matchOf(result, hit) : () => undefined);
  if (content.length <= MAX_SHOWN_TEXT && long.length === 0) return { content };
  const shown = shownPart(text, laid === null ? hit?.line : undefined);
  const lastLine = shown.firstLine + countLines(shown.text) - 1;
  const lines = long.filter((l) => l.line >= shown.firstLine && l.line <= lastLine);
  const part: ResultPart = { from: shown.from, firstLine: shown.firstLine, length: content.length, laidOut: laid !== null, sized: text.length > MAX_SHOWN_TEXT };
  return { content: shown.text, part: lines.length > 0 ? { ...part, lines } : part };
}

function countLines(t: string): number {
  let n = 1;
  for (let i = t.indexOf('\n'); i >= 0; i = t.indexOf('\n', i + 1)) n++;
  return n;
}
