import type { Collector } from './collect';
import { lineAt } from './lines';
import { decodeEntities } from '../entities';

const A_START = /<a[\s>]/gi;
const HREF = /(?:^|\s)href\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+))/i;
/**
 * HTML, above all the Netscape bookmark file that Firefox, Chrome, Edge and Safari export:
 * the href of every `<a>`. A tokenizer over the text rather than a DOM, because the CLI runs
 * this in Node and the renderer must not need one either. Links into the page (`#…`) and
 * anchors without href are skipped; `place:`, `javascript:` and other schemes are reported.
 */
export function readHtml(input: string, c: Collector): void {
  const base = pageAddress(input);
  let line = 1;
  let lineFrom = 0;
  A_START.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = A_START.exec(input)) !== null) {
    // The tag ends at the first '>' outside quotes; scanned by hand so an unclosed tag or
    // quote ends the whole scan instead of making it quadratic.
    let i = m.index + 2;
    // A quote opens a value only right after '=', so `title=don't` cannot swallow the tag.
    let quote = 0;
    let prev = 0;
    for (; i < input.length; i++) {
      const ch = input.charCodeAt(i);
      if (quote) {
        if (ch === quote) quote = 0;
      } else if ((ch === 34 || ch === 39) && prev === 61 /* = */) quote = ch;
      else if (ch === 62 /* > */) break;
      if (ch !== 32 && ch !== 9 && ch !== 10 && ch !== 13) prev = ch;
    }
    if (i >= input.length) return;
    const tag = input.slice(m.index + 2, i);
    A_START.lastIndex = i + 1;
    const h = HREF.exec(tag);
    if (!h) continue;
    const href = decodeEntities(h[1] ?? h[2] ?? h[3] ?? '').trim();
    if (href === '' || href.startsWith('#')) continue;
    line = lineAt(input, lineFrom, line, m.index);
    lineFrom = m.index;
    if (c.full) {
      c.truncated = true;
      return;
    }
    if (HAS_SCHEME.test(href)) c.add(line, href, href);
    else if (base) c.add(line, href, resolve(href, base));
    // Scheme-relative: the URL check suggests its https form.
    else if (href.startsWith('//')) c.add(line, href, href);
    else c.reject(line, href, NO_BASE);
  }
}

const HAS_SCHEME = /^[a-z][a-z0-9+.-]*:/i;
const NO_BASE = 'relative URL: the page names no web address of its own to resolve it against (a <base href>, a canonical link, or the "saved from" mark a browser writes)';
// Where a saved page says it came from, in the order a browser would resolve its links by.
const BASE_TAG = /<base\s[^>]*?href\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+))/i;
// The mark of the web that Chrome, Edge and Internet Explorer write into a page they save.
const SAVED_FROM = /<!--\s*saved from url=\(\d+\)(\S+?)\s*-->/i;
const LINK_OR_META = /<(?:link|meta)\s[^>]*>/gi;
const ATTR = (name: string): RegExp => new RegExp(`(?:^|\\s)${name}\\s*=\\s*(?:"([^"]*)"|'([^']*)'|([^\\s"'>]+))`, 'i');
const REL = ATTR('rel');
const HREF_ATTR = ATTR('href');
const PROPERTY = ATTR('property');
const CONTENT = ATTR('content');
/** How far into a page its head is looked for: the address is declared near the top. */
const HEAD_CHARS = 256 * 1024;

const attr = (re: RegExp, tag: string): string | undefined => {
  const m = re.exec(tag);
  return m ? decodeEntities(m[1] ?? m[2] ?? m[3] ?? '').trim() : undefined;
};
const absoluteHttp = (u: string | undefined): string | undefined => (u && /^https?:\/\/[^/]/i.test(u) ? u : undefined);

/**
 * The web address a saved page's relative links resolve against: its <base href>, else the
 * "saved from" mark a browser wrote into it, else its canonical link or og:url. A saved page
 * given as the list refused every relative link ("relative URL: needs https://host/…") though
 * the page named where it came from. Undefined for a bookmarks file or a page that names none.
 */
function pageAddress(input: string): string | undefined {
  const head = input.slice(0, HEAD_CHARS);
  const b = BASE_TAG.exec(head);
  const fromBase = absoluteHttp(b ? decodeEntities(b[1] ?? b[2] ?? b[3] ?? '').trim() : undefined);
  if (fromBase) return fromBase;
  const saved = absoluteHttp(SAVED_FROM.exec(head)?.[1]);
  if (saved) return saved;
  for (const m of head.matchAll(LINK_OR_META)) {
    const tag = m[0];
    const named = /^<link/i.test(tag)
      ? /(?:^|\s)canonical(?:\s|$)/i.test(attr(REL, tag) ?? '') ? attr(HREF_ATTR, tag) : undefined
      : attr(PROPERTY, tag) === 'og:url' ? attr(CONTENT, tag) : undefined;
    const found = absoluteHttp(named);
    if (found) return found;
  }
  return undefined;
}

function resolve(href: string, base: string): string {
  try {
    return new URL(href, base).href;
  } catch {
    return href;
  }
}
