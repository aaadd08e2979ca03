import { gunzipSync } from 'node:zlib';
import { bodyTooLong, FetchError } from './errors';
import { mediaType, sniffBody } from './sniff';

/** Types that say only "a gzip file" or nothing: the file's own contents or name decide. */
const GZIP_TYPES = new Set(['application/gzip', 'application/x-gzip', 'application/octet-stream', 'binary/octet-stream', '']);
/** What a file's name says it is, for the name under a ".gz". */
const TYPE_OF_EXTENSION: Record<string, string> = {
  html: 'text/html',
  htm: 'text/html',
  xhtml: 'application/xhtml+xml',
  json: 'application/json',
  geojson: 'application/json',
  pdf: 'application/pdf',
  xml: 'application/xml',
  txt: 'text/plain',
  md: 'text/markdown',
  csv: 'text/csv',
  tsv: 'text/tab-separated-values',
  ndjson: 'text/plain',
  jsonl: 'text/plain',
};

/**
 * A gzip file that is the document itself: data.json.gz, sitemap.xml.gz, a page.html.gz served
 * as application/gzip (not gzip as a Content-Encoding, which the fetcher undoes), or a body a
 * server compressed twice. No text starts with gzip's magic bytes, so whatever the header says
 * it is unpacked, up to the download limit (a gzip bomb stops there), and read as what it holds:
 * its own first bytes say, else the name under the ".gz", else a header that named a type.
 * undefined for a body that is not gzip.
 */
export function unwrapGzip(body: Uint8Array, contentType: string, url: string, maxBytes: number): { body: Buffer; contentType: string } | undefined {
  if (body[0] !== 0x1f || body[1] !== 0x8b) return undefined;
  let inner: Buffer;
  try {
    inner = gunzipSync(body, { maxOutputLength: maxBytes });
  } catch (err) {
    if ((err as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE' || err instanceof RangeError) throw bodyTooLong(maxBytes);
    throw new FetchError(422, `corrupt gzip file: ${(err as Error).message}`, 'The file is cut short or damaged; download it again, or ask its owner for a good copy.', 'bad_document');
  }
  let name = '';
  try {
    name = decodeURIComponent(new URL(url, 'file:///').pathname);
  } catch {
    name = url;
  }
  const ext = /\.([a-z0-9]+)\.gz$/i.exec(name)?.[1]?.toLowerCase() ?? '';
  return { body: inner, contentType: sniffBody(inner) ?? TYPE_OF_EXTENSION[ext] ?? (GZIP_TYPES.has(mediaType(contentType)) ? '' : contentType) };
}

/** What meta says of a document that came packed: `bytes` is what it holds, this its size as sent. */
export const packedMeta = (packedBytes: number): Record<string, unknown> => ({ compressed: 'gzip', compressed_bytes: packedBytes });
