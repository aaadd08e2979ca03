import { writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { makeBatchFetch } from '../../src/main/batchrun';
import type { FetchFunc } from '../../src/main/batch';
import { createFetcher, type Fetcher } from '../../src/main/fetch';
import { silentLog } from '../../src/main/log';
import { BatchMetrics } from '../../src/main/metrics';
import { createServices, type Services } from '../../src/main/services';
import { isTerminal, type Job, type TargetRow } from '../../src/shared/types';
import { startBridge, type Bridge } from '../bridge/host';
import { launchChromium, openBridgedPage } from '../helpers/chromium';
import { sampleMemory, writeResult } from '../helpers/faults-report';
import { startSite, type Site } from '../helpers/sites';
import { tempDir } from '../helpers/store';

const JOBS = 8;
const TARGETS = 1000;
const WORKERS = 4;
// EventBatcher's 200 ms tick sends ≤ 2 messages (rows, job) per job per tick: 10 a second.
// One more per job for the flush at its terminal status.
const EVENTS_PER_JOB_SECOND = 10;

// The renderer: keeps the latest job and rows it was sent, nothing else. Served by the bridge
// with the app's CSP, so it is a file (no inline script).
const PAGE = `<!doctype html><html><head><meta charset="utf-8"><title>load</title>
<script src="/load.js"></script></head><body>load</body></html>`;
const SCRIPT = `
const state = { jobs: {}, rows: {}, events: 0 };
window.__load = state;
window.sift.on('jobChanged', (job) => { state.jobs[job.id] = job; state.events++; });
window.sift.on('targetsChanged', (p) => {
  const m = (state.rows[p.jobId] = state.rows[p.jobId] || {});
  for (const r of p.rows) m[r.idx] = r;
  state.events++;
});
window.__ready = true;
`;

let t: ReturnType<typeof tempDir>;
let site: Site;
let fetcher: Fetcher;
let services: Services;
let bridge: Bridge | undefined;
let browser: Browser;

let inflight = 0;
let peakInflight = 0;
let fetches = 0;

beforeAll(async () => {
  t = tempDir('sift-load-');
  writeFileSync(path.join(t.dir, 'index.html'), PAGE);
  writeFileSync(path.join(t.dir, 'load.js'), SCRIPT);
  site = await startSite();
  fetcher = createFetcher({ allowPrivate: true });
  // The real pipeline (batchFetch over fetchTarget over loopback), counted at the runner's door.
  const real = makeBatchFetch(fetcher, new BatchMetrics(), silentLog(), () => 60_000);
  const counted: FetchFunc = async (signal, caller, target) => {
    fetches++;
    peakInflight = Math.max(peakInflight, ++inflight);
    try {
      return await real(signal, caller, target);
    } finally {
      inflight--;
    }
  };
  services = createServices({
    dbPath: path.join(t.dir, 'sift.db'),
    host: 'bridge',
    dataDir: t.dir,
    logFiles: [],
    settings: { workers: WORKERS, jobsTotal: JOBS, jobsPerCaller: JOBS, targetsPerJob: TARGETS, allowPrivate: true },
    fetch: counted,
    // Late-bound: the bridge needs the handlers, the services need the bridge's emit.
    emit: (e, p) => bridge?.emit(e, p),
  });
  bridge = await startBridge({ handlers: services.handlers, staticDir: t.dir });
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await bridge?.close();
  await services?.close();
  await fetcher?.close();
  await site?.close();
  t?.remove();
});

function target(job: number, i: number): { url: string; options?: { jq: string } } {
  // Mostly plain text (the runner and the store are what is loaded here), with HTML and JSON.
  if (i % 10 === 0) return { url: `${site.base}/article/${job * TARGETS + i}` };
  if (i % 25 === 1) return { url: `${site.base}/data/${job * TARGETS + i}.json`, options: { jq: '.items[0].name' } };
  return { url: `${site.base}/text?job=${job}&i=${i}` };
}

describe(`load: ${JOBS} live jobs × ${TARGETS} targets, workers = ${WORKERS}`, () => {
  test('all finish, at most 4 targets are in flight, and the renderer ends with exactly the store’s rows (no event lost)', async () => {
    const page = await openBridgedPage(browser, bridge!.url, bridge!.wsUrl);
    await page.waitForFunction(() => (window as unknown as { __ready?: boolean }).__ready === true);
    const mem = sampleMemory(200);
    const eventsBefore = bridge!.stats().events;
    const started = Date.now();

    // Submitted from the renderer, as the app does.
    const lists = Array.from({ length: JOBS }, (_, j) => Array.from({ length: TARGETS }, (_, i) => target(j, i)));
    const ids = await page.evaluate(async (ls) => {
      const sift = (window as unknown as { sift: { submit(r: unknown): Promise<{ id: string }> } }).sift;
      return Promise.all(ls.map(async (targets) => (await sift.submit({ targets })).id));
    }, lists);
    expect(new Set(ids).size).toBe(JOBS);

    for (;;) {
      const jobs = ids.map((id) => services.store.getJob(id)!);
      if (jobs.every((j) => isTerminal(j.status))) break;
      expect(Date.now() - started, 'load test ran past 10 minutes').toBeLessThan(600_000);
      await new Promise((r) => setTimeout(r, 250));
    }
    const seconds = (Date.now() - started) / 1000;
    const memory = mem.stop();

    // The terminal flush is sent at once; give the socket a moment to deliver it.
    await page.waitForFunction((n) => {
      const s = (window as unknown as { __load: { jobs: Record<string, { status: string }> } }).__load;
      return Object.values(s.jobs).filter((j) => j.status === 'done' || j.status === 'failed' || j.status === 'partial').length === n;
    }, JOBS, { timeout: 10_000 });
    const seen = await page.evaluate(() => (window as unknown as { __load: { jobs: Record<string, Job>; rows: Record<string, Record<string, TargetRow>>; events: number } }).__load);

    let rowsCompared = 0;
    for (const id of ids) {
      const job = services.store.getJob(id)!;
      expect(job.status, id).toBe('done');
      expect(job.targetsDone).toBe(TARGETS);
      const pick = (j: Job) => ({ id: j.id, status: j.status, error: j.error, targetsTotal: j.targetsTotal, targetsDone: j.targetsDone });
      expect(pick(seen.jobs[id]!)).toEqual(pick(job));
      const stored = services.store.targetRows(id);
      const shown = Object.values(seen.rows[id] ?? {}).sort((a, b) => a.idx - b.idx);
      expect(shown.length, `rows of ${id} in the renderer`).toBe(stored.length);
      expect(shown).toEqual(stored);
      rowsCompared += stored.length;
    }

    expect(peakInflight).toBeLessThanOrEqual(WORKERS);
    expect(peakInflight, 'the jobs did run side by side').toBeGreaterThanOrEqual(2);
    expect(fetches).toBe(JOBS * TARGETS);

    const events = bridge!.stats().events - eventsBefore;
    const perJobSecond = events / JOBS / seconds;
    expect(seen.events).toBe(events);
    expect(perJobSecond).toBeLessThanOrEqual(EVENTS_PER_JOB_SECOND + 1);
    console.log(`load: ${JOBS * TARGETS} targets in ${seconds.toFixed(1)} s, peak in flight ${peakInflight}, ${events} events (${perJobSecond.toFixed(2)}/s per job), RSS peak ${memory.peakMiB} MiB`);

    writeResult({
      name: 'load',
      command: 'npm run test:reliability -- load',
      figures: {
        jobs: JOBS,
        targetsPerJob: TARGETS,
        targets: JOBS * TARGETS,
        workers: WORKERS,
        peakInflight,
        seconds: Math.round(seconds),
        targetsPerSecond: Math.round((JOBS * TARGETS) / seconds),
        events,
        eventsPerJobSecond: Number(perJobSecond.toFixed(2)),
        rowsCompared,
        rowsDiffering: 0,
        eventsLost: 0,
        rssBaselineMiB: memory.baselineMiB,
        rssPeakMiB: memory.peakMiB,
      },
    });
  }, 700_000);
});
