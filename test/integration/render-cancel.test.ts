import { describe, expect, it, vi } from 'vitest';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createFetcher, type Fetcher, type ProxyEvent } from '../../src/main/fetch';
import { ChromiumRenderer } from '../../src/main/fetch/render/chromium';
import type { RendererEnv } from '../../src/main/fetch/render/types';
import { openStore, type Store } from '../../src/main/store';
import { BatchMetrics } from '../../src/main/metrics';
import { silentLog } from '../../src/main/log';
import { createBatchRunner } from '../../src/main/batchrun';
import { closedAfterEach } from '../helpers/loopback';

/**
 * A cancel reaches the browser before the site does: through the real batch runner, fetcher,
 * guarding proxy and the system Chromium, against a loopback site that counts what it gets.
 */
// A browser start on a loaded 2-core machine alone can take 10 s.
vi.setConfig({ testTimeout: 90_000 });

const caller = { name: 'test' };
// An app shell: the static fetch finds it needs JavaScript.
const SHELL = '<!doctype html><html><head><title>Loading</title><script src="/app.js"></script></head><body><div id="root"></div></body></html>';

interface Site {
  origin: (host: string) => string;
  /** Paths asked for, in order. */
  hits: string[];
  /** TCP connections accepted. */
  connections: number;
  close: () => Promise<void>;
}

async function startSite(): Promise<Site> {
  const site: Site = { origin: () => '', hits: [], connections: 0, close: async () => {} };
  const server: Server = createServer((req, res) => {
    site.hits.push(req.url ?? '/');
    if (req.url === '/app.js') return void res.writeHead(200, { 'content-type': 'text/javascript' }).end('');
    // Every other path is the shell: the soft-404 probe's random path is "not found".
    res.writeHead(req.url?.startsWith('/page') ? 200 : 404, { 'content-type': 'text/html' }).end(SHELL);
  });
  server.on('connection', () => site.connections++);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  site.origin = (host) => `http://${host}:${port}`;
  site.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return site;
}

const open = closedAfterEach();

function batch(f: Fetcher): { store: Store; runner: ReturnType<typeof createBatchRunner> } {
  const store = openStore(path.join(mkdtempSync(path.join(os.tmpdir(), 'sift-render-cancel-')), 'sift.db'));
  const runner = createBatchRunner(store, f, {}, new BatchMetrics(), silentLog());
  open.push(store, runner);
  return { store, runner };
}

describe('a job cancelled as its page is being set up in the browser', () => {
  it('makes no browser context (nor page) for it once the cancel came', async () => {
    const site = await startSite();
    open.push(site);
    let cancel = (): void => {};
    let cancelled = false;
    let contextsAfterCancel = 0;
    // The cancel comes as the page's proxy credentials are made, the step before its context.
    // The context is made with the user agent: asking for it after the cancel is making one.
    const wrap = (env: RendererEnv): RendererEnv => ({
      ...env,
      proxySession: () => env.proxySession().finally(() => cancel()),
      userAgent: () => {
        if (cancelled) contextsAfterCancel++;
        return env.userAgent();
      },
    });
    const f = createFetcher({ allowHosts: ['127.0.0.1'], renderBudgetMs: 30_000 }, { renderer: (env) => new ChromiumRenderer(wrap(env)) });
    open.push(f);
    const { store, runner } = batch(f);
    const { id } = runner.submit(caller, 'test', [0, 1, 2].map((i) => ({ url: `${site.origin('127.0.0.1')}/page${i}`, options: { mode: 'text', render: 'always' } })));
    cancel = () => {
      cancelled = true;
      runner.cancel(id);
    };
    await runner.settled(id);
    expect(store.getJob(id)?.status).toBe('cancelled');
    expect(store.targetResult(id, 0)).toMatchObject({ reason: 'cancelled' });
    // Before, the context, its page and a CDP session were made (1.8-2.0 s) after the cancel.
    expect(contextsAfterCancel).toBe(0);
    // The static fetch of the first page and the probe's random path; nothing of the later pages.
    expect(site.hits.filter((h) => h.startsWith('/page'))).toEqual(['/page0']);
  });
});

describe('a job cancelled while the browser asks for its page', () => {
  it('sends nothing to the site once the page closed: its request, held in the name lookup, is dropped', async () => {
    const site = await startSite();
    open.push(site);
    // The site's name resolves to loopback through the fetcher's resolver; once the render
    // begins, the next lookup (the browser's request for the page, in the guarding proxy) is
    // held until the test lets it go.
    let rendering = false;
    let held: (() => void) | undefined;
    let onHeld = (): void => {};
    const lookup = async (): Promise<{ address: string; family: number }[]> => {
      if (rendering && !held) {
        await new Promise<void>((resolve) => {
          held = resolve;
          onHeld();
        });
      }
      return [{ address: '127.0.0.1', family: 4 }];
    };
    const f = createFetcher(
      { allowHosts: ['page.test'], renderBudgetMs: 30_000 },
      { lookup, renderer: (env) => new ChromiumRenderer({ ...env, proxySession: () => env.proxySession().finally(() => (rendering = true)) }) },
    );
    open.push(f);
    const { store, runner } = batch(f);
    const { id } = runner.submit(caller, 'test', [0, 1, 2].map((i) => ({ url: `${site.origin('page.test')}/page${i}`, options: { mode: 'text', render: 'always' } })));
    const cancelledAt = new Promise<void>((resolve) => (onHeld = resolve));
    await cancelledAt;
    runner.cancel(id);
    await runner.settled(id);
    expect(store.targetResult(id, 0)).toMatchObject({ reason: 'cancelled' });
    const connections = site.connections;
    const hits = site.hits.length;
    // The proxy's word on the held request once its name resolves.
    const decided = new Promise<ProxyEvent>((resolve) => {
      const off = f.proxy.on((e) => {
        if (e.path !== '/page0') return;
        off();
        resolve(e);
      });
    });
    held?.();
    // Before, it was forwarded ('allowed'): a connection to the site opened after the cancel.
    expect((await decided).kind).toBe('abandoned');
    await f.close();
    expect(site.connections).toBe(connections);
    expect(site.hits).toHaveLength(hits);
    expect(site.hits.filter((h) => h.startsWith('/page'))).toEqual(['/page0']);
  });
});
