import Database from 'better-sqlite3';
import type * as Fs from 'node:fs';
import { copyFileSync, existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { openStore, type Store } from '../../src/main/store';
import { walSync } from '../../src/main/store/wal-sync';
import { tempDir } from '../helpers/store';

// The real fsync, run when a test lets it; `failNext` makes the next one report an I/O error.
const fsyncs = vi.hoisted(() => ({ calls: 0, held: [] as (() => void)[], hold: false, failNext: false }));
vi.mock('node:fs', async (importOriginal) => {
  const fs = await importOriginal<typeof Fs>();
  const fsync = (fd: number, cb: (err: NodeJS.ErrnoException | null) => void): void => {
    fsyncs.calls++;
    const run = (): void => {
      if (fsyncs.failNext) {
        fsyncs.failNext = false;
        return cb(Object.assign(new Error('EIO: i/o error, fsync'), { code: 'EIO' }));
      }
      fs.fsync(fd, cb);
    };
    if (fsyncs.hold) fsyncs.held.push(run);
    else run();
  };
  return { ...fs, default: { ...fs, fsync }, fsync };
});

const release = (): void => {
  const held = fsyncs.held.splice(0);
  for (const run of held) run();
};

let dir: ReturnType<typeof tempDir>;
let store: Store | undefined;
beforeEach(() => {
  Object.assign(fsyncs, { calls: 0, held: [], hold: false, failNext: false });
  dir = tempDir();
});
afterEach(() => {
  fsyncs.hold = false;
  release();
  store?.close();
  store = undefined;
  dir.remove();
});

function runJob(s: Store, id: string, n: number): void {
  s.insertJob({ id, caller: 'alice', callerClass: 'user', idemKey: `k-${id}`, targetsTotal: n, nowMs: 1, leaseExpires: 9e15 }, Array.from({ length: n }, (_, i) => ({ url: `https://x.test/${i}` })));
  s.transition(id, 'queued', 'running', '', 1);
}

function finish(s: Store, id: string, idx: number): void {
  expect(s.startTarget(id, idx, 2)).toBe(true);
  s.finishTarget(id, idx, { status: 'done', result: { content: `content ${idx}`, meta: { title: `t${idx}` } }, error: '', hint: '', bytes: 9, title: `t${idx}`, errorStatus: 0 }, 3, 9e15);
}

const until = async (ok: () => boolean): Promise<void> => {
  await expect.poll(ok).toBe(true);
};

describe('a target outcome committed to the WAL and synced in the background', () => {
  it('is in the files on disk as soon as finishTarget returns, before any fsync completes (a killed Sift loses nothing)', () => {
    const file = path.join(dir.dir, 'sift.db');
    store = openStore(file);
    runJob(store, 'j1', 3);
    fsyncs.hold = true;
    finish(store, 'j1', 0);
    // What a process that died here leaves: the database and its WAL as the OS has them.
    copyFileSync(file, path.join(dir.dir, 'copy.db'));
    copyFileSync(`${file}-wal`, path.join(dir.dir, 'copy.db-wal'));
    const copy = new Database(path.join(dir.dir, 'copy.db'));
    const row = copy.prepare("SELECT status, result FROM targets WHERE job_id = 'j1' AND idx = 0").get() as { status: string; result: string };
    copy.close();
    expect(row.status).toBe('done');
    expect(JSON.parse(row.result)).toMatchObject({ content: 'content 0' });
    expect(fsyncs.held.length).toBe(1);
  });

  it('runs one fsync at a time; the commits made meanwhile share the next one', async () => {
    store = openStore(path.join(dir.dir, 'sift.db'));
    runJob(store, 'j1', 11);
    fsyncs.hold = true;
    for (let i = 0; i < 10; i++) finish(store, 'j1', i);
    expect(fsyncs.calls).toBe(1);
    fsyncs.hold = false;
    release();
    // The nine commits made while the first fsync ran are covered by one more.
    await until(() => fsyncs.calls === 2);
    finish(store, 'j1', 10);
    await until(() => fsyncs.calls === 3);
    expect(store.getJob('j1')?.targetsDone).toBe(11);
  });

  it('after a failed fsync commits with synchronous=FULL, so SQLite itself reports the disk', async () => {
    store = openStore(path.join(dir.dir, 'sift.db'));
    runJob(store, 'j1', 3);
    fsyncs.failNext = true;
    finish(store, 'j1', 0);
    await until(() => fsyncs.calls === 1 && !fsyncs.failNext);
    // Let the failed fsync's callback run before the next commit asks whether the WAL is healthy.
    await new Promise((r) => setImmediate(r));
    finish(store, 'j1', 1);
    finish(store, 'j1', 2);
    expect(fsyncs.calls).toBe(1);
    expect(store.getJob('j1')).toMatchObject({ status: 'running', targetsDone: 3 });
  });

  it('close() syncs what is pending and waits for a running fsync before it lets go of the file', async () => {
    const file = path.join(dir.dir, 'sift.db');
    store = openStore(file);
    runJob(store, 'j1', 2);
    fsyncs.hold = true;
    finish(store, 'j1', 0);
    store.close();
    store = undefined;
    fsyncs.hold = false;
    release();
    await until(() => fsyncs.held.length === 0);
    const again = openStore(file);
    expect(again.targetResult('j1', 0)?.status).toBe('done');
    again.close();
  });
});

describe('walSync', () => {
  it('is undefined where the WAL cannot be opened, and the store then commits with FULL', () => {
    expect(walSync(path.join(dir.dir, 'missing.db-wal'))).toBeUndefined();
    store = openStore(':memory:');
    runJob(store, 'j1', 1);
    finish(store, 'j1', 0);
    expect(fsyncs.calls).toBe(0);
    expect(store.getJob('j1')?.targetsDone).toBe(1);
  });

  it('does nothing after close', () => {
    const wal = path.join(dir.dir, 'x-wal');
    writeFileSync(wal, '');
    const w = walSync(wal);
    expect(w?.healthy).toBe(true);
    w?.close();
    w?.wrote();
    expect(fsyncs.calls).toBe(0);
    expect(existsSync(wal)).toBe(true);
  });
});
