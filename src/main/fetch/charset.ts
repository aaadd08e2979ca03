import { isUtf8 } from 'node:buffer';
import { createRequire } from 'node:module';
import type IconvLite from 'iconv-lite';

type Iconv = typeof IconvLite;
let iconvLite: Iconv | undefined;
/**
 * iconv-lite, loaded the first time a body is not UTF-8: loading it (and safer-buffer, which
 * walks every export of node:buffer) took ~74 ms of a 1-page `sift batch`'s ~1 s, on every
 * start, for pages that are nearly all UTF-8.
 */
const iconv = (): Iconv => (iconvLite ??= createRequire(__filename)('iconv-lite') as Iconv);

/** The charset parameter of a Content-Type header, lower-cased, or ''. */
export function headerCharset(contentType: string): string {
  const m = /;\s*charset\s*=\s*"?([^";\s]+)"?/i.exec(contentType);
  return m?.[1]?.toLowerCase() ?? '';
}

/** The charset a <meta> or an XML declaration names in `head` (markup read as latin1), lower-cased, or ''. */
function charsetIn(head: string): string {
  const meta =
    /<meta[^>]+charset\s*=\s*["']?\s*([A-Za-z0-9_:.+-]+)/i.exec(head) ??
    /<\?xml[^>]+encoding\s*=\s*["']([A-Za-z0-9_:.+-]+)/i.exec(head);
  return meta?.[1]?.toLowerCase() ?? '';
}

/** A charset declared inside the first 1024 bytes of an HTML document (the HTML spec's prescan window), or in an XML declaration. */
export function declaredCharset(buf: Uint8Array): string {
  return charsetIn(Buffer.from(buf.subarray(0, 1024)).toString('latin1'));
}

/**
 * How far into a page a <meta charset> is looked for past the prescan window: the head of
 * a page that inlines its styles and scripts before naming its charset runs to tens of KB.
 */
const HEAD_SCAN_BYTES = 256 * 1024;
/** Elements of a head: while only these have opened, the head goes on (Chromium's meta charset scan). */
const HEAD_TAGS = new Set(['html', 'head', 'meta', 'link', 'script', 'noscript', 'style', 'title', 'base', 'object', 'template']);

/**
 * A charset a <meta> names in the document's head after its first 1024 bytes, or ''. The
 * HTML parser changes to it when it meets it (the spec's "change the encoding"), and
 * Chromium's scan goes on past 1024 bytes for as long as the head does: a page whose head
 * inlines 2 KB of styles before its `<meta charset=windows-1251>` is Cyrillic in a browser.
 * Comments and the insides of scripts, styles and titles are skipped; the first element
 * that belongs in a body ends the head.
 */
function lateDeclaredCharset(buf: Uint8Array): string {
  if (buf.byteLength <= 1024) return '';
  const text = Buffer.from(buf.subarray(0, HEAD_SCAN_BYTES))
    .toString('latin1')
    .replace(/<!--[\s\S]*?(?:-->|$)|<(script|style|title|noscript|template|textarea)\b[^>]*>[\s\S]*?(?:<\/\1\s*>|$)/gi, ' ');
  const tags = /<(\/?)([A-Za-z][^\s/>]*)[^>]*>/g;
  for (let m = tags.exec(text); m; m = tags.exec(text)) {
    const name = (m[2] ?? '').toLowerCase();
    if (m[1] ? name === 'head' || name === 'html' : !HEAD_TAGS.has(name)) return '';
    if (!m[1] && name === 'meta') {
      const cs = charsetIn(m[0]);
      if (cs) return cs;
    }
  }
  return '';
}

/**
 * A label iconv-lite can decode, or '' (an unknown label counts as none, as browsers take
 * it). UTF-8 is answered without loading iconv-lite, which nearly every page never needs.
 */
function known(label: string): string {
  if (label === 'utf-8' || label === 'utf8') return label;
  return label && iconv().encodingExists(label) ? label : '';
}

/**
 * The charset of a body that names none (no byte-order mark, no charset in its header or in
 * its first 1024 bytes): UTF-8 when the bytes are valid UTF-8, as nearly every page is now,
 * else the charset its head names further on, else windows-1252, what browsers assume of an
 * unlabelled legacy page. A late declaration does not overrule bytes that are UTF-8: it is
 * looked for only where the answer would otherwise be a guess.
 */
export function unlabelledCharset(b: Uint8Array): string {
  if (isUtf8(b)) return 'utf-8';
  const late = lateDeclaredCharset(b);
  // A UTF-16 or UTF-8 label in ASCII markup is a mistake the HTML spec reads past.
  return late && !/^(?:utf-?8|utf-?16|ucs-?2|unicode)/.test(late) && known(late) ? late : 'windows-1252';
}

/** The encoding a byte-order mark at the start of the body names, with the mark's length; undefined without one. */
function bomOf(b: Uint8Array): { charset: 'utf-8' | 'utf-16le' | 'utf-16be'; length: number } | undefined {
  if (b[0] === 0xef && b[1] === 0xbb && b[2] === 0xbf) return { charset: 'utf-8', length: 3 };
  if (b[0] === 0xff && b[1] === 0xfe) return { charset: 'utf-16le', length: 2 };
  if (b[0] === 0xfe && b[1] === 0xff) return { charset: 'utf-16be', length: 2 };
  return undefined;
}

/** True when neither the header nor the body (a byte-order mark, its first 1024 bytes) names a charset. */
export const namesNoCharset = (b: Uint8Array, contentType: string): boolean => !headerCharset(contentType) && !bomOf(b) && !declaredCharset(b);

/**
 * Decodes a body: a byte-order mark wins, then the header's charset, then the document's own
 * declaration, else unlabelledCharset (UTF-8 for JSON). A label iconv-lite does not know
 * counts as none (browsers ignore such a label and go on to the next source: a
 * `charset=x-unknown` page of Latin-1 bytes is windows-1252, not U+FFFD). A document that
 * names UTF-16 in its own ASCII markup is UTF-8, as the HTML spec reads it. As browsers do,
 * iso-8859-1 and us-ascii are read as windows-1252.
 */
export function decodeText(buf: Uint8Array, contentType: string, sniffDocument = true): { text: string; charset: string } {
  const b = Buffer.from(buf.buffer, buf.byteOffset, buf.byteLength);
  const bom = bomOf(b);
  if (bom?.charset === 'utf-8') return { text: b.subarray(bom.length).toString('utf8'), charset: 'utf-8' };
  if (bom) return { text: iconv().decode(b.subarray(bom.length), bom.charset), charset: bom.charset };
  // JSON (sniffDocument false) is UTF-8 by its RFC, labelled or not.
  let cs = known(headerCharset(contentType));
  if (!cs && sniffDocument) {
    const declared = known(declaredCharset(b));
    cs = /^(?:utf-?16|ucs-?2|unicode)/.test(declared) ? 'utf-8' : declared || unlabelledCharset(b);
  }
  cs ||= 'utf-8';
  if (cs === 'iso-8859-1' || cs === 'latin1' || cs === 'us-ascii' || cs === 'ascii') cs = 'windows-1252';
  if (cs === 'utf-8' || cs === 'utf8') return { text: b.toString('utf8'), charset: 'utf-8' };
  return { text: iconv().decode(b, cs), charset: cs };
}
