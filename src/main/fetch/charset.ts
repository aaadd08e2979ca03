import { isUtf8 } from 'node:buffer';
import { createRequire } from 'node:module';
import type IconvLite from 'iconv-lite';
import type * as Chardet from 'chardet';
import { utf16Unmarked } from '../../shared/text-bytes';

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
  const m = /;\s*charset\s*=\s*["']?([^"';\s]+)/i.exec(contentType);
  return m?.[1]?.toLowerCase() ?? '';
}

/** A tag's attributes, names lower-cased (the first of a name wins, as the HTML parser keeps it). */
function attributesOf(tag: string): Map<string, string> {
  const attrs = new Map<string, string>();
  const re = /([^\s"'>/=]+)(?:\s*=\s*(?:"([^"]*)"?|'([^']*)'?|([^\s>]*)))?/g;
  for (let m = re.exec(tag); m; m = re.exec(tag)) {
    const name = (m[1] ?? '').toLowerCase();
    if (!attrs.has(name)) attrs.set(name, m[2] ?? m[3] ?? m[4] ?? '');
  }
  return attrs;
}

/**
 * The charset one <meta> tag names, lower-cased, or '': its charset attribute, or the charset=
 * of its content when http-equiv says Content-Type (the HTML spec's prescan). A description
 * that mentions "charset=utf-8" names nothing.
 */
function metaCharset(tag: string): string {
  const attrs = attributesOf(tag.replace(/^<meta/i, ''));
  const label = (v: string | undefined): string => /^\s*([A-Za-z0-9_:.+-]+)/.exec(v ?? '')?.[1]?.toLowerCase() ?? '';
  const own = label(attrs.get('charset'));
  if (own) return own;
  if (attrs.get('http-equiv')?.trim().toLowerCase() !== 'content-type') return '';
  return label(/charset\s*=\s*["']?(.*)/i.exec(attrs.get('content') ?? '')?.[1]);
}

/** Comments, which the prescan skips: a page's `<!-- <meta charset="shift_jis"> -->` left from an older version names nothing. */
const COMMENTS = /<!--[\s\S]*?(?:-->|$)/g;

/** The charset a <meta> or an XML declaration names in `head` (markup read as latin1, comments out), lower-cased, or ''. */
function charsetIn(head: string): string {
  for (const m of head.matchAll(/<meta[\s/][^>]*>?/gi)) {
    const cs = metaCharset(m[0]);
    if (cs) return cs;
  }
  return /<\?xml[^>]+encoding\s*=\s*["']([A-Za-z0-9_:.+-]+)/i.exec(head)?.[1]?.toLowerCase() ?? '';
}

/** A charset declared inside the first 1024 bytes of an HTML document (the HTML spec's prescan window), or in an XML declaration. */
export function declaredCharset(buf: Uint8Array): string {
  return charsetIn(Buffer.from(buf.subarray(0, 1024)).toString('latin1').replace(COMMENTS, ' '));
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
 * The encoding a label names, by its name in the WHATWG Encoding Standard (x-sjis and
 * windows-31j are shift_jis, gb2312 is gbk, ks_c_5601-1987 is euc-kr, unicode-1-1-utf-8 is
 * utf-8), or '' for a label no decoder here knows: browsers ignore such a label and go on to
 * the next source. The table is the one Node's TextDecoder keeps; where it has none (a runtime
 * built without ICU's converters), iconv-lite's names are the answer, as they were before.
 * UTF-8 is answered without loading iconv-lite, which nearly every page never needs.
 */
function known(label: string): string {
  if (label === 'utf-8' || label === 'utf8') return 'utf-8';
  // Left to iconv-lite, which reads a byte-order mark or the NULs' side: UTF-16 big-endian
  // without a mark, labelled so, was read by it before and the standard's little-endian garbles it.
  if (label === 'utf-16') return label;
  if (!label) return '';
  try {
    return new TextDecoder(label).encoding;
  } catch {
    return iconv().encodingExists(label) ? label : '';
  }
}

/**
 * `buf` decoded as the encoding `name` (known's answer). iconv-lite decodes what it knows,
 * GBK by GB18030's table as the Encoding Standard's gbk decoder does (a gb2312 page's
 * four-byte characters); TextDecoder decodes the rest (iso-2022-jp, the charset of Japanese
 * mail and of the mailing-list archives made from it, and x-mac-cyrillic, which iconv-lite
 * lacks and which were read as UTF-8 or guessed as windows-1251).
 */
function decodeAs(buf: Buffer, name: string): string {
  const table = name === 'gbk' ? 'gb18030' : name;
  return iconv().encodingExists(table) ? iconv().decode(buf, table) : new TextDecoder(name).decode(buf);
}

/** chardet (ICU's detector), loaded the first time a body names no charset and is not UTF-8. */
let chardetLib: typeof Chardet | undefined;
const chardet = (): typeof Chardet => (chardetLib ??= createRequire(__filename)('chardet') as typeof Chardet);

/**
 * How much of a page's text the detector reads: it costs ~0.7 ms a KB (45 ms for 64 KB), and
 * its answers on real prose were as right from 4 KB as from 16 KB (bench/charset.ts).
 */
const DETECT_TEXT_BYTES = 16 * 1024;
/** How much of a body is searched for that text: a head of inlined scripts and styles runs to hundreds of KB. */
const DETECT_SCAN_BYTES = 512 * 1024;

/**
 * The text of a page's bytes, for the detector: markup, comments, scripts, styles and
 * entities dropped, runs of blanks made one space. ICU's own detector strips tags for the
 * same reason (its input filter): 300 bytes of Cyrillic in 30 KB of ASCII markup read as
 * English to its n-gram tables (0 of 30 such pages right, bench/charset.ts). Safe on every
 * multi-byte charset it knows: none uses '<', '>', '&' or a blank as a character's second byte.
 */
function textForDetection(b: Uint8Array): string {
  return Buffer.from(b.subarray(0, DETECT_SCAN_BYTES))
    .toString('latin1')
    .replace(/<!--[\s\S]*?(?:-->|$)|<(script|style|noscript|template|svg|math)\b[^>]*>[\s\S]*?(?:<\/\1\s*>|$)|<[!?/]?[A-Za-z][^>]*>?|&#?[A-Za-z0-9]+;?/gi, ' ')
    .replace(/[\t\n\f\r ]+/g, ' ');
}

/**
 * The confidence (0-100) below which the detector's answer is not taken. ICU scores any
 * multi-byte charset 10 for a handful of double-byte characters with no error (the “T of an
 * English page's curly quote is one Shift_JIS character) and random bytes at most 11; right
 * answers on real prose scored 15 and up (Ukrainian, which its Cyrillic tables, made from
 * Russian, fit least; bench/charset.ts).
 */
const MIN_CONFIDENCE = 12;

/**
 * What ICU's detector names, as the label decoded here; '' for what stays windows-1252. The
 * Latin-1 family (ISO-8859-1, windows-1252, ASCII) and UTF-8 are what the page is read as
 * already. ISO-8859-9/windows-1254 (Turkish) is taken: it differs from windows-1252 in six
 * letters (Ğ ğ İ ı Ş ş for Ð ð Ý ý Þ þ), so only an Icelandic page could read differently
 * in it, and of 1,749 Western pages none was read as it (bench/charset.ts); a Western page
 * must not change. Its words alone are not trusted (LATIN_SCRIPT). The 7-bit ISO-2022 forms and
 * UTF-16/32 without a byte-order mark are not asked of it: a body in them is ASCII (valid
 * UTF-8, never detected) or has NULs (binary).
 */
const DETECTED: Record<string, string> = {
  Shift_JIS: 'shift_jis',
  'EUC-JP': 'euc-jp',
  'EUC-KR': 'euc-kr',
  GB18030: 'gb18030',
  Big5: 'big5',
  'windows-1251': 'windows-1251',
  'KOI8-R': 'koi8-r',
  'ISO-8859-5': 'iso-8859-5',
  'windows-1250': 'windows-1250',
  'ISO-8859-2': 'iso-8859-2',
  'windows-1254': 'windows-1254',
  'ISO-8859-9': 'windows-1254',
  'windows-1253': 'windows-1253',
  'ISO-8859-7': 'iso-8859-7',
  'windows-1255': 'windows-1255',
  'ISO-8859-8': 'iso-8859-8',
  'windows-1256': 'windows-1256',
  'ISO-8859-6': 'iso-8859-6',
  'windows-1257': 'windows-1257',
  'windows-1258': 'windows-1258',
  'windows-874': 'windows-874',
};

/** Charsets of Latin scripts: read in one of them, a Western page's accented words can look like another language's. */
const LATIN_SCRIPT = new Set(['windows-1250', 'iso-8859-2', 'windows-1254', 'windows-1257', 'windows-1258']);

type Answers = ReturnType<typeof Chardet.analyse>;

/** The detector's answers for `text` (latin1), surest first. */
const analyse = (text: string): Answers => chardet().analyse(Buffer.from(text.slice(0, DETECT_TEXT_BYTES), 'latin1'));

/** The detector's best answer as a label decoded here, or '' when it is unsure or names the Latin-1 family. */
function labelOf(answers: Answers): string {
  const best = answers[0];
  return best && best.confidence >= MIN_CONFIDENCE ? (DETECTED[best.name] ?? '') : '';
}

/**
 * How much surer (in the detector's 0-100 confidence) than of Latin-1 it must be of a Latin
 * script's charset that it reads in a page's accented words alone. Set on Czech, Polish,
 * Hungarian and Turkish pages mixed with English, against English, French, German, Spanish and
 * Portuguese ones; then measured on languages no rule was tried on (bench/charset.ts): of
 * 1,281 Italian, Dutch, Swedish, Danish and Finnish pages none changed, and Croatian and
 * Slovene pages mixed with English stay mostly windows-1252 (3 of 76 and 0 of 104 read right).
 */
const LATIN_MARGIN = 10;

/**
 * The charset a detector reads in a legacy page's text, or '' when it is unsure or names
 * the Latin-1 family. Browsers run one here (Chrome's CED, Firefox's chardetng): a
 * windows-1251 or Shift_JIS page without a label is Cyrillic or Japanese in them, and was
 * mojibake in Sift's markdown, title and search index.
 * English words in a page (a technical page, a quote, a menu) decode the same in every
 * charset, yet sway ICU's n-gram tables towards Latin-1: a Russian page with as much English
 * as Russian was read right 16 times in 120. So when the whole text reads as Latin-1, the
 * words with bytes over 0x7f are asked on their own (120 in 120). That answer is taken for a
 * non-Latin script when those words are written in it (writtenOutsideAscii), and for a Latin
 * one only by a clear margin (LATIN_MARGIN): a French page's few accented words, alone, can
 * read as Czech. A Latin script's charset that reads the page's bytes as windows-1252 does
 * is not taken at all (readsAsWestern).
 */
function detectedCharset(b: Uint8Array): string {
  const text = textForDetection(b);
  // Text of ASCII only (the non-ASCII bytes were in the markup): nothing to tell charsets apart by.
  if (!/[\x80-\xff]/.test(text)) return '';
  const whole = labelOf(analyse(text));
  if (whole) return LATIN_SCRIPT.has(whole) && readsAsWestern(text, whole) ? '' : whole;
  const wide = text.split(' ').filter((w) => /[\x80-\xff]/.test(w));
  const answers = analyse(wide.join(' '));
  const own = labelOf(answers);
  if (!LATIN_SCRIPT.has(own)) return own && writtenOutsideAscii(wide) ? own : '';
  // A Latin script's charset, read in a few accented words: taken only when the detector is
  // clearly surer of it than of Latin-1 and it reads some letter otherwise.
  const western = Math.max(0, ...answers.filter((a) => a.name === 'ISO-8859-1' || a.name === 'windows-1252').map((a) => a.confidence));
  return (answers[0]?.confidence ?? 0) - western >= LATIN_MARGIN && !readsAsWestern(text, own) ? own : '';
}

/**
 * Whether every byte over 0x7f in `text` is the same character in `charset` (one of a Latin
 * script's, single-byte) as in windows-1252: a Finnish page's ä and ö are also windows-1257's,
 * and the detector's answer would change only the charset the page is said to be in.
 */
function readsAsWestern(text: string, charset: string): boolean {
  const high = [...new Set(text.match(/[\x80-\xff]/g) ?? [])].join('');
  const bytes = Buffer.from(high, 'latin1');
  return iconv().decode(bytes, charset) === iconv().decode(bytes, 'windows-1252');
}

/**
 * Whether words with bytes over 0x7f are mostly made of them, as a script of its own writes
 * its words (Cyrillic, Greek, Hebrew, Arabic, CJK: every letter one byte or more over 0x7f),
 * and not as a Latin script does (an accent in a word of ASCII letters: "più", "perché", or a
 * word that is one accented letter: "è").
 * Asked alone, a few such Italian words read as windows-1251 to the detector: 108 of 109
 * Italian pages came out as Cyrillic (bench/charset.ts).
 */
function writtenOutsideAscii(words: string[]): boolean {
  let mostly = 0;
  for (const w of words) {
    const high = (w.match(/[\x80-\xff]/g) ?? []).length;
    const ascii = (w.match(/[A-Za-z]/g) ?? []).length;
    // Two at least: a word of one accented letter ("è", "à") is all outside ASCII too.
    if (high >= 2 && high > ascii) mostly++;
  }
  return mostly * 2 > words.length;
}

/**
 * The charset of a body that names none (no byte-order mark, no charset in its header or in
 * its first 1024 bytes): UTF-8 when the bytes are valid UTF-8, as nearly every page is now,
 * else the charset its head names further on, else the one a detector reads in its text
 * (detectedCharset), else windows-1252, what browsers assume of an unlabelled Western page.
 * A late declaration does not overrule bytes that are UTF-8: it is looked for only where
 * the answer would otherwise be a guess.
 */
export function unlabelledCharset(b: Uint8Array): string {
  return unlabelled(b).charset;
}

/**
 * A label naming UTF-16 (ucs-2 and "unicode" are its aliases). Said in a document's own ASCII
 * markup it cannot be true, and the HTML spec reads such a document as UTF-8.
 */
const NAMES_UTF16 = /^(?:utf-?16|ucs-?2|unicode)/;

function unlabelled(b: Uint8Array): { charset: string; detected?: boolean } {
  if (isUtf8(b)) return { charset: 'utf-8' };
  const late = known(lateDeclaredCharset(b));
  // A UTF-16 or UTF-8 label in ASCII markup is a mistake the HTML spec reads past.
  if (late && late !== 'utf-8' && !NAMES_UTF16.test(late)) return { charset: late };
  const detected = detectedCharset(b);
  return detected ? { charset: detected, detected: true } : { charset: 'windows-1252' };
}

/** The encoding a byte-order mark at the start of the body names, with the mark's length; undefined without one. */
function bomOf(b: Uint8Array): { charset: 'utf-8' | 'utf-16le' | 'utf-16be'; length: number } | undefined {
  if (b[0] === 0xef && b[1] === 0xbb && b[2] === 0xbf) return { charset: 'utf-8', length: 3 };
  if (b[0] === 0xff && b[1] === 0xfe) return { charset: 'utf-16le', length: 2 };
  if (b[0] === 0xfe && b[1] === 0xff) return { charset: 'utf-16be', length: 2 };
  return undefined;
}

/**
 * UTF-16 told by where the NULs of JSON's first two characters fall (RFC 4627, section 3):
 * JSON opens with ASCII, so UTF-16 without a byte-order mark is `{ 00 " 00` or `00 { 00 "`.
 * For JSON only: a page or a binary file may begin so by chance.
 */
export function jsonUtf16(b: Uint8Array): 'utf-16le' | 'utf-16be' | undefined {
  if (b.length < 4) return undefined;
  if (b[0] === 0 && b[1] !== 0 && b[2] === 0 && b[3] !== 0) return 'utf-16be';
  if (b[0] !== 0 && b[1] === 0 && b[2] !== 0 && b[3] === 0) return 'utf-16le';
  return undefined;
}

/** True when neither the header nor the body (a byte-order mark, its first 1024 bytes) names a charset. */
export const namesNoCharset = (b: Uint8Array, contentType: string): boolean => !headerCharset(contentType) && !bomOf(b) && !declaredCharset(b);

/**
 * Whether a body said to be UTF-8 is mostly something else: more of its characters outside
 * ASCII are errors (U+FFFD) than are well-formed. A page whose header or <meta> says UTF-8
 * while its bytes are windows-1252 (a template changed, the files not) read "Caf\uFFFD d\uFFFD\uFFFDu"
 * in the title, the text and the exported file's name, and "café" found nothing in it. A UTF-8
 * page with a few stray legacy bytes (a pasted snippet, a body cut at the size cap) has far
 * more well-formed characters than errors and stays UTF-8, as browsers read it.
 */
function mostlyNotUtf8(text: string): boolean {
  let bad = 0;
  let good = 0;
  for (const ch of text) {
    if (ch === '\uFFFD') bad++;
    else if (ch > '\x7f') good++;
  }
  return bad > good;
}

/**
 * Decodes a body: a byte-order mark wins, then the header's charset, then the document's own
 * declaration, else unlabelledCharset (UTF-8 for JSON). A label no decoder here knows (known)
 * counts as none (browsers ignore such a label and go on to the next source: a
 * `charset=x-unknown` page of Latin-1 bytes is windows-1252, not U+FFFD). A document that
 * names UTF-16 in its own ASCII markup is UTF-8, as the HTML spec reads it. As browsers do,
 * iso-8859-1 and us-ascii are read as windows-1252. `detected` is set when the charset is a
 * detector's reading of the text (an unlabelled legacy page), not a label's. A page or text
 * labelled UTF-8 whose bytes are mostly not (mostlyNotUtf8) is read as an unlabelled one, one
 * labelled in a legacy charset whose bytes are UTF-8 as UTF-8, and `overruled` names the label
 * that was not taken.
 */
export function decodeText(buf: Uint8Array, contentType: string, sniffDocument = true): { text: string; charset: string; detected?: true; overruled?: string } {
  const b = Buffer.from(buf.buffer, buf.byteOffset, buf.byteLength);
  const bom = bomOf(b);
  if (bom?.charset === 'utf-8') return { text: b.subarray(bom.length).toString('utf8'), charset: 'utf-8' };
  if (bom) return { text: iconv().decode(b.subarray(bom.length), bom.charset), charset: bom.charset };
  // JSON (sniffDocument false) is UTF-8 by its RFC, labelled or not, unless its NULs say UTF-16.
  let cs = known(headerCharset(contentType));
  // Its bytes say UTF-16 whatever a label says (a server's default charset=utf-8 over a file
  // Notepad saved): read as UTF-8 or Latin-1, every other character is a NUL.
  const unmarked = NAMES_UTF16.test(cs) ? undefined : utf16Unmarked(b);
  if (unmarked) return { text: iconv().decode(b, unmarked), charset: unmarked, ...(cs ? { overruled: cs } : {}) };
  let detected = false;
  if (!cs && sniffDocument) {
    const declared = known(declaredCharset(b));
    if (NAMES_UTF16.test(declared)) cs = 'utf-8';
    else if (declared) cs = declared;
    else ({ charset: cs, detected = false } = unlabelled(b));
  }
  // JSON in UTF-16 without a byte-order mark, as older Windows and .NET services send it.
  if (!cs && !sniffDocument) cs = jsonUtf16(b) ?? '';
  cs ||= 'utf-8';
  if (cs === 'iso-8859-1' || cs === 'latin1' || cs === 'us-ascii' || cs === 'ascii') cs = 'windows-1252';
  if (cs === 'utf-8' || cs === 'utf8') {
    const text = b.toString('utf8');
    // A label's UTF-8 only: an unlabelled body comes here only when its bytes are UTF-8.
    if (!sniffDocument || isUtf8(b) || !mostlyNotUtf8(text)) return { text, charset: 'utf-8' };
    const legacy = unlabelled(b);
    return { text: decodeAs(b, legacy.charset), charset: legacy.charset, ...(legacy.detected ? { detected: true as const } : {}), overruled: 'utf-8' };
  }
  // A legacy label over bytes that are UTF-8 with characters outside ASCII: real text in a
  // legacy charset is next to never valid UTF-8 (a lead byte, then exactly its continuations),
  // and read in the label's charset it is mojibake for certain. An old server's default
  // "charset=ISO-8859-1" over a UTF-8 page gave "CafÃ© â€” æ—¥æœ¬" in the title, the text and
  // the exported file's name; RFC 8259 defines no charset for JSON at all, and fetch's json()
  // ignores one. A label is still taken for bytes that are not UTF-8 (a legacy page that meant it).
  if (!detected && !NAMES_UTF16.test(cs) && isUtf8(b) && b.some((x) => x > 0x7f)) return { text: b.toString('utf8'), charset: 'utf-8', overruled: cs };
  return { text: decodeAs(b, cs), charset: cs, ...(detected ? { detected: true as const } : {}) };
}

/** PDFDocEncoding's characters that are not Latin-1's, by their byte (ISO 32000 annex D). */
const PDF_DOC: Record<string, number> = Object.fromEntries(
  [...'˘ˇˆ˙˝˛˚˜'].map((c, i) => [c, 0x18 + i] as const).concat(
    [...'•†‡…—–ƒ⁄‹›−‰„“”‘’‚™ﬁﬂŁŒŠŸŽıłœšž'].map((c, i) => [c, 0x80 + i] as const),
    [['€', 0xa0]],
  ),
);

/**
 * A PDF's info string (a title, an author) as pdf.js read it, in PDFDocEncoding, repaired
 * when its bytes are UTF-8: the PDF standard allows only PDFDocEncoding or UTF-16 with a mark,
 * but many writers (Ruby's combine_pdf, dompdf, SILE, hand-set pdfTeX info) put UTF-8 there,
 * and 'Café — résumé' was the title 'CafÃ© â•ﬂ rÃ©sumÃ©' in the result, the job's table and the
 * exported file's name. poppler's pdfinfo reads such a string as UTF-8 too. A string with a
 * character PDFDocEncoding has no byte for is taken as read, and so is one whose bytes are
 * not UTF-8 (a Latin-1 title's 'é' alone never is).
 */
export function pdfInfoText(s: string): string {
  if (!/[^ -~\t\n\r]/.test(s)) return s;
  const bytes: number[] = [];
  for (const ch of s) {
    const code = PDF_DOC[ch] ?? ch.codePointAt(0) ?? 0;
    if (code > 0xff) return s;
    bytes.push(code);
  }
  const b = Buffer.from(bytes);
  return isUtf8(b) ? b.toString('utf8') : s;
}
