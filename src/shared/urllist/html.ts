import type { Collector } from './collect';
import { lineAt } from './lines';
import { decodeEntities } from '../entities';
import { baseHref, savedFrom } from '../page-address';

const A_START = /<a[\s>]/gi;
const HREF = /(?:^|\s)href\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+))/i;
/**
 * HTML, above all the Netscape bookmark file that Firefox, Chrome, Edge and Safari export:
 * the href of every `<a>`. A tokenizer over the text rather than a DOM, because the CLI runs
 * this in Node and the renderer must not need one either. Links into the page (`#…`) and
 * anchors without href are skipped; `place:`, `javascript:` and other schemes are reported.
 */
export function readHtml(input: string, c: Collector, fetchedFrom?: string): void {
  // A saved web page's relative links resolve against the address it names: its <base href>,
  // as a browser resolves them, else where it was saved from (savedFrom); a page fetched as the
  // list, against the address it came from. A list of them refused every relative link
  // ("relative URL: needs https://host/…"); a bookmarks file names none, and needs none.
  const base = baseHref(input) ?? (fetchedFrom || savedFrom(input));
  const bookmarksFile = NETSCAPE.test(input.slice(0, 1024));
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
    // A bookmarks file's bookmark is the <A> of a <DT>; an <a> after it sits in the <DD> that
    // describes it (Shaarli exports the thumbnail's link to the user's own server there), and
    // was counted and fetched as one more bookmark.
    if (bookmarksFile && !afterDt(input, m.index)) continue;
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
    else c.reject(line, href, bookmarksFile ? NO_BASE_BOOKMARK : NO_BASE);
  }
}

const NETSCAPE = /<!doctype\s+netscape-bookmark-file/i;

/** Whether the tag at `at` follows a <DT> (spaces and line breaks between). */
function afterDt(input: string, at: number): boolean {
  let k = at - 1;
  while (k >= 0 && /\s/.test(input[k] as string)) k--;
  return k >= 3 && input.slice(k - 3, k + 1).toLowerCase() === '<dt>';
}

const HAS_SCHEME = /^[a-z][a-z0-9+.-]*:/i;
const NO_BASE = 'relative URL: the page names no web address of its own to resolve it against (a <base href>, a canonical link, or the "saved from" mark a browser writes)';
/**
 * A bookmarks file's bookmark with no address (`?lY47tw`: a note kept by the service that
 * exported the file, a link to its own page there). The page's reason spoke of a <base href>
 * and a browser's "saved from" mark, which no bookmarks export has.
 */
const NO_BASE_BOOKMARK = 'relative URL: a bookmark without a web address (a note the service that exported the file keeps on its own pages); open it there and put its full address in the list';

function resolve(href: string, base: string): string {
  try {
    return new URL(href, base).href;
  } catch {
    return href;
  }
}
