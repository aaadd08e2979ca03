import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFetcher, type Fetcher, type Renderer, type RenderHint } from '../../src/main/fetch';
import { startRenderSites, type RenderSites } from '../helpers/render-sites';

/**
 * The pipeline's own rules around a renderer: at most renderPages at once, each holding a
 * fetch-gate slot. A stand-in renderer that waits for the test to release it pins the rule.
 */
let sites: RenderSites;
beforeAll(async () => {
  sites = await startRenderSites();
});
afterAll(() => sites.close());

describe('render limits', () => {
  it('renders at most renderPages pages at once, and each holds a gate slot while it renders', async () => {
    let active = 0;
    let peak = 0;
    const gateSeen: number[] = [];
    const waiting: (() => void)[] = [];
    const box: { fetcher?: Fetcher } = {};
    const started: (() => void)[] = [];
    const renderer: Renderer = {
      browser: async () => ({ ok: true, name: 'stand-in', path: '' }),
      close: async () => {},
      render: async (url) => {
        active++;
        peak = Math.max(peak, active);
        gateSeen.push(box.fetcher?.gate.inFlight() ?? -1);
        started.shift()?.();
        await new Promise<void>((r) => waiting.push(r));
        active--;
        return { finalUrl: url, html: '<html><body><article><p>rendered</p></article></body></html>', status: 200, partial: false };
      },
    };
    const fetcher = createFetcher({ allowHosts: ['127.0.0.1'], renderPages: 2 }, { renderer: () => renderer });
    box.fetcher = fetcher;
    const twoStarted = new Promise<void>((r) => {
      let n = 0;
      started.push(() => ++n === 2 && r(), () => ++n === 2 && r());
    });
    const runs = Array.from({ length: 5 }, () =>
      fetcher.fetchTarget(new AbortController().signal, { name: 't' }, { url: `${sites.allowed.origin}/static.html`, options: { render: 'always', mode: 'text' } }),
    );
    await twoStarted;
    expect(active).toBe(2);
    // Release one at a time; each release lets exactly one more in.
    while (waiting.length || active) {
      const next = waiting.shift();
      if (next) next();
      await new Promise((r) => setImmediate(r));
    }
    const results = await Promise.all(runs);
    expect(results.every((r) => r.meta?.rendered === true && r.content === 'rendered')).toBe(true);
    expect(peak).toBe(2);
    expect(gateSeen.every((n) => n >= 1)).toBe(true);
    await fetcher.close();
  });

  it("hands the renderer the charset it read a page in only when neither the header nor the page named one", async () => {
    const hints: Record<string, RenderHint | undefined> = {};
    const renderer: Renderer = {
      browser: async () => ({ ok: true, name: 'stand-in', path: '' }),
      close: async () => {},
      render: async (url, _signal, _budget, hint) => {
        hints[new URL(url).pathname] = hint;
        return { finalUrl: url, html: '<html><body><article><p>rendered</p></article></body></html>', status: 200, partial: false };
      },
    };
    const fetcher = createFetcher({ allowHosts: ['127.0.0.1'] }, { renderer: () => renderer });
    for (const p of ['/unlabelled-utf8.html', '/unlabelled-legacy.html', '/static.html']) {
      await fetcher.fetchTarget(new AbortController().signal, { name: 't' }, { url: `${sites.allowed.origin}${p}`, options: { render: 'always', mode: 'text' } });
    }
    expect(hints).toEqual({ '/unlabelled-utf8.html': { charset: 'utf-8' }, '/unlabelled-legacy.html': { charset: 'windows-1252' }, '/static.html': {} });
    await fetcher.close();
  });
});
