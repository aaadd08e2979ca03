import { queryTooLong, SHOWN_HITS, type HitsFormat, type JobAnswer, type SearchHit } from '../../../shared/search';
import { isLowSurrogate } from '../../../shared/cut';
import { toUserError } from '../lib/errors';
import { openJob, openResult } from './actions';
import { useStore } from './index';
import { focusOfHit, type ResultFocus, type SearchBoxName } from './search';

const get = useStore.getState;

/** Results as you type: a query runs once typing pauses this long. */
export const SEARCH_DEBOUNCE_MS = 150;

const timers: Record<SearchBoxName, ReturnType<typeof setTimeout> | undefined> = { job: undefined, all: undefined };
/** The newest request per box; an answer to an older one is dropped (typing cancels it). */
const latest: Record<SearchBoxName, number> = { job: 0, all: 0 };

/** What the user typed into a box: runs the search when they pause; an empty box clears. */
export function typeSearch(box: SearchBoxName, query: string, jobId: string | null): void {
  get().setSearchQuery(box, query, jobId);
  clearTimeout(timers[box]);
  latest[box]++;
  if (!query.trim()) {
    get().clearSearch(box);
    return;
  }
  timers[box] = setTimeout(() => void runSearch(box), SEARCH_DEBOUNCE_MS);
}

/** Runs the box's query now (Enter, or the debounce firing). */
export async function runSearch(box: SearchBoxName): Promise<void> {
  clearTimeout(timers[box]);
  const { query, jobId } = get().searchBoxes[box];
  if (!query.trim()) return;
  const seq = ++latest[box];
  get().setSearchLoading(box);
  try {
    const limit = SHOWN_HITS + 1;
    const tooLong = queryTooLong('search', query);
    if (tooLong) throw tooLong;
    const res = await window.sift.search(jobId ? { query, id: jobId, limit } : { query, limit });
    if (seq === latest[box]) get().setSearchHits(box, query, res.hits.slice(0, SHOWN_HITS), res.plain, res.hits.length > SHOWN_HITS, res.why);
  } catch (err) {
    if (seq === latest[box]) get().setSearchError(box, query, toUserError(err));
  }
}

/**
 * How long after a result is stored a box searching its job runs its query again: a job
 * stores up to ~150 results a second from a fast site, and the box follows it once a second,
 * so a hit does not move under the pointer between a look and a click.
 */
export const SEARCH_REFRESH_MS = 1000;
const refreshTimers: Record<SearchBoxName, ReturnType<typeof setTimeout> | undefined> = { job: undefined, all: undefined };

/** Whether the box's hits are on screen: this job's in its job view, all jobs' in the search view. */
function onScreen(box: SearchBoxName, jobId: string): boolean {
  const { view, searchBoxes } = get();
  return box === 'job' ? view.kind === 'job' && view.id === jobId && searchBoxes.job.jobId === jobId : view.kind === 'search';
}

/**
 * Results were stored in `jobId`: the box on screen that searches it and shows an answer runs
 * its query again, so its hits and count follow a running job. They stayed as they were when
 * typed: "No hits" in a job that had since stored ten pages holding the word. A box out of
 * sight is left alone: its answer would re-aim the open result's highlight (refocus).
 */
export function resultsStored(jobId: string): void {
  for (const box of ['job', 'all'] as const) {
    const b = get().searchBoxes[box];
    if (!b.answered || !onScreen(box, jobId) || refreshTimers[box]) continue;
    refreshTimers[box] = setTimeout(() => {
      refreshTimers[box] = undefined;
      const now = get().searchBoxes[box];
      // Still showing that answer (typing runs its own search, Esc drops it).
      if (now.answered && now.answered === now.query && onScreen(box, jobId)) void runSearch(box);
    }, SEARCH_REFRESH_MS);
  }
}

/** Esc in a box: drops the query, any pending run, and the hits. */
export function cancelSearch(box: SearchBoxName): void {
  clearTimeout(timers[box]);
  latest[box]++;
  get().clearSearch(box);
}

/** Counts the opens, so the result view tells a new one from the same focus made again by a refresh. */
let opens = 0;

/** Opens a target's result in its job, scrolled to the focus's needle on its line, with the keyboard there. */
async function openAt(focus: ResultFocus): Promise<void> {
  const { jobId, idx } = focus;
  const s = get();
  if (s.view.kind !== 'job' || s.view.id !== jobId) s.setView({ kind: 'job', id: jobId });
  if (get().detailJobId !== jobId) await openJob(jobId);
  get().setFocus({ ...focus, opened: ++opens });
  await openResult(idx);
}

/** A hit opens its result preview scrolled to the match, highlighted. */
export function openHit(hit: SearchHit): Promise<void> {
  return openAt(focusOfHit(hit));
}

/** How much of a passage's first line its open marks. */
const PASSAGE_MARK = 80;

/**
 * A passage's first line as far as its open marks it: at most PASSAGE_MARK characters, ending at
 * a word's end where the line has spaces (the mark stopped at "statical" of "statically"), never
 * in half an emoji.
 */
function markOf(line: string): string {
  if (line.length <= PASSAGE_MARK) return line;
  const head = line.slice(0, isLowSurrogate(line.charCodeAt(PASSAGE_MARK)) ? PASSAGE_MARK - 1 : PASSAGE_MARK);
  if (/\s/.test(line.charAt(PASSAGE_MARK))) return head;
  const words = head.replace(/\s+\S*$/, '');
  return words === head || words.length === 0 ? head : words;
}

/** A passage of "Ask this job" opens where it starts; one that is its result's title (no text of its own) at that title. */
export function openPassage(p: JobAnswer): Promise<void> {
  return openAt({ jobId: p.jobId, idx: p.idx, needle: markOf((p.text || p.title).split('\n')[p.text ? (p.lent ?? 0) : 0] ?? ''), line: p.line });
}

/** Saves the box's hits (the search runs again in main) as Markdown or CSV where the user chooses. */
export async function exportHits(box: SearchBoxName, format: HitsFormat): Promise<void> {
  const { query, jobId } = get().searchBoxes[box];
  if (!query.trim()) return;
  try {
    const res = await window.sift.exportHits(jobId ? { query, id: jobId, format } : { query, format });
    if (res) {
      const saved = `${res.more ? 'the best ' : ''}${res.hits} ${res.hits === 1 ? 'hit' : 'hits'}`;
      get().notify('info', { message: `Saved ${saved} to ${res.path}${res.more ? '; more results match' : ''}` });
    }
  } catch (err) {
    get().notify('error', toUserError(err));
  }
}

/** "Ask this job": the passages across the job's results that best answer the question. */
export async function askJob(jobId: string, question: string): Promise<void> {
  if (!question.trim()) return;
  get().setAsk({ jobId, question, passages: [], scope: null, loading: true, error: null, asked: question });
  try {
    const tooLong = queryTooLong('question', question);
    if (tooLong) throw tooLong;
    const { passages, scope } = await window.sift.askJob({ id: jobId, question });
    const cur = get().ask;
    if (cur?.jobId === jobId && cur.asked === question) get().setAsk({ ...cur, passages, scope, loading: false });
  } catch (err) {
    const cur = get().ask;
    if (cur?.jobId === jobId && cur.asked === question) get().setAsk({ ...cur, loading: false, error: toUserError(err) });
  }
}
