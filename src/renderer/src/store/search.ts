import type { StateCreator } from 'zustand';
import type { AskScope, JobAnswer, SearchHit } from '../../../shared/search';
import type { UserError } from '../lib/errors';
import type { State } from './index';

/** The two search boxes: the job view's (this job) and the sidebar's (all jobs). */
export type SearchBoxName = 'job' | 'all';

export interface SearchBox {
  query: string;
  /** The job searched (box 'job'); null searches all jobs. */
  jobId: string | null;
  hits: SearchHit[];
  /** The query was not valid syntax and was searched as plain words. */
  plain: boolean;
  /** For a query searched as plain words, what was wrong and what to type instead. */
  why?: string;
  /** More results match than the SHOWN_HITS best shown. */
  more: boolean;
  loading: boolean;
  error: UserError | null;
  /** The query the hits answer (the box may already hold a newer one). */
  answered: string;
}

/** Where the result preview should scroll to and highlight. */
export interface ResultFocus {
  jobId: string;
  idx: number;
  /** The text to find (the matched words, or a passage's first words). */
  needle: string;
  /** The 1-based line of the content the match is on. */
  line: number;
  /** Set when the user opened it (a hit, a passage): the keyboard goes to the match once, never at a refresh. */
  opened?: number;
}

export interface AskState {
  jobId: string;
  question: string;
  passages: JobAnswer[];
  /** What the answer was read from; null until it comes. */
  scope: AskScope | null;
  loading: boolean;
  error: UserError | null;
  asked: string;
}

export interface SearchSlice {
  searchBoxes: Record<SearchBoxName, SearchBox>;
  focus: ResultFocus | null;
  ask: AskState | null;
  /** The job view's box finds words or asks a question. */
  searchMode: 'find' | 'ask';
  setSearchMode(mode: 'find' | 'ask'): void;
  setSearchQuery(box: SearchBoxName, query: string, jobId: string | null): void;
  setSearchLoading(box: SearchBoxName): void;
  setSearchHits(box: SearchBoxName, query: string, hits: SearchHit[], plain: boolean, more?: boolean, why?: string): void;
  setSearchError(box: SearchBoxName, query: string, error: UserError): void;
  clearSearch(box: SearchBoxName): void;
  setFocus(focus: ResultFocus | null): void;
  setAsk(ask: AskState | null): void;
  /** A job was deleted (or expired): its hits, highlight and answers go. */
  dropJob(id: string): void;
}

const emptyBox = (jobId: string | null = null): SearchBox => ({ query: '', jobId, hits: [], plain: false, more: false, loading: false, error: null, answered: '' });

/** Where a hit opens its result: at its first marked words on their line. */
export function focusOfHit(hit: SearchHit): ResultFocus {
  const [a, b] = hit.marks[0] ?? [0, 0];
  return { jobId: hit.jobId, idx: hit.idx, needle: hit.field === 'body' ? hit.snippet.slice(a, b) : '', line: hit.line ?? 1 };
}

/**
 * The open result's highlight once a box answers another query: at that query's match when
 * the result is among its hits, else none (as after a failed query or a cleared box). Kept
 * as it was, it marked the words of a query no longer in the box ("net revenue" lit while
 * the box said "revenue").
 */
function refocus(focus: ResultFocus | null, hits: readonly SearchHit[]): ResultFocus | null {
  if (!focus) return null;
  const same = hits.find((h) => h.jobId === focus.jobId && h.idx === focus.idx);
  return same ? focusOfHit(same) : null;
}

/**
 * The hits once job `id` is gone. A hit of it that other jobs stored alike (sameIn, newest
 * first) becomes the newest copy's, which reads the same on the same line; any other goes.
 * Kept, a hit led to "This job is gone" though an older job still held the same result.
 */
function withoutJob(hits: readonly SearchHit[], id: string): SearchHit[] {
  const out: SearchHit[] = [];
  for (const h of hits) {
    const [newest, ...older] = (h.sameIn ?? []).filter((c) => c.jobId !== id);
    const { sameIn: _, ...hit } = h;
    if (h.jobId !== id) out.push(newest ? { ...hit, sameIn: [newest, ...older] } : hit);
    else if (newest) out.push(older.length ? { ...hit, ...newest, sameIn: older } : { ...hit, ...newest });
  }
  return out;
}

export const createSearchSlice: StateCreator<State, [], [], SearchSlice> = (set) => ({
  searchBoxes: { job: emptyBox(), all: emptyBox() },
  focus: null,
  ask: null,
  searchMode: 'find',
  setSearchMode: (searchMode) => set({ searchMode }),
  setSearchQuery: (box, query, jobId) =>
    set((s) => {
      const cur = s.searchBoxes[box];
      // Another job's box starts empty: its hits belong to the job it searched.
      const next = cur.jobId === jobId ? { ...cur, query } : { ...emptyBox(jobId), query };
      return { searchBoxes: { ...s.searchBoxes, [box]: next } };
    }),
  setSearchLoading: (box) => set((s) => ({ searchBoxes: { ...s.searchBoxes, [box]: { ...s.searchBoxes[box], loading: true } } })),
  setSearchHits: (box, query, hits, plain, more = false, why) =>
    set((s) => ({
      searchBoxes: { ...s.searchBoxes, [box]: { ...s.searchBoxes[box], hits, plain, why, more, loading: false, error: null, answered: query } },
      focus: refocus(s.focus, hits),
    })),
  setSearchError: (box, query, error) =>
    set((s) => ({ searchBoxes: { ...s.searchBoxes, [box]: { ...s.searchBoxes[box], hits: [], more: false, loading: false, error, answered: query } }, focus: null })),
  clearSearch: (box) => set((s) => ({ searchBoxes: { ...s.searchBoxes, [box]: emptyBox(s.searchBoxes[box].jobId) }, focus: null })),
  setFocus: (focus) => set({ focus }),
  setAsk: (ask) => set({ ask }),
  dropJob: (id) =>
    set((s) => {
      const boxes = { ...s.searchBoxes };
      for (const box of ['job', 'all'] as const) {
        const b = boxes[box];
        if (b.jobId === id) boxes[box] = emptyBox();
        else if (b.hits.some((h) => h.jobId === id || h.sameIn?.some((c) => c.jobId === id))) boxes[box] = { ...b, hits: withoutJob(b.hits, id) };
      }
      return {
        searchBoxes: boxes,
        focus: s.focus?.jobId === id ? null : s.focus,
        ask: s.ask?.jobId === id ? null : s.ask,
      };
    }),
});
