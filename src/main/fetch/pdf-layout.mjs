// Page text in reading order from pdf.js text items, for the PDF pool's worker. Plain ESM
// JavaScript because the worker runs outside the TypeScript loader; types in pdf-layout.d.mts.
//
// 1. Items become segments: runs of items on one baseline (superscripts and subscripts
//    included) without a gap wider than an em between them.
// 2. Segments become bands: groups whose vertical extents overlap, top to bottom.
// 3. Consecutive bands whose union leaves a vertical gutter free are a multi-column run:
//    its columns are read one after the other (left to right, or right to left on an RTL
//    page), each laid out the same way. Other bands are single-column lines. A run ends
//    at a wide blank strip below which the columns change (a table across the page, then
//    the text columns).
// 4. A line with right-to-left letters is in visual order in the PDF: the Unicode bidi
//    algorithm (bidi-js) puts it in logical order; presentation forms become letters (NFKC).
import { createRequire } from 'node:module';

// Loaded on the first right-to-left line: most documents need none, and a worker that
// starts faster answers its first PDF sooner.
const require = createRequire(import.meta.url);
let bidiAlgorithm;
const bidi = () => (bidiAlgorithm ??= require('bidi-js')());

const RTL_CHAR = /[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufefc]/;
const RTL_CHARS = /[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufefc]/g;
const LTR_CHARS = /[A-Za-z\u00c0-\u024f\u0370-\u03ff\u0400-\u04ff]/g;
// Latin, Hebrew and Arabic presentation forms (ligatures, contextual letter shapes).
const PRESENTATION = /[\ufb00-\ufdff\ufe70-\ufeff]+/g;
const BLANK = /^\s*$/;

/** A segment may not bridge a gap wider than this many ems: wider is a column gutter or a table cell. */
const SEGMENT_GAP_EM = 1.0;
/** Glyphs further apart than this many ems have a space between them. */
const WORD_GAP_EM = 0.15;
/** A gutter between columns is at least this wide, in ems of the page's usual font size. */
const GUTTER_EM = 0.9;
/** A multi-column run has at least this many bands (lines); fewer is a table row or an aside. */
const MIN_RUN_BANDS = 3;
/**
 * A column is at least this many ems wide. Narrow columns of a table are read one after
 * the other too, as pdftotext reads them; measured on the corpus (bench fidelity), wider
 * minimums read tables and listings row by row and agree less.
 */
const MIN_COLUMN_EM = 2;
/**
 * A column's lines follow each other at most this many ems apart (the median step). Lines
 * further apart are cells of rows (headings with their date and tag, a form), each read
 * across the page, not a column of text.
 */
const MAX_COLUMN_STEP_EM = 4;
/**
 * A run of columns ends at a blank strip across the page this many ems high when what
 * follows is set in other columns: a table or figure spanning a two-column page is read
 * whole, then the columns under it (otherwise each half went with its column). Measured on
 * the bench's PDFs: 2 changed the reading of 4 pages (a table across a page, the last cells
 * of a coding table, a figure's labels) and lowered no agreement; 1.5 moved a Cyrillic
 * manual's blocks for less agreement.
 */
const CUT_EM = 2;
/**
 * Columns of running text, as a reader counts a page's columns, are at least this many ems
 * wide and this many lines long; narrower or shorter ones side by side are a table's, a
 * figure's labels, margin notes or code beside its comments, read one after the other all
 * the same. Counted as columns, a two-column paper was said to have 9 (a table's), and a
 * book's cover notes 4. Measured on the bench's PDFs: a two-column paper's columns are 26-30
 * ems wide, a book index's 17-18; a table's or a figure's under 12 (one of 17 beside one of 7,
 * inside a column), and code beside its comments 20-35 ems wide over 3 or 4 lines.
 */
const TEXT_COLUMN_EM = 12;
const TEXT_COLUMN_LINES = 5;
/** Columns inside columns are looked for this deep, no deeper. */
const MAX_DEPTH = 3;
/**
 * A heading's type is at least this many times the page's usual size. A paper's title is
 * 1.4 to 2 times its body (17.9 pt over 9 in one, 17.2 over 10 in another); a bold lead-in
 * or a section number one size up (11 over 10, 10.9 over 10.5) is not a heading.
 */
const HEADING_EM = 1.25;
/** A heading runs over at most this many lines. */
const HEADING_LINES = 4;
const TWO_LETTERS = /\p{L}[^]*\p{L}/u;

export const presentationToLetters = (s) => s.replace(PRESENTATION, (m) => m.normalize('NFKC'));

// TeX and other typesetters draw an accent they have no accented glyph for as two glyphs: the
// accent on its own (a spacing character: ¨ ´ ˆ …) and the letter, over an i a dotless ı. An
// accent above comes first; a cedilla or an ogonek before or after its letter ("fa¸cade",
// "i˛"). Read as drawn, "naïve" was "na¨ıve", which no search for naive or naïve finds.
const COMBINING = {
  '\u00a8': '\u0308', '\u00b4': '\u0301', '\u02cb': '\u0300', '\u02c6': '\u0302', '\u02dc': '\u0303', '\u00af': '\u0304',
  '\u02d8': '\u0306', '\u02d9': '\u0307', '\u02da': '\u030a', '\u02dd': '\u030b', '\u02c7': '\u030c', '\u00b8': '\u0327', '\u02db': '\u0328',
};
const BELOW = new Set(['\u00b8', '\u02db']);
const ACCENT_BY_LETTER = /(\p{Script=Latin})?([\u00a8\u00b4\u02cb\u02c6\u02dc\u00af\u02d8\u02d9\u02da\u02dd\u02c7\u00b8\u02db])(\p{Script=Latin})?/gu;
const HAS_ACCENT = /[\u00a8\u00b4\u02cb\u02c6\u02dc\u00af\u02d8\u02d9\u02da\u02dd\u02c7\u00b8\u02db]/;
const DOTLESS = { '\u0131': 'i', '\u0237': 'j' };

/** The letter with the accent, when Unicode has it as one character (ï, ā, ç, ő), else undefined. */
function accented(letter, accent) {
  const c = `${DOTLESS[letter] ?? letter}${COMBINING[accent]}`.normalize('NFC');
  return [...c].length === 1 ? c : undefined;
}

/**
 * A spacing accent drawn beside a Latin letter, as the accented letter: "na¨ıve" is "naïve",
 * "¯a" is "ā", "fa¸cade" is "façade", "i˛" is "į". Only where Unicode has that letter as one
 * character; an accent beside a space, a digit or another script stays as written (a keyboard
 * chart listing the accents, a font's fallback codes).
 */
export function accentsOnLetters(s) {
  if (!HAS_ACCENT.test(s)) return s;
  return s.replace(ACCENT_BY_LETTER, (m, before, accent, after) => {
    const next = after === undefined ? undefined : accented(after, accent);
    if (next !== undefined) return `${before ?? ''}${next}`;
    const prev = before !== undefined && BELOW.has(accent) ? accented(before, accent) : undefined;
    return prev !== undefined ? `${prev}${after ?? ''}` : m;
  });
}

/**
 * Control characters a font without a Unicode map gives for its glyphs (greektonoi's
 * missing letters came out as NUL, cjhebrew's Hebrew points as C1 codes U+0080-U+009F):
 * they show as nothing or as boxes, and one NUL makes grep call the saved text a binary file.
 */
const CONTROL_CHARS = /[^\P{Cc}\t\n]/gu;

/** A line's text as letters: presentation forms (NFKC) and accents drawn apart put back on their letters. */
const asLetters = (s) => accentsOnLetters(presentationToLetters(s));

/** Visual order → logical order for a line holding right-to-left letters. */
export function logicalLine(visual) {
  const rtl = (visual.match(RTL_CHARS) ?? []).length;
  const ltr = (visual.match(LTR_CHARS) ?? []).length;
  const levels = bidi().getEmbeddingLevels(visual, rtl >= ltr ? 'rtl' : 'ltr');
  return bidi().getReorderedString(visual, levels);
}

/** pdf.js gives an item it judged right-to-left in logical order; its glyphs were drawn in visual order. */
function visualOf(item) {
  if (item.dir !== 'rtl' || !RTL_CHAR.test(item.str)) return item.str;
  const levels = bidi().getEmbeddingLevels(item.str, 'rtl');
  return bidi().getReorderedString(item.str, levels);
}

const MARKS_ONLY = /^\p{M}+$/u;

/**
 * An item's width, guessed from its length where the file gives none; none for a combining
 * mark drawn alone (a vector's arrow over its letter), which given half an em went before
 * the letter it sits on ("⃗ F", not "F⃗").
 */
const widthOf = (it, size) => (it.width > 0 ? it.width : MARKS_ONLY.test(it.str) ? 0 : it.str.length * size * 0.5);

/**
 * The page's items, and those drawn turned (a landscape table on a portrait page, a margin
 * note up the side) by the angle of their baseline, each placed in its own upright frame: they
 * are laid out like the page's, a line per baseline. Joined into one string, the lines of a
 * turned table ran together ("line one.Sideways line two.").
 */
function toItems(content) {
  const flat = [];
  const turned = new Map();
  for (const it of content.items) {
    if (typeof it.str !== 'string' || !Array.isArray(it.transform)) continue;
    const [a, b, c, d, e, f] = it.transform;
    // Turned is a baseline at an angle. A slant alone (c without b: the oblique a writer
    // makes of an upright font for italics) keeps the baseline level: taken for turned, a
    // book's italic title left its sentence for the page's end ("This PDF version of is
    // licensed", then "Free Culture" alone under the page).
    if (Math.abs(b) > Math.abs(a) * 0.05) {
      const angle = Math.round((Math.atan2(b, a) * 180) / Math.PI);
      const cos = Math.cos((angle * Math.PI) / 180);
      const sin = Math.sin((angle * Math.PI) / 180);
      const size = Math.hypot(c, d) || Math.hypot(a, b) || 1;
      const x = e * cos + f * sin;
      const width = widthOf(it, size);
      if (!turned.has(angle)) turned.set(angle, []);
      turned.get(angle).push({ str: it.str, dir: it.dir, x0: x, x1: x + width, y: f * cos - e * sin, size, blank: BLANK.test(it.str) });
      continue;
    }
    const size = Math.abs(d) || Math.abs(a) || 1;
    const width = widthOf(it, size);
    flat.push({ str: it.str, dir: it.dir, x0: e, x1: e + width, y: f, size, blank: BLANK.test(it.str) });
  }
  return { flat, turned: [...turned.values()] };
}

function segmentsOf(items) {
  const segs = [];
  let seg = null;
  for (const it of items) {
    if (it.blank) {
      // An empty item is pdf.js marking a step back or down (a subscript set after its
      // superscript, Γ then ᵃ then ₁), not a blank the file draws: taken for one, "Γ1𝑎" was "Γ 1𝑎".
      if (seg && it.str !== '') seg.space = true;
      continue;
    }
    if (seg && continues(seg, it)) {
      seg.items.push({ ...it, space: seg.space });
      seg.space = false;
      seg.x0 = Math.min(seg.x0, it.x0);
      seg.x1 = Math.max(seg.x1, it.x1);
      if (it.size > seg.size) {
        seg.size = it.size;
        seg.y = it.y;
      }
    } else {
      seg = { items: [{ ...it, space: false }], x0: it.x0, x1: it.x1, y: it.y, size: it.size, space: false };
      segs.push(seg);
    }
  }
  return segs;
}

function continues(seg, it) {
  const s = Math.max(seg.size, it.size);
  if (Math.abs(it.y - seg.y) > 0.6 * s) return false;
  const tol = 0.5 * s;
  // A smaller item off the baseline is a superscript or subscript; one of the same size is
  // another line, unless it touches the segment's end: a letter the font sets lower or higher
  // inside a word (TeX's logo drops its E 0.22-0.27 em), read as "LAT E X" in three segments.
  if (Math.abs(it.y - seg.y) > 0.2 * s && Math.min(seg.size, it.size) > 0.85 * s && !touchesEnd(seg, it, tol)) return false;
  if (it.x0 >= seg.x1 - tol) return it.x0 - seg.x1 <= SEGMENT_GAP_EM * s;
  if (it.x1 <= seg.x0 + tol) return seg.x0 - it.x1 <= SEGMENT_GAP_EM * s;
  return true; // drawn over the segment: an accent, a bold overprint
}

/** Whether the item starts where the segment ends, closer than the gap visualText reads as a space. */
const touchesEnd = (seg, it, tol) => it.x0 >= seg.x1 - tol && it.x0 - seg.x1 <= WORD_GAP_EM * it.size;

const raised = (it, seg) => it.size < 0.9 * seg.size && it.y > seg.y + 0.2 * seg.size;

const SUPERSCRIPT = { 0: '⁰', 1: '¹', 2: '²', 3: '³', 4: '⁴', 5: '⁵', 6: '⁶', 7: '⁷', 8: '⁸', 9: '⁹', '+': '⁺', '-': '⁻', '\u2212': '⁻' };
// A number, signed (an exponent), or a list of note marks that starts with one ("1,†,∗": an
// author's affiliation and notes, which a file may draw as "1," "†" "," "∗").
const RAISED_NUMBER = /^(?:[+\-\u2212]?\d+|\d+(?:,(?:\d+|[*∗†‡§¶]))*,?)$/u;

/**
 * A raised number after a word (a note's mark, an exponent) in superscript digits: read as
 * drawn, "property" with its note mark 2 was the word "property2", which a search for the
 * word "property" does not find (108 marks in a 352-page book; a paper's authors "Lienhard1,†,∗"). Folded
 * (NFKC), "property²" is "property2" again, as pdftotext writes it.
 */
const superscript = (str) => (RAISED_NUMBER.test(str) ? [...str].map((c) => SUPERSCRIPT[c] ?? c).join('') : str);

/**
 * Whether the item opens with a period drawn back under the end of the item before it and
 * lower: TeX's \d{h} sets a period 0.25 em down, 0.4 em back under the h (under the last
 * letter, so less than an em back). A period after a word starts at its end, on its baseline.
 */
const dotUnder = (it, prev, lastX1) =>
  it.str.startsWith('.') && it.x0 < lastX1 - 0.1 * it.size && it.x0 > lastX1 - it.size && it.y < prev.y - 0.15 * it.size;

/** The text's last letter with a dot below it (ḥ, ṭ, ṣ: one character where Unicode has one). */
const withDotBelow = (out) => out.replace(/\p{L}$/u, (c) => `${c}\u0323`.normalize('NFC'));

/**
 * The segment's text in visual order (left to right), with spaces where the glyphs leave a
 * gap, and after a raised mark that opens the line (a footnote's or an affiliation's number:
 * "¹This feature…" is "1 This feature…", as a superscript after a word stays on it).
 */
function visualText(seg) {
  const items = seg.items.length > 1 ? marksOnBases(seg.items).sort((p, q) => p.x0 - q.x0) : seg.items;
  let out = '';
  let lastX1 = -Infinity;
  let leadingMark = items.length > 1 && raised(items[0], seg);
  for (let k = 0; k < items.length; k++) {
    const it = items[k];
    let str = k > 0 && raised(it, seg) ? superscript(visualOf(it)) : visualOf(it);
    if (k > 0 && dotUnder(it, items[k - 1], lastX1) && /\p{L}$/u.test(out)) {
      out = withDotBelow(out);
      str = str.slice(1);
    }
    let gap = it.space || it.x0 - lastX1 > WORD_GAP_EM * it.size;
    if (leadingMark && k > 0 && !raised(it, seg)) {
      gap ||= /^\p{L}/u.test(str);
      leadingMark = false;
    }
    if (out && !/\s$/.test(out) && !/^\s/.test(str) && gap) out += ' ';
    out += str;
    lastX1 = Math.max(lastX1, it.x1);
  }
  return out;
}

const loneMark = (it) => it.x1 === it.x0 && MARKS_ONLY.test(it.str);

/**
 * The items with each combining mark drawn on its own (widthOf gives it none) put on the glyph
 * it is drawn over: the glyph of the nearest item whose span holds its x, or is nearest to it
 * within an em, that glyph guessed from the item's width shared evenly among its characters.
 * Sorted by x as an item of its own, a mark drawn over the first letter of "A ×" (one item, as
 * pdf.js joins glyphs of one font) went after the ×: "A ×⃗". A mark with no glyph that near
 * (alone in a table's cell), or over right-to-left text (reordered later), stays an item.
 */
function marksOnBases(items) {
  const marks = items.filter(loneMark);
  if (marks.length === 0) return [...items];
  const out = items.filter((it) => !loneMark(it));
  for (const m of marks) {
    const dist = (it) => Math.max(0, it.x0 - m.x0, m.x0 - it.x1);
    let host = -1;
    for (let k = 0; k < out.length; k++) if (!out[k].blank && (host < 0 || dist(out[k]) <= dist(out[host]))) host = k;
    const it = out[host];
    if (!it || dist(it) > m.size || RTL_CHAR.test(it.str)) {
      out.push(m);
      continue;
    }
    const chars = [...it.str];
    const bases = chars.flatMap((c, k) => (/\p{M}/u.test(c) ? [] : [k]));
    const share = (it.x1 - it.x0) / Math.max(1, bases.length);
    const n = Math.min(bases.length - 1, Math.max(0, Math.floor((m.x0 - it.x0) / (share || 1))));
    let at = (bases[n] ?? chars.length - 1) + 1;
    while (at < chars.length && /\p{M}/u.test(chars[at])) at++;
    out[host] = { ...it, str: [...chars.slice(0, at), m.str, ...chars.slice(at)].join('') };
  }
  return out;
}

const top = (s) => s.y + 0.7 * s.size;
const bottom = (s) => s.y - 0.2 * s.size;

function bandsOf(segs) {
  const sorted = [...segs].sort((p, q) => top(q) - top(p));
  const bands = [];
  let cur = null;
  for (const s of sorted) {
    if (cur && top(s) > cur.bottom) {
      cur.segs.push(s);
      cur.bottom = Math.min(cur.bottom, bottom(s));
      cur.x0 = Math.min(cur.x0, s.x0);
      cur.x1 = Math.max(cur.x1, s.x1);
    } else {
      cur = { segs: [s], bottom: bottom(s), x0: s.x0, x1: s.x1 };
      bands.push(cur);
    }
  }
  return bands;
}

/** Free vertical strips (gutters) at least `min` wide inside the union of the segments' x ranges. */
function gutters(segs, min) {
  const iv = segs.map((s) => [s.x0, s.x1]).sort((p, q) => p[0] - q[0]);
  const out = [];
  let end = iv[0][1];
  for (let i = 1; i < iv.length; i++) {
    const [a, b] = iv[i];
    if (a - end >= min) out.push([end, a]);
    end = Math.max(end, b);
  }
  return out;
}

/** The x ranges covered by the segments, merged, sorted: `cov` (already merged) plus the new segments. */
function cover(cov, segs) {
  const iv = cov.concat(segs.map((s) => [s.x0, s.x1])).sort((p, q) => p[0] - q[0]);
  const out = [iv[0].slice()];
  for (let i = 1; i < iv.length; i++) {
    const last = out[out.length - 1];
    if (iv[i][0] <= last[1]) last[1] = Math.max(last[1], iv[i][1]);
    else out.push(iv[i].slice());
  }
  return out;
}

function hasGap(cov, min) {
  for (let i = 1; i < cov.length; i++) if (cov[i][0] - cov[i - 1][1] >= min) return true;
  return false;
}

/** Whether a blank strip at least CUT_EM high lies between band k - 1 and band k. */
const blankAbove = (bands, k, em) => bands[k - 1].bottom - top(bands[k].segs[0]) >= CUT_EM * em;

/** The free strips between the covered ranges of `cov`, at least `min` wide. */
function gapsOf(cov, min) {
  const out = [];
  for (let i = 1; i < cov.length; i++) if (cov[i][0] - cov[i - 1][1] >= min) out.push([cov[i - 1][1], cov[i][0]]);
  return out;
}

/**
 * Whether the bands from `k` on (up to the next wide gap) are set in other columns than the
 * run above them (`cov`): a table or figure across a two-column page, then the two columns.
 * Columns that go on below the gap have the same gutters.
 */
function otherColumnsBelow(bands, k, cov, min, em) {
  let below = [];
  for (let n = k; n < bands.length && n < k + 2 * MIN_RUN_BANDS; n++) {
    if (n > k && blankAbove(bands, n, em)) break;
    below = cover(below, bands[n].segs);
  }
  const a = gapsOf(cov, min);
  const b = gapsOf(below, min);
  if (b.length === 0) return false;
  // A gutter of the part below that the part above lacks, or the other way round.
  const lacks = (xs, ys) => xs.some(([x0, x1]) => !ys.some(([y0, y1]) => y0 < x1 + em && x0 < y1 + em));
  return lacks(a, b) || lacks(b, a);
}

function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.floor(s.length / 2)] : 12;
}

/**
 * Whether the strips (`width` measures one) are the cells of a chart (a letter over its code,
 * 15 cells of 0.3-1 em in a manual's table), not columns: most of four or more narrower than a column.
 * Merged two or three at a time to make columns wide enough, a chart was read in chunks, its
 * caption between them; its rows are read across. Most, not all: a caption or a row's label
 * beside the cells makes one strip wide. Four: a table's commands beside their output, one
 * glyph each (2 or 3 strips), is a table whose columns are read one after the other.
 */
const isChart = (cols, width, em) => cols.length >= 4 && 2 * cols.filter((c) => width(c) < MIN_COLUMN_EM * em).length > cols.length;

/**
 * The segments of a run split at its gutters, or null when no split leaves real columns:
 * each column holds at least MIN_RUN_BANDS lines and is MIN_COLUMN_EM wide. A column too
 * thin or too short is merged with its neighbour.
 */
function columnsOf(segs, cuts, em) {
  cuts = [...cuts];
  for (let first = true; ; first = false) {
    if (cuts.length === 0) return null;
    const cols = Array.from({ length: cuts.length + 1 }, () => []);
    for (const s of segs) {
      let k = 0;
      while (k < cuts.length && s.x0 >= cuts[k][1] - 0.01) k++;
      cols[k].push(s);
    }
    const width = (c) => Math.max(...c.map((s) => s.x1)) - Math.min(...c.map((s) => s.x0));
    if (first && isChart(cols, width, em)) return null;
    let bad = cols.findIndex((c) => {
      const rows = [...new Set(c.map((s) => Math.round(s.y / em)))].sort((a, b) => b - a);
      return rows.length < MIN_RUN_BANDS || width(c) < MIN_COLUMN_EM * em || median(rows.slice(1).map((r, k) => rows[k] - r)) > MAX_COLUMN_STEP_EM;
    });
    if (bad < 0) return cols;
    cuts.splice(bad < cuts.length ? bad : bad - 1, 1);
  }
}

/**
 * A line's text in logical order. A line of one segment with right-to-left letters goes
 * through the bidi algorithm whole. Segments further apart than a word gap (table cells,
 * a heading and its page number) are parts of their own: each is put in logical order
 * alone, and the parts follow the page's direction (left to right, or right to left on an
 * RTL page), as the cells of a table row are read.
 */
function lineText(segs, ctx) {
  const visual = segs.map(visualText);
  if (!visual.some((t) => RTL_CHAR.test(t))) return visual.join(' ');
  const parts = visual.map((t) => t.replace(/[ \t]+/g, ' ').trim()).filter((t) => t !== '');
  ctx.bidiLines++;
  if (parts.length === 1 || ctx.rtlPage) return logicalLine(parts.join(' '));
  return parts.map((t) => (RTL_CHAR.test(t) ? logicalLine(t) : t)).join(' ');
}

/** Whether a column's segments are a column of running text (TEXT_COLUMN_EM, TEXT_COLUMN_LINES). */
function isTextColumn(segs, em) {
  const width = Math.max(...segs.map((s) => s.x1)) - Math.min(...segs.map((s) => s.x0));
  return width >= TEXT_COLUMN_EM * em && new Set(segs.map((s) => Math.round(s.y))).size >= TEXT_COLUMN_LINES;
}

/** Whether every segment lies within the x range of one of the columns. */
function insideColumns(segs, columns) {
  const ranges = columns.map((c) => [Math.min(...c.map((s) => s.x0)), Math.max(...c.map((s) => s.x1))]);
  return segs.every((s) => ranges.some(([a, b]) => s.x0 >= a - 1 && s.x1 <= b + 1));
}

/**
 * The size most of a line's letters are set in (an item's size, by its characters): its
 * type, for Markdown's headings. The line's `size` is its first segment's, which a footnote's
 * raised mark or a drop cap may set apart from the rest.
 */
function typeSize(segs) {
  const chars = new Map();
  for (const s of segs) {
    for (const it of s.items) {
      const size = Math.round(it.size * 10) / 10;
      chars.set(size, (chars.get(size) ?? 0) + it.str.replace(/\s+/g, '').length);
    }
  }
  let best = 0;
  let most = -1;
  for (const [size, n] of chars) if (n > most || (n === most && size > best)) [best, most] = [size, n];
  return best;
}

/** Lines of a group of bands read as one column: segments on one baseline make one line. */
function linesOf(bands, ctx) {
  const lines = [];
  for (const band of bands) {
    const segs = [...band.segs].sort((p, q) => q.y - p.y);
    let line = null;
    for (const s of segs) {
      if (line && Math.abs(s.y - line.y) <= 0.4 * Math.max(s.size, line.size)) line.segs.push(s);
      else {
        line = { segs: [s], y: s.y, size: s.size };
        lines.push(line);
      }
    }
  }
  const out = lines.map((l) => ({ y: l.y, size: l.size, type: typeSize(l.segs), text: lineText(l.segs.sort((p, q) => p.x0 - q.x0), ctx) }));
  ctx.lines.push(...out);
  return out;
}

/**
 * The page's heading: its lines in the largest type that holds words, read in order from
 * the first, while they follow as one paragraph (a title wrapped over two or three lines);
 * '' when no type on the page is HEADING_EM times its usual size (a page all in one size has
 * no heading to tell apart). On a first page, that is the document's title as printed.
 */
function headingOf(lines, em) {
  let max = 0;
  for (const l of lines) if (l.size > max && TWO_LETTERS.test(l.text)) max = l.size;
  if (max < HEADING_EM * em) return '';
  const inType = (l) => l.size >= 0.95 * max && l.size <= 1.05 * max;
  const first = lines.findIndex((l) => inType(l) && TWO_LETTERS.test(l.text));
  const parts = [lines[first]];
  for (let k = first + 1; k < lines.length && parts.length < HEADING_LINES; k++) {
    const l = lines[k];
    const prev = parts[parts.length - 1];
    if (!inType(l) || prev.y - l.y > 1.7 * max || prev.y <= l.y) break;
    parts.push(l);
  }
  return asLetters(parts.map((l) => l.text).join(' '))
    .replace(/[\s\p{Cc}]+/gu, ' ')
    .replace(/\s*[*∗†‡§¶]+$/u, '') // a footnote's mark after the title
    .trim()
    .slice(0, 200);
}

/**
 * Reading order of the segments as blocks of lines. `ctx.columns` records the most columns of
 * text seen side by side, `ctx.narrowColumns` whether narrower ones (a table's) were read one
 * after the other, `ctx.rtlPage` orders columns right to left.
 */
function layout(segs, ctx, depth) {
  const blocks = [];
  if (segs.length === 0) return blocks;
  const bands = bandsOf(segs);
  const min = Math.max(4, GUTTER_EM * ctx.em);
  let single = [];
  const flush = () => {
    if (single.length) blocks.push(...paragraphs(linesOf(single, ctx)));
    single = [];
  };
  let i = 0;
  while (i < bands.length) {
    let j = i;
    // A run of columns starts at a line with a gutter of its own; lines above it that stay
    // inside one column are pulled in below, and a caption or title across the gutter stays out.
    if (depth < MAX_DEPTH && hasGap(cover([], bands[i].segs), min)) {
      let cov = cover([], bands[i].segs);
      while (j + 1 < bands.length) {
        if (blankAbove(bands, j + 1, ctx.em) && otherColumnsBelow(bands, j + 1, cov, min, ctx.em)) break;
        const next = cover(cov, bands[j + 1].segs);
        if (!hasGap(next, min)) break;
        cov = next;
        j++;
      }
      let union = bands.slice(i, j + 1).flatMap((b) => b.segs);
      let columns = j - i + 1 >= MIN_RUN_BANDS ? columnsOf(union, gutters(union, min), ctx.em) : null;
      if (columns) {
        // Lines just above the run that stay inside its columns are the top of a column
        // (a paragraph begun before a margin note or the other column starts): they join it.
        let pulled = 0;
        for (let k = single.length - 1; k >= 0 && insideColumns(single[k].segs, columns); k--) pulled++;
        if (pulled) {
          const more = columnsOf(single.slice(single.length - pulled).flatMap((b) => b.segs).concat(union), gutters(union, min), ctx.em);
          if (more && more.length === columns.length) {
            union = single.splice(single.length - pulled).flatMap((b) => b.segs).concat(union);
            columns = more;
          }
        }
        flush();
        if (columns.every((c) => isTextColumn(c, ctx.em))) ctx.columns = Math.max(ctx.columns, columns.length);
        else ctx.narrowColumns = true;
        if (ctx.rtlPage) columns.reverse();
        for (const col of columns) blocks.push(...layout(col, ctx, depth + 1));
        i = j + 1;
        continue;
      }
    }
    single.push(bands[i]);
    i++;
  }
  flush();
  return blocks;
}

/** Lines → blocks (of the lines: text, size, type), split where the space between two lines is wider than a paragraph's leading. */
function paragraphs(lines) {
  const blocks = [];
  let cur = [];
  let prev = null;
  for (const l of lines) {
    if (prev && prev.y - l.y > 1.7 * Math.max(prev.size, l.size)) {
      blocks.push(cur);
      cur = [];
    }
    cur.push(l);
    prev = l;
  }
  if (cur.length) blocks.push(cur);
  return blocks;
}

/**
 * One page's text in reading order: blocks of lines, blocks separated by a blank line.
 * Returns the text, the type size of each of its lines (types: a blank line has none), what
 * was done (columns: most columns of text side by side; narrowColumns: narrower ones, a
 * table's, read one after the other; bidiLines: lines reordered), and the page's heading
 * (headingOf).
 */
export function pageText(content) {
  const { flat, turned } = toItems(content);
  const segs = segmentsOf(flat);
  let rtl = 0;
  let ltr = 0;
  for (const it of flat) {
    if (!RTL_CHAR.test(it.str)) continue;
    rtl += (it.str.match(RTL_CHARS) ?? []).length;
    ltr += (it.str.match(LTR_CHARS) ?? []).length;
  }
  if (rtl > 0) for (const it of flat) if (!RTL_CHAR.test(it.str)) ltr += (it.str.match(LTR_CHARS) ?? []).length;
  const ctx = { em: median(segs.map((s) => s.size)), columns: 1, narrowColumns: false, rtlPage: rtl > ltr, bidiLines: 0, lines: [] };
  const blocks = layout(segs, ctx, 0);
  for (const items of turned) {
    const segs = segmentsOf(items);
    const own = { ...ctx, em: median(segs.map((s) => s.size)), columns: 1, narrowColumns: false, bidiLines: 0, lines: [] };
    blocks.push(...layout(segs, own, 0));
    ctx.bidiLines += own.bidiLines;
    ctx.narrowColumns ||= own.narrowColumns;
  }
  // Each line of the text with its type size, in order (`types`, for Markdown's headings).
  const types = [];
  const text = blocks
    .map((lines) =>
      lines
        .map((line) => ({ text: asLetters(line.text.replace(CONTROL_CHARS, '').replace(/[ \t]+/g, ' ').trim()), type: line.type }))
        .filter((l) => l.text !== '')
        .map((l) => {
          types.push(l.type);
          return l.text;
        })
        .join('\n'),
    )
    .filter((b) => b !== '')
    .join('\n\n');
  return { text, types, columns: ctx.columns, narrowColumns: ctx.narrowColumns, bidiLines: ctx.bidiLines, heading: headingOf(ctx.lines, ctx.em) };
}
