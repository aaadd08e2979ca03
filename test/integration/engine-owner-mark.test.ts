/**
 * The moment between a Sift taking its database's lock and marking itself as the owner that
 * answers requests (control-owner.ts). In it the engine marks the jobs a previous owner left
 * running as failed and sweeps expired ones (and migrates an old database): seconds on a big
 * one. A `sift status` run then was told "locked by another process: a program that has it
 * open (sqlite3, a backup or sync tool)", and a user went looking for a program that was not there.
 * The real engine on a real database file; the real command as a child process.
 */
import { afterAll, beforeAll, expect, test } from 'vitest';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { openEngine } from '../../src/main/engine';
import { answeringOwner } from '../../src/main/control';
import { openStore } from '../../src/main/store';
import { DEFAULT_SETTINGS } from '../../src/shared/settings';
import { SIFT_BIN } from '../helpers/cli';
import { memoryLogger, tempDir } from '../helpers/store';

let t: ReturnType<typeof tempDir>;
let db: string;

beforeAll(() => {
  t = tempDir('sift-owner-mark-');
  db = path.join(t.dir, 'sift.db');
  // A job a killed owner left running: the next owner marks it failed while holding the lock.
  const store = openStore(db);
  store.insertJob({ id: 'c0ffee0000000001', caller: 'cli', callerClass: 'cli', idemKey: 'k', targetsTotal: 1, nowMs: 1_000, leaseExpires: 9e15 }, [{ url: 'https://example.test/a' }]);
  store.transition('c0ffee0000000001', 'queued', 'running', '', 1_000);
  store.close();
});
afterAll(() => t?.remove());

test('a reader that comes while a Sift opens the database hears of a Sift, not of sqlite3 or a backup tool', async () => {
  const seen: { marked: boolean; stderr: string }[] = [];
  const log = memoryLogger();
  const engine = openEngine({
    dbPath: db,
    settings: DEFAULT_SETTINGS,
    log: {
      ...log,
      info(obj, msg) {
        // Said while the lock is held and the restart's marks are written, before the engine is built.
        if (msg.includes('interrupted by a restart')) {
          const status = spawnSync(process.execPath, [SIFT_BIN, 'status', 'c0ffee0000000001', '--db', db], { env: { ...process.env, SIFT_HOME: t.dir, NO_COLOR: '1' }, encoding: 'utf8' });
          seen.push({ marked: answeringOwner(db), stderr: status.stderr });
        }
        log.info(obj, msg);
      },
    },
  });
  try {
    expect(seen).toHaveLength(1);
    expect(seen[0]!.marked).toBe(true);
    expect(seen[0]!.stderr).not.toMatch(/sqlite3|locked by another process/);
    expect(seen[0]!.stderr).toContain(`The database ${db} is in use by another Sift.`);
  } finally {
    await engine.close();
  }
  expect(answeringOwner(db)).toBe(false);
}, 120_000);

test('an engine whose setup fails after taking the database gives it back: no lock, no owner mark', () => {
  // The browser that renders pages is set up after the store's lock (the app's is Electron's);
  // when it threw, the store stayed open and the mark said "in use by another Sift" until exit.
  const broken = (): never => {
    throw new Error('no browser session');
  };
  expect(() => openEngine({ dbPath: db, settings: DEFAULT_SETTINGS, log: memoryLogger(), renderer: broken })).toThrow('no browser session');
  expect(answeringOwner(db)).toBe(false);
  // The lock is free: the next owner opens it (it was SQLITE_BUSY until this process exited).
  openStore(db).close();
  const status = spawnSync(process.execPath, [SIFT_BIN, 'status', 'c0ffee0000000001', '--db', db], { env: { ...process.env, SIFT_HOME: t.dir, NO_COLOR: '1' }, encoding: 'utf8' });
  expect(status.stderr).not.toContain('in use');
  expect(status.status, status.stderr).toBe(0);
});
