import type Database from 'better-sqlite3';
import type { Job, JobStatus } from '../../shared/types';
import { CUT_SHORT_TARGETS } from './migrations';

/**
 * A job's targets cut short, counted on the index migration 10 made for them; named, as once
 * migration 12's index by outcome was there SQLite took it (job_id, status) and read every
 * failed target's row for its error.
 */
export const CUT_SHORT_COUNT = `SELECT count(*) AS n FROM targets INDEXED BY targets_cut_short WHERE job_id = ? AND ${CUT_SHORT_TARGETS}`;

/** A jobs row as SQLite returns it. */
export interface JobRecord {
  id: string;
  caller: string;
  caller_class: string;
  idem_key: string;
  status: JobStatus;
  error: string;
  targets_total: number;
  targets_done: number;
  targets_failed: number;
  targets_empty: number;
  created_at: number;
  updated_at: number;
  lease_expires: number;
  label: string;
}

const toJob = (r: JobRecord): Job => ({
  id: r.id,
  caller: r.caller,
  callerClass: r.caller_class,
  status: r.status,
  error: r.error,
  targetsTotal: r.targets_total,
  targetsDone: r.targets_done,
  targetsFailed: r.targets_failed,
  ...(r.targets_empty ? { targetsEmpty: r.targets_empty } : {}),
  createdAt: r.created_at,
  updatedAt: r.updated_at,
  leaseExpires: r.lease_expires,
  label: r.label,
});

export interface NewJob {
  id: string;
  caller: string;
  callerClass: string;
  idemKey: string;
  targetsTotal: number;
  nowMs: number;
  leaseExpires: number;
  /** What the list is called (the dropped file's name, or the first URL's host). */
  label?: string;
}

/** The jobs table: one prepared statement per query or transition. */
export function jobsTable(db: Database.Database) {
  const byId = db.prepare<[string], JobRecord>('SELECT * FROM jobs WHERE id = ?');
  const byIdem = db.prepare<[string, string, number], JobRecord>(
    'SELECT * FROM jobs WHERE caller = ? AND idem_key = ? AND lease_expires > ? ORDER BY created_at DESC LIMIT 1',
  );
  const ofSize = db.prepare<[string, number, number, number, string], { n: number }>(
    'SELECT count(*) AS n FROM jobs WHERE caller = ? AND targets_total = ? AND created_at >= ? AND lease_expires > ? AND id != ?',
  );
  const liveOfCaller = db.prepare<[string], { n: number }>(
    "SELECT count(*) AS n FROM jobs WHERE caller = ? AND status IN ('queued','running')",
  );
  const liveTotal = db.prepare<[], { n: number }>("SELECT count(*) AS n FROM jobs WHERE status IN ('queued','running')");
  const total = db.prepare<[], { n: number }>('SELECT count(*) AS n FROM jobs');
  const list = db.prepare<[number], JobRecord>('SELECT * FROM jobs ORDER BY created_at DESC, rowid DESC LIMIT ?');
  const byPrefix = db.prepare<[string, number], JobRecord>('SELECT * FROM jobs WHERE instr(id, ?) = 1 ORDER BY created_at DESC, rowid DESC LIMIT ?');
  const insert = db.prepare<[string, string, string, string, number, number, number, number, string]>(
    `INSERT INTO jobs (id, caller, caller_class, idem_key, status, targets_total, created_at, updated_at, lease_expires, label)
     VALUES (?, ?, ?, ?, 'queued', ?, ?, ?, ?, ?)`,
  );
  const transition = db.prepare<[JobStatus, string, number, string, JobStatus], JobRecord>(
    'UPDATE jobs SET status = ?, error = ?, updated_at = ? WHERE id = ? AND status = ? RETURNING *',
  );
  const countTarget = db.prepare<[number, number, number, number, string], JobRecord>(
    `UPDATE jobs SET targets_done = targets_done + 1, targets_failed = targets_failed + ?, targets_empty = targets_empty + ?, updated_at = ?, lease_expires = ?
     WHERE id = ? RETURNING *`,
  );
  const lease = db.prepare<[number, string]>('UPDATE jobs SET lease_expires = ? WHERE id = ?');
  const cutShort = db.prepare<[string], { n: number }>(CUT_SHORT_COUNT);
  const del = db.prepare<[string]>('DELETE FROM jobs WHERE id = ?');
  const expired = db.prepare<[number], { id: string }>(
    "SELECT id FROM jobs WHERE lease_expires <= ? AND status NOT IN ('queued','running')",
  );
  return {
    /**
     * A row as the app and the CLI read it, with how many of its failed targets were cut short.
     * Only a job that ended with failures can hold one (a cancel's or a crash's in-flight
     * target), so a running job's write per target never pays for the count.
     */
    toJob: (r: JobRecord): Job => {
      const job = toJob(r);
      if (r.targets_failed === 0 || r.status === 'queued' || r.status === 'running') return job;
      const n = cutShort.get(r.id)?.n ?? 0;
      return n ? { ...job, targetsCutShort: n } : job;
    },
    get: (id: string): JobRecord | undefined => byId.get(id),
    /** The job for (caller, idem_key) whose lease has not lapsed, whatever its status. */
    byIdem: (caller: string, idemKey: string, nowMs: number): JobRecord | undefined => byIdem.get(caller, idemKey, nowMs),
    ofSize: (caller: string, targetsTotal: number, sinceMs: number, nowMs: number, except: string): number =>
      ofSize.get(caller, targetsTotal, sinceMs, nowMs, except)?.n ?? 0,
    liveOfCaller: (caller: string): number => liveOfCaller.get(caller)?.n ?? 0,
    liveTotal: (): number => liveTotal.get()?.n ?? 0,
    total: (): number => total.get()?.n ?? 0,
    // SQLite reads a negative LIMIT as none.
    list: (limit: number): JobRecord[] => list.all(Number.isFinite(limit) ? limit : -1),
    byPrefix: (prefix: string, limit: number): JobRecord[] => byPrefix.all(prefix, limit),
    insert: (j: NewJob): void => {
      insert.run(j.id, j.caller, j.callerClass, j.idemKey, j.targetsTotal, j.nowMs, j.nowMs, j.leaseExpires, j.label ?? '');
    },
    /** Moves a job from one status to another; undefined when it was not in `from`. */
    transition: (id: string, from: JobStatus, to: JobStatus, error: string, nowMs: number): JobRecord | undefined =>
      transition.get(to, error, nowMs, id, from),
    /** Counts a target's outcome: failed, or ok and `empty` (0 B). */
    countTarget: (id: string, outcome: 'failed' | 'done' | 'empty', nowMs: number, leaseExpires: number): JobRecord | undefined =>
      countTarget.get(outcome === 'failed' ? 1 : 0, outcome === 'empty' ? 1 : 0, nowMs, leaseExpires, id),
    setLease: (id: string, leaseExpires: number): boolean => lease.run(leaseExpires, id).changes === 1,
    delete: (id: string): boolean => del.run(id).changes === 1,
    expired: (nowMs: number): string[] => expired.all(nowMs).map((r) => r.id),
  };
}
export type JobsTable = ReturnType<typeof jobsTable>;
