import type { Mode, Options } from '../../shared/types';
import { PAGES_EXAMPLE, surfaceOf } from '../../shared/hints';
import { decodeEntities, escapeHtml } from '../../shared/entities';
import { savedFrom } from '../../shared/page-address';
import { asShown, STRAY_CONTROLS } from '../../shared/text-bytes';
import { decodeText, pdfInfoText } from './charset';
import { JqParseError, JqTooLarge, type ComputePool } from './compute';
import { badOption, FetchError } from './errors';
import type { Article } from './html';
import { loadHtml, type ArticlePart, type HtmlPool } from './html-pool';
import { pageLinesOf, pagesOf, parsePages, type PageLines } from './pages';
import { sourceLinesOf } from '../../shared/source-lines';
import type { OnPages, PageRanges, PdfPage, PdfPool, PdfText } from './pdf-pool';
import { dehyphenate, dehyphenateBreaks, dropFurniture, vocabulary } from './pdf-text';
import { markedIn, pdfMarkdown } from './pdf-markdown';
import { classify, feedFormat, HTML_INSIDE, mediaType, sniffBody, type FeedFormat, type Kind } from './sniff';
import { isTeaser, teaserWall } from './classify';
import { jsonProblem, linksIn, opensWrapped, wrappedJson, type JsonRead } from './json-doc';
import { fileNameOfUrl } from '../../shared/urllist/url';
import { markdownAsRead } from '../search/text';
import { ASKS_NOTHING, plusForSpaces } from './question';
import { asTyped, noMatchWhy } from '../../shared/grep';

/** A body read by `sift extract`: a file (file://) or stdin (no URL), with no web address behind it. */
const isLocalSource = (url: string): boolean => !/^https?:/i.test(url);

/** The mode a target's content is extracted in. */
const extractionMode = (options: Options): Mode => options.mode ?? 'markdown';

/**
 * Starts loading the HTML stack (html-pool.ts loadHtml), without waiting, for a target whose
 * mode reads an HTML page through it (every mode but raw), so the first load overlaps the
 * server's answer. A failure is reported by the loadHtml() that needs it.
 */
export function prefetchHtml(options: Options): void {
  if (extractionMode(options) !== 'raw') loadHtml().catch(() => undefined);
}

/** The part of an article a mode returns: markdown, text or html (links, meta and raw read no article). */
export function articlePart(mode: string): ArticlePart[] {
  return mode === 'markdown' || mode === 'text' || mode === 'html' ? [mode] : [];
}


export interface ExtractContext {
  /** The URL the body came from: base for relative links, and meta.url. */
  url: string;
  /** The PDF pool's caller name (already with "/batch" for batch work). */
  poolCaller: string;
  maxPdfPages: number;
  signal: AbortSignal;
  pdf: PdfPool;
  compute: ComputePool;
  /** Reads HTML pages, a large one in a worker thread. */
  html: HtmlPool;
  /** The body already decoded by the fetcher (used only when it is this very buffer). */
  decoded?: Decoded;
  /** Hears how many of a PDF's pages are read as its reading goes (PdfPool.extract). */
  onPages?: OnPages;
}

/**
 * An HTML body decoded once per fetch: the page judge, the render decision and the
 * extraction all read it. `article` is set when the render decision ran Readability on it.
 */
export interface Decoded {
  body: Uint8Array;
  text: string;
  charset: string;
  /** The charset is a detector's reading of an unlabelled legacy page's text (decodeText). */
  detected?: true;
  /** The label the page gave that its bytes belie: UTF-8 over legacy bytes, a legacy charset over UTF-8 (decodeText). */
  overruled?: string;
  article?: Article;
}

/** An HTML body decoded for every reader of this fetch. */
export const decodeHtml = (body: Uint8Array, contentType: string): Decoded => withoutStrayControls({ body, ...decodeText(body, contentType, true) });

/** A page's text without stray controls: a browser shows none, and they came through into the markdown and the text (a BEL, a \\x02 in a heading). */
const withoutStrayControls = <T extends { text: string }>(d: T): T => ({ ...d, text: d.text.replace(STRAY_CONTROLS, '') });

export interface Extracted {
  content: string;
  meta: Record<string, unknown>;
}

/** Turns a body into a Result's content and meta: dispatch by kind, then pages, grep, question (SPEC §5.5–5.6). */
export async function extractBody(buf: Uint8Array, contentType: string, options: Options, ctx: ExtractContext): Promise<Extracted> {
  const mode = extractionMode(options);
  const ranges = parsePages(options.pages);
  const jq = options.jq !== undefined && options.jq !== '';
  let kind: Kind = classify(contentType, buf);
  // JSON sent as text (raw file hosts serve a .json as text/plain, APIs a .jsonl) stays text
  // to read, as a browser shows it, but jq is asked of it as of any JSON: it failed with
  // "jq needs a JSON document, and this one is text".
  // Told by its first bytes only: the JSON inside a wrapper is parsed once, where it is read (jsonContent).
  const opensJson = jq && kind === 'text' && opensAsJson(buf);
  const wrappedOnly = jq && kind === 'text' && !opensJson && opensWrapped(Buffer.from(buf.subarray(0, 256)).toString('latin1'));
  if (opensJson || wrappedOnly) kind = 'json';
  if (jq && kind === 'html') {
    const json = jsonOfViewer(buf);
    if (json) return extractBody(json, 'application/json', options, ctx);
  }
  // JSON where a PDF was promised is an API's or a storage link's answer in place of the file
  // (an expired signed link, a missing key): it came back ok as the JSON, a success that
  // holds no document. Failed, saying what it says; asked with jq, it is read as JSON.
  if (kind === 'json' && !jq && PDF_TYPES.has(mediaType(contentType))) throw jsonForPdf(buf);
  if (jq && kind !== 'json') throw jqNeedsJson(kind, contentType, ctx.url);
  const meta: Record<string, unknown> = {
    content_type: mediaType(contentType) || sniffBody(buf) || (kind === 'text' ? 'text/plain' : ''),
    kind,
    bytes: buf.byteLength,
  };
  let content: string | undefined;
  if (kind === 'pdf') {
    try {
      content = await pdfContent(buf, mode, ranges, ctx, meta);
    } catch (err) {
      // A page sent as text/html that opens with %PDF- but is no PDF (a polyglot, a page that
      // prints a PDF's header first): a browser shows the page, so Sift reads it, rather
      // than failing as a PDF cut short.
      if (!(err instanceof FetchError && err.msg.startsWith('malformed PDF')) || mediaType(contentType) !== 'text/html' || !HTML_INSIDE.test(Buffer.from(buf.subarray(0, 4096)).toString('latin1'))) throw err;
      kind = 'html';
      Object.assign(meta, { content_type: 'text/html', kind });
    }
  }
  if (content === undefined) {
    const pre = ctx.decoded?.body === buf && kind === 'html' ? ctx.decoded : undefined;
    const { text, charset, detected, overruled } = pre ?? (kind === 'html' ? decodeHtml(buf, contentType) : decodeText(buf, contentType, kind === 'text'));
    meta.charset = charset;
    if (detected) meta.charset_detected = true;
    // The label its bytes belie: said, so a reader comparing with the page's source is not puzzled.
    if (overruled) meta.charset_declared = overruled;
    if (kind === 'html') content = await htmlContent(text, mode, ctx, meta, pre?.article);
    else if (kind === 'json') {
      content = await jsonContent(text, mode, options.jq, ctx, meta, wrappedOnly ? contentType : undefined).catch((err: unknown) => {
        throw err instanceof JqTooLarge && isLocalSource(ctx.url) ? (ctx.url === '' ? err.forStdin() : err.forFile()) : err;
      });
    }
    else {
      const feed = feedFormat(text);
      if (feed) content = await xmlFeedContent(text, feed, mode, ctx, meta);
      else {
        // A log or a terminal's capture read as its words; raw keeps its bytes as sent, and
        // markup (XML, SVG) is no terminal's: an ESC before '<' took the '<' of "</title>" with it.
        const shown = mode === 'raw' || /xml/i.test(String(meta.content_type)) ? text : asShown(text);
        content = mode === 'links' ? linksIn(shown) : mode === 'meta' ? JSON.stringify({ lines: shown.split('\n').length, chars: shown.length }, null, 2) : shown;
        meta.title = textTitle(shown, meta.content_type as string, ctx.url);
      }
    }
  }
  // A success with nothing in it (a 204, an empty file) is ok, but not what anyone asked for.
  if (kind !== 'pdf' && isBlank(buf)) warn(meta, 'empty');
  // Pages choose parts of a PDF. Any other document came back whole: said, not silent (a
  // list run with --pages holds pages and PDFs alike, so this is no reason to fail).
  if (ranges && kind !== 'pdf') warn(meta, 'pages_ignored');
  // Links asked for, and the document has none: ok, as it was read, but said where a list shows
  // its rows, as a grep that matched nothing is ("ok 0 B" read as a page with nothing on it).
  // A document with nothing in it already says so (empty, no text layer).
  if (mode === 'links' && content.trim() === '' && !hasWarning(meta, 'empty') && !hasWarning(meta, 'no_text')) warn(meta, 'no_links');
  // A jq program that let nothing through (a select no value passed, .[]? of a missing key): ok,
  // as jq exits 0 there, but said; the app and the exports read "the document had no text".
  if (jq && kind === 'json' && content.trim() === '' && !hasWarning(meta, 'empty')) warn(meta, 'no_output');
  // A question of blanks asks nothing, as an empty one does: the whole text, not nothing.
  if (options.grep || options.question?.trim()) content = await keepSome(content, options, ctx, meta, mode === 'markdown' && (kind === 'html' || meta.feed !== undefined));
  if (typeof meta.title === 'string') meta.title = withoutControls(meta.title);
  return { content, meta };
}

// eslint-disable-next-line no-control-regex -- removing control characters is the point
const CONTROLS = /[\u0000-\u001f\u007f-\u009f]+/g;

/**
 * A title as stored and shown: without the control characters a page's <title> (or a PDF's
 * info, a feed's) may carry. An ESC in one recoloured the terminal of `sift status` and
 * `sift search`, a NUL cut the job view's title short; a tab or line break is a space.
 */
const withoutControls = (title: string): string => title.replace(CONTROLS, (m) => (/[\t\n\r]/.test(m) ? ' ' : '')).replace(/ {2,}/g, ' ').trim();

const PDF_TYPES = new Set(['application/pdf', 'application/x-pdf']);

/** The failure of a body labelled PDF that is JSON: its words, on one line and cut, say why the file is not there. */
function jsonForPdf(buf: Uint8Array): FetchError {
  const text = Buffer.from(buf.subarray(0, 4096)).toString('utf8').replace(/^\uFEFF/, '').replace(/\s+/g, ' ').trim();
  const said = text.length > 160 ? `${text.slice(0, 159)}…` : text;
  return new FetchError(
    422,
    `not a PDF: it is labelled a PDF and holds JSON: ${withoutControls(said)}`,
    'Servers answer so in place of a file they refuse or cannot find (an expired or signed link, a missing key): the JSON says why. Ask for it with jq to read it as JSON.',
    'bad_document',
  );
}

/** A text that opens with a tag (after a byte-order mark and blanks): no JSON does. */
const MARKUP_START = /^\uFEFF?\s*<[!?a-zA-Z]/;

/** A body whose first character (after a byte-order mark and blanks) opens a JSON object or array. */
const opensAsJson = (buf: Uint8Array): boolean => /^(?:\uFEFF|\xEF\xBB\xBF)?\s*[[{]/.test(Buffer.from(buf.subarray(0, 256)).toString('latin1'));

/**
 * jq asked of a document that is no JSON, with the type it came as: "this one is text" of a
 * CSV, a JavaScript file or a page sent as text/plain left the user to find out what came.
 */
function jqNeedsJson(kind: Kind, contentType: string, url: string): FetchError {
  return badOption(
    `jq needs a JSON document, and this one is ${kind === 'pdf' ? 'a PDF' : kind === 'html' ? 'HTML' : 'text'} (${mediaType(contentType) || 'no content type'})`,
    // `sift extract` of a file (file://) or of stdin (no URL) has no URL, nor an API behind it.
    isLocalSource(url) ? 'Drop the jq option for this file, or give it a JSON file (a .json or .jsonl).' : 'Drop the jq option for this URL, or point it at the JSON API behind the page.',
  );
}

/**
 * The page a browser makes of a JSON document it shows, and saves as the document's own
 * ("Save page as…" in Chrome): the JSON's text, escaped, in a lone <pre>, with an empty
 * container for Chrome's pretty-print. Up to 1 KiB of markup around it, so the test stays
 * one pass over a large document.
 */
const JSON_VIEWER = /^\s*(?:<!doctype html>\s*)?<html\b[^>]{0,200}>\s*<head>(?:\s*<meta\b[^>]{0,200}>)*\s*<\/head>\s*<body\b[^>]{0,200}>\s*<pre\b[^>]{0,200}>([^<]*)<\/pre>(?:\s*<div class="json-formatter-container"><\/div>)?\s*<\/body>\s*<\/html>\s*$/i;

/** The JSON a browser's page of it holds (JSON_VIEWER), or undefined for any other page. */
function jsonOfViewer(buf: Uint8Array): Buffer | undefined {
  const m = JSON_VIEWER.exec(Buffer.from(buf.buffer, buf.byteOffset, buf.byteLength).toString('utf8'));
  const json = m ? decodeEntities(m[1] ?? '') : '';
  return /^\s*[[{]/.test(json) ? Buffer.from(json) : undefined;
}

/** Adds a warning (WARNING_LABELS) to those the extraction gave. */
function warn(meta: Record<string, unknown>, w: string): void {
  if (!hasWarning(meta, w)) meta.warnings = [...(Array.isArray(meta.warnings) ? (meta.warnings as string[]) : []), w];
}

const hasWarning = (meta: Record<string, unknown>, w: string): boolean => Array.isArray(meta.warnings) && (meta.warnings as unknown[]).includes(w);

/** No bytes, or only spaces, tabs and line breaks. */
function isBlank(buf: Uint8Array): boolean {
  for (const b of buf) if (b !== 0x20 && b !== 0x09 && b !== 0x0a && b !== 0x0d) return false;
  return true;
}

/**
 * grep, then question: each keeps some lines of the content. A PDF's page_lines described the
 * whole text; it is worked out again for the lines kept, so a search hit in them still cites
 * its page, and match_pages and passage_pages say which pages the matches and passages are on.
 * source_lines says which line of the whole text each kept line was, so a hit is cited by
 * the line a reader finds in the page, not by its line in grep's output.
 */
async function keepSome(content: string, options: Options, ctx: ExtractContext, meta: Record<string, unknown>, markdown: boolean): Promise<string> {
  const pageLines = meta.page_lines as PageLines | undefined;
  delete meta.page_lines;
  // The line of the whole text (from 1) each line of content came from, 0 for a line of its
  // own; undefined while content is the whole text.
  let origin: number[] | undefined;
  const source = (line: number): number => (origin ? (origin[line - 1] ?? 0) : line);
  if (options.grep) {
    // Matched as it reads too: "Boeing's 787" matched nothing in a page's Markdown
    // "[Boeing](https://…)’s 787", nor "net revenue grew" in "**net revenue** grew".
    const read = asTyped(markdown ? markdownAsRead(content) : content);
    const g = await ctx.compute.grep(content, options.grep, options.context === true, ctx.signal, true, read === content ? undefined : read);
    content = g.output;
    meta.matches = g.matches;
    if (g.columns) meta.match_columns = g.columns;
    if (g.hits && g.from) {
      // A blank line (the gap between two pages, in a match's context) starts no page.
      const lines = content.split('\n');
      origin = g.from.map((i, k) => (i >= 0 && lines[k]?.trim() ? i + 1 : 0));
      const pages = pageLines ? pagesOf(pageLines, g.hits.map((i) => i + 1)) : [];
      if (pages.length > 0) meta.match_pages = pages;
    }
  }
  if (options.question?.trim()) {
    const a = await ctx.html.answer(content, options.question, options.context === true, ctx.signal, markdown);
    const next = a.origin.map((line) => (line > 0 ? source(line) : 0));
    const pages = pageLines ? pagesOf(pageLines, a.lines.map(source)) : [];
    if (pages.length > 0) meta.passage_pages = pages;
    origin = next;
    content = a.content;
    meta.passages = a.passages;
    // Said as no_answer's why is: it would say the page holds no answer, and a better question finds one.
    if (a.asksNothing && meta.hint === undefined) meta.hint = `${ASKS_NOTHING.why}. ${ASKS_NOTHING.hint}`;
    // They counted grep's lines, which passages have replaced.
    delete meta.match_columns;
  }
  // Read, and nothing kept: ok, as the page was fetched, but said where a list shows its rows
  // (an "ok 0 B" row read as a page with nothing on it). A document that had nothing to search
  // already says so (empty, no text layer); a grep that kept nothing left the question nothing.
  if (!hasWarning(meta, 'empty') && !hasWarning(meta, 'no_text')) {
    if (meta.matches === 0) {
      warn(meta, 'no_match');
      // What to try when the advice on capitals is not it (the result pane, exports and the CLI say meta.hint).
      const why = options.grep ? noMatchWhy(options.grep) : undefined;
      if (why && meta.hint === undefined) meta.hint = why;
    }
    else if (meta.passages === 0) {
      warn(meta, 'no_answer');
      const spaced = options.question ? plusForSpaces(options.question) : undefined;
      if (spaced && meta.hint === undefined) meta.hint = `No passage holds "${options.question?.trim()}" as one word: a "+" is read as itself, not as a space. Ask with spaces, "${spaced}" (q="${spaced}" on a list line).`;
    }
  }
  if (origin && content !== '') {
    const kept = pageLines ? pageLinesOf(pageLines, origin) : [];
    if (kept.length > 0) meta.page_lines = kept;
    if (origin.some((line) => line > 0)) meta.source_lines = sourceLinesOf(origin);
  }
  return content;
}

/**
 * A text document's title: an XML document's <title> (an SVG's, say), never its markup; a
 * Markdown file's (markdownTitle); a table's (CSV, TSV) file name, as its
 * first line is a header row or a comment ("item,price", "# prices in pence"), not a title;
 * else the first line that is not blank.
 */
function textTitle(text: string, type: string, url: string): string {
  if (TABLE_TYPE.test(type)) return fileNameOfUrl(url).slice(0, 200);
  const head = text.slice(0, 64 * 1024);
  if (/xml/.test(type) || /^\uFEFF?\s*</.test(head)) {
    // The open tag, then its end from there: one pass each, however many unclosed <title>s.
    const open = /<(?:[\w.-]+:)?title\b[^<>]{0,1024}>/i.exec(head);
    if (!open) return '';
    const close = /<\/(?:[\w.-]+:)?title\s*>/gi;
    close.lastIndex = open.index + open[0].length;
    const end = close.exec(head);
    const t = end ? head.slice(open.index + open[0].length, end.index) : '';
    return decodeEntities(t.replace(/^\s*<!\[CDATA\[([\s\S]*?)\]\]>\s*$/, '$1').replace(/<[^<>]*>/g, ' ')).replace(/\s+/g, ' ').trim().slice(0, 200);
  }
  // Raw file hosts send a .md file as text/plain.
  if (/markdown/.test(type) || (/^text\/plain$/.test(type) && /\.(?:md|markdown)$/i.test(fileNameOfUrl(url)))) return markdownTitle(head).slice(0, 200);
  return (head.split('\n').find((l) => l.trim()) ?? '').trim().slice(0, 200);
}

/**
 * A Markdown file's title as a reader of it takes it: its front matter's `title:`, else its
 * first level-1 heading (`# Title`, `Title` over `===`, a README's `<h1 align="center">`)
 * outside code, else its first heading, else its first line outside code. The first line alone was "---"
 * for a file with front matter, and a README's badges (`[![build](…)](…)`) over its `# Name`.
 */
function markdownTitle(head: string): string {
  let lines = head.replace(/^\uFEFF/, '').split(/\r?\n/);
  if (lines[0]?.trim() === '---') {
    const end = lines.findIndex((l, i) => i > 0 && /^(?:---|\.\.\.)\s*$/.test(l));
    if (end > 0) {
      const title = lines.slice(1, end).map((l) => /^title:\s*(.*?)\s*$/.exec(l)?.[1]).find((t) => t !== undefined);
      const unquoted = title?.replace(/^(["'])(.*)\1$/, '$2').trim();
      if (unquoted) return unquoted;
      lines = lines.slice(end + 1);
    }
  }
  let fence = '';
  // Without a level-1 heading: the first heading of another level, else the first line of text.
  let other: string | undefined;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as string;
    const mark = /^ {0,3}(`{3,}|~{3,})/.exec(line)?.[1];
    if (fence) {
      if (mark && mark[0] === fence[0] && mark.length >= fence.length) fence = '';
      continue;
    }
    if (mark) {
      fence = mark;
      continue;
    }
    const atx = /^ {0,3}#[ \t]+(.*?)(?:[ \t]+#+)?[ \t]*$/.exec(line)?.[1];
    if (atx) return atx;
    const html = /^ {0,3}<h1\b[^>]*>(.*?)<\/h1>/i.exec(line)?.[1];
    if (html && html.replace(/<[^>]*>/g, '').trim()) return decodeEntities(html.replace(/<[^>]*>/g, '')).trim();
    if (line.trim() && /^ {0,3}=+[ \t]*$/.test(lines[i + 1] ?? '') && !/^ {0,3}(?:[-*+>]|\d+[.)])[ \t]/.test(line)) return line.trim();
    const heading = /^ {0,3}#{2,6}[ \t]+(.*?)(?:[ \t]+#+)?[ \t]*$/.exec(line)?.[1];
    if (heading && (other === undefined || !/^ {0,3}#/.test(other))) other = `# ${heading}`;
    else if (other === undefined && line.trim()) other = line.trim();
  }
  return (other ?? '').replace(/^#{1,6}\s+|\s+#+$/g, '');
}

const TABLE_TYPE = /^(?:text|application)\/(?:csv|x-csv|comma-separated-values|tab-separated-values)$/;

/** A feed in XML in every mode but raw (which gives its XML, titled by the feed). */
async function xmlFeedContent(xml: string, format: FeedFormat, mode: string, ctx: ExtractContext, meta: Record<string, unknown>): Promise<string> {
  if (mode === 'raw') {
    meta.title = textTitle(xml, 'application/xml', ctx.url);
    return xml;
  }
  const read = await ctx.html.feed(xml, format, mode, ctx.url, ctx.signal);
  Object.assign(meta, read.meta);
  return read.content;
}

/** The <title> as read without parsing the page: its entities decoded ("Tom &amp; Jerry" was the raw mode's title), its blanks one space. */
// Attributes bounded and stopped at "<": a page of unclosed "<title" read to its end from each.
const titleOfMarkup = (html: string): string => decodeEntities(/<title\b[^<>]{0,1024}>([^<]*)<\/title>/i.exec(html)?.[1] ?? '').replace(/\s+/g, ' ').trim();

async function htmlContent(html: string, mode: string, ctx: ExtractContext, meta: Record<string, unknown>, article?: Article): Promise<string> {
  if (mode === 'raw') {
    meta.title = titleOfMarkup(html);
    return html;
  }
  // A page saved to a file links where it linked on the web, not to file:///tennis/… on this disk.
  let url = ctx.url;
  const web = url.startsWith('file:') && !article && mode !== 'text' ? savedFrom(html) : undefined;
  if (web) {
    url = web;
    meta.base_url = web;
  }
  if (mode === 'links') {
    const links = await ctx.html.links(html, url, ctx.signal);
    meta.title = titleOfMarkup(html);
    meta.links = links.length;
    return links.join('\n');
  }
  if (mode === 'meta') {
    const m = await ctx.html.meta(html, url, ctx.signal);
    meta.title = m.title;
    return JSON.stringify(m, null, 2);
  }
  // The text too where the teaser check will read it.
  const wall = teaserWall(html);
  const a = article ?? (await ctx.html.article(html, url, [...articlePart(mode), ...(mode !== 'text' && wall ? (['text'] as const) : [])], ctx.signal));
  if (wall && isTeaser(html, a.text)) meta.warnings = [wall];
  meta.title = a.title;
  if (a.byline) meta.byline = a.byline;
  if (a.lang) meta.language = a.lang;
  return mode === 'text' ? a.text : mode === 'html' ? a.html : a.markdown;
}

/**
 * A JSON document's content in a mode or through jq. `cameAs` is the type of a text taken for
 * JSON by its wrapper's first bytes alone (a JSONP answer sent as JavaScript): no JSON inside
 * makes it the text it came as.
 */
async function jsonContent(text: string, mode: string, jq: string | undefined, ctx: ExtractContext, meta: Record<string, unknown>, cameAs?: string): Promise<string> {
  // JSON behind an XSSI guard ()]}') or in a JSONP call (cb({…});): what every client of
  // such an API reads. jq failed on it as 'not valid JSON: unexpected ")"', and a JSONP
  // answer, sent as JavaScript, as 'jq needs a JSON document, and this one is text'. A
  // wrapped text is never JSON itself (the guard or the call opens it), so what is inside is
  // read first, in the one parse of the document (a 14 MB one was parsed three times).
  const wrapped = jq || mode !== 'raw' ? wrappedJson(text) : undefined;
  if (wrapped) {
    const inside = await ctx.html.json(wrapped.json, jq ? 'jq' : mode, ctx.url, ctx.signal);
    if (inside.valid) {
      meta.json_wrapper = wrapped.wrapper;
      return readJsonContent(wrapped.json, inside, mode, jq, ctx, meta);
    }
  }
  if (cameAs !== undefined) throw jqNeedsJson('text', cameAs, ctx.url);
  return readJsonContent(text, await ctx.html.json(text, jq ? 'jq' : mode, ctx.url, ctx.signal), mode, jq, ctx, meta);
}

/** A JSON document's content from its reading (json-doc.ts readJson): laid out, or jq's output, or why it is not JSON. */
async function readJsonContent(text: string, read: JsonRead, mode: string, jq: string | undefined, ctx: ExtractContext, meta: Record<string, unknown>): Promise<string> {
  // Text asked of a jq program is jq -r's output: its strings as they are, one a line (a list
  // of URLs to fetch next, names to paste), where JSON strings came back quoted and escaped.
  const raw = jq !== undefined && mode === 'text';
  if (raw) meta.jq_raw = true;
  if (!read.valid) {
    if (jq) {
      // JSON Lines (a log, an export, a streaming API's answer): jq reads each line as one
      // input, as `jq PROG file.jsonl` does.
      const lines = jsonLines(text);
      if (lines.bad === undefined && lines.records > 0) {
        meta.json_lines = lines.records;
        return ctx.compute.jq(text, jq, ctx.signal, true, raw);
      }
      // jq on no input gives nothing, as `jq PROG < /dev/null` does; the result is ok, and
      // warned empty (extractBody), as it is without jq: "not valid JSON" blamed a 204.
      if (text.trim() === '') return '';
      // The document is broken, not the program: the reason is the document's, as a damaged
      // PDF's is, and the hint says where to look. Said as the program's (bad_option, "check
      // the URL"), a list of API URLs with one broken answer sent the user to their jq.
      // JSON Lines whose first record reads are JSON Lines with one line broken (a log cut off
      // mid-record): that line is named, not "unexpected character after JSON" at its start.
      // A page where JSON was promised (an API's error or sign-in page, a proxy's, under
      // application/json) was "broken at that place (a trailing comma, a stray character)".
      if (!lines.bad && MARKUP_START.test(text)) {
        throw new FetchError(
          422,
          `jq: the document is labelled JSON, and it is ${HTML_INSIDE.test(text.slice(0, 4096)) ? 'an HTML page' : 'markup (XML)'}, not JSON`,
          'Servers answer so with an error or sign-in page in place of the JSON; without jq it comes back as the text that came, to read what it says.',
          'bad_document',
        );
      }
      // What jq reads and JSON.parse does not: values one after another (`jq . a.json b.json > all.json`,
      // pretty-printed records), NaN and Infinity (Python's json.dumps writes them). Only
      // when jq too cannot read it is the document broken.
      let jqWhy: string | undefined;
      try {
        return await ctx.compute.jq(text, jq, ctx.signal, false, raw);
      } catch (err) {
        if (!(err instanceof JqParseError)) throw err;
        jqWhy = err.why;
      }
      // JSON.parse stops after the first value of several; jq's place is where the values break.
      // jq calls any bare word "Invalid numeric literal" (the x after a document, a stray word).
      const afterFirst = !lines.bad && /^Unexpected non-whitespace character after JSON/.test(read.error);
      const { why, cutShort } = afterFirst
        ? { why: jqWhy.replace(/^Invalid (?:numeric )?literal\b/, 'unquoted text or a malformed number'), cutShort: /^Unfinished .* at EOF/.test(jqWhy) }
        : lines.bad
          ? jsonProblem(lines.bad.text, lines.bad.error)
          : jsonProblem(text, read.error);
      throw new FetchError(
        422,
        lines.bad ? `jq: line ${lines.bad.line} of these JSON Lines is not valid JSON: ${why}` : `jq: the document is not valid JSON: ${why}`,
        cutShort
          ? 'The server sent only part of the document (a dropped connection, or a limit on its side); try again later. Without jq it comes back as the text that came.'
          : 'jq reads valid JSON only, and the server sent this document broken at that place (a trailing comma, a stray character). Without jq it comes back as the text that came, to look at.',
        'bad_document',
      );
    }
    meta.kind = 'text';
    return text;
  }
  Object.assign(meta, read.meta);
  if (jq) return ctx.compute.jq(text, jq, ctx.signal, false, raw);
  return read.content ?? text;
}

/**
 * How many JSON values a JSON Lines text holds (one per non-blank line). `bad` is the first
 * line that is not one, once a line before it was: such a text is JSON Lines with a broken
 * record; a text whose first line is not JSON is a document of its own.
 */
function jsonLines(text: string): { records: number; bad?: { line: number; text: string; error: string } } {
  let records = 0;
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? '';
    if (line.trim() === '') continue;
    try {
      JSON.parse(line);
    } catch (err) {
      return records > 0 ? { records, bad: { line: i + 1, text: line, error: (err as Error).message } } : { records: 0 };
    }
    records++;
  }
  return { records };
}

/** What the worker did to put the pages in reading order (meta.pdf). */
function layoutMeta(r: PdfText): Record<string, unknown> {
  const bidiLines = r.pages.reduce((a, p) => a + p.bidiLines, 0);
  return {
    bidi: bidiLines > 0,
    bidi_lines: bidiLines,
    columns: r.pages.reduce((a, p) => Math.max(a, p.columns), 1),
    multi_column_pages: r.pages.filter((p) => p.columns > 1).length,
    narrow_column_pages: r.pages.filter((p) => p.narrowColumns).length,
  };
}

/**
 * The page texts for reading (text, markdown, html): furniture dropped (repeated headers,
 * footers, page numbers, printer marks), then words broken at line ends joined, and those broken
 * at a column's or a page's end. mode raw skips both.
 */
function readable(r: PdfText, meta: Record<string, unknown>): string[] {
  const { pages, removed } = dropFurniture(r.pages.map((p) => p.text));
  const vocab = vocabulary(pages);
  let joined = 0;
  let kept = 0;
  const lines = pages.map((t) => {
    const d = dehyphenate(t, vocab);
    joined += d.joined;
    kept += d.kept;
    return d.text;
  });
  const out = dehyphenateBreaks(
    lines,
    r.pages.map((p) => p.n),
    vocab,
  );
  meta.pdf = { dehyphenated: joined + out.joined, compound_hyphens_kept: kept + out.kept, furniture_removed: removed };
  return out.pages;
}

/**
 * A PDF's links, page by page, once each: its link annotations' addresses, then those printed
 * in its text that no annotation has. A printed address that an annotation of its page goes
 * on from was cut at a line end, and is left out: the tracemonkey paper's
 * "http://lua-users.org/lists/lua-l/2008-" and a paper's "https://doi.org/10".
 */
function pdfLinks(pages: PdfPage[], texts: string[]): string[] {
  const out = new Set<string>();
  pages.forEach((p, i) => {
    const own = p.links ?? [];
    for (const u of own) out.add(u);
    for (const u of linksIn(joinBrokenAddresses(texts[i] ?? '')).split('\n')) {
      if (u && !own.some((a) => a.length > u.length && a.startsWith(u))) out.add(u);
    }
  });
  return [...out];
}

/** An address that runs to a line's end on a mark it goes on after ("…/lua-l/2008-", "…/current/"), and the next line's first word. */
const BROKEN_ADDRESS = /(https?:\/\/[^\s<>"'`)\]}]*[-/._=&?#%~])\n([A-Za-z0-9%_~-][^\s<>"'`)\]}]*)/g;

/**
 * Joins an address that a line end broke: the paper's "http://lua-users.org/lists/lua-l/2008-"
 * over "02/msg00051.html." was listed as the first half, a dead link, where no link
 * annotation gives it whole. A line goes on with the address only when its first word starts
 * in ASCII and holds a mark of a path ("/", ".", "=", "?", "#", "&"): "[3] SPECJVM98" after
 * "http://www.mozilla.com." and a sentence in Chinese after "http://10.0.2." stay apart.
 */
export function joinBrokenAddresses(text: string): string {
  let out = text;
  // An address may break over more than two lines; each pass joins one break of each.
  for (let i = 0; i < 8; i++) {
    const next = out.replace(BROKEN_ADDRESS, (m, head: string, word: string) => (/[/.=?#&]./.test(word) || word.endsWith('/') ? head + word : m));
    if (next === out) break;
    out = next;
  }
  return out;
}

/**
 * A PDF's info title that names no document: what a converter wrote of its input ("Microsoft
 * Word - report.docx", "C:/Documents and Settings/…/notes.dvi", "Untitled").
 */
const NOT_A_TITLE = /^(?:untitled\b.*|microsoft (?:word|powerpoint|excel) - .*|.*\.(?:dvi|docx?|tex|pdf|e?ps|rtf|odt|pptx?|xlsx?|indd|qxd))$/i;
const SOURCE_EXTENSION = /\.(?:dvi|docx?|tex|pdf|e?ps|rtf|odt|pptx?|xlsx?|indd|qxd)$/i;

/**
 * The name of the file an info title names, where page 1 has no heading to use instead: the
 * title a file name makes ("Microsoft Word - Annual report.docx" is "Annual report", what an
 * export names its file), '' for "Untitled".
 */
function sourceFileName(infoTitle: string): string {
  if (/^untitled\b/i.test(infoTitle)) return '';
  const file = infoTitle.replace(/^microsoft (?:word|powerpoint|excel) - /i, '').split(/[/\\]/).pop() ?? '';
  return file.replace(SOURCE_EXTENSION, '').trim();
}

/**
 * The chosen pages after a document's last page, as a selection ("15-20,40"), or '' for none.
 * An open range ("10-") asks for the pages to the end, and misses some only when it starts
 * past the end.
 */
export function pagesPastEnd(ranges: PageRanges, total: number): string {
  const END = Number.MAX_SAFE_INTEGER;
  const past = ranges
    .filter(([from, to]) => to > total && (to !== END || from > total))
    .map(([from, to]): [number, number] => [Math.max(from, total + 1), to])
    .sort((a, b) => a[0] - b[0]);
  const merged: [number, number][] = [];
  for (const [from, to] of past) {
    const last = merged[merged.length - 1];
    if (last && from <= last[1] + 1) last[1] = Math.max(last[1], to);
    else merged.push([from, to]);
  }
  return merged.map(([from, to]) => (to === END ? `${from}-` : from === to ? `${from}` : `${from}-${to}`)).join(',');
}

async function pdfContent(buf: Uint8Array, mode: string, ranges: ReturnType<typeof parsePages>, ctx: ExtractContext, meta: Record<string, unknown>): Promise<string> {
  meta.content_type = 'application/pdf';
  const all = await ctx.pdf.extract(ctx.poolCaller, buf, ranges, ctx.maxPdfPages, ctx.signal, mode === 'links', ctx.onPages);
  meta.pages_total = all.pagesTotal;
  // Where pages are chosen: the command line's --pages, the app's "PDF pages" field.
  const example = (pages: string): string => PAGES_EXAMPLE(surfaceOf(ctx.poolCaller), pages);
  if (all.tooLong) {
    // Pages chosen over the limit: "document too long: 14 pages" for pages=1-10 of 14 under a
    // limit of 5 named the document's count, not the choice that was too long.
    const first = ranges?.[0]?.[0] ?? 1;
    throw new FetchError(
      422,
      ranges && all.selected !== undefined ? `document too long: ${all.selected} pages chosen of its ${all.pagesTotal}` : `document too long: ${all.pagesTotal} pages`,
      ranges
        ? `Sift reads at most ${ctx.maxPdfPages} pages at once; choose fewer at a time, ${example(`${first}-${Math.min(all.pagesTotal, first + ctx.maxPdfPages - 1)}`)}.`
        : `Sift reads at most ${ctx.maxPdfPages} pages at once; choose pages, ${example(`1-${Math.min(20, ctx.maxPdfPages)}`)}.`,
      'too_long',
    );
  }
  // Pages chosen past the last one: an empty success would look like a blank document.
  if (ranges && all.pages.length === 0 && all.pagesTotal > 0) {
    throw badOption(`no such pages: the document has ${all.pagesTotal} page${all.pagesTotal === 1 ? '' : 's'}`, `Choose pages from 1 to ${all.pagesTotal}, ${example(`1-${Math.min(20, all.pagesTotal)}`)}.`);
  }
  // Pages chosen past the last one, beside pages it has: "2,40" of a 14-page file came back as
  // page 2 alone, an ok that said nothing of page 40. Named, as damaged pages are.
  const missing = ranges ? pagesPastEnd(ranges, all.pagesTotal) : '';
  if (missing) {
    meta.pages_missing = missing;
    warn(meta, 'pages_missing');
  }
  // Damaged pages are named and left out; a document none of whose chosen pages reads is a
  // damaged file, not an empty ok.
  const failed = all.pages.filter((p) => p.failed !== undefined);
  if (failed.length > 0 && failed.length === all.pages.length) {
    throw new FetchError(
      422,
      `malformed PDF: no page could be read: ${failed[0]?.failed ?? ''}`,
      'The file is damaged; open it in a PDF reader to check, or download it again.',
      'bad_document',
    );
  }
  if (failed.length > 0) {
    meta.pages_failed = failed.map((p) => p.n);
    warn(meta, 'damaged_pages');
  }
  const r: PdfText = { ...all, pages: all.pages.filter((p) => p.failed === undefined) };
  meta.pages_returned = r.pages.length;
  // The document's info names it; failing that (or where it names a file the PDF was made
  // from), the first page's heading, read for it when page 1 is not among the pages chosen.
  const infoTitle = pdfInfoText(r.info.title?.trim() ?? '');
  const namesFile = infoTitle !== '' && NOT_A_TITLE.test(infoTitle);
  const heading = infoTitle && !namesFile ? undefined : (r.pages.find((p) => p.n === 1)?.heading ?? r.info.heading);
  meta.title = heading || (namesFile ? sourceFileName(infoTitle) : infoTitle);
  if (heading) meta.title_from = 'page_1_heading';
  if (r.info.author) meta.author = pdfInfoText(r.info.author);
  if (r.info.attachments?.length) meta.attachments = r.info.attachments;
  // A PDF of no pages (its page tree counts 0) is a valid file with nothing in it: said, as an
  // empty answer is, not an ok that looks like a blank document.
  if (r.pagesTotal === 0) {
    warn(meta, 'empty');
    meta.hint = 'The PDF holds no pages.';
  }
  if (r.pages.length > 0 && r.pages.every((p) => p.text.trim() === '')) {
    meta.text_layer = false;
    warn(meta, 'no_text');
    meta.hint = 'This PDF has no text layer (scanned pages are images); run it through OCR first.';
  }
  // A page without text among pages with some (a scanned page in a typed document, or a blank
  // one): by number, since the text around it does not show that a page is missing.
  const textless = r.pages.filter((p) => p.text.trim() === '').map((p) => p.n);
  if (textless.length > 0 && textless.length < r.pages.length) meta.pages_no_text = textless;
  const texts = mode === 'raw' || mode === 'links' || mode === 'meta' ? r.pages.map((p) => p.text) : readable(r, meta);
  if (mode !== 'meta') meta.pdf = { ...layoutMeta(r), ...((meta.pdf as object | undefined) ?? {}) };
  switch (mode) {
    case 'html':
      return r.pages.map((p, i) => `<section data-page="${p.n}"><pre>${escapeHtml(texts[i] ?? '')}</pre></section>`).join('\n');
    case 'links': {
      const links = pdfLinks(r.pages, texts);
      meta.links = links.length;
      return links.join('\n');
    }
    case 'meta':
      return JSON.stringify({ title: meta.title, author: meta.author ?? '', pages_total: r.pagesTotal }, null, 2);
    default: {
      // Pages are separated by a blank line; grep and question see one text, like pdftotext's.
      // mode raw keeps every line as laid out: furniture and line-end hyphens included. Mode
      // markdown is the text with its headings and list items marked.
      const shown = mode === 'markdown' ? pdfMarkdown(r.pages, texts) : texts;
      // Said, and what tells the app and the exports the content is Markdown: a PDF stored
      // in mode markdown before it had marks is text, and "1. Introduction" would be a list.
      if (mode === 'markdown') meta.pdf = { ...(meta.pdf as object), ...markedIn(shown) };
      const joined = shown.join('\n\n');
      const content = joined.trim();
      const leadLines = (joined.slice(0, joined.length - joined.trimStart().length).match(/\n/g) ?? []).length;
      // Where each page starts ([page, first line]), so a search hit can cite its page. Counted
      // in the texts joined: dropping furniture and joining hyphenated words take lines out.
      const pageLines: PageLines = [];
      let line = 1;
      r.pages.forEach((p, i) => {
        pageLines.push([p.n, Math.max(1, line - leadLines)]);
        line += (shown[i]?.match(/\n/g) ?? []).length + 2;
      });
      if (pageLines.length > 0) meta.page_lines = pageLines;
      return content;
    }
  }
}
