import type { Collector } from './collect';
import { forEachLine } from './lines';
import { parseOptionsText } from './options';
import { checkUrl } from './url';

function tooLong(line: string, max: number): string {
  return `line too long (${line.length} characters; at most ${max})`;
}

/**
 * Plain text: one URL a line, optionally followed by options (`pages=1-5 grep="x" context`);
 * blank lines and lines starting with `#` are skipped.
 */
export function readText(input: string, c: Collector, maxLineLength: number): void {
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
    const ws = line.search(/\s/);
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
      c.reject(n, line, opts.reason);
      return;
    }
    c.add(n, line, line.slice(0, ws), opts.options);
  });
}

/** text/uri-list (RFC 2483): one URI a line, `#` comment lines, no options. */
export function readUriList(input: string, c: Collector, maxLineLength: number): void {
  forEachLine(input, (raw, n) => {
    if (c.full) {
      c.truncated ||= raw.trim() !== '';
      return;
    }
    const line = raw.trim();
    if (line === '' || line.charCodeAt(0) === 35) return;
    if (raw.length > maxLineLength) {
      c.reject(n, line, tooLong(raw, maxLineLength));
      return;
    }
    // RFC 2483: one URI a line. WHATWG URL would quietly turn "a b" into "a%20b".
    if (/\s/.test(line)) {
      c.reject(n, line, 'one URL a line: this one has spaces in it');
      return;
    }
    c.add(n, line, line);
  });
}

export { tooLong };
