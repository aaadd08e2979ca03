import { afterAll, expect, test } from 'vitest';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { answeringOwner, controlDir, markAnswering } from '../../src/main/control-owner';
import { tempDir } from '../helpers/store';

const t = tempDir('sift-control-owner-');
afterAll(() => t.remove());

test('an owner marks itself while it answers, and leaves no control folder behind when it stops', () => {
  const db = path.join(t.dir, 'sift.db');
  const unmark = markAnswering(db);
  expect(answeringOwner(db)).toBe(true);
  unmark();
  expect(answeringOwner(db)).toBe(false);
  // Every sift batch made one: an empty "sift.db.control" folder stayed beside each database.
  expect(existsSync(controlDir(db))).toBe(false);
});

test("a killed owner's mark is no owner, and a folder holding requests stays", () => {
  const db = path.join(t.dir, 'killed.db');
  // A process that has ended: its pid names a mark no one removed.
  const gone = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
  mkdirSync(controlDir(db));
  writeFileSync(path.join(controlDir(db), `owner-${gone.stdout}`), '');
  expect(answeringOwner(db)).toBe(false);
  writeFileSync(path.join(controlDir(db), 'snapshot-1-0123abcd.req'), '');
  markAnswering(db)();
  expect(existsSync(path.join(controlDir(db), 'snapshot-1-0123abcd.req'))).toBe(true);
});
