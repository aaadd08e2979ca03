import MiniSearch from 'minisearch';
import { CJK_CHAR, compatFolded, foldTerm, hasUnspacedLetter, PICTOGRAPH, unspacedWords, segmentWords } from '../search/fold';
import { SIGNED_WORD } from '../search/query';
import { lineAt } from '../../shared/urllist/lines';
import { functionWordsOf, isFunctionWord } from './function-words';
import { RUSSIAN_WORD, wordForm } from './word-forms';
import { markdownAsRead, withoutLinkTargets } from '../search/text';

export interface Passage {
  idx: number;
  text: string;
  /** The line of the whole text the passage starts on, from 1 (a PDF result's page_lines cite its page from it). */
  line: number;
  /**
   * For a piece of a long table after its first: the table's header row and delimiter, and the
   * line they start on. It is ranked with the piece and shown over it (as headingsOver's are),
   * so a row says which column is which.
   */
  head?: { text: string; line: number };
}

/** Passages of about 600 characters: long enough to answer, short enough to read (and to rank sharply). */
const TARGET_CHARS = 600;

/** The line of `text` an offset is on, for offsets asked in increasing order. */
function lineCounter(text: string): (offset: number) => number {
  let line = 1;
  let at = 0;
  return (offset) => {
    // Counted only up to the offset (lineAt): a long text on one line, cut into passages,
    // was read to its end for each one.
    if (offset > at) {
      line = lineAt(text, at, line, offset);
      at = offset;
    }
    return line;
  };
}

/**
 * A dot that ends no sentence: after an initial or a short title or abbreviation (U.S., D.C.,
 * J. Smith, Mr., Dr., Fig., No., e.g.). Ending a sentence there cut a long paragraph's
 * passage at "… the U.S." with "Department of Commerce …" beginning the next.
 */
const ABBREVIATION = /(?:^|[\s("'.])(?:\p{L}|mr|mrs|ms|dr|prof|st|jr|sr|no|nos|vs|etc|inc|co|corp|ltd|fig|figs|eq|vol|pp|ca|approx|dept|e\.g|i\.e|cf|al)\.$/iu;

/**
 * Whether a piece cut at . ! ? or a line end ends its sentence: not where the sign touches
 * the next word ("$8.8", "example.com", "3.5%": "$8." and "8 billion" were two sentences), nor
 * before a word in lower case, nor after an abbreviation. A line end after a word or a comma,
 * before a word in lower case, or after a word broken at a hyphen (Trace-|Monkey), is where a
 * PDF or a plain text file wraps its lines inside a sentence: read as a sentence's end, nearly
 * every passage of a PDF began or ended mid-sentence ("… we must guard on it after" | "the
 * call, and side exit …").
 */
function endsSentence(piece: string, next: string): boolean {
  if (piece.endsWith('\n')) return !(/\p{L}[-\u00AD]\n$/u.test(piece) || (/[\p{L}\p{M}\p{N},]\n$/u.test(piece) && /^\p{Ll}/u.test(next)));
  if (/[.!?]$/.test(piece)) return false;
  if (!/[.!?]\s+$/.test(piece)) return true;
  if (/^\p{Ll}/u.test(next)) return false;
  return !ABBREVIATION.test(piece.trimEnd());
}

/**
 * A piece of a paragraph up to a sign that may end its sentence: . ! ? and, always ending one,
 * those of other scripts: 。！？ (Chinese, Japanese), । ॥ (Hindi, Marathi, Nepali, Bengali),
 * ؟ ۔ (Arabic's question mark, Urdu's full stop), ። (Amharic), ။ (Burmese), ។ (Khmer). Without
 * them a long Hindi paragraph was cut at a space every 600 characters, mid-sentence, and a
 * question's answer came back as the whole paragraph in three broken pieces.
 */
const SENTENCE_PIECE = /[^.!?。！？।॥؟۔።။។\n]+(?:[.!?。！？।॥؟۔።။។]+|\n|$)\s*/g;

/** A paragraph's sentences as a reader finds them (endsSentence), with where each starts. */
function* wholeSentences(p: string): Generator<[string, number]> {
  let cur = '';
  let at = 0;
  for (const m of p.matchAll(SENTENCE_PIECE)) {
    if (cur && endsSentence(cur, m[0])) {
      yield [cur, at];
      cur = '';
    }
    if (!cur) at = m.index;
    cur += m[0];
  }
  if (cur) yield [cur, at];
}

/**
 * A paragraph's sentences and where each starts in it. A sentence over twice the passage's
 * length is cut at the last line end before TARGET_CHARS, else at the last space (at
 * TARGET_CHARS when there is neither): text with no sentence ends (a log, a table's row, a
 * transcript, a line of a minified file) was one passage, and a question over a 7 MB line of
 * it answered with all 7 MB; lines read as one sentence (endsSentence) stay whole.
 */
function* sentences(p: string): Generator<[string, number]> {
  for (const [sentence, index] of wholeSentences(p)) {
    if (sentence.length <= TARGET_CHARS * 2) {
      yield [sentence, index];
      continue;
    }
    for (let i = 0; i < sentence.length; ) {
      let end = Math.min(sentence.length, i + TARGET_CHARS);
      if (end < sentence.length) {
        const line = sentence.lastIndexOf('\n', end - 1);
        const space = sentence.lastIndexOf(' ', end);
        if (line > i + TARGET_CHARS / 2) end = line + 1;
        else if (space > i + TARGET_CHARS / 2) end = space + 1;
        // Not inside a character beyond U+FFFF.
        else if (/[\uD800-\uDBFF]/.test(sentence.charAt(end - 1))) end--;
      }
      yield [sentence.slice(i, end), index + i];
      i = end;
    }
  }
}

/** A Markdown table's delimiter row, under its header row: | --- | :-: |. */
const TABLE_DELIMITER = /^[ \t]*\|?[ \t]*:?-+:?[ \t]*(?:\|[ \t]*:?-+:?[ \t]*)*\|?[ \t]*$/;

/** A paragraph's header row and delimiter (its first two lines, with the line break between them) when it is a Markdown table. */
function tableHead(p: string): string | undefined {
  const [header, delimiter] = p.split('\n', 2);
  return header?.includes('|') && delimiter?.includes('|') && TABLE_DELIMITER.test(delimiter) ? `${header}\n${delimiter}` : undefined;
}

/**
 * A table's lines, each with where it starts: a long table is cut between rows, never inside
 * one at a cell's "Inc. The" or "3. Next" (as sentences would). A row over twice the passage's
 * length is cut as a long sentence is.
 */
function* tableRows(p: string): Generator<[string, number]> {
  for (const m of p.matchAll(/[^\n]*(?:\n|$)/g)) {
    if (!m[0]) continue;
    if (m[0].length <= TARGET_CHARS * 2) yield [m[0], m.index];
    else for (const [piece, at] of sentences(m[0])) yield [piece, m.index + at];
  }
}

/**
 * Paragraphs (blank-line separated); long ones split at sentence ends into ~600-char pieces, a
 * long table between rows, each piece after its first with the table's header row (`head`): a
 * 42-row standings table was cut into 4 pieces and only the first held the header, so "how
 * many wins did X have?" came back with X's row and no word of which number is the wins.
 */
export function splitPassages(text: string): Passage[] {
  const out: Passage[] = [];
  const lineAt = lineCounter(text);
  const push = (t: string, offset: number, head?: Passage['head']): void => {
    const p: Passage = { idx: out.length, text: t, line: lineAt(offset) };
    if (head) p.head = head;
    out.push(p);
  };
  const blank = /\n\s*\n/g;
  for (let from = 0; from <= text.length; ) {
    const m = blank.exec(text);
    const end = m ? m.index : text.length;
    const para = text.slice(from, end);
    const p = para.trim();
    const start = from + para.length - para.trimStart().length;
    from = m ? end + m[0].length : text.length + 1;
    if (!p) continue;
    if (p.length <= TARGET_CHARS * 2) {
      push(p, start);
      continue;
    }
    const table = tableHead(p);
    // Lent to the pieces after the first, which holds it; the line is known before them (lineAt counts forward).
    const head = table === undefined ? undefined : { text: table, line: lineAt(start) };
    let cur = '';
    let curAt = start;
    let split = false;
    for (const [sentence, at] of table === undefined ? sentences(p) : tableRows(p)) {
      // Not between a table's header row and its delimiter, however long the header.
      if (cur && at > (table?.length ?? 0) && cur.length + sentence.length > TARGET_CHARS) {
        push(cur.trim(), curAt, curAt > start ? head : undefined);
        cur = '';
      }
      if (!cur) curAt = start + at;
      cur += sentence;
      split = true;
    }
    if (!split) push(p, start);
    else if (cur.trim()) push(cur.trim(), curAt, curAt > start ? head : undefined);
  }
  return out;
}

/**
 * A word of the question or a passage: a signed word (C++, C#, F#, .NET: SIGNED_WORD, as
 * search reads it), a flag (a pair of regional indicators), any other pictograph, or a run
 * of what is neither white space, punctuation, a pictograph nor what only draws one (a skin
 * tone, a variation selector). minisearch's own words, split at white space and
 * punctuation only, read "C#" as "c" (# is punctuation) and "hello😀world" as one word: a
 * question about C# ranked every passage with a lone c ("vitamin c", "section c") with
 * the passages about C#, and 😀 found no passage where it touched a word.
 */
const WORD = new RegExp(
  `${SIGNED_WORD.source}|[\\u{1F1E6}-\\u{1F1FF}]{2}|${PICTOGRAPH.source}|(?:(?!${PICTOGRAPH.source})[^\\s\\p{P}\\u{1F3FB}-\\u{1F3FF}\\uFE0E\\uFE0F])+`,
  'gu',
);
const CJK_OR_NOT = new RegExp(`${CJK_CHAR.source}+|(?:(?!${CJK_CHAR.source}).)+`, 'gu');
/** A word that follows a dot inside a name (ASP.NET, Node.js): it is found by .NET as search finds it, so it is that word too. */
const AFTER_INNER_DOT = /(?<=[\p{L}\p{N}]\.)\p{L}/uy;

/**
 * Words for ranking (WORD), except that Chinese, Japanese and Korean, written without spaces,
 * would make a whole clause one word, so no question ever shared a word with a passage.
 * Their runs become overlapping character pairs (東京都は → 東京 京都 都は), the usual unit of
 * CJK retrieval: most words are two characters. Thai, Lao, Khmer and Burmese, written without
 * spaces too, are cut into their words by ICU's dictionaries, as the search index cuts them:
 * a Thai question was one word that no passage held, and got no answer.
 */
export function questionTerms(text: string): string[] {
  return terms(text, (run) => (HANGUL_WORD.test(run) ? koreanTerms(run) : pairsOf(run, allPairs)));
}

/**
 * A question's terms as questionTerms makes them, except that a run of Chinese or Japanese is
 * cut into the pairs that hold a content word's characters (contentPairs): none is half a word
 * and a function character.
 */
export function askedTerms(question: string): string[] {
  return terms(question, (run) => pairsOf(koreanWordOf(run), contentPairs));
}

/**
 * The terms (processTerm's) that say what a question asks: askedTerms' but its function words
 * (as its language reads them: functionWordsOf) and its Korean ones, whose words a passage holds
 * as koreanWords finds them. A passage is an answer only when it shares one of them; a pair
 * across two words (器的, 的内 of 服务器的内存) still ranks the passage holding the words side by
 * side above one holding them apart, as it did, but makes no answer of a passage about something
 * else.
 */
export function sayingTerms(question: string): Set<string> {
  const fn = functionWordsOf(question);
  return new Set(
    askedTerms(question)
      .map(processTerm)
      .filter((t): t is string => t !== null && !fn(t) && !HANGUL_WORD.test(t)),
  );
}

/**
 * Whether a question has words and none that says what it asks (sayingTerms, koreanWords): "the",
 * "what is it?", "и это что?", "これは何ですか？". Ranked on the function words, as there was
 * nothing else to go on, "и это что?" came back with a page's first passage holding "и" and "что",
 * as if it answered; in the whole job, with a score. Such a question gets no passage and says why
 * (ASKS_NOTHING).
 */
export function asksNothing(question: string): boolean {
  const asked = askedTerms(question);
  if (!asked.some((t) => processTerm(t) !== null) || sayingTerms(question).size > 0 || koreanWords(question) !== null) return false;
  // Each word a function word as typed, not only in its form (wordForm): "who didns?", the
  // question bench's, is didn's form; it was answered, on its words, with the sentence holding "didn't".
  const fn = functionWordsOf(question);
  return asked.every((t) => HANGUL_WORD.test(t) || fn(foldTerm(t)));
}

/** Why a question that asks nothing (asksNothing) has no answer, and what to do: the question option's meta.hint, Ask this job's error. */
export const ASKS_NOTHING = {
  why: 'The question has no word that names what to look for: words such as "what", "is" or "the" are in nearly every page',
  hint: 'Ask in words that name what you want, e.g. when do the trains leave?',
};

/**
 * A question whose words a "+" joins, as a web form's query writes its spaces
 * (`q=who+counted+the+crates` on a list line): the question with spaces in their place, else
 * undefined. A list line's value is read as written (C++, Ctrl+Alt+Del are words), so the
 * question was one word and found no answer; this is what to ask instead. A "+" between digits
 * (1+1) is arithmetic, and one at a word's end (C++, A+) is part of the word.
 */
export function plusForSpaces(question: string): string | undefined {
  if (/\s/.test(question.trim()) || !PLUS_JOIN.test(question)) return undefined;
  return question.trim().replace(/(?<=\p{L})\+(?=\p{L})/gu, ' ');
}
const PLUS_JOIN = /\p{L}\+\p{L}/u;

/**
 * Whether a passage says what a question asks: its ranking hit shares a term of sayingTerms
 * with the question, or its text holds one of the question's Korean words (koreanWords).
 */
export function answersQuestion(question: string): (queryTerms: readonly string[], text: string) => boolean {
  const says = sayingTerms(question);
  const korean = koreanWords(question);
  return (queryTerms, text) => queryTerms.some((t) => says.has(t)) || (korean?.test(compatFolded(text)) ?? false);
}

function terms(raw: string, cjkRun: (run: string) => string[]): string[] {
  // ＧＰＵ, １０, ｶﾞｲﾄﾞ, ﬁnal as the index reads them (GPU, 10, ガイド, final): a question typed
  // in the usual width found none of them.
  const text = compatFolded(raw);
  const out: string[] = [];
  for (const m of text.matchAll(WORD)) {
    const word = m[0];
    AFTER_INNER_DOT.lastIndex = m.index;
    if (AFTER_INNER_DOT.test(text)) out.push(`.${word}`);
    if (!CJK_CHAR.test(word)) {
      if (hasUnspacedLetter(word)) out.push(...unspacedWords(word));
      else out.push(word);
      continue;
    }
    for (const run of word.match(CJK_OR_NOT) ?? []) out.push(...cjkRun(run));
  }
  return out;
}

/** A run's terms by `pairs`, or the run itself when it is one character or no CJK at all. */
const pairsOf = (run: string, pairs: (run: string) => string[]): string[] =>
  [...run].length === 1 || !CJK_CHAR.test(run) ? [run] : pairs(run);

/** A run's overlapping character pairs: 東京都は → 東京 京都 都は. */
function allPairs(run: string): string[] {
  const chars = [...run];
  const out: string[] = [];
  for (let i = 0; i + 1 < chars.length; i++) out.push(chars[i]! + chars[i + 1]!);
  return out;
}

/**
 * Chinese characters that say where (上 on, 中 in, 里 inside, 下 under, 内, 外, 前, 后) or when
 * (时) when ICU reads them as a word of their own, as in 火星上 (on Mars); inside a word they are
 * its letters (上海, 中文, 时间), which isFunctionWord cannot tell apart in a pair.
 */
const LONE_FUNCTION_CHARS = new Set([...'上中下里内外前后时']);

const HANGUL_WORD = /^\p{Script=Hangul}+$/u;
/**
 * The particles and endings Korean writes joined to a word: case particles (의 of, 은 는 이 가,
 * 을 를, 에 에서 에게, 으로 로, 과 와, 도, 만, 까지, 부터) and the polite endings of a statement or
 * question (입니다 입니까 습니다 습니까 니다 니까, 요). Longest first.
 */
const KOREAN_ENDINGS = '입니다|입니까|습니다|습니까|에서는|에서도|에서|에게서|에게|에는|에도|으로는|으로|로는|까지|부터|처럼|보다|하고|이나|니다|니까|인가요|인가|나요|가요|세요|예요|이에요|이다|의|은|는|이|가|을|를|에|로|과|와|도|만|요|게';
/**
 * A Korean word and the particle or ending (KOREAN_ENDINGS) joined to it, after at least one
 * syllable of it. ICU reads 서울의 (Seoul's) as one word, whose pair 울의 is in 겨울의 (winter's):
 * a question about Seoul's weather answered with a passage about the winter's cold, and any
 * polite question (입니, 니까) with any polite passage. A word of one syllable left (국가: 국 and
 * 가) keeps its pair with the ending, as a Chinese one-character word does.
 */
const KOREAN_ENDING = new RegExp(`^(\\p{Script=Hangul}+?)(${KOREAN_ENDINGS})$`, 'u');

/**
 * A Korean word and two particles stacked on it: one saying where, how or with whom (에 에서 에게
 * 으로 까지 부터 처럼 보다 와), then one marking it as the topic, the only one, also, or of (만 도 는
 * 은 의 을 를): 내에만 (within, only), 서울에서의 (in Seoul's), 친구와의 (with a friend's). KOREAN_ENDING
 * takes off the last only, and 내에만 asked about 내에, which 내의 and 내에서 do not hold. The
 * first is never one a noun may end in (NOUN_FINAL's 로 과 are not here): 고양이는 is 고양이 and
 * 는, not 고양 and 이는, and a particle (에) after a noun ending in 게 (가게, shop) is not 게 and 에.
 */
const STACKED_ENDING = /^(\p{Script=Hangul}+?)(에서|에게서|에게|에|으로|까지|부터|처럼|보다|와)(만|도|는|은|의|을|를)$/u;

/** A Korean word's stem and the ending (or the first of two: STACKED_ENDING) taken off it, or null when it has none. */
const koreanEnding = (word: string): { stem: string; ending: string } | null => {
  const m = STACKED_ENDING.exec(word) ?? KOREAN_ENDING.exec(word);
  return m ? { stem: m[1]!, ending: m[2]! } : null;
};

/**
 * A Korean word as ranking pairs it: without the particles or ending joined to it, unless the
 * ending may be its own last syllable (NOUN_FINAL: 고양이 stays whole). The pairs across a word
 * and its particle (언에 of 선언에서) and within the particle (에서) were terms, in most passages
 * of a page.
 */
function koreanWordOf(run: string): string {
  const m = HANGUL_WORD.test(run) ? koreanEnding(run) : null;
  return m && !NOUN_FINAL.has(m.ending) ? m.stem : run;
}

/** A Korean word's last syllable that may be a particle or its own (NOUN_FINAL), after two syllables or more. */
const NOUN_FINAL_ENDING = /^(\p{Script=Hangul}{2,})([이가도의과로요만])$/u;

/**
 * A Korean word's ranking terms: as koreanWordOf leaves it, then, when its last syllable may be
 * a particle or its own (NOUN_FINAL_ENDING), the terms of the word without it and the word
 * whole, not the pair across the two: that pair (이가 of 고양이가, 울의 of 서울의) is in every word
 * ending so (아이가 a child, 차이가 a difference, 겨울의 winter's), and ranked a passage of them
 * above the one about the cat or Seoul. 고양이가, 고양이는 and 고양이 share 고양 and 고양이; 태양이
 * (the sun) is 태양 and 태양이, and shares neither.
 */
function koreanTerms(run: string): string[] {
  const word = koreanWordOf(run);
  const m = NOUN_FINAL_ENDING.exec(word);
  return m ? [...koreanTerms(m[1]!), word] : pairsOf(word, allPairs);
}

/**
 * What follows, in a passage, a Korean stem whose ending taken off may be its own last syllable
 * (NOUN_FINAL), or a word of one syllable: a particle, or two (에만, 과의), a form of the copula (이므로, 여야, 일),
 * 하 or 되 making a verb of it (선언하면, 선언된), or the word's end; not another syllable of a
 * noun, as the 고양 of 고양이 (cat) read as 고양 (Goyang) and 이 is not the 고양 of 고양시는 (the
 * city of Goyang).
 */
const AFTER_STEM = `(?:(?:(?:${KOREAN_ENDINGS})(?:는|도|만|의|은|을|를)?|이므로|이며|이고|이지만|이라는|이라고|이라면|이어야|여야|이거나|거나|나|일|인|임|로서|로써|으로서|으로써)(?!\\p{Script=Hangul})|[하한할함합해했되된될됨됩돼됐]|(?!\\p{Script=Hangul}))`;

/**
 * A Korean stem as a passage holds it: followed as AFTER_STEM says, and where a word starts when
 * it is one syllable (집 of 집에, not of 편집은); followed by anything when it is a verb's, ending
 * in 하 or 되 (포함하 of 포함하는 in 포함하지), as a verb's endings are too many to list.
 */
const koreanStem = (stem: string): string =>
  /[하되]$/.test(stem) ? stem : [...stem].length === 1 ? `(?<!\\p{Script=Hangul})${stem}${AFTER_STEM}` : `${stem}${AFTER_STEM}`;

/**
 * The one-syllable endings that are also a noun's last syllable: the noun suffix 이 (고양이 cat,
 * 어린이 child, 높이 height) and Sino-Korean syllables (가 家 of 전문가, 도 度 of 해상도, 의 義 of
 * 재정의, 과 果 of 결과, 로 路 of 도로, 요 要 of 필요, 만 萬 of 백만). 은 는 을 를 에 와 게 end few.
 */
const NOUN_FINAL = new Set([...'이가도의과로요만']);

/**
 * The question's Korean words as a passage must hold them to answer it: each word as written,
 * anywhere in a passage's words (자동차 in 전기자동차가), and its stem (KOREAN_ENDING's), anywhere
 * too (선언 of 선언에서 in 선언된, 고양 of 고양은 in 고양시는). A stem whose ending may be its own
 * last syllable (NOUN_FINAL), and a word of one syllable, a passage holds only as AFTER_STEM
 * says: 고양이 (cat) is also 고양 (Goyang) and 이, and read as 고양 alone it answered with a
 * passage about the city of Goyang (고양시는). Of the 879 words of TypeScript's Korean messages
 * (typescript/lib/ko) a one-syllable ending leaves two syllables or more of, 2 are such a word
 * (재정의, 해상도); over its 2,353 words, a stem so read is found in 1,202 of the 1,223 words
 * holding it (372 when every stem was found before an ending or the word's end only). A word, not
 * its character pairs: the pair 양이 of 고양이 is in 태양이 (the sun, as subject), and a question
 * about what cats eat answered with the sun; 17 of 5,244 pairs of a word and one of another stem
 * shared a pair so, none shares a word. Null when the question has no Korean word that is not a
 * function word.
 */
function koreanWords(question: string): RegExp | null {
  const found = new Set<string>();
  for (const word of compatFolded(question).match(/\p{Script=Hangul}+/gu) ?? []) {
    const m = koreanEnding(word);
    const stem = m?.stem ?? word;
    if (isFunctionWord(foldTerm(stem))) continue;
    found.add([...word].length === 1 ? koreanStem(word) : word);
    if (m) found.add([...stem].length === 1 || NOUN_FINAL.has(m.ending) ? koreanStem(stem) : stem);
  }
  return found.size === 0 ? null : new RegExp([...found].join('|'), 'u');
}

/**
 * A run of Chinese or Japanese cut into its words by ICU's dictionary, then into the pairs that
 * hold a content word's characters: every pair within a word; a pair across two words only
 * where one is a one-character content word, as a word ICU does not know comes apart into
 * single characters (航|班) and a one-character word (猫, 高 of 高さ) has no pair of its own;
 * with a function word beside it only when no content word is (猫|是, not 服务|器|的's 器的).
 * Every pair before was a term, and a pair of half a word and a function character (机的 of
 * 飞机的, 们发 of 我们发工资, の人 of 東京の人口) found passages about a phone's battery, a new
 * galaxy and dolls, answered as if on the question's topic. Only the question is cut so: its
 * runs are short, and ICU took 5 µs a character of a 110,000-character text cut at its
 * punctuation (pairs 0.3 µs), and 249 s on the same text as one string.
 */
function contentPairs(run: string): string[] {
  const words: { word: string; ending: boolean }[] = [];
  for (const s of segmentWords(run)) {
    const m = HANGUL_WORD.test(s.segment) ? koreanEnding(s.segment) : null;
    if (m) words.push({ word: m.stem, ending: false }, { word: s.segment.slice(m.stem.length), ending: true });
    else words.push({ word: s.segment, ending: false });
  }
  const lone = words.map(({ word }) => [...word].length === 1);
  const fn = words.map(({ word, ending }, i) => ending || isFunctionWord(foldTerm(word)) || (lone[i]! && LONE_FUNCTION_CHARS.has(word)));
  const content = (i: number): boolean => i >= 0 && i < words.length && !fn[i];
  const oneChar = (i: number): boolean => content(i) && lone[i]!;
  const isolated = (i: number): boolean => oneChar(i) && !content(i - 1) && !content(i + 1);
  const out: string[] = [];
  for (let i = 0; i < words.length; i++) {
    const { word, ending } = words[i]!;
    if (!lone[i] && !ending) out.push(...allPairs(word));
    if (i + 1 === words.length) continue;
    const across = (content(i) && content(i + 1) && (oneChar(i) || oneChar(i + 1))) || isolated(i) || isolated(i + 1);
    if (across) out.push([...word].at(-1)! + [...words[i + 1]!.word][0]!);
  }
  return out;
}

/** A word as ranking compares it: without case, accents or vowel marks, as people type them, in the form its plural and -ing and -ed forms share (wordForm; "Ask this job" too). */
export const processTerm = (term: string): string | null => wordForm(foldTerm(term)) || null;

/**
 * A word's form (processTerm) and, for a Russian word whose form it is not, the word as written
 * too, so a passage holding the question's own form ranks above one holding another.
 */
export function formAndWord(term: string): string[] {
  const form = processTerm(term);
  if (form === null) return [];
  const folded = foldTerm(term);
  return folded !== form && RUSSIAN_WORD.test(folded) ? [form, folded] : [form];
}

/**
 * formAndWord remembering each word's terms, for indexing many passages at once: a page's words
 * repeat (Zipf), and a cold "Ask this job" over a 40-page job's 30 results spent 231 ms of its
 * 1,223 ms (profiled) folding and forming words already formed. Remembered, its CPU time fell
 * from 354 to 298 ms (medians of 8 cold runs each, interleaved).
 */
export function termForms(): (term: string) => string[] {
  const forms = new Map<string, string[]>();
  return (term) => {
    let terms = forms.get(term);
    if (terms === undefined) forms.set(term, (terms = formAndWord(term)));
    return terms;
  };
}

/**
 * The passages that answer a question: `content`, how many were chosen, the line of the text
 * each shown one starts on, and the line of the text each line of `content` is (0 for the blank
 * line between two passages): a table's header row shown over a piece of it is not where the
 * piece starts.
 */
export interface Answer {
  content: string;
  passages: number;
  lines: number[];
  origin: number[];
  /** The question asks nothing (asksNothing): no passage is ranked. */
  asksNothing?: true;
}

/**
 * 3 best passages, plus any scoring at least half the best, up to 5: one answer rarely needs
 * more. None under a quarter of the best, as "Ask this job" picks them: shown in the page's
 * order, a passage sharing one word with the question came before the one that answers it
 * ("when will Europa Clipper launch?" led with the title and the first paragraph, each
 * holding "Europa" once, scoring 0.7 to the answer's 25).
 */
const BEST = 3;
const MAX = 5;

/** Of hits ranked best first, the ones to keep by the rule above, at most `max`. */
export function bestPassages<T extends { score: number }>(hits: readonly T[], max = MAX): T[] {
  const top = hits[0]?.score ?? 0;
  return hits.filter((h, i) => (i < BEST && h.score >= top / 4) || (i < max && h.score >= top / 2)).slice(0, max);
}

/**
 * Whether passage b is the piece of a long table right after passage a: the pieces of one table
 * share one head (Passage.head), and the first, which holds it, starts on its line.
 */
const continuesTable = (a: Passage | undefined, b: Passage): boolean => b.head !== undefined && a?.idx === b.idx - 1 && (a.head === b.head || a.line === b.head.line);

/**
 * A heading: a passage of its own after splitPassages, though it is only a label. A Markdown
 * heading, or a numbered section's title on a line alone ("6.3 安装 Debian Edu", "2.1 Scope"),
 * as a PDF or a text file gives it, without the #: "如何安装 Debian Edu？" was answered by that
 * line alone, its section's prose below it.
 */
const HEADING = /^#{1,6}[ \t]|^\d+(?:\.\d+)+\.?[ \t]+[^\n]{1,80}$/u;
/** A passage that is a heading (HEADING), not a contents line nor a sentence. */
const isHeading = (text: string): boolean => HEADING.test(text) && !POINTER_LINE.test(text) && !/[.!?。！？:：;；,，]$/u.test(text);

/**
 * A line that sends the reader to a page instead of saying anything: a contents line (a title,
 * leaders or a section's number, a page number), an index entry (a term, then two page numbers
 * or more), a page's number alone in its header or footer ("8 / 81", "- 3 -", "ii").
 */
const POINTER_LINE = new RegExp(
  [
    String.raw`(?:[.·…‥⋯][ \t]?){4,}[ \t]*(?:\d+|[ivxlcdm]+)$`,
    String.raw`^\d+(?:\.\d+)*\.?[ \t]+\S.*[ \t]\d+$`,
    String.raw`^[^\d\n.!?。！？]{1,60},[ \t]*\d+(?:[-–]\d+)?(?:,[ \t]*\d+(?:[-–]\d+)?)+$`,
    String.raw`^[-–—\s]*(?:\d+|[ivxlcdm]+)(?:[ \t]*\/[ \t]*\d+)?[-–—\s]*$`,
  ].join('|'),
  'iu',
);
/** A page number ending a running header ("Debian Edu / Skolelinux Bullseye 11 手册 ii", "… 8 / 81"). */
const PAGE_AT_END = /[ \t]+(?:\d+(?:[ \t]*\/[ \t]*\d+)?|[ivxlcdm]+)$/iu;
/** What a passage of a contents page, an index, page numbers or a running header weighs against prose (proseFirst). */
const POINTER_WEIGHT = 0.1;

/**
 * Of a text's passages, the ones that only point to a page: half of their lines or more are
 * POINTER_LINEs, or they are one line ending in a page number that the text repeats with
 * another (a running header or footer: a book's title over each page). A short line repeated
 * without one is a page's own (on the question bench, 3 answers were lost so).
 */
export function pointsElsewhere(texts: readonly string[]): boolean[] {
  const said = new Map<string, number>();
  const lone = texts.map((t) => (t.includes('\n') || t.length > 120 || !PAGE_AT_END.test(t.trim()) ? undefined : t.trim().replace(PAGE_AT_END, '')));
  for (const key of lone) if (key) said.set(key, (said.get(key) ?? 0) + 1);
  return texts.map((text, i) => {
    if ((said.get(lone[i] ?? '') ?? 0) > 1) return true;
    const lines = text.split('\n').map((l) => l.trim()).filter((l) => l !== '');
    return lines.length > 0 && lines.filter((l) => POINTER_LINE.test(l)).length * 2 >= lines.length;
  });
}

/**
 * Hits ranked best first, those that point elsewhere (pointsElsewhere) weighed at POINTER_WEIGHT:
 * short and holding every word of a chapter's title, "6.3 安装 Debian Edu . . . . . 8" came
 * first for "如何安装 Debian Edu？", over the chapter's prose.
 */
export function proseFirst<T extends { score: number }>(hits: readonly T[], points: (hit: T) => boolean): T[] {
  return hits.map((h) => (points(h) ? { ...h, score: h.score * POINTER_WEIGHT } : h)).sort((a, b) => b.score - a.score);
}
/** Headings that lend their words to the passage under them: a title, a section's and a subsection's. */
const HEADINGS_LENT = 3;

/**
 * The headings right above passage i (at most HEADINGS_LENT) when it is no heading itself: the
 * labels it is read under. A later piece of a long table (Passage.head) is read under the
 * headings over the table's first piece: a 40-row table under "Results of 2019" was cut into 4
 * pieces, and a row in the 3rd ranked and came back with no word of which season it was.
 */
export function headingsOver(passages: readonly Passage[], i: number): number[] {
  const out: number[] = [];
  if (isHeading(passages[i]?.text ?? '')) return out;
  const head = passages[i]?.head;
  let first = i;
  while (head && first > 0 && continuesTable(passages[first - 1], passages[first]!)) first--;
  for (let j = first - 1; j >= 0 && j >= first - HEADINGS_LENT && isHeading(passages[j]!.text); j--) out.push(j);
  return out;
}

/**
 * The headings each passage is read under (headingsOver), top first; undefined for a heading that
 * lends its words so, and comes back with the passage under it, never alone.
 */
export function headingsLent(passages: readonly Passage[]): (number[] | undefined)[] {
  const out: (number[] | undefined)[] = passages.map(() => []);
  for (let i = 0; i < passages.length; i++) {
    const over = headingsOver(passages, i).reverse();
    if (over.length === 0) continue;
    out[i] = over;
    for (const j of over) out[j] = undefined;
  }
  return out;
}

/** A passage as it is ranked and shown: under its table's header row when it has one (Passage.head). */
export const withHead = (p: Passage): string => (p.head ? `${p.head.text}\n${p.text}` : p.text);

/**
 * What each passage is ranked on: its words as a reader sees them (a link's text, not its
 * address), with its table's header row (Passage.head) and the words of the headings over it (headingsOver); undefined for a heading
 * that lends its words so, and comes back with that passage. Ranked alone, a heading is short
 * and holds the names a question asks about, so BM25 put it first: on the question bench
 * (bench/question.ts) a title or a product's heading was the best passage for 8 of the 14
 * questions its best passage did not answer, and came back alone, answering nothing.
 */
function rankedTexts(passages: readonly Passage[], markdown: boolean): (string | undefined)[] {
  const own = passages.map((p) => {
    const text = withHead(p);
    return markdown ? markdownAsRead(text) : withoutLinkTargets(text);
  });
  return headingsLent(passages).map((over, i) => over && [...over.map((j) => own[j]!), own[i]!].join('\n'));
}

/**
 * Passages ranked against a question with BM25 (minisearch's scoring), best first: the ones
 * sharing a word that says what it asks with it. `markdown`: the passages are a page's
 * Markdown, ranked on its words as they read (markdownAsRead): "un*break*able" and
 * "<mark>tide</mark>" held no such word.
 */
export function rankPassages(passages: readonly Passage[], question: string, markdown = false): { id: number; score: number }[] {
  if (asksNothing(question)) return [];
  // Ranked on the words a reader sees: a link's address is not read, and on a news page its
  // slug (/2019/11/jupiter-moon-europa-water-plume) repeats the article's own words, so a
  // passage was chosen, and shown as the answer, for words only its links' addresses held.
  const texts = rankedTexts(passages, markdown);
  const ms = new MiniSearch<Passage>({
    fields: ['text'],
    idField: 'idx',
    storeFields: [],
    tokenize: questionTerms,
    processTerm: formAndWord,
    extractField: (p, field) => (field === 'idx' ? p.idx : texts[p.idx]),
  });
  ms.addAll(passages.filter((p) => texts[p.idx] !== undefined));
  // The question's words that say what it asks; a question of words that are function words
  // in their form only ("who didns?": asksNothing) keeps them all, as there is nothing else to go on.
  const words = [...new Set(questionTerms(question).map(processTerm))].filter((t): t is string => t !== null);
  const fn = functionWordsOf(question);
  const asks = words.filter((t) => !fn(t));
  const answers = answersQuestion(question);
  const hits = ms
    .search(question, {
      processTerm: (term) => {
        const t = processTerm(term);
        return t !== null && (asks.length === 0 || asks.includes(t)) ? formAndWord(term) : null;
      },
      prefix: (term) => term.length > 3,
      fuzzy: (term) => (term.length > 5 ? 0.2 : false),
      combineWith: 'OR',
    })
    .filter((h) => asks.length === 0 || answers(h.queryTerms, texts[Number(h.id)]!))
    .map((h) => ({ id: Number(h.id), score: h.score }));
  const points = pointsElsewhere(passages.map((p) => p.text));
  return proseFirst(hits, (h) => points[h.id]!);
}

/**
 * The best passages for a question (rankPassages, bestPassages) in document order, each under
 * the headings and table header it was ranked with; with context, each one's neighbours too. `lines`: the line of `text` each passage of `content`
 * starts on. `markdown`: as rankPassages.
 */
export function answer(text: string, question: string, context: boolean, markdown = false): Answer {
  const none: Answer = { content: '', passages: 0, lines: [], origin: [] };
  if (asksNothing(question)) return { ...none, asksNothing: true };
  const passages = splitPassages(text);
  if (passages.length === 0) return none;
  const hits = rankPassages(passages, question, markdown);
  if (hits.length === 0) return none;
  const chosen = bestPassages(hits).map((h) => h.id);
  const keep = new Set<number>(chosen.flatMap((i) => [i, ...headingsOver(passages, i)]));
  if (context) for (const i of chosen) for (const j of [i - 1, i + 1]) if (j >= 0 && j < passages.length) keep.add(j);
  const shown = [...keep].sort((a, b) => a - b).map((i) => passages[i] as Passage);
  const origin: number[] = [];
  const lineOf = (from: number, text: string): number[] => text.split('\n').map((_, k) => from + k);
  // A table's piece shown right after the piece before it goes on with that table, under the
  // header row already shown: with --context, the 2nd piece of a 40-row table, around the 3rd
  // that answered, came back as three tables, the header row over each, a blank line between.
  let content = '';
  shown.forEach((p, k) => {
    const goesOn = continuesTable(shown[k - 1], p);
    if (k > 0) content += goesOn ? '\n' : '\n\n';
    if (k > 0 && !goesOn) origin.push(0);
    if (p.head && !goesOn) origin.push(...lineOf(p.head.line, p.head.text));
    origin.push(...lineOf(p.line, p.text));
    content += goesOn ? p.text : withHead(p);
  });
  return { content, passages: chosen.length, lines: shown.map((p) => p.line), origin };
}
