/**
 * A job cancelled while its page's render slot is being set up, the set-up then failing: the
 * cancel is what is stored, in the cancel's words. Through the real batch runner, fetcher and
 * guarding proxy, against a loopback site whose pages are app shells (render=always): the app's
 * renderer over the Electron stand-in (the Electron binary cannot run here), and the CLI's over
 * the system Chromium.
 */
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { createFetcher, type RendererFactory } from '../../src/main/fetch';
import { ChromiumRenderer } from '../../src/main/fetch/render/chromium';
import { ElectronRenderer, type ElectronRenderDeps } from '../../src/main/app/render-window';
import { openStore, type Store } from '../../src/main/store';
import { BatchMetrics } from '../../src/main/metrics';
import { silentLog } from '../../src/main/log';
import { createBatchRunner } from '../../src/main/batchrun';
import type { Runner } from '../../src/main/batch';
import { FakeRenderContents, FakeRenderSession, FakeRenderWindow } from '../helpers/electron-standin';
import { closedAfterEach, listenLoopback } from '../helpers/loopback';

// A browser start on a loaded 2-core machine alone can take 10 s.
vi.setConfig({ testTimeout: 90_000 });

const SHELL = '<!doctype html><html><head><title>Loading</title><script src="/app.js"></script></head><body><div id="root"></div></body></html>';

const open = closedAfterEach();

function shellSite(): Promise<string> {
  return listenLoopback(open, (req, res) => {
    if (req.url === '/app.js') return void res.writeHead(200, { 'content-type': 'text/javascript' }).end('');
    res.writeHead(req.url?.startsWith('/page') ? 200 : 404, { 'content-type': 'text/html' }).end(SHELL);
  });
}

function batch(renderer: RendererFactory): { store: Store; runner: Runner } {
  const f = createFetcher({ allowHosts: ['127.0.0.1'], renderBudgetMs: 30_000 }, { renderer });
  const store = openStore(path.join(mkdtempSync(path.join(os.tmpdir(), 'sift-render-setup-')), 'sift.db'));
  const runner = createBatchRunner(store, f, {}, new BatchMetrics(), silentLog());
  open.push(f, store, runner);
  return { store, runner };
}

/** Submits two shells to render, cancels once `settingUp` says the first one's slot is being set up, and gives what is stored. */
async function cancelDuringSetUp(origin: string, r: { store: Store; runner: Runner }, settingUp: Promise<() => void>) {
  const { id } = r.runner.submit({ name: 'desktop' }, 'desktop', [0, 1].map((i) => ({ url: `${origin}/page${i}`, options: { mode: 'text', render: 'always' } })));
  const fail = await settingUp;
  expect(r.runner.cancel(id)).toBe(true);
  fail();
  await r.runner.settled(id);
  return { job: r.store.getJob(id), first: r.store.targetResult(id, 0), second: r.store.targetResult(id, 1) };
}

describe('a render whose slot set-up fails after the job was cancelled', () => {
  it("is stored cancelled (the app's renderer): not the set-up's 'internal error'", async () => {
    const origin = await shellSite();
    let onSetUp = (_fail: () => void): void => {};
    const settingUp = new Promise<() => void>((resolve) => (onSetUp = resolve));
    let windowsAfterCancel = 0;
    let cancelled = false;
    // The slot's session takes its proxy when the test has cancelled, and then fails to, as
    // Electron's setProxy may reject.
    class FailingSession extends FakeRenderSession {
      override setProxy(): Promise<void> {
        return new Promise((_resolve, reject) =>
          onSetUp(() => {
            cancelled = true;
            reject(new Error('Failed to set proxy'));
          }),
        );
      }
    }
    const deps: ElectronRenderDeps = {
      fromPartition: (p) => new FailingSession(p) as unknown as ReturnType<ElectronRenderDeps['fromPartition']>,
      createWindow: (options) => {
        if (cancelled) windowsAfterCancel++;
        return new FakeRenderWindow(options as Record<string, unknown>, new FakeRenderContents({ html: SHELL })) as unknown as ReturnType<ElectronRenderDeps['createWindow']>;
      },
      chromeVersion: '140.0.0.0',
    };
    const { job, first, second } = await cancelDuringSetUp(origin, batch((env) => new ElectronRenderer(env, deps)), settingUp);
    expect(job?.status).toBe('cancelled');
    // Before: failed "internal error" (reason network), its hint "rendering failed: the browser could not be set up for the page. …".
    expect(first).toMatchObject({ status: 'failed', reason: 'cancelled', error: 'cancelled' });
    expect(first?.hint).toMatch(/^The job was cancelled while this target was being fetched/);
    expect(second).toMatchObject({ status: 'pending' });
    expect(windowsAfterCancel).toBe(0);
  });

  it("opens no window for it when the set-up ends after the cancel (the app's renderer)", async () => {
    const origin = await shellSite();
    let onSetUp = (_done: () => void): void => {};
    const settingUp = new Promise<() => void>((resolve) => (onSetUp = resolve));
    let windowsAfterCancel = 0;
    let cancelled = false;
    class SlowSession extends FakeRenderSession {
      override setProxy(): Promise<void> {
        return new Promise((resolve) =>
          onSetUp(() => {
            cancelled = true;
            resolve();
          }),
        );
      }
    }
    const deps: ElectronRenderDeps = {
      fromPartition: (p) => new SlowSession(p) as unknown as ReturnType<ElectronRenderDeps['fromPartition']>,
      createWindow: (options) => {
        if (cancelled) windowsAfterCancel++;
        return new FakeRenderWindow(options as Record<string, unknown>, new FakeRenderContents({ html: SHELL })) as unknown as ReturnType<ElectronRenderDeps['createWindow']>;
      },
      chromeVersion: '140.0.0.0',
    };
    const { first } = await cancelDuringSetUp(origin, batch((env) => new ElectronRenderer(env, deps)), settingUp);
    expect(first).toMatchObject({ status: 'failed', reason: 'cancelled', error: 'cancelled' });
    // Before: a window was opened for the cancelled page, and destroyed at once.
    expect(windowsAfterCancel).toBe(0);
  });

  it("is stored cancelled (the CLI's Chromium): not the set-up's error", async () => {
    const origin = await shellSite();
    let onSetUp = (_fail: () => void): void => {};
    const settingUp = new Promise<() => void>((resolve) => (onSetUp = resolve));
    // The page's proxy credentials are made once the browser has started; here they fail once
    // the test has cancelled.
    const { job, first, second } = await cancelDuringSetUp(
      origin,
      batch(
        (env) =>
          new ChromiumRenderer({
            ...env,
            proxySession: () => new Promise((_resolve, reject) => onSetUp(() => reject(new Error('proxy session could not be made')))),
          }),
      ),
      settingUp,
    );
    expect(job?.status).toBe('cancelled');
    expect(first).toMatchObject({ status: 'failed', reason: 'cancelled', error: 'cancelled' });
    expect(first?.hint).toMatch(/^The job was cancelled while this target was being fetched/);
    expect(second).toMatchObject({ status: 'pending' });
  });
});
