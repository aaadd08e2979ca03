/**
 * The main-process services behind the IPC contract, called the way the renderer calls
 * them (through dispatch: validation, envelopes), on a real database and loopback sites.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { ServerResponse } from 'node:http';
import { createServices, type Dialogs, type Services } from '../../src/main/services';
import { dispatch } from '../../src/main/ipc/dispatch';
import type { Envelope, EventName, Method, Res } from '../../src/shared/ipc/contract';
import { isTerminal, type Job, type TargetRow } from '../../src/shared/types';
import { startSite, type Site } from '../helpers/sites';
import { LINE_WINDOW, MAX_SHOWN_TEXT } from '../../src/shared/shown';
import { closedAfterEach } from '../helpers/loopback';

let site: Site;
/** The User-Agent of each request for /ua, in order. */
const agents: string[] = [];
/** A sitemap whose answer waits for holdRelease; `held` resolves when its request has come. */
const resolvers = (): { promise: Promise<void>; resolve: () => void } => {
  let resolve = (): void => {};
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
};
/** 60,000 lines (3.4 MB, 3.5 MB as UTF-8: each line has an "é"): longer than the 1 MiB the pane shows. */
const LEDGER = Array.from({ length: 60_000 }, (_, i) => `Line ${i + 1}: a ledger entry of goods, café weights and prices.`).join('\n');
/** An array of 40,000 objects (1.9 MB), laid out by the pane over 240,000 lines. */
// One line of a minified script, 2,000,012 characters, its match 1.5 MB in.
const MINIFIED = `${'var a=1;'.repeat(187_500)}NEEDLE_HERE;${'var b=2;'.repeat(62_500)}`;
const BIG_JSON = JSON.stringify(Array.from({ length: 40_000 }, (_, i) => ({ n: i, name: `item ${i}`, tags: ['a', 'b'] })));
const held = resolvers();
const holdRelease = resolvers();
const listHeld = resolvers();
const listRelease = resolvers();
const xml = (root: 'urlset' | 'sitemapindex', paths: string[]): string =>
  `<?xml version="1.0"?>\n<${root} xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${paths
    .map((p) => (root === 'urlset' ? `<url><loc>${site.base}${p}</loc></url>` : `<sitemap><loc>${site.base}${p}</loc></sitemap>`))
    .join('\n')}</${root}>`;
const sendXml = (root: 'urlset' | 'sitemapindex', paths: string[]) => (_req: unknown, res: ServerResponse) =>
  res.writeHead(200, { 'content-type': 'application/xml' }).end(xml(root, paths));
beforeAll(async () => {
  site = await startSite({
    '/sitemap-a.xml': sendXml('urlset', ['/article/1', '/article/2']),
    '/sitemap-b.xml': sendXml('urlset', ['/article/2', '/article/3']),
    '/sitemap-nested.xml': sendXml('sitemapindex', ['/sitemap-c.xml']),
    '/sitemap-c.xml': sendXml('urlset', ['/article/4']),
    '/sitemap-held.xml': (_req, res) => {
      held.resolve();
      void holdRelease.promise.then(() => res.writeHead(200, { 'content-type': 'application/xml' }).end(xml('urlset', ['/article/9'])));
    },
    '/list-held.txt': (_req, res) => {
      listHeld.resolve();
      void listRelease.promise.then(() => res.writeHead(200, { 'content-type': 'text/plain' }).end(`${site.base}/article/9\n`));
    },
    '/ledger.txt': (_req, res) => res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' }).end(LEDGER),
    '/min.js': (_req, res) => res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' }).end(`first line\n${MINIFIED}\nlast line\n`),
    '/big.json': (_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(BIG_JSON),
    '/ua': (req, res) => {
      agents.push(String(req.headers['user-agent']));
      res.writeHead(200, { 'content-type': 'text/plain' }).end('recorded');
    },
    '/go-to-sitemap': (_req, res) => res.writeHead(301, { location: '/sitemap-a.xml' }).end(),
    // 352 pages: read for a second or more, in 16-page chunks after the first 4.
    '/book.pdf': (_req, res) => res.writeHead(200, { 'content-type': 'application/pdf' }).end(readFileSync(path.join(__dirname, '../fixtures/pdfs/freeculture.pdf'))),
    // Busy for good, asking for a wait of 30 s: a target that waits while the test looks at it.
    '/busy-long': (_req, res) => res.writeHead(429, { 'content-type': 'text/plain', 'retry-after': '30' }).end('slow down'),
  });
});
afterAll(async () => {
  holdRelease.resolve();
  await site.close();
});

interface Rig {
  s: Services;
  dir: string;
  events: { event: EventName; payload: unknown; at: number }[];
  /** Resolves when an emitted event (already sent or to come) satisfies pred. */
  waitEvent(pred: (e: { event: EventName; payload: unknown }) => boolean): Promise<void>;
  call<M extends Method>(m: M, req?: unknown): Promise<Res<M>>;
  raw(m: string, req?: unknown): Promise<Envelope>;
}
const rigs = closedAfterEach();

function rig(opts: { dir?: string; dialogs?: Partial<Dialogs>; settings?: Record<string, unknown> } = {}): Rig {
  const dir = opts.dir ?? mkdtempSync(path.join(os.tmpdir(), 'sift-services-'));
  const events: Rig['events'] = [];
  const waiters = new Set<{ pred: (e: { event: EventName; payload: unknown }) => boolean; resolve: () => void }>();
  const s = createServices({
    dbPath: path.join(dir, 'sift.db'),
    host: 'bridge',
    logFiles: [path.join(dir, 'sift.log')],
    settings: { allowHosts: ['127.0.0.1'], ...opts.settings },
    emit: (event, payload) => {
      const e = { event, payload, at: Date.now() };
      events.push(e);
      for (const w of waiters) {
        if (!w.pred(e)) continue;
        waiters.delete(w);
        w.resolve();
      }
    },
    dialogs: {
      openFile: async () => null,
      chooseFolder: async () => null,
      saveFile: async () => null,
      ...opts.dialogs,
    },
  });
  rigs.push(s);
  const raw = (m: string, req?: unknown): Promise<Envelope> => dispatch(s.handlers, m, req ?? {}, { checkResponses: true });
  return {
    s,
    dir,
    events,
    raw,
    waitEvent: (pred) =>
      events.some(pred) ? Promise.resolve() : new Promise<void>((resolve) => waiters.add({ pred, resolve })),
    async call(m, req) {
      const env = await raw(m, req);
      if (!env.ok) throw Object.assign(new Error(env.error.message), env.error);
      return env.value as never;
    },
  };
}

/** Resolves when the runner reports a row of job id that satisfies pred (an event, not a clock). */
function rowEvent(r: Rig, id: string, pred: (row: TargetRow) => boolean): Promise<void> {
  return new Promise((resolve) => {
    if (r.s.store.targetRows(id).some(pred)) return resolve();
    const off = r.s.runner.on('target', (jobId, row) => {
      if (jobId !== id || !pred(row)) return;
      off();
      resolve();
    });
  });
}

function until(r: Rig, id: string): Promise<Job> {
  return new Promise((resolve) => {
    const check = (): void => {
      const j = r.s.store.getJob(id);
      if (j && isTerminal(j.status)) return resolve(j);
      setTimeout(check, 20);
    };
    check();
  });
}

describe('services over the contract', () => {
  test('submit, list, detail, result: a job runs and its rows and results come back', async () => {
    const r = rig();
    const { id, reused } = await r.call('submit', {
      targets: [{ url: `${site.base}/article/1` }, { url: `${site.base}/missing/1` }, { url: `${site.base}/data/1.json`, options: { jq: '.items | length' } }],
    });
    expect(reused).toBe(false);
    const job = await until(r, id);
    expect(job).toMatchObject({ status: 'partial', targetsDone: 3, targetsFailed: 1, caller: 'desktop', callerClass: 'desktop' });
    const { jobs } = await r.call('listJobs');
    expect(jobs.map((j) => j.id)).toEqual([id]);
    const detail = await r.call('jobDetail', { id });
    expect(detail.targets.map((t) => [t.status, t.errorStatus])).toEqual([
      ['done', 0],
      ['failed', 404],
      ['done', 0],
    ]);
    expect(detail.targets[0]!.title).toBe('Article 1');
    const res = await r.call('targetResult', { id, idx: 2 });
    expect(res.result?.content).toBe('2');
    // A second identical submit within the lease reuses the job.
    const again = await r.call('submit', {
      targets: [{ url: `${site.base}/article/1` }, { url: `${site.base}/missing/1` }, { url: `${site.base}/data/1.json`, options: { jq: '.items | length' } }],
    });
    expect(again).toEqual({ id, reused: true });
  });

  test('a long result crosses as the part the pane shows, with its size; a hit far in gets the part around its line; the whole only when asked', async () => {
    const r = rig();
    const { id } = await r.call('submit', { targets: [{ url: `${site.base}/ledger.txt` }, { url: `${site.base}/big.json` }, { url: `${site.base}/article/1` }] });
    await until(r, id);
    const first = await r.call('targetResult', { id, idx: 0 });
    expect(first.result?.content).toBe(LEDGER.slice(0, MAX_SHOWN_TEXT));
    expect(first.part).toEqual({ from: 0, firstLine: 1, length: LEDGER.length, laidOut: false, sized: true });
    expect(first.bytes).toBe(Buffer.byteLength(LEDGER));
    // Line 50,000 lies 2.9 MB in: the part starts at a line's start before it and holds it.
    const atHit = await r.call('targetResult', { id, idx: 0, line: 50_000 });
    const part = atHit.part!;
    expect(part.from).toBeGreaterThan(MAX_SHOWN_TEXT);
    expect(atHit.result?.content).toBe(LEDGER.slice(part.from, part.from + MAX_SHOWN_TEXT));
    expect(atHit.result?.content.startsWith(`Line ${part.firstLine}: `)).toBe(true);
    expect(atHit.result?.content).toContain('\nLine 50000: ');
    const whole = await r.call('targetResult', { id, idx: 0, whole: true });
    expect(whole.result?.content).toBe(LEDGER);
    expect(whole.part).toBeUndefined();
    // JSON as the pane shows it, laid out: its first part of lines, not a cut document.
    const json = await r.call('targetResult', { id, idx: 1 });
    const stored = (await r.call('targetResult', { id, idx: 1, whole: true })).result?.content ?? '';
    expect(json.part).toEqual({ from: 0, firstLine: 1, length: stored.length, laidOut: true, sized: true });
    expect(json.result?.content.startsWith('[\n  {\n    "n": 0,')).toBe(true);
    expect(json.result?.content.length).toBe(MAX_SHOWN_TEXT);
    // A result the pane shows whole crosses whole, with no part.
    const short = await r.call('targetResult', { id, idx: 2 });
    expect(short.part).toBeUndefined();
    expect(short.result?.content.length).toBeGreaterThan(0);
  });

  test("a grep's match 1.5 MB into a line of 2 MB crosses in the window of the line around it; the line whole only when asked", async () => {
    const r = rig();
    const { id } = await r.call('submit', { targets: [{ url: `${site.base}/min.js`, options: { grep: 'NEEDLE_HERE', context: true } }] });
    await until(r, id);
    const res = await r.call('targetResult', { id, idx: 0 });
    const lines = res.result?.content.split('\n') ?? [];
    // Grep's context around the line, and the line cut to a few KB either side of its match.
    expect(lines[0]).toBe('first line');
    expect(lines[1]).toContain('NEEDLE_HERE');
    expect(lines[1]?.length).toBeLessThanOrEqual(LINE_WINDOW + 2);
    expect(lines[2]).toBe('last line');
    const whole = (await r.call('targetResult', { id, idx: 0, whole: true })).result?.content ?? '';
    expect(whole.startsWith(`first line\n${MINIFIED}\nlast line`)).toBe(true);
    expect(res.part).toEqual({ from: 0, firstLine: 1, length: whole.length, laidOut: false, sized: false, lines: [{ line: 2, length: MINIFIED.length, from: MINIFIED.indexOf('NEEDLE_HERE') - LINE_WINDOW / 2, match: true }] });
  });

  test('typed errors reach the caller: no targets, too many targets, not found, bad payloads', async () => {
    const r = rig({ settings: { targetsPerJob: 2 } });
    const none = await r.raw('submit', { targets: [] });
    expect(none).toMatchObject({ ok: false, error: { code: 'no_targets', status: 400 } });
    const many = await r.raw('submit', { targets: [{ url: 'http://a.test/1' }, { url: 'http://a.test/2' }, { url: 'http://a.test/3' }] });
    expect(many).toMatchObject({ ok: false, error: { code: 'too_many_targets', status: 422 } });
    expect((many as { error: { hint: string } }).error.hint).toMatch(/Settings/);
    // With the numbers a person needs to split the list.
    expect((many as { error: { message: string } }).error.message).toBe('The list has 3 URLs, and one job holds at most 2.');
    expect(await r.raw('jobDetail', { id: 'nope' })).toMatchObject({ ok: false, error: { code: 'not_found', status: 404 } });
    expect(await r.raw('targetResult', { id: 'nope', idx: 0 })).toMatchObject({ ok: false, error: { code: 'not_found' } });
    expect(await r.raw('submit', { targets: 'x' })).toMatchObject({ ok: false, error: { code: 'invalid_request', status: 400 } });
    expect(await r.raw('targetResult', { id: 'a', idx: -1 })).toMatchObject({ ok: false, error: { code: 'invalid_request' } });
    expect(await r.raw('noSuchChannel', {})).toMatchObject({ ok: false, error: { code: 'unknown_channel' } });
  });

  test('caller busy and busy: the desktop caps hold', async () => {
    const r = rig({ settings: { jobsPerCaller: 1, jobsTotal: 1 } });
    const a = await r.call('submit', { targets: [{ url: `${site.base}/slow/600` }] });
    const b = await r.raw('submit', { targets: [{ url: `${site.base}/slow/601` }] });
    expect(b).toMatchObject({ ok: false, error: { code: 'caller_busy', status: 429 } });
    await until(r, a.id);
  });

  test('cancel, then delete, then run the rest again', async () => {
    const r = rig();
    const targets = Array.from({ length: 8 }, (_, i) => ({ url: `${site.base}/slow/${150 + i}` }));
    const { id } = await r.call('submit', { targets });
    // Mid-job: two targets stored, the third in flight.
    await rowEvent(r, id, (t) => t.idx === 2 && t.status === 'running');
    expect(await r.raw('deleteJob', { id })).toMatchObject({ ok: false, error: { code: 'job_running', status: 409 } });
    expect(await r.call('cancelJob', { id })).toEqual({ cancelled: true });
    const job = await until(r, id);
    expect(job.status).toBe('cancelled');
    expect(await r.call('cancelJob', { id })).toEqual({ cancelled: false });
    // Rule 6: the job is cancelled at once; the target in flight is stored when it ends.
    await expect.poll(() => r.s.store.targetRows(id).some((t) => t.status === 'running')).toBe(false);
    const rows = r.s.store.targetRows(id);
    const unfinished = rows.filter((t) => t.status === 'pending' || t.error === 'cancelled').length;
    expect(unfinished).toBeGreaterThan(0);
    const rest = await r.call('runRest', { id });
    expect(rest.targets).toBe(unfinished);
    const restJob = await until(r, rest.id);
    expect(restJob.status).toBe('done');
    expect(r.s.store.targetRows(rest.id).map((t) => t.url)).toEqual(rows.filter((t) => t.status === 'pending' || t.error === 'cancelled').map((t) => t.url));
    expect(await r.raw('runRest', { id: rest.id })).toMatchObject({ ok: false, error: { code: 'nothing_to_run' } });
    expect(await r.call('deleteJob', { id })).toEqual({ deleted: true });
    expect(r.events.some((e) => e.event === 'jobRemoved' && (e.payload as { id: string }).id === id)).toBe(true);
    expect((await r.call('listJobs')).jobs.map((j) => j.id)).toEqual([rest.id]);
  });

  test('"run the rest again" asked twice starts one job: the second ask is answered with the job the first started', async () => {
    const r = rig();
    const targets = Array.from({ length: 3 }, (_, i) => ({ url: `${site.base}/slow/${60_000 + i}` }));
    const { id } = await r.call('submit', { targets });
    await rowEvent(r, id, (t) => t.idx === 0 && t.status === 'running');
    await r.call('cancelJob', { id });
    await until(r, id);
    await expect.poll(() => r.s.store.targetRows(id).some((t) => t.status === 'running')).toBe(false);
    // A double-click: the second ask leaves before the first is answered.
    const [first, second] = await Promise.all([r.call('runRest', { id }), r.call('runRest', { id })]);
    expect(first).toMatchObject({ reused: false, targets: 3 });
    expect(second).toEqual({ ...first, reused: true });
    expect((await r.call('listJobs')).jobs.map((j) => j.id)).toEqual([first.id, id]);
    r.s.runner.cancel(first.id);
    await until(r, first.id);
  });

  test('a job interrupted by a restart shows as failed (restart) and its rest runs again', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'sift-restart-'));
    const first = rig({ dir });
    const { id } = await first.call('submit', { targets: Array.from({ length: 6 }, (_, i) => ({ url: `${site.base}/slow/${200 + i}` })) });
    await rowEvent(first, id, (t) => t.idx === 1 && t.status === 'running');
    // A restart without a clean shutdown: drop the services as a crash would leave them.
    first.s.store.close();
    rigs.splice(rigs.indexOf(first.s), 1);
    void first.s.close().catch(() => {});
    const second = rig({ dir });
    const job = second.s.store.getJob(id)!;
    expect(job).toMatchObject({ status: 'failed', error: 'restart' });
    const rest = await second.call('runRest', { id });
    expect(rest.targets).toBeGreaterThan(0);
    expect((await until(second, rest.id)).status).toBe('done');
  });

  test('quitting the app during a download stores it "interrupted" after the grace; at the next start run the rest again takes it', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'sift-quit-'));
    const first = rig({ dir });
    const targets = [{ url: `${site.base}/article/1` }, { url: `${site.base}/slow/120000` }, { url: `${site.base}/article/3` }];
    const { id } = await first.call('submit', { targets });
    await rowEvent(first, id, (t) => t.idx === 1 && t.status === 'running');
    rigs.splice(rigs.indexOf(first.s), 1);
    await first.s.close({ graceMs: 0 });
    const second = rig({ dir });
    expect(second.s.store.getJob(id)).toMatchObject({ status: 'failed', error: 'restart', targetsDone: 2, targetsFailed: 1 });
    const rows = second.s.store.targetRows(id);
    expect(rows.map((t) => [t.status, t.error])).toEqual([
      ['done', ''],
      ['failed', 'interrupted'],
      ['pending', ''],
    ]);
    expect(rows[1]!.hint).toMatch(/closing.*run the rest again/);
    const logged = readFileSync(path.join(dir, 'sift.log'), 'utf8');
    expect(logged).toMatch(/"level":30/);
    expect(logged).not.toMatch(/"level":(50|"error")/);
    const rest = await second.call('runRest', { id });
    expect(rest.targets).toBe(2);
    expect(second.s.store.targetRows(rest.id).map((t) => t.url)).toEqual([targets[1]!.url, targets[2]!.url]);
    second.s.runner.cancel(rest.id);
  });

  test('the same list again is the finished job; "fetch all again" fetches every target anew, with its options', async () => {
    const r = rig();
    const targets = [{ url: `${site.base}/article/31` }, { url: `${site.base}/missing/32` }, { url: `${site.base}/article/33`, options: { mode: 'text' } }];
    const { id } = await r.call('submit', { targets });
    expect((await until(r, id)).status).toBe('partial');
    expect(await r.call('submit', { targets })).toEqual({ id, reused: true });
    const all = await r.call('runRest', { id, which: 'all' });
    expect(all).toMatchObject({ reused: false, targets: 3 });
    expect(all.id).not.toBe(id);
    expect((await until(r, all.id)).status).toBe('partial');
    const again = r.s.store.targetRows(all.id);
    expect(again.map((t) => [t.url, t.options ?? {}, t.status])).toEqual([
      [targets[0]!.url, {}, 'done'],
      [targets[1]!.url, {}, 'failed'],
      [targets[2]!.url, { mode: 'text' }, 'done'],
    ]);
    // The new job is the one the same list reuses from now on; the old one stays readable.
    expect(await r.call('submit', { targets })).toEqual({ id: all.id, reused: true });
    expect(r.s.store.targetRows(id)).toHaveLength(3);
  });

  test('jobs of similar lists are named apart: by their hosts, folder and options, and a run again by its source', async () => {
    const r = rig();
    const host = new URL(site.base).host;
    const news = [{ url: `${site.base}/article/41` }, { url: `${site.base}/missing/42` }];
    const texts = news.map((t) => ({ ...t, options: { mode: 'text' as const } }));
    const a = await r.call('submit', { targets: news });
    const b = await r.call('submit', { targets: texts });
    await until(r, a.id);
    await until(r, b.id);
    const label = (id: string) => r.s.store.getJob(id)?.label;
    expect(label(a.id)).toBe(host);
    expect(label(b.id)).toBe(`${host} · text`);
    // The file's name, when the list came from one, is kept as it was given.
    const named = await r.call('submit', { targets: [{ url: `${site.base}/article/43` }], label: 'reading-list.txt' });
    expect(label(named.id)).toBe('reading-list.txt');
    // With what is asked of it after the name: a second run of the file with a grep read "reading-list.txt" too.
    const grepped = await r.call('submit', { targets: [{ url: `${site.base}/article/44`, options: { grep: 'Paragraph', render: 'never' } }], label: 'reading-list.txt' });
    expect(label(grepped.id)).toBe('reading-list.txt · grep “Paragraph”, render never');
    await until(r, grepped.id);
    const failed = await r.call('runRest', { id: a.id, which: 'failed' });
    expect(label(failed.id)).toBe(`retry of ${host}`);
    await until(r, failed.id);
    const all = await r.call('runRest', { id: b.id, which: 'all' });
    expect(label(all.id)).toBe(`again: ${host} · text`);
    await until(r, all.id);
    const upstream = await r.call('runRest', { id: a.id, reason: 'upstream' });
    expect(label(upstream.id)).toBe(`retry of ${host} (HTTP error)`);
    await until(r, upstream.id);
  });

  test('"run the rest again" of a job interrupted before any target finished starts a new job, not the dead one', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'sift-restart0-'));
    const first = rig({ dir });
    const targets = [{ url: `${site.base}/slow/1500` }, { url: `${site.base}/article/9` }];
    const { id } = await first.call('submit', { targets });
    await rowEvent(first, id, (t) => t.idx === 0 && t.status === 'running');
    first.s.store.close();
    rigs.splice(rigs.indexOf(first.s), 1);
    void first.s.close().catch(() => {});
    const second = rig({ dir });
    expect(second.s.store.getJob(id)).toMatchObject({ status: 'failed', error: 'restart', targetsDone: 1, targetsFailed: 1 });
    // The rest is the whole list, the same targets the job was submitted with.
    const rest = await second.call('runRest', { id });
    expect(rest).toMatchObject({ reused: false, targets: 2 });
    expect(rest.id).not.toBe(id);
    expect((await until(second, rest.id)).status).toBe('done');
    // A plain identical submit now reuses the new job, not the interrupted one.
    expect(await second.call('submit', { targets })).toEqual({ id: rest.id, reused: true });
  });

  test('events: rows and job changes arrive batched (≤ 10 messages a second per job) and none is lost', async () => {
    const r = rig();
    const targets = Array.from({ length: 60 }, (_, i) => ({ url: `${site.base}/article/${i}` }));
    const { id } = await r.call('submit', { targets });
    const job = await until(r, id);
    // The batcher's last message for the job: its terminal status, sent after the rows.
    await r.waitEvent((e) => e.event === 'jobChanged' && (e.payload as Job).id === id && isTerminal((e.payload as Job).status));
    const mine = r.events.filter((e) => (e.event === 'jobChanged' && (e.payload as Job).id === id) || (e.event === 'targetsChanged' && (e.payload as { jobId: string }).jobId === id));
    // Replaying the events gives exactly the stored rows and job.
    const rows = new Map<number, unknown>();
    let last: Job | undefined;
    for (const e of mine) {
      if (e.event === 'targetsChanged') for (const row of (e.payload as { rows: { idx: number }[] }).rows) rows.set(row.idx, row);
      else last = e.payload as Job;
    }
    expect([...rows.values()].sort((a, b) => (a as { idx: number }).idx - (b as { idx: number }).idx)).toEqual(r.s.store.targetRows(id));
    expect(last).toEqual(job);
    // The batcher sends at most one targetsChanged and one jobChanged per flush, a timed flush
    // at most every 200 ms, plus the terminal one. Counted by flushes, not as a rate: a job that
    // ends in 1.3 s makes 7 timed flushes and a terminal one (16 messages, 12 a second), and a
    // busy machine only spaces flushes further apart.
    const spanMs = mine.at(-1)!.at - mine[0]!.at;
    const flushes = Math.floor(spanMs / 199) + 1 + 1;
    expect(mine.length).toBeLessThanOrEqual(2 * flushes);
    expect(mine.length).toBeLessThan(targets.length * 2);
  });

  test('a target waiting on a busy site says so in its row: in the events, in a job view opened meanwhile, until it changes', async () => {
    const r = rig();
    const { id } = await r.call('submit', { targets: [{ url: `${site.base}/busy-long` }] });
    const waitingRow = (e: { event: EventName; payload: unknown }): boolean =>
      e.event === 'targetsChanged' && (e.payload as { jobId: string; rows: TargetRow[] }).jobId === id && (e.payload as { rows: TargetRow[] }).rows.some((row) => row.wait);
    await r.waitEvent(waitingRow);
    const sent = r.events.filter(waitingRow).flatMap((e) => (e.payload as { rows: TargetRow[] }).rows)[0]!;
    // The site's Retry-After (30 s) is longer than the runner's 2 s between tries, and fits the minute.
    const wait = { waitMs: 30_000, why: 'the site answered HTTP 429 Too Many Requests', last: false };
    expect(sent).toMatchObject({ idx: 0, status: 'running', wait });
    expect(sent.wait!.until).toBeGreaterThan(Date.now());
    // The store has no waits: a view opened mid-wait gets it from the runner.
    const detail = await r.call('jobDetail', { id });
    expect(detail.targets[0]).toMatchObject({ status: 'running', wait: { ...wait, until: sent.wait!.until } });
    await r.call('cancelJob', { id });
    await rowEvent(r, id, (row) => row.status === 'failed');
    const after = await r.call('jobDetail', { id });
    expect(after.targets[0]).toMatchObject({ status: 'failed', error: 'cancelled' });
    expect(after.targets[0]!.wait).toBeUndefined();
  });

  test("a PDF being read says how far in its row: in the events, in a job view opened meanwhile, and no more once it is done", async () => {
    const r = rig();
    // A view opened at the runner's first count of pages, while the book is still being read.
    let opened: Promise<Res<'jobDetail'>> | undefined;
    const off = r.s.runner.on('pages', (jobId) => {
      opened ??= Promise.resolve(r.s.handlers.jobDetail({ id: jobId }));
    });
    const { id } = await r.call('submit', { targets: [{ url: `${site.base}/book.pdf` }] });
    await until(r, id);
    off();
    await r.waitEvent((e) => e.event === 'jobChanged' && (e.payload as Job).id === id && isTerminal((e.payload as Job).status));
    const rows = r.events
      .filter((e) => e.event === 'targetsChanged' && (e.payload as { jobId: string }).jobId === id)
      .flatMap((e) => (e.payload as { rows: TargetRow[] }).rows);
    const reading = rows.filter((row) => row.pagesRead);
    expect(reading.length).toBeGreaterThanOrEqual(1);
    for (const row of reading) expect(row).toMatchObject({ idx: 0, status: 'running', pagesRead: { total: 352 } });
    expect(rows.at(-1)).toMatchObject({ status: 'done' });
    expect(rows.at(-1)!.pagesRead).toBeUndefined();
    expect(opened).toBeDefined();
    expect((await opened!).targets[0]).toMatchObject({ status: 'running', pagesRead: { done: 4, total: 352 } });
    expect((await r.call('jobDetail', { id })).targets[0]!.pagesRead).toBeUndefined();
  });

  test('settings: validated, persisted to settings.json, applied to the runner and the guard', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'sift-settings-'));
    const r = rig({ dir, settings: {} });
    const bad = await r.raw('setSettings', { settings: { workers: 0 } });
    expect(bad).toMatchObject({ ok: false, error: { code: 'invalid_request' } });
    const worse = await r.raw('setSettings', { settings: { jobsPerCaller: 9, jobsTotal: 8 } });
    expect(worse).toMatchObject({ ok: false, error: { code: 'bad_setting', status: 400 } });
    const next = await r.call('setSettings', { settings: { workers: 2, allowHosts: ['127.0.0.1', 'intranet.example'], userAgent: 'TestAgent/1' } });
    expect(next).toMatchObject({ workers: 2, userAgent: 'TestAgent/1' });
    const saved = JSON.parse(readFileSync(path.join(dir, 'settings.json'), 'utf8')) as Record<string, unknown>;
    expect(saved).toMatchObject({ workers: 2, userAgent: 'TestAgent/1' });
    await r.s.close();
    rigs.splice(rigs.indexOf(r.s), 1);
    const again = rig({ dir, settings: {} });
    expect(await again.call('getSettings')).toMatchObject({ workers: 2, userAgent: 'TestAgent/1' });
  });

  test('a damaged settings.json is told at start, and kept aside before a save writes a new one', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'sift-settings-'));
    const file = path.join(dir, 'settings.json');
    const damaged = '{ "workers": "two", "userAgent": "Kept/1" }\n';
    writeFileSync(file, damaged);
    const r = rig({ dir, settings: {} });
    const { settingsNote } = await r.call('appInfo');
    expect(settingsNote?.message).toMatch(/^Your saved settings were not used: .*workers.*\. Sift runs with the default settings\.$/);
    expect(settingsNote?.hint).toContain(`${file}.bad`);
    await r.call('setSettings', { settings: { workers: 2 } });
    expect(readFileSync(`${file}.bad`, 'utf8')).toBe(damaged);
    // A file Sift may not read at all (here a folder by that name) is told too, not taken for a fresh install.
    const other = mkdtempSync(path.join(os.tmpdir(), 'sift-settings-'));
    mkdirSync(path.join(other, 'settings.json'));
    const q = rig({ dir: other, settings: {} });
    expect((await q.call('appInfo')).settingsNote?.message).toMatch(/settings\.json could not be read \(EISDIR\)/);
    // A fresh install has nothing to tell.
    expect((await rig({ settings: {} }).call('appInfo')).settingsNote).toBeUndefined();
  });

  test('settings that cannot be written are refused in words the user can act on, and nothing changes', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'sift-settings-'));
    const r = rig({ dir, settings: {} });
    // What stands where settings.json goes cannot be replaced (root writes through read-only modes).
    mkdirSync(path.join(dir, 'settings.json'));
    writeFileSync(path.join(dir, 'settings.json', 'x'), '');
    const res = await r.raw('setSettings', { settings: { workers: 3 } });
    expect(res).toMatchObject({ ok: false, error: { code: 'settings_not_saved', message: expect.stringMatching(/^The settings could not be saved \(E[A-Z]+ writing .*settings\.json\)\.$/) } });
    expect((await r.call('getSettings')).workers).toBe(4);
    expect(readdirSync(dir).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });

  test('a user agent saved in Settings is the one the next job sends; one that could not be a header is refused', async () => {
    const r = rig({ dir: mkdtempSync(path.join(os.tmpdir(), 'sift-settings-')), settings: {} });
    // A line break or a non-ASCII character made every fetch fail as "connection failed".
    for (const userAgent of ['Mine/2\nX-Other: 1', 'Mine—2']) {
      expect(await r.raw('setSettings', { settings: { userAgent } })).toMatchObject({ ok: false });
    }
    await r.call('setSettings', { settings: { userAgent: 'Mine/2 (+https://example.org)' } });
    const { id } = await r.call('submit', { targets: [{ url: `${site.base}/ua?job=1` }] });
    expect(await until(r, id)).toMatchObject({ status: 'done' });
    expect(agents.at(-1)).toBe('Mine/2 (+https://example.org)');
  });

  test('preview fetches one URL as the interactive caller, and checkOptions reports bad pages, grep and jq', async () => {
    const r = rig();
    const res = await r.call('preview', { target: { url: `${site.base}/article/5`, options: { mode: 'text' } } });
    expect(res.content).toContain('Paragraph 1 of article 5');
    // Its size as a job would store it: the pane encoded the whole content again to count it.
    const ledger = await r.call('preview', { target: { url: `${site.base}/ledger.txt` } });
    expect(ledger.bytes).toBe(Buffer.byteLength(ledger.content));
    expect(ledger.bytes).toBeGreaterThan(ledger.content.length);
    expect((await r.call('listJobs')).jobs.length).toBe(0);
    const blocked = await r.raw('preview', { target: { url: 'http://10.9.8.7/' } });
    expect(blocked).toMatchObject({ ok: false, error: { status: 403, message: 'blocked' } });
    expect(await r.call('checkOptions', { options: { pages: '1-3,7,10-', grep: 'net (revenue|income)', jq: '.items[] | .name' } })).toEqual({ ok: true });
    const pages = await r.call('checkOptions', { options: { pages: '3-1' } });
    expect(pages.ok).toBe(false);
    expect(pages.error?.hint).toMatch(/1-3,7,10-/);
    const grep = await r.call('checkOptions', { options: { grep: '(unclosed' } });
    // The app shows this message under the field: the pattern and its problem, not V8's wording.
    expect(grep.error?.message).toBe('invalid grep expression "(unclosed": a ( has no ) to close it');
    const jq = await r.call('checkOptions', { options: { jq: '.items[' } });
    expect(jq.error?.message).toMatch(/^jq: syntax error/);
    // jq's message points into the user's program, never into the check's own wrapping of it,
    // on one line (the form shows it as a sentence, where jq's caret drawing ran together).
    expect(jq.error?.message).not.toMatch(/empty|if false|line 2|\n/);
    expect(jq.error?.message).toBe('jq: syntax error, unexpected end of the program at column 7 ("[")');
    // Names are bound when compiled, so an unknown function or variable is caught up front too.
    for (const [program, unknown] of [
      ['.a | nosuchfn(1)', 'nosuchfn/1 is not defined at column 6 ("nosuchfn")'],
      ['.items[] | $x', '$x is not defined at column 12 ("$x")'],
    ]) {
      const res = await r.call('checkOptions', { options: { jq: program } });
      expect(res.error?.message).toBe(`jq: ${unknown}`);
    }
    // A program that fails only when run on some document is not a compile error.
    expect(await r.call('checkOptions', { options: { jq: '.items[] | error("no")' } })).toEqual({ ok: true });
  });

  test('checkOptions names the options its error is about, so the form can mark those fields', async () => {
    const r = rig();
    const fields = async (options: Record<string, unknown>) => (await r.call('checkOptions', { options })).fields;
    expect(await fields({ pages: '3-1', grep: 'fine', jq: '.a' })).toEqual(['pages']);
    expect(await fields({ pages: '1-3', grep: '(unclosed', jq: '.a' })).toEqual(['grep']);
    expect(await fields({ grep: 'fine', jq: '.items[' })).toEqual(['jq']);
    expect(await fields({ mode: 'raw', jq: '.a' })).toEqual(['jq', 'mode']);
    expect(await fields({ mode: 'links', question: 'what?' })).toEqual(['question', 'mode']);
    expect(await r.call('checkOptions', { options: { pages: '1-3', grep: 'x', jq: '.a' } })).toEqual({ ok: true });
  });

  /** The chosen file's bytes as the renderer pulls them: one piece at a time, by the dialog's token. */
  async function readChosen(r: Rig, token: string): Promise<{ bytes: Buffer; pieces: number }> {
    const parts: Buffer[] = [];
    for (let offset = 0; ; ) {
      const piece = await r.call('readListFile', { token, offset });
      if (piece.bytes === 0) return { bytes: Buffer.concat(parts), pieces: parts.length };
      parts.push(Buffer.from(piece.data, 'base64'));
      offset += piece.bytes;
    }
  }

  test('openListFile gives a token for the file the user chose, never its text; readListFile reads that file only, by the token', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'sift-open-'));
    const file = path.join(dir, 'reading.csv');
    // 2.5 MiB, bytes of every value: three pieces, and nothing lost to an encoding.
    const content = Buffer.from(Array.from({ length: 2.5 * 1024 * 1024 }, (_, i) => (i * 7) % 256));
    writeFileSync(file, content);
    const other = path.join(dir, 'other.txt');
    writeFileSync(other, 'https://example.org/other\n');
    let chosen = file;
    let offered: { name: string; extensions: string[] }[] = [];
    const r = rig({
      dialogs: {
        openFile: async (filters) => {
          offered = filters;
          return chosen;
        },
      },
    });
    const opened = await r.call('openListFile');
    expect(opened).toEqual({ token: expect.stringMatching(/^[0-9a-f]{32}$/), name: 'reading.csv', bytes: content.length });
    // The dialog offers every kind of list Sift reads: sitemaps and OPML too.
    expect(offered[0]?.extensions).toEqual(expect.arrayContaining(['txt', 'csv', 'tsv', 'md', 'html', 'json', 'jsonl', 'xml', 'opml', 'rss', 'atom']));
    const read = await readChosen(r, opened!.token);
    expect(read.pieces).toBe(3);
    expect(read.bytes.equals(content)).toBe(true);
    // The renderer names no path, on either channel; a token it made up reads nothing.
    expect(await r.raw('openListFile', { path: '/etc/passwd' })).toMatchObject({ ok: false, error: { code: 'invalid_request' } });
    expect(await r.raw('readListFile', { path: '/etc/passwd', offset: 0 })).toMatchObject({ ok: false, error: { code: 'invalid_request' } });
    expect(await r.raw('readListFile', { token: opened!.token, path: '/etc/passwd', offset: 0 })).toMatchObject({ ok: false, error: { code: 'invalid_request' } });
    expect(await r.raw('readListFile', { token: 'f'.repeat(32), offset: 0 })).toMatchObject({ ok: false, error: { code: 'not_chosen', message: expect.stringMatching(/^This file is no longer/) } });
    // A newer choice replaces the older: its token reads nothing more.
    chosen = other;
    const next = await r.call('openListFile');
    expect((await readChosen(r, next!.token)).bytes.toString()).toBe('https://example.org/other\n');
    expect(await r.raw('readListFile', { token: opened!.token, offset: 0 })).toMatchObject({ ok: false, error: { code: 'not_chosen' } });
    const none = rig();
    expect(await none.call('openListFile')).toBeNull();
  });

  test('a chosen file that vanished before it was read, or a folder, is said plainly, not as a bug', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'sift-open-'));
    const gone = path.join(dir, 'gone.txt');
    const later = path.join(dir, 'later.txt');
    let chosen = gone;
    const r = rig({ dialogs: { openFile: async () => chosen } });
    const unreadable = (name: string) => ({ ok: false, error: { code: 'unreadable', message: `Could not read ${name}.`, hint: 'Check that the file still exists and that you can open it.' } });
    // Deleted between the dialog and the read.
    expect(await r.raw('openListFile')).toMatchObject(unreadable('gone.txt'));
    chosen = dir;
    expect(await r.raw('openListFile')).toMatchObject(unreadable(path.basename(dir)));
    // Deleted once chosen, while its pieces are read.
    writeFileSync(later, 'https://example.org/a\n');
    chosen = later;
    const opened = await r.call('openListFile');
    rmSync(later);
    expect(await r.raw('readListFile', { token: opened!.token, offset: 0 })).toMatchObject(unreadable('later.txt'));
  });

  test('export writes only where the user chose, with progress events', async () => {
    const out = mkdtempSync(path.join(os.tmpdir(), 'sift-export-'));
    const r = rig({ dialogs: { chooseFolder: async () => out } });
    const { id } = await r.call('submit', { targets: [{ url: `${site.base}/article/1` }, { url: `${site.base}/article/2` }, { url: `${site.base}/missing/3` }] });
    await until(r, id);
    expect(await r.raw('exportJob', { id, token: 'made-up', format: 'md' })).toMatchObject({ ok: false, error: { code: 'bad_export_target' } });
    const target = await r.call('chooseExportTarget', { id, format: 'md' });
    expect(target?.path).toBe(out);
    const summary = await r.call('exportJob', { id, token: target!.token, format: 'md', includeFailed: true });
    expect(summary).toMatchObject({ targets: 3, failed: 1 });
    expect(existsSync(summary.path)).toBe(true);
    const files = readdirSync(summary.path).sort();
    expect(files.filter((f) => !f.endsWith('(failed).txt'))).toEqual(['Article 1.md', 'Article 2.md', 'failed.txt', 'manifest.jsonl']);
    // Failed targets were asked for: the missing page has a file saying so.
    expect(files.filter((f) => f.endsWith('(failed).txt'))).toHaveLength(1);
    const progress = r.events.filter((e) => e.event === 'exportProgress').map((e) => e.payload as { done: number; total: number });
    expect(progress.at(-1)).toEqual({ token: target!.token, done: 3, total: 3 });
    const cancelled = rig({ dialogs: { chooseFolder: async () => null } });
    expect(await cancelled.call('chooseExportTarget', { id, format: 'zip' })).toBeNull();
  });

  test('an export stopped while it runs, or before its request arrives, writes nothing and says so', async () => {
    const out = mkdtempSync(path.join(os.tmpdir(), 'sift-export-stop-'));
    const r = rig({ dialogs: { chooseFolder: async () => out } });
    const { id } = await r.call('submit', { targets: [1, 2, 3, 4].map((n) => ({ url: `${site.base}/article/${n}` })) });
    await until(r, id);
    for (const format of ['md', 'zip', 'jsonl'] as const) {
      const { token } = (await r.call('chooseExportTarget', { id, format }))!;
      // Stopped at its first progress event, before any target is written.
      const stopped = r.waitEvent((e) => e.event === 'exportProgress' && (e.payload as { token: string }).token === token);
      const running = r.raw('exportJob', { id, token, format });
      await stopped;
      expect(await r.call('cancelExport', { token })).toEqual({ cancelled: true });
      expect(await running).toMatchObject({ ok: false, error: { code: 'cancelled', message: 'export cancelled; nothing was written' } });
      expect(readdirSync(out)).toEqual([]);
      // The destination served that export; stopping it again stops nothing.
      expect(await r.call('cancelExport', { token })).toEqual({ cancelled: false });
    }
    // The stop arrives first (the two requests travel apart): the export does not start.
    const { token } = (await r.call('chooseExportTarget', { id, format: 'md' }))!;
    expect(await r.call('cancelExport', { token })).toEqual({ cancelled: true });
    expect(await r.raw('exportJob', { id, token, format: 'md' })).toMatchObject({ ok: false, error: { code: 'cancelled' } });
    expect(readdirSync(out)).toEqual([]);
    // A finished export cannot be stopped, and a token from nowhere stops nothing.
    const next = (await r.call('chooseExportTarget', { id, format: 'csv' }))!;
    expect(await r.call('exportJob', { id, token: next.token, format: 'csv' })).toMatchObject({ targets: 4 });
    expect(await r.call('cancelExport', { token: next.token })).toEqual({ cancelled: false });
    expect(await r.call('cancelExport', { token: 'made-up' })).toEqual({ cancelled: false });
  });

  test('an export stopped while its last step runs, the bar full, writes nothing and says so', async () => {
    const out = mkdtempSync(path.join(os.tmpdir(), 'sift-export-late-stop-'));
    const r = rig({ dialogs: { chooseFolder: async () => out } });
    const { id } = await r.call('submit', { targets: [1, 2, 3, 4].map((n) => ({ url: `${site.base}/article/${n}` })) });
    await until(r, id);
    for (const format of ['zip', 'combined', 'md', 'jsonl', 'csv'] as const) {
      const { token } = (await r.call('chooseExportTarget', { id, format }))!;
      // Every target is written when the bar reads full; the zip's listing and directory are not.
      const full = r.waitEvent((e) => e.event === 'exportProgress' && (e.payload as { token: string; done: number }).token === token && (e.payload as { done: number }).done === 4);
      const running = r.raw('exportJob', { id, token, format });
      await full;
      expect(await r.call('cancelExport', { token }), format).toEqual({ cancelled: true });
      expect(await running, format).toMatchObject({ ok: false, error: { code: 'cancelled', message: 'export cancelled; nothing was written' } });
      expect(readdirSync(out), format).toEqual([]);
    }
  });

  test("a sitemap index's sitemaps are read for their pages, with the index's lines, progress and what failed", async () => {
    const r = rig();
    const sitemaps = [
      { url: `${site.base}/sitemap-a.xml`, line: 3 },
      { url: `${site.base}/sitemap-gone.xml`, line: 4 },
      { url: `${site.base}/sitemap-b.xml`, line: 5 },
      { url: `${site.base}/sitemap-nested.xml`, line: 6 },
    ];
    const x = await r.call('readSitemapIndex', { token: 't1', sitemaps });
    // Pages once each, in the order the sitemaps list them; a nested index's pages take its line.
    expect(x.pages.map((p) => [p.url.slice(site.base.length), p.line])).toEqual([
      ['/article/1', 3],
      ['/article/2', 3],
      ['/article/3', 5],
      ['/article/4', 6],
    ]);
    expect(x).toMatchObject({ read: 4, skipped: 0, capped: false, failures: [{ url: `${site.base}/sitemap-gone.xml`, line: 4, why: expect.stringMatching(/404/) }] });
    const progress = r.events.filter((e) => e.event === 'sitemapProgress').map((e) => e.payload);
    expect(progress.at(-1)).toEqual({ token: 't1', done: 5, total: 5, pages: 4 });
    // The pages are a list the runner takes as it is.
    const { id } = await r.call('submit', { targets: x.pages.map((p) => ({ url: p.url })) });
    expect((await until(r, id)).targetsDone).toBe(4);
  });

  test('reading a sitemap index stops when asked, and another reading, or none, is not stopped', async () => {
    const r = rig();
    expect(await r.call('stopReadingSitemaps', { token: 'none' })).toEqual({ stopped: false });
    const reading = r.raw('readSitemapIndex', { token: 't2', sitemaps: [{ url: `${site.base}/sitemap-held.xml`, line: 1 }] });
    await held.promise;
    expect(await r.call('stopReadingSitemaps', { token: 'other' })).toEqual({ stopped: false });
    expect(await r.call('stopReadingSitemaps', { token: 't2' })).toEqual({ stopped: true });
    expect(await reading).toMatchObject({ ok: false, error: { code: 'cancelled', message: 'Reading the sitemaps stopped.' } });
    expect(await r.call('stopReadingSitemaps', { token: 't2' })).toEqual({ stopped: false });
    // A blocked sitemap says how to let it through; bad payloads are refused by the contract.
    const blocked = await r.call('readSitemapIndex', { token: 't3', sitemaps: [{ url: 'http://127.0.0.2:9/sitemap.xml', line: 2 }] });
    expect(blocked).toMatchObject({ pages: [], read: 0, failures: [{ line: 2, why: expect.stringMatching(/--allow-host|allow/i) }] });
    expect(await r.raw('readSitemapIndex', { token: 't4', sitemaps: [] })).toMatchObject({ ok: false, error: { code: 'invalid_request' } });
  });

  test('the list at an address is fetched as it is, named by where it came from, and a stop or a refusal says so', async () => {
    const r = rig();
    const x = await r.call('readListAt', { token: 'l1', url: `${site.base}/go-to-sitemap` });
    // After the redirect: the name, the file name (its format) and what links resolve against.
    expect(x).toMatchObject({ name: `${site.base.replace('http://', '')}/sitemap-a.xml`, filename: 'sitemap-a.xml', base: `${site.base}/sitemap-a.xml`, mimeType: 'application/xml' });
    expect(x.text).toContain(`<loc>${site.base}/article/2</loc>`);
    expect(x.bytes).toBe(Buffer.byteLength(x.text));
    // A document is no list; the guard's refusal says how to let the address through.
    expect(await r.raw('readListAt', { token: 'l2', url: `${site.base}/doc/1.pdf` })).toMatchObject({
      ok: false,
      error: { code: 'not_a_list', message: 'The address gives application/pdf, not a list of URLs.' },
    });
    expect(await r.raw('readListAt', { token: 'l3', url: 'http://127.0.0.2:9/list.txt' })).toMatchObject({ ok: false, error: { code: 'blocked', hint: expect.stringMatching(/allow/i) } });
    expect(await r.raw('readListAt', { token: 'l4', url: '' })).toMatchObject({ ok: false, error: { code: 'invalid_request' } });
    // Stopped when asked; another token, or one already ended, stops nothing.
    expect(await r.call('stopReadingList', { token: 'none' })).toEqual({ stopped: false });
    const reading = r.raw('readListAt', { token: 'l5', url: `${site.base}/list-held.txt` });
    await listHeld.promise;
    expect(await r.raw('readListAt', { token: 'l5', url: `${site.base}/list-held.txt` })).toMatchObject({ ok: false, error: { code: 'busy' } });
    expect(await r.call('stopReadingList', { token: 'l1' })).toEqual({ stopped: false });
    expect(await r.call('stopReadingList', { token: 'l5' })).toEqual({ stopped: true });
    expect(await reading).toMatchObject({ ok: false, error: { code: 'cancelled', message: 'Reading the list stopped.' } });
    expect(await r.call('stopReadingList', { token: 'l5' })).toEqual({ stopped: false });
    listRelease.resolve();
  });

  test('Export hits suggests a name made of the query, never half a character nor a trailing dash', async () => {
    const names: string[] = [];
    const r = rig({ dialogs: { saveFile: async (name) => (names.push(name), null) } });
    // A rare ideograph is two UTF-16 units; the 40th character is a space.
    for (const query of [`a${'𠀋'.repeat(50)}`, 'annual report 2023 net revenue and cost fell']) await r.call('exportHits', { query, format: 'md' });
    expect(names).toEqual([`sift-search-a${'𠀋'.repeat(39)}.md`, 'sift-search-annual-report-2023-net-revenue-and-cost.md']);
  });

  test('Export hits of a search more results match than it writes says it wrote the best of them, in the file and the reply', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'sift-hits-'));
    const r = rig({ dialogs: { saveFile: async (name) => path.join(dir, name) } });
    const { id } = await r.call('submit', { targets: [1, 2, 3].map((n) => ({ url: `${site.base}/article/${n}` })) });
    await until(r, id);
    const some = await r.call('exportHits', { query: 'navigation', id, format: 'md', limit: 2 });
    expect(some).toMatchObject({ hits: 2, more: true });
    expect(readFileSync(some!.path, 'utf8')).toContain(`The best 2 hits in job ${id} (`);
    expect(readFileSync(some!.path, 'utf8')).toContain('; more results match than these.');
    const all = await r.call('exportHits', { query: 'navigation', id, format: 'md', limit: 3 });
    expect(all).toMatchObject({ hits: 3, more: false });
    expect(readFileSync(all!.path, 'utf8')).toContain(`3 hits in job ${id}, best first (`);
  });

  test('metrics: the Activity snapshot counts what ran', async () => {
    const r = rig();
    const { id } = await r.call('submit', { targets: [{ url: `${site.base}/article/1` }, { url: `${site.base}/missing/2` }] });
    await until(r, id);
    const m = await r.call('metrics');
    expect(m.targets).toMatchObject({ ok: 1, upstream_4xx: 1 });
    expect(m.jobs).toMatchObject({ partial: 1 });
    expect(m.targetSeconds.count).toBe(2);
  });
});
