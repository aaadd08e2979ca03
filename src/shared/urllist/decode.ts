/**
 * A list file's bytes as text. Plain code (TextDecoder, no Buffer), so the app can read a
 * dropped file the same way.
 *
 * Windows writes lists as UTF-16 more often than one would think: Notepad's "Unicode",
 * Excel's "Unicode Text" and Windows PowerShell's `>` all do. Read as UTF-8, every other
 * byte is a NUL and no line is a URL.
 */
import { utf16Unmarked } from '../text-bytes';

export type DecodedList = { ok: true; text: string } | { ok: false; kind: string };

const GZIP_MAGIC = [0x1f, 0x8b];

// Formats a user may give by mistake (the wrong file of a folder, a download), by their first bytes.
const MAGIC: readonly [string, number[]][] = [
  ['a PDF document', [0x25, 0x50, 0x44, 0x46, 0x2d]], // %PDF-
  ['a zip archive', [0x50, 0x4b, 0x03, 0x04]],
  ['a gzip file', GZIP_MAGIC],
  ['a PNG image', [0x89, 0x50, 0x4e, 0x47]],
  ['a JPEG image', [0xff, 0xd8, 0xff]],
  ['a GIF image', [0x47, 0x49, 0x46, 0x38]],
  ['an SQLite database', [0x53, 0x51, 0x4c, 0x69, 0x74, 0x65, 0x20, 0x66, 0x6f, 0x72, 0x6d, 0x61, 0x74]], // "SQLite format"
  ['a program', [0x7f, 0x45, 0x4c, 0x46]], // ELF
];

const startsWith = (b: Uint8Array, magic: readonly number[]): boolean => magic.every((v, i) => b[i] === v);

/**
 * The text of a list: UTF-8 (with or without its byte order mark), UTF-16 (with one, or
 * without: utf16Unmarked, the fetcher's rule), else windows-1252; `ok: false` with what the
 * file seems to be when it is no text at all, so the user is told so instead of getting one
 * "not a URL" per line of binary.
 */
export function decodeListBytes(bytes: Uint8Array): DecodedList {
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return { ok: true, text: new TextDecoder('utf-16le').decode(bytes.subarray(2)) };
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return { ok: true, text: new TextDecoder('utf-16be').decode(bytes.subarray(2)) };
  for (const [kind, magic] of MAGIC) if (startsWith(bytes, magic)) return { ok: false, kind };
  const head = bytes.subarray(0, 4096);
  // One rule with the fetcher's: this reader's own (NULs on one byte of 90% of pairs, none on
  // the other) refused a list whose titles were Chinese or Russian as "a binary file".
  const utf16 = utf16Unmarked(bytes);
  if (utf16) return { ok: true, text: new TextDecoder(utf16).decode(bytes) };
  // No text format carries a NUL outside UTF-16 (the fetcher sniffs bodies by the same rule).
  if (head.includes(0)) return { ok: false, kind: 'a binary file' };
  try {
    return { ok: true, text: new TextDecoder('utf-8', { fatal: true }).decode(bytes) };
  } catch {
    // Not UTF-8: Excel's "CSV" and Notepad's "ANSI" write the Windows code page, windows-1252
    // in the West, where `café` is one byte 0xE9. Read as UTF-8 that byte is U+FFFD, and a
    // host or path with an accent fails as "not a valid URL"; browsers read an unlabelled
    // page that is not UTF-8 as windows-1252 too.
    return { ok: true, text: new TextDecoder('windows-1252').decode(bytes) };
  }
}

/** What a gzip file that is no list is called: damaged, or past the bytes a list may have once unpacked. */
export const DAMAGED_GZIP = 'a damaged gzip file';
export const GZIP_TOO_LARGE = 'a gzip file that unpacks to more than Sift reads as a list';

/** The bytes a gzip file unpacks to, read no further than `maxBytes` (a small file may unpack to gigabytes). */
async function gunzipUpTo(bytes: Uint8Array, maxBytes: number): Promise<{ ok: true; bytes: Uint8Array } | { ok: false; kind: string }> {
  const chunks: Uint8Array[] = [];
  let total = 0;
  // A file's bytes (readFile, File.arrayBuffer) are never a SharedArrayBuffer's, which Blob refuses.
  const reader = new Blob([bytes as Uint8Array<ArrayBuffer>]).stream().pipeThrough(new DecompressionStream('gzip')).getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      total += value.length;
      if (total > maxBytes) {
        await reader.cancel();
        return { ok: false, kind: GZIP_TOO_LARGE };
      }
      chunks.push(value);
    }
  } catch {
    return { ok: false, kind: DAMAGED_GZIP };
  }
  const out = new Uint8Array(total);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.length;
  }
  return { ok: true, bytes: out };
}

/**
 * A list file's text as decodeListBytes reads it, a gzip file unpacked first: sites publish
 * their sitemaps as sitemap.xml.gz (the sitemaps protocol allows it), and one saved from a
 * site was refused with "unpack it first", a step Windows has no tool for. DecompressionStream
 * is in Node and in Chromium alike, so the app and the CLI unpack it the same way.
 */
export async function decodeListFile(bytes: Uint8Array, maxBytes: number): Promise<DecodedList> {
  if (!startsWith(bytes, GZIP_MAGIC)) return decodeListBytes(bytes);
  const unpacked = await gunzipUpTo(bytes, maxBytes);
  return unpacked.ok ? decodeListBytes(unpacked.bytes) : unpacked;
}

// A workbook or a document is a zip (xlsx, docx, ods, odt) or an older Office binary (xls, doc):
// named "a zip archive" or "a binary file", the user with the URLs in a spreadsheet's column
// was not told how to give them to Sift.
const WORKBOOK = /\.(xlsx|xlsm|xls|ods|numbers)$/i;
const DOCUMENT = /\.(docx|doc|odt|pages)$/i;

/** A file that is no list as its name says it is an office file, or undefined: what the app and the CLI advise on it. */
export function officeFile(name: string): 'workbook' | 'document' | undefined {
  return WORKBOOK.test(name) ? 'workbook' : DOCUMENT.test(name) ? 'document' : undefined;
}

/** What the app says of a file that is no list (the CLI names its own commands instead). */
/** A list file that could not be read (gone since it was chosen, a folder, not allowed): said alike for a drop and an open. */
export function unreadableList(name: string): { message: string; hint: string } {
  return { message: `Could not read ${name}.`, hint: 'Check that the file still exists and that you can open it.' };
}

export function notAList(name: string, kind: string): { message: string; hint: string } {
  const office = officeFile(name);
  if (office === 'workbook') {
    return {
      message: `${name} is a spreadsheet workbook, which Sift cannot read as a list.`,
      hint: 'Save the sheet that holds the URLs as CSV (in Excel: File › Save As › CSV UTF-8) and drop the .csv file, or copy the column and paste it here.',
    };
  }
  if (office === 'document') {
    return {
      message: `${name} is a word-processor document, which Sift cannot read as a list.`,
      hint: 'Save it as a web page (HTML keeps its links) or as plain text and drop that, or copy its links and paste them here.',
    };
  }
  if (kind === 'a gzip file') {
    return { message: `${name} is ${kind}, not a list of URLs.`, hint: 'Unpack it first (a compressed sitemap unpacks to a .xml file) and drop the file inside.' };
  }
  if (kind === DAMAGED_GZIP) {
    return { message: `${name} is ${kind}: it ends early or is no gzip inside.`, hint: 'Download it again; a download that stopped part way cannot be unpacked.' };
  }
  if (kind === GZIP_TOO_LARGE) {
    return { message: `${name} unpacks to more than 64 MiB, too big for a list of URLs.`, hint: 'Unpack it and split the list inside into files under 64 MiB.' };
  }
  return {
    message: `${name} is ${kind}, not a list of URLs.`,
    hint: 'Give a text file of URLs, one a line, or a CSV, bookmarks HTML, JSON, sitemap or OPML file.',
  };
}
