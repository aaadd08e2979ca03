import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { MIN_ID_PREFIX, openOwnedStore, openStore, storeError, type Store } from '../main/store';
import { answeringOwner, openMarked, removeSnapshot, requestSnapshot, watchControl } from '../main/control';
import type { Job } from '../shared/types';
import { SiftError } from '../shared/errors';
import { createLog, type Log } from '../main/log';
import { dataDir, defaultDbPath, defaultLogPath } from '../main/paths';
import { EXIT, userPath, type CliIO } from './io';
import { reportError } from './report';
import { logNotWritable } from './log-file';
import { sayIfStillWaiting } from './waiting';
import { formatBytes } from '../shared/bytes';

export { CLI_CALLER, cliSettings } from './settings';

export interface CliFlags {
  db?: string;
  log?: string;
  allowPrivate?: boolean;
  /** --allow-host: added to the saved allow list for this run. */
  allowHosts?: string[];
}

/** The data folder of the --db in use: the app's own folder, or the database's. */
function dirFor(flags: CliFlags, io: CliIO): string {
  return flags.db ? path.dirname(userPath(io, flags.db)) : dataDir(io.env);
}

/**
 * What to do when the database's folder takes no log. For a database that is there (on a
 * read-only disk: a backup, a mounted snapshot) "pass --db with a path in a folder you can
 * write to" sent people to a path with no database in it: the way to read it is a copy.
 */
function logBesideHint(flags: CliFlags, io: CliIO): string {
  const db = cliDbPath(flags, io);
  if (!existsSync(db)) return 'Sift keeps its log beside the database: pass --db with a path in a folder you can write to.';
  return `Sift writes its log and a journal beside the database, even to read it: copy ${path.basename(db)} (with ${path.basename(db)}-wal, if there is one) to a folder you can write to, and pass --db with the copy.`;
}

/** The log a command writes: sift.log in the data folder of the --db in use. */
export const cliLogPath = (flags: CliFlags, io: CliIO): string => defaultLogPath(dirFor(flags, io));

export function cliLog(flags: CliFlags, io: CliIO): Log {
  const files = [cliLogPath(flags, io)];
  if (flags.log) files.push(userPath(io, flags.log));
  // Each file alone first, so the error names the one that cannot be written.
  for (const file of files) {
    const problem = logNotWritable(file);
    if (problem) throw new SiftError('log_not_writable', 400, problem, file !== files[0] ? 'Pass --log with a path you can write to.' : logBesideHint(flags, io));
  }
  return createLog(files);
}

/** The database a command works on: --db, or the app's own. */
export const cliDbPath = (flags: CliFlags, io: CliIO): string => (flags.db ? userPath(io, flags.db) : defaultDbPath(dataDir(io.env)));

/** What a command that reads says in a data folder where nothing has been stored. */
export const NOTHING_STORED = 'nothing has been stored yet: sift batch FILE fetches a list and stores its results';

/**
 * Whether the app's database is not there yet (no --db given). A command that reads would make
 * it, sift.db and sift.log in an empty data folder, and then say that it holds no such job
 * ("it may have expired, or been deleted in the app").
 */
export const nothingStoredYet = (flags: CliFlags, io: CliIO): boolean => !flags.db && !existsSync(cliDbPath(flags, io));

/**
 * The database opened as its owner, for commands that only read or export. A --db that names
 * no file is an error, before anything is made: `sift search --db typo.db` would otherwise
 * make an empty database (and its log and folders) and find nothing in it.
 */
export function openCliStore(flags: CliFlags, io: CliIO): Store {
  return openCliOwned(flags, io).store;
}

/** The database --db names, which a command that reads needs to be there: it would make an empty one (and its folders) and find nothing. */
function existingDbPath(flags: CliFlags, io: CliIO): string {
  const db = cliDbPath(flags, io);
  if (flags.db && !existsSync(db)) {
    throw new SiftError('no_database', 400, `no database at ${db}`, 'Check the --db path: sift batch --db PATH makes one, and without --db Sift uses the app’s.');
  }
  return db;
}

function openCliOwned(flags: CliFlags, io: CliIO): { store: Store; log: Log } {
  const db = existingDbPath(flags, io);
  const log = cliLog(flags, io);
  return { store: openOwnedStore(db, log), log };
}

/**
 * Opened as its owner, answering other commands' requests for a copy as a batch does: a
 * `sift export` of 4,000 results holds the database for seconds, and a `sift status` or a
 * second export run meanwhile was told "locked by another process" and to wait. A cancel
 * is answered "not running": nothing runs here.
 */
function openCliAnswering(flags: CliFlags, io: CliIO): Store {
  // Checked before the mark, which makes the database's folder: a --db typo left no-such-folder/ behind.
  const { opened, unmark } = openMarked(existingDbPath(flags, io), () => openCliOwned(flags, io));
  const { store, log } = opened;
  const stopControl = watchControl(store.path, { cancel: () => false, snapshot: (dest) => store.snapshot(dest) }, log);
  return {
    ...store,
    close: () => {
      stopControl();
      unmark();
      store.close();
    },
  };
}

/**
 * The database for a command that only reads (jobs, status, search, export): opened as its
 * owner when no other Sift has it, else a snapshot the owner writes on request. With the app
 * open, every one of these commands stopped at "in use by another Sift", so a script could
 * not even list the jobs the app was running. The copy is read as it is (the owner's running
 * jobs are running) and removed at close.
 */
export async function openCliReader(flags: CliFlags, io: CliIO, command: string, signal?: AbortSignal): Promise<Store> {
  try {
    return openCliAnswering(flags, io);
  } catch (err) {
    if (!(err instanceof SiftError && err.code === 'db_locked')) throw err;
    const dbPath = cliDbPath(flags, io);
    // Nothing holding it answers requests (control-owner.ts): asking waited 5 s for no answer.
    if (!answeringOwner(dbPath)) throw err;
    // A big database's copy takes a while (up to 5 min), and sift said nothing meanwhile: a
    // wait looked like a hang.
    const stopWaiting = sayIfStillWaiting(io, () => `sift ${command}: waiting for the Sift that has the database open to copy it${sizeOf(dbPath)} for this command to read; a big database takes a while (Ctrl-C stops the wait)`);
    const copy = await requestSnapshot(dbPath, { ownerGone: () => lockFree(dbPath), signal }).finally(stopWaiting);
    // No answer: the owner was a Sift that answers no requests, or it closed or died meanwhile (a
    // `sift batch` that ended while this asked). Once more as the owner: the database is this
    // command's now, or the same clear "in use" again.
    if (!copy) return openCliAnswering(flags, io);
    let store: Store;
    try {
      store = openStore(copy, { diskReserve: false });
    } catch (openErr) {
      removeSnapshot(copy);
      throw openErr;
    }
    return {
      ...store,
      path: dbPath,
      close: () => {
        store.close();
        removeSnapshot(copy);
      },
    };
  }
}

/** " (1.2 GB)": the size of the database and its WAL, which the copy reads; '' when it cannot be read. */
function sizeOf(dbPath: string): string {
  let bytes = 0;
  for (const f of [dbPath, `${dbPath}-wal`]) {
    try {
      bytes += statSync(f).size;
    } catch {}
  }
  return bytes ? ` (${formatBytes(bytes)})` : '';
}

/**
 * Whether no process owns the database now: opened and closed at once, or refused for
 * something other than its lock (which the open as owner then reports).
 */
function lockFree(dbPath: string): boolean {
  try {
    openStore(dbPath, { diskReserve: false }).close();
    return true;
  } catch (err) {
    return !(err instanceof SiftError && err.code === 'db_locked');
  }
}

/**
 * The job a command names by its ID or the start of it, or what to tell the user: that there
 * is no such job, or that several jobs' IDs start so.
 */
export function namedJob(store: Store, given: string): { job: Job } | { problem: string } {
  // IDs are lower-case hex: one copied from a document that capitalised it, or with the
  // spaces of a selection around it, names the same job (it was "no job 3F2A9C…").
  const id = given.trim();
  const found = store.jobsNamed(/^[0-9a-f]+$/i.test(id) ? id.toLowerCase() : given, 6);
  if (found.length === 1) return { job: found[0] as Job };
  // A start too short to name a job is said so: "it may have expired" sent people looking
  // for a job that was there.
  if (found.length === 0 && given.length < MIN_ID_PREFIX) return { problem: `no job ${given}: give the job's ID, or at least its first ${MIN_ID_PREFIX} characters; see sift jobs` };
  if (found.length === 0) return { problem: `no job ${given} (it may have expired, or been deleted in the app); see sift jobs` };
  const ids = found.slice(0, 5).map((j) => j.id);
  return { problem: `several jobs' IDs start with ${given} (${ids.join(', ')}${found.length > 5 ? ', …' : ''}); give more of the ID` };
}

/** Opens the database (or the owner's snapshot of it) for one short command, always closing it. */
export async function withStore(command: string, values: CliFlags, io: CliIO, signal: AbortSignal, fn: (store: Store) => Promise<number> | number): Promise<number> {
  let store: Store;
  try {
    store = await openCliReader(values, io, command, signal);
  } catch (err) {
    // Ctrl-C while the other Sift wrote the copy to read: it exited 130 and said nothing, so a
    // user could not tell a stop from a hang, nor what had been printed or written.
    if (signal.aborted) {
      io.stderr.write(
        `sift ${command}: interrupted while waiting for the Sift that has the database open to copy it; nothing was ${command === 'export' ? 'written' : 'printed'}: the same sift ${command} again asks it once more (or reads the database itself once that Sift is closed)\n`,
      );
      return EXIT.interrupted;
    }
    return reportError(err, io, command);
  }
  try {
    return await fn(store);
  } catch (err) {
    return reportError(storeError(err, store.path), io, command);
  } finally {
    store.close();
  }
}
