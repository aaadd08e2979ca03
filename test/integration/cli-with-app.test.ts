/**
 * The app and the command line on one database, as a person uses them: the app's real
 * services (what the window talks to) open on a database while `sift` commands, run from the
 * built bundle, work on the same file; loopback sites whose held answers say when a target
 * is in flight.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, statfsSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { ServerResponse } from 'node:http';
import { createServices, type Services } from '../../src/main/services';
import { dispatch } from '../../src/main/ipc/dispatch';
import { controlDir } from '../../src/main/control';
import { OWNER_FILE } from '../../src/main/control-owner';
import type { EventName } from '../../src/shared/ipc/contract';
import type { Job } from '../../src/shared/types';
import type { FetchFunc } from '../../src/main/batch';
import { collect, jsonLines, runSift, startSift, waitForStderr } from '../helpers/cli';
import { startSite, type Site } from '../helpers/sites';
import { mountTmpfs, unmountTmpfs } from '../helpers/tmpfs';
import { makePdf } from '../helpers/fetch-pdf';
import { closedAfterEach } from '../helpers/loopback';

/** The control folder's requests and copies, without the mark of the Sift that answers them (control-owner.ts). */
const requestsIn = (dir: string): string[] => readdirSync(dir).filter((n) => !OWNER_FILE.test(n));

let site: Site;
/** Held answers by name: `arrived` resolves when the request came, release() answers it. */
const holds = new Map<string, { arrived: Promise<void>; came: () => void; res?: ServerResponse }>();
function hold(name: string): { arrived: Promise<void> } {
  let came = (): void => {};
  const arrived = new Promise<void>((r) => (came = r));
  holds.set(name, { arrived, came });
  return { arrived };
}
function release(name: string): void {
  const res = holds.get(name)?.res;
  if (!res || res.headersSent || res.destroyed) return;
  res.writeHead(200, { 'content-type': 'text/plain' }).end(`The held answer of ${name}, long enough to be a page of its own. `.repeat(4));
}

beforeAll(async () => {
  site = await startSite({
    '/locked.pdf': (_req, res) => res.writeHead(200, { 'content-type': 'application/pdf' }).end(makePdf({ pages: [['Secret']], encrypted: true })),
    '/hold': (req, res) => {
      const name = new URL(req.url ?? '/', 'http://x').searchParams.get('n') ?? '';
      const h = holds.get(name);
      if (!h) return res.writeHead(404).end();
      h.res = res;
      h.came();
    },
  });
});
afterAll(async () => {
  for (const name of holds.keys()) release(name);
  await site.close();
});

const open = closedAfterEach();

/** A data folder with the loopback site allowed, as the app and the CLI both read it. */
function home(): { dir: string; db: string; env: NodeJS.ProcessEnv } {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'sift-cli-app-'));
  writeFileSync(path.join(dir, 'settings.json'), JSON.stringify({ allowHosts: ['127.0.0.1'] }));
  return { dir, db: path.join(dir, 'sift.db'), env: { SIFT_HOME: dir } };
}

/** The app's services on db, with the events its window receives. */
function app(dir: string, db: string, fetch?: FetchFunc): { s: Services; events: { event: EventName; payload: unknown }[] } {
  const events: { event: EventName; payload: unknown }[] = [];
  const s = createServices({ dbPath: db, host: 'bridge', dataDir: dir, logFiles: [path.join(dir, 'sift.log')], emit: (event, payload) => events.push({ event, payload }), fetch });
  open.push(s);
  return { s, events };
}

/** Resolves with the job once the app's runner reports it terminal (its event, not a clock). */
function ended(s: Services, id: string): Promise<Job> {
  return new Promise((resolve) => {
    const now = s.store.getJob(id);
    if (now && now.status !== 'running' && now.status !== 'queued') return void s.runner.settled(id).then(() => resolve(s.store.getJob(id)!));
    const off = s.runner.on('job', (j) => {
      if (j.id !== id || j.status === 'running' || j.status === 'queued') return;
      off();
      void s.runner.settled(id).then(() => resolve(s.store.getJob(id)!));
    });
  });
}

const call = async (s: Services, m: string, req: unknown): Promise<unknown> => {
  const env = await dispatch(s.handlers, m, req, { checkResponses: true });
  if (!env.ok) throw Object.assign(new Error(env.error.message), env.error);
  return env.value;
};

describe('the app and sift on one database', () => {
  test('with the app open, sift jobs, status, search and export read its database as it is; the job it runs goes on untouched', async () => {
    const { dir, db, env } = home();
    const { s } = app(dir, db);
    const { arrived } = hold('read');
    const { id } = s.runner.submit({ name: 'desktop' }, 'desktop', [{ url: `${site.base}/article/1` }, { url: `${site.base}/hold?n=read` }, { url: `${site.base}/article/2` }]);
    // Serial drain: the second target is asked for only once the first is stored.
    await arrived;

    const jobs = await runSift(['jobs', '--json', '--db', db], { env });
    expect(jobs.code, jobs.stderr).toBe(0);
    expect(jsonLines(jobs.stdout)).toEqual([expect.objectContaining({ id, status: 'running', targetsTotal: 3, targetsDone: 1 })]);

    const status = await runSift(['status', id.slice(0, 6), '--json', '--db', db], { env });
    expect(status.code, status.stderr).toBe(0);
    const [job, ...targets] = jsonLines(status.stdout);
    expect(job).toMatchObject({ id, status: 'running', targetsDone: 1 });
    expect(targets.map((t) => t.status)).toEqual(['done', 'running', 'pending']);

    const search = await runSift(['search', 'Paragraph', '--json', '--db', db], { env });
    expect(search.code, search.stderr).toBe(0);
    expect(jsonLines(search.stdout)).toEqual([expect.objectContaining({ jobId: id, idx: 0, title: 'Article 1' })]);

    const out = path.join(dir, 'out.jsonl');
    const exported = await runSift(['export', id, '--out', out, '--format', 'jsonl', '--db', db], { env });
    expect(exported.code, exported.stderr).toBe(0);
    expect(readFileSync(out, 'utf8')).toContain('Paragraph 1 of article 1');

    // A second writer is still refused, and says what to do.
    const list = path.join(dir, 'list.txt');
    writeFileSync(list, `${site.base}/article/3\n`);
    const batch = await runSift(['batch', list, '--db', db], { env });
    expect(batch.code).toBe(2);
    expect(batch.stderr).toMatch(/in use by another Sift\.\n {2}Wait for the other sift command to finish, or close the other Sift window/);

    // The app's job was neither failed nor held up by the readers, and the copies are gone.
    expect(s.store.getJob(id)).toMatchObject({ status: 'running', error: '' });
    release('read');
    expect(await ended(s, id)).toMatchObject({ status: 'done', targetsDone: 3 });
    expect(requestsIn(controlDir(db))).toEqual([]);
  }, 120_000);

  test("sift status of a job the app ran says what to do in the command line's words: a password-protected PDF's hint names sift extract, not the app's PDF reader", async () => {
    const { dir, db, env } = home();
    const { s } = app(dir, db);
    const { id } = s.runner.submit({ name: 'desktop' }, 'desktop', [{ url: `${site.base}/locked.pdf` }]);
    expect(await ended(s, id)).toMatchObject({ status: 'failed' });
    const status = await runSift(['status', id, '--db', db], { env });
    expect(status.code, status.stderr).toBe(0);
    expect(status.stderr).toMatch(/1 × encrypted PDF: it needs a password\n {6}Sift cannot open password-protected PDFs: save a copy without the password .*then run sift extract on that copy/);
    expect(status.stderr).not.toMatch(/PDF reader with its password/);
    const json = await runSift(['status', id, '--json', '--db', db], { env });
    expect(jsonLines(json.stdout)[1]).toMatchObject({ status: 'failed', error: 'encrypted PDF: it needs a password', hint: expect.stringMatching(/run sift extract on that copy/) });
  }, 120_000);

  test('sift cancel of a job the app runs: the app ends it cancelled and its window is told; nothing is stored as an internal error', async () => {
    const { dir, db, env } = home();
    const { s, events } = app(dir, db);
    const { arrived } = hold('cancel');
    const { id } = s.runner.submit({ name: 'desktop' }, 'desktop', [{ url: `${site.base}/article/4` }, { url: `${site.base}/hold?n=cancel` }, { url: `${site.base}/article/5` }]);
    await arrived;
    const cancel = await runSift(['cancel', id, '--db', db], { env });
    expect(cancel.code, cancel.stderr).toBe(0);
    expect(cancel.stderr).toBe(`job ${id} cancelled\n`);
    const job = await ended(s, id);
    expect(job).toMatchObject({ status: 'cancelled', error: '' });
    // The window's last word on the job: cancelled (the job list and the job view read it).
    const changes = events.filter((e) => e.event === 'jobChanged' && (e.payload as Job).id === id);
    expect(changes.at(-1)?.payload).toMatchObject({ id, status: 'cancelled' });
    const rows = s.store.targetRows(id);
    expect(rows.map((r) => [r.status, r.reason])).toEqual([
      ['done', ''],
      ['failed', 'cancelled'],
      ['pending', ''],
    ]);
    expect(rows.some((r) => /internal/.test(r.error))).toBe(false);
    const again = await runSift(['cancel', id, '--db', db], { env });
    expect(again.code).toBe(1);
    expect(again.stderr).toBe(`sift cancel: job ${id} is not running in the Sift that has the database open: nothing to cancel: sift status ${id} shows its targets\n`);
  }, 120_000);

  test('a sift batch killed with SIGKILL: the app cannot open meanwhile and says why; opened after, it shows the job failed (restart) and runs the rest again', async () => {
    const { dir, db, env } = home();
    const { arrived } = hold('kill');
    const list = path.join(dir, 'list.txt');
    writeFileSync(list, [`${site.base}/article/6`, `${site.base}/hold?n=kill`, `${site.base}/article/7`].join('\n'));
    const child = startSift(['batch', list, '--db', db], { env });
    child.stdin!.end();
    const done = collect(child);
    const id = /job ([0-9a-f]{16})/.exec(await waitForStderr(child, /job [0-9a-f]{16}\n/))![1]!;
    await arrived;

    // The app started now: the error its "could not start" box shows, and the CLI's job untouched.
    expect(() => app(dir, db)).toThrow(expect.objectContaining({ code: 'db_locked', hint: expect.stringMatching(/Wait for the other sift command to finish/) }));
    const status = await runSift(['status', id, '--json', '--db', db], { env });
    expect(jsonLines(status.stdout)[0]).toMatchObject({ id, status: 'running' });

    child.kill('SIGKILL');
    expect((await done).signal).toBe('SIGKILL');
    const { s } = app(dir, db);
    const rows = s.store.targetRows(id);
    expect(s.store.getJob(id)).toMatchObject({ status: 'failed', error: 'restart' });
    expect(rows.map((r) => [r.status, r.reason])).toEqual([
      ['done', ''],
      ['failed', 'restart'],
      ['pending', ''],
    ]);
    // "Run the rest again" in the app: the interrupted target and the one never started.
    hold('kill');
    const rest = (await call(s, 'runRest', { id })) as { id: string; targets: number };
    expect(rest.targets).toBe(2);
    await holds.get('kill')!.arrived;
    release('kill');
    expect(await ended(s, rest.id)).toMatchObject({ status: 'done', targetsDone: 2 });
  }, 120_000);

  test('an owner that answers no requests (a Sift without the control folder): sift jobs says the database is locked at once, and asks nothing', async () => {
    const { db, env } = home();
    // A bare store and runner in a child (test/helpers/store-child.ts): it owns the database
    // and watches for nothing.
    const child = spawn(process.execPath, ['--import', 'tsx', path.join(__dirname, '..', 'helpers', 'store-child.ts'), db, 'hold'], { stdio: ['ignore', 'pipe', 'inherit'] });
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    try {
      await new Promise<void>((resolve) => {
        let out = '';
        child.stdout!.on('data', (d: Buffer) => {
          out += d.toString();
          if (out.includes('ready ')) resolve();
        });
      });
      const jobs = await runSift(['jobs', '--db', db], { env });
      expect(jobs.code).toBe(2);
      expect(jobs.stderr).toMatch(/is locked by another process: .*\n {2}Close that program or wait for that command to finish/);
      expect(existsSync(controlDir(db))).toBe(false);
    } finally {
      child.kill('SIGKILL');
      await exited;
    }
  }, 120_000);

  test("what sift status and sift search read while the app stores a target every few milliseconds is one moment of the database: the job's counts agree with its rows, and the index has every result stored before", async () => {
    const { dir, db, env } = home();
    const { arrived } = hold('last');
    let releaseLast = (): void => {};
    const last = new Promise<void>((r) => (releaseLast = r));
    // A fetch of a millisecond, so the app writes hundreds of targets a second while the
    // copies are made (the pace only spreads the writes; no check waits on it); the last
    // target waits, so the job is still running at every read.
    const fetch: FetchFunc = async (_signal, _c, t) => {
      await new Promise((r) => setTimeout(r, 1));
      if (t.url.endsWith('/last')) {
        holds.get('last')!.came();
        await last;
      }
      return { content: `stored words ${t.url}`, meta: { title: t.url } };
    };
    const { s } = app(dir, db, fetch);
    const targets = Array.from({ length: 3000 }, (_, i) => ({ url: `https://example.test/${i}` }));
    const { id } = s.runner.submit({ name: 'desktop' }, 'desktop', [...targets, { url: 'https://example.test/last' }]);
    const seen: number[] = [];
    for (let i = 0; i < 4; i++) {
      const status = await runSift(['status', id, '--json', '--db', db], { env });
      expect(status.code, status.stderr).toBe(0);
      const [job, ...rows] = jsonLines(status.stdout);
      const finished = rows.filter((r) => r.status === 'done' || r.status === 'failed').length;
      expect(job).toMatchObject({ id, status: 'running', targetsDone: finished });
      // Serial drain: the finished ones are the first ones, and at most one is running.
      expect(rows.slice(0, finished).every((r) => r.status === 'done')).toBe(true);
      expect(rows.filter((r) => r.status === 'running').length).toBeLessThanOrEqual(1);
      seen.push(finished);
      const search = await runSift(['search', 'stored', '--job', id, '--limit', '1000', '--json', '--db', db], { env });
      expect(search.code, search.stderr).toBe(0);
      // Read after the status: the index holds at least every result that status saw stored.
      expect(jsonLines(search.stdout).length).toBeGreaterThanOrEqual(Math.min(finished, 1000));
    }
    expect(seen).toEqual([...seen].sort((a, b) => a - b));
    await arrived;
    releaseLast();
    expect(await ended(s, id)).toMatchObject({ status: 'done', targetsDone: 3001 });
    expect(requestsIn(controlDir(db))).toEqual([]);
  }, 180_000);

  test('an owner that closes while sift jobs asks it for a snapshot: sift jobs then opens the database itself', async () => {
    const { db, env } = home();
    const holder = spawn(process.execPath, ['--import', 'tsx', path.join(__dirname, '..', 'helpers', 'store-child.ts'), db, 'hold-marked'], { stdio: ['ignore', 'pipe', 'inherit'] });
    const exited = new Promise<void>((resolve) => holder.once('exit', () => resolve()));
    try {
      const jobId = await new Promise<string>((resolve) => {
        let out = '';
        holder.stdout!.on('data', (d: Buffer) => {
          out += d.toString();
          const m = /ready (\S+)\n/.exec(out);
          if (m) resolve(m[1]!);
        });
      });
      const child = startSift(['jobs', '--json', '--db', db], { env });
      child.stdin!.end();
      const done = collect(child);
      // The request is in the folder: the owner goes away before anyone answers it.
      await new Promise<void>((resolve) => {
        const look = (): void => {
          if (existsSync(controlDir(db)) && readdirSync(controlDir(db)).some((n) => n.endsWith('.req'))) return resolve();
          setTimeout(look, 20);
        };
        look();
      });
      holder.kill('SIGKILL');
      await exited;
      const jobs = await done;
      expect(jobs.code, jobs.stderr).toBe(0);
      // Opened as the owner: the dead holder's job is interrupted (rule 8).
      expect(jsonLines(jobs.stdout)).toEqual([expect.objectContaining({ id: jobId, status: 'failed', error: 'restart' })]);
      expect(requestsIn(controlDir(db))).toEqual([]);
    } finally {
      holder.kill('SIGKILL');
      await exited;
    }
  }, 120_000);

  test('a --db that is a symlink to the app\'s database reaches the app like its own path: jobs and cancel are answered', async () => {
    const { dir, db, env } = home();
    const { s } = app(dir, db);
    const link = path.join(mkdtempSync(path.join(os.tmpdir(), 'sift-cli-link-')), 'linked.db');
    symlinkSync(db, link);
    const { arrived } = hold('link');
    const { id } = s.runner.submit({ name: 'desktop' }, 'desktop', [{ url: `${site.base}/hold?n=link` }]);
    await arrived;
    const jobs = await runSift(['jobs', '--json', '--db', link], { env });
    expect(jobs.code, jobs.stderr).toBe(0);
    expect(jsonLines(jobs.stdout)).toEqual([expect.objectContaining({ id, status: 'running' })]);
    const cancel = await runSift(['cancel', id, '--db', link], { env });
    expect(cancel.code, cancel.stderr).toBe(0);
    expect(await ended(s, id)).toMatchObject({ status: 'cancelled' });
  }, 120_000);

  test("a reader killed while it held a snapshot (a closed terminal): the app removes the copy once that process is gone, and keeps a live reader's", async () => {
    const { dir, db } = home();
    app(dir, db);
    // A process that has ended: its pid names files no one will remove.
    const gone = spawn(process.execPath, ['-e', '']);
    await new Promise((resolve) => gone.once('exit', resolve));
    const control = controlDir(db);
    mkdirSync(control, { recursive: true });
    const dead = ['db', 'db-wal', 'db-shm', 'ans', 'wip'].map((ext) => `snapshot-${gone.pid}-0123abcd.${ext}`);
    const live = `snapshot-${process.pid}-0123abcd.db`;
    for (const name of [...dead, live]) writeFileSync(path.join(control, name), 'a copy of the database');
    await new Promise<void>((resolve) => {
      const look = (): void => {
        if (readdirSync(control).every((n) => !dead.includes(n))) return resolve();
        setTimeout(look, 20);
      };
      look();
    });
    expect(requestsIn(control)).toEqual([live]);
  }, 120_000);
});

describe('the app and sift on a disk with little room', () => {
  const mnt = path.join(os.tmpdir(), `sift-cli-app-full-${process.pid}`);
  let mounted = false;
  beforeAll(() => {
    mounted = mountTmpfs(mnt, '16m');
    if (!mounted) console.log('cli-with-app: cannot mount a tmpfs here (needs root); the little-room test is skipped');
  });
  afterAll(() => unmountTmpfs(mnt, mounted));

  /** Bytes still free on the tmpfs. */
  const free = (): number => {
    const s = statfsSync(mnt);
    return s.bavail * s.bsize;
  };

  test("sift jobs and status while the app runs a job on a nearly full disk: they say the disk has no room for their copy, and the app's job goes on to its end", async (ctx) => {
    if (!mounted) ctx.skip();
    const dir = mkdtempSync(path.join(mnt, 'home-'));
    writeFileSync(path.join(dir, 'settings.json'), JSON.stringify({ allowHosts: ['127.0.0.1'] }));
    const db = path.join(dir, 'sift.db');
    const env = { SIFT_HOME: dir };
    const { s } = app(dir, db);
    const { arrived } = hold('room');
    const { id } = s.runner.submit({ name: 'desktop' }, 'desktop', [{ url: `${site.base}/article/1` }, { url: `${site.base}/hold?n=room` }, { url: `${site.base}/article/2` }]);
    await arrived;

    // Room for a copy of the database and 2 MB more: the copy fits, and leaves the app's job
    // less than one result of the default 8 MiB. It was written, and a target stored meanwhile
    // stopped the job as "disk full".
    const dbBytes = (['', '-wal'] as const).reduce((n, ext) => n + (existsSync(db + ext) ? statSync(db + ext).size : 0), 0);
    writeFileSync(path.join(mnt, 'filler-1'), Buffer.alloc(free() - dbBytes - 2 * 1024 * 1024));
    const said = `The database ${db} is in use by another Sift, and the disk that holds it has no room for the copy this command reads meanwhile`;
    const jobs = await runSift(['jobs', '--db', db], { env });
    expect(jobs.code).toBe(2);
    expect(jobs.stderr).toContain(said);
    expect(jobs.stderr).toMatch(/\(it needs [\d.]+ [kMG]?B and leaves 64\.0 MB for the other Sift's own results; [\d.]+ [kMG]?B is free\)\.\n {2}Free some space on that disk, or wait for the other sift command to finish/);

    // No room even for the copy: it failed half-written, and the command said "in use by
    // another Sift. Wait for the other sift command to finish", which frees no space.
    writeFileSync(path.join(mnt, 'filler-2'), Buffer.alloc(Math.max(0, free() - 64 * 1024)));
    const status = await runSift(['status', id, '--db', db], { env });
    expect(status.code).toBe(2);
    expect(status.stderr).toContain(said);
    expect(status.stderr).not.toMatch(/\n\s+at /);
    expect(requestsIn(controlDir(db))).toEqual([]);

    // Space freed, the job is untouched: it ends done, and the commands read it again.
    rmSync(path.join(mnt, 'filler-1'));
    rmSync(path.join(mnt, 'filler-2'));
    release('room');
    expect(await ended(s, id)).toMatchObject({ status: 'done', targetsDone: 3 });
  }, 120_000);
});
