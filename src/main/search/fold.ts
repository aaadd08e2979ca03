import { arabicForms, arabicFormsWithMap, hasArabicLetter } from './arabic';

/**
 * The text the full-text index sees, made from a result's text in JS before FTS5's own
 * tokenizer (unicode61 remove_diacritics 2) runs over it. Queries pass through the same
 * function, so index and query always agree.
 *
 * What unicode61 does not do on its own, measured on the fixtures in
 * test/unit/search.test.ts:
 * - Arabic and Hebrew vowel marks (harakat, niqqud) split a word into one-letter tokens,
 *   so the unvoweled كتب (how people type) never found the voweled كَتَبَ. They are dropped.
 * - Chinese, Japanese and Korean are written without spaces between words, so unicode61
 *   makes a whole sentence one token and 東京 is not found in 東京都は日本の首都です.
 *   Each such character becomes its own token; a query's run of them becomes a phrase, so
 *   any substring of one or more characters is found (the trigram tokenizer needs three,
 *   and most Chinese words are two).
 * - Thai, Lao, Khmer and Burmese are written without spaces too, but a character is no word
 *   there: such a run is cut into words by ICU's dictionaries (Intl.Segmenter), so กิน is
 *   found in ฉันกินข้าว.
 * - remove_diacritics covers Latin letters only: βιβλιοθηκη did not find βιβλιοθήκη. Letters
 *   people type in another form (LETTER_FORMS) are written in the one they type.
 * - A soft hyphen or a zero-width character inside a word cut it in two, so Straßen\u00ADbahn
 *   was the tokens straßen and bahn (INVISIBLE).
 * - Arabic writes و (and), ف (so), ب (with), ك (as), ل (for) and the article ال joined to the
 *   word: الكتاب did not find والكتاب or بالكتاب. Each Arabic word is held without them, when
 *   three letters or more remain (arabic.ts): one word for one, so a phrase's words keep their places.
 */

// Arabic harakat, Quranic marks, superscript alef and tatweel; Hebrew cantillation and niqqud.
// Each mark is removed on its own, so a class of combining characters is what is meant here.
// eslint-disable-next-line no-misleading-character-class
const SEMITIC_MARKS = /[\u0591-\u05BD\u05BF\u05C1\u05C2\u05C4\u05C5\u05C7\u0610-\u061A\u0640\u064B-\u065F\u0670\u06D6-\u06DC\u06DF-\u06E4\u06E7\u06E8\u06EA-\u06ED]/g;

/**
 * Thai, Lao, Khmer and Burmese (their Unicode blocks): written without spaces between words, in
 * words of several letters. Blocks, not \\p{Script=…}: scanning 20 KB of Cyrillic for the
 * scripts took 0.23 ms, for the blocks 0.06.
 */
const SEA_BLOCKS = '\\u0E00-\\u0EFF\\u1000-\\u109F\\u1780-\\u17FF\\u19E0-\\u19FF\\uA9E0-\\uA9FF\\uAA60-\\uAA7F';
const SEA_LETTER = `[${SEA_BLOCKS}]`;

/**
 * The vowel signs, viramas and nasal marks of the Indic scripts (Devanagari to Sinhala), which
 * are part of their word: unicode61 reads a mark as a word's end, so हिंदी (Hindi) was the
 * words ह and द, and found हिंदू (Hindu) as well; काम (work) found कुम्हार (potter). Each is
 * written for the index as a private-use character of plane 15, a category unicode61 keeps
 * inside a word (U+F0900-U+F0DFF, where no pictograph is written: PICTOGRAPH's BMP ones land
 * at U+F00A9, U+F00AE and U+F203C up); the highlighter keeps the mark as it is.
 * The vowel signs and tone marks of Thai, Lao, Khmer and Burmese likewise (U+F0E00-U+F19FF,
 * U+FA9E0-U+FAA7F): ที่ (at) was the word ท, which ทุก (every) held too, and ไม่ (not) found
 * ไม้ (wood); Khmer ទឹក (water) found ទូក (boat).
 */
const markIn = (blocks: string): string => `(?:(?=\\p{M})[${blocks}])`;
const INDIC_BLOCKS = '\\u0900-\\u0DFF';
export const INDIC_MARK_SOURCE = markIn(INDIC_BLOCKS + SEA_BLOCKS);
const INDIC_MARK = new RegExp(INDIC_MARK_SOURCE, 'gu');
const INDIC_MARK_ONE = new RegExp(`^${INDIC_MARK_SOURCE}$`, 'u');
const indexedMark = (ch: string): string => String.fromCodePoint(0xf0000 + (ch.codePointAt(0) as number));
const ANY_INDIC_MARK = new RegExp(markIn(INDIC_BLOCKS), 'u');
/** Whether text holds a mark of an Indic script, which the index keeps inside its word. */
export const hasIndicMark = (text: string): boolean => ANY_INDIC_MARK.test(text);
const ANY_SEA_MARK = new RegExp(markIn(SEA_BLOCKS), 'u');
/** Whether text holds a mark of Thai, Lao, Khmer or Burmese, which the index keeps inside its word. */
export const hasUnspacedMark = (text: string): boolean => ANY_SEA_MARK.test(text);

/**
 * The letters and vowel signs of these scripts written as one character that Unicode holds
 * equal to two (canonical equivalents): Hindi ज़ as U+095B or as ज and the nukta U+093C,
 * Bengali য় as U+09DF or য and ়, Tamil ொ as U+0BCA or ெ and ா. Keyboards and converters write
 * either, and NFC does not make them one (U+0958-U+095F are composition exclusions): a word
 * spelled one way did not find the other. The index and the highlighter read each as its two
 * (NFD); 45 characters of these blocks are such.
 */
const COMPOSED = new RegExp(`[${composedIn(0x0900, 0x0dff)}${composedIn(0x0e00, 0x0eff)}${composedIn(0x1000, 0x109f)}${composedIn(0x1780, 0x17ff)}]`, 'g');
const COMPOSED_ONE = new RegExp(`^${COMPOSED.source}$`);
const decomposed = (ch: string): string => ch.normalize('NFD');
const ANY_COMPOSED = new RegExp(COMPOSED.source);
/** Whether text holds such a character, which the index reads as its two. */
export const hasComposedLetter = (text: string): boolean => ANY_COMPOSED.test(text);

/** The characters from `from` to `to` that NFD writes otherwise, as a class's contents. */
function composedIn(from: number, to: number): string {
  let out = '';
  for (let cp = from; cp <= to; cp++) {
    const ch = String.fromCharCode(cp);
    if (ch.normalize('NFD') !== ch) out += `\\u${cp.toString(16).padStart(4, '0')}`;
  }
  return out;
}

/**
 * The Devanagari nukta (U+093C), after COMPOSED has read क़ ज़ ड़ फ़ as the letter and it. Hindi
 * writes it under a letter for a sound of Persian, Arabic or English (क़लम, pen; ज़रूर, surely)
 * or for the flaps ड़ and ढ़ (पेड़, tree), and many type the letter without it: कलम found no
 * क़लम. Lucene's HindiNormalizer (Pingali and Varma's Hindi normalisation) drops it, and so does
 * the index, both ways: a word typed with it finds the word written without. Few Hindi words
 * differ by the nukta alone (राज, rule; राज़, secret). Devanagari only: Bengali য় and ড় are
 * letters of their own alphabet, which no one leaves off (যে, that, is no য়ে).
 */
const NUKTA = /\u093C/g;
const ANY_NUKTA = /[\u093C\u0929\u0931\u0934\u0958-\u095F]/;
/** Whether text holds a Devanagari nukta, alone or in a letter written as one character, which the index leaves out. */
export const hasNukta = (text: string): boolean => ANY_NUKTA.test(text);

/**
 * Unicode's compatibility forms that are another way of writing what people type, as NFKC
 * writes them (as Lucene's ICU normalizer and Elasticsearch's nfkc_cf read them), a run at a time:
 * - inside a word, the full-width and half-width forms (U+FF01-U+FFEE) that Japanese and
 *   Chinese input methods and older pages write Latin letters, digits and katakana in (ＧＰＵ,
 *   １０, ｶﾞｲﾄﾞ: GPU, 10, ガイド), and the Latin and Armenian ligatures (ﬁ ﬂ ﬀ ﬃ) that text
 *   taken from a typeset PDF is full of: `sift search GPU` found no ＧＰＵ, final no ﬁnal; and
 *   the bold, italic and script letters and digits of Mathematical Alphanumeric Symbols
 *   (U+1D400-U+1D7FF), which social posts write for emphasis: breaking found no 𝗕𝗥𝗘𝗔𝗞𝗜𝗡𝗚;
 * - as a word of their own, superscript and subscript digits and signs (a run is one word:
 *   ¹² is 12), Roman numerals (Ⅻ is XII) and circled, parenthesized and dotted numbers and
 *   letters (③ is 3): unicode61 reads a superscript as a digit, so a footnote mark glued to
 *   its word (Einstein¹) hid the word, and 10⁶ was the word 10⁶, not 10 and 6. Ⓜ (U+24C2),
 *   an emoji, stays one (PICTOGRAPH);
 * - as a word of their own too, the vulgar fractions (½ ⅓ ¾, shared/fraction.ts hasFraction), which people type
 *   as 1/2: NFKC writes ½ as 1⁄2 (U+2044, written here as 1/2: see nfkc), the words 1 and 2 as
 *   unicode61 reads 1/2; unfolded, ½ was a word only ½ found. A word of its own, a recipe's 1½ is
 *   1 and 1/2, as "1 1/2" is typed, not 11/2.
 */
const COMPAT_IN_WORD = '\\uFB00-\\uFB06\\uFB13-\\uFB17\\uFF01-\\uFFEE\\u{1D400}-\\u{1D7FF}';
const COMPAT_SCRIPT = '\\u00B2\\u00B3\\u00B9\\u2070-\\u209C';
/**
 * Units and signs written as one character (CJK Compatibility, Letterlike Symbols, Enclosed CJK):
 * ㎏ is kg, ㎡ m2, ℃ °C, № No, ㍻ 平成, ㈱ (株), each a word of its own as NFKC writes it, so 5㎏ is
 * found by kg and "20 °C" finds 20℃ (the index reads ° as no word, so °C is the word c, as typed).
 * unicode61 reads them as symbols: none was found by anything. ㊗ and ㊙ are emoji (PICTOGRAPH).
 */
const COMPAT_UNITS = '\\u2100\\u2101\\u2103\\u2105\\u2106\\u2109\\u2116\\u2120\\u2121\\u213B\\u3200-\\u3250\\u3260-\\u3296\\u3298\\u329A-\\u32B0\\u32C0-\\u33FF';
// Past Latin-1: the vulgar fractions ⅐ to ⅟ and ↉ (with ¼ ½ ¾ of Latin-1, COMPAT_ALONE), the Roman numerals, the circled numbers.
const COMPAT_ALONE_PAST_LATIN1 = `\\u2150-\\u217F\\u2189\\u2460-\\u24C1\\u24C3-\\u24FF\\u3251-\\u325F\\u32B1-\\u32BF${COMPAT_UNITS}`;
const COMPAT_ALONE = `\\u00BC-\\u00BE${COMPAT_ALONE_PAST_LATIN1}`;
const COMPAT = new RegExp(`[${COMPAT_IN_WORD}]+|[${COMPAT_SCRIPT}]+|[${COMPAT_ALONE}]`, 'gu');
const IN_WORD_ONE = new RegExp(`^[${COMPAT_IN_WORD}]`, 'u');
/** Whether text holds ² ³ ¹ ¼ ½ or ¾, each looked for as a string: a class holding Latin-1 reads every character of one-byte text (see MAYBE_FOLDED). */
const hasLatin1Compat = (text: string): boolean => text.includes('\u00B2') || text.includes('\u00B3') || text.includes('\u00B9') || text.includes('\u00BD') || text.includes('\u00BC') || text.includes('\u00BE');
/** Whether text may hold a compatibility form (a superset; the Latin-1 superscripts and fractions looked for as strings, see MAYBE_FOLDED). */
const mayHaveCompat = (text: string): boolean => MAYBE_COMPAT.test(text) || hasLatin1Compat(text);
// Without the u flag, so V8 answers for one-byte text unread; U+1D400-U+1D7FF by its high surrogate.
const MAYBE_COMPAT = new RegExp(`[\\u2070-\\u209C${COMPAT_ALONE_PAST_LATIN1}\\uD835\\uFB00-\\uFB17\\uFF01-\\uFFEE]`);

const nfkcCache = new Map<string, string>();
/**
 * A character as NFKC writes it, but a fraction's slash (U+2044) as the "/" people type: both part
 * 1 from 2 alike, and the text stays one byte a character, where ½ as 1⁄2 made every pass after
 * this one read the whole of it (foldForIndex on 20 KB of English with one ½: 0.9 µs before
 * fractions were folded, 409 µs with U+2044, 29 µs with "/").
 */
const nfkc = (ch: string): string => {
  let f = nfkcCache.get(ch);
  if (f === undefined) nfkcCache.set(ch, (f = ch.normalize('NFKC').replace('\u2044', '/')));
  return f;
};
/**
 * A run of compatibility forms in the pieces NFKC writes one by one, each with its NFKC: a
 * half-width kana and its voicing mark (ｶﾞ, two characters) are one piece (ガ, one), and so are
 * the half-width letters of a Hangul syllable (ﾡￂ is 가): a character starts a piece unless its
 * NFKC starts with a mark or a Hangul vowel or final consonant, which join what is before them.
 */
function compatPieces(run: string): { at: number; text: string }[] {
  const out: { at: number; from: string; text: string }[] = [];
  for (let j = 0; j < run.length; ) {
    const ch = String.fromCodePoint(run.codePointAt(j) as number);
    const last = out[out.length - 1];
    if (last && /^[\p{M}\u1160-\u11FF]/u.test(nfkc(ch))) {
      last.from += ch;
      last.text = last.from.normalize('NFKC');
    } else out.push({ at: j, from: ch, text: nfkc(ch) });
    j += ch.length;
  }
  return out;
}
/** One match of COMPAT as the index holds it: its NFKC, spaced as a word of its own unless it is of COMPAT_IN_WORD. */
function compatForm(run: string): string {
  // A half-width sound mark after no kana (NFKC's lone U+3099) is nothing, as the highlighter
  // reads it (foldChar drops marks): kept, it cut an Arabic word, and و was left on وولﾞو.
  const text = compatPieces(run)
    .map((p) => (/^\p{M}+$/u.test(p.text) ? '' : p.text))
    .join('');
  return IN_WORD_ONE.test(run) ? text : ` ${text} `;
}
/**
 * COMPAT_WORD: the compatibility forms whose NFKC holds a letter or digit (ＧＰＵ, ｶ, ﬁ, ¹, Ⅻ, ③):
 * the index holds other words for them now. The rest are signs (the full-width comma and brackets of
 * Chinese and Japanese text, ＋, ￥), which part words as before: a result holding only those
 * is indexed as it was.
 */
let compatWord: RegExp | undefined;
// The ranges of COMPAT's classes as step 19 read them; made at first use (by a migration), not at every start.
const COMPAT_RANGES = [[0xb2, 0xb3], [0xb9, 0xb9], [0x2070, 0x209c], [0x2160, 0x217f], [0x2460, 0x24c1], [0x24c3, 0x24ff], [0x3251, 0x325f], [0x32b1, 0x32bf], [0xfb00, 0xfb06], [0xfb13, 0xfb17], [0xff01, 0xffee], [0x1d400, 0x1d7ff]] as const;
function makeCompatWord(): RegExp {
  let chars = '';
  for (const [from, to] of COMPAT_RANGES) {
    for (let cp = from; cp <= to; cp++) if (/[\p{L}\p{N}]/u.test(String.fromCodePoint(cp).normalize('NFKC'))) chars += `\\u{${cp.toString(16)}}`;
  }
  return new RegExp(`[${chars}]`, 'u');
}
/** Whether text holds a compatibility form the index now reads as a letter or digit (COMPAT_WORD). */
export const hasCompatWord = (text: string): boolean => mayHaveCompat(text) && (compatWord ??= makeCompatWord()).test(text);

const UNIT_OR_SOUND_MARK = new RegExp(`[${COMPAT_UNITS}\\uFF9E\\uFF9F]`);
/** Whether text holds a unit or sign written as one character (COMPAT_UNITS) or a half-width sound mark, which the index reads otherwise since step 20. */
export const hasUnitOrSoundMark = (text: string): boolean => UNIT_OR_SOUND_MARK.test(text);

/** Text with its compatibility forms as NFKC writes them (see COMPAT): the index's and a question's reading of them. */
export const compatFolded = (text: string): string => (mayHaveCompat(text) ? text.replace(COMPAT, compatForm) : text);

/** Han, kana and Hangul: scripts written without spaces between words. */
export const CJK_CHAR = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;
const CJK_ALL = new RegExp(CJK_CHAR.source, 'gu');
// The blocks CJK_CHAR's scripts live in (Hangul Jamo, CJK radicals to Yi, Hangul syllables,
// compatibility ideographs and forms, surrogates of supplementary ideographs). CJK_ALL, a
// class of scripts, took 0.68 ms to scan 20 KB of Russian; this 0.03.
const MAYBE_CJK = /[\u1100-\u11FF\u2E80-\uA4CF\uA960-\uA97F\uAC00-\uD7FF\uD840-\uD8BF\uF900-\uFAFF\uFE30-\uFE4F\uFF00-\uFFEF]/;

const SEA_RUN = new RegExp(`${SEA_LETTER}+`, 'g');
const SEA_ANY = new RegExp(SEA_LETTER);
// ICU picks its dictionary by script, not by locale: 'th' cuts Lao, Khmer and Burmese too.
// Made at the first such run: making it loads ICU's dictionaries, 17 ms of every CLI start
// (sift extract of a page, which never meets Thai, took 5% longer).
let words: Intl.Segmenter | undefined;

/** ICU's word breaks (UAX #29, with its dictionaries for scripts written without spaces), made at first use. */
const wordSegmenter = (): Intl.Segmenter => (words ??= new Intl.Segmenter('th', { granularity: 'word' }));

// Each segment ICU gives (V8 12.4, Node 20) is made with `input`, a copy of the whole text it
// cuts, so cutting a run costs its length times its words: a Thai run of 65,000 characters took
// 124 ms, of 70,000 12.5 s (past ~64 Ki the copies leave V8's young heap), of 100,000 21 s, and
// Chinese of 100,000 50 s, with 4 GB held: a page of such text stalled indexing, --question or a
// snippet. Text is cut in windows of 2 Ki characters instead. ICU's dictionaries choose a run's
// breaks by what follows them, so the words in a window's last 128 characters are read again at
// the start of the next: over 20 texts of 40,000 characters in Thai, Lao, Khmer and Chinese the
// same breaks as the whole text's (a margin of only the last word: 2 of 20), in 1/3 of the time.
const SEGMENT_WINDOW = 2_048;
const SEGMENT_MARGIN = 128;

/** A word segment: where it starts in the text, its text, and whether it is a word (not a space or a mark of punctuation). */
export interface WordSegment {
  index: number;
  segment: string;
  isWordLike: boolean;
}

/** ICU's word segments of text (what Intl.Segmenter's segment() gives), read window by window. */
export function* segmentWords(text: string): Generator<WordSegment> {
  for (let from = 0; from < text.length; ) {
    let end = Math.min(text.length, from + SEGMENT_WINDOW);
    // Not between the two halves of a surrogate pair.
    if (end < text.length && /[\uD800-\uDBFF]/.test(text[end - 1]!)) end--;
    const window = text.slice(from, end);
    const whole = end === text.length;
    let next = end;
    for (const s of wordSegmenter().segment(window)) {
      // A window's first segment is always taken, so the reading moves on (a "word" of 2 Ki
      // characters, such as a base64 blob, is cut at the window's edge).
      if (!whole && s.index > 0 && s.index + s.segment.length > window.length - SEGMENT_MARGIN) {
        next = from + s.index;
        break;
      }
      // Read into an object of its own: ICU's holds its copy of the window for as long as it is kept.
      yield { index: from + s.index, segment: s.segment, isWordLike: s.isWordLike === true };
    }
    from = next;
  }
}

/** Whether text holds a letter of Thai, Lao, Khmer or Burmese, written without spaces between words. */
export const hasUnspacedLetter = (text: string): boolean => SEA_ANY.test(text);

/** The words of such text, as ICU's dictionaries cut it (and the index holds them): ประชากรกรุงเทพ is ประชากร, กรุงเทพ. */
export function unspacedWords(text: string): string[] {
  const out: string[] = [];
  for (const s of segmentWords(text)) if (s.isWordLike) out.push(s.segment);
  return out;
}

/** Where each word after the first starts in a run of SEA_LETTER (UTF-16 offsets into the run). */
function wordStarts(run: string): number[] {
  const out: number[] = [];
  for (const s of segmentWords(run)) if (s.index > 0) out.push(s.index);
  return out;
}

/**
 * Characters that only hide a word's letters from the tokenizer, which split the word at
 * them: the soft hyphen, zero-width space, zero-width joiner, word joiner and the BOM (a
 * zero-width no-break space). Two of them are kept where they are a word's boundary: a
 * zero-width non-joiner after Arabic script, where Persian writes it between a word and its
 * suffix (کتاب‌ها, books; removing it made کتاب no longer find them, Lucene's Persian analyzer
 * reads it as a space too), and a zero-width space after Thai, Lao, Khmer or Burmese, which
 * is those scripts' word boundary. Elsewhere (Indic scripts, Latin ligature control) a
 * non-joiner only picks a letter's shape inside a word.
 */
// Each one on its own is meant, the joiner too.
// eslint-disable-next-line no-misleading-character-class
const INVISIBLE = new RegExp(`[\\u00AD\\u200D\\u2060\\uFEFF]|(?<!\\p{Script=Arabic}\\p{M}*)\\u200C|(?<!${SEA_LETTER})\\u200B`, 'gu');
const MAYBE_INVISIBLE = /[\u00AD\u200B-\u200D\u2060\uFEFF]/;
// eslint-disable-next-line no-misleading-character-class
const INVISIBLE_AT = new RegExp(INVISIBLE.source, 'uy');
/** Whether the character at text[i] is one INVISIBLE removes there. */
function invisibleAt(text: string, i: number): boolean {
  INVISIBLE_AT.lastIndex = i;
  return INVISIBLE_AT.test(text);
}

/**
 * Letters written in the form people type, as search engines for these languages read them:
 * - German ß as ss: Swiss German writes ss, and a keyboard without ß types it so.
 * - Russian and Belarusian ё as е: print mostly leaves its dots off, and people type е.
 *   Ukrainian ґ as г: its orthography had no ґ from 1933 to 1990, so older texts write г.
 *   Other letters with marks (й, ї, ў) are letters of their own and stay.
 * - Arabic alef with hamza or madda (أ إ آ) and alef wasla (ٱ) as the bare alef most people
 *   type; final ى (alef maksura) as ي and ة (teh marbuta) as ه, which writers use for each
 *   other at a word's end (Egyptian print writes ى for final ي). This is the normalisation of
 *   Larkey et al.'s light stemmer that Lucene's ArabicNormalizer applies; hamza on waw and
 *   yeh (ؤ ئ) is spelled consistently and stays.
 * - Greek with its accents and breathings (tonos, dialytika, polytonic marks) as the bare
 *   letter, as remove_diacritics does for Latin: βιβλιοθηκη finds βιβλιοθήκη, πρωτεινη
 *   πρωτεΐνη.
 */
const LETTER_FORMS: Record<string, string> = {
  ß: 'ss',
  ẞ: 'ss',
  ё: 'е',
  Ё: 'е',
  ґ: 'г',
  Ґ: 'г',
  أ: 'ا',
  إ: 'ا',
  آ: 'ا',
  ٱ: 'ا',
  ى: 'ي',
  ة: 'ه',
};
const GREEK_MARKED = '\\u0386\\u0388-\\u038A\\u038C\\u038E-\\u0390\\u03AA-\\u03B0\\u03CA-\\u03CE\\u03D3\\u03D4\\u1F00-\\u1FFF';
const OTHER_FORM = new RegExp(`[${Object.keys(LETTER_FORMS).join('')}${GREEK_MARKED}]`, 'g');
const formCache = new Map<string, string>();
function typedForm(ch: string): string {
  let f = LETTER_FORMS[ch] ?? formCache.get(ch);
  if (f === undefined) {
    f = ch.normalize('NFD').replace(/\p{M}/gu, '');
    formCache.set(ch, f);
  }
  return f;
}

/**
 * Emoji, and the pictographs and signs they grew from (Extended_Pictographic: ✔ ☎ © ™), and
 * the regional indicators flags are made of. unicode61 reads no symbol as part of a word, so
 * a search for 🍕 found nothing, even where a page had it. Each is written as a character
 * of a private-use plane, a category unicode61 keeps as a word, and stands as a word of its
 * own, as a CJK character does: a BMP pictograph in plane 15, one beyond it in plane 16 (the
 * same low 16 bits, so no two meet). SQLite's categories option could add symbols to words,
 * but changing the tokenizer rebuilds the whole index, and it would join "25°C" into one word.
 */
export const PICTOGRAPH = /[\p{Extended_Pictographic}\u{1F1E6}-\u{1F1FF}]/u;
// The blocks PICTOGRAPH lives in past Latin-1, the variation selectors, and the high surrogates
// of U+1F000-U+1FFFF (emoji, flags' letters, skin tones).
const PICTOGRAPH_BLOCKS = '\\u203C\\u2049\\u2122\\u2139\\u2194-\\u21AA\\u231A-\\u23FA\\u24C2\\u25AA-\\u27BF\\u2934\\u2935\\u2B05-\\u2B55\\u3030\\u303D\\u3297\\u3299\\uFE0E\\uFE0F\\uD83C-\\uD83E';
// Each candidate (with © and ®) is checked by indexedPictograph. 20 KB with 293 emoji folded
// in 0.65 ms (0.25 before emoji were words); FTS5 takes 2.5 ms to index such a text.
// A class of characters, each on its own (a selector, a lone surrogate), is meant.
// eslint-disable-next-line no-misleading-character-class
const MAYBE_PICTOGRAPH_ALL = new RegExp(`[\\u00A9\\u00AE${PICTOGRAPH_BLOCKS}][\\uDC00-\\uDFFF]?`, 'g');
// Without the two Latin-1 signs, looked for as strings: V8 answers a class without Latin-1 for one-byte text unread.
// eslint-disable-next-line no-misleading-character-class
const MAYBE_PICTOGRAPH = new RegExp(`[${PICTOGRAPH_BLOCKS}]`);
/** Whether the text may hold a pictograph (a superset, cheap for text without). */
export const mayHavePictograph = (text: string): boolean => MAYBE_PICTOGRAPH.test(text) || text.includes('\u00A9') || text.includes('\u00AE');

/**
 * A pictograph as the index holds it (a private-use word of its own); nothing for how an
 * emoji is drawn, not what it is (a skin tone, a variation selector: 👍🏽 is found by 👍);
 * anything else as it is.
 */
function indexedPictograph(ch: string): string {
  let f = pictographCache.get(ch);
  if (f === undefined) {
    const cp = ch.codePointAt(0) as number;
    if (PICTOGRAPH.test(ch)) f = ` ${String.fromCodePoint((cp < 0x10000 ? 0xf0000 : 0x100000) + (cp & 0xffff))} `;
    else f = (cp >= 0x1f3fb && cp <= 0x1f3ff) || cp === 0xfe0e || cp === 0xfe0f ? '' : ch;
    pictographCache.set(ch, f);
  }
  return f;
}
// At most the candidates MAYBE_PICTOGRAPH_ALL can match: some 6,000.
const pictographCache = new Map<string, string>();

// Greek, ё and ґ, Hebrew to Arabic, Thai and Lao, Myanmar, Hangul Jamo, Khmer, Greek extended
// and ẞ, the zero-width characters, superscripts to fractions, Roman numerals and circled numbers (COMPAT),
// CJK radicals to Yi, Myanmar extensions, Hangul syllables, compatibility ideographs,
// ligatures, half-width forms, the BOM and surrogates (mathematical letters, supplementary ideographs): with the
// soft hyphen, ß, the superscripts ² ³ ¹ and the fractions ¼ ½ ¾, a superset of every set above. None is in Latin-1,
// so V8 answers for a one-byte string (ASCII, French, German) without reading it: 0.3 µs for
// 20 KB, where a class holding the two Latin-1 letters read every character (77 µs).
// eslint-disable-next-line no-misleading-character-class
const MAYBE_FOLDED = /[\u0386-\u03D4\u0401\u0451\u0490\u0491\u0591-\u06ED\u0900-\u0DFF\u0E00-\u0EFF\u1000-\u109F\u1100-\u11FF\u1780-\u17FF\u19E0-\u19FF\u1E9E\u1F00-\u1FFF\u200B-\u200D\u2060\u2070-\u209C\u2100-\u2121\u213B\u2150-\u217F\u2189\u2460-\u24FF\u2E80-\uA4CF\uA960-\uA97F\uA9E0-\uA9FF\uAA60-\uAA7F\uAC00-\uD7FF\uD835\uD840-\uD8BF\uF900-\uFAFF\uFB00-\uFB17\uFE30-\uFE4F\uFEFF-\uFFEF]/;

/** Whether foldForIndex's letter passes may change the text. */
// The Latin-1 characters (ß, the soft hyphen, ², ³, ¹, ¼, ½, ¾) are looked for as strings: 1.2 µs more for 20 KB of ASCII for the first two.
const mayFoldLetters = (text: string): boolean => MAYBE_FOLDED.test(text) || text.includes('ß') || text.includes('\u00AD') || hasLatin1Compat(text);

/** Whether foldForIndex may change the text: false for text it returns as it is. */
export const mayFold = (text: string): boolean => mayFoldLetters(text) || mayHavePictograph(text);

/** The text handed to FTS5 for a title, URL, body or query term. */
export function foldForIndex(text: string): string {
  // Most results have none of these; one scan for the blocks they live in skips five full
  // passes. A text whose only such characters are emoji (a post, a review) skips the letter
  // passes too: on 20 KB with 293 emoji they took 0.6 ms more.
  const letters = mayFoldLetters(text);
  const pictographs = mayHavePictograph(text);
  if (!letters && !pictographs) return text;
  let folded = text;
  if (letters) {
    // First: the passes below read ガ where the page wrote ｶﾞ.
    folded = compatFolded(folded)
      // First of the rest, so each run is cut as it is stored, as foldWithMap cuts it.
      .replace(SEA_RUN, spacedWords)
      .replace(INVISIBLE, '')
      .replace(SEMITIC_MARKS, '')
      .replace(COMPOSED, decomposed)
      .replace(NUKTA, '')
      .replace(INDIC_MARK, indexedMark)
      .replace(OTHER_FORM, typedForm);
    // Last: it reads the letters as the passes above leave them (الأخبار as الاخبار).
    folded = arabicForms(folded);
  }
  if (pictographs) folded = folded.replace(MAYBE_PICTOGRAPH_ALL, indexedPictograph);
  return letters && MAYBE_CJK.test(folded) ? folded.replace(CJK_ALL, ' $& ') : folded;
}

/** A run of SEA_LETTER with a space before each word but the first. */
function spacedWords(run: string): string {
  let out = '';
  let from = 0;
  for (const at of wordStarts(run)) {
    out += `${run.slice(from, at)} `;
    from = at;
  }
  return out + run.slice(from);
}

/** A query term as FTS5 string syntax: quoted, with its quotes doubled (any text is safe). */
export const quoteTerm = (term: string): string => `"${foldForIndex(term).trim().replace(/"/g, '""')}"`;

/**
 * The letters whose marks the index drops: Latin ones (unicode61's remove_diacritics) and
 * Greek ones (LETTER_FORMS' typedForm). Any other letter with a mark is a letter of its own
 * to the index (ئ and ي, ؤ and و, й and и): read apart from the mark, the highlighter and
 * Ask met قايمة where the index had found قائمة only. Against FTS5's own tokens of the 5,800
 * letters up to U+3000, 92 were read so (й ў ї, ئ ؤ ۀ among them); none is now.
 */
const MARKS_DROPPED = /[\p{Script=Latin}\p{Script=Greek}]/u;
/** A character without the marks the index drops from it; a lone mark is nothing. */
const withoutMarks = (ch: string): string => (MARKS_DROPPED.test(ch) || !/\p{L}/u.test(ch) ? ch.normalize('NFD').replace(/\p{M}/gu, '') : ch);

const charCache = new Map<string, string>();
const NON_ASCII = /[\u0080-\uffff]/;

/** One character as the highlighter compares it: lower case, without accents or vowel marks. */
function foldChar(ch: string): string {
  let f = charCache.get(ch);
  if (f === undefined) {
    // The marks the index drops (SEMITIC_MARKS), tatweel among them, which is no mark: kept,
    // a question's الكتاب never met a page's الكـتاب, which the index had found.
    f = withoutMarks(ch).replace(SEMITIC_MARKS, '').toLowerCase();
    // The index folds case as Unicode's case folding does, where lower case keeps a few
    // letters apart: final ς and σ, the micro sign µ and μ, long ſ and s, Greek symbol forms
    // (ϐ ϑ ϕ ϖ ϰ ϱ ϵ). Such a hit (ΑΡΙΣΤΟΤΕΛΗΣ for a typed αριστοτελης, "5 µm" for μm) had
    // no match to mark and was cited "in the url", without its line. Upper then lower case
    // folds them alike; a letter whose capital is longer (ß, ŉ) the index keeps as it is,
    // but for the forms foldForIndex writes as typed.
    const upper = f.toUpperCase();
    if (upper.length === f.length) f = upper.toLowerCase();
    f = f.replace(OTHER_FORM, typedForm);
    // Invisible: foldWithMap keeps the few that are a word's boundary where they stand.
    if (MAYBE_INVISIBLE.test(ch)) f = '';
    // Hangul decomposes under NFD into jamo; compare whole syllables instead.
    if (CJK_CHAR.test(ch)) f = ch;
    // An Indic vowel sign is part of its word, as the index holds it (INDIC_MARK): हिंदी is no हद.
    if (INDIC_MARK_ONE.test(ch)) f = ch;
    if (COMPOSED_ONE.test(ch)) f = decomposed(ch);
    f = f.replace(NUKTA, '');
    if (charCache.size < 20_000) charCache.set(ch, f);
  }
  return f;
}

/**
 * The text folded for matching, with the offset in `text` of each folded UTF-16 unit, so a
 * match found in the folded text can be marked in the original; `at` is undefined when the
 * offsets are the same (ASCII text, where allocating the map was 90% of a search hit's
 * snippet time). ASCII runs (most of most texts) are lower-cased in one call; a character at
 * a time cost 15 ms per 20 KB result.
 */
export function foldWithMap(text: string): { folded: string; at: Int32Array | undefined } {
  if (!NON_ASCII.test(text)) return { folded: text.toLowerCase(), at: undefined };
  const parts: string[] = [];
  // A character folds to 3 units at most (ﬃ), but for a compatibility form spaced as a word (⒇
  // is " (20) ", 6 units), for which the map grows.
  let at = new Int32Array(text.length * 3 + 1);
  let n = 0;
  const room = (more: number): void => {
    if (n + more < at.length) return;
    const bigger = new Int32Array(2 * at.length + more);
    bigger.set(at);
    at = bigger;
  };
  // Found in one pass over the text: a sticky match at each character took Chinese text (whose
  // commas are full-width) 1 ms more per 10 KB, a test of each run French 0.25 ms more per 20 KB.
  const compats = mayHaveCompat(text) ? new Map(Array.from(text.matchAll(COMPAT), (c) => [c.index, c[0]])) : undefined;
  let i = 0;
  // Read in the non-ASCII runs only: a scan of the whole of 20 KB of French took 33 µs.
  let arabic = false;
  for (const m of text.matchAll(/[\u0080-\uffff]+/g)) {
    if (m.index > i) {
      parts.push(text.slice(i, m.index).toLowerCase());
      room(m.index - i);
      for (let k = i; k < m.index; k++) at[n++] = k;
    }
    const run = m[0];
    arabic ||= hasArabicLetter(run);
    // Thai, Lao, Khmer and Burmese words apart, as the index has them: a space before each.
    const starts = new Set<number>();
    if (SEA_ANY.test(run)) for (const w of run.matchAll(SEA_RUN)) for (const s of wordStarts(w[0])) starts.add(w.index + s);
    for (let j = 0; j < run.length; ) {
      const cp = run.codePointAt(j) as number;
      const ch = String.fromCodePoint(cp);
      room(4);
      if (starts.has(j)) {
        parts.push(' ');
        at[n++] = m.index + j;
      }
      const compat = compats?.get(m.index + j);
      if (compat !== undefined) {
        // As compatForm has it for the index; every unit of a piece at the piece's place, a space after it at its end.
        const start = m.index + j;
        const spaced = !IN_WORD_ONE.test(compat);
        room(6 * compat.length + 2);
        if (spaced) {
          parts.push(' ');
          at[n++] = start;
        }
        for (const p of compatPieces(compat)) {
          for (const c of p.text) {
            const f = foldChar(c);
            parts.push(f);
            for (let k = 0; k < f.length; k++) at[n++] = start + p.at;
          }
        }
        if (spaced) {
          parts.push(' ');
          at[n++] = start + compat.length;
        }
        j += compat.length;
        continue;
      }
      const f = MAYBE_INVISIBLE.test(ch) && !invisibleAt(text, m.index + j) ? ch : foldChar(ch);
      parts.push(f);
      for (let k = 0; k < f.length; k++) at[n++] = m.index + j;
      j += ch.length;
    }
    i = m.index + run.length;
  }
  if (i < text.length) {
    parts.push(text.slice(i).toLowerCase());
    room(text.length - i);
    for (let k = i; k < text.length; k++) at[n++] = k;
  }
  at[n] = text.length;
  const folded = parts.join('');
  return arabic ? arabicFormsWithMap(folded, at.subarray(0, n + 1)) : { folded, at: at.subarray(0, n + 1) };
}

/** A query term folded the way foldWithMap folds text. */
export const foldTerm = (term: string): string => foldWithMap(term).folded;

/**
 * The hyphens that join a compound's parts: the hyphen-minus people type, and Unicode's hyphen
 * and non-breaking hyphen that word processors write. Not the dashes (10–20 is a range).
 */
export const HYPHENS = '\\-\\u2010\\u2011';
const HYPHEN_ANY = new RegExp(`[${HYPHENS}]`, 'g');
const isHyphen = (c: string | undefined): boolean => c === '-' || c === '\u2010' || c === '\u2011';
const WORD_UNIT = /^[\p{L}\p{N}\p{Co}]$/u;
/** How many UTF-16 units the letter, digit or private-use character (a mark the index keeps, fold.ts INDIC_MARK) at text[i] takes; 0 for none. */
function wordUnitAt(text: string, i: number): number {
  const c = text.charCodeAt(i);
  if (c < 128) return (c >= 48 && c <= 57) || ((c | 32) >= 97 && (c | 32) <= 122) ? 1 : 0;
  const ch = String.fromCodePoint(text.codePointAt(i) ?? 0);
  return c >= 0xdc00 && c <= 0xdfff ? 0 : WORD_UNIT.test(ch) ? ch.length : 0;
}
/** The same for the one that ends at text[end - 1]. */
function wordUnitBefore(text: string, end: number): number {
  if (end <= 0) return 0;
  const c = text.charCodeAt(end - 1);
  return c >= 0xdc00 && c <= 0xdfff && end >= 2 ? (wordUnitAt(text, end - 2) === 2 ? 2 : 0) : wordUnitAt(text, end - 1) === 1 ? 1 : 0;
}
/** Where the run of word units (wordUnitAt) that ends at `at` starts. */
function wordStartBefore(text: string, at: number): number {
  let start = at;
  for (let n = wordUnitBefore(text, start); n > 0; n = wordUnitBefore(text, start)) start -= n;
  return start;
}
/** Where the run of word units that starts at `at` ends. */
function wordEndFrom(text: string, at: number): number {
  let end = at;
  for (let n = wordUnitAt(text, end); n > 0; n = wordUnitAt(text, end)) end += n;
  return end;
}
/**
 * Between the joined spellings the index holds after a text's words, a word no one types (a
 * private-use character, which unicode61 keeps as a word): a phrase never runs from the text's
 * last word into the first spelling, nor from one spelling into the next.
 */
const APART = '\u{F0000}';

/**
 * The apostrophes that join a name's or an elided word's parts: the typewriter's, the
 * typographer's ’ and the modifier letter ʼ.
 */
export const APOSTROPHES = "'\\u2019\\u02BC";
const APOSTROPHE_ANY = new RegExp(`[${APOSTROPHES}]`, 'g');

/** The most parts of a compound whose every run of neighbours is held joined; past it, its pairs and the whole. */
const MAX_RUN_PARTS = 6;

/**
 * The text's hyphenated compounds written as one word, as the other spelling of the same word
 * is: each run of neighbouring parts that holds a letter, once, after a space. e-mail as email,
 * co-operate as cooperate, on-line as online, covid-19 as covid19; state-of-the-art as
 * stateof, ofthe, theart, stateofthe, oftheart and stateoftheart: with its pairs alone, a typed
 * stateoftheart found no state-of-the-art (a compound of n parts holds n(n-1)/2 runs, 15 at
 * MAX_RUN_PARTS; past it, its pairs and the whole). And a word with an apostrophe before three
 * letters or more joined: O'Brien as obrien, l'homme as lhomme, where OBrien found nothing; a
 * contraction's ending is shorter ('s, 't, 're, 'll), so its and it's stay two words. The index
 * holds them after the text's own words (indexedText): at unicode61's reading of the hyphen,
 * e-mail is the words e and mail, and email found no e-mail, nor e-mail email. Held so, only a
 * compound written with its hyphen joins: "from day to day" holds no today.
 */
export function joinedCompounds(folded: string): string {
  const joined = new Set<string>();
  const add = (w: string): void => {
    if (/\p{L}/u.test(w)) joined.add(w.toLowerCase());
  };
  // From each hyphen between two words, not a regex over the whole text: one that read every
  // word took 6 ms per 20 KB of the article corpus' text, where FTS5 indexes it in 4.7.
  HYPHEN_ANY.lastIndex = 0;
  for (let h = HYPHEN_ANY.exec(folded); h; h = HYPHEN_ANY.exec(folded)) {
    if (wordUnitBefore(folded, h.index) === 0 || wordUnitAt(folded, h.index + 1) === 0) continue;
    const start = wordStartBefore(folded, h.index);
    const parts: string[] = [];
    let end = start;
    for (;;) {
      const from = end;
      end = wordEndFrom(folded, end);
      parts.push(folded.slice(from, end));
      if (!isHyphen(folded[end]) || wordUnitAt(folded, end + 1) === 0) break;
      end++;
    }
    const longest = parts.length <= MAX_RUN_PARTS ? parts.length : 2;
    for (let len = 2; len <= longest; len++) for (let k = 0; k + len <= parts.length; k++) add(parts.slice(k, k + len).join(''));
    if (parts.length > MAX_RUN_PARTS) add(parts.join(''));
    HYPHEN_ANY.lastIndex = end;
  }
  APOSTROPHE_ANY.lastIndex = 0;
  for (let a = APOSTROPHE_ANY.exec(folded); a; a = APOSTROPHE_ANY.exec(folded)) {
    if (wordUnitBefore(folded, a.index) === 0) continue;
    const start = wordStartBefore(folded, a.index);
    const end = wordEndFrom(folded, a.index + 1);
    if (end - a.index - 1 >= 3) add(folded.slice(start, a.index) + folded.slice(a.index + 1, end));
    APOSTROPHE_ANY.lastIndex = end;
  }
  let out = '';
  for (const w of joined) out += ` ${APART} ${w}`;
  return out;
}

/**
 * Whether text may hold what joinedCompounds joins since step 24 and did not before: a compound
 * of three parts or more, or an apostrophe before three letters (a superset).
 */
export const hasLongerJoin = (text: string): boolean => LONGER_JOIN.test(text);
const LONGER_JOIN = new RegExp(`[\\p{L}\\p{N}][${HYPHENS}][\\p{L}\\p{N}]+[${HYPHENS}][\\p{L}\\p{N}]|[\\p{L}\\p{N}][${APOSTROPHES}][\\p{L}\\p{N}]{3}`, 'u');

/** The text handed to FTS5 for a title or body: folded (foldForIndex), with its compounds joined after it (joinedCompounds). */
export function indexedText(text: string): string {
  const folded = foldForIndex(text);
  return folded + joinedCompounds(folded);
}
