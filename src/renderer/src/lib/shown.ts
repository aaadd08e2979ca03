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
