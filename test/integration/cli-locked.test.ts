/**
 * A database another program holds locked (sqlite3 left open in a terminal, a backup tool):
 * not a Sift, so nothing will answer a reader's request for a copy. `sift status` waited 5 s
 * for that answer and then said "in use by another Sift"; `sift batch` said the same.
 */
import { afterAll, beforeAll, expect, test } from 'vitest';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { openStore } from '../../src/main/store';
import { controlDir } from '../../src/main/control';
import { runSift } from '../helpers/cli';
import { tempDir } from '../helpers/store';

let t: ReturnType<typeof tempDir>;
let db: string;
let holder: ChildProcess;

/** sqlite3, the real program, holding the database's lock until its stdin closes; resolves once it holds it. */
function holdLock(file: string): Promise<ChildProcess> {
  const child = spawn('sqlite3', [file], { stdio: ['pipe', 'pipe', 'inherit'] });
  child.stdin!.write("PRAGMA locking_mode = EXCLUSIVE;\nBEGIN EXCLUSIVE;\nSELECT 'locked';\n");
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      if (out.includes('locked')) resolve(child);
    });
    child.once('error', reject);
  });
}

beforeAll(async () => {
  t = tempDir('sift-cli-locked-');
  db = path.join(t.dir, 'sift.db');
  openStore(db).close();
  holder = await holdLock(db);
});
afterAll(() => {
  holder?.stdin!.end();
  t?.remove();
});

test('sift status on a database another program has locked says so at once, without asking a Sift for a copy', async () => {
  const run = await runSift(['status', 'abcd', '--db', db]);
  expect(run.code, run.stderr).toBe(2);
  expect(run.stderr).toContain(`The database ${db} is locked by another process`);
  expect(run.stderr).not.toContain('another Sift.');
  expect(run.stderr).toMatch(/\n {2}Close that program or wait for that command to finish/);
  // No request for a copy was left for a Sift to answer: the read did not wait for one.
  expect(existsSync(controlDir(db))).toBe(false);
});

test('sift batch on it says the same, and changes nothing', async () => {
  const list = path.join(t.dir, 'list.txt');
  writeFileSync(list, 'http://127.0.0.1:9/a\n');
  const run = await runSift(['batch', list, '--db', db]);
  expect(run.code, run.stderr).toBe(2);
  expect(run.stderr).toContain(`The database ${db} is locked by another process`);
  expect(run.stderr).not.toMatch(/\n\s+at /);
});

test('sift cancel on it says at once what holds it, not that "the Sift" did not answer after 5 s', async () => {
  const run = await runSift(['cancel', 'abcd', '--db', db]);
  expect(run.code, run.stderr).toBe(2);
  expect(run.stderr).toContain(`The database ${db} is locked by another process`);
  expect(run.stderr).not.toContain('Sift that has');
  expect(run.stderr).toMatch(/\n {2}Close that program or wait for that command to finish/);
  // No cancel request was left for a Sift to answer: the command did not wait for one.
  expect(existsSync(controlDir(db))).toBe(false);
});
