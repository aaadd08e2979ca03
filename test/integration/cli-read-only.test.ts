/**
 * An export or a log aimed at a read-only disk (a mounted image, a locked SD card, a
 * read-only network share): said as that, since "change its permissions" cannot make such a
 * disk take writes, and in words, not Node's error code. The built sift as a child process,
 * on a real read-only tmpfs (needs root to mount; skipped where it cannot be mounted).
 */
import { afterAll, beforeAll, expect, test } from 'vitest';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { openStore } from '../../src/main/store';
import { bigFinishedJob } from '../helpers/big-job';
import { runSift } from '../helpers/cli';
import { tempDir } from '../helpers/store';
import { mountTmpfs, unmountTmpfs } from '../helpers/tmpfs';

let t: ReturnType<typeof tempDir>;
let ro: string;
let mounted = false;
let db: string;
let env: NodeJS.ProcessEnv;
let id: string;

beforeAll(() => {
  t = tempDir('sift-cli-read-only-');
  ro = path.join(t.dir, 'card');
  mounted = mountTmpfs(ro, '1m', { readOnly: true });
  if (!mounted) console.log('cli-read-only: cannot mount a tmpfs here (needs root); these tests are skipped');
  db = path.join(t.dir, 'sift.db');
  env = { SIFT_HOME: t.dir, HOME: t.dir, NO_COLOR: '1' };
  const store = openStore(db);
  id = bigFinishedJob(store, 3).id;
  store.close();
});
afterAll(() => {
  unmountTmpfs(ro, mounted);
  t?.remove();
});

test('sift export to a folder on a read-only disk says the disk is read-only, and to choose a folder on another', async (ctx) => {
  if (!mounted) ctx.skip();
  for (const out of [ro, path.join(ro, 'new', 'folder')]) {
    const r = await runSift(['export', id, '--out', out, '--db', db], { env });
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain(`sift: cannot write to ${out}: it is on a read-only disk`);
    expect(r.stderr).toContain('Choose a folder on a disk you can write to.');
    expect(r.stderr).not.toMatch(/permission|EROFS/);
  }
  expect(readdirSync(ro)).toEqual([]);
});

test('a --log on a read-only disk is named with why, in words', async (ctx) => {
  if (!mounted) ctx.skip();
  const log = path.join(ro, 'sift.log');
  const r = await runSift(['export', id, '--out', path.join(t.dir, 'out'), '--db', db, '--log', log], { env });
  expect(r.code, r.stderr).toBe(2);
  expect(r.stderr).toContain(`sift: cannot write the log ${log}: it is on a read-only disk\n  Pass --log with a path you can write to.`);
});
