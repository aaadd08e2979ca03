/**
 * File names for exported targets: built from a page title or a URL that anyone on the
 * web chose, so they are treated as hostile. A name from here is valid on Windows, macOS
 * and Linux, is unique in its folder even on case-insensitive file systems, and is a
 * single path component (it can never walk out of the export folder).
 */
import path from 'node:path';
import { SiftError } from '../../shared/errors';
import { readableUrl } from '../../shared/readable-url';

/** 120 UTF-16 units including the extension: short enough that "folder/name" stays far below Windows' 260-character MAX_PATH for ordinary folders. */
export const MAX_NAME_LENGTH = 120;
// Linux limits a component to 255 bytes and macOS to 255 UTF-16 units after its NFD
// decomposition; 120 units of CJK or Hangul can exceed either (3 bytes a unit; a Hangul
// syllable decomposes into 3 jamo), so both are checked as well.
const MAX_NAME_BYTES = 255;
const MAX_NAME_NFD_UNITS = 255;

// Windows reserves these device names with any extension ("aux.txt", "CON .md") and, since
// Windows 10, also with superscript digits (COM¹).
const RESERVED = /^(con|prn|aux|nul|conin\$|conout\$|com[0-9¹²³]|lpt[0-9¹²³])$/i;
// <>:"/\|?* are refused by Windows (":" is also macOS' path separator in Carbon APIs), C0
// and C1 controls and DEL by good taste and YAML/terminals, bidi controls because
// "U+202E txt.exe" displays as "exe.txt", and lone surrogates because they cannot be encoded
// in UTF-8 at all.
const BAD_CHARS =
  // eslint-disable-next-line no-control-regex -- matching control bytes is the point
  /[<>:"/\\|?*\u0000-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069\ufeff\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/gu;

// Zero-width characters a title shows nothing of: "zero\u200bwidth" was named
// "zero\u200bwidth.md", a name that looks like "zerowidth.md" and is another. Space, word
// joiner and invisible operators always go; a joiner or non-joiner (U+200C/D) only beside an
// ASCII character or an end: between two others it is spelling (Persian "می\u200cخواهم", an
// Indic conjunct, a family emoji 👨\u200d👩\u200d👧). A soft hyphen (U+00AD) shows only where
// a line breaks, never in a name ("in\u00advoice.md" read "invoice.md"); a Mongolian vowel
// separator (U+180E) only shapes the Mongolian letter after it, so it stays between two.
// The Hangul fillers (U+3164, U+FFA0 always; U+115F and U+1160 outside an old-Hangul syllable,
// where they stand for its missing consonant or vowel) and a grapheme joiner (U+034F, outside
// two combining marks whose order it keeps) are drawn as nothing: a title of fillers alone, a
// blank "name" of spam accounts, was written as a file whose name looks empty.
const ZERO_WIDTH = new RegExp(
  [
    '[\\u00ad\\u200b\\u2060-\\u2064\\u3164\\uffa0]',
    '(?<![\\u0080-\\u{10ffff}])[\\u200c\\u200d]|[\\u200c\\u200d](?![\\u0080-\\u{10ffff}])',
    '(?<![\\u1800-\\u18af])\\u180e|\\u180e(?![\\u1800-\\u18af])',
    '(?<!\\p{M})\\u034f|\\u034f(?!\\p{M})',
    '\\u115f(?![\\u1161-\\u11a7\\ud7b0-\\ud7c6])',
    '(?<![\\u1100-\\u115e\\ua960-\\ua97c])\\u1160',
  ].join('|'),
  'gu',
);
// The braille blank (U+2800) is a space as wide as a letter that \s does not match.
const BLANK = /\u2800/gu;

/** The form under which two names collide on a case- and normalisation-insensitive file system (APFS, NTFS). */
export function fileNameKey(name: string): string {
  // toUpperCase first so that "ß" and "SS" collide as well: over-cautious is harmless here.
  return name.normalize('NFC').toUpperCase().toLowerCase().normalize('NFC');
}

function fits(name: string): boolean {
  return (
    name.length <= MAX_NAME_LENGTH &&
    Buffer.byteLength(name, 'utf8') <= MAX_NAME_BYTES &&
    name.normalize('NFD').length <= MAX_NAME_NFD_UNITS
  );
}

const segmenter = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

/** Cuts whole graphemes off the end (never half an emoji or a surrogate pair) until `stem + suffix` fits. */
function truncateToFit(stem: string, suffix: string): string {
  if (fits(stem + suffix)) return stem;
  const graphemes = Array.from(segmenter.segment(stem), (s) => s.segment);
  let lo = 0;
  let hi = graphemes.length;
  // Binary search on the number of graphemes kept: titles can be megabytes long.
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (fits(graphemes.slice(0, mid).join('') + suffix)) lo = mid;
    else hi = mid - 1;
  }
  return graphemes.slice(0, lo).join('');
}

/**
 * A URL as a readable name: "https://www.example.org/a/b.pdf?x=1" → "example.org a b.pdf x=1";
 * its host and path in their own letters, as the app shows them (readableUrl): a PDF without a
 * title from xn--r8jz45g.jp was named "xn--r8jz45g.jp 資料.pdf". ASCII escapes are read one by
 * one after that, so one byte that is not UTF-8 (a Latin-1 path's %E9) leaves only itself encoded.
 */
function fromUrl(s: string): string {
  if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(s)) return s;
  const rest = readableUrl(s)
    .replace(/^[a-z][a-z0-9+.-]*:\/\//i, '')
    .replace(/^www\./i, '')
    .replace(/%([0-7][0-9a-f])/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
  return rest.replace(/[/?#&]+/g, ' ');
}

function cleanStem(raw: string): string {
  let s = raw.slice(0, 4096).normalize('NFC');
  s = s.replace(ZERO_WIDTH, '').replace(BLANK, ' ').replace(BAD_CHARS, '_').replace(/\s+/gu, ' ').replace(/_{2,}/g, '_');
  // Leading dots hide a file on macOS/Linux (and ".." is the parent); a leading dash makes a
  // command given the folder's files (`grep -l tide *`) read "-v.md" as its option; Windows
  // drops trailing dots and spaces, so "a." and "a" would collide there.
  s = s.replace(/^[\s._-]+/u, '').replace(/[\s.]+$/u, '');
  return s;
}

function isReserved(stem: string): boolean {
  const base = stem.split('.')[0] ?? '';
  return RESERVED.test(base.replace(/\s+$/u, ''));
}

function cleanExt(ext: string): string {
  const e = ext.replace(/^\./, '').toLowerCase().replace(/[^a-z0-9]/g, '');
  return e ? `.${e.slice(0, 10)}` : '';
}

const nextCounter = new WeakMap<Set<string>, Map<string, number>>();

/**
 * A file name for one target, made from its title or URL: sanitized, at most 120 characters
 * with the extension, valid on Windows, macOS and Linux, and unique against `taken`.
 *
 * `taken` holds fileNameKey() of every name already used in the folder; the chosen name's
 * key is added to it. A clash gets " (2)", " (3)", … before the extension.
 */
export function safeFileName(titleOrUrl: string, taken: Set<string>, ext: string): string {
  const dotExt = cleanExt(ext);
  let stem = cleanStem(fromUrl(titleOrUrl));
  if (!stem) stem = 'untitled';
  if (isReserved(stem)) stem = `_${stem}`;
  stem = truncateToFit(stem, dotExt).replace(/[\s.]+$/u, '') || 'untitled';
  // Cutting drops whole graphemes, and "NUL é́́…" (one e with 200 accents) lost all but "NUL ":
  // a device name again. Such a name is at most 6 characters, so the '_' fits.
  if (isReserved(stem)) stem = `_${stem}`;

  const first = stem + dotExt;
  if (!taken.has(fileNameKey(first))) {
    taken.add(fileNameKey(first));
    return first;
  }
  // Remember where the search for a free number stopped per stem, so 10,000 targets with
  // the same title cost 10,000 probes, not 50 million.
  let counters = nextCounter.get(taken);
  if (!counters) {
    counters = new Map();
    nextCounter.set(taken, counters);
  }
  const ckey = fileNameKey(first);
  for (let n = counters.get(ckey) ?? 2; ; n++) {
    const suffix = ` (${n})${dotExt}`;
    const name = truncateToFit(stem, suffix).replace(/[\s.]+$/u, '') + suffix;
    const key = fileNameKey(name);
    if (!taken.has(key)) {
      taken.add(key);
      counters.set(ckey, n + 1);
      return name;
    }
  }
}

/** `dir/name`, after checking that it really is a direct child of dir (no separator, no "..", no absolute name). */
export function childPath(dir: string, name: string): string {
  const root = path.resolve(dir);
  const full = path.resolve(root, name);
  if (path.dirname(full) !== root || path.basename(full) !== name) {
    throw new SiftError('bad_file_name', 500, `refusing to write outside the export folder: ${JSON.stringify(name)}`, 'This is a bug in Sift; please report it with the job.');
  }
  return full;
}
