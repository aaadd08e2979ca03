/**
 * Feeds (RSS 2.0, RSS 1.0, Atom, JSON Feed) read as what they list: the feed's title, then
 * each entry as a heading linked to its page, its date and author, its content and its
 * files. As text the XML ones were their XML,
 * titled by its first line (`<?xml version="1.0"?><rss …`, an export file name of 120
 * characters of markup), and their links were every URL in the markup, namespaces included.
 */
import { DOMParser, parseHTML } from 'linkedom';
import { decodeEntities, escapeHtml } from '../../shared/entities';
import { isJsonFeed, isJsonObject } from '../../shared/json';
import type { FeedFormat } from './sniff';
import { fileNameOfUrl } from '../../shared/urllist/url';
import { markFootnotes } from './footnotes';
import { absoluteLinks, markdownOf, markupDepth, MAX_ARTICLE_DEPTH, MAX_PARSE_DEPTH, textOf, tooDeep } from './html';
import { makeInert, type InertEl } from './inert';

export interface FeedEntry {
  title: string;
  link: string;
  /** ISO 8601 when the feed's date parses, else as the feed wrote it. */
  date: string;
  author: string;
  /** The entry's content (its full text when the feed has both) as HTML. */
  html: string;
  /** What the content's relative links resolve against. */
  base: string;
  /** Files the entry carries (a podcast's episode): their addresses and types. */
  enclosures: { url: string; type: string }[];
}

export interface Feed {
  format: FeedFormat;
  title: string;
  link: string;
  description: string;
  entries: FeedEntry[];
}

type Node = {
  nodeName: string;
  nodeType: number;
  textContent: string | null;
  innerHTML: string;
  parentNode: Node | null;
  childNodes: ArrayLike<Node>;
  getAttribute(name: string): string | null;
};

const localName = (n: Node): string => n.nodeName.slice(n.nodeName.indexOf(':') + 1);

/** The element children of `el` named `name` (a prefixed name matches exactly; `atom`: any prefix). */
function children(el: Node, name: string, atom = false): Node[] {
  const out: Node[] = [];
  for (const c of Array.from(el.childNodes)) {
    if (c.nodeType !== 1) continue;
    if (c.nodeName === name || (atom && localName(c) === name)) out.push(c);
  }
  return out;
}
const child = (el: Node, name: string, atom = false): Node | undefined => children(el, name, atom)[0];
const textIn = (el: Node | undefined): string => (el?.textContent ?? '').replace(/\s+/g, ' ').trim();

/**
 * The HTML an RSS element holds: escaped or in CDATA, as RSS has it, is its text; markup
 * written straight in (invalid, but common) is its markup, not just its words.
 */
function markupIn(el: Node | undefined): string {
  if (!el) return '';
  return Array.from(el.childNodes).some((c) => c.nodeType === 1) ? el.innerHTML : (el.textContent ?? '');
}

/** A text with HTML's named references read (XML knows five): "Jos&eacute;", and "a@b.org <A>" kept whole. */
const wordsOf = (text: string): string => decodeEntities(text).replace(/\s+/g, ' ').trim();

/** An HTML fragment's text: tags out, references decoded, blanks one space. */
const plainOf = (html: string): string => decodeEntities(html.replace(/<[^<>]*>/g, ' ')).replace(/\s+/g, ' ').trim();

/** Plain text as HTML: escaped, its line breaks kept. */
const textAsHtml = (text: string): string => escapeHtml(text).replace(/\n/g, '<br>');

/**
 * An Atom text construct as HTML: type "html" holds escaped HTML, "xhtml" a <div> of markup,
 * and "text" (the default) text.
 */
function atomHtml(el: Node | undefined): string {
  if (!el) return '';
  const type = (el.getAttribute('type') ?? 'text').toLowerCase();
  if (type === 'html' || type === 'text/html') return el.textContent ?? '';
  if (type === 'xhtml' || type === 'application/xhtml+xml') {
    const div = Array.from(el.childNodes).find((c) => c.nodeType === 1);
    return div ? div.innerHTML : (el.textContent ?? '');
  }
  return textAsHtml((el.textContent ?? '').trim());
}
const atomText = (el: Node | undefined): string => plainOf(atomHtml(el));

/** A date as ISO 8601 (UTC), or as written when it does not parse. */
function dateOf(s: string): string {
  const t = Date.parse(s);
  if (Number.isNaN(t)) return s.slice(0, 100);
  const iso = new Date(t).toISOString();
  return iso.endsWith('T00:00:00.000Z') ? iso.slice(0, 10) : `${iso.slice(0, 16).replace('T', ' ')} UTC`;
}

/** An http(s) address resolved against `base`, or '' (for no address too: '' would resolve to the base). */
function webAddress(href: string, base: string): string {
  if (!href.trim()) return '';
  try {
    const u = new URL(href.trim(), base || undefined);
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.href : '';
  } catch {
    return '';
  }
}

/** What relative addresses under `el` resolve against: its xml:base attributes, outermost first, over the feed's URL. */
function baseOf(el: Node, url: string): string {
  const bases: string[] = [];
  for (let n: Node | null = el; n && n.nodeType === 1; n = n.parentNode) {
    const b = n.getAttribute('xml:base');
    if (b) bases.unshift(b);
  }
  return bases.reduce((base, b) => webAddress(b, base) || base, url);
}

/** An Atom element's page: its link rel="alternate" (or without rel), else its id when that is an address. */
function atomLink(el: Node, base: string): string {
  const links = children(el, 'link', true);
  const alt = links.find((l) => (l.getAttribute('rel') ?? 'alternate') === 'alternate') ?? links.find((l) => !l.getAttribute('rel'));
  const id = textIn(child(el, 'id', true));
  return (alt && webAddress(alt.getAttribute('href') ?? '', base)) || (/^https?:/i.test(id) ? id : '');
}

const isWeb = (url: string): boolean => /^https?:/i.test(url);

/**
 * The site a feed names as its own (RSS's channel link, Atom's alternate link), when it is
 * an absolute web address. A feed read from a file resolves its relative links against it,
 * as a page saved to a file does against the address it was saved from: a link of an entry
 * to "/2023/11/knots/" pointed at file:///2023/11/knots/ on this disk.
 */
function siteOf(root: Node, format: FeedFormat): string {
  if (format === 'atom') return atomLink(root, '');
  const channel = child(root, 'channel') ?? root;
  return webAddress(textIn(child(channel, 'link')), '');
}

/** The feed in a document feedFormat named. */
export function parseFeed(xml: string, url: string, format: FeedFormat): Feed {
  if (markupDepth(xml, MAX_PARSE_DEPTH) > MAX_PARSE_DEPTH) throw tooDeep(MAX_PARSE_DEPTH, 'XML');
  const doc = new DOMParser().parseFromString(xml, 'text/xml') as unknown as { documentElement: Node | null };
  const root = doc.documentElement;
  if (!root) return { format, title: '', link: '', description: '', entries: [] };
  if (!isWeb(url)) url = siteOf(root, format) || url;
  const feedBase = baseOf(root, url);
  if (format === 'atom') {
    const entries = children(root, 'entry', true).map((e): FeedEntry => {
      const base = baseOf(e, url);
      const content = child(e, 'content', true);
      // Content given only by reference (src=) is not here to read: the summary stands in.
      const body = content && !content.getAttribute('src') ? content : child(e, 'summary', true);
      const author = child(e, 'author', true) ?? child(root, 'author', true);
      return {
        title: atomText(child(e, 'title', true)),
        link: atomLink(e, base),
        date: dateOf(textIn(child(e, 'published', true) ?? child(e, 'updated', true) ?? child(e, 'issued', true) ?? child(e, 'modified', true))),
        author: author ? wordsOf(textIn(child(author, 'name', true)) || textIn(author)) : '',
        html: atomHtml(body),
        base: body ? baseOf(body, url) : base,
        enclosures: children(e, 'link', true)
          .filter((l) => l.getAttribute('rel') === 'enclosure')
          .map((l) => ({ url: webAddress(l.getAttribute('href') ?? '', base), type: l.getAttribute('type') ?? '' }))
          .filter((x) => x.url),
      };
    });
    return { format, title: atomText(child(root, 'title', true)), link: atomLink(root, feedBase), description: atomText(child(root, 'subtitle', true) ?? child(root, 'tagline', true)), entries };
  }
  // RSS 0.9x and 2.0 keep their items in the channel; RSS 1.0 (RDF) beside it.
  const channel = child(root, 'channel') ?? root;
  const items = format === 'rdf' ? children(root, 'item') : children(channel, 'item');
  const entries = items.map((item): FeedEntry => {
    const base = baseOf(item, url);
    const guid = child(item, 'guid');
    const permalink = guid && guid.getAttribute('isPermaLink') !== 'false' ? webAddress(textIn(guid), base) : '';
    return {
      title: plainOf(textIn(child(item, 'title'))),
      link: webAddress(textIn(child(item, 'link')), base) || permalink || webAddress(item.getAttribute('rdf:about') ?? '', base),
      date: dateOf(textIn(child(item, 'pubDate') ?? child(item, 'dc:date') ?? child(item, 'date'))),
      author: wordsOf(textIn(child(item, 'dc:creator') ?? child(item, 'author'))),
      html: markupIn(child(item, 'content:encoded') ?? child(item, 'description')),
      base,
      enclosures: children(item, 'enclosure')
        .map((x) => ({ url: webAddress(x.getAttribute('url') ?? '', base), type: x.getAttribute('type') ?? '' }))
        .filter((x) => x.url),
    };
  });
  return { format, title: plainOf(textIn(child(channel, 'title'))), link: webAddress(textIn(child(channel, 'link')), feedBase), description: plainOf(textIn(child(channel, 'description'))), entries };
}

type JsonObject = Record<string, unknown>;
const stringIn = (o: JsonObject, ...keys: string[]): string => {
  for (const k of keys) if (typeof o[k] === 'string' && o[k]) return (o[k] as string).trim();
  return '';
};
/** JSON Feed's authors (1.1) or author (1.0): their names, joined. */
const authorsOf = (o: JsonObject): string =>
  (Array.isArray(o.authors) ? o.authors : isJsonObject(o.author) ? [o.author] : [])
    .filter(isJsonObject)
    .map((a) => stringIn(a, 'name'))
    .filter(Boolean)
    .join(', ');

/**
 * A JSON Feed (jsonfeed.org, 1.0 and 1.1: a "version" naming it, and "items"), as the same
 * Feed an RSS or Atom one gives; undefined for any other JSON.
 */
export function jsonFeed(value: unknown, url: string): Feed | undefined {
  if (!isJsonFeed(value)) return undefined;
  // Read from a file: its links resolve against the address it names for itself (siteOf).
  if (!isWeb(url)) url = webAddress(stringIn(value, 'feed_url', 'home_page_url'), '') || url;
  const feedAuthor = authorsOf(value);
  const entries = value.items.filter(isJsonObject).map((item): FeedEntry => {
    const id = stringIn(item, 'id');
    const text = stringIn(item, 'content_text', 'summary');
    return {
      title: stringIn(item, 'title'),
      link: webAddress(stringIn(item, 'url', 'external_url'), url) || (/^https?:/i.test(id) ? webAddress(id, url) : ''),
      date: dateOf(stringIn(item, 'date_published', 'date_modified')),
      author: authorsOf(item) || feedAuthor,
      html: stringIn(item, 'content_html') || textAsHtml(text),
      base: url,
      enclosures: (Array.isArray(item.attachments) ? item.attachments : [])
        .filter(isJsonObject)
        .map((a) => ({ url: webAddress(stringIn(a, 'url'), url), type: stringIn(a, 'mime_type') }))
        .filter((a) => a.url),
    };
  });
  return { format: 'json', title: stringIn(value, 'title'), link: webAddress(stringIn(value, 'home_page_url'), url), description: stringIn(value, 'description'), entries };
}

/** The first words of a text, for an entry without a title. */
function opening(text: string): string {
  const words = text.split(/\s+/).filter(Boolean);
  return words.length > 12 ? `${words.slice(0, 12).join(' ')} …` : words.join(' ');
}

/** The pages of a feed's entries, once each, in its order. */
/** A feed to read: its XML, or one already read (a JSON Feed). */
export type FeedSource = { xml: string; format: FeedFormat } | { feed: Feed };

/** A feed read in a mode: the content, and what meta says of it. */
export interface FeedRead {
  content: string;
  meta: Record<string, unknown>;
}

/**
 * A feed (RSS, Atom, JSON Feed) in every mode but raw: the document of its entries
 * (markdown, text, html), the links of its entries, or its entries' titles, links and dates
 * (meta).
 */
export function readFeed(source: FeedSource, mode: string, url: string): FeedRead {
  const feed = 'xml' in source ? parseFeed(source.xml, url, source.format) : source.feed;
  const meta: Record<string, unknown> = { title: feed.title, feed: feed.format, entries: feed.entries.length };
  // A feed with no entries says nothing yet: ok, but not what anyone asked for.
  if (feed.entries.length === 0) meta.warnings = ['no_entries'];
  if (mode === 'meta') {
    const entries = feed.entries.map(({ title, link, date, author, enclosures }) => ({ title, link, date, author, ...(enclosures.length ? { enclosures } : {}) }));
    return { content: JSON.stringify({ feed: feed.format, title: feed.title, link: feed.link, description: feed.description, entries }, null, 2), meta };
  }
  if (mode === 'links') {
    const links = feedLinks(feed);
    meta.links = links.length;
    return { content: links.join('\n'), meta };
  }
  const doc = feedDocument(feed, url, mode !== 'text' && mode !== 'html');
  return { content: mode === 'text' ? textOf(doc.body) : mode === 'html' ? doc.html : markdownOf(doc.html), meta };
}

export const feedLinks = (feed: Feed): string[] => [...new Set(feed.entries.map((e) => e.link).filter(Boolean))];

/**
 * The feed as one document: its title and description, then per entry a heading linked to its
 * page (titled by its opening words, or its date, when it has no title), a line with its date
 * and author, its content, and a line per file it encloses; links made absolute and nothing
 * left that runs. An entry's content nested deeper than an article may be is given as its text.
 * With `notes` (for Markdown), each entry's footnotes are found in it alone, against its own
 * address, and labelled by its place when there are several ("[^2-1]", which the preview reads
 * back in a feed's result): found in the whole document, a second post's "#fn:1" cited the
 * first post's note, and its own note stayed a list with its "↩". `body` is the document's
 * body, for textOf.
 */
export function feedDocument(feed: Feed, url: string, notes = false): { html: string; body: Parameters<typeof textOf>[0] } {
  const { document } = parseHTML('<!doctype html><html><head></head><body></body></html>');
  const body = document.body;
  const add = (parent: { appendChild(n: unknown): unknown }, name: string, text?: string) => {
    const el = document.createElement(name);
    if (text !== undefined) el.textContent = text;
    parent.appendChild(el);
    return el;
  };
  if (feed.title) add(body, 'h1', feed.title);
  if (feed.description) add(body, 'p', feed.description);
  for (const [index, e] of feed.entries.entries()) {
    const section = add(body, 'section');
    const content = document.createElement('div');
    if (markupDepth(e.html, MAX_ARTICLE_DEPTH) > MAX_ARTICLE_DEPTH) content.textContent = plainOf(e.html);
    else content.innerHTML = e.html;
    // Nothing in a feed's content runs or submits: feeds carry whatever their sites' editors wrote.
    makeInert(content as unknown as InertEl);
    // Most feeds resolve every entry against one address: the whole body goes at once below.
    if (e.base && e.base !== url) absoluteLinks(content, e.base, url);
    if (notes) markFootnotes(content as unknown as Element, e.link || e.base, feed.entries.length > 1 ? `${index + 1}-` : '');
    const title = e.title || opening(textOf(content)) || e.date;
    const heading = add(section, 'h2');
    if (e.link) add(heading, 'a', title).setAttribute('href', e.link);
    else heading.textContent = title;
    const byline = [e.date, e.author].filter(Boolean).join(' · ');
    if (byline) add(section, 'p', byline);
    section.appendChild(content);
    for (const x of e.enclosures) {
      // The file by its name, and what it is: "episode-12.mp3 (audio/mpeg)".
      const p = add(section, 'p');
      add(p, 'a', fileNameOfUrl(x.url) || x.url).setAttribute('href', x.url);
      if (x.type) p.appendChild(document.createTextNode(` (${x.type})`));
    }
  }
  absoluteLinks(body, url, url);
  return { html: body.innerHTML, body };
}
