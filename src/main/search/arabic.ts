/**
 * Arabic words without what is written joined to their start: a light stemmer's prefix step
 * (Larkey et al.'s light10, as Lucene's ArabicStemmer has it), which the search index and
 * its queries (fold.ts) and the ranking of passages (fetch/word-forms.ts) share, so a word
 * reads the same wherever it is compared. No suffix is taken off: a word is one word, in
 * its place, and a snippet marks it whole.
 */

/**
 * Letters of Arabic's own alphabet (hamza to yeh), after the fold. A word with Persian or Urdu
 * letters (پ چ ژ گ ک ی) is left alone: those languages write "and" apart, and واژه (word) is no و + اژه.
 */
export const ARABIC_WORD = /^[\u0621-\u064A]+$/;

/**
 * What Arabic writes joined to a word's start, as light stemmers (Larkey's light10, Lucene's
 * ArabicStemmer) take it off: the article ال with ب (with) or ك (as) before it, لل (ل + ال,
 * for the), either after ف (so) or و (and); or و alone. ب, ك, ل and ف alone stay: they begin
 * too many words (كتاب, بيت, فكرة, idea, which would be كرة, ball). The longer first, so
 * والكتاب loses وال, not و alone.
 */
const ARABIC_ARTICLES = ['ال', 'بال', 'كال', 'لل'];
export const ARABIC_PROCLITICS = [...['ف', 'و'].flatMap((and) => ARABIC_ARTICLES.map((a) => and + a)), ...ARABIC_ARTICLES, 'و'];
const ARABIC_PROCLITIC = new RegExp(`^(?:${ARABIC_PROCLITICS.join('|')})`);
/** Arabic roots have three letters: a shorter rest is the word itself (الله is not ال + له, "to him"). */
export const ARABIC_STEM_MIN = 3;

/**
 * An Arabic word without the article and the letters written joined before it (ARABIC_PROCLITIC),
 * so والكتاب and بالكتاب meet الكتاب and كتاب: a query with one found none of the others, as
 * a page writes the word joined to what comes before it. Taken off until nothing changes, so a
 * word beginning with و meets its forms with the article (وزير, الوزير: both زير).
 */
export function arabicForm(word: string): string {
  let w = word;
  for (let m = ARABIC_PROCLITIC.exec(w); m && w.length - m[0].length >= ARABIC_STEM_MIN; m = ARABIC_PROCLITIC.exec(w)) w = w.slice(m[0].length);
  return w;
}

/**
 * Particles and pronouns of two letters, folded (من, في, عن, إن, أن, ما, لا, هو…): after ال they
 * are no noun (الله is no ال + له, الآن, now, no ال + أن), so no word is asked for with them.
 */
const TWO_LETTER_PARTICLES = new Set('من في عن ان ما لا لم لن قد هو هي له لك لي لنا كي مع او ام اي ذا ذي تي يا ثم بل اذ اذا هل كم'.split(' '));

/**
 * The spellings of a folded Arabic word typed bare whose rest after the article is two letters
 * (أب, father, or الأب): the rest alone and with the article, alone or after what is written
 * joined before it (WITH_ARTICLE). The index holds such a word as written, its rest being too short for
 * arabicForm to take the article off (الله), so أب found no الأب, and الأب no أب or والأب.
 * The word alone for any other, and for a particle (TWO_LETTER_PARTICLES).
 */
export function arabicArticleForms(folded: string): string[] {
  const rest = folded.startsWith('ال') ? folded.slice(2) : folded;
  return articleRest(rest) ? [rest, ...WITH_ARTICLE.map((p) => p + rest)] : [folded];
}

/** What is written before a word with the article, the article included (وال, بال, لل…): و alone before two letters is a word's own (ولد, boy). */
const WITH_ARTICLE = ARABIC_PROCLITICS.filter((p) => p.endsWith('ال') || p.endsWith('لل'));
/** Two letters that may be a word after the article: none of the particles, nor the article itself. */
const articleRest = (rest: string): boolean => rest.length === 2 && ARABIC_WORD.test(rest) && !TWO_LETTER_PARTICLES.has(rest) && !ARABIC_PROCLITICS.includes(rest);

/**
 * The starts an index word may have for a folded prefix typed (الك*): the prefix itself, and
 * for one whose rest after what is joined before it is too short for arabicForm to take off
 * (one or two letters), that rest too: the index holds الكتاب as كتاب and الله as it is, so
 * الك* asks for both ك* and الك*; a prefix of two letters, the same after each of them (أب* is
 * الأب* too). One start for any other prefix (arabicForm's, as a word's).
 */
export function arabicPrefixStarts(folded: string): string[] {
  const form = arabicForm(folded);
  if (form !== folded || !ARABIC_WORD.test(folded)) return [form];
  const p = ARABIC_PROCLITICS.find((c) => folded.startsWith(c) && folded.length > c.length);
  if (p) return [folded, folded.slice(p.length)];
  // أب* is also الأب, which the index holds as written (arabicArticleForms).
  return articleRest(folded) ? [folded, ...WITH_ARTICLE.map((c) => c + folded)] : [folded];
}

/**
 * A word of Arabic letters alone, as FTS5's unicode61 reads a word: letters and digits (and
 * the private-use characters fold.ts writes emoji as) continue it; a mark, a space, a
 * zero-width non-joiner end it. A word with a letter of another alphabet or a digit in it
 * (واژه, والكتاب2) is none, and stays as written. Runs of Arabic letters are found first and
 * their neighbours checked after: the same test as lookarounds in the regex took 1.8-3.1 ms
 * for 20 KB of Arabic, the runs alone 0.8-2.0 (on a loaded 2-core machine).
 */
const ARABIC_RUN = /[\u0621-\u064A]{4,}/g;
const WORD_CHAR = /[\p{L}\p{N}\p{Co}]/u;
const continues = (text: string, i: number): boolean => i >= 0 && i < text.length && WORD_CHAR.test(String.fromCodePoint(text.codePointAt(i) as number));
/** How many letters arabicForm takes off the run of Arabic letters text[at, at + word.length) (0 when the run is part of a longer word). */
function cutOf(text: string, word: string, at: number): number {
  if (continues(text, at + word.length)) return 0;
  // The character before may be the low half of a supplementary letter.
  const before = at > 1 && /[\uDC00-\uDFFF]/.test(text[at - 1] as string) ? at - 2 : at - 1;
  return continues(text, before) ? 0 : word.length - cachedForm(word).length;
}
/** Any letter of ARABIC_WORD's: a text without one is left as it is, unread. */
const ANY_ARABIC = /[\u0621-\u064A]/;

/** Whether text holds an Arabic letter, which arabicForms may change. */
export const hasArabicLetter = (text: string): boolean => ANY_ARABIC.test(text);

// A page repeats its words, each of which arabicForm reads with a regex for every letter it takes off.
const formCache = new Map<string, string>();
function cachedForm(word: string): string {
  let f = formCache.get(word);
  if (f === undefined) {
    f = arabicForm(word);
    if (formCache.size < 20_000) formCache.set(word, f);
  }
  return f;
}

/** Folded text with each Arabic word as arabicForm has it (fold.ts's foldForIndex). */
export function arabicForms(folded: string): string {
  if (!ANY_ARABIC.test(folded)) return folded;
  return folded.replace(ARABIC_RUN, (word: string, at: number) => word.slice(cutOf(folded, word, at)));
}

/**
 * arabicForms over folded text with the offset in the original of each folded unit (fold.ts's
 * foldWithMap): a word's first remaining letter takes the offset of its first letter, so a
 * match on كتاب marks والكتاب whole, as the page writes it.
 */
export function arabicFormsWithMap(folded: string, at: Int32Array): { folded: string; at: Int32Array } {
  const parts: string[] = [];
  const out = new Int32Array(at.length);
  let n = 0;
  let from = 0;
  for (const m of folded.matchAll(ARABIC_RUN)) {
    const cut = cutOf(folded, m[0], m.index);
    if (cut === 0) continue;
    parts.push(folded.slice(from, m.index));
    out.set(at.subarray(from, m.index), n);
    n += m.index - from;
    from = m.index + cut;
    // The stem's first letter stands for the word's first.
    at[from] = at[m.index] as number;
  }
  if (from === 0) return { folded, at };
  parts.push(folded.slice(from));
  out.set(at.subarray(from), n);
  n += at.length - from;
  return { folded: parts.join(''), at: out.subarray(0, n) };
}
