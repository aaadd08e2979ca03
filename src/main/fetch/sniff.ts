import { headerCharset, jsonUtf16 } from './charset';
import { FetchError } from './errors';
import { eightBitText, isControl, utf16Unmarked } from '../../shared/text-bytes';
import { xmlRootTag } from '../../shared/xml';

export type Kind = 'html' | 'pdf' | 'json' | 'text';
export type FeedFormat = 'rss' | 'atom' | 'rdf' | 'json';

/** The media type of a Content-Type header, lower-cased, without parameters. */
export const mediaType = (contentType: string): string => (contentType.split(';')[0] ?? '').trim().toLowerCase();

const BINARY_MAGIC: [string, number[]][] = [
  ['image/png', [0x89, 0x50, 0x4e, 0x47]],
  ['image/jpeg', [0xff, 0xd8, 0xff]],
  ['image/gif', [0x47, 0x49, 0x46, 0x38]],
  ['application/zip', [0x50, 0x4b, 0x03, 0x04]],
  ['application/gzip', [0x1f, 0x8b]],
  ['image/webp', [0x52, 0x49, 0x46, 0x46]],
  ['application/wasm', [0x00, 0x61, 0x73, 0x6d]],
];

function startsWith(buf: Uint8Array, bytes: number[], at = 0): boolean {
  return bytes.every((b, i) => buf[at + i] === b);
}

/**
 * The body's own type when its first bytes say so, or undefined. `utf16`: the header names
 * a UTF-16 charset, whose text is half NUL bytes.
 */
export function sniffBody(buf: Uint8Array, utf16 = false): string | undefined {
  // %PDF- may follow a little junk; readers accept it within the first 1024 bytes. Not a
  // page's own markup, though: an article on PDFs quoting "%PDF-1.7" near its top is a page.
  const head = Buffer.from(buf.subarray(0, 1024)).toString('latin1');
  const pdfAt = head.indexOf('%PDF-');
  if (pdfAt === 0 || (pdfAt > 0 && !opensAsHtml(leadText(head.slice(0, pdfAt))))) return 'application/pdf';
  for (const [type, magic] of BINARY_MAGIC) if (startsWith(buf, magic)) return type;
  const lead = head.replace(/^\uFEFF|^\xEF\xBB\xBF/, '');
  // Before the markup tests: a feed may open with a comment, as pages do.
  const feed = feedFormat(lead);
  if (feed) return FEED_TYPES[feed];
  const text = lead.trimStart().toLowerCase();
  if (opensAsHtml(text)) return 'text/html';
  // A NUL in the first 1024 bytes means binary; text formats never carry one but UTF-16 (a
  // BOM, its charset in the header: `utf16`, or its reading in a script: utf16Unmarked).
  const binary = !utf16 && !(buf[0] === 0xff && buf[1] === 0xfe) && !(buf[0] === 0xfe && buf[1] === 0xff) && !utf16Unmarked(buf) && binaryWhy(buf) !== undefined;
  // Asked after the bytes: a brotli stream of 64 KB to 1 MB opens with '[' (67 of the corpora's
  // 91 pages compressed so), and came back as JSON or text, mojibake, with exit 0.
  if (/^[[{]/.test(text) && !binary) return 'application/json';
  if (text.startsWith('<?xml') && /<html/.test(text)) return 'text/html';
  return binary ? 'application/octet-stream' : undefined;
}

/** Markup of an HTML document, anywhere in a body's first bytes. */
export const HTML_INSIDE = /<!doctype html|<html[\s>]|<body[\s>]/i;

/**
 * Why a body's first 1024 bytes are binary, or undefined for text: a NUL, or controls among
 * bytes that are no 8-bit text. 16,512 text files (the corpora, node_modules: HTML, Markdown,
 * JSON, JavaScript, CSV, XML) held none in their first 1024 bytes; a raw deflate or brotli
 * stream with no NUL there held 8 or more (413 files compressed), random bytes one in nine.
 * Four, or one in 64 bytes of a shorter body and two at least, leaves a stray control in a
 * text (a BEL in a log, a backspace in a 31-byte note) as text; so do any number up to half the bytes among 8-bit
 * text (eightBitText), as a man page's overstrike, a progress bar's backspaces and a shell's
 * window titles (BEL) in a terminal's log are.
 */
export function binaryWhy(buf: Uint8Array): 'NUL bytes' | 'control bytes' | undefined {
  const head = buf.subarray(0, 1024);
  if (head.includes(0)) return 'NUL bytes';
  let controls = 0;
  for (const b of head) if (isControl(b)) controls++;
  if (controls < Math.min(4, Math.max(2, Math.ceil(head.length / 64)))) return undefined;
  // Text among the controls, not controls alone: 64 BELs are valid UTF-8 too, and came back as
  // a text of nothing. A man page's overstrike is a control in three bytes, a spinner's in two.
  return controls * 2 <= head.length && eightBitText(head) ? undefined : 'control bytes';
}

/** A body's first characters as the tests below read them: without a byte-order mark or leading blanks, in lower case. */
const leadText = (head: string): string => head.replace(/^\uFEFF|^\xEF\xBB\xBF/, '').trimStart().toLowerCase();

/** Whether leadText opens an HTML document or fragment. */
function opensAsHtml(text: string): boolean {
  return /^<!doctype html|^<html|^<head|^<body|^<!--/.test(text) || /^<(div|p|title|meta|table|h[1-6])[\s>]/.test(text);
}

/**
 * The feed format of a document, from its root element (after the XML declaration, style
 * sheets, comments and a doctype); undefined for anything else. An Atom root must carry
 * Atom's namespace and an RDF root RSS 1.0's, so other XML named "feed" stays XML.
 */
export function feedFormat(text: string): Exclude<FeedFormat, 'json'> | undefined {
  const root = xmlRootTag(text, 4096);
  if (!root) return undefined;
  const { prefix, name, attrs } = root;
  if (!prefix && name === 'rss') return 'rss';
  if (name === 'feed' && /\bxmlns(?::[\w.-]+)?\s*=\s*["']http:\/\/(?:www\.w3\.org\/2005\/Atom|purl\.org\/atom\/ns#)["']/.test(attrs)) return 'atom';
  if (prefix && name === 'RDF' && text.slice(0, 4096).includes('http://purl.org/rss/1.0/')) return 'rdf';
  return undefined;
}

const FEED_TYPES: Record<Exclude<FeedFormat, 'json'>, string> = { rss: 'application/rss+xml', atom: 'application/atom+xml', rdf: 'application/rdf+xml' };
const isFeedType = (type: string | undefined): boolean => !!type && Object.values(FEED_TYPES).includes(type);

/** A body that opens as a JSON object or array opens and closes as one: { "… } or [ … ]. */
function looksLikeJson(buf: Uint8Array): boolean {
  const head = Buffer.from(buf.subarray(0, 64)).toString('latin1').replace(/^\uFEFF|^\xEF\xBB\xBF/, '').trimStart();
  const tail = Buffer.from(buf.subarray(Math.max(0, buf.length - 64))).toString('latin1').trimEnd();
  return (/^\{\s*(?:"|\}|$)/.test(head) && tail.endsWith('}')) || (head.startsWith('[') && tail.endsWith(']'));
}

function kindOf(type: string): Kind | undefined {
  if (type === 'text/html' || type === 'application/xhtml+xml') return 'html';
  if (type === 'application/pdf' || type === 'application/x-pdf') return 'pdf';
  if (type === 'application/json' || type.endsWith('+json') || type === 'text/json') return 'json';
  if (type.startsWith('text/') || type === 'application/xml' || type.endsWith('+xml') || type === 'application/javascript') return 'text';
  return undefined;
}

/**
 * Chooses the extractor. The body's magic wins over the header (servers send PDFs as
 * text/html and HTML error pages as application/pdf); a missing or generic header
 * (application/octet-stream) is decided by sniffing; anything else is 415.
 */
export function classify(contentType: string, buf: Uint8Array): Kind {
  const declared = mediaType(contentType);
  const sniffed = sniffBody(buf, /^(?:utf-16|ucs-2)/.test(headerCharset(contentType)) || (kindOf(declared) === 'json' && jsonUtf16(buf) !== undefined));
  if (sniffed === 'application/pdf') return 'pdf';
  // Binary bytes under a text type: "unsupported: text/plain" would contradict the hint, which
  // says text is extracted.
  if (sniffed === 'application/octet-stream' && kindOf(declared)) {
    const why = binaryWhy(buf) ?? 'NUL bytes';
    // A page declared HTML whose markup stands among stray controls (a server's junk ahead of
    // it) is the page a browser shows (its text among them is text already: binaryWhy). A raw
    // deflate or brotli stream shows no markup in the clear (none of 292, the corpora's 146
    // pages compressed both ways, did).
    if (why === 'control bytes' && kindOf(declared) === 'html' && HTML_INSIDE.test(Buffer.from(buf.subarray(0, 1024)).toString('latin1'))) return 'html';
    throw unsupported(`binary data (${why}) labelled ${declared}`);
  }
  // Of two types Sift does not read, the server's says more than the bytes' family: every
  // Word, Excel and EPUB file is a zip by its first bytes, and every WAV and AVI a RIFF, which
  // the magic table calls WebP ("unsupported: image/webp" for a recording).
  if (sniffed && !kindOf(sniffed)) throw unsupported(declared && !kindOf(declared) && !GENERIC_TYPES.has(declared) ? declared : sniffed);
  const fromHeader = kindOf(declared);
  if (fromHeader === 'pdf') {
    // Declared a PDF but the bytes are not one: say what it really is, or fail as malformed.
    if (sniffed) return kindOf(sniffed) ?? 'text';
    // Said for a file as for a download: `sift extract` of a .pdf that is not one has no server.
    throw new FetchError(
      422,
      buf.byteLength === 0 ? 'malformed PDF: it is empty (0 bytes)' : 'malformed PDF: no %PDF- header',
      'It is named or sent as a PDF but is not one (an error page, a download cut short): download it again, or open it in a PDF reader to check.',
      'bad_document',
    );
  }
  if (fromHeader === 'text' && sniffed === 'text/html' && declared !== 'text/plain') return 'html';
  // A feed sent as text/html (as many are) is a feed, not a page to find an article in.
  if (fromHeader === 'html' && isFeedType(sniffed)) return 'text';
  // JSON sent as text/html, PHP's type for whatever a script echoes: a browser shows it as
  // text, and jq and the JSON view are what it needs.
  if (fromHeader === 'html' && sniffed === 'application/json' && looksLikeJson(buf)) return 'json';
  if (fromHeader) return fromHeader;
  if (sniffed) return kindOf(sniffed) ?? 'text';
  if (!declared || declared === 'application/octet-stream' || declared === 'binary/octet-stream') return 'text';
  throw unsupported(declared);
}

/** Types that say only "bytes": the body's own magic names it better. */
const GENERIC_TYPES = new Set(['application/octet-stream', 'binary/octet-stream', 'application/unknown', 'application/x-download', 'application/force-download']);

export const unsupported = (type: string): FetchError =>
  new FetchError(415, `unsupported: ${type}`, 'Sift extracts HTML, PDF, JSON and text; this document is none of them.', 'unsupported');
