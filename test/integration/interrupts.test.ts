/**
 * Every way a user stops work, through the real wiring (batch runner + batchFetch + fetcher +
 * metrics, loopback servers): cancel and quit (close) while a target is connecting, waiting
 * for headers, reading the body, waiting for a gate slot, waiting to retry, waiting for the
 * PDF pool, and running in a jq or grep worker. Each test waits for the event that puts the
 * target in that phase, then asserts the stored row, the metric outcome, the log levels and
 * what "run the rest again" would submit.
 */
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { mkdtempSync } from 'node:fs';
import type http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { openStore, type Store } from '../../src/main/store';
import { createFetcher, type Fetcher } from '../../src/main/fetch';
import { BatchMetrics } from '../../src/main/metrics';
import { createBatchRunner } from '../../src/main/batchrun';
import type { Runner } from '../../src/main/batch';
import { isUnfinished, type Target } from '../../src/shared/types';
import { startSite, type Site } from '../helpers/sites';
import { numberedPdf } from '../helpers/fetch-pdf';
import { deferred, memoryLogger } from '../helpers/store';

type Route = (req: http.IncomingMessage, res: http.ServerResponse) => void;

/** Signals that servers and hooks fire when a target reaches a phase. */
const reached = new Map<string, ReturnType<typeof deferred>>();
const signalOf = (name: string): ReturnType<typeof deferred> => {
  let d = reached.get(name);
  if (!d) reached.set(name, (d = deferred()));
  return d;
};
const fire = (name: string): void => signalOf(name).resolve(undefined);

const openResponses = new Set<http.ServerResponse>();
const routes: Record<string, Route> = {
  '/hang-headers': (_req, res) => {
    openResponses.add(res);
    fire('headers');
  },
  '/hang-body': (_req, res) => {
    openResponses.add(res);
    res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' });
    res.write('the first part of a body that never ends\n', () => fire('body'));
  },
  '/busy-retry': (_req, res) => {
    res.writeHead(503, { 'content-type': 'text/plain', 'retry-after': '0' }).end('busy');
  },
  '/pdf-wait.pdf': (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/pdf' });
    res.end(numberedPdf(3, 'wanted'), () => fire('pdf'));
  },
  '/loop.json': (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end('{"a": 1}', () => fire('jq'));
  },
  '/backtrack.txt': (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/plain' });
    res.end(`${'a'.repeat(48)}\n`, () => fire('grep'));
  },
};

let site: Site;
beforeAll(async () => {
  site = await startSite(routes);
});
afterAll(async () => {
  await site.close();
});

/** connect-hang.test's lookup answers only when released: a target stuck in connect. */
let releaseLookup: (() => void) | undefined;
const lookup = async (host: string): Promise<{ address: string; family: 4 }[]> => {
  if (host === 'connect-hang.test') {
    fire('connect');
    await new Promise<void>((resolve) => (releaseLookup = resolve));
  }
  return [{ address: '127.0.0.1', family: 4 }];
};

interface Rig {
  store: Store;
  fetcher: Fetcher;
  runner: Runner;
  metrics: BatchMetrics;
  log: ReturnType<typeof memoryLogger>;
  fetchLines: Record<string, unknown>[];
}
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  releaseLookup?.();
  releaseLookup = undefined;
  for (const res of openResponses) res.destroy();
  openResponses.clear();
  reached.clear();
  for (const c of cleanups.splice(0).reverse()) await c();
});

function rig(fetchSettings: Parameters<typeof createFetcher>[0] = {}): Rig {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'sift-interrupt-'));
  const store = openStore(path.join(dir, 'sift.db'));
  const log = memoryLogger();
  const fetchLines: Record<string, unknown>[] = [];
  const fetcher = createFetcher(
    { allowHosts: ['127.0.0.1', 'connect-hang.test'], ...fetchSettings },
    {
      lookup,
      pdfWorkers: 2,
      log: (line) => {
        fetchLines.push(line);
        if (line.status === 503) fire('retry');
      },
    },
  );
  const metrics = new BatchMetrics();
  // A retry wait of a minute: only an interrupt ends it within the test.
  const runner = createBatchRunner(store, fetcher, { retryWaitMs: 60_000, retryForMs: 120_000, jobsPerCaller: 4 }, metrics, log);
  cleanups.push(async () => {
    for (const j of store.listJobs()) if (j.status === 'running') runner.cancel(j.id);
    await runner.close({ graceMs: 0 });
    await fetcher.close();
    store.close();
  });
  return { store, fetcher, runner, metrics, log, fetchLines };
}

async function outcomes(m: BatchMetrics): Promise<Record<string, number>> {
  const snap = await m.snapshot();
  return Object.fromEntries(Object.entries(snap.targets).filter(([, n]) => n > 0));
}

interface Phase {
  /** The target that is in this phase when the interrupt lands. */
  target: () => Target;
  /** Puts the pipeline in the state the phase needs; returns what undoes it. */
  arrange?: (r: Rig) => Promise<() => void>;
  fetch?: Parameters<typeof createFetcher>[0];
}

const PHASES: Record<string, Phase> = {
  connect: { target: () => ({ url: `http://connect-hang.test:${site.port}/article/9` }) },
  headers: { target: () => ({ url: `${site.base}/hang-headers` }) },
  body: { target: () => ({ url: `${site.base}/hang-body` }) },
  gate: {
    target: () => ({ url: `${site.base}/article/8` }),
    fetch: { gateWaitMs: 60_000 },
    // Every gate slot taken by someone else the moment the target starts: it waits for one.
    arrange: async (r) => {
      const held: (() => void)[] = [];
      const off = r.runner.on('target', (_id, row) => {
        if (row.idx !== 1 || row.status !== 'running') return;
        // A free gate grants synchronously, so the slots are taken before the fetch asks.
        for (let i = 0; i < r.fetcher.settings().gateSize; i++) void r.fetcher.gate.acquire(new AbortController().signal).then((release) => held.push(release));
        expect(r.fetcher.gate.inFlight()).toBe(r.fetcher.settings().gateSize);
        fire('gate');
      });
      return () => {
        off();
        for (const release of held) release();
      };
    },
  },
  retry: { target: () => ({ url: `${site.base}/busy-retry` }) },
  'PDF pool': {
    target: () => ({ url: `${site.base}/pdf-wait.pdf` }),
    // The batch's PDF slot is busy with a long document: the target's PDF waits for it.
    arrange: async (r) => {
      const hold = new AbortController();
      r.fetcher.pdf.extract('test/batch', numberedPdf(3000, 'holder'), null, 5000, hold.signal).catch(() => {});
      return () => hold.abort(new Error('test over'));
    },
  },
  'jq worker': { target: () => ({ url: `${site.base}/loop.json`, options: { jq: 'until(false; .)' } }) },
  'grep worker': { target: () => ({ url: `${site.base}/backtrack.txt`, options: { grep: '^(a*)*b$' } }) },
};
const SIGNAL: Record<string, string> = { 'PDF pool': 'pdf', 'jq worker': 'jq', 'grep worker': 'grep' };

describe.each([
  ['cancel', 'cancelled'],
  ['close', 'interrupted'],
] as const)('%s while a target is in flight', (how, stored) => {
  test.each(Object.keys(PHASES))(`${how} during %s: stored failed "${stored}", outcome cancelled, nothing at error level, run the rest again takes it`, async (phaseName) => {
    const phase = PHASES[phaseName]!;
    const r = rig(phase.fetch);
    const undo = phase.arrange ? await phase.arrange(r) : () => {};
    cleanups.push(undo);
    const targets: Target[] = [{ url: `${site.base}/article/1` }, phase.target(), { url: `${site.base}/article/3` }];
    const retryHits = site.hits.get('/busy-retry') ?? 0;
    const { id } = r.runner.submit({ name: 'test' }, 'test', targets);
    await signalOf(SIGNAL[phaseName] ?? phaseName).promise;
    if (phaseName === 'PDF pool') expect(r.fetcher.pdf.stats().running).toEqual({ 'test/batch': 1 });

    if (how === 'cancel') {
      expect(r.runner.cancel(id)).toBe(true);
      await r.runner.settled(id);
      expect(r.store.getJob(id)).toMatchObject({ status: 'cancelled', targetsDone: 2, targetsFailed: 1 });
    } else {
      await r.runner.close({ graceMs: 0 });
      // Cut short by a quit: the job stays running until the next start marks it "restart".
      expect(r.store.getJob(id)).toMatchObject({ status: 'running', targetsDone: 2, targetsFailed: 1 });
    }

    const rows = r.store.targetRows(id);
    expect(rows[0]).toMatchObject({ status: 'done' });
    expect(rows[1]).toMatchObject({ status: 'failed', error: stored, errorStatus: 499 });
    expect(rows[1]!.hint).toMatch(/run the rest again/);
    expect(rows[1]!.hint).not.toMatch(/bug in Sift/);
    expect(rows[2]).toMatchObject({ status: 'pending' });

    expect(await outcomes(r.metrics)).toEqual({ ok: 1, cancelled: 1 });
    expect(r.log.lines.filter((l) => l.level === 'error')).toEqual([]);
    expect(r.fetchLines.filter((l) => l.outcome === 'internal')).toEqual([]);
    // What "run the rest again" submits: the cut-short target and the one never started.
    expect(rows.filter(isUnfinished).map((t) => t.url)).toEqual([targets[1]!.url, targets[2]!.url]);
    // The retry wait was cut short: the site was asked once.
    if (phaseName === 'retry') expect(site.hits.get('/busy-retry')).toBe(retryHits + 1);
    if (phaseName === 'PDF pool') expect(r.fetcher.pdf.stats().started).toBe(1);
  });
});

describe('close with a grace', () => {
  test('a target that finishes within the grace is stored as it finished, and the next one never starts', async () => {
    const r = rig();
    const gate = deferred();
    const slowRoute = `${site.base}/hang-headers`;
    const { id } = r.runner.submit({ name: 'test' }, 'test', [{ url: slowRoute }, { url: `${site.base}/article/2` }]);
    await signalOf('headers').promise;
    const closing = r.runner.close({ graceMs: 60_000 });
    // The server answers now: the in-flight target is stored done, not interrupted.
    const [res] = [...openResponses];
    res!.writeHead(200, { 'content-type': 'text/plain' }).end('made it', () => gate.resolve(undefined));
    await closing;
    await gate.promise;
    expect(r.store.targetRows(id).map((t) => [t.status, t.error])).toEqual([
      ['done', ''],
      ['pending', ''],
    ]);
    expect(await outcomes(r.metrics)).toEqual({ ok: 1 });
  });
});
