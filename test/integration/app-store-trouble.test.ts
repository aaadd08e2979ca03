/**
 * The app's services (what the window talks to) started on a database they cannot use: the
 * error the "could not start" box shows says what to do in the app, never "pass --db", an
 * option of the command line the app does not have; and nothing in the file is changed.
 */
import Database from 'better-sqlite3';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { createServices } from '../../src/main/services';
import { openStore } from '../../src/main/store';
import { tempDir } from '../helpers/store';

const dirs: ReturnType<typeof tempDir>[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) d.remove();
});

function start(prepare: (db: string) => void): { db: string; err: unknown } {
  const t = tempDir('sift-app-store-');
  dirs.push(t);
  const db = path.join(t.dir, 'sift.db');
  prepare(db);
  try {
    void createServices({ dbPath: db, host: 'bridge', dataDir: t.dir }).close();
  } catch (err) {
    return { db, err };
  }
  throw new Error('the services started');
}

describe('the app started on a database it cannot use', () => {
  test('written by a newer Sift: it says to start that Sift, and every job is still in the file', () => {
    const { db, err } = start((db) => {
      const s = openStore(db);
      s.insertJob({ id: 'a1b2c3d4e5f60718', caller: 'desktop', callerClass: 'desktop', idemKey: 'k', targetsTotal: 1, nowMs: 1, leaseExpires: 2 ** 50 }, [{ url: 'https://example.org/' }]);
      s.close();
      const raw = new Database(db);
      raw.pragma('user_version = 99');
      raw.close();
    });
    expect(err).toMatchObject({ code: 'db_too_new', message: expect.stringContaining('written by a newer Sift (schema 99') });
    expect((err as Error & { hint: string }).hint).toBe('Start the newer Sift that wrote it (or update this one to it): its jobs and results are all still there.');
    const raw = new Database(db, { readonly: true });
    expect(raw.pragma('user_version', { simple: true })).toBe(99);
    expect(raw.prepare('SELECT id, status FROM jobs').all()).toEqual([{ id: 'a1b2c3d4e5f60718', status: 'queued' }]);
    raw.close();
  });

  test("another program's file where the database goes: it says to move it aside and start again, and leaves it as it was", () => {
    const text = 'not a database, a note someone saved here\n'.repeat(200);
    const { db, err } = start((db) => writeFileSync(db, text));
    expect(err).toMatchObject({ code: 'db_not_sift', hint: 'Quit Sift and move sift.db out of its folder, then start Sift again: it makes a new database there. Sift changed nothing in that file.' });
    expect(readFileSync(db, 'utf8')).toBe(text);
  });
});
