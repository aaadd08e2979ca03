/**
 * Ctrl-C during `sift batch`, `sift fetch` and `sift extract`, as a user in a shell (or a script) meets it:
 * the real command as a child process against a loopback server, on a real database.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { open } from 'node:fs/promises';
import type { ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { articleHtml, startSite, type Site } from '../helpers/sites';
import { collect, runSift, startSift, waitForStderr, type CliRun } from '../helpers/cli';

let site: Site;
const home = mkdtempSync(path.join(tmpdir(), 'sift-cli-interrupt-'));
const env = { SIFT_HOME: home, HOME: home, NO_COLOR: '1' };
/** /hang answers nothing the first time (the target in flight at Ctrl-C), a page after that. */
let held: ServerResponse | undefined;
/** /stall never answers: the target in flight when the batch is killed. */
const stalled: ServerResponse[] = [];
/** Called as each route's request comes: a test stops sift once its target is in flight. */
const arrive = { hang: () => {}, stall: () => {} };

beforeAll(async () => {
  site = await startSite({
    '/hang': (_req, res) => {
      if (held) return void res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(articleHtml(9));
      held = res;
      arrive.hang();
    },
    '/stall': (_req, res) => {
      stalled.push(res);
      arrive.stall();
    },
  });
});
afterAll(async () => {
  held?.destroy();
  for (const res of stalled) res.destroy();
  await site.close();
  rmSync(home, { recursive: true, force: true });
});

/** Runs `sift ARGS` and sends it `signal` once its request to `route` has come: how it ended. */
async function stoppedInFlight(args: string[], route: keyof typeof arrive, signal: NodeJS.Signals): Promise<CliRun> {
  const inFlight = new Promise<void>((resolve) => (arrive[route] = resolve));
  const child = startSift(args, { env });
  child.stdin!.end();
  const done = collect(child);
  await inFlight;
  child.kill(signal);
  return done;
}

/**
 * Runs `sift ARGS` that reads the named pipe `fifo` (made here), and Ctrl-C's it while it
 * waits there: no one writes to it, and our open of its other end says the read began.
 */
async function stoppedReadingPipe(fifo: string, args: string[]): Promise<CliRun> {
  execFileSync('mkfifo', [fifo]);
  const child = startSift(args, { env });
  child.stdin!.end();
  const done = collect(child);
  const writer = await open(fifo, 'w');
  child.kill('SIGINT');
  const run = await done;
  await writer.close();
  return run;
}

describe('sift batch stopped by Ctrl-C', () => {
  test('says how to fetch the rest (--rest), not only the app’s "run the rest again"; --rest then fetches just those', async () => {
    const db = path.join(home, 'rest.db');
    const file = path.join(home, 'list.txt');
    writeFileSync(file, [`${site.base}/article/1`, `${site.base}/hang`, `${site.base}/article/2`, `${site.base}/article/3`].join('\n'));
    const run = await stoppedInFlight(['batch', file, '--db', db, '--allow-private'], 'hang', 'SIGINT');
    expect(run.code, run.stderr).toBe(130);
    // The target in flight is stopped mid-way, as sift status counts it: not finished, not failed.
    expect(run.stderr).toMatch(/^cancelled: 1\/4 · ok 1 · failed 0 · stopped mid-way 1 · /m);
    expect(run.stderr).toContain('It was cancelled: 3 targets of 4 did not finish; the finished ones are kept.\n  To fetch just those, run the same `sift batch` again with --rest.\n');

    const rest = await runSift(['batch', file, '--db', db, '--allow-private', '--rest'], { env });
    expect(rest.code, rest.stderr).toBe(0);
    expect(rest.stderr).toMatch(/the 3 targets it did not finish/);
    expect(rest.stdout.trim().split('\n').map((l) => l.trim().split(/\s+/).at(-1))).toEqual([`${site.base}/hang`, `${site.base}/article/2`, `${site.base}/article/3`]);
    expect(site.hits.get('/article/1')).toBe(1);
  }, 120_000);
});

describe('a sift batch killed mid-target (a crash)', () => {
  test('sift export counts the target cut short as sift jobs and sift status do: stopped mid-way, not failed', async () => {
    const db = path.join(home, 'crash.db');
    const file = path.join(home, 'crash.txt');
    writeFileSync(file, [`${site.base}/article/1`, `${site.base}/missing/2`, `${site.base}/stall?n=2`, `${site.base}/article/3`].join('\n'));
    await stoppedInFlight(['batch', file, '--db', db, '--allow-private'], 'stall', 'SIGKILL');

    // The next sift marks the dead batch's job failed (restart), its in-flight target cut short.
    const jobs = await runSift(['jobs', '--db', db], { env });
    expect(jobs.code, jobs.stderr).toBe(0);
    expect(jobs.stdout).toMatch(/failed\s+2\/4 .*\(restart\)/);
    const id = jobs.stdout.split(/\s+/)[0]!;
    const status = await runSift(['status', id, '--db', db], { env });
    expect(status.stdout).toContain('2/4 finished, 1 failed, 1 stopped mid-way');

    for (const [format, name] of [['csv', 'crash.csv'], ['md', 'crash-md']] as const) {
      const exported = await runSift(['export', id, '--db', db, '--out', path.join(home, name), '--format', format], { env });
      expect(exported.code, exported.stderr).toBe(0);
      expect(exported.stderr).toMatch(/exported 4 targets \(1 failed, 1 stopped mid-way, 1 not run\) to /);
    }
  }, 120_000);
});

describe('sift fetch --json stopped while the page is in flight', () => {
  test.each([
    ['SIGINT', 130],
    ['SIGTERM', 143],
  ] as const)('%s prints one JSON line with the cancelled outcome, so a script reading stdout has one, and exits %i', async (sig, code) => {
    const url = `${site.base}/stall?fetch=${sig}`;
    const run = await stoppedInFlight(['fetch', url, '--json', '--allow-private', '--db', path.join(home, 'fetch.db')], 'stall', sig);
    expect(run.code, run.stderr).toBe(code);
    const lines = run.stdout.split('\n').filter(Boolean);
    expect(lines).toHaveLength(1);
    const line = JSON.parse(lines[0]!) as Record<string, unknown>;
    expect(Object.keys(line)).toEqual(['url', 'ok', 'status', 'error', 'hint', 'reason']);
    expect(line).toMatchObject({ url, ok: false, status: 499, error: 'cancelled', reason: 'cancelled' });
    expect(line.hint).toMatch(/run the same sift fetch again/);
  }, 120_000);

  test('without --json, says on stderr that it was interrupted and how to fetch the page, with nothing on stdout', async () => {
    const url = `${site.base}/stall?fetch=plain`;
    const run = await stoppedInFlight(['fetch', url, '--allow-private', '--db', path.join(home, 'fetch.db')], 'stall', 'SIGINT');
    expect(run.code, run.stderr).toBe(130);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(/^sift fetch: http:\/\/127\.0\.0\.1:\d+\/stall\?fetch=plain: cancelled\n {2}.*run the same sift fetch again/m);
  }, 120_000);
});

describe('sift extract --json stopped while it reads a file', () => {
  test('still prints one line per file, in order: the cancelled one and those it did not reach; exit 130', async () => {
    const first = path.join(home, 'first.txt');
    writeFileSync(first, 'a short local note\n');
    const fifo = path.join(home, 'waits.fifo');
    const last = path.join(home, 'last.txt');
    writeFileSync(last, 'never read\n');
    const run = await stoppedReadingPipe(fifo, ['extract', first, fifo, last, '--json']);
    expect(run.code, run.stderr).toBe(130);
    const lines = run.stdout.split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines.map((l) => l.url)).toEqual([first, fifo, last]);
    expect(lines[0]).toMatchObject({ ok: true, content: 'a short local note\n' });
    expect(lines[1]).toMatchObject({ ok: false, status: 499, error: 'cancelled', reason: 'cancelled' });
    expect(lines[1]!.hint).toMatch(/run the same sift extract again/);
    expect(lines[2]).toMatchObject({ ok: false, status: 0, error: 'not run', reason: 'cancelled' });
    expect(lines[2]!.hint).toMatch(/run the same sift extract again/);
  }, 120_000);
});

describe('sift parse stopped while it reads a list', () => {
  test('says so and that nothing was printed, in sift batch\'s words; exit 130', async () => {
    const fifo = path.join(home, 'list.fifo');
    const run = await stoppedReadingPipe(fifo, ['parse', fifo]);
    expect(run.code, run.stderr).toBe(130);
    expect(run.stdout).toBe('');
    expect(run.stderr).toBe('sift parse: interrupted while reading the list; nothing was printed\n');
  }, 120_000);
});

describe('a signal after the command has done its work', () => {
  const HOOK = `--import=${pathToFileURL(path.join(__dirname, '../helpers/linger-hook.mjs')).href}`;
  test.each(['SIGINT', 'SIGTERM'] as const)('%s once the export is written leaves its exit 0: the work was done, not interrupted', async (sig) => {
    const db = path.join(home, `late-${sig}.db`);
    const file = path.join(home, `late-${sig}.txt`);
    writeFileSync(file, `${site.base}/article/${sig === 'SIGINT' ? 5 : 6}\n`);
    const batch = await runSift(['batch', file, '--db', db, '--allow-private'], { env });
    expect(batch.code, batch.stderr).toBe(0);
    const id = /^job ([0-9a-f]+)/.exec(batch.stderr)![1]!;
    const out = path.join(home, `late-${sig}-out`);
    const child = startSift(['export', id, '--db', db, '--out', out], { env: { ...env, NODE_OPTIONS: [process.env.NODE_OPTIONS, HOOK].filter(Boolean).join(' ') } });
    child.stdin!.end();
    const done = collect(child);
    await waitForStderr(child, /\[linger-hook\] done\n/);
    child.kill(sig);
    const run = await done;
    expect([run.code, run.signal], run.stderr).toEqual([0, null]);
    expect(run.stderr).toMatch(/^exported 1 target \(0 failed\) to /m);
    expect(readdirSync(out)).toEqual([`sift-${id}`]);
  }, 120_000);
});
