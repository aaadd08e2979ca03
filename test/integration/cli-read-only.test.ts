/**
 * An export or a log aimed at a read-only disk (a mounted image, a locked SD card, a
 * read-only network share): said as that, since "change its permissions" cannot make such a
 * disk take writes, and in words, not Node's error code. The built sift as a child process,
 * on a real read-only tmpfs (needs root to mount; skipped where it cannot be mounted).
 */
import { afterAll, beforeAll, expect, test } from 'vitest';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { finishedJobForFile } from '../helpers/big-job-file';
import { runSift } from '../helpers/cli';
import { mountTmpfs, unmountTmpfs } from '../helpers/tmpfs';

// Its beforeAll runs before the mount's, and its folder is removed after the unmount.
const onDisk = finishedJobForFile('sift-cli-read-only-', 3);
let ro: string;
let mounted = false;

beforeAll(() => {
  ro = path.join(onDisk.t.dir, 'card');
  mounted = mountTmpfs(ro, '1m', { readOnly: true });
  if (!mounted) console.log('cli-read-only: cannot mount a tmpfs here (needs root); these tests are skipped');
});
afterAll(() => {
  unmountTmpfs(ro, mounted);
});

test('sift export to a folder on a read-only disk says the disk is read-only, and to choose a folder on another', async (ctx) => {
  if (!mounted) ctx.skip();
  const { db, env, id } = onDisk;
  for (const out of [ro, path.join(ro, 'new', 'folder')]) {
    const r = await runSift(['export', id, '--out', out, '--db', db], { env });
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain(`sift export: cannot write to ${out}: it is on a read-only disk`);
    expect(r.stderr).toContain('Choose a folder on a disk you can write to.');
    expect(r.stderr).not.toMatch(/permission|EROFS/);
  }
  expect(readdirSync(ro)).toEqual([]);
});

test('a --log on a read-only disk is named with why, in words', async (ctx) => {
  if (!mounted) ctx.skip();
  const { t, db, env, id } = onDisk;
  const log = path.join(ro, 'sift.log');
  const r = await runSift(['export', id, '--out', path.join(t.dir, 'out'), '--db', db, '--log', log], { env });
  expect(r.code, r.stderr).toBe(2);
  expect(r.stderr).toContain(`sift export: cannot write the log ${log}: it is on a read-only disk\n  Pass --log with a path you can write to.`);
});
