import type { Collector } from './collect';
import { forEachLine, tooLong } from './lines';
import { lineLinks } from './markdown';
import { parseOptionsText } from './options';
import { checkUrl } from './url';

// What sets a title off from the URL before it: a tab, or a bar or dash between spaces.
const TITLE_AFTER = /^(?:[ ]*\t|\s+[|\-–—](?:\s|$))/;

/**
 * Plain text: one URL a line, optionally followed by options (`pages=1-5 grep="x" context`);
 * blank lines and lines starting with `#` are skipped.
 */
export function readText(input: string, c: Collector, maxLineLength: number): void {
  forEachListedLine(input, c, maxLineLength, (line, n) => {
    const ws = line.search(/\s/);
    // A sentence with URLs in it ("Read https://a.org/x and https://b.org/y.", "Title:
    // https://…"), as a list written in an e-mail or a chat has them: its first word is no URL
    // and was refused as "not a URL" (or "Title:" as a URL scheme), with the URLs in it lost.
    // A first word with "://" is a URL the user meant, and its own problem is reported.
    if (ws !== -1 && !line.slice(0, ws).includes('://') && /https?:\/\//i.test(line)) {
      const urls = lineLinks(line);
      if (urls.length > 0) {
        for (const u of urls) c.add(n, line, u);
        return;
      }
    }
    if (ws === -1) {
      c.add(n, line, line);
      return;
    }
    // The URL's problem first: "not a url at all" is a line without a URL, not a URL
    // with a bad option "a".
    const url = checkUrl(line.slice(0, ws));
    if (!url.ok) {
      c.reject(n, line, url.reason);
      return;
    }
    const opts = parseOptionsText(line.slice(ws + 1));
    if (!opts.ok) {
      // A URL and its title, as tab savers export a list ("https://… | Title") and a sheet's
      // two columns paste ("https://…<TAB>Title"): every line was "unknown option", and nothing
      // was read. The title is no option, and is left as a CSV's title column is.
      if (TITLE_AFTER.test(line.slice(ws))) c.add(n, line, line.slice(0, ws));
      else c.reject(n, line, opts.reason);
      return;
    }
    c.add(n, line, line.slice(0, ws), opts.options);
  });
}

/** text/uri-list (RFC 2483): one URI a line, `#` comment lines, no options. */
export function readUriList(input: string, c: Collector, maxLineLength: number): void {
  forEachListedLine(input, c, maxLineLength, (line, n) => {
    // RFC 2483: one URI a line. WHATWG URL would quietly turn "a b" into "a%20b".
    if (/\s/.test(line)) {
      c.reject(n, line, 'one URL a line: this one has spaces in it');
      return;
    }
    c.add(n, line, line);
  });
}

/**
 * Calls fn with each trimmed line that is neither blank nor a `#` comment; a line over
 * maxLineLength is refused, and one after the list is full marks it truncated.
 */
function forEachListedLine(input: string, c: Collector, maxLineLength: number, fn: (line: string, n: number) => void): void {
  forEachLine(input, (raw, n) => {
    if (c.full) {
      c.truncated ||= raw.trim() !== '';
      return;
    }
    const line = raw.trim();
    if (line === '' || line.charCodeAt(0) === 35 /* # */) return;
    if (raw.length > maxLineLength) {
      c.reject(n, line, tooLong(raw, maxLineLength));
      return;
    }
    fn(line, n);
  });
}

export { tooLong };
