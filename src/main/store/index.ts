import { statSync } from 'node:fs';
import Database from 'better-sqlite3';
import { SiftError } from '../../shared/errors';
import { isReason } from '../../shared/reasons';
import { REST_AGAIN } from '../../shared/hints';
import type { Job, RowFilter, RowGroup, StoreStop, Target, TargetRow, TargetStatus } from '../../shared/types';
import { jobsTable, type NewJob } from './jobs';
import { EMPTY_TARGETS, migrate, restoreIndexes, SCHEMA_VERSION } from './migrations';
import { searchTable, tuneSearchIndex, type SearchRow } from './search';
import type { Needle } from '../search/needle';
import { RUNNING_TARGETS_JOBS, targetsTable, type TargetOutcome } from './targets';
import { walSync } from './wal-sync';
import { checkRoomForSnapshot, isDiskFull } from './snapshot';
import { diskReserve } from './reserve';
import { answeringOwner } from '../control-owner';

export type { NewJob } from './jobs';
export type { TargetOutcome } from './targets';
export type { SearchRow } from './search';
export { SCHEMA_VERSION, migrate } from './migrations';
export { NoRoomForSnapshot, SNAPSHOT_HEADROOM_BYTES, isDiskFull } from './snapshot';

/** The shortest start of a job ID that names it (IDs are 16 hex digits). */
export const MIN_ID_PREFIX = 4;

/** The hint stored on a target that was in flight when Sift stopped. */
const RESTART_HINT = `Sift stopped while this target was being fetched; run ${REST_AGAIN.app}.`;

export interface Store {
  readonly path: string;
  getJob(id: string): Job | undefined;
  /** Newest first, at most `limit` (default 1,000, what the app lists); Infinity: every job. */
  listJobs(limit?: number): Job[];
  /**
   * The jobs a person's ID names: the one with that whole ID, or else those whose ID starts
   * with it (at least MIN_ID_PREFIX characters, as git takes a commit), newest first, at most `limit`.
   */
  jobsNamed(idOrPrefix: string, limit?: number): Job[];
  /** The job for (caller, idemKey) whose lease has not lapsed at nowMs, whatever its status. */
  jobByIdem(caller: string, idemKey: string, nowMs: number): Job | undefined;
  /** Jobs of one caller with `targetsTotal` targets, made at or after sinceMs and kept at nowMs, other than `except`: counted. */
  countJobsOfSize(caller: string, targetsTotal: number, sinceMs: number, nowMs: number, except: string): number;
  /** queued + running jobs of one caller. */
  liveJobsOfCaller(caller: string): number;
  /** queued + running jobs in total. */
  liveJobsTotal(): number;
  /** Every job, whatever its status. */
  countJobs(): number;
  /** Inserts the job `queued` with its targets `pending`. */
  insertJob(job: NewJob, targets: readonly Target[]): Job;
  /** from → to, only when the job is in `from`; undefined otherwise. */
  transition(id: string, from: Job['status'], to: Job['status'], error: string, nowMs: number): Job | undefined;
  /** pending → running; false when the target was not pending. */
  startTarget(jobId: string, idx: number, nowMs: number): boolean;
  /**
   * running → done|failed, counted on the job and bumping its lease, in one transaction.
   * Undefined when the target was not running (the job was deleted meanwhile).
   */
  finishTarget(jobId: string, idx: number, outcome: TargetOutcome, nowMs: number, leaseExpires: number): Job | undefined;
  setLease(id: string, leaseExpires: number): boolean;
  /** A job's targets without their content, in idx order. */
  targetRows(jobId: string): TargetRow[];
  /** At most `limit` of them, from idx `from` on: a page of a job too big to read at once. */
  targetRowsPage(jobId: string, from: number, limit: number): TargetRow[];
  /**
   * At most `limit` of the rows the table's filter shows, from idx `from` on: a filter's matches
   * at once, without reading the pages before them.
   */
  targetRowsMatching(jobId: string, filter: RowFilter, from: number, limit: number): TargetRow[];
  /** A job's rows from idx `from` on, counted by what the table's filter and chips read (RowGroup). */
  targetGroups(jobId: string, from: number): RowGroup[];
  /** One target with its result. */
  targetResult(jobId: string, idx: number): TargetStatus | undefined;
  /** One target's URL ('' when there is no such target), without reading its result. */
  targetUrl(jobId: string, idx: number): string;
  /** Every target with its result, in idx order. */
  targetStatuses(jobId: string): TargetStatus[];
  /** Every target with its result, one row read per step (for streaming export). */
  iterateTargets(jobId: string): IterableIterator<TargetStatus>;
  /**
   * Full-text search over stored results, best first (FTS5 MATCH syntax, see
   * src/main/search/query.ts); `jobId` scopes it to one job; with `needles`, only the results
   * whose title, URL or stored result (or the column a needle names) holds one of each group
   * (ASCII, lower case) in any case.
   */
  searchResults(match: string, jobId: string | undefined, limit: number, needles?: readonly (readonly Needle[])[]): SearchRow[];
  deleteJob(id: string): boolean;
  /** Deletes terminal jobs whose lease lapsed by nowMs, with their targets; returns their ids. */
  sweepExpired(nowMs: number): string[];
  /**
   * At start-up, before a runner exists: queued/running jobs → failed with `reason`, a target
   * left running → failed with `reason`; pending targets stay pending, finished ones untouched.
   * Returns the number of jobs failed.
   */
  markInFlightFailed(reason: string, nowMs: number): number;
  /** Runs fn in one BEGIN IMMEDIATE transaction (read-then-write work). */
  immediate<T>(fn: () => T): T;
  /**
   * A consistent copy of the database at dest, for a process that cannot open it while this
   * one owns it (control.ts). SQLite's backup, a few pages a step, between which this
   * process goes on; its own writes meanwhile are carried into the copy. Throws
   * NoRoomForSnapshot, writing nothing, when the copy would leave its disk too full for them.
   */
  snapshot(dest: string): Promise<void>;
  close(): void;
}

export interface OpenStoreOptions {
  /** better-sqlite3's native module (the app's is built for Electron's ABI). */
  nativeBinding?: string;
  /**
   * false: store results without indexing them (bench/search.ts measures the index's cost
   * against this). The app and the CLI always index.
   */
  searchIndex?: boolean;
  /**
   * false: keep no room for a job's status write (reserve.ts). For opens that write no job's
   * status: a reader's snapshot copy and the probe that asks whether the owner is gone, each
   * of which wrote 64 KB and removed it again.
   */
  diskReserve?: boolean;
}

const sqliteCode = (err: unknown): string => {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : '';
};
const isBusy = (err: unknown): boolean => sqliteCode(err).startsWith('SQLITE_BUSY');

/** The database is locked: by a Sift that answers requests (its mark, control-owner.ts), or by something else. */
export function lockedError(path: string): SiftError {
  // A batch that runs holds the database for its whole life: waiting is the plain advice.
  if (answeringOwner(path)) {
    return new SiftError(
      'db_locked',
      409,
      `The database ${path} is in use by another Sift.`,
      'Wait for the other sift command to finish, or close the other Sift window (or pass --db with another path), then try again.',
    );
  }
  // SQLite says only that the file is locked: by sqlite3 left open, a backup tool, or an
  // older Sift that answers no requests. "another Sift" sent people looking for a window
  // that was not there.
  return new SiftError(
    'db_locked',
    409,
    `The database ${path} is locked by another process: a program that has it open (sqlite3, a backup or sync tool), or an older Sift.`,
    'Close that program or wait for that command to finish (or pass --db with another path), then try again.',
  );
}

/**
 * SQLite's own words for a database Sift cannot use ("file is not a database", "disk I/O
 * error") named neither the file nor what to do; this says both. Anything else is left as it is.
 */
function openError(err: unknown, path: string): unknown {
  if (err instanceof SiftError) return err;
  const code = sqliteCode(err);
  if (isBusy(err)) return lockedError(path);
  if (code === 'SQLITE_NOTADB') {
    return new SiftError('db_not_sift', 400, `${path} is not a Sift database: it is not an SQLite file at all.`, 'Pass --db with the path of a Sift database, or a new path to make one; Sift changed nothing in that file.');
  }
  if (code === 'SQLITE_FULL') {
    return new SiftError(
      'disk_full',
      507,
      `The disk that holds the database ${path} is full: Sift cannot write to it.`,
      'Free some space on that disk (or pass --db with a path on another disk), then try again; what was stored before is kept.',
    );
  }
  if (code.startsWith('SQLITE_CORRUPT')) {
    return new SiftError(
      'db_damaged',
      500,
      `The database ${path} is damaged (${code}).`,
      'Move it aside and start a new one (or pass --db with another path); `sqlite3 FILE .recover` can often save the rows it still holds.',
    );
  }
  if (code.startsWith('SQLITE_CANTOPEN')) {
    return new SiftError('db_not_writable', 400, `cannot open the database ${path} (${code}): it is a folder, or Sift may not write there.`, 'Give the path of a file in a folder you can write to (Sift keeps a journal file beside it).');
  }
  if (code.startsWith('SQLITE_READONLY') || code.startsWith('SQLITE_IOERR') || code === 'SQLITE_PERM' || code === 'SQLITE_AUTH') {
    return new SiftError(
      'db_not_writable',
      403,
      `cannot write the database ${path} (${code}).`,
      'Sift writes to its database and to a journal file beside it, even to read: make the file and its folder writable, or pass --db with another path.',
    );
  }
  return err;
}

/**
 * A SQLite error met while using the database (a damaged page read by a query, a disk that
 * filled up during a write) as the same clear SiftError the open gives: "database disk image
 * is malformed" reached the user bare, naming neither the file nor what to do.
 */
export function storeError(err: unknown, path: string): unknown {
  return sqliteCode(err).startsWith('SQLITE_') ? openError(err, path) : err;
}

/** openError's kinds of a database Sift cannot go on with, as a stopped job's error says them. */
const STOPPED_BY: Partial<Record<string, StoreStop>> = {
  disk_full: 'disk full',
  db_damaged: 'database damaged',
  db_not_sift: 'database damaged',
  db_not_writable: 'database could not be written',
};

/**
 * The error stored on a job the store stopped (STORE_STOPS): the cause in a few words, as
 * openError reads SQLite's code; anything else stays "internal error". Without the path,
 * which the job list and an export's listing would carry.
 */
export function stoppedJobError(err: unknown): StoreStop | 'internal error' {
  const read = openError(err, '');
  return (read instanceof SiftError && STOPPED_BY[read.code]) || 'internal error';
}

/**
 * Why the schema of a database that is not new shows it is not Sift's, or '' when it is:
 * every Sift database past its first migration holds jobs and targets and a user_version
 * (steps run in one transaction each, so no Sift database has tables at version 0).
 */
function foreignSchema(db: Database.Database): string {
  const tables = db.prepare<[], { name: string }>("SELECT name FROM sqlite_master WHERE type IN ('table', 'view')").all().map((r) => r.name);
  if (tables.length === 0) return '';
  const version = db.pragma('user_version', { simple: true }) as number;
  if (version === 0 || !tables.includes('jobs') || !tables.includes('targets')) return `its tables are ${tables.slice(0, 5).join(', ')}${tables.length > 5 ? ', …' : ''}`;
  return '';
}

/**
 * A --db that names a device, a pipe or a socket: SQLite opened /dev/null and failed at its
 * first fsync, said as "make the file writable", which it is; a pipe would hang the open.
 */
function refuseSpecialFile(path: string): void {
  const s = statSync(path, { throwIfNoEntry: false });
  if (s && !s.isFile() && !s.isDirectory()) {
    throw new SiftError(
      'db_not_sift',
      400,
      `${path} is not a file (a device, a pipe or a socket): Sift keeps its database in a file.`,
      'Pass --db with the path of a Sift database, or a new path to make one; Sift changed nothing there.',
    );
  }
}

/**
 * Opens (creating if needed) the database at `path`, owned by this process until close().
 *
 * Ownership is SQLite's own file lock: locking_mode=EXCLUSIVE plus an empty exclusive
 * transaction takes the lock before anything is read or written, and keeps it. A second
 * process fails right there with `db_locked` and has changed nothing; it never reaches
 * markInFlightFailed. The OS drops the lock when the owner dies, so a kill -9 leaves no
 * stale lock to clean up (a pid file would).
 *
 * Another program's SQLite database (a --db typed wrong) is refused before anything is
 * written to it, its journal mode included.
 */
export function openStore(path: string, opts: OpenStoreOptions = {}): Store {
  refuseSpecialFile(path);
  let db: Database.Database;
  try {
    // timeout 0: a live owner holds the lock for its whole life, so waiting cannot help; fail fast.
    db = new Database(path, { timeout: 0, ...(opts.nativeBinding ? { nativeBinding: opts.nativeBinding } : {}) });
  } catch (err) {
    throw openError(err, path);
  }
  try {
    db.pragma('locking_mode = EXCLUSIVE');
    db.exec('BEGIN EXCLUSIVE');
    const foreign = foreignSchema(db);
    db.exec('COMMIT');
    if (foreign) {
      throw new SiftError(
        'db_not_sift',
        400,
        `${path} is not a Sift database: it is another program's SQLite database (${foreign}).`,
        'Pass --db with the path of a Sift database, or a new path to make one; Sift changed nothing in that file.',
      );
    }
    db.pragma('journal_mode = WAL');
    db.exec('BEGIN EXCLUSIVE; COMMIT');
  } catch (err) {
    db.close();
    throw openError(err, path);
  }
  try {
    // FULL for the rare writes (a job's submission, its status); each target's commit is made
    // with NORMAL and put on the disk off the main thread (storeOver, wal-sync.ts).
    db.pragma('synchronous = FULL');
    // We own the file, so only our own nested use could be busy; 5 s is better-sqlite3's default.
    db.pragma('busy_timeout = 5000');
    const version = db.pragma('user_version', { simple: true }) as number;
    if (version > SCHEMA_VERSION) {
      throw new SiftError(
        'db_too_new',
        409,
        `The database ${path} was written by a newer Sift (schema ${version}, this one reads ${SCHEMA_VERSION}).`,
        'Update Sift, or pass --db with another path.',
      );
    }
    migrate(db);
    restoreIndexes(db);
    tuneSearchIndex(db);
  } catch (err) {
    db.close();
    throw openError(err, path);
  }
  return storeOver(db, path, opts.searchIndex !== false, opts.diskReserve !== false);
}

/**
 * Opens the database as its owner. Owning it means the previous owner is gone, so whatever
 * it left queued or running failed with reason "restart" (rule 8: nothing is resumed).
 * Jobs whose lease lapsed are deleted then too (rule 11): only a runner swept them, so
 * `sift jobs`, `status`, `search` and `export` went on showing a job kept 7 days for weeks
 * after, until the next `sift batch` or start of the app removed it.
 */
export function openOwnedStore(dbPath: string, log: { info(obj: object, msg: string): void }, opts: { nativeBinding?: string } = {}): Store {
  const store = openStore(dbPath, opts);
  try {
    const now = Date.now();
    const n = store.markInFlightFailed('restart', now);
    if (n) log.info({ jobs: n }, 'marked jobs interrupted by a restart as failed');
    const swept = store.sweepExpired(now).length;
    if (swept) log.info({ swept }, 'expired jobs deleted');
  } catch (err) {
    // These are the first writes after the open, so a damaged page or a full disk that the
    // open's own small transactions did not touch shows here.
    try {
      store.close();
    } catch {
      // Closing checkpoints the WAL, which fails on the same disk; the error to report is the first.
    }
    throw storeError(err, dbPath);
  }
  return store;
}

function storeOver(db: Database.Database, path: string, indexing: boolean, reserving: boolean): Store {
  const jobs = jobsTable(db);
  const toJob = jobs.toJob;
  const targets = targetsTable(db);
  const search = searchTable(db);
  const failRunningTargets = db.prepare<[string, string, string, number]>(
    "UPDATE targets SET status = 'failed', error = ?, hint = ?, reason = ?, finished_at = ? WHERE status = 'running'",
  );
  // Recounted from the targets rather than incremented: the truth after a crash is the rows.
  const failLiveJobs = db.prepare<[string, number]>(
    `UPDATE jobs SET status = 'failed', error = ?, updated_at = ?,
       targets_done = (SELECT count(*) FROM targets t WHERE t.job_id = jobs.id AND t.status IN ('done','failed')),
       targets_failed = (SELECT count(*) FROM targets t WHERE t.job_id = jobs.id AND t.status = 'failed'),
       targets_empty = (SELECT count(*) FROM targets t WHERE t.job_id = jobs.id AND ${EMPTY_TARGETS})
     WHERE status IN ('queued','running')`,
  );
  // A process can die after a job's last target is written and before the job's terminal
  // status is: every target has its outcome, so the job gets the status rule 7 gives it,
  // not "restart" with nothing left to run again.
  const completeWrittenJobs = db.prepare<[number]>(
    `UPDATE jobs SET
       targets_done = (SELECT count(*) FROM targets t WHERE t.job_id = jobs.id),
       targets_failed = (SELECT count(*) FROM targets t WHERE t.job_id = jobs.id AND t.status = 'failed'),
       targets_empty = (SELECT count(*) FROM targets t WHERE t.job_id = jobs.id AND ${EMPTY_TARGETS}),
       status = CASE (SELECT count(*) FROM targets t WHERE t.job_id = jobs.id AND t.status = 'failed')
                  WHEN 0 THEN 'done'
                  WHEN targets_total THEN 'failed'
                  ELSE 'partial' END,
       error = '', updated_at = ?
     WHERE status = 'running' AND targets_total > 0
       AND NOT EXISTS (SELECT 1 FROM targets t WHERE t.job_id = jobs.id AND t.status IN ('pending','running'))`,
  );
  const orphanedJobs = db.prepare<[], { job_id: string }>(RUNNING_TARGETS_JOBS);
  const recount = db.prepare<[string]>(
    `UPDATE jobs SET
       targets_done = (SELECT count(*) FROM targets t WHERE t.job_id = jobs.id AND t.status IN ('done','failed')),
       targets_failed = (SELECT count(*) FROM targets t WHERE t.job_id = jobs.id AND t.status = 'failed'),
       targets_empty = (SELECT count(*) FROM targets t WHERE t.job_id = jobs.id AND ${EMPTY_TARGETS})
     WHERE id = ?`,
  );
  const immediate = <T>(fn: () => T): T => db.transaction(fn).immediate();
  // Prepared once: db.pragma() prepares its statement at every call, twice per target here.
  const syncNormal = db.prepare('PRAGMA synchronous = NORMAL');
  const syncFull = db.prepare('PRAGMA synchronous = FULL');
  /**
   * Runs a write whose loss in a power cut costs nothing without an fsync of its own: a
   * target marked running that never reaches the disk is still pending after a crash, and
   * pending targets are what "run the rest again" takes. The next sync of the WAL (after the
   * target's outcome) covers this one too.
   */
  const relaxed = <T>(fn: () => T): T => {
    // SQLite refuses to change the safety level inside a transaction; the enclosing
    // transaction's commit decides then.
    if (db.inTransaction) return fn();
    syncNormal.run();
    try {
      return fn();
    } finally {
      syncFull.run();
    }
  };
  // A target's outcome: committed to the WAL before the next target starts, and synced to the
  // disk in the background (group commit, wal-sync.ts); with FULL where that cannot be done
  // or an fsync failed (SQLite then reports the disk's error on the commit itself).
  const wal = path === ':memory:' || path === '' ? undefined : walSync(`${path}-wal`);
  const reserve = wal && reserving ? diskReserve(path) : undefined;
  const committed = <T>(fn: () => T): T => {
    if (!wal?.healthy || db.inTransaction) return fn();
    const out = relaxed(fn);
    wal.wrote();
    return out;
  };
  // One transaction function for the write every target makes (db.transaction builds four
  // wrappers per call).
  const finishTx = db.transaction((jobId: string, idx: number, outcome: TargetOutcome, nowMs: number, leaseExpires: number): Job | undefined => {
    if (!targets.finish(jobId, idx, outcome, nowMs)) return undefined;
    // In the same transaction as the result: the index never disagrees with the store.
    if (indexing && outcome.status === 'done') {
      const { url, mode } = targets.indexKeyOf(jobId, idx);
      search.index(jobId, idx, url, outcome.title, outcome.result, mode);
    }
    const r = jobs.countTarget(jobId, outcome.status === 'failed' ? 'failed' : outcome.bytes === 0 ? 'empty' : 'done', nowMs, leaseExpires);
    return r && toJob(r);
  });
  let closed = false;

  return {
    path,
    getJob: (id) => {
      const r = jobs.get(id);
      return r && toJob(r);
    },
    listJobs: (limit = 1000) => jobs.list(limit).map(toJob),
    jobsNamed: (given, limit = 5) => {
      const exact = jobs.get(given);
      if (exact) return [toJob(exact)];
      return given.length >= MIN_ID_PREFIX ? jobs.byPrefix(given, limit).map(toJob) : [];
    },
    jobByIdem: (caller, idemKey, nowMs) => {
      const r = jobs.byIdem(caller, idemKey, nowMs);
      return r && toJob(r);
    },
    countJobsOfSize: (caller, targetsTotal, sinceMs, nowMs, except) => jobs.ofSize(caller, targetsTotal, sinceMs, nowMs, except),
    liveJobsOfCaller: (caller) => jobs.liveOfCaller(caller),
    liveJobsTotal: () => jobs.liveTotal(),
    countJobs: () => jobs.total(),
    insertJob: (job, ts) =>
      immediate(() => {
        jobs.insert(job);
        targets.insert(job.id, ts);
        return toJob(jobs.get(job.id)!);
      }),
    transition: (id, from, to, error, nowMs) => {
      // In a transaction of its own: UPDATE … RETURNING run bare hands back its row at the first
      // step and commits at the statement's reset, whose error better-sqlite3 drops. On a full
      // disk a job's "failed (disk full)" was returned, never stored, and read "restart" after.
      const write = () => immediate(() => jobs.transition(id, from, to, error, nowMs));
      let r: ReturnType<typeof write>;
      try {
        r = write();
      } catch (err) {
        // The WAL could not grow (a full disk, a file-size limit), most often as a job is
        // stopped for that very reason: the job's "failed (disk full)" must still be stored,
        // not read "restart" at the next start. On a full disk the room kept for it is given
        // back first (reserve.ts). Otherwise a checkpoint copies the WAL into the database and
        // has the next write start the WAL from its beginning, in room it already has.
        if (!wal || db.inTransaction) throw err;
        if (isDiskFull(err) && reserve?.release()) {
          try {
            const stored = write();
            return stored && toJob(stored);
          } catch {
            // Not enough even so: the checkpoint below is the last way.
          }
        }
        try {
          db.pragma('wal_checkpoint(RESTART)');
        } catch {
          throw err;
        }
        r = write();
      }
      return r && toJob(r);
    },
    startTarget: (jobId, idx, nowMs) => relaxed(() => targets.start(jobId, idx, nowMs)),
    finishTarget: (jobId, idx, outcome, nowMs, leaseExpires) => committed(() => finishTx.immediate(jobId, idx, outcome, nowMs, leaseExpires)),
    setLease: (id, leaseExpires) => jobs.setLease(id, leaseExpires),
    targetRows: (jobId) => targets.rows(jobId),
    targetRowsPage: (jobId, from, limit) => targets.page(jobId, from, limit),
    targetRowsMatching: (jobId, filter, from, limit) => targets.matching(jobId, filter, from, limit),
    targetGroups: (jobId, from) => targets.groups(jobId, from),
    targetResult: (jobId, idx) => targets.get(jobId, idx),
    targetUrl: (jobId, idx) => targets.indexKeyOf(jobId, idx).url,
    targetStatuses: (jobId) => targets.all(jobId),
    iterateTargets: (jobId) => targets.iterate(jobId),
    searchResults: (match, jobId, limit, needles) => search.query(match, jobId, limit, needles),
    deleteJob: (id) =>
      immediate(() => {
        search.deleteOfJob(id);
        targets.deleteOfJob(id);
        return jobs.delete(id);
      }),
    sweepExpired: (nowMs) =>
      immediate(() => {
        const ids = jobs.expired(nowMs);
        for (const id of ids) {
          search.deleteOfJob(id);
          targets.deleteOfJob(id);
          jobs.delete(id);
        }
        return ids;
      }),
    markInFlightFailed: (reason, nowMs) =>
      immediate(() => {
        completeWrittenJobs.run(nowMs);
        // A target left running by a cancelled (terminal) job is orphaned too: nothing runs
        // before the runner exists, so every running row is one the dead process left.
        const orphaned = orphanedJobs.all().map((r) => r.job_id);
        failRunningTargets.run(reason, RESTART_HINT, isReason(reason) ? reason : 'restart', nowMs);
        for (const id of orphaned) recount.run(id);
        return failLiveJobs.run(reason, nowMs).changes;
      }),
    immediate,
    snapshot: async (dest) => {
      checkRoomForSnapshot(db, dest);
      await db.backup(dest);
    },
    close: () => {
      if (closed) return;
      closed = true;
      wal?.close();
      db.close();
      reserve?.close();
    },
  };
}
