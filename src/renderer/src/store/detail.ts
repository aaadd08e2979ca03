import type { StateCreator } from 'zustand';
import { isCutShort, isUnfinished, type TargetRow, type TargetState } from '../../../shared/types';
import type { Res } from '../../../shared/ipc/contract';
import type { Reason } from '../../../shared/reasons';
import type { UserError } from '../lib/errors';
import { isLive } from '../lib/jobs';
import type { State } from './index';

/** The rows of the job on screen. Only one job's rows are held: a job can have 10,000. */
export interface DetailSlice {
  detailJobId: string | null;
  /** Indexed by idx; a row object is replaced only when that row changed, so a row
   *  component selecting rows[idx] re-renders only for its own change. */
  rows: TargetRow[];
  rowsLoaded: boolean;
  detailError: UserError | null;
  /** Changes that arrived while jobDetail was in flight, applied over its answer. */
  pendingRows: TargetRow[];
  selectedIdx: number | null;
  /** The selected row's result, when fetched: whole, or the part the pane shows (status.part). */
  result: { jobId: string; idx: number; status: Res<'targetResult'> } | null;
  resultLoading: boolean;
  resultError: UserError | null;
  /** The table shows the rows with this status, this reason and this warning ('all' / '' for every one). */
  filterStatus: TargetState | 'all';
  filterReason: Reason | '';
  filterWarning: string;

  setFilter(f: { status?: TargetState | 'all'; reason?: Reason | ''; warning?: string }): void;
  beginDetail(jobId: string): void;
  setDetail(jobId: string, rows: TargetRow[]): void;
  setDetailError(jobId: string, err: UserError): void;
  applyRows(jobId: string, rows: TargetRow[]): void;
  selectRow(idx: number | null): void;
  setResult(jobId: string, idx: number, status: Res<'targetResult'>): void;
  setResultLoading(loading: boolean): void;
  setResultError(err: UserError | null): void;
  clearDetail(): void;
}

// A target only moves forward (pending → running → done|failed) within a job; "run the
// rest again" makes a new job. So the more advanced of two copies of a row is the newer.
const RANK: Record<TargetState, number> = { pending: 0, running: 1, done: 2, failed: 2 };
export function laterRow(a: TargetRow | undefined, b: TargetRow): TargetRow {
  if (!a) return b;
  if (RANK[b.status] !== RANK[a.status]) return RANK[b.status] > RANK[a.status] ? b : a;
  return (b.finishedAt ?? 0) >= (a.finishedAt ?? 0) ? b : a;
}

export function mergeRows(rows: TargetRow[], changes: TargetRow[]): TargetRow[] {
  if (changes.length === 0) return rows;
  const next = rows.slice();
  for (const r of changes) {
    if (r.idx < 0) continue;
    next[r.idx] = laterRow(next[r.idx], r);
  }
  return next;
}

export const createDetailSlice: StateCreator<State, [], [], DetailSlice> = (set) => ({
  detailJobId: null,
  rows: [],
  rowsLoaded: false,
  detailError: null,
  pendingRows: [],
  selectedIdx: null,
  result: null,
  resultLoading: false,
  resultError: null,
  filterStatus: 'all',
  filterReason: '',
  filterWarning: '',

  setFilter: (f) =>
    set((s) => ({
      filterStatus: f.status ?? s.filterStatus,
      filterReason: f.reason ?? s.filterReason,
      filterWarning: f.warning ?? s.filterWarning,
    })),
  beginDetail: (jobId) =>
    set({ detailJobId: jobId, rows: [], rowsLoaded: false, detailError: null, pendingRows: [], selectedIdx: null, result: null, resultError: null, filterStatus: 'all', filterReason: '', filterWarning: '' }),
  setDetail: (jobId, rows) =>
    set((s) => {
      if (s.detailJobId !== jobId) return {};
      const sorted: TargetRow[] = [];
      for (const r of rows) sorted[r.idx] = r;
      return { rows: mergeRows(sorted, s.pendingRows), pendingRows: [], rowsLoaded: true };
    }),
  setDetailError: (jobId, err) => set((s) => (s.detailJobId === jobId ? { detailError: err, rowsLoaded: true } : {})),
  applyRows: (jobId, changes) =>
    set((s) => {
      if (s.detailJobId !== jobId) return {};
      if (!s.rowsLoaded) return { pendingRows: s.pendingRows.concat(changes) };
      return { rows: mergeRows(s.rows, changes) };
    }),
  selectRow: (idx) => set((s) => (s.selectedIdx === idx ? {} : { selectedIdx: idx, result: null, resultError: null })),
  setResult: (jobId, idx, status) => set((s) => (s.detailJobId === jobId && s.selectedIdx === idx ? { result: { jobId, idx, status }, resultLoading: false } : {})),
  setResultLoading: (resultLoading) => set({ resultLoading }),
  setResultError: (resultError) => set({ resultError, resultLoading: false }),
  clearDetail: () => set({ detailJobId: null, rows: [], rowsLoaded: false, pendingRows: [], selectedIdx: null, result: null, resultError: null }),
});

/** Whether the job on screen has ended: a target it left pending will not be fetched by it. */
export function detailJobEnded(s: Pick<State, 'detailJobId' | 'jobs'>): boolean {
  const job = s.detailJobId ? s.jobs[s.detailJobId] : undefined;
  return job ? !isLive(job) : false;
}

/** Whether the table's filter is on (any status, reason or warning chosen). */
export const isFiltered = (s: Pick<DetailSlice, 'filterStatus' | 'filterReason' | 'filterWarning'>): boolean =>
  s.filterStatus !== 'all' || s.filterReason !== '' || s.filterWarning !== '';

/** Whether the table's filter hides target idx: the result pane, open on it, says so. */
export const hiddenByFilter = (s: Pick<DetailSlice, 'rows' | 'filterStatus' | 'filterReason' | 'filterWarning'>, idx: number): boolean =>
  isFiltered(s) && !rowMatches(s.rows[idx], s.filterStatus, s.filterReason, s.filterWarning);

/** Whether a row passes the table's filter. */
export function rowMatches(r: TargetRow | undefined, status: TargetState | 'all', reason: Reason | '', warning = ''): boolean {
  if (!r) return false;
  // "Waiting" (a live job) or "Not fetched" (an ended one): what "run the rest again" takes,
  // so an ended job's count agrees with its header, the target a cancel or a crash cut short
  // (stored as failed) included. A live job has none of those.
  if (status === 'pending') {
    if (r.status === 'running' || !isUnfinished(r)) return false;
  } else if (status !== 'all' && r.status !== status) return false;
  // "Failed" is what the header counts as failed: a target cut short is not.
  if (status === 'failed' && isCutShort(r)) return false;
  if (reason && r.reason !== reason) return false;
  if (warning && !(r.status === 'done' && r.warnings?.includes(warning))) return false;
  return true;
}

/** Done targets per warning (a thin page, a PDF without text), most first. */
export function warningCounts(rows: readonly (TargetRow | undefined)[]): [string, number][] {
  const counts = new Map<string, number>();
  for (const r of rows) if (r?.status === 'done') for (const w of r.warnings ?? []) counts.set(w, (counts.get(w) ?? 0) + 1);
  return [...counts.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
}

/** Failed targets per reason, most first; not the ones cut short, which the header does not count as failed. */
export function reasonCounts(rows: readonly (TargetRow | undefined)[]): [Reason, number][] {
  const counts = new Map<Reason, number>();
  for (const r of rows) if (r?.status === 'failed' && r.reason && !isCutShort(r)) counts.set(r.reason, (counts.get(r.reason) ?? 0) + 1);
  return [...counts.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
}
