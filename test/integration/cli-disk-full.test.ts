/**
 * `sift batch` and `sift export` on a disk with no room left, as a script meets them: the real
 * command as a child process, a real full disk (a small tmpfs of our own, filled), and the exit
 * code SPEC §6 gives a run whose results were not all kept (1), not "bad usage or input" (2),
 * which tells a script that trying again cannot help.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { closeSync, existsSync, openSync, statfsSync, writeFileSync, writeSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { articleHtml, startSite, type Site } from '../helpers/sites';
import { runSift } from '../helpers/cli';
import { tempDir } from '../helpers/store';
import { mountTmpfs, unmountTmpfs } from '../helpers/tmpfs';

let site: Site;
let t: ReturnType<typeof tempDir>;
const mnt = path.join(os.tmpdir(), `sift-cli-disk-full-${process.pid}`);
let mounted = false;

/** Writes a file until the disk refuses a byte more: what a full disk is, whatever its block size. */
function fill(dir: string): void {
  const fd = openSync(path.join(dir, 'filler'), 'w');
  const chunk = Buffer.alloc(Math.max(4096, statfsSync(dir).bsize), 0x61);
  try {
    for (let n = chunk.length; n > 0; ) n = writeSync(fd, chunk, 0, n);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOSPC') throw err;
  } finally {
    closeSync(fd);
  }
  // The last whole chunk may not have fitted while a smaller write would.
  const tail = openSync(path.join(dir, 'filler-tail'), 'w');
  try {
    for (;;) writeSync(tail, Buffer.alloc(512, 0x61));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOSPC') throw err;
  } finally {
    closeSync(tail);
  }
}

beforeAll(async () => {
  site = await startSite({ '/long': (_req, res) => void res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(articleHtml(7, 'word '.repeat(400))) });
  t = tempDir('sift-cli-disk-full-');
  mounted = mountTmpfs(mnt, '1m');
  if (mounted) fill(mnt);
  else console.log('cli-disk-full: cannot mount a tmpfs here (needs root); these tests are skipped');
});
afterAll(async () => {
  await site?.close();
  unmountTmpfs(mnt, mounted);
  t?.remove();
});

const listFile = (name: string): string => {
  const file = path.join(t.dir, name);
  writeFileSync(file, [`${site.base}/article/1?l=${name}`, `${site.base}/long?l=${name}`, `${site.base}/article/2?l=${name}`].join('\n'));
  return file;
};

describe('a full disk', () => {
  test('sift batch whose database is on it: says so and what to do, exit 1', async (ctx) => {
    if (!mounted) ctx.skip();
    const db = path.join(mnt, 'sift.db');
    const run = await runSift(['batch', listFile('db.txt'), '--db', db, '--allow-private']);
    expect(run.stderr).toContain(`The disk that holds the database ${db} is full`);
    expect(run.stderr).toMatch(/Free some space on that disk \(or pass --db with a path on another disk\)/);
    expect(run.stderr).not.toMatch(/\n\s+at /);
    expect(run.code, run.stderr).toBe(1);
  }, 120_000);

  test('sift batch --out on it: the job is fetched and stored, the export says the disk is full and how to write it later, exit 1', async (ctx) => {
    if (!mounted) ctx.skip();
    const db = path.join(t.dir, 'roomy.db');
    const out = path.join(mnt, 'results.jsonl');
    const run = await runSift(['batch', listFile('out.txt'), '--db', db, '--allow-private', '--out', out]);
    const id = /^job ([0-9a-f]{16})/.exec(run.stderr)?.[1];
    expect(id, run.stderr).toBeDefined();
    expect(run.stderr).toContain('the disk is full while writing');
    expect(run.stderr).toContain(`The results are stored: \`sift export ${id} --out DIR\` writes them without fetching again.`);
    expect(run.stderr).not.toMatch(/\n\s+at /);
    expect(run.code, run.stderr).toBe(1);

    // The stored job, exported there again: the same words, the same exit code.
    const again = await runSift(['export', id!, '--db', db, '--out', path.join(mnt, 'again')]);
    expect(again.stderr).toMatch(/^sift export: the disk is full while writing .*\n {2}Free some space or export to another disk, then export again\.\n$/);
    expect(again.code, again.stderr).toBe(1);
  }, 120_000);
  test('sift batch --out a folder it makes there, and sift export to another: the export fails, and no empty folder is left behind', async (ctx) => {
    if (!mounted) ctx.skip();
    const db = path.join(t.dir, 'roomy-folders.db');
    // Two levels the command makes: both were left, empty, after "the disk is full".
    const out = path.join(mnt, 'made', 'results');
    const run = await runSift(['batch', listFile('folders.txt'), '--db', db, '--allow-private', '--out', out]);
    const id = /^job ([0-9a-f]{16})/.exec(run.stderr)?.[1];
    expect(run.stderr).toContain('the disk is full while writing');
    expect(run.stderr).toContain(`\`sift export ${id} --out DIR\` writes them without fetching again.`);
    expect(run.code, run.stderr).toBe(1);
    expect(existsSync(path.join(mnt, 'made')), run.stderr).toBe(false);

    const again = await runSift(['export', id!, '--db', db, '--out', path.join(mnt, 'made-by-export', 'x')]);
    expect(again.stderr).toContain('the disk is full while writing');
    expect(again.code, again.stderr).toBe(1);
    expect(existsSync(path.join(mnt, 'made-by-export'))).toBe(false);
  }, 120_000);
});
