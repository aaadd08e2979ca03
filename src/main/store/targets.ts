import type Database from 'better-sqlite3';
import { resultWarnings, type Mode, type Options, type Result, type RowFilter, type RowGroup, type Target, type TargetRow, type TargetState, type TargetStatus } from '../../shared/types';
import { isReason, STEP_NAMES, type Reason } from '../../shared/reasons';
import { CUT_SHORT_TARGETS } from './migrations';

/**
 * A targets row without its result, as listing reads it: ROW_COLUMNS in their order. Read as
 * arrays (better-sqlite3's raw mode): a page of 5,000 rows read as objects keyed by column
 * name cost 2.5× as much to build (median 99 against 38 ms, loaded 2-core machine).
 */
type RowRecord = [
  idx: number,
  url: string,
  options: string | null,
  status: TargetState,
  error: string,
  hint: string,
  bytes: number,
  title: string,
  errorStatus: number,
  reason: string,
  warnings: string,
  startedAt: number | null,
  finishedAt: number | null,
];
type StatusRecord = [...RowRecord, result: string | null];

/** What listing reads of a target: migration 13 indexes them, so a column added here is added there. */
export const ROW_COLUMNS = 'idx, url, options, status, error, hint, bytes, title, error_status, reason, warnings, started_at, finished_at';

const idxOf = (r: StatusRecord): number => r[0];
const statusOf = (r: StatusRecord): TargetState => r[3];

function toRow(r: RowRecord | StatusRecord): TargetRow {
  const [idx, url, options, status, error, hint, bytes, title, errorStatus, reason, warnings, startedAt, finishedAt] = r;
  const row: TargetRow = { idx, url, status, error, hint, bytes, errorStatus, reason: isReason(reason) ? reason : '', title, startedAt, finishedAt };
  if (options) row.options = JSON.parse(options) as Options;
  if (warnings) row.warnings = warnings.split(',');
  return row;
}

function toStatus(r: StatusRecord): TargetStatus {
  const s: TargetStatus = toRow(r);
  const result = r[13];
  if (result !== null) s.result = JSON.parse(result) as Result;
  return s;
}

/** What the runner writes when a target finishes. */
export interface TargetOutcome {
  status: 'done' | 'failed';
  result?: Result;
  error: string;
  hint: string;
  bytes: number;
  title: string;
  /** The failure's HTTP-like status; 0 when done. */
  errorStatus: number;
  /** Why it failed (SPEC §5.9); '' when done. */
  reason?: Reason | '';
}

/** The mode in a target's stored options (JSON); undefined for the default, or options it cannot read. */
export function modeOf(options: string | null): Mode | undefined {
  if (!options) return undefined;
  try {
    const mode = (JSON.parse(options) as Options).mode;
    return typeof mode === 'string' ? (mode as Mode) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * How many rows iterate reads at once, and about how many bytes of results: a query per row
 * was 41 µs a row on a loaded 2-core machine, a page of 64 rows 13 µs (a third of a zip
 * export of 100,000 small results); 1 MiB keeps a page of large results (up to the 8 MiB
 * cap each) to a few of them in memory at once.
 */
const PAGE_ROWS = 64;
const PAGE_BYTES = 1024 * 1024;

/** The last idx of the page that starts with `rows`: as many as fit in PAGE_BYTES, at least one. */
function pageEnd(rows: { idx: number; bytes: number }[]): number | undefined {
  let sum = 0;
  let last: number | undefined;
  for (const r of rows) {
    sum += r.bytes;
    if (last !== undefined && sum > PAGE_BYTES) break;
    last = r.idx;
  }
  return last;
}

/** What groups reads of a row: its outcome, and for a target cut short its error (which a group keeps). */
interface GroupRecord {
  status: TargetState;
  reason: string;
  warnings: string;
  error: string;
  /** The step a bad_option failure's error names (stepGroups), '' for none. */
  step?: string;
  n: number;
}

/**
 * The rows of a job from idx `from` on, grouped by outcome: on migration 12's index, in its
 * order. Named, here and below: with `idx >= ?` SQLite took the primary key's range instead,
 * which reads every stored result (0.8 s for 100,000 rows of 1 KB).
 */
export const OUTCOME_GROUPS = 'SELECT status, reason, warnings, \'\' AS error, count(*) AS n FROM targets INDEXED BY targets_by_outcome WHERE job_id = ? AND idx >= ? GROUP BY status, reason, warnings';
/**
 * Those of them cut short, with their error: few (the targets in flight at a cancel or a
 * close), on migration 10's index. A function: migrations.ts reaches this module through
 * search.ts, so its constant is not set yet when this one loads.
 */
export const cutShortGroups = (): string => `SELECT status, reason, warnings, error, count(*) AS n FROM targets INDEXED BY targets_cut_short WHERE job_id = ? AND idx >= ? AND ${CUT_SHORT_TARGETS} GROUP BY reason, warnings, error`;

/** failedStep in SQL: the step whose name and ': ' start the error, with more after them. */
const STEP_OF_ERROR = `CASE ${STEP_NAMES.map((step) => `WHEN substr(error, 1, ${step.length + 2}) = '${step}: ' AND length(error) > ${step.length + 2} THEN '${step}'`).join(' ')} ELSE '' END`;

/**
 * The bad_option failures whose error names a step (a jq program's, a grep pattern's), counted
 * by step: the job header's chip says "jq program failed" of them, and said "bad URL, option or
 * program" of a big job's until its rows were read. On migration 12's index to the failures of
 * that reason, then their errors from the table: few rows, and short ones (a failure has no result).
 */
export const stepGroups = (): string => `SELECT status, reason, warnings, '' AS error, ${STEP_OF_ERROR} AS step, count(*) AS n FROM targets INDEXED BY targets_by_outcome
  WHERE job_id = ? AND idx >= ? AND status = 'failed' AND reason = 'bad_option' GROUP BY warnings, step HAVING step <> ''`;

const toGroup = (g: GroupRecord): RowGroup => {
  const group: RowGroup = { status: g.status, error: g.error, reason: isReason(g.reason) ? g.reason : '', n: g.n };
  if (g.warnings) group.warnings = g.warnings.split(',');
  if (g.step) group.step = g.step;
  return group;
};

/** `all` with the groups read apart (cut short, a step's) taken out of theirs (the same status, reason and warnings) and kept apart. */
function withApart(all: GroupRecord[], cut: GroupRecord[]): RowGroup[] {
  for (const c of cut) {
    const from = all.find((g) => g.status === c.status && g.reason === c.reason && g.warnings === c.warnings);
    if (from) from.n -= c.n;
  }
  return all.filter((g) => g.n > 0).concat(cut).map(toGroup);
}

/** The jobs with a target left running: read on the index migration 11 made for them. */
export const RUNNING_TARGETS_JOBS = "SELECT DISTINCT job_id FROM targets WHERE status = 'running'";

/**
 * The rows a filter shows from idx `from` on, in idx order: the renderer's rowMatches (store/detail.ts)
 * in SQL, which job-rows-filter.test.ts holds to the same rows. On migration 13's index, which
 * holds every column it reads: the rows of 3,334 matches in the last 95,000 of a 100,000-row job
 * came after the whole scan, ~25 ms, where paging to them took seconds. A function, as cutShortGroups.
 */
export const matchingRows = (): string => `SELECT ${ROW_COLUMNS} FROM targets INDEXED BY targets_rows WHERE job_id = @job AND idx >= @from
  AND CASE @status
    WHEN 'all' THEN 1
    WHEN 'pending' THEN status = 'pending' OR (${CUT_SHORT_TARGETS})
    WHEN 'failed' THEN status = 'failed' AND NOT (${CUT_SHORT_TARGETS})
    ELSE status = @status END
  AND (@reason = '' OR reason = @reason)
  AND (@warning = '' OR (status = 'done' AND instr(',' || warnings || ',', ',' || @warning || ',') > 0))
  ORDER BY idx LIMIT @limit`;

/** The targets table: one prepared statement per query or transition. */
export function targetsTable(db: Database.Database) {
  const insert = db.prepare<[string, number, string, string | null]>(
    "INSERT INTO targets (job_id, idx, url, options, status) VALUES (?, ?, ?, ?, 'pending')",
  );
  const rowsFrom = db.prepare<[string, number, number], RowRecord>(`SELECT ${ROW_COLUMNS} FROM targets WHERE job_id = ? AND idx >= ? ORDER BY idx LIMIT ?`).raw();
  const one = db.prepare<[string, number], StatusRecord>(`SELECT ${ROW_COLUMNS}, result FROM targets WHERE job_id = ? AND idx = ?`).raw();
  const all = db.prepare<[string], StatusRecord>(`SELECT ${ROW_COLUMNS}, result FROM targets WHERE job_id = ? ORDER BY idx`).raw();
  const sizes = db.prepare<[string, number], { idx: number; bytes: number }>(
    `SELECT idx, bytes FROM targets WHERE job_id = ? AND idx > ? ORDER BY idx LIMIT ${PAGE_ROWS}`,
  );
  const page = db.prepare<[string, number, number], StatusRecord>(
    `SELECT ${ROW_COLUMNS}, result FROM targets WHERE job_id = ? AND idx > ? AND idx <= ? ORDER BY idx`,
  ).raw();
  const start = db.prepare<[number, string, number]>(
    "UPDATE targets SET status = 'running', started_at = ? WHERE job_id = ? AND idx = ? AND status = 'pending'",
  );
  const finish = db.prepare<[TargetState, string | null, string, string, number, string, number, string, string, number, string, number]>(
    `UPDATE targets SET status = ?, result = ?, error = ?, hint = ?, bytes = ?, title = ?, error_status = ?, reason = ?, warnings = ?, finished_at = ?
     WHERE job_id = ? AND idx = ? AND status = 'running'`,
  );
  const matching = db.prepare<[RowFilter & { job: string; from: number; limit: number }], RowRecord>(matchingRows()).raw();
  const outcomes = db.prepare<[string, number], GroupRecord>(OUTCOME_GROUPS);
  const cutShort = db.prepare<[string, number], GroupRecord>(cutShortGroups());
  const steps = db.prepare<[string, number], GroupRecord>(stepGroups());
  const del = db.prepare<[string]>('DELETE FROM targets WHERE job_id = ?');
  const keyOf = db.prepare<[string, number], { url: string; options: string | null }>('SELECT url, options FROM targets WHERE job_id = ? AND idx = ?');
  return {
    insert: (jobId: string, targets: readonly Target[]): void => {
      targets.forEach((t, i) => insert.run(jobId, i, t.url, t.options ? JSON.stringify(t.options) : null));
    },
    // LIMIT -1: no limit.
    rows: (jobId: string): TargetRow[] => rowsFrom.all(jobId, 0, -1).map(toRow),
    /** The rows from idx `from` on, at most `limit` of them. */
    page: (jobId: string, from: number, limit: number): TargetRow[] => rowsFrom.all(jobId, from, limit).map(toRow),
    /** The rows the filter shows from idx `from` on, at most `limit` of them. */
    matching: (jobId: string, filter: RowFilter, from: number, limit: number): TargetRow[] =>
      matching.all({ job: jobId, from, limit, status: filter.status, reason: filter.reason, warning: filter.warning }).map(toRow),
    /** The rows from idx `from` on, counted by outcome (RowGroup). */
    groups: (jobId: string, from: number): RowGroup[] => withApart(outcomes.all(jobId, from), [...cutShort.all(jobId, from), ...steps.all(jobId, from)]),
    get: (jobId: string, idx: number): TargetStatus | undefined => {
      const r = one.get(jobId, idx);
      return r && toStatus(r);
    },
    all: (jobId: string): TargetStatus[] => all.all(jobId).map(toStatus),
    /**
     * A page of rows per step, by primary key, holding no cursor between steps: better-sqlite3
     * refuses every other statement on the connection while a stmt.iterate() cursor is open,
     * and an export awaits its writer between rows while the runner goes on writing targets.
     * A target not finished when its page was read is read again at its turn, as it may have
     * finished meanwhile.
     */
    *iterate(jobId: string): IterableIterator<TargetStatus> {
      for (let after = -1; ; ) {
        const last = pageEnd(sizes.all(jobId, after));
        if (last === undefined) return;
        for (const r of page.all(jobId, after, last)) {
          const now = statusOf(r) === 'done' || statusOf(r) === 'failed' ? r : one.get(jobId, idxOf(r));
          if (!now) return;
          yield toStatus(now);
        }
        after = last;
      }
    },
    /** pending → running; false when the target was not pending (or is gone). */
    start: (jobId: string, idx: number, nowMs: number): boolean => start.run(nowMs, jobId, idx).changes === 1,
    /** running → done|failed; false when the target was not running (or is gone). */
    finish: (jobId: string, idx: number, o: TargetOutcome, nowMs: number): boolean =>
      finish.run(o.status, o.result ? JSON.stringify(o.result) : null, o.error, o.hint, o.bytes, o.title, o.errorStatus, o.reason ?? '', o.status === 'done' ? resultWarnings(o.result).join(',') : '', nowMs, jobId, idx)
        .changes === 1,
    deleteOfJob: (jobId: string): number => del.run(jobId).changes,
    /** What the search index keys a result on besides its text: its URL, and the mode that shaped it. */
    indexKeyOf: (jobId: string, idx: number): { url: string; mode: Mode | undefined } => {
      const r = keyOf.get(jobId, idx);
      return { url: r?.url ?? '', mode: modeOf(r?.options ?? null) };
    },
  };
}
export type TargetsTable = ReturnType<typeof targetsTable>;
