import { isPlainText, type Mode, type Result } from './types';
import { prettyJson } from './json';
import type { ResultPart } from './ipc/contract';

// A <pre> of several MB makes layout crawl; the export has the whole text.
export const MAX_SHOWN_TEXT = 1024 * 1024;

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
  // A PDF's text is not markdown: a line "1. Introduction" would become a list, an indented
  // one code. It reads as laid out, with its pages marked.
  if (result.meta?.kind === 'pdf') return 'text';
  // A text document reads as it is laid out: as Markdown a CSV's rows ran into one paragraph
  // and an XML file lost its tags.
  if (isPlainText(result.meta)) return 'text';
  // grep's lines, as grep prints them: read as Markdown, matches a line apart ran into one
  // paragraph, and the "--" between two groups of context made the line above it a heading.
  if (typeof result.meta?.matches === 'number') return 'text';
  if (mode === undefined || mode === 'markdown') return 'markdown';
  return 'text';
}

/**
 * What of a result the pane is sent: the whole when it shows it whole, else the part it shows
 * (around `line`, a search hit's), JSON laid out first as the pane lays it out, with where it lies.
 */
export function partForPane(result: Result, mode: Mode | undefined, line?: number): { content: string; part?: ResultPart } {
  const { content } = result;
  if (content.length <= MAX_SHOWN_TEXT) return { content };
  const laid = shapeOf(mode, result) === 'json' ? prettyJson(content) : null;
  // A hit's line is the stored content's; laid out JSON has its own lines.
  const shown = laid === null ? shownPart(content, line) : shownPart(laid);
  return { content: shown.text, part: { from: shown.from, firstLine: shown.firstLine, length: content.length, laidOut: laid !== null } };
}
