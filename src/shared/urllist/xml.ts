import type { Collector } from './collect';
import { lineAt } from './lines';
import { readHtml } from './html';
import { decodeEntities } from '../entities';
import { xmlRootTag } from '../xml';

/** The local name of the root element of an XML document ("RDF" for rdf:RDF), or undefined. */
export const xmlRoot = (input: string): string | undefined => xmlRootTag(input)?.name;

/** A sitemap index: its <loc>s are sitemaps, not pages (src/main/sitemap-index.ts reads them). */
export const isSitemapIndex = (input: string): boolean => xmlRoot(input) === 'sitemapindex';

/** The most sitemaps Sift reads for one list, and how deep an index inside an index is followed. */
export const MAX_CHILD_SITEMAPS = 1000;
export const MAX_SITEMAP_DEPTH = 3;

/** An element's text: its CDATA unwrapped, its references decoded, trimmed. */
const valueOf = (raw: string): string => {
  const cdata = /^\s*<!\[CDATA\[([\s\S]*?)\]\]>\s*$/.exec(raw);
  return (cdata ? cdata[1]! : decodeEntities(raw)).trim();
};
const attr = (tag: string, name: string): string | undefined => {
  const m = new RegExp(`(?:^|\\s)${name}\\s*=\\s*(?:"([^"]*)"|'([^']*)')`, 'i').exec(tag);
  return m ? decodeEntities(m[1] ?? m[2] ?? '').trim() : undefined;
};

/** Where each address found was, by offset, so the reader reports its line. */
type Found = (offset: number, url: string) => void;

/**
 * A feed's link as a feed reader follows it: resolved against the base in force (RFC 4287
 * §2 and XML Base: the entry's xml:base, else the feed's, else the address the feed was
 * fetched from). Unresolved, an Atom feed written with xml:base and relative links (the RFC's
 * own examples are) was one "not a URL" per entry.
 */
function resolveAgainst(href: string, base: string | undefined): string {
  if (!base || /^[a-z][a-z0-9+.-]*:/i.test(href)) return href;
  try {
    return new URL(href, base).href;
  } catch {
    return href;
  }
}

/** The base an element's xml:base sets, resolved against the one around it. */
const xmlBase = (attrs: string, outer: string | undefined): string | undefined => {
  const own = attr(attrs, 'xml:base');
  return own ? resolveAgainst(own, outer) : outer;
};

/** The offset of the '>' that ends the tag opened at `at`, outside quoted values; -1 when none does. */
function tagEnd(input: string, at: number): number {
  let quote = 0;
  for (let i = at + 1; i < input.length; i++) {
    const ch = input.charCodeAt(i);
    if (quote) {
      if (ch === quote) quote = 0;
    } else if (ch === 34 || ch === 39) quote = ch;
    else if (ch === 62 /* > */) return i;
  }
  return -1;
}

/**
 * Calls fn with each start tag `<name …>` (its attributes, its offset and where it ends),
 * in order. By indexOf, never a backtracking regex: a file of ten thousand unclosed tags
 * costs one pass, not ten thousand. Stops at a tag left open.
 */
function eachTag(input: string, name: string, fn: (at: number, attrs: string, end: number) => number | void): void {
  const open = `<${name}`;
  for (let pos = 0; ; ) {
    const at = input.indexOf(open, pos);
    if (at === -1) return;
    const next = input.charCodeAt(at + open.length);
    // <item> or <item …>, not <items>.
    if (next !== 62 && next !== 47 && next !== 32 && next !== 9 && next !== 10 && next !== 13) {
      pos = at + open.length;
      continue;
    }
    const end = tagEnd(input, at);
    if (end === -1) return;
    pos = fn(at, input.slice(at + open.length, end).replace(/\/$/, ''), end) ?? end + 1;
  }
}

/** Calls fn with each element `<name …>…</name>`: its offset, attributes and content. Stops at one left open. */
function eachElement(input: string, name: string, fn: (at: number, attrs: string, body: string) => void): void {
  eachTag(input, name, (at, attrs, end) => {
    if (input.charCodeAt(end - 1) === 47 /* / */) {
      fn(at, attrs, '');
      return;
    }
    const close = input.indexOf(`</${name}`, end);
    if (close === -1) return input.length;
    fn(at, attrs, input.slice(end + 1, close));
    return close + name.length + 2;
  });
}

/** The content of the first `<name>` element in a text, or undefined. */
function firstElement(input: string, name: string): { attrs: string; body: string } | undefined {
  let first: { attrs: string; body: string } | undefined;
  eachElement(input, name, (_at, attrs, body) => {
    first ??= { attrs, body };
  });
  return first;
}

/** A sitemap's pages (or a sitemap index's sitemaps): every <loc>, not an image's or a video's. */
function sitemap(input: string, found: Found, _base?: string): void {
  eachElement(input, 'loc', (at, _attrs, body) => found(at, valueOf(body)));
}

/** A feed reader's subscriptions: each outline's feed (xmlUrl), else its link (url), else its site (htmlUrl). */
function opml(input: string, found: Found, _base?: string): void {
  eachTag(input, 'outline', (at, attrs) => {
    const url = attr(attrs, 'xmlUrl') || attr(attrs, 'url') || attr(attrs, 'htmlUrl');
    if (url) found(at, url);
  });
}

/** An RSS feed's entries: each item's link, else its permalink guid, else its rdf:about. */
function rss(input: string, found: Found, base?: string): void {
  eachElement(input, 'item', (at, attrs, body) => {
    const link = firstElement(body, 'link');
    const guid = firstElement(body, 'guid');
    const url = (link && valueOf(link.body)) || (guid && attr(guid.attrs, 'isPermaLink') !== 'false' && valueOf(guid.body)) || attr(attrs, 'rdf:about');
    if (url) found(at, resolveAgainst(url, xmlBase(attrs, base)));
  });
}

/** An Atom feed's entries: each entry's alternate link (or one without rel), else its id when that is an address. */
function atom(input: string, found: Found, base?: string): void {
  eachElement(input, 'entry', (at, entryAttrs, body) => {
    const entryBase = xmlBase(entryAttrs, base);
    let url: string | undefined;
    eachTag(body, 'link', (_at, attrs) => {
      const href = attr(attrs, 'href');
      if (!url && href && (attr(attrs, 'rel') ?? 'alternate') === 'alternate') url = resolveAgainst(href, xmlBase(attrs, entryBase));
    });
    const id = valueOf(firstElement(body, 'id')?.body ?? '');
    url ||= /^https?:/i.test(id) ? id : undefined;
    if (url) found(at, url);
  });
}

const READERS: Record<string, (input: string, found: Found, base?: string) => void> = { urlset: sitemap, sitemapindex: sitemap, opml, rss, RDF: rss, feed: atom };

/**
 * XML lists: a sitemap (each <loc>: a site's own list of its pages), an OPML outline (a feed
 * reader's subscriptions) and an RSS or Atom feed (each entry's page), read by their root
 * element. A tokenizer over the text, as for HTML. An XHTML page is read as HTML; other XML
 * is one problem that says what Sift reads.
 */
export function readXml(input: string, c: Collector, fetchedFrom?: string): void {
  const root = xmlRoot(input);
  if (root?.toLowerCase() === 'html') return readHtml(input, c);
  const reader = root ? READERS[root] : undefined;
  if (!reader) {
    c.reject(1, input.trimStart().split('\n', 1)[0] ?? '', `not a list Sift reads from XML${root ? ` (its root element is <${root}>)` : ''}: it reads sitemaps, OPML outlines and RSS or Atom feeds`);
    return;
  }
  let line = 1;
  let from = 0;
  // A feed's relative links resolve against its xml:base, else where it was fetched from (resolveAgainst).
  const base = xmlBase(xmlRootTag(input)?.attrs ?? '', fetchedFrom);
  reader(input, (offset, url) => {
    if (c.full) {
      c.truncated = true;
      return;
    }
    line = lineAt(input, from, line, offset);
    from = offset;
    c.add(line, url, url);
  }, base);
  // A download that stopped part way: what came before is read, and the user is told the rest is missing.
  if (!c.full && !new RegExp(`</(?:[\\w.-]+:)?${root}\\s*>`).test(input)) {
    const last = input.trimEnd();
    const lastLine = lineAt(last, 0, 1, last.length);
    c.reject(lastLine, last.slice(last.lastIndexOf('\n') + 1), `the file ends before its closing </${root}>: it looks cut short (a download that stopped?), and any URLs after this point are missing`);
  }
}
