import { execFileSync, spawn } from 'node:child_process';
import { copyFileSync, openSync, closeSync, readdirSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { openStore } from '../../src/main/store';
import { collect, runSift, SIFT_BIN } from '../helpers/cli';
import { startSite, type Site } from '../helpers/sites';
import { tempDir } from '../helpers/store';
import { mountTmpfs, unmountTmpfs } from '../helpers/tmpfs';

// A database the user's disk or hands damaged, through the CLI: every command says what
// happened and what to do, in one message, never SQLite's bare words or a stack trace.

let site: Site;
let t: ReturnType<typeof tempDir>;

beforeAll(async () => {
  site = await startSite();
  t = tempDir('sift-db-faults-');
});
afterAll(async () => {
  await site?.close();
  t?.remove();
});

const list = (n: number, tag: string): string =>
  Array.from({ length: n }, (_, i) => (i % 2 ? `${site.base}/article/${i}?t=${tag}` : `${site.base}/data/${i}.json?t=${tag}`)).join('\n');

describe('a damaged database', () => {
  test('a page overwritten with garbage: jobs, status, search and export say it is damaged and what to do', async () => {
    const db = path.join(t.dir, 'good.db');
    const file = path.join(t.dir, 'list.txt');
    writeFileSync(file, list(60, 'damaged'));
    const run = await runSift(['batch', file, '--db', db, '--allow-private']);
    expect(run.code, run.stderr).toBe(0);
    const id = /^job ([0-9a-f]{16})/.exec(run.stderr)![1]!;
    // Page 6 on: past the schema (which the open reads and checks), in the jobs' and targets' rows.
    const bad = path.join(t.dir, 'bad.db');
    copyFileSync(db, bad);
    const fd = openSync(bad, 'r+');
    writeSync(fd, Buffer.alloc(4096 * 4, 0x5a), 0, 4096 * 4, 4096 * 5);
    closeSync(fd);
    for (const args of [['jobs'], ['status', id], ['search', 'paragraph'], ['export', id, '--out', path.join(t.dir, 'x.jsonl')]]) {
      const r = await runSift([...args, '--db', bad]);
      expect(r.code, `${args[0]}: ${r.stderr}`).toBe(2);
      expect(r.stderr, args[0]).toContain(`The database ${bad} is damaged`);
      expect(r.stderr, args[0]).toMatch(/Move it aside and start a new one/);
      expect(r.stderr, args[0]).not.toMatch(/\n\s+at /);
    }
  }, 120_000);
});

describe('a full disk', () => {
  const mnt = path.join(process.env.TMPDIR ?? '/tmp', `sift-full-${process.pid}`);
  let mounted = false;
  beforeAll(() => {
    mounted = mountTmpfs(mnt, '1m');
    if (!mounted) console.log('db-faults: cannot mount a tmpfs here (needs root); the full-disk test is skipped');
  });
  afterAll(() => unmountTmpfs(mnt, mounted));

  test('sift batch --out stops with "the disk is full", exits 1 (the job failed, not its input), writes its export; the job is there once space is free, and --rest finishes it', async (ctx) => {
    if (!mounted) ctx.skip();
    const db = path.join(mnt, 'sift.db');
    const file = path.join(t.dir, 'full.txt');
    // About 2 MiB of WAL at 1 kB a result: more than the 1 MiB disk holds.
    writeFileSync(file, list(400, 'full'));
    const out = path.join(t.dir, 'full.jsonl');
    const run = await runSift(['batch', file, '--db', db, '--allow-private', '--out', out]);
    expect(run.code, run.stderr).toBe(1);
    const id = /^job ([0-9a-f]{16})/.exec(run.stderr)![1]!;
    expect(run.stderr).toMatch(new RegExp(`sift batch: job ${id} stopped after \\d+ targets: Sift could not store the next result\\.`));
    expect(run.stderr).toContain(`The disk that holds the database ${db} is full`);
    expect(run.stderr).toMatch(/Free some space on that disk/);
    expect(run.stderr).not.toMatch(/\n\s+at /);
    // The export was finished and named as such, with every target listed.
    expect(readdirSync(t.dir)).toContain('full.jsonl');

    // Still full: a command that must write (it marks the dead job) works, or says the disk
    // is full (whether SQLite needs a new page then depends on where the WAL stood).
    const jobs = await runSift(['jobs', '--db', db]);
    if (jobs.code !== 0) expect(jobs.stderr).toContain(`The disk that holds the database ${db} is full`);
    expect(jobs.stderr).not.toMatch(/\n\s+at /);

    // Space freed (the database moved to a roomy disk): the job stopped, and says what to do.
    const moved = path.join(t.dir, 'moved.db');
    copyFileSync(db, moved);
    copyFileSync(`${db}-wal`, `${moved}-wal`);
    const st = await runSift(['status', id, '--db', moved]);
    expect(st.code, st.stderr).toBe(0);
    // The job says why it stopped, not "internal error": the stored error, and what to do.
    expect(st.stdout).toMatch(new RegExp(`^job ${id}: failed \\(disk full\\)`));
    expect(st.stdout).not.toContain(mnt);
    expect(st.stderr).toMatch(
      /It stopped because the disk that holds Sift's database was full \(free some space on that disk first\): \d+ targets of 400 did not finish; the finished ones are kept\.\n {2}To fetch just those, run the same `sift batch` again with --rest/,
    );
    const rest = await runSift(['batch', file, '--db', moved, '--allow-private', '--rest']);
    expect(rest.code, rest.stderr).toBe(0);
  }, 120_000);
});

describe('the room kept for a stopped job\'s status', () => {
  const mnt = path.join(process.env.TMPDIR ?? '/tmp', `sift-room-${process.pid}`);
  let mounted = false;
  beforeAll(() => {
    mounted = mountTmpfs(mnt, '2m');
  });
  afterAll(() => unmountTmpfs(mnt, mounted));

  /** Writes to `file` until the disk refuses: every byte of the disk is taken. */
  function fillDisk(file: string): void {
    const fd = openSync(file, 'w');
    const chunk = Buffer.alloc(4096, 1);
    try {
      for (;;) writeSync(fd, chunk);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOSPC') throw err;
    } finally {
      closeSync(fd);
    }
  }

  test('a disk filled to its last byte while a job runs: its "failed (disk full)" is stored all the same, and no file is left beside the database', (ctx) => {
    if (!mounted) ctx.skip();
    const db = path.join(mnt, 'sift.db');
    const id = 'a1b2c3d4e5f60718';
    const s = openStore(db);
    s.insertJob({ id, caller: 'cli', callerClass: 'cli', idemKey: 'k', targetsTotal: 1, nowMs: 1, leaseExpires: 2 ** 50 }, [{ url: 'https://example.org/' }]);
    s.transition(id, 'queued', 'running', '', 2);
    // Wherever the WAL's last page ends, the disk now has no byte left for its next one.
    const filler = path.join(mnt, 'filler');
    fillDisk(filler);
    expect(s.transition(id, 'running', 'failed', 'disk full', 3)?.status).toBe('failed');
    s.close();

    rmSync(filler);
    const again = openStore(db);
    expect(again.getJob(id)).toMatchObject({ status: 'failed', error: 'disk full' });
    again.close();
    expect(readdirSync(mnt)).toEqual(['sift.db']);
  });
});

describe('a disk that refuses to let the database grow', () => {
  // A file-size limit (RLIMIT_FSIZE, which any user may lower for a child) makes the WAL's
  // next write fail with EFBIG mid-batch: SQLite's SQLITE_IOERR_WRITE, without root or a mount.
  const prlimit = ((): boolean => {
    try {
      execFileSync('prlimit', ['--version'], { stdio: 'ignore' });
      return true;
    } catch {
      return false;
    }
  })();

  test('sift batch stops; the job is stored as "database could not be written", and sift status says what to do', async (ctx) => {
    if (!prlimit) ctx.skip();
    const db = path.join(t.dir, 'limited.db');
    const file = path.join(t.dir, 'limited.txt');
    writeFileSync(file, list(200, 'limited'));
    // 1 MB: the open and a few targets fit; 200 targets' WAL frames do not.
    const child = spawn('prlimit', ['--fsize=1000000', process.execPath, SIFT_BIN, 'batch', file, '--db', db, '--allow-private'], { stdio: ['ignore', 'pipe', 'pipe'] });
    const run = await collect(child);
    // The job ran and could not store the rest: a failed job (1), not bad usage (2).
    expect(run.code, run.stderr).toBe(1);
    const id = /^job ([0-9a-f]{16})/.exec(run.stderr)![1]!;
    expect(run.stderr).toMatch(new RegExp(`sift batch: job ${id} stopped after \\d+ targets: Sift could not store the next result\\.`));
    expect(run.stderr).toContain(`cannot write the database ${db}`);

    const st = await runSift(['status', id, '--db', db]);
    expect(st.code, st.stderr).toBe(0);
    expect(st.stdout).toMatch(new RegExp(`^job ${id}: failed \\(database could not be written\\)`));
    expect(st.stdout).not.toContain(db);
    expect(st.stderr).toMatch(
      /It stopped because Sift could not write its database \(make the database file and its folder writable first\): \d+ targets of 200 did not finish; the finished ones are kept\.\n {2}To fetch just those, run the same `sift batch` again with --rest/,
    );
    const jobs = await runSift(['jobs', '--db', db]);
    expect(jobs.stdout).toContain('database could not be written');
  }, 120_000);

  test('a list whose job does not fit when submitted gets the same plain message, not SQLite\'s "disk I/O error"', async (ctx) => {
    if (!prlimit) ctx.skip();
    const db = path.join(t.dir, 'submit-limited.db');
    const file = path.join(t.dir, 'submit-limited.txt');
    // 300 KB: a new database opens; 5,000 targets of ~130 bytes do not fit in its journal.
    writeFileSync(file, Array.from({ length: 5000 }, (_, i) => `http://127.0.0.1:9/limited/${i}/${'x'.repeat(100)}`).join('\n'));
    const child = spawn('prlimit', ['--fsize=300000', process.execPath, SIFT_BIN, 'batch', file, '--db', db, '--allow-private'], { stdio: ['ignore', 'pipe', 'pipe'] });
    const run = await collect(child);
    expect(run.code, run.stderr).toBe(2);
    expect(run.stderr).not.toMatch(/^job /m);
    expect(run.stderr).toContain(`sift batch: cannot write the database ${db} (SQLITE_IOERR_WRITE).`);
  }, 120_000);
});
