import type { StateCreator } from 'zustand';
import { isCutShort, isUnfinished, type RowGroup, type RowOutcome, type TargetRow, type TargetState } from '../../../shared/types';
import type { Res } from '../../../shared/ipc/contract';
import { failedStep, reasonCountLabel, type Reason } from '../../../shared/reasons';
import type { UserError } from '../lib/errors';
import { isLive } from '../lib/jobs';
import type { State } from './index';

/** The rows of the job on screen. Only one job's rows are held: a job can have 100,000. */
export interface DetailSlice {
  detailJobId: string | null;
  /** Indexed by idx, the rows read so far, from idx 0 on and without holes; a row object is
   *  replaced only when that row changed, so a row component selecting rows[idx] re-renders
   *  only for its own change. */
  rows: TargetRow[];
  /** The job's first page of rows is in (the rest may still be coming, see rowsTotal). */
  rowsLoaded: boolean;
  /** How many rows the job has: once rows.length reaches it, every row is in (rowsComplete). */
  rowsTotal: number;
  /** The rows not read yet (idx rows.length on), counted by outcome as main read them with the
   *  last page: the chips and the filter's count add them to the rows read. */
  restGroups: RowGroup[];
  /** The job that ran this ended job's rest, as main found it when the job was opened (jobDetail). */
  restRun: string | null;
  detailError: UserError | null;
  /** Changes to rows not read yet (all of them, while the first page is in flight), applied
   *  over their page when it comes. */
  pendingRows: TargetRow[];
  /** Rows known beyond those read (idx rows.length on): a filter's matches read at once, and
   *  live changes to rows not read yet. Shown in their place and by the filter; never counted
   *  (restGroups counts them), and handed to rows when their page comes. */
  ahead: ReadonlyMap<number, TargetRow>;
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
  /** The job's first page of rows, how many it has in all, and the rows after it counted. */
  setDetail(jobId: string, rows: TargetRow[], total: number, rest?: RowGroup[], restRun?: string): void;
  /** The job's next page of rows, read from idx rows.length on, and the rows after it counted. */
  addRows(jobId: string, rows: TargetRow[], rest?: RowGroup[]): void;
  setDetailError(jobId: string, err: UserError): void;
  /** Live changes; `was`, each one's outcome before, moves a row not read yet in restGroups at once. */
  applyRows(jobId: string, rows: TargetRow[], was?: RowOutcome[]): void;
  /** Rows read by the filter, wherever they are in the job. */
  addAhead(jobId: string, rows: TargetRow[]): void;
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
  const swaps: [TargetRow | undefined, TargetRow][] = [];
  for (const r of changes) {
    if (r.idx < 0) continue;
    const was = next[r.idx];
    next[r.idx] = laterRow(was, r);
    if (next[r.idx] !== was) swaps.push([was, next[r.idx]!]);
  }
  for (const tally of TALLIES) tally.carry(rows, next, swaps);
  return next;
}

/** What a row's counts read of it; a RowGroup has it too. */
type Outcome = Pick<TargetRow, 'status' | 'error' | 'reason' | 'warnings'>;

const mostFirst = (counts: Map<string, number>): [string, number][] =>
  [...counts.entries()].filter(([, n]) => n > 0).sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));

/**
 * Rows counted by a key each row gives (its reason, its warnings), kept per rows array and
 * carried to the next array by the rows that changed: the reason chips and the filter read
 * these at every store change, and a pass over a live job's 100,000 rows at each of its
 * events was 100,000 row reads per event (renderer-row-counts.test.ts counts them).
 */
class Tally {
  private readonly counts = new WeakMap<readonly (TargetRow | undefined)[], Map<string, number>>();
  private readonly sorted = new WeakMap<Map<string, number>, [string, number][]>();
  constructor(private readonly keysOf: (r: Outcome) => readonly string[]) {}

  /** Most first, then by name; the same array for the same rows, so not to be changed by its reader. */
  of(rows: readonly (TargetRow | undefined)[]): readonly [string, number][] {
    const counts = this.countsOf(rows);
    let out = this.sorted.get(counts);
    if (!out) {
      out = mostFirst(counts);
      this.sorted.set(counts, out);
    }
    return out;
  }

  /** Those of `rows` and of the rows `groups` count (a big job's rows not read yet), most first. */
  withGroups(rows: readonly (TargetRow | undefined)[], groups: readonly RowGroup[]): readonly [string, number][] {
    if (groups.length === 0) return this.of(rows);
    const counts = new Map(this.countsOf(rows));
    for (const g of groups) for (const k of this.keysOf(g)) counts.set(k, (counts.get(k) ?? 0) + g.n);
    return mostFirst(counts);
  }

  private countsOf(rows: readonly (TargetRow | undefined)[]): Map<string, number> {
    let counts = this.counts.get(rows);
    if (!counts) {
      counts = new Map();
      this.add(counts, rows, 1);
      this.counts.set(rows, counts);
    }
    return counts;
  }

  /** `next`'s counts from `rows`' when those are known: less what the changed rows were, plus what they are. */
  carry(rows: readonly (TargetRow | undefined)[], next: readonly (TargetRow | undefined)[], swaps: readonly [TargetRow | undefined, TargetRow][]): void {
    const counts = this.counts.get(rows);
    if (!counts) return;
    const carried = new Map(counts);
    for (const [was, now] of swaps) {
      this.add(carried, [was], -1);
      this.add(carried, [now], 1);
    }
    this.counts.set(next, carried);
  }

  private add(counts: Map<string, number>, rows: readonly (TargetRow | undefined)[], sign: 1 | -1): void {
    for (const r of rows) if (r) for (const k of this.keysOf(r)) counts.set(k, (counts.get(k) ?? 0) + sign);
  }
}

const NO_KEYS: readonly string[] = [];
// Not the ones cut short, which the header does not count as failed.
const reasons = new Tally((r) => (r.status === 'failed' && r.reason && !isCutShort(r) ? [r.reason] : NO_KEYS));
const warnings = new Tally((r) => (r.status === 'done' ? (r.warnings ?? NO_KEYS) : NO_KEYS));
/** The step a failed row's error names (a jq program's, a grep pattern's); a group of rows not read yet says it (RowGroup.step). */
const stepOf = (r: Outcome & { step?: string }): string | undefined => r.step ?? (r.status === 'failed' && !isCutShort(r) ? failedStep(r.reason, r.error) : undefined);
/** Failed targets per step their error names. */
const steps = new Tally((r) => {
  const step = stepOf(r);
  return step ? [step] : NO_KEYS;
});
const TALLIES = [reasons, warnings, steps];

/** Splits changes into those to rows already read (below `loaded`) and those to rows still to come. */
function byLoaded(changes: TargetRow[], loaded: number): { now: TargetRow[]; later: TargetRow[] } {
  const now: TargetRow[] = [];
  const later: TargetRow[] = [];
  for (const r of changes) (r.idx < loaded ? now : later).push(r);
  return { now, later };
}

const NO_ROWS: ReadonlyMap<number, TargetRow> = new Map();

type GroupKey = Omit<RowGroup, 'n'>;
/** What a group keeps of a row: its error only when it was cut short (targets.ts cutShortGroups), the step its error names (stepGroups). */
function groupOf(r: RowOutcome): GroupKey {
  const step = stepOf(r);
  return { status: r.status, error: isCutShort(r) ? r.error : '', reason: r.reason ?? '', ...(r.warnings?.length ? { warnings: r.warnings } : {}), ...(step ? { step } : {}) };
}
const sameGroup = (a: GroupKey, b: GroupKey): boolean =>
  a.status === b.status && a.error === b.error && (a.reason ?? '') === (b.reason ?? '') && (a.warnings ?? []).join(',') === (b.warnings ?? []).join(',') && a.step === b.step;

/**
 * `groups` with each row not read yet moved from the group of its outcome before to the one
 * of its outcome now: a live change counted at once, not at the next page's `rest` (up to a
 * page later). Unchanged when a row's group before is not there (counted otherwise): the
 * next page's `rest` puts it right.
 */
function movedGroups(groups: RowGroup[], moves: readonly [RowOutcome, TargetRow][]): RowGroup[] {
  if (moves.length === 0) return groups;
  const next = groups.map((g) => ({ ...g }));
  for (const [was, now] of moves) {
    const from = next.find((g) => g.n > 0 && sameGroup(g, groupOf(was)));
    if (!from) return groups;
    from.n--;
    const to = groupOf(now);
    const into = next.find((g) => sameGroup(g, to));
    if (into) into.n++;
    else next.push({ ...to, n: 1 });
  }
  return next.filter((g) => g.n > 0);
}

/** `ahead` with `changes` (rows not read yet) merged in, each the later of its two copies. */
function withAhead(ahead: ReadonlyMap<number, TargetRow>, changes: readonly TargetRow[]): ReadonlyMap<number, TargetRow> {
  if (changes.length === 0) return ahead;
  const next = new Map(ahead);
  for (const r of changes) next.set(r.idx, laterRow(next.get(r.idx), r));
  return next;
}

/** `rows` with a page read after them, and the changes and rows read ahead that are now in. */
function withPage(rows: TargetRow[], page: TargetRow[], pending: TargetRow[], ahead: ReadonlyMap<number, TargetRow>): Pick<DetailSlice, 'rows' | 'pendingRows' | 'ahead'> {
  const next = rows.concat(page);
  // Each row of the page is a change from no row.
  const added = page.map((r): [undefined, TargetRow] => [undefined, r]);
  for (const tally of TALLIES) tally.carry(rows, next, added);
  const { now, later } = byLoaded(pending, next.length);
  // A row read ahead may be newer than its page (read before it, answered after it): the later copy stays.
  const caught = [...ahead.values()].filter((r) => r.idx < next.length);
  const left = caught.length ? new Map([...ahead].filter(([idx]) => idx >= next.length)) : ahead;
  return { rows: mergeRows(next, now.concat(caught)), pendingRows: later, ahead: left };
}

export const createDetailSlice: StateCreator<State, [], [], DetailSlice> = (set) => ({
  detailJobId: null,
  rows: [],
  rowsLoaded: false,
  rowsTotal: 0,
  restGroups: [],
  restRun: null,
  detailError: null,
  pendingRows: [],
  ahead: NO_ROWS,
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
    set({ detailJobId: jobId, rows: [], rowsLoaded: false, rowsTotal: 0, restGroups: [], restRun: null, detailError: null, pendingRows: [], ahead: NO_ROWS, selectedIdx: null, result: null, resultError: null, filterStatus: 'all', filterReason: '', filterWarning: '' }),
  setDetail: (jobId, rows, total, rest = [], restRun) =>
    set((s) => {
      if (s.detailJobId !== jobId) return {};
      const page = rows[0]?.idx === 0 ? rows : [];
      return { ...withPage([], page, s.pendingRows, s.ahead), rowsLoaded: true, rowsTotal: total, restGroups: page.length ? rest : [], restRun: restRun ?? null };
    }),
  addRows: (jobId, rows, rest = []) =>
    set((s) => {
      // A page of another job, or one that does not follow the rows read (a job opened again meanwhile).
      if (s.detailJobId !== jobId || !s.rowsLoaded || rows.length === 0 || rows[0]!.idx !== s.rows.length) return {};
      return { ...withPage(s.rows, rows, s.pendingRows, s.ahead), restGroups: rest };
    }),
  setDetailError: (jobId, err) => set((s) => (s.detailJobId === jobId ? { detailError: err, rowsLoaded: true } : {})),
  applyRows: (jobId, changes, was) =>
    set((s) => {
      if (s.detailJobId !== jobId) return {};
      if (!s.rowsLoaded) return { pendingRows: s.pendingRows.concat(changes) };
      const { now, later } = byLoaded(changes, s.rows.length);
      if (later.length === 0) return { rows: mergeRows(s.rows, now) };
      const moves = was ? changes.flatMap((r, i): [RowOutcome, TargetRow][] => (r.idx >= s.rows.length && was[i] ? [[was[i], r]] : [])) : [];
      return { rows: mergeRows(s.rows, now), pendingRows: s.pendingRows.concat(later), ahead: withAhead(s.ahead, later), restGroups: movedGroups(s.restGroups, moves) };
    }),
  addAhead: (jobId, found) =>
    set((s) => {
      if (s.detailJobId !== jobId || !s.rowsLoaded) return {};
      const { now, later } = byLoaded(found, s.rows.length);
      return { rows: mergeRows(s.rows, now), ahead: withAhead(s.ahead, later) };
    }),
  selectRow: (idx) => set((s) => (s.selectedIdx === idx ? {} : { selectedIdx: idx, result: null, resultError: null })),
  setResult: (jobId, idx, status) => set((s) => (s.detailJobId === jobId && s.selectedIdx === idx ? { result: { jobId, idx, status }, resultLoading: false } : {})),
  setResultLoading: (resultLoading) => set({ resultLoading }),
  setResultError: (resultError) => set({ resultError, resultLoading: false }),
  clearDetail: () => set({ detailJobId: null, rows: [], rowsLoaded: false, rowsTotal: 0, restGroups: [], restRun: null, pendingRows: [], ahead: NO_ROWS, selectedIdx: null, result: null, resultError: null }),
});

/** Whether the job on screen has ended: a target it left pending will not be fetched by it. */
export function detailJobEnded(s: Pick<State, 'detailJobId' | 'jobs'>): boolean {
  const job = s.detailJobId ? s.jobs[s.detailJobId] : undefined;
  return job ? !isLive(job) : false;
}

/** Whether every row of the job on screen has been read: counts over the rows are the job's then, not a part's. */
export const rowsComplete = (s: Pick<DetailSlice, 'rowsLoaded' | 'rows' | 'rowsTotal'>): boolean => s.rowsLoaded && s.rows.length >= s.rowsTotal;

/** Whether the table's filter is on (any status, reason or warning chosen). */
export const isFiltered = (s: Pick<DetailSlice, 'filterStatus' | 'filterReason' | 'filterWarning'>): boolean =>
  s.filterStatus !== 'all' || s.filterReason !== '' || s.filterWarning !== '';

/** Whether the table's filter hides target idx: the result pane, open on it, says so. */
export const hiddenByFilter = (s: Pick<DetailSlice, 'rows' | 'filterStatus' | 'filterReason' | 'filterWarning'>, idx: number): boolean =>
  // A row not read yet (a big job's later pages) is not known to be hidden.
  isFiltered(s) && s.rows[idx] !== undefined && !rowMatches(s.rows[idx], s.filterStatus, s.filterReason, s.filterWarning);

/** Whether a row (or a group of rows alike) passes the table's filter. */
export function rowMatches(r: Outcome | undefined, status: TargetState | 'all', reason: Reason | '', warning = ''): boolean {
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
export const warningCounts = (rows: readonly (TargetRow | undefined)[]): readonly [string, number][] => warnings.of(rows);

/** Failed targets per reason, most first; not the ones cut short, which the header does not count as failed. */
export const reasonCounts = (rows: readonly (TargetRow | undefined)[]): readonly [Reason, number][] => reasons.of(rows) as [Reason, number][];

type CountView = Pick<DetailSlice, 'rows' | 'restGroups'>;

/** warningCounts of the whole job: the rows read and those still to come (restGroups). */
export const jobWarningCounts = (s: CountView): readonly [string, number][] => warnings.withGroups(s.rows, s.restGroups);

/** reasonCounts of the whole job: the rows read and those still to come (restGroups). */
export const jobReasonCounts = (s: CountView): readonly [Reason, number][] => reasons.withGroups(s.rows, s.restGroups) as [Reason, number][];

/** Failed targets per step that failed (failedStep) of the whole job; a row not read yet is counted without its error, so under none. */
export const jobStepCounts = (s: CountView): readonly [string, number][] => steps.withGroups(s.rows, s.restGroups);

/**
 * What the job's failures of `reason` are called, in the header's chip and the table's filter
 * alike: "jq program failed" when every one is that step's. The filter said "bad URL or option"
 * of the rows the chip "jq program failed" had just chosen.
 */
export const jobReasonLabel = (s: CountView, reason: Reason): string =>
  reasonCountLabel(reason, jobReasonCounts(s).find(([r]) => r === reason)?.[1] ?? 0, jobStepCounts(s));

/** Of the rows not read yet, how many the table's filter will show. */
export const restShown = (s: Pick<DetailSlice, 'restGroups' | 'filterStatus' | 'filterReason' | 'filterWarning'>): number =>
  s.restGroups.reduce((n, g) => n + (rowMatches(g, s.filterStatus, s.filterReason, s.filterWarning) ? g.n : 0), 0);

type FilterView = Pick<DetailSlice, 'rows' | 'ahead' | 'filterStatus' | 'filterReason' | 'filterWarning'>;
const shownByRows = new WeakMap<readonly TargetRow[], { filter: string; ahead: ReadonlyMap<number, TargetRow>; idx: number[] }>();

/**
 * The idx of the rows the filter shows, in order: of the rows read, then of those read ahead;
 * null unfiltered (every row shows in its place). Kept per rows array, rows ahead and filter:
 * the table selects it at every store change.
 */
export function shownIndices(s: FilterView): number[] | null {
  if (!isFiltered(s)) return null;
  const filter = `${s.filterStatus}\n${s.filterReason}\n${s.filterWarning}`;
  const kept = shownByRows.get(s.rows);
  if (kept?.filter === filter && kept.ahead === s.ahead) return kept.idx;
  const idx: number[] = [];
  s.rows.forEach((r, i) => {
    if (rowMatches(r, s.filterStatus, s.filterReason, s.filterWarning)) idx.push(i);
  });
  const ahead: number[] = [];
  for (const r of s.ahead.values()) if (r.idx >= s.rows.length && rowMatches(r, s.filterStatus, s.filterReason, s.filterWarning)) ahead.push(r.idx);
  idx.push(...ahead.sort((a, b) => a - b));
  shownByRows.set(s.rows, { filter, ahead: s.ahead, idx });
  return idx;
}

/** Of the shown idx, how many are of rows read (they come first): the rest are counted in restGroups. */
export function shownRead(shown: readonly number[], read: number): number {
  let lo = 0;
  let hi = shown.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (shown[mid]! < read) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** A row of the job on screen, read in its page or ahead of it. */
export const rowAt = (s: Pick<DetailSlice, 'rows' | 'ahead'>, idx: number): TargetRow | undefined => s.rows[idx] ?? s.ahead.get(idx);

const positions = new WeakMap<readonly number[], Map<number, number>>();

/** Each shown idx's place in `shown`: a key press in a filtered table of 100,000 looked it up twice with indexOf. */
export function shownPositions(shown: readonly number[]): Map<number, number> {
  let at = positions.get(shown);
  if (!at) {
    at = new Map(shown.map((idx, pos) => [idx, pos]));
    positions.set(shown, at);
  }
  return at;
}
