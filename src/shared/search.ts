import * as z from 'zod';
import { counted } from './count';

/** One search hit with its citation (src/main/search). */
export const SearchHitSchema = z.object({
  jobId: z.string(),
  idx: z.number().int(),
  url: z.string(),
  title: z.string(),
  /** BM25 (title weighted above URL above body); higher is better. */
  score: z.number(),
  /** Where the shown match is: the result's text, else its title or URL. */
  field: z.enum(['body', 'title', 'url']),
  /** The text around the match, whitespace collapsed. */
  snippet: z.string(),
  /** [start, end) of each matched word in snippet. */
  marks: z.array(z.tuple([z.number().int(), z.number().int()])),
  /** 1-based line of the match in the result's content (field body). */
  line: z.number().int().optional(),
  /** PDF page of that line, when the result is a PDF's text. */
  page: z.number().int().optional(),
  /**
   * The line of the whole document (as extracted) that `line` was, when the result keeps some
   * of its lines (grep, question): what a reader finds in the page, where `line` counts the
   * kept lines.
   */
  sourceLine: z.number().int().optional(),
  /** Older jobs that stored this same result (same URL, same content): one hit stands for all. */
  sameIn: z.array(z.object({ jobId: z.string(), idx: z.number().int() })).optional(),
});
export type SearchHit = z.infer<typeof SearchHitSchema>;

/** The other jobs that stored this same result: "job K #3; job L #3"; '' for none. */
export const alsoIn = (h: Pick<SearchHit, 'sameIn'>, separator = '; '): string => (h.sameIn ?? []).map((s) => `job ${s.jobId} #${s.idx + 1}`).join(separator);

/**
 * A score as people read it: `digits` decimals, and under 1 that many significant digits.
 * BM25 gives a word in nearly every result a score near 0 (0.000012), which two decimals
 * showed as 0.00 on every hit, as if none had matched.
 */
/** Where a hit's or passage's line is, as a reader finds it: "line 5231 of the document" for a result of some of its lines. */
export const lineLabel = (h: { line?: number; sourceLine?: number }): string | undefined =>
  h.sourceLine !== undefined ? `line ${h.sourceLine} of the document` : h.line !== undefined ? `line ${h.line}` : undefined;

export const formatScore = (score: number, digits: number): string =>
  score === 0 || Math.abs(score) >= 1 ? score.toFixed(digits) : String(Number(score.toPrecision(digits)));

/** One passage answering a question across a job ("Ask this job"), with its citation. */
export const JobAnswerSchema = z.object({
  jobId: z.string(),
  idx: z.number().int(),
  url: z.string(),
  title: z.string(),
  text: z.string(),
  score: z.number(),
  line: z.number().int(),
  page: z.number().int().optional(),
  /** As SearchHit's: the passage's line in the whole document, when the result keeps some of its lines. */
  sourceLine: z.number().int().optional(),
  /** How many of the text's first lines are headings shown over the passage, from above its line (none when absent): the passage's own text, at `line`, starts after them. */
  lent: z.number().int().optional(),
});
export type JobAnswer = z.infer<typeof JobAnswerSchema>;

/** What "Ask this job" read: the job's targets by what they gave it to read. */
export const AskScopeSchema = z.object({
  /** Results with text: the ones whose passages were ranked. */
  read: z.number().int(),
  /** Done with nothing in them (bytes 0): nothing to read. */
  empty: z.number().int(),
  failed: z.number().int(),
  /** Not fetched yet (pending or running), or cut short by a cancel or a close. */
  unfinished: z.number().int(),
  /** The job ended (cancelled, or stopped by a close): its unfinished targets wait for "Run the rest again", not for the job. */
  ended: z.boolean().optional(),
});
export type AskScope = z.infer<typeof AskScopeSchema>;

/**
 * Targets not fetched: a live job will fetch them, an ended one will not (a cancelled job said
 * "1 is not fetched yet … ask again when they are fetched", for a fetch that never comes).
 */
function unfetched(n: number, ended: boolean): string {
  const count = n.toLocaleString();
  if (ended) return `${count} ${n === 1 ? 'was' : 'were'} not fetched, as the job ended first`;
  return `${count} ${n === 1 ? 'is' : 'are'} not fetched yet`;
}

function unreadParts(scope: AskScope): string[] {
  return [
    scope.failed > 0 ? `${scope.failed.toLocaleString()} failed` : '',
    scope.empty > 0 ? `${scope.empty.toLocaleString()} came back empty` : '',
    scope.unfinished > 0 ? unfetched(scope.unfinished, scope.ended === true) : '',
  ].filter(Boolean);
}

/**
 * Why a job with no result with text has nothing to ask or search, and what would give it one.
 * Find in a job whose targets had all failed said "Nothing stored matches. Try fewer words", as
 * if other words could find something there.
 */
export function nothingReadNote(scope: AskScope, act: 'ask' | 'search'): string {
  const unread = unreadParts(scope);
  const others = unread.length > 0 ? ` Not read: ${unread.join(', ')}.` : '';
  const again = act === 'ask' ? 'Ask' : 'Search';
  const next = scope.unfinished > 0 ? (scope.ended ? ` Run the rest again to fetch them, then ${act}.` : ` ${again} again when they are fetched.`) : scope.failed > 0 ? ` Run the failed ones again, then ${act}.` : '';
  return `Nothing to ${act} yet: no target of this job has a result with text.${others}${next}`;
}

/** Why an ok result came back empty, by the warning that says so (fetch/extract.ts), and what gives it text. */
const EMPTY_WHY: readonly { warning: string; one: string; all: string; some: string; without: string }[] = [
  {
    warning: 'no_answer',
    one: 'no passage of its page answered the question',
    all: 'no passage of their pages answered the question',
    some: 'had no passage answering the question',
    without: 'the question',
  },
  {
    warning: 'no_match',
    one: 'no line of its page matched the grep expression',
    all: 'no line of their pages matched the grep expression',
    some: 'had no line matching the grep expression',
    without: 'the grep expression',
  },
  {
    warning: 'no_output',
    one: 'the jq program gave no value for its document',
    all: 'the jq program gave no value for their documents',
    some: 'had no value from the jq program',
    without: 'the jq program',
  },
];

/**
 * Why Find found nothing in a job whose every ok result came back empty (Job.targetsEmpty):
 * only their titles and addresses hold words, and what would give them text. `warnings` are
 * the job's done targets per warning (the header's chips). Such a job said "Try fewer words, or
 * a prefix", where no words could find anything in its results.
 */
export function emptyResultsNote(empty: number, warnings: readonly (readonly [string, number])[], unread: Omit<AskScope, 'read' | 'empty'>): string {
  const counts = EMPTY_WHY.map((w) => ({ ...w, n: warnings.find(([k]) => k === w.warning)?.[1] ?? 0 })).filter((w) => w.n > 0);
  const noText = empty - counts.reduce((sum, w) => sum + w.n, 0);
  const theirs = empty === 1 ? "This job's one result is empty" : `All ${empty.toLocaleString()} results of this job are empty`;
  let why: string;
  if (counts.length === 1 && noText <= 0) why = `: ${empty === 1 ? counts[0]!.one : counts[0]!.all}`;
  else if (counts.length === 0) why = `: ${empty === 1 ? 'its page had no text' : 'their pages had no text'}`;
  else why = ` (${[...counts.map((w) => `${w.n.toLocaleString()} ${w.some}`), noText > 0 ? `${noText.toLocaleString()} had no text` : ''].filter(Boolean).join(', ')})`;
  const searched = empty === 1 ? 'only its title and address were searched' : 'only their titles and addresses were searched';
  const without = counts.map((w) => w.without).filter(Boolean);
  const next = without.length > 0 ? ` To search the pages' text, run the list again without ${without.join(' or ')}.` : '';
  const others = unreadParts({ ...unread, read: 0, empty: 0 });
  return `${theirs}${why}, so ${searched}.${next}${others.length > 0 ? ` Not read: ${others.join(', ')}.` : ''}`;
}

/**
 * What an answer of a job, or its lack, was read from, in a reader's words. Without it a job
 * whose targets had mostly failed said "No result in this job shares words with the question"
 * when one result of ten had been read, and a job with nothing read yet said the same.
 */
export function askScopeNote(scope: AskScope, answered: boolean): string {
  const unread = unreadParts(scope);
  const others = unread.length > 0 ? ` Not read: ${unread.join(', ')}.` : '';
  if (scope.read === 0) return nothingReadNote(scope, 'ask');
  const read = `Read ${counted(scope.read, 'result')} of ${counted(scope.read + scope.empty + scope.failed + scope.unfinished, 'target')}.${others}`;
  if (answered) return unread.length > 0 ? read : '';
  return `No passage of the ${counted(scope.read, 'result')} read shares words with the question; try other words, ones the pages would use.${others}`;
}

export const HitsFormatSchema = z.enum(['md', 'csv']);
export type HitsFormat = z.infer<typeof HitsFormatSchema>;

/** The most characters a search or a question sends: well above any real query, below a pasted page. */
export const MAX_QUERY_CHARS = 2000;
/** What a search box sends; typed text is capped well above any real query. */
export const SearchQuerySchema = z.string().max(MAX_QUERY_CHARS);

/**
 * Why a query or question is too long to send, as the box says it; undefined when it is not.
 * Sent, the contract refused it as "invalid request for search at query", with a hint to restart
 * the window and report it: a pasted paragraph of 2,100 Chinese characters did that.
 */
export function queryTooLong(what: 'search' | 'question', text: string): { code: string; message: string; hint: string } | undefined {
  if (text.length <= MAX_QUERY_CHARS) return undefined;
  const count = (n: number): string => n.toLocaleString('en-US');
  return {
    code: 'query_too_long',
    message: `A ${what} takes at most ${count(MAX_QUERY_CHARS)} characters; this one has ${count(text.length)}.`,
    hint: what === 'search' ? 'Keep the few words that tell the results apart: a name, a figure, "an exact phrase".' : 'Ask it in fewer words: the names and terms that matter.',
  };
}

/**
 * Hits a search box shows, best first. It asks for one more, so a search matching thousands
 * of results says that more match instead of reading as "50 hits".
 */
export const SHOWN_HITS = 50;

/**
 * What can be typed in a search, title: and url: among it in the README's words: the app's
 * boxes show it while empty, and the app and `sift search` answer a query without words with
 * it. `where` is what is searched. The CLI and the app said it in two wordings (one with "the
 * address" and an example, one with "the URL"), for one syntax.
 */
export const searchHelp = (where: string): string =>
  `Type words to find them in ${where}. "An exact phrase", prefix*, OR and NOT (or -word) work too, and title:WORD and url:WORD search the title or the URL alone.`;

/**
 * Said of a query searched as plain words, with what was wrong and what to type instead when
 * it is known (main/search/query.ts whyNotSyntax); the CLI and the app say it alike.
 */
export const plainWordsNote = (why: string | undefined): string => `searched as plain words: ${why ?? 'the query is not valid search syntax'}`;

/** What searchHelp names as searched: a job's results, or all of them. */
export const searchedIn = (jobId: string | undefined): string => (jobId ? "this job's results" : 'every stored result');

/** The index's columns a query can name (main/store/search.ts SEARCH_SCHEMA). */
export type Column = 'title' | 'url';

/**
 * A column named before a word as other search tools name one: title:report, url:blog, and a
 * web search's intitle:, inurl: and site:. The index keeps the title and the URL in columns of
 * their own, so these search there (main/search/query.ts); before, title:report was the
 * phrase "title report", found in no result, with a note that the search has no filters.
 * Other names (page:3, filetype:pdf) keep that note (filterNote).
 */
export const COLUMNS: Readonly<Record<string, Column>> = { title: 'title', intitle: 'title', url: 'url', inurl: 'url', site: 'url' };

/**
 * The words of a query written as a search engine's filter (page:3, title:report, site:x): the
 * search has none, and FTS5 reads each as its words in a row ("page 3"). A search for page:3
 * said "No hits for page:3" and nothing of why. Quoted phrases, addresses (https://…) and
 * paths (C:\Users\…, pasted from a file's properties, was "searched as the words C \Users…") are not.
 */
export function filterLikeWords(query: string): string[] {
  const unquoted = query.replace(/["\u201C\u201D\u201E\u00AB\u00BB][^"\u201C\u201D\u201E\u00AB\u00BB]*["\u201C\u201D\u201E\u00AB\u00BB]?/g, ' ');
  return unquoted.split(/\s+/).filter((w) => /^-?\p{L}[\p{L}_]*:[^\s:/\\]/u.test(w) && !Object.hasOwn(COLUMNS, w.replace(/^-/, '').split(':')[0]!.toLowerCase()));
}

/** What the app says of a query's filter-like words, or '' when it has none. */
export function filterNote(query: string): string {
  const words = filterLikeWords(query);
  if (words.length === 0) return '';
  const asWords = (w: string): string => `“${w.replace(/^-/, '').replace(':', ' ')}”`;
  const list = (xs: string[]): string => (xs.length === 1 ? xs[0]! : `${xs.slice(0, -1).join(', ')} and ${xs.at(-1)!}`);
  const were = words.length === 1 ? 'was' : 'were';
  return `The search narrows by title: and url: only: ${list(words)} ${were} searched as the words ${list(words.map(asWords))}. Search for the words alone; a hit in a PDF says which page it is on.`;
}
