import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync, rmSync, writeFileSync, renameSync } from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { SiftError } from '../shared/errors';
import { formatBytes } from '../shared/bytes';
import type { Logger } from './batch';
import { isDiskFull, lockedError, NoRoomForSnapshot, SNAPSHOT_HEADROOM_BYTES } from './store';
import { makeDirsSync } from './mkdirs';
import { processGone } from './process-gone';
import { controlDir, markAnswering, OWNER_FILE } from './control-owner';

export { controlDir, answeringOwner } from './control-owner';

/**
 * Requests to the process that owns a database. The owner holds SQLite's exclusive lock
 * for its whole life, so `sift cancel ID` from another terminal cannot open the database;
 * it drops a request file in a folder beside it instead, and the owner answers within a
 * poll (500 ms: a cancel a person typed can wait that long; a readdir costs microseconds).
 *
 * `sift jobs`, `status`, `search` and `export` ask the owner for a snapshot the same way:
 * the owner copies the database with SQLite's backup API (a consistent copy, made in steps
 * so the app stays responsive) into the folder, and the command reads the copy.
 */

const ID = /^[0-9a-zA-Z_-]{1,64}$/;

export type CancelAnswer = 'cancelled' | 'not_running';

export interface ControlHandlers {
  cancel(id: string): boolean;
  /** Writes a consistent copy of the database to dest. */
  snapshot(dest: string): Promise<void>;
}

/** Where the owner writes the snapshot a request names; never a path the request gives. */
const snapshotPath = (dir: string, nonce: string): string => path.join(dir, `snapshot-${nonce}.db`);

/** The snapshot's files: the copy, the journal files SQLite keeps beside it once it is read, and the store's reserve (store/reserve.ts). */
export function removeSnapshot(file: string): void {
  for (const f of [file, `${file}-wal`, `${file}-shm`, `${file}-journal`, `${file}-reserve`]) rmSync(f, { force: true });
}

/**
 * A reader's snapshot files, named by its pid ("snapshot-<pid>-<hex>"), the request taken
 * (.wip) too: an owner that died while copying left it, and the reader is gone as well.
 */
const SNAPSHOT_FILE = /^snapshot-([1-9][0-9]{0,9})-[0-9a-f]+\.(?:req|wip|ans|tmp|db|db-wal|db-shm|db-journal|db-reserve)$/;

function answer(dir: string, name: string, text: string): void {
  writeFileSync(path.join(dir, `${name}.tmp`), text);
  renameSync(path.join(dir, `${name}.tmp`), path.join(dir, `${name}.ans`));
}

/**
 * Opens the database as its owner (open takes SQLite's lock) marked as the Sift that answers
 * requests for it from before the lock is taken: marked after, a reader that came while the
 * owner migrated and marked a killed owner's jobs failed (seconds on a big database) read
 * "locked by another process: sqlite3, a backup tool". A reader that sees the mark before the
 * owner watches waits for its answer (5 s, requestSnapshot). The returned unmark goes after
 * the watch stops; an open that fails unmarks at once.
 */
export function openMarked<T>(dbPath: string, open: () => T): { opened: T; unmark: () => void } {
  const unmark = markAnswering(dbPath);
  try {
    return { opened: open(), unmark };
  } catch (err) {
    unmark();
    // Said once this process's own mark is gone: with it, another's lock read as "another Sift".
    throw err instanceof SiftError && err.code === 'db_locked' ? lockedError(dbPath) : err;
  }
}

/** Answers the requests for dbPath (its owner marks itself so: openMarked); the returned function stops. */
export function watchControl(dbPath: string, handlers: ControlHandlers, log: Logger, everyMs = 500): () => void {
  const dir = controlDir(dbPath);
  const tick = (): void => {
    let names: string[];
    try {
      names = readdirSync(dir);
    } catch {
      return; // no requests yet
    }
    for (const name of names) {
      // A reader killed while it had a copy (a second Ctrl-C, a closed terminal) left it
      // here, as big as the database: removed once its process is gone; so is a killed owner's mark.
      const left = SNAPSHOT_FILE.exec(name) ?? OWNER_FILE.exec(name);
      if (left && processGone(Number(left[1]))) {
        rmSync(path.join(dir, name), { force: true });
        continue;
      }
      const snap = /^snapshot-(.+)\.req$/.exec(name);
      if (snap && ID.test(snap[1]!)) {
        takeSnapshot(dir, snap[1]!, handlers, log);
        continue;
      }
      const m = /^cancel-(.+)\.req$/.exec(name);
      if (!m || !ID.test(m[1]!)) continue;
      const id = m[1]!;
      // Taken by removing it before the cancel, so a request its reader withdrew (Ctrl-C) is
      // never acted on, and one the reader could not withdraw was (requestCancel).
      try {
        rmSync(path.join(dir, name));
      } catch {
        continue;
      }
      const answered: CancelAnswer = handlers.cancel(id) ? 'cancelled' : 'not_running';
      try {
        answer(dir, `cancel-${id}`, answered);
      } catch (err) {
        log.warn({ jobId: id, err: err instanceof Error ? err.name : typeof err }, 'could not answer a cancel request');
      }
      log.info({ jobId: id, answer: answered }, 'cancel requested by another process');
    }
  };
  const timer = setInterval(tick, everyMs);
  timer.unref();
  return () => clearInterval(timer);
}

/**
 * The request is taken at once (renamed .wip, so the next poll does not start it again) and
 * answered "ok" when the copy is written, "failed" when it could not be.
 */
function takeSnapshot(dir: string, nonce: string, handlers: ControlHandlers, log: Logger): void {
  try {
    renameSync(path.join(dir, `snapshot-${nonce}.req`), path.join(dir, `snapshot-${nonce}.wip`));
  } catch {
    return; // withdrawn meanwhile
  }
  const dest = snapshotPath(dir, nonce);
  removeSnapshot(dest);
  void handlers.snapshot(dest).then(
    () => 'ok',
    (err: unknown) => {
      removeSnapshot(dest);
      // Said as such to the reader, which otherwise heard nothing it could tell from a Sift
      // that answers no requests, and told its user to wait: waiting frees no space.
      if (err instanceof NoRoomForSnapshot) {
        log.warn({ needBytes: err.needBytes, freeBytes: err.freeBytes }, 'no room on the disk for a snapshot for another process');
        return `no_room ${err.needBytes} ${err.freeBytes}`;
      }
      if (isDiskFull(err)) {
        log.warn({ err: err instanceof Error ? err.name : typeof err }, 'the disk filled while writing a snapshot for another process');
        return 'no_room';
      }
      log.warn({ err: err instanceof Error ? err.name : typeof err }, 'could not write a snapshot for another process');
      return 'failed';
    },
  ).then((said) => {
    try {
      answer(dir, `snapshot-${nonce}`, said);
      rmSync(path.join(dir, `snapshot-${nonce}.wip`), { force: true });
    } catch (err) {
      log.warn({ err: err instanceof Error ? err.name : typeof err }, 'could not answer a snapshot request');
    }
  });
}

export interface SnapshotWait {
  /**
   * Whether the owner has gone (its lock is free), asked about once a second while no answer
   * has come: an owner killed after it took the request never answers it.
   */
  ownerGone?: () => boolean;
  /** How long the owner has to take the request. */
  ackMs?: number;
  /** How long a taken request may go unanswered. */
  doneMs?: number;
  /** Ctrl-C: the request is withdrawn and requestSnapshot rejects with the signal's reason. */
  signal?: AbortSignal;
}

/**
 * Asks the owner of dbPath for a snapshot of the database; the copy's path, or undefined when
 * the owner did not take the request within ackMs (a Sift that answers no
 * requests: an older one), could not write it, or went away (ownerGone). Throws a SiftError
 * (disk_full) when the owner had no room on the disk for it. The caller removes the copy
 * (removeSnapshot).
 */
export async function requestSnapshot(dbPath: string, wait: SnapshotWait = {}): Promise<string | undefined> {
  const { ownerGone, signal, ackMs = 5000, doneMs = 300_000 } = wait;
  const dir = controlDir(dbPath);
  makeDirsSync(dir);
  // The pid names the files for the owner to remove if this process dies holding them.
  const nonce = `${process.pid}-${randomBytes(4).toString('hex')}`;
  const req = path.join(dir, `snapshot-${nonce}.req`);
  const ans = path.join(dir, `snapshot-${nonce}.ans`);
  writeFileSync(req, String(process.pid));
  const started = Date.now();
  let asked = started;
  for (;;) {
    await sleep(50);
    let said: string | undefined;
    try {
      said = readFileSync(ans, 'utf8');
    } catch {}
    if (said !== undefined) {
      rmSync(ans, { force: true });
      if (said.startsWith('no_room')) throw noRoomError(dbPath, said);
      return said === 'ok' ? snapshotPath(dir, nonce) : undefined;
    }
    // A copy of a big database takes a while, and the wait ignored Ctrl-C (only a second one
    // ended it). A request already taken is answered into files named by this process, which
    // the owner removes once it is gone.
    if (signal?.aborted) {
      for (const f of [req, ans]) rmSync(f, { force: true });
      throw signal.reason;
    }
    const waited = Date.now() - started;
    // Not taken: withdrawn (a rename by the owner first means it was taken after all).
    if (waited > ackMs) {
      try {
        rmSync(req);
        return undefined;
      } catch {}
    }
    // An owner killed while it copied (a `sift batch` ended with kill -9, the app crashing)
    // left the request taken and unanswered: `sift jobs` waited the full 5 minutes, deaf to
    // its first Ctrl-C. Its lock went with it, so the database is this command's to open.
    if (ownerGone && Date.now() - asked >= 1000) {
      asked = Date.now();
      if (ownerGone()) {
        for (const f of [req, ans, path.join(dir, `snapshot-${nonce}.wip`)]) rmSync(f, { force: true });
        removeSnapshot(snapshotPath(dir, nonce));
        return undefined;
      }
    }
    if (waited > doneMs) return undefined;
  }
}

/** The owner's "no_room NEED FREE" (or "no_room" when the disk filled during the copy) in the reader's words. */
function noRoomError(dbPath: string, said: string): SiftError {
  const [need, free] = said.split(' ').slice(1).map(Number);
  const sizes =
    need !== undefined && free !== undefined && Number.isFinite(need) && Number.isFinite(free)
      ? ` (it needs ${formatBytes(need)} and leaves ${formatBytes(SNAPSHOT_HEADROOM_BYTES)} for the other Sift's own results; ${formatBytes(free)} is free)`
      : '';
  return new SiftError(
    'disk_full',
    507,
    `The database ${dbPath} is in use by another Sift, and the disk that holds it has no room for the copy this command reads meanwhile${sizes}.`,
    'Free some space on that disk, or wait for the other sift command to finish (or close the other Sift window), then try again.',
  );
}

/**
 * What became of a cancel request stopped by Ctrl-C before its answer came: withdrawn before
 * the owner took it (nothing was cancelled), or taken (the owner has acted on it).
 */
export type CancelStopped = 'withdrawn' | 'taken';

/**
 * What became of a cancel request whose owner went away before it answered (closed, or killed):
 * the job runs no longer, and the database may be the asker's to open.
 */
export type CancelOwnerGone = 'owner_gone';

/**
 * Asks the owner of dbPath to cancel job id; undefined when no answer came in timeoutMs. An
 * owner that lives but has not taken the request is waited for: it gave up after 5 s, and an
 * owner busy opening a big database (its migrations) or copying one takes longer, so the user
 * was told to cancel the job there. ownerGone is asked once a second; the signal (Ctrl-C) ends
 * the wait at once (it waited the full 5 s, deaf to a first Ctrl-C).
 */
export async function requestCancel(
  dbPath: string,
  id: string,
  o: { timeoutMs?: number; signal?: AbortSignal; ownerGone?: () => boolean } = {},
): Promise<CancelAnswer | CancelStopped | CancelOwnerGone | undefined> {
  const { timeoutMs = 300_000, signal, ownerGone } = o;
  if (!ID.test(id)) return 'not_running';
  const dir = controlDir(dbPath);
  makeDirsSync(dir);
  const ans = path.join(dir, `cancel-${id}.ans`);
  const req = path.join(dir, `cancel-${id}.req`);
  const answered = (): CancelAnswer | undefined => {
    try {
      const answer = readFileSync(ans, 'utf8') as CancelAnswer;
      rmSync(ans, { force: true });
      return answer;
    } catch {
      return undefined;
    }
  };
  rmSync(ans, { force: true });
  writeFileSync(req, String(process.pid));
  const until = Date.now() + timeoutMs;
  let asked = Date.now();
  while (Date.now() < until) {
    await sleep(50, undefined, { signal }).catch(() => {});
    const answer = answered();
    if (answer) return answer;
    if (signal?.aborted) {
      // The owner takes a request by removing it (watchControl), then answers in the same turn.
      try {
        rmSync(req);
        return 'withdrawn';
      } catch {
        return answered() ?? 'taken';
      }
    }
    if (ownerGone && Date.now() - asked >= 1000) {
      asked = Date.now();
      if (ownerGone()) {
        rmSync(req, { force: true });
        return answered() ?? 'owner_gone';
      }
    }
  }
  rmSync(req, { force: true });
  return undefined;
}
