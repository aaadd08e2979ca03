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

/** A charset declared inside the first 1024 bytes of an HTML document (the HTML spec's prescan window), or in an XML declaration. */
export function declaredCharset(buf: Uint8Array): string {
  const head = Buffer.from(buf.subarray(0, 1024)).toString('latin1');
  const meta =
    /<meta[^>]+charset\s*=\s*["']?\s*([A-Za-z0-9_:.+-]+)/i.exec(head) ??
    /<\?xml[^>]+encoding\s*=\s*["']([A-Za-z0-9_:.+-]+)/i.exec(head);
  return meta?.[1]?.toLowerCase() ?? '';
}

/**
 * The charset of a body that names none (no byte-order mark, no charset in its header or in
 * its first 1024 bytes): UTF-8 when the bytes are valid UTF-8, as nearly every page is now,
 * else windows-1252, what browsers assume of an unlabelled legacy page.
 */
export const unlabelledCharset = (b: Uint8Array): 'utf-8' | 'windows-1252' => (isUtf8(b) ? 'utf-8' : 'windows-1252');

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
 * declaration, else unlabelledCharset (UTF-8 for JSON). Labels iconv-lite does not know fall
 * back to UTF-8. As browsers do, iso-8859-1 and us-ascii are read as windows-1252.
 */
export function decodeText(buf: Uint8Array, contentType: string, sniffDocument = true): { text: string; charset: string } {
  const b = Buffer.from(buf.buffer, buf.byteOffset, buf.byteLength);
  const bom = bomOf(b);
  if (bom?.charset === 'utf-8') return { text: b.subarray(bom.length).toString('utf8'), charset: 'utf-8' };
  if (bom) return { text: iconv().decode(b.subarray(bom.length), bom.charset), charset: bom.charset };
  // JSON (sniffDocument false) is UTF-8 by its RFC, labelled or not.
  let cs = headerCharset(contentType) || (sniffDocument ? declaredCharset(b) || unlabelledCharset(b) : 'utf-8');
  if (cs === 'iso-8859-1' || cs === 'latin1' || cs === 'us-ascii' || cs === 'ascii') cs = 'windows-1252';
  if (cs === 'utf-8' || cs === 'utf8' || !iconv().encodingExists(cs)) return { text: b.toString('utf8'), charset: 'utf-8' };
  return { text: iconv().decode(b, cs), charset: cs };
}
