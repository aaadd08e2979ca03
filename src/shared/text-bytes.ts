/**
 * What bytes text has: the controls no text uses, and UTF-16 told without a byte-order mark.
 * Plain code (no Buffer), so the fetcher's sniffing and the app's reading of a dropped list
 * share one rule.
 */

/**
 * WHATWG's binary data bytes (MIME Sniffing §7.1) but NUL: the controls text has no use
 * for. Tab, line feed, form feed, carriage return and ESC (ANSI colours in a log) are text's.
 */
const CONTROL = '[\\x01-\\x08\\x0b\\x0e-\\x1a\\x1c-\\x1f]';
const CONTROL_BYTES = new Set(Array.from({ length: 0x20 }, (_, b) => b).filter((b) => new RegExp(CONTROL).test(String.fromCharCode(b))));

export const isControl = (b: number): boolean => CONTROL_BYTES.has(b);

/** isControl's bytes as characters: an HTML page's text has no use for them either (the HTML spec makes each a parse error). */
export const STRAY_CONTROLS = new RegExp(`${CONTROL}+`, 'g');

/**
 * A terminal's escape sequences (ECMA-48): a control string (a window title, a link's address:
 * ESC ] … BEL or ESC \\, ESC P, X, ^ or _ … ESC \\, cut at a line break if left open), a CSI (ESC [
 * then parameters, colours, cursor moves, a line erased), and any other (ESC ( B, ESC 7).
 */
// eslint-disable-next-line no-control-regex -- escape sequences are what is matched
const ESCAPES = /\x1b[\]PX^_][^\x07\x1b\n]*(?:\x07|\x1b\\)?|\x1b\[[0-?]*[ -/]*[@-~]|\x1b[ -/]*[0-~]?/g;

/**
 * Erase in line (ECMA-48 EL, CSI K): to the line's end (0, the default), from its start (1), the
 * whole line (2). ERASE_AT reads one where struck meets it, and what it erases; ERASE is a
 * sequence that is one, and ERASES finds them all.
 */
// eslint-disable-next-line no-control-regex -- an escape sequence is what is matched
const ERASE_AT = /\x1b\[([012]?)K/y;
const ERASE = new RegExp(`^${ERASE_AT.source}$`);
const ERASES = new RegExp(ERASE_AT.source, 'g');

/**
 * A move to the line's first column (ECMA-48 CHA, CSI G with no column, 0 or 1): a carriage
 * return by another name, which Node's readline writes for cursorTo(0) (the progress and
 * cli-progress packages draw each frame after one).
 */
// eslint-disable-next-line no-control-regex -- an escape sequence is what is matched
const TO_FIRST_COLUMN = /^\x1b\[[01]?G$/;

/**
 * How far a line must run before a CR that repeats the character ahead of it is readline's
 * wrap, not a frame that begins as the last ended: readline wraps at the terminal's width (80
 * for script(1) without a terminal), and no terminal is narrower than 40 columns.
 */
const WRAP_AFTER = 40;

/**
 * A line as a terminal or a printer shows it whose backspaces and carriage returns write over
 * what went before (col -b): the last character written to each column, and a letter struck
 * over its '_' the letter (a man page's underline is '_' then the letter, as less reads it
 * either way round; a printer's is the line, a CR, then underscores). A carriage return goes
 * back to the first column, so a progress bar's frames ('50%\r60%\r100%') show their last,
 * and an erase (CSI K) blanks what a shorter frame does not cover. Readline wraps a line past
 * the terminal's width by writing the character that begins the next row, a CR, and that
 * character again ('…; pr\rrintf' at 80 columns): there the line goes on, as its rows read.
 * The blanks a frame wrote over a longer one's end are not kept.
 */
function struck(line: string): string {
  const cells: string[] = [];
  let at = 0;
  let overwritten = false;
  // Read a character at a time, not as a list of them: a training run's log is megabytes of
  // frames on one line (5 MB took 10 s and 475 MB as a list of tokens).
  for (let i = 0; i < line.length; ) {
    const ch = String.fromCodePoint(line.codePointAt(i) as number);
    i += ch.length;
    if (ch === '\b') at = Math.max(0, at - 1);
    else if (ch === '\r') {
      const last = cells[at - 1];
      if (at > WRAP_AFTER && last !== undefined && line.startsWith(last, i)) i += last.length;
      else [at, overwritten] = [0, overwritten || at > 0];
    } else if (ch === '\x1b') {
      ERASE_AT.lastIndex = i - 1;
      const erase = ERASE_AT.exec(line)?.[1];
      if (erase === undefined) continue;
      i = ERASE_AT.lastIndex;
      if (erase === '2') cells.fill(' ');
      else if (erase === '1') cells.fill(' ', 0, at + 1);
      else cells.length = Math.min(cells.length, at);
    } else {
      const was = cells[at];
      cells[at++] = ch === '_' && was !== undefined && was !== ' ' ? was : ch;
    }
  }
  const shown = Array.from(cells, (c) => c ?? ' ').join('');
  return overwritten ? shown.trimEnd() : shown;
}

/** A word: two letters or more (a unit's one letter, curl's k and M, changes as a meter runs). */
const WORD = /\p{L}{2,}/gu;

/**
 * Whether a text whose CRs outnumber its LFs is a Mac's before OS X (its CRs end lines) with a
 * stray LF in it (a line pasted from elsewhere, a line break in a spreadsheet's cell), not a
 * progress bar's frames, each sent back to the line's start by a CR. A tool's frames say the
 * same words, their numbers changing ('Receiving objects:  45% (91/202)'), or the last one's
 * words and more (', done.'); a text's lines say others. Over consecutive frames or lines:
 * 88% to 100% said the same words in each of 18 captures made here (git clone and gc, curl,
 * wget, dd, xz, tqdm, whose bar to a file has one LF after 300 frames), under 50% in 1,410 of
 * 1,420 texts (READMEs, code, tables: ls -l, /etc/services, CSV), whose rest are lists of
 * numbers or addresses, as a counter's frames are. A terminal's erase in line is a frame's.
 */
function crLined(text: string): boolean {
  // The first 64 KB's thousand lines or frames tell as the whole would: a training log's 60,000
  // frames (3.7 MB) read whole took 0.16 s more.
  const head = text.slice(0, 64 * 1024);
  let [bare, lfs] = [0, 0];
  for (let i = head.indexOf('\r'); i >= 0; i = head.indexOf('\r', i + 1)) if (head[i + 1] !== '\n') bare++;
  for (let i = head.indexOf('\n'); i >= 0 && lfs < bare; i = head.indexOf('\n', i + 1)) lfs++;
  if (lfs >= bare || head.search(ERASES) >= 0) return false;
  let [pairs, same] = [0, 0];
  for (const line of head.replace(ESCAPES, '').split('\n')) {
    let last: string[] | undefined;
    for (const part of line.split('\r')) {
      if (part.trim() === '') continue;
      const words = part.match(WORD) ?? [];
      if (last) {
        pairs++;
        const [short, long] = last.length <= words.length ? [last, words] : [words, last];
        if ((short.length === long.length || short.length > 0) && short.every((w, k) => w === long[k])) same++;
      }
      last = words;
    }
  }
  return same * 2 < pairs;
}

/**
 * A text as a terminal showed it: a log, a shell session's capture (script(1)) or a man page
 * rendered for one holds its colours and titles as escape sequences, its bold, underline and
 * spinners as backspaces, and its progress bars as frames a CR (or a move to the first column)
 * sends back to the line's start. Their words are what a reader and grep want ('error' where the
 * bytes say ESC [31m e r r o r, 'NAME' where they say N BS N A BS A …, '100%' where they say 50%
 * CR 60% CR 100%); the sequences go, backspaces and CRs write over, and the other stray controls
 * (a BEL) go as they do from a page. A CR before a LF, or last on a line, ends it (CRLF files are as they were),
 * and in a text without a LF, or a Mac's with a stray one (crLined), every CR does.
 */
export function asShown(text: string): string {
  const eol = text.includes('\n') && !crLined(text) ? '\n' : '\r';
  // eslint-disable-next-line no-control-regex -- the controls are what is looked for
  if (!/[\x01-\x08\x0b\x0e-\x1f]/.test(text) && !(eol === '\n' && /\r[^\n]/.test(text))) return text;
  const unescaped = text.replace(ESCAPES, (m) => (ERASE.test(m) ? m : TO_FIRST_COLUMN.test(m) ? '\r' : ''));
  const shown = unescaped.split(eol).map((line) => {
    const end = line.endsWith('\r') ? '\r' : '';
    const body = end ? line.slice(0, -1) : line;
    return (/[\b\r]/.test(body) ? struck(body) : body.replace(ERASES, '')) + end;
  });
  return shown.join(eol).replace(STRAY_CONTROLS, '');
}

/** Characters no text holds: C1 controls and DEL, lone surrogates, private use, unassigned (with U+FFFE, U+FFFF). */
const NOT_TEXT = /[\p{Cc}\p{Cs}\p{Co}\p{Cn}]/u;

/** How a head reads as UTF-16 in one byte order. */
interface Reading {
  units: number;
  /** Characters no text holds: NUL, isControl's, NOT_TEXT's. */
  bad: number;
  /** ASCII's text: a space, a line break, a digit, a letter, punctuation. */
  ascii: number;
  /** Characters by script block: CJK ideographs, Hangul syllables and astral characters one each, else by 256. */
  blocks: Map<number, number>;
  /** Characters of Chinese and Japanese text (isHan) and of Korean (isHangul). */
  han: number;
  hangul: number;
  /** The characters read, each once. */
  distinct: Set<number>;
}

/** Chinese and Japanese text's characters: CJK punctuation, kana, the unified ideographs (not the rare extension A), fullwidth forms. */
const isHan = (cp: number): boolean => (cp >= 0x3000 && cp <= 0x30ff) || (cp >= 0x4e00 && cp <= 0x9fff) || (cp >= 0xff00 && cp <= 0xffef);
/** Korean text's: Hangul syllables and compatibility jamo, CJK punctuation. */
const isHangul = (cp: number): boolean => (cp >= 0xac00 && cp <= 0xd7a3) || (cp >= 0x3130 && cp <= 0x318f) || (cp >= 0x3000 && cp <= 0x303f);

const blockOf = (cp: number): number =>
  cp >= 0x10000 ? 0x10000 : (cp >= 0x3400 && cp <= 0x9fff) || (cp >= 0xf900 && cp <= 0xfaff) ? 0x4e00 : cp >= 0xac00 && cp <= 0xd7af ? 0xac00 : cp & 0xff00;

function read(head: Uint8Array, le: boolean): Reading {
  const r: Reading = { units: 0, bad: 0, ascii: 0, blocks: new Map(), han: 0, hangul: 0, distinct: new Set() };
  const unitAt = (i: number): number => (le ? (head[i] as number) | ((head[i + 1] as number) << 8) : ((head[i] as number) << 8) | (head[i + 1] as number));
  for (let i = 0; i + 1 < head.length; i += 2) {
    let cp = unitAt(i);
    r.units++;
    if (cp >= 0xd800 && cp <= 0xdbff) {
      if (i + 3 >= head.length) break; // a pair cut at the end of the head
      const low = unitAt(i + 2);
      if (low >= 0xdc00 && low <= 0xdfff) {
        cp = 0x10000 + ((cp - 0xd800) << 10) + (low - 0xdc00);
        i += 2;
        r.units++;
      }
    }
    if (cp < 0x20 ? cp === 0 || isControl(cp) : NOT_TEXT.test(String.fromCodePoint(cp))) r.bad++;
    else if (cp < 0x7f) r.ascii++;
    const block = blockOf(cp);
    r.blocks.set(block, (r.blocks.get(block) ?? 0) + 1);
    if (isHan(cp)) r.han++;
    if (isHangul(cp)) r.hangul++;
    r.distinct.add(cp);
  }
  return r;
}

/**
 * Whether a reading is text: at most one unit in 100 that no text holds (none in a head under
 * 100 units), and 90% of its characters in Latin-1 and five script blocks. Text, with the
 * punctuation, kana and fullwidth forms beside CJK, fills those (the fixtures' Russian, Greek,
 * Arabic, Chinese, Japanese, Korean, Czech, French: 100%, and a list with titles in eight
 * languages); random bytes spread over CJK (42%), Hangul (17%) and scores of blocks (1,024
 * random bytes: 70% at most in 2,000 draws), and one unit in six is private use, a lone
 * surrogate or unassigned. Under 128 units a few such characters are chance (64 random bytes
 * read as text 35 times in 20,000), so two at least must be ASCII, as a note's spaces and line
 * break are: 6 of 600,000 random heads of 8 to 1,024 bytes read as text then, none of 64
 * bytes or more. A short Chinese, Japanese or Korean text has none (a title, a line of a
 * note: '東京都の天気予報' is 16 bytes): it is text when each character is its language's
 * (isHan's, or isHangul's, ASCII besides) and half of them differ. A random unit is isHan's
 * one time in three and isHangul's one in six: 16 more of 200,000 random heads of 10 to 60
 * bytes read as text (37,266 did), none of 7,174 binary files' heads nor of 12,314 files under
 * 256 bytes. A legacy encoding's bytes (GBK read so is Hangul, Shift_JIS ideographs) hold no
 * NUL or control, and are not asked.
 */
function isText(r: Reading): boolean {
  if (r.units === 0 || r.bad * 100 > r.units) return false;
  if (r.units < 128 && r.ascii < 2) return eastAsian(r);
  const top = [...r.blocks].filter(([block]) => block !== 0).map(([, n]) => n).sort((a, b) => b - a).slice(0, 5);
  const chars = [...r.blocks.values()].reduce((a, b) => a + b, 0);
  return (r.blocks.get(0) ?? 0) + top.reduce((a, b) => a + b, 0) >= chars * 0.9;
}

/** Whether a short reading with no spaces is Chinese, Japanese or Korean text (isText). */
function eastAsian(r: Reading): boolean {
  const chars = [...r.blocks.values()].reduce((a, b) => a + b, 0);
  return r.bad === 0 && (r.han + r.ascii === chars || r.hangul + r.ascii === chars) && r.distinct.size * 2 >= chars;
}

/** Printable ASCII, tab and line breaks: 8-bit text's bytes, of which UTF-16 text has 69% at most (the fixtures' Japanese; 88% in a run of hiragana alone). */
const asciiText = (b: number): boolean => (b >= 0x20 && b <= 0x7e) || b === 0x09 || b === 0x0a || b === 0x0d;

const mostlyAscii = (head: Uint8Array): boolean => head.filter(asciiText).length >= head.length * 0.9;

/** Valid UTF-8, a sequence cut at the end allowed. */
function validUtf8(head: Uint8Array): boolean {
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(head, { stream: true });
    return true;
  } catch {
    return false;
  }
}

/**
 * Whether bytes read as 8-bit text, whatever controls stand among them: valid UTF-8, or 90%
 * ASCII's text (a legacy page's markup and Latin words). A raw deflate, zlib or brotli stream
 * is neither: none of 1,314 (the corpora's 146 pages compressed the three ways, their first
 * 64, 200 and 1,024 bytes) was, and none held more than 57% ASCII text.
 */
export const eightBitText = (head: Uint8Array): boolean => validUtf8(head) || mostlyAscii(head);

/**
 * UTF-16 without a byte-order mark, told by its first 1024 bytes, in any script: Notepad's
 * "Unicode", Excel's "Unicode Text" and Windows PowerShell's `>` write it so. Only bytes that
 * are no 8-bit text are read so: with a NUL or a control (isControl) among them, less than 90%
 * ASCII text (English read two bytes at a time is CJK: "Bush hid the facts"), and not UTF-8
 * past ASCII (Russian in UTF-8 read so is Hangul). A byte order's reading must be text
 * (isText); when both are, the one with more ASCII ('Hello' is U+0048… one way, U+4800… the
 * other), then in fewer blocks. 8,742 binary files (images, fonts, PDFs, archives, wasm,
 * SQLite, shared libraries, .mo catalogues: the corpora, node_modules, Chromium's folder,
 * /usr/share) and 273 compressed pages read as neither, nor 24,589 other files (text).
 */
export function utf16Unmarked(buf: Uint8Array): 'utf-16le' | 'utf-16be' | undefined {
  const head = buf.subarray(0, Math.min(buf.length, 1024) & ~1);
  if (head.length < 8 || !head.some((b) => b === 0 || isControl(b))) return undefined;
  // UTF-8 past ASCII: bytes that are all ASCII (Cyrillic's UTF-16 is) are valid UTF-8 too.
  if (mostlyAscii(head) || (head.some((b) => b > 0x7f) && validUtf8(head))) return undefined;
  const le = read(head, true);
  const be = read(head, false);
  const [leText, beText] = [isText(le), isText(be)];
  if (leText && beText) return be.ascii > le.ascii || (be.ascii === le.ascii && be.blocks.size < le.blocks.size) ? 'utf-16be' : 'utf-16le';
  return leText ? 'utf-16le' : beText ? 'utf-16be' : undefined;
}
