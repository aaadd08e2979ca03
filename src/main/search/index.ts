import MiniSearch from 'minisearch';
import type { SearchRow, Store } from '../store';
import { SiftError } from '../../shared/errors';
import { isTerminal, isUnfinished, type Mode, type Result, type TargetStatus } from '../../shared/types';
import { searchedIn, searchHelp, type AskScope, type JobAnswer, type SearchHit } from '../../shared/search';
import { cutAtEnd } from '../../shared/cut';
import { functionWordsOf } from '../fetch/function-words';
import { answersQuestion, askedTerms, asksNothing, ASKS_NOTHING, bestPassages, formAndWord, headingsLent, pointsElsewhere, processTerm, proseFirst, questionTerms, splitPassages, termForms, withHead } from '../fetch/question';
import { formSpellings, wordForm } from '../fetch/word-forms';
import { CJK_CHAR, foldTerm, foldWithMap, hasUnspacedLetter, quoteTerm } from './fold';
import { columnsOnly, isArticleOnly, leavesOutOnly, literalNeedles, parseQuery, plainQuery, type Literal, type ParsedQuery, type Term } from './query';
import { holdsTerm, makeSnippet, markedText, pageOfLine, sourceLineOf } from './snippet';
import { linksWrittenOut, searchableText, snippetText } from './text';

export { parseQuery, type ParsedQuery, type Term } from './query';
export { codePointMarks, makeSnippet, markedText, pageOfLine, sourceLineOf } from './snippet';

export type { SearchHit, JobAnswer } from '../../shared/search';

export interface SearchOptions {
  jobId?: string;
  /** At most this many hits (default 50, at most 1000). */
  limit?: number;
}

export interface SearchOutcome {
  hits: SearchHit[];
  /** The query was not valid syntax and was searched as its plain words. */
  plain: boolean;
  /** For a query searched as plain words, what was wrong and what to type instead. */
  why?: string;
  /** More results match than the `limit` best returned. */
  more: boolean;
}

/** The most hits one search returns. */
export const MAX_LIMIT = 1000;

/**
 * No word in the query. Typed signs ("→", "°", "$") are no words to the index, which reads
 * letters, digits and emoji; "There is nothing to search for" read as if the box were empty.
 */
export function emptyQueryError(query = '', jobId?: string): SiftError {
  return new SiftError('empty_query', 400, noWordsIn(query) ?? 'There is nothing to search for.', emptyQueryHint(query, jobId));
}

/** What to type instead of a query with no word in it, searched in one job's results or in all (jobId undefined). */
export function emptyQueryHint(query: string, jobId?: string): string {
  if (leavesOutOnly(query)) return 'Add a word to find, and the -word leaves out the results that hold it: revenue -draft.';
  const column = columnsOnly(query);
  if (column === 'title') return 'Type the word right after the colon: title:report finds the results with report in their title.';
  if (column === 'url') return 'Type the word right after the colon: url:blog finds the results with blog in their URL.';
  if (!isArticleOnly(query)) return searchHelp(searchedIn(jobId));
  if (query.includes('*')) return 'Search for the word, or type its first letters after the article: الكت* finds الكتاب, بالكتاب and الكتب.';
  return 'Search for the word, with the article or without it: الكتاب or كتاب finds الكتاب, والكتاب and بالكتاب.';
}

/**
 * For a query of signs alone, a sentence saying search (or `reader`) reads none of them, or
 * for the Arabic article alone, that it is none (query.ts isArticleOnly); undefined for one
 * empty but for syntax ("", '"" ()').
 */
export function noWordsIn(query: string, reader = 'Search finds'): string | undefined {
  const typed = query.trim();
  if (!/[^\s"()*]/.test(typed)) return undefined;
  const shown = shownQuery(typed, 40);
  if (leavesOutOnly(typed)) return `"${shown}" only says what to leave out, and there is no word to find to leave it out of.`;
  if (columnsOnly(typed)) return `"${shown}" names where to search, with no word after it to find there.`;
  if (isArticleOnly(typed) && typed.includes('*')) {
    return `"${shown}" asks for every word written with the Arabic article, which is nearly every word of an Arabic page: search reads the word the article is joined to (الكتاب as كتاب), not the article.`;
  }
  if (isArticleOnly(typed)) return `"${shown}" is the Arabic article, which is written joined to its word (الكتاب) and is no word to search for alone.`;
  return `${reader} words, numbers and emoji; "${shown}" has none of them.`;
}

/**
 * Typed text as a message can show it: white space as one space, and what does not print (a
 * control character such as NUL, a format character such as a zero-width space or a
 * right-to-left override, half a surrogate pair, an accent with no letter under it) as its
 * code, U+0000. Quoted as they are, the message held a NUL, quotes around nothing to see, or
 * the rest of the sentence set right to left.
 */
const printable = (text: string): string =>
  text.replace(/\s+/g, ' ').replace(/(?<![\p{L}\p{N}\p{M}])\p{M}|[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Cn}]/gu, (c) => `U+${(c.codePointAt(0) as number).toString(16).toUpperCase().padStart(4, '0')}`);

/** A query as a message shows it (printable), cut to at most `max` characters with … after; not between the halves of an emoji, which left a �. */
export const shownQuery = (query: string, max: number): string => printable(cutAtEnd(query, max));

/**
 * A question with no word in it. It said what search says, with search's hint: OR, NOT and
 * "exact phrases", none of which a question reads.
 */
function emptyQuestionError(question: string): SiftError {
  return new SiftError('empty_query', 400, noWordsIn(question, 'A question is read by its') ?? 'There is no question to ask.', 'Ask in words, e.g. what did net revenue rise to?');
}

/**
 * The most words and phrases one search asks for. FTS5 reads the postings of each one across
 * every stored result, synchronously; 3,000 prefix words took 5 s over 40 results, and a
 * pasted page would hold the app's search that long. A question has twice as many, as its
 * words are only ORed to pick the results to read.
 */
export const MAX_SEARCH_TERMS = 64;
const MAX_ASK_TERMS = 2 * MAX_SEARCH_TERMS;

function tooManyTermsError(what: 'search' | 'question', count: number, max: number): SiftError {
  return new SiftError(
    'query_too_long',
    400,
    `A ${what} takes at most ${max} words${what === 'search' ? ' and phrases' : ''}; this one has ${count}.`,
    what === 'search' ? 'Keep the few words that tell the results apart: a name, a figure, "an exact phrase".' : 'Ask it in fewer words: the names and terms that matter.',
  );
}

const isFtsSyntaxError = (err: unknown): boolean => err instanceof Error && /^fts5:|unterminated string|syntax error/i.test(err.message);

function runQuery(store: Store, q: ParsedQuery, raw: string, jobId: string | undefined, limit: number): { rows: ReturnType<Store['searchResults']>; q: ParsedQuery } {
  try {
    return { rows: store.searchResults(q.match, jobId, limit, q.literal?.needles), q };
  } catch (err) {
    // Every term reaches FTS5 quoted, so this is a safety net: whatever FTS5 still rejects
    // is searched as plain words, never shown as an error.
    const plain = plainQuery(raw);
    if (!isFtsSyntaxError(err) || !plain || q.plain) throw err;
    return { rows: store.searchResults(plain.match, jobId, limit, plain.literal?.needles), q: plain };
  }
}

/** The citation and snippet of one stored result (shaped by `mode`) for a query's terms. */
export function hitOf(
  base: { jobId: string; idx: number; score: number },
  url: string,
  title: string,
  result: Result | undefined,
  mode: Mode | undefined,
  terms: readonly Term[],
): SearchHit {
  // The text the index read, so the snippet shows the words that matched; a page's Markdown as its words read (snippetText).
  // The index reads the Markdown itself, links' addresses too: a page that only links to
  // ".../65651-quantum-computers-..." is a hit for those words, and was cited as "in the url"
  // with the target's own address for a snippet. The snippet is then cut from the Markdown
  // with its links written out, text then address, the words marked in the address (same
  // lines: the reading keeps every one).
  // A term that names a column (title:audit) matched there, and is shown there: cut from the
  // text, where a page's heading says its title again, the hit was cited by a line of the text
  // that had not matched.
  const inBody = terms.filter((t) => t.column === undefined);
  const s = inBody.length > 0 ? (bodySnippet(snippetText(result, mode), title, inBody) ?? inLinkAddress(result, mode, title, inBody) ?? bodySnippet(searchableText(result, mode), title, inBody)) : undefined;
  if (s) {
    const hit: SearchHit = { ...base, url, title, field: 'body', snippet: s.text, marks: s.marks, line: s.line };
    const page = pageOfLine(result?.meta, s.line);
    if (page !== undefined) hit.page = page;
    const sourceLine = sourceLineOf(result?.meta, s.line);
    if (sourceLine !== undefined) hit.sourceLine = sourceLine;
    return hit;
  }
  const inTitle = makeSnippet(title, terms.filter((t) => t.column !== 'url'));
  if (inTitle) return { ...base, url, title, field: 'title', snippet: inTitle.text, marks: inTitle.marks };
  const inUrl = makeSnippet(url, terms.filter((t) => t.column !== 'title'));
  return { ...base, url, title, field: 'url', snippet: inUrl?.text ?? url, marks: inUrl?.marks ?? [] };
}

/** The snippet of a page whose match is in a link's address only, its links written out (linksWrittenOut). */
function inLinkAddress(result: Result | undefined, mode: Mode | undefined, title: string, terms: readonly Term[]): ReturnType<typeof makeSnippet> {
  const text = linksWrittenOut(result, mode);
  return text === undefined ? undefined : bodySnippet(text, title, terms);
}

/**
 * The snippet of a result's text past its first lines when they say its title (titleLines),
 * which heads the hit: a page's Markdown begins with its title as a heading, and a word of the
 * title was found there first, so the hit said the title twice, as its heading and as its
 * snippet's first words. The lines are blank, not gone, so the snippet's line is the text's.
 */
function bodySnippet(content: string, title: string, terms: readonly Term[]): ReturnType<typeof makeSnippet> {
  const said = titleLines(content, title);
  if (said === 0) return makeSnippet(content, terms);
  let end = -1;
  for (let k = 0; k < said; k++) end = content.indexOf('\n', end + 1);
  return makeSnippet(end < 0 ? '' : `${'\n'.repeat(said)}${content.slice(end + 1)}`, terms);
}

interface Copy {
  jobId: string;
  idx: number;
  createdAt: number;
}
/** A hit shown, with the content it was cut from and every job's copy of that result. */
interface Shown {
  hit: SearchHit;
  content: string;
  copies: Copy[];
}

/**
 * Finds stored results that match `query`, best first, each with a snippet and citation. A
 * result that several jobs stored alike (same URL, same content) is one hit, the newest's.
 */
export function searchStore(store: Store, query: string, opts: SearchOptions = {}): SearchOutcome {
  const parsed = parseQuery(query);
  if (!parsed) throw emptyQueryError(query, opts.jobId);
  if (parsed.count > MAX_SEARCH_TERMS) throw tooManyTermsError('search', parsed.count, MAX_SEARCH_TERMS);
  const limit = Math.max(1, Math.min(MAX_LIMIT, Math.floor(opts.limit ?? 50)));
  // One hit more than asked says whether more results match: 20 hits printed and nothing
  // else read as all there were, when 5,000 results held the word.
  const want = limit + 1;
  // The same list run again stores the same results again, and each is one hit. Copies of a
  // result score alike, so the rows asked for are enough once the last scores below the
  // last hit; until then, more are asked for (FTS5 ranks every match however many).
  for (let n = 2 * want; ; n *= 4) {
    const { rows, q } = runQuery(store, parsed, query, opts.jobId, n);
    const literal = q.literal;
    const holds = literal ? (t: TargetStatus) => holdsAsTyped(t, literal) : undefined;
    const hits = collapseCopies(store, rows, want, (r, t) => hitOf(r, t.url, t.title, t.result, t.options?.mode, q.terms), holds);
    const last = rows.at(-1)?.score ?? 0;
    const lowest = hits.at(-1)?.score ?? Infinity;
    if (rows.length < n || n >= MAX_ROWS || (hits.length === want && last < lowest)) return { hits: hits.slice(0, limit), plain: q.plain, ...(q.why && { why: q.why }), more: hits.length > limit };
  }
}

/** The most rows one search reads looking for copies of its hits. */
const MAX_ROWS = 20 * MAX_LIMIT;

/**
 * Whether a result matches a query with signed words as typed, signs and all
 * (ParsedQuery.literal): each term in its text as the index read it, or as it reads, its
 * title or its URL; a term that names a column (title:C++), in that one.
 */
function holdsAsTyped(t: TargetStatus, literal: Literal): boolean {
  const mode = t.options?.mode;
  const [title, url, ...body] = [t.title, t.url, snippetText(t.result, mode), searchableText(t.result, mode)].map((x) => foldWithMap(x).folded) as [string, string, string, string];
  const textsOf = (term: Term): string[] => (term.column === 'title' ? [title] : term.column === 'url' ? [url] : [title, url, ...body]);
  return literal.matches((term) => textsOf(term).some((x) => holdsTerm(x, term)));
}

/**
 * Up to `limit` hits from ranked rows, one per result that several jobs stored alike, the
 * newest job's; with `holds`, only of the results it keeps.
 */
function collapseCopies(
  store: Store,
  rows: readonly SearchRow[],
  limit: number,
  toHit: (r: SearchRow, t: TargetStatus) => SearchHit,
  holds?: (t: TargetStatus) => boolean,
): SearchHit[] {
  const hits: SearchHit[] = [];
  const shown = new Map<string, Shown[]>();
  // Most rows are of a few jobs: each job is read once.
  const created = new Map<string, number>();
  const createdAt = (jobId: string): number => {
    let at = created.get(jobId);
    if (at === undefined) created.set(jobId, (at = store.getJob(jobId)?.createdAt ?? 0));
    return at;
  };
  for (const r of rows) {
    // Past the last hit a row is read only when it may be a copy of one shown.
    if (hits.length === limit && !shown.has(store.targetUrl(r.jobId, r.idx))) continue;
    const t = store.targetResult(r.jobId, r.idx);
    if (!t || (holds && !holds(t))) continue;
    const content = t.result?.content ?? '';
    const copies = shown.get(t.url) ?? [];
    const same = copies.find((s) => s.content === content && s.hit.jobId !== r.jobId);
    if (same) {
      same.copies.push({ jobId: r.jobId, idx: r.idx, createdAt: createdAt(r.jobId) });
      continue;
    }
    if (hits.length === limit) continue;
    const hit = toHit(r, t);
    hits.push(hit);
    copies.push({ hit, content, copies: [{ jobId: r.jobId, idx: r.idx, createdAt: createdAt(r.jobId) }] });
    shown.set(t.url, copies);
  }
  // The newest job's copy is the hit, the others listed under it, newest first.
  for (const s of [...shown.values()].flat()) {
    if (s.copies.length < 2) continue;
    const [newest, ...older] = [...s.copies].sort((x, y) => y.createdAt - x.createdAt) as [Copy, ...Copy[]];
    Object.assign(s.hit, { jobId: newest.jobId, idx: newest.idx, sameIn: older.map(({ jobId, idx }) => ({ jobId, idx })) });
  }
  return hits;
}

/** The hits as plain text with «marks», for the CLI and exports. */
export const hitText = (h: SearchHit): string => markedText({ text: h.snippet, marks: h.marks });

/**
 * A passage's lines without Markdown's heading, quote and list marks, as the page shows them.
 * A passage is opened at its first line's words: "# Annual report 2023" was not in the
 * rendered page, and its last resort, the word "#" (or a list's "-"), lit a stray one or none.
 */
const withoutBlockMarks = (text: string): string => text.replace(/^[ \t]*(?:(?:#{1,6}|>|[-*+])[ \t]+)+/gm, '');

/** A title or a passage's lines as a reader compares them: one space for any run of blanks or line breaks, no case. */
const asRead = (s: string): string => s.normalize('NFKC').replace(/\s+/g, ' ').trim().toLowerCase();

/**
 * How many of a passage's first lines say its result's title, which Ask this job shows above
 * it: 0 when they do not. Of 94 titled results (91 news pages, 3 PDFs of the shared corpora),
 * every one had a passage that was its title alone, an HTML page's h1 or a PDF's first lines
 * ("FREE CULTURE" under "Free Culture", a title wrapped over two lines), shown twice when asked.
 */
function titleLines(text: string, title: string): number {
  const want = asRead(title);
  if (!want) return 0;
  // Each line that says part of the title adds a character at least: no more are read of a long text.
  const lines = text.split('\n', want.length + 1);
  let said = '';
  for (let k = 1; k <= lines.length && said.length < want.length; k++) {
    said = asRead(withoutBlockMarks(lines.slice(0, k).join('\n')));
    if (said === want) return k;
  }
  return 0;
}

/** The rows, each result once, where it first is. */
function uniqueRows(rows: readonly SearchRow[]): SearchRow[] {
  const seen = new Set<string>();
  return rows.filter((r) => {
    const key = `${r.jobId}\n${r.idx}`;
    return !seen.has(key) && Boolean(seen.add(key));
  });
}

/** What "Ask this job" reads of a job: its results with text, and the targets it cannot read, by why. */
export function askScope(store: Store, jobId: string): AskScope {
  const job = store.getJob(jobId);
  const scope: AskScope = { read: 0, empty: 0, failed: 0, unfinished: 0, ended: job !== undefined && isTerminal(job.status) };
  for (const t of store.targetRows(jobId)) {
    // A target cut short (in flight at a cancel or a close) is not fetched, as the job header counts it.
    if (isUnfinished(t)) scope.unfinished++;
    else if (t.status === 'failed') scope.failed++;
    else if (t.bytes > 0) scope.read++;
    else scope.empty++;
  }
  return scope;
}

/** What a function word of a question counts for beside the words that say what it asks. */
const FUNCTION_WORD_WEIGHT = 0.1;

/** Whether a word in `n` of `passages` tells them apart: in a third of them at most, and in one at least. */
const isRare = (n: number, passages: number): boolean => n > 0 && n <= passages / 3;

/** A term already formed, searched as it is: a form formed again may be another (систем, системы's form, is сист). */
const asIs = (term: string): string => term;

/** How many of a job's best-matching results "Ask this job" reads passages from. */
const ASK_TARGETS = 30;
const ASK_PASSAGES = 5;

/**
 * A question's run without spaces as the index is asked for it: the pairs of its words
 * (askedTerms), or every pair when it has none (是什么), so a question of function words only
 * still finds the results that hold them.
 */
function unspacedTerms(text: string): string[] {
  const asked = askedTerms(text);
  return asked.length > 0 ? asked : questionTerms(text);
}

/**
 * "Ask this job": the index picks the job's results that share words with the question
 * (any of them, BM25 first), then their passages are ranked together as the `question`
 * option ranks one result's (BM25, prefix and light fuzzy matching); the best come back with
 * where each is.
 */
export function askJob(store: Store, jobId: string, question: string, max = ASK_PASSAGES): JobAnswer[] {
  const plain = plainQuery(question);
  if (!plain) throw emptyQuestionError(question);
  // Before reading any result: whatever is found for "и это что?" is found for words every page holds.
  if (asksNothing(question)) throw new SiftError('vague_question', 400, `${ASKS_NOTHING.why.replace('every page', 'every result')}.`, ASKS_NOTHING.hint);
  // A Chinese, Japanese or Thai question has no spaces, so its one "word" as a phrase would
  // match only results that hold the whole question: its character pairs (its words, in Thai)
  // are the words here.
  const words = [...new Set(plain.terms.flatMap((t) => (CJK_CHAR.test(t.text) || hasUnspacedLetter(t.text) ? unspacedTerms(t.text) : [t.text])))];
  if (words.length > MAX_ASK_TERMS) throw tooManyTermsError('question', words.length, MAX_ASK_TERMS);
  // Each word also as the start of its form (wordForm), so the index finds a result holding
  // another form of it: "launching" found only results holding "launching", and a job whose
  // page said "launched" answered that no result shared words with the question; an Arabic
  // form with what is written joined before it (formSpellings).
  const forms = words.flatMap((w) => formSpellings(wordForm(foldTerm(w))).map((s) => `${quoteTerm(s)}*`));
  const anyWord = [...new Set([...words.map(quoteTerm), ...forms])].join(' OR ');
  // The index holds a signed word's letters only: among results that hold a lone c, those
  // holding C++ are found by their needle (as search finds them), then the rest by any word.
  const rows = uniqueRows([
    ...literalNeedles({ text: question, prefix: false }).flatMap((needle) => store.searchResults(quoteTerm(needle), jobId, ASK_TARGETS, [[{ word: needle }]])),
    ...store.searchResults(anyWord, jobId, ASK_TARGETS),
  ]).slice(0, ASK_TARGETS);
  interface Doc {
    id: number;
    text: string;
    row: (typeof rows)[number];
    url: string;
    title: string;
    line: number;
    /** The lines shown over the passage's own (headings, a table's header row), which it does not start on. */
    lent: number;
    /** Whether it only points to a page (pointsElsewhere): a contents line, an index entry, a running header. */
    points: boolean;
    meta: Record<string, unknown> | undefined;
  }
  const docs: Doc[] = [];
  for (const r of rows) {
    const t = store.targetResult(r.jobId, r.idx);
    // A page's Markdown as its words read (snippetText, line for line): a passage showed its
    // links' addresses ("[United States's](https://…/united-states.html) space agency") and
    // ranked on the words in them.
    const content = t && snippetText(t.result, t.options?.mode);
    if (!t || !content) continue;
    // A passage is ranked and shown under the headings over it (headingsLent) and a table's
    // piece under its header row (withHead), as the question option shows them, and opens at
    // its own first line; a heading comes back with the passage under it, never alone. Only a
    // long table's later pieces were so: its first piece, under "Results of 2019", said no year,
    // and "how many wins did X have in 2019?" was answered first by the 2018 table's first rows,
    // then by the heading "Results of 2019" alone.
    const passages = splitPassages(content);
    const under = headingsLent(passages);
    const points = pointsElsewhere(passages.map((p) => p.text));
    for (const p of passages) {
      const over = under[p.idx];
      if (!over) continue;
      const text = [...over.map((j) => passages[j]!.text), withHead(p)].join('\n');
      const lent = text.split('\n').length - p.text.split('\n').length;
      docs.push({ id: docs.length, text: withoutBlockMarks(text), row: r, url: t.url, title: t.title, line: p.line, lent, points: points[p.idx]!, meta: t.result?.meta });
    }
  }
  if (docs.length === 0) return [];
  // Words as the question option makes them (CJK in character pairs), without case, accents or
  // vowel marks, a Russian word as its form and as written (formAndWord).
  const ms = new MiniSearch<Doc>({ fields: ['text'], idField: 'id', storeFields: [], tokenize: questionTerms, processTerm: termForms() });
  ms.addAll(docs);
  // A word in more than a third of the passages ("the", "was", "and" in any language) says
  // nothing about which passage answers; with enough passages to tell, it is left out. With
  // fewer, the function words are, as the question option leaves them out (unless the
  // question has no other): in a small job "what", "is" and "the" made a passage sharing only
  // them an answer.
  const asked = [...new Set(questionTerms(question).map(processTerm).filter((w): w is string => w !== null))];
  // Function words as the question option reads them (functionWordsOf): with a Japanese
  // question's runs of hiragana (です, すか) and a Chinese one's pairs of function characters
  // (是多, 多少), which matched every passage in the polite form, or saying how much of anything,
  // and a German one's "die".
  const isFunctionWord = functionWordsOf(question);
  const saying = asked.filter((w) => !isFunctionWord(w));
  // When every word is that common ("c?" where each result holds a lone c), they are all
  // there is to go on, as when there are few passages: leaving them all out answered with
  // nothing, and the app said no result shared a word with the question.
  // The words in at most a third of the passages, and in one at least: the ones that tell
  // passages apart. A word in none told nothing: "garden weather zebra?" was asked on "zebra"
  // alone and answered with nothing.
  const rare = docs.length >= 10 ? asked.filter((w) => isRare(ms.search(w, { prefix: false, fuzzy: false, processTerm: asIs }).length, docs.length)) : [];
  // The others that say what is asked still tell apart the passages holding the rare ones, as
  // a function word does (FUNCTION_WORD_WEIGHT): "how many wins did X have in 2019?" over a
  // page with a table per season, each under its year's heading, found "2019" in every piece
  // of a table (5 of 11 passages), and asked on X alone it answered first with X's 2018 row.
  const common = new Set(rare.length > 0 ? saying.filter((w) => !rare.includes(w)) : []);
  const telling = rare.length > 0 ? [...rare, ...common] : saying.length > 0 ? saying : asked;
  if (telling.length === 0) return [];
  // A function word that is rare enough to count only breaks ties between passages holding
  // the words that say what is asked, and makes no answer of a passage without them: at full
  // weight, "what is SpiderMonkey written in?" over a book and a paper (3,000 passages)
  // answered with the book's passages thick with "is" and "in", before the paper's
  // "SpiderMonkey … is implemented in C++".
  const saysWhat = telling.some((w) => !isFunctionWord(w));
  // The question's words that tell, each as its form and, a Russian one, as written too
  // (formAndWord), so a passage in the question's own spelling ranks first, as the question
  // option ranks one result's; formed once: "что у системы?" was asked as the form of its form
  // (системы → систем → сист), which no passage matched as asked, and a page saying "систему"
  // gave no answer.
  const formOf = new Map<string, string>();
  for (const word of questionTerms(question)) {
    const form = processTerm(word);
    if (form !== null && telling.includes(form)) for (const t of formAndWord(word)) if (!formOf.has(t)) formOf.set(t, form);
  }
  const formed = (term: string): string => formOf.get(term) ?? term;
  const ranked = ms.search([...formOf.keys()].join(' '), {
    tokenize: (terms) => terms.split(' '),
    processTerm: asIs,
    prefix: (term) => term.length > 3,
    fuzzy: (term) => (term.length > 5 ? 0.2 : false),
    combineWith: 'OR',
    boostTerm: (term) => ((saysWhat && isFunctionWord(formed(term))) || common.has(formed(term)) ? FUNCTION_WORD_WEIGHT : 1),
  });
  // A passage two results hold word for word (a manual as a PDF and as a web page, a notice
  // every page of a site repeats) is one answer, the first's: shown twice, two of the five
  // places went to the same text.
  const seen = new Set<string>();
  // Holding a term that says what is asked (answersQuestion), not only a pair across two Chinese
  // or Japanese words: 们发 of 我们发工资 (when are we paid) found 他们发现 (they discovered).
  const answers = answersQuestion(question);
  const found = (saysWhat ? ranked.filter((f) => answers(f.queryTerms.map(formed), (docs[Number(f.id)] as Doc).text)) : ranked).filter((f) => {
    const text = (docs[Number(f.id)] as Doc).text;
    return !seen.has(text) && Boolean(seen.add(text));
  });
  // As the question option picks one result's passages: the 3 best and any at least half the
  // best, up to `max`, none under a quarter of the best (across a whole job a passage sharing
  // one small word with the question is easy to find).
  // A contents page's line or an index's comes after prose, as the question option ranks them (proseFirst).
  const chosen = bestPassages(proseFirst(found, (f) => (docs[Number(f.id)] as Doc).points), max);
  return chosen.map((f) => {
    const d = docs[Number(f.id)] as Doc;
    // The answer is shown under its result's title: lines saying that title again are left out,
    // and the passage starts (and opens) at its next line. A passage that is the title alone
    // has no text of its own; it opens at the title.
    const lines = d.text.split('\n');
    const said = titleLines(d.text, d.title);
    const line = said < lines.length ? d.line + Math.max(0, said - d.lent) : d.line;
    const a: JobAnswer = { jobId: d.row.jobId, idx: d.row.idx, url: d.url, title: d.title, text: lines.slice(said).join('\n'), score: f.score, line };
    // Opened at its line, it is found by its own first words there, not by a heading's over it
    // ("Abstract" lent to the abstract was found further on, in "the LIR abstract syntax").
    if (d.lent > said) a.lent = d.lent - said;
    const page = pageOfLine(d.meta, line);
    if (page !== undefined) a.page = page;
    const sourceLine = sourceLineOf(d.meta, line);
    if (sourceLine !== undefined) a.sourceLine = sourceLine;
    return a;
  });
}
