import { ARABIC_STEM_MIN, ARABIC_WORD, arabicForm } from '../search/arabic';
import { FUNCTION_WORDS } from './function-words';

/** Letters a suffix rule reads: a folded word of Latin letters only (the fold has dropped case and accents). */
const LATIN_WORD = /^[a-z]+$/;
const VOWEL = /[aeiouy]/;
/**
 * Words whose final s is their own, not a plural's: Porter2's (Snowball English) list of them.
 * "news" lost its s and met every "new" of a page: "what is new?" answered with the news.
 */
const OWN_FINAL_S = new Set(['news', 'atlas', 'bias', 'cosmos', 'andes']);

/** A folded word of the Russian alphabet (the fold has made ё an е). */
export const RUSSIAN_WORD = /^[а-я]+$/;
/**
 * Russian case and number endings of nouns and adjectives, by length, each taken off only where
 * 3 letters stay: Dolamic and Savoy's light stemmer for Russian (Lucene's RussianLightStemmer),
 * its ё endings written with е, as the fold leaves them, and a noun's ю (песню, неделю, and with
 * the ь after it, скоростью), which Snowball's Russian stemmer takes off and the light one kept:
 * "что со скоростью?" met no page saying "скорость", and "песню" no "песня".
 */
const RUSSIAN_ENDINGS: readonly (readonly string[])[] = [
  ['иями', 'оями'],
  ['иям', 'иях', 'оях', 'ями', 'оям', 'ами', 'его', 'ему', 'ери', 'ими', 'ого', 'ому', 'ыми', 'оев'],
  ['ая', 'яя', 'ях', 'юю', 'ах', 'ею', 'их', 'ия', 'ию', 'ою', 'ую', 'ям', 'ых', 'ея', 'ам', 'ем', 'ей', 'ев', 'ий', 'им', 'ое', 'ой', 'ом', 'ов', 'ые', 'ый', 'ым', 'ми'],
  ['а', 'е', 'и', 'о', 'у', 'й', 'ы', 'я', 'ь', 'ю'],
];
/**
 * Words whose final ю is their own, not a case's: nouns borrowed whole, which no case changes.
 * "меню" lost its ю and met every "меня" (me) of a page, and "интервью" every "интервал".
 */
const OWN_FINAL_YU = new Set(['меню', 'интервью', 'авеню', 'дежавю', 'парвеню']);

/**
 * A Russian word without its case and number ending (RUSSIAN_ENDINGS, the longest that fits),
 * then without a last ь or и, or one н of нн: коды, кодов, кодами → код; системы, систему →
 * систем. "КАКИЕ КОДЫ?" got no answer on a page saying "за счёт кодов": a prefix is matched
 * one way only (кодов is no start of коды), and the fuzzy match spares no letter of 4.
 */
function russianForm(w: string): string {
  if (OWN_FINAL_YU.has(w)) return w;
  let stem = w;
  for (const endings of RUSSIAN_ENDINGS) {
    const end = endings.find((e) => w.endsWith(e) && w.length - e.length >= 3);
    if (end === undefined) continue;
    stem = w.slice(0, -end.length);
    break;
  }
  if (stem.length > 3 && (/[ьи]$/.test(stem) || stem.endsWith('нн'))) return stem.slice(0, -1);
  return stem;
}

/** One suffix off, or the word itself when no rule applies; each rule leaves at least 3 letters with a vowel among them. */
function stripOnce(w: string): string {
  const keeps = (stem: string): boolean => stem.length >= 3 && VOWEL.test(stem);
  if (w.endsWith('ies') && w.length > 4) return `${w.slice(0, -3)}y`; // studies, companies
  if (w.endsWith('ied') && w.length > 4) return `${w.slice(0, -3)}y`; // studied, carried
  if (w.endsWith('sses')) return w.slice(0, -2); // classes
  if (/(?:ch|sh|x|z)es$/.test(w) && keeps(w.slice(0, -2))) return w.slice(0, -2); // launches, taxes
  if (/[^su]s$/.test(w) && !OWN_FINAL_S.has(w) && !/is$/.test(w) && keeps(w.slice(0, -1))) return w.slice(0, -1); // cats, delays (not bus, glass, analysis)
  for (const suffix of ['ing', 'ed']) {
    if (!w.endsWith(suffix)) continue;
    const stem = w.slice(0, -suffix.length);
    if (!keeps(stem)) return w;
    // stopped, planning: the doubled consonant the suffix brought (not the ll, ss, zz a word has:
    // "called", "passed"; nor a three-letter word's own, as bases() reads them: add, not ad).
    return /([^aeiouylsz])\1$/.test(stem) && stem.length > 3 ? stem.slice(0, -1) : stem;
  }
  // A final silent e, so "merge" meets "merged" and "merging" (both merg).
  if (w.endsWith('e') && w.length > 3 && !w.endsWith('ee')) return w.slice(0, -1);
  return w;
}

/**
 * The form of a folded word that its plural and its -ing and -ed forms share (cats → cat,
 * launching and launched → launch, studies → study), so a question asked in other forms than
 * the page's words finds the passage: "when was it launched?" found "the launch was delayed"
 * only by prefix, and "launching", "delays", "tests" or "cat" found nothing at all in a page
 * saying "launch", "delayed", "testing" and "cats" (minisearch's prefix runs one way, and its
 * fuzzy match allows one letter in five). A light rule set (the first steps of Porter's, whose
 * full stemmer also merges words a reader keeps apart: "general" and "generous"), for words
 * of Latin letters; function words stay as they are, so they are still known as such.
 * Applied until nothing changes, so a form of a form is the same word (speeds → speed → spe).
 * Arabic words lose what is written joined to their start instead (arabicForm), Russian ones
 * their case and number ending (russianForm).
 */
export function wordForm(folded: string): string {
  if (FUNCTION_WORDS.has(folded)) return folded;
  if (ARABIC_WORD.test(folded)) return arabicForm(folded);
  if (RUSSIAN_WORD.test(folded)) return russianForm(folded);
  if (!LATIN_WORD.test(folded) || folded.length < 4) return folded;
  let w = folded;
  for (let next = stripOnce(w); next !== w; next = stripOnce(w)) w = next;
  return w;
}

/**
 * The words a page may write that have `form` (wordForm's), as the search index is asked for
 * them, each as a prefix: a Latin form is its own start (launch finds launched). An Arabic one
 * is its own start too, as the index holds each Arabic word without what is written joined to
 * its start (search/arabic.ts); asked before with each proclitic before it, a question of five
 * Arabic words asked FTS5 for 86 to 140 terms, 140-163 ms over 2,000 results. A Russian one
 * is the start of each of its case forms (код finds кодов). None for other scripts, asked as typed.
 */
export function formSpellings(form: string): string[] {
  const own = /^[a-z]{3,}$/.test(form) || (ARABIC_WORD.test(form) && form.length >= ARABIC_STEM_MIN) || (RUSSIAN_WORD.test(form) && form.length >= 3);
  return own ? [form] : [];
}

/**
 * A consonant, a vowel and a consonant other than w, x or y at a word's end: stop, plan (stopped,
 * planning). Not a two-letter word's vowel and consonant: ad, up and on double nothing a page
 * writes, and "ad" made added and adding its forms, where they are add's.
 */
const SHORT_END = /[^aeiouy][aeiou][^aeiouywx]$/;
/** One syllable at most before the end: the words that double their last consonant or keep a silent e (Porter's m = 1). */
const oneSyllable = (w: string): boolean => (w.match(/[aeiouy]+/g) ?? []).length <= 1;

/**
 * The words a folded English word may be the inflection of (reported → report, stopping → stop,
 * making → make, hoped → hope, studies → study), as Porter's step 1 reads them; none for a word
 * that ends in none of -s, -ed or -ing.
 */
function bases(w: string): string[] {
  if (w.endsWith('ies') && w.length > 4) return [`${w.slice(0, -3)}y`];
  if (w.endsWith('ied') && w.length > 4) return [`${w.slice(0, -3)}y`];
  if (w.endsWith('sses')) return [w.slice(0, -2)];
  if (/(?:ch|sh|x|z)es$/.test(w)) return [w.slice(0, -2)];
  if (/[^su]s$/.test(w) && !OWN_FINAL_S.has(w) && !/is$/.test(w)) return [w.slice(0, -1)];
  // agreed is agree; speed and need are words of their own.
  if (w.endsWith('eed')) return takesEd(w.slice(0, -3)) ? [w.slice(0, -1)] : [];
  for (const suffix of ['ing', 'ed']) {
    if (!w.endsWith(suffix)) continue;
    const stem = w.slice(0, -suffix.length);
    // need, bring: the rest has no vowel, or is two letters that are no word's start (us of used is).
    if (!VOWEL.test(stem) || (stem.length < 3 && !/^[aeiou][^aeiou]$/.test(stem))) return [];
    // The doubled consonant of stopped, not the dd of added: a stem of three letters is the word (add, ebb, err).
    if (/([^aeiouylsz])\1$/.test(stem) && stem.length > 3) return [stem.slice(0, -1)];
    // argued, arguing, continued: a stem ending in u is a word ending in ue (argu made "argus").
    if (stem.endsWith('u')) return [`${stem}e`];
    if (/(?:at|bl|iz)$/.test(stem) || (oneSyllable(stem) && SHORT_END.test(stem)) || /^[aeiou][^aeiou]$/.test(stem)) return [`${stem}e`];
    return [stem];
  }
  return [];
}

/**
 * Whether a word ending in ee, whose start is `before`, has a past in -eed: a syllable must come
 * before the ee (Porter's m > 0): agree, guarantee. One-syllable ones are see, fee, flee, whose
 * -eed is another word (seed, feed) or none.
 */
const takesEd = (before: string): boolean => /[aeiouy][^aeiouy]/.test(before);

/** A base word's plural (or third person), past and -ing forms, spelled by the regular rules. */
function inflections(b: string): string[] {
  const consonantY = /[^aeiou]y$/.test(b);
  const doubles = oneSyllable(b) && SHORT_END.test(b);
  const last = b.slice(-1);
  const silentE = b.endsWith('e') && !/(?:ee|ye|oe)$/.test(b);
  const past = b.endsWith('ee') && !takesEd(b.slice(0, -2)) ? [] : [b.endsWith('e') ? `${b}d` : consonantY ? `${b.slice(0, -1)}ied` : doubles ? `${b}${last}ed` : `${b}ed`];
  return [
    b,
    consonantY ? `${b.slice(0, -1)}ies` : /(?:s|x|z|ch|sh)$/.test(b) ? `${b}es` : `${b}s`,
    ...past,
    silentE ? `${b.slice(0, -1)}ing` : doubles ? `${b}${last}ing` : `${b}ing`,
  ];
}

/**
 * The regular forms of a folded English word, itself first, for search to find a result writing
 * another of them: report finds reports, reported and reporting; reported finds report. Each is
 * a whole word, so reporter (another word) is not found, as a prefix report* would find it. None
 * but the word for a function word, a word of other letters, or one under 3 letters.
 */
export function englishForms(folded: string): string[] {
  if (!/^[a-z]{3,}$/.test(folded) || FUNCTION_WORDS.has(folded)) return [folded];
  const of = bases(folded);
  // new is no singular of news.
  const forms = (of.length > 0 ? of : [folded]).flatMap(inflections).filter((f) => !OWN_FINAL_S.has(f));
  return [...new Set([folded, ...forms])];
}
