/**
 * A job cancelled while the soft-404 probe asked after a redirect is out: a link on one site
 * (a shortener) that redirects to a page on another, whose host is then asked for a random
 * path (SPEC §5.9). Through the real batch runner, fetcher and client against two loopback
 * sites; the landing site holds the probe's answer until the test has cancelled the job.
 */
import type http from 'node:http';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createFetcher } from '../../src/main/fetch';
import { openStore } from '../../src/main/store';
import { BatchMetrics } from '../../src/main/metrics';
import { silentLog } from '../../src/main/log';
import { createBatchRunner } from '../../src/main/batchrun';
import { closedAfterEach, listenLoopback } from '../helpers/loopback';

const RANDOM_PATH = /^\/[0-9a-f]{18}$/;
// The landing site's catch-all: the same page for every path, its probe's random path included.
const SHOP = `<!doctype html><html><head><title>Harbour Shop</title></head><body><article><h1>Welcome to the Harbour Shop</h1>${'<p>Nets, ropes and boats of every size, shipped from the harbour to your door within two days.</p>'.repeat(8)}</article></body></html>`;

const open = closedAfterEach();

const listen = (handler: http.RequestListener): Promise<string> => listenLoopback(open, handler);

describe('a job cancelled while the probe of the site a redirect led to is out', () => {
  it('stores the target cancelled, never ok judged without the probe', async () => {
    let probeAsked = (): void => {};
    const probeOut = new Promise<void>((resolve) => (probeAsked = resolve));
    const held: (() => void)[] = [];
    const landing = await listen((req, res) => {
      const answer = (): void => void res.writeHead(200, { 'content-type': 'text/html' }).end(SHOP);
      if (!RANDOM_PATH.test(req.url ?? '')) return answer();
      held.push(answer);
      probeAsked();
    });
    // The shortener: its own random paths are not found (a host with real 404s).
    const shortener = await listen((req, res) => {
      if (req.url?.startsWith('/s/')) return void res.writeHead(302, { location: `${landing}/products${req.url.slice(2)}` }).end();
      res.writeHead(404, { 'content-type': 'text/html' }).end('<!doctype html><title>Not found</title><p>No such link.</p>');
    });
    const f = createFetcher({ allowHosts: ['127.0.0.1'] });
    open.push(f);
    const store = openStore(path.join(mkdtempSync(path.join(os.tmpdir(), 'sift-probe-redirect-')), 'sift.db'));
    const runner = createBatchRunner(store, f, {}, new BatchMetrics(), silentLog());
    open.push(store, runner);

    const { id } = runner.submit({ name: 'test' }, 'test', [{ url: `${shortener}/s/boat-1` }, { url: `${shortener}/s/boat-2` }]);
    await probeOut;
    expect(runner.cancel(id)).toBe(true);
    await runner.settled(id);
    for (const answer of held) answer();

    expect(store.getJob(id)?.status).toBe('cancelled');
    // Before: done, the landing site's catch-all stored as its page ("Welcome to the Harbour Shop").
    expect(store.targetResult(id, 0)).toMatchObject({ status: 'failed', reason: 'cancelled', error: 'cancelled' });
    expect(store.targetResult(id, 1)).toMatchObject({ status: 'pending' });
  });
});
