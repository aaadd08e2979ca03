import { decodeEntities } from '../../shared/entities';
import { attributeOf } from '../../shared/page-address';

/**
 * Where the first "</name" (in any case) is in `html` from `from`, or -1; `name` in lower
 * case. Compared in place, as HTML compares tag names (ASCII letters in any case): not by
 * lowering the whole page (String#toLowerCase of a benchmark page, 182 KB on average, took
 * 1.5-2 ms of CPU, a tenth of extracting it), nor a slice of it at each "</" (a third of
 * judging a page, when classify.ts did so).
 */
export function endTagAt(html: string, name: string, from: number): number {
  for (let at = html.indexOf('</', from); at >= 0; at = html.indexOf('</', at + 2)) {
    if (nameAt(html, at + 2, name)) return at;
  }
  return -1;
}

/** Whether `name` (lower case) is at `i` in `text`, its ASCII letters in any case. */
function nameAt(text: string, i: number, name: string): boolean {
  if (i + name.length > text.length) return false;
  for (let k = 0; k < name.length; k++) {
    let ch = text.charCodeAt(i + k);
    if (ch >= 65 && ch <= 90) ch += 32;
    if (ch !== name.charCodeAt(k)) return false;
  }
  return true;
}

/** Longest wait a refresh may ask for and still be a redirect; longer ones reload a live page. */
export const MAX_REFRESH_SECONDS = 10;

/**
 * The content of a page's first <meta http-equiv=refresh> in its first 32 KB, outside scripts,
 * noscript, templates and comments: one in <noscript> is for browsers without JavaScript (often
 * a "turn on JavaScript" page), and a page that needs JavaScript is rendered instead.
 */
export function metaRefresh(head: string): string | undefined {
  const tag = /<meta\b[^>]*\bhttp-equiv\s*=\s*["']?refresh\b[^>]*>/i.exec(head.slice(0, 32 * 1024).replace(/<!--[\s\S]*?-->|<(script|noscript|template)\b[^>]*>[\s\S]*?<\/\1\s*>/gi, ' '))?.[0] ?? '';
  return attributeOf(tag, 'content');
}

/** A refresh's value (a Refresh header's, or a <meta>'s content) as a browser reads it: its wait in seconds, and the address it names ('' for the page itself). */
export function refreshValue(content: string): { seconds: number; url: string } | undefined {
  const m = /^\s*(\d+(?:\.\d*)?)\s*[;,]?\s*(?:url\s*=\s*)?(["']?)([^"']*)\2/i.exec(decodeEntities(content));
  return m ? { seconds: Number(m[1]), url: (m[3] ?? '').trim() } : undefined;
}
