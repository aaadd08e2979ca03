/**
 * `npm run bench -- question`: whether `--question` returns the passages that answer it, on
 * the article extraction benchmark's real pages (../shared/corpora/article-extraction).
 *
 * Questions are made mechanically, none by hand and none for a page: from each page's ground
 * truth, sentences picked by a PRNG seeded with the page's id; from each, 3–5 of its rarer half
 * of words (by how many pages of the corpus hold them), one in three put in a neighbouring form (a plural,
 * a case ending) and one in four dropped, behind a question word of the page's language. A
 * question is answered when a passage returned holds its sentence whole (its words in order,
 * markup aside).
 *
 * Figures per method: recall at the passages returned and at the first (the best ranked),
 * the share of the returned text that is the page's article (4-word shingles found in the
 * ground truth, not navigation or footers), passages and characters returned, CPU ms per
 * question. Baselines in the same run, on the same extracted text: its first three
 * paragraphs, and a plain BM25 over its paragraphs with no stop-word list (top three).
 * "reachable" is the share of questions whose sentence is in the extracted text at all.
 *
 * The pages are split in two halves by their id's SHA-256 (even first byte: tuning half); rules
 * were written looking at the tuning half only (QUESTION_HALF=tune runs it alone), the held-out
 * half measured after. QUESTION_WORST=N prints the tuning half's N worst misses.
 */
import { createHash } from 'node:crypto';
import { extractArticle } from '../src/main/fetch/html';
import { answer, headingsOver, rankPassages, splitPassages, withHead, type Passage } from '../src/main/fetch/question';
import { withoutLinkTargets } from '../src/main/search/text';
import { groundTruthPages, type TruthPage } from './_corpus';

type Lang = 'en' | 'de' | 'pt' | 'id' | 'ru' | 'ja';

interface Page extends TruthPage {
  lang: Lang;
  heldOut: boolean;
}

interface Question {
  page: Page;
  sentence: string;
  question: string;
}

// ---- tokens

/** Letters and digits; each CJK character a token of its own, as the sentence's words have no spaces between them. */
const TOKEN = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]|[\p{L}\p{M}\p{N}]+/gu;
const tokens = (t: string): string[] => (t.toLowerCase().match(TOKEN) ?? []);

/** Whether `passage` holds `sentence` whole: its tokens in a row, link addresses left out. */
function holds(passage: string, sentence: string): boolean {
  const s = tokens(sentence).join(' ');
  return s.length > 0 && ` ${tokens(withoutLinkTargets(passage)).join(' ')} `.includes(` ${s} `);
}

/** 4-word shingles of what a reader sees: a Markdown link's or picture's address is no text of the page's. */
const shingles = (t: string): string[] => {
  const tok = tokens(withoutLinkTargets(t));
  const out: string[] = [];
  for (let i = 0; i + 4 <= tok.length; i++) out.push(tok.slice(i, i + 4).join(' '));
  return out;
};

// ---- the pages

/**
 * A page's language by its script, then by which list of common words it uses most (the corpus
 * has English, German, Portuguese, Indonesian, Russian and Japanese). Indonesian's "dan, yang,
 * di" (and, that, in) are its most frequent words; without them its 2 pages were Portuguese,
 * for their "para" and "com", and were asked in Portuguese.
 */
function languageOf(text: string): Lang {
  if (/[\u3040-\u30ff]/.test(text)) return 'ja';
  if ((text.match(/[\u0400-\u04ff]/g) ?? []).length > text.length / 4) return 'ru';
  const count = (re: RegExp): number => (text.match(re) ?? []).length;
  const en = count(/\b(?:the|and|of|is|to)\b/gi);
  const de = count(/\b(?:und|der|die|das|ist|nicht|mit)\b/gi);
  const pt = count(/(?:^|\s)(?:não|uma|os|das|dos|é|você|para|com)(?=\s)/gi);
  const id = count(/\b(?:yang|dan|di|dengan|untuk|tidak|ini|itu|dari)\b/gi);
  const [lang, most] = ([['de', de], ['pt', pt], ['id', id]] as const).reduce((a, b) => (b[1] > a[1] ? b : a));
  return most > en ? lang : 'en';
}

const heldOutId = (id: string): boolean => (createHash('sha256').update(id).digest()[0]! & 1) === 1;

function loadPages(): Page[] | string {
  const pages = groundTruthPages();
  return typeof pages === 'string' ? pages : pages.map((p) => ({ ...p, lang: languageOf(p.truth), heldOut: heldOutId(p.id) }));
}

// ---- the questions

/** mulberry32: a small PRNG, seeded so every run asks the same questions. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Sentences of the ground truth: cut at line ends and at . ! ? 。！？ before a space or the end. */
const truthSentences = (truth: string): string[] =>
  truth
    .split('\n')
    .flatMap((line) => line.split(/(?<=[.!?])\s+(?=\p{Lu}|\p{N}|["“«])|(?<=[。！？])/u))
    .map((s) => s.trim())
    .filter(Boolean);

/** A sentence worth asking about: 8–60 words (20–120 characters for Japanese). */
function askable(s: string, lang: Lang): boolean {
  const n = lang === 'ja' ? [...s].length : tokens(s).length;
  return lang === 'ja' ? n >= 20 && n <= 120 : n >= 8 && n <= 60;
}

/** The words a question may be made of: words of 4 letters or more, no number; Japanese: runs of kanji or katakana of 2 or more. */
function contentWords(s: string, lang: Lang): string[] {
  if (lang === 'ja') return s.match(/[\p{Script=Han}]{2,}|[\p{Script=Katakana}ー]{2,}/gu) ?? [];
  return (s.match(/[\p{L}\p{M}]+/gu) ?? []).filter((w) => w.length >= 4);
}

const WH: Record<Lang, string[]> = {
  en: ['what', 'who', 'when', 'where', 'how', 'why', 'which'],
  de: ['was', 'wer', 'wann', 'wo', 'wie', 'warum'],
  pt: ['o que', 'quem', 'quando', 'onde', 'como', 'por que'],
  id: ['apa', 'siapa', 'kapan', 'di mana', 'bagaimana', 'mengapa'],
  ru: ['что', 'кто', 'когда', 'где', 'как', 'почему'],
  ja: ['何', 'いつ', 'どこ', '誰'],
};

/** A neighbouring form a reader might type: the other number (en, pt, de; Indonesian writes a plural twice: buku-buku), another case ending (ru). */
function neighbour(w: string, lang: Lang): string {
  switch (lang) {
    case 'en':
      return w.endsWith('s') ? w.slice(0, -1) : w.endsWith('e') ? `${w}d` : `${w}s`;
    case 'pt':
      return w.endsWith('s') ? w.slice(0, -1) : `${w}s`;
    case 'de':
      return w.endsWith('en') ? w.slice(0, -1) : w.endsWith('e') ? `${w}n` : `${w}e`;
    case 'id':
      return `${w}-${w}`;
    case 'ru':
      return /[аяыиоеуюй]$/.test(w) ? `${w.slice(0, -1)}у` : `${w}а`;
    case 'ja':
      return w;
  }
}

/** Up to 5 questions a page, each from a sentence picked by the seeded PRNG. */
function questionsOf(page: Page, pagesWith: Map<string, number>): Question[] {
  const rand = prng(createHash('sha256').update(page.id).digest().readUInt32LE(0));
  const pool = truthSentences(page.truth).filter((s) => askable(s, page.lang));
  const out: Question[] = [];
  while (out.length < 5 && pool.length > 0) {
    const sentence = pool.splice(Math.floor(rand() * pool.length), 1)[0]!;
    const words = [...new Set(contentWords(sentence, page.lang))];
    if (words.length < 3) continue;
    // The rarer half (at least 3), ties broken by the PRNG, then 3–5 of them at random: the
    // rarest alone named one sentence of the page, and every method found it.
    const keyed = words.map((w) => [w, pagesWith.get(w.toLowerCase()) ?? 0, rand()] as const);
    keyed.sort((a, b) => a[1] - b[1] || a[2] - b[2]);
    const rarer = keyed.slice(0, Math.max(3, Math.ceil(keyed.length / 2))).map(([w]) => w);
    const n = 3 + Math.floor(rand() * 3);
    const picked: string[] = [];
    while (picked.length < n && rarer.length > 0) picked.push(rarer.splice(Math.floor(rand() * rarer.length), 1)[0]!);
    const asked = picked.filter((_, i) => i === 0 || rand() >= 0.25).map((w) => (rand() < 1 / 3 ? neighbour(w, page.lang) : w));
    const wh = WH[page.lang][Math.floor(rand() * WH[page.lang].length)]!;
    const question = page.lang === 'ja' ? `${asked.join('の')}は${wh}ですか` : `${wh} ${asked.join(' ')}?`;
    out.push({ page, sentence, question });
  }
  return out;
}

/** How many pages' ground truths hold each word (lower case): its rarity. */
function documentFrequency(pages: Page[]): Map<string, number> {
  const df = new Map<string, number>();
  for (const p of pages) for (const w of new Set(contentWords(p.truth, p.lang).map((x) => x.toLowerCase()))) df.set(w, (df.get(w) ?? 0) + 1);
  return df;
}

// ---- the methods

/** What a method returns for a question: passages in its order of preference (the first is its best), and the CPU ms it took. */
type Method = (passages: Passage[], text: string, question: string) => [string[], number];

const cpu = <T>(fn: () => T): [T, number] => {
  const t = process.cpuUsage();
  const v = fn();
  const d = process.cpuUsage(t);
  return [v, (d.user + d.system) / 1000];
};

/** Sift's --question as it reads a page's Markdown: answer()'s passages (timed, splitting the text included), the best ranked first with the headings (and a table piece's header row) shown over it. */
const sift: Method = (passages, text, question) => {
  const [a, ms] = cpu(() => answer(text, question, false, true));
  if (!a.content) return [[], ms];
  const shown = a.content.split('\n\n');
  const best = rankPassages(passages, question, true)[0];
  if (!best) return [shown, ms];
  const unit = [...headingsOver(passages, best.id).reverse(), best.id].map((i) => withHead(passages[i]!));
  return [[unit.join('\n\n'), ...shown.filter((p) => !unit.includes(p))], ms];
};

const firstThree: Method = (_passages, text) => cpu(() => splitPassages(text).slice(0, 3).map((p) => p.text));

/** Okapi BM25 (k1 1.2, b 0.75) over the paragraphs, every word of the question counted, no stop words, no word forms. */
const plainBm25: Method = (_passages, text, question) => cpu(() => bm25(splitPassages(text), question));

function bm25(passages: Passage[], question: string): string[] {
  const docs = passages.map((p) => tokens(withoutLinkTargets(p.text)));
  const avg = docs.reduce((a, d) => a + d.length, 0) / Math.max(1, docs.length);
  const q = [...new Set(tokens(question))];
  const df = new Map(q.map((w) => [w, docs.filter((d) => d.includes(w)).length]));
  const scored = docs.map((d, i) => {
    let s = 0;
    for (const w of q) {
      const tf = d.filter((x) => x === w).length;
      if (!tf) continue;
      const n = df.get(w)!;
      s += Math.log(1 + (docs.length - n + 0.5) / (n + 0.5)) * ((tf * 2.2) / (tf + 1.2 * (0.25 + (0.75 * d.length) / avg)));
    }
    return [i, s] as const;
  });
  return scored
    .filter(([, s]) => s > 0)
    .sort((a, b) => b[1] - a[1])
    .slice(0, 3)
    .map(([i]) => passages[i]!.text);
}

const METHODS: [string, Method][] = [
  ['sift --question', sift],
  ['first 3 paragraphs', firstThree],
  ['plain BM25, top 3', plainBm25],
];

// ---- scoring

interface Tally {
  questions: number;
  reachable: number;
  atAll: number;
  atFirst: number;
  passages: number;
  chars: number;
  articleShingles: number;
  shingles: number;
  ms: number;
}

const tally = (): Tally => ({ questions: 0, reachable: 0, atAll: 0, atFirst: 0, passages: 0, chars: 0, articleShingles: 0, shingles: 0, ms: 0 });

interface Miss {
  q: Question;
  first: string;
  got: string[];
}

function measure(pages: Page[], df: Map<string, number>, misses?: Miss[]): Map<string, Map<string, Tally>> {
  // per method, per language ('all' too)
  const out = new Map(METHODS.map(([name]) => [name, new Map<string, Tally>()]));
  for (const page of pages) {
    const text = extractArticle(page.html, page.url).markdown;
    const passages = splitPassages(text);
    const truthShingles = new Set(shingles(page.truth));
    for (const q of questionsOf(page, df)) {
      const reachable = holds(text, q.sentence);
      for (const [name, method] of METHODS) {
        const [got, ms] = method(passages, text, q.question);
        for (const key of ['all', page.lang]) {
          const byLang = out.get(name)!;
          const t = byLang.get(key) ?? tally();
          byLang.set(key, t);
          t.questions++;
          if (reachable) t.reachable++;
          if (got.some((p) => holds(p, q.sentence))) t.atAll++;
          if (got[0] !== undefined && holds(got[0], q.sentence)) t.atFirst++;
          t.passages += got.length;
          t.chars += got.reduce((a, p) => a + p.length, 0);
          const sh = got.flatMap(shingles);
          t.shingles += sh.length;
          t.articleShingles += sh.filter((s) => truthShingles.has(s)).length;
          t.ms += ms;
        }
        // Sift's misses: its best passage is not the answer, or a passage it returned is not the article's.
        const stray = got.filter((p) => shingles(p).length > 0 && shingles(p).filter((s) => truthShingles.has(s)).length < shingles(p).length / 2);
        if (misses && name === METHODS[0]![0] && reachable && (!(got[0] !== undefined && holds(got[0], q.sentence)) || stray.length > 0)) misses.push({ q, first: got[0] ?? '', got: stray.length ? stray : got });
      }
    }
  }
  return out;
}

const f3 = (x: number): string => x.toFixed(3);

function report(title: string, result: Map<string, Map<string, Tally>>): void {
  const all = result.get(METHODS[0]![0])!.get('all');
  process.stdout.write(`${title}: ${all?.questions ?? 0} questions, reachable ${f3((all?.reachable ?? 0) / Math.max(1, all?.questions ?? 0))}\n`);
  const langs = [...result.get(METHODS[0]![0])!.keys()];
  for (const lang of langs) {
    for (const [name] of METHODS) {
      const t = result.get(name)!.get(lang)!;
      process.stdout.write(
        `  ${lang.padEnd(3)} ${name.padEnd(20)} n ${String(t.questions).padStart(3)}  recall@returned ${f3(t.atAll / t.questions)}  @first ${f3(t.atFirst / t.questions)}  article share ${f3(t.articleShingles / Math.max(1, t.shingles))}  ${(t.passages / t.questions).toFixed(1)} passages ${Math.round(t.chars / t.questions)} chars  ${(t.ms / t.questions).toFixed(2)} ms\n`,
      );
    }
    const s = result.get(METHODS[0]![0])!.get(lang)!;
    const b = result.get(METHODS[2]![0])!.get(lang)!;
    const f = result.get(METHODS[1]![0])!.get(lang)!;
    process.stdout.write(
      `  ${lang.padEnd(3)} ratio sift/BM25: recall ${f3(s.atAll / Math.max(1, b.atAll))} @first ${f3(s.atFirst / Math.max(1, b.atFirst))}; sift/first 3: recall ${f3(s.atAll / Math.max(1, f.atAll))}; time sift/BM25 ${f3(s.ms / Math.max(1e-9, b.ms))}\n`,
    );
  }
}

export default function question(): Promise<void> {
  process.stdout.write('--question on the article benchmark\'s pages: questions made from ground-truth sentences, answered when a returned passage holds the sentence\n');
  const pages = loadPages();
  if (typeof pages === 'string') {
    process.stdout.write(`  skipped: ${pages}\n`);
    return Promise.resolve();
  }
  const df = documentFrequency(pages);
  const half = process.env.QUESTION_HALF;
  const worst = Number(process.env.QUESTION_WORST ?? 0);
  const misses: Miss[] = [];
  const tune = pages.filter((p) => !p.heldOut);
  report(`tuning half (${tune.length} pages)`, measure(tune, df, misses));
  if (half !== 'tune') {
    const held = pages.filter((p) => p.heldOut);
    report(`held-out half (${held.length} pages)`, measure(held, df));
  }
  for (const m of misses.slice(0, worst)) {
    process.stdout.write(`\n- ${m.q.page.id.slice(0, 8)} ${m.q.page.lang} Q: ${m.q.question}\n  S: ${m.q.sentence}\n  got ${m.got.length}: ${m.got.map((g) => JSON.stringify(g.slice(0, 160))).join('\n       ')}\n`);
  }
  return Promise.resolve();
}
