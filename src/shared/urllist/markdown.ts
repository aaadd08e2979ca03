import type { Collector } from './collect';
import { forEachLine, tooLong } from './lines';

// The start of an inline link or image: `[text](` or `![alt](`, text with one level of
// nested brackets (`[a [b] c](…)`), as reading lists and READMEs write them.
const LINK_START = /(!?)\[(?:[^[\]]|\[[^\]]*\])*\]\(/g;
// A backtick ends a bare URL: READMEs put URLs in inline code (`https://x.org/a`), and a
// literal backtick in a URL is percent-encoded (%60) by everything that writes one. So does
// the punctuation of Chinese and Japanese text (、。「」（）！：…: CJK symbols and the full-width
// forms' punctuation), which sets no space before or after a URL: "（https://x.jp/a）。次に"
// was fetched as https://x.jp/a%EF%BC%89%E3%80%82%E6%AC%A1… . Their letters may be a path's.
const BARE = /https?:\/\/[^\s<>`\u3000-\u303f\uff01-\uff0f\uff1a-\uff20\uff3b-\uff40\uff5b-\uff65]+/gi;
const TRAILING = /[.,;:!?*_~'"]+$/;
// The address of what an HTML tag in the Markdown shows inside the document (a logo's
// <img src>, a <picture>'s <source srcset>, a video's poster), as READMEs write them: a
// picture, not a page to read: a readme's logos and banners were fetched with its links, each
// a failure ("unsupported") or an image's markup counted ok. <a href> is a link and stays.
// An attribute follows a space in its tag, so a query's `?src=feed` is no attribute.
const EMBEDDED = /(?<=\s)(?:src|srcset|poster|data-src|data-srcset)=(?:"[^"]*"|'[^']*'|[^\s>"']+)/gi;

/**
 * Reads the destination of an inline link from `i` (just past the `(`): `<…>` or a run
 * without spaces where parentheses must balance (Wikipedia URLs carry them), then an
 * optional title, then `)`. Returns the URL and the offset past the `)`.
 */
function destination(s: string, i: number): { url: string; end: number } | undefined {
  while (s[i] === ' ') i++;
  let url: string;
  if (s[i] === '<') {
    const close = s.indexOf('>', i + 1);
    if (close === -1) return undefined;
    url = s.slice(i + 1, close);
    i = close + 1;
  } else {
    const start = i;
    let depth = 0;
    for (; i < s.length; i++) {
      const ch = s[i];
      if (ch === ' ' || ch === '\t') break;
      if (ch === '(') depth++;
      else if (ch === ')') {
        if (depth === 0) break;
        depth--;
      }
    }
    url = s.slice(start, i);
  }
  const close = s.indexOf(')', i);
  if (close === -1) return undefined;
  return { url, end: close + 1 };
}

/** Cuts what a sentence adds after a bare URL: "see https://x.org/a." or "(https://x.org)". */
function trimBare(u: string): string {
  let s = u.replace(TRAILING, '');
  for (;;) {
    if (!s.endsWith(')')) break;
    let open = 0;
    let close = 0;
    for (const ch of s) {
      if (ch === '(') open++;
      else if (ch === ')') close++;
    }
    if (close <= open) break;
    s = s.slice(0, -1).replace(TRAILING, '');
  }
  return s;
}

/**
 * The links of one line of Markdown or prose, in reading order: every inline link
 * `[text](url)` (images `![]()` are not pages to read, and `(#section)` links point inside the
 * document, so both are skipped), then every bare http(s) URL and `<https://…>` autolink
 * outside those links and outside an HTML tag's picture (EMBEDDED), with what a sentence adds
 * after it cut off (trimBare).
 */
export function lineLinks(raw: string): string[] {
  if (raw.indexOf('](') === -1 && raw.indexOf('://') === -1) return [];
  const found: { at: number; url: string }[] = [];
  let rest = raw;
  if (raw.indexOf('](') !== -1) {
    LINK_START.lastIndex = 0;
    let m: RegExpExecArray | null;
    let blanked = '';
    let last = 0;
    while ((m = LINK_START.exec(raw)) !== null) {
      const d = destination(raw, m.index + m[0].length);
      if (!d) continue;
      const url = d.url.trim();
      if (m[1] !== '!' && url !== '' && !url.startsWith('#')) found.push({ at: m.index, url });
      blanked += raw.slice(last, m.index) + ' '.repeat(d.end - m.index);
      last = d.end;
      LINK_START.lastIndex = d.end;
    }
    rest = blanked + raw.slice(last);
  }
  if (rest.indexOf('://') !== -1) {
    if (rest.indexOf('=') !== -1) rest = rest.replace(EMBEDDED, (a) => ' '.repeat(a.length));
    BARE.lastIndex = 0;
    let m: RegExpExecArray | null;
    while ((m = BARE.exec(rest)) !== null) found.push({ at: m.index, url: trimBare(m[0]) });
  }
  found.sort((a, b) => a.at - b.at);
  return found.map((f) => f.url);
}

/** Markdown, and prose with URLs in it (an e-mail, a chat message, notes): the links of each line (lineLinks). */
export function readMarkdown(input: string, c: Collector, maxLineLength: number): void {
  forEachLine(input, (raw, n) => {
    if (c.full) {
      c.truncated ||= /https?:|\]\(/i.test(raw);
      return;
    }
    if (raw.length > maxLineLength) {
      c.reject(n, raw.trim(), tooLong(raw, maxLineLength));
      return;
    }
    for (const url of lineLinks(raw)) c.add(n, url, url);
  });
}
