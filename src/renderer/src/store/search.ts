import type { StateCreator } from 'zustand';
import type { JobAnswer, SearchHit } from '../../../shared/search';
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
}

export interface AskState {
  jobId: string;
  question: string;
  passages: JobAnswer[];
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
  setSearchHits(box: SearchBoxName, query: string, hits: SearchHit[], plain: boolean): void;
  setSearchError(box: SearchBoxName, query: string, error: UserError): void;
  clearSearch(box: SearchBoxName): void;
  setFocus(focus: ResultFocus | null): void;
  setAsk(ask: AskState | null): void;
}

const emptyBox = (jobId: string | null = null): SearchBox => ({ query: '', jobId, hits: [], plain: false, loading: false, error: null, answered: '' });

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
  setSearchHits: (box, query, hits, plain) =>
    set((s) => ({ searchBoxes: { ...s.searchBoxes, [box]: { ...s.searchBoxes[box], hits, plain, loading: false, error: null, answered: query } } })),
  setSearchError: (box, query, error) =>
    set((s) => ({ searchBoxes: { ...s.searchBoxes, [box]: { ...s.searchBoxes[box], hits: [], loading: false, error, answered: query } } })),
  clearSearch: (box) => set((s) => ({ searchBoxes: { ...s.searchBoxes, [box]: emptyBox(s.searchBoxes[box].jobId) } })),
  setFocus: (focus) => set({ focus }),
  setAsk: (ask) => set({ ask }),
});
