import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createServer as createHttpServer } from 'node:http';
import { createServer, type AddressInfo } from 'node:net';
import { createFetcher, FetchError, type Fetcher, type ProxyEvent } from '../../src/main/fetch';
import { PROBE, SETTLE_SCRIPT } from '../../src/main/fetch/render/settle';
import { ChromiumRenderer } from '../../src/main/fetch/render/chromium';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openStore } from '../../src/main/store';
import { BatchMetrics } from '../../src/main/metrics';
import { silentLog } from '../../src/main/log';
import { createBatchRunner, mapFetchError } from '../../src/main/batchrun';
import { busyWhy } from '../../src/main/batch/errors';
import { launchChromium } from '../helpers/chromium';
import { RENDER_HINT } from '../../src/shared/hints';
import { ARTICLE, CYRILLIC_TEXT, legacyText, startRenderSites, UNLABELLED_TEXT, type RenderSites } from '../helpers/render-sites';

/**
 * Rendering through the real pipeline: static fetch, the render decision, the guarding
 * proxy, playwright-core driving the system Chromium, and the same extractors. Only the
 * fixtures' origin (127.0.0.1) is allowed; 127.0.0.2 stands for every host the guard forbids.
 */
// A browser start on a loaded 2-core machine alone can take 10 s.
vi.setConfig({ testTimeout: 90_000 });

let sites: RenderSites;
let fetcher: Fetcher;
const refused: ProxyEvent[] = [];
const caller = { name: 'test' };
// Generous: CI runs this on a busy 2-core machine; a settled fixture takes ~1 s.
const BUDGET_MS = 10_000;

beforeAll(async () => {
  sites = await startRenderSites();
  fetcher = createFetcher({ allowHosts: ['127.0.0.1'], renderBudgetMs: BUDGET_MS });
  fetcher.proxy.on((e) => {
    if (e.kind === 'refused') refused.push(e);
  });
});
afterAll(async () => {
  await fetcher.close();
  await sites.close();
});

const fetchPage = (path: string, render?: 'auto' | 'always' | 'never') =>
  fetcher.fetchTarget(new AbortController().signal, caller, { url: `${sites.allowed.origin}/${path}`, options: { mode: 'text', ...(render ? { render } : {}) } });

const hasArticle = (content: string): boolean => ARTICLE.paragraphs.every((p) => content.includes(p));

describe('client-side rendered articles are recovered', () => {
  for (const page of ['inline.html', 'fetch.html', 'delay.html', 'module.html', 'next.html']) {
    for (const render of ['always', 'auto'] as const) {
      it(`${page} under ${render}`, async () => {
        // Without rendering the shell is not the page: an honest needs_js (SPEC §5.9).
        await expect(fetchPage(page, 'never')).rejects.toMatchObject({ reason: 'needs_js' });
        const r = await fetchPage(page, render);
        expect(r.meta).toMatchObject({ rendered: true, title: ARTICLE.title, status: 200 });
        expect(hasArticle(r.content)).toBe(true);
      });
    }
  }
});

describe('web components', () => {
  it('reads text in shadow roots, open and closed, with slotted content where its slot is', async () => {
    const r = await fetchPage('shadow.html');
    expect(r.meta).toMatchObject({ rendered: true, title: ARTICLE.title });
    expect(hasArticle(r.content)).toBe(true);
    // In the order a reader sees it: the slot's content where the slot stands, unslotted children left out.
    const at = ARTICLE.paragraphs.map((p) => r.content.indexOf(p));
    expect(at).toEqual([...at].sort((a, b) => a - b));
    expect(r.content).not.toMatch(/not slotted|no body given/);
  });
  it('counts the text in shadow roots when it asks whether the page has settled', async () => {
    // The settle loop's probe, asked of the page in Chromium as the loop asks it: a page whose
    // text is all in shadow roots read as empty, and waited THIN_PATIENCE_MS as a thin page.
    const browser = await launchChromium();
    try {
      const page = await browser.newPage();
      await page.addInitScript({ content: SETTLE_SCRIPT });
      await page.goto(`${sites.allowed.origin}/shadow.html`);
      await page.waitForFunction(() => document.title !== 'Loading');
      const [, chars] = (await page.evaluate(PROBE)) as [number, number];
      const light = await page.evaluate(() => document.body.innerText.length);
      expect(light).toBeLessThan(ARTICLE.paragraphs.join('').length);
      expect(chars).toBeGreaterThanOrEqual(ARTICLE.paragraphs.join('').length);
    } finally {
      await browser.close();
    }
  });
});

describe('a shell of web components with styles of their own', () => {
  it('counts no stylesheet in its shadow roots as text when it asks whether the page has settled', async () => {
    // Counted, a component's CSS (2,810 characters here) made an empty shell read as a page
    // with its text there: it was read once quiet, without the time a thin page gets to fill in.
    const browser = await launchChromium();
    try {
      const page = await browser.newPage();
      await page.addInitScript({ content: SETTLE_SCRIPT });
      await page.goto(`${sites.allowed.origin}/shadow-styles.html`);
      await page.waitForFunction(() => document.title === 'Shell');
      const [, chars] = (await page.evaluate(PROBE)) as [number, number];
      const shown = await page.evaluate(() => document.body.innerText.length + 'Menu'.length);
      expect(chars).toBe(shown);
    } finally {
      await browser.close();
    }
  });
  it('gives such a shell the time a thin page gets, and reads the article it draws after a delay', async () => {
    // Before: read once quiet, before its article came, it failed as an app shell that "stayed empty" (3 runs of 3).
    const r = await fetchPage('shadow-styles-delay.html', 'always');
    expect(r.meta).toMatchObject({ rendered: true, title: ARTICLE.title });
    expect(hasArticle(r.content)).toBe(true);
  });
});

describe('when the page has settled', () => {
  it('reads a page that polls for ever once its DOM stays the same, not at the end of the budget', async () => {
    const r = await fetchPage('polling.html');
    expect(r.meta).toMatchObject({ rendered: true, title: ARTICLE.title });
    expect(r.meta?.render_partial).toBeUndefined();
    expect(hasArticle(r.content)).toBe(true);
  });
  it('reads a page with a stream of server-sent events open once it settles, not at the end of the budget', async () => {
    const r = await fetchPage('eventsource.html');
    expect(r.meta).toMatchObject({ rendered: true, title: ARTICLE.title });
    expect(r.meta?.render_partial).toBeUndefined();
    expect(hasArticle(r.content)).toBe(true);
    expect(sites.allowed.hits).toContain('/events');
  });
  it('reads a page whose DOM never stays the same (a price, a clock redrawn every frame) once its text holds steady, not at the end of the budget', async () => {
    const r = await fetchPage('ticker.html');
    expect(r.meta).toMatchObject({ rendered: true, title: ARTICLE.title });
    expect(r.meta?.render_partial).toBeUndefined();
    expect(hasArticle(r.content)).toBe(true);
  });
  it('reads a page that reloads itself over and over in one of its documents, not as a page that "did not yield"', async () => {
    const r = await fetchPage('reloads.html');
    expect(r.meta).toMatchObject({ rendered: true, title: ARTICLE.title });
    expect(hasArticle(r.content)).toBe(true);
  });
  it('reads what loads as the reader scrolls: at the end of the page, or of the pane the page scrolls in', async () => {
    for (const page of ['scroll.html', 'scroll-inner.html']) {
      const r = await fetchPage(page);
      expect(r.meta).toMatchObject({ rendered: true, title: ARTICLE.title });
      expect(r.meta?.render_partial).toBeUndefined();
      expect(hasArticle(r.content)).toBe(true);
    }
  });
  it('gives a page that fills in late longer under a longer render budget, as its failure says to try', async () => {
    const f = createFetcher({ allowHosts: ['127.0.0.1'], renderBudgetMs: 30_000 });
    try {
      const r = await f.fetchTarget(new AbortController().signal, caller, { url: `${sites.allowed.origin}/late.html`, options: { mode: 'text' } });
      expect(r.meta).toMatchObject({ rendered: true, title: ARTICLE.title });
      expect(hasArticle(r.content)).toBe(true);
    } finally {
      await f.close();
    }
  });
  it('waits for one slow request the article comes from, though the page already shows its chrome', async () => {
    const r = await fetchPage('slow-api.html');
    expect(r.meta).toMatchObject({ rendered: true, title: ARTICLE.title });
    expect(hasArticle(r.content)).toBe(true);
  });
});

describe('a request that never ends', () => {
  // The proxy gives up on a silent server after its connect timeout (10 s by default); here it
  // waits longer than the budget, so only the settle rule can end the render early.
  const patient = () => createFetcher({ allowHosts: ['127.0.0.1'], renderBudgetMs: BUDGET_MS, connectTimeoutMs: 120_000 });
  it('does not hold a page whose content is there: an image, a tracker request or an async script whose server never answers', async () => {
    const f = patient();
    try {
      for (const page of ['hung-image.html', 'hung-xhr.html', 'hung-script.html']) {
        const r = await f.fetchTarget(new AbortController().signal, caller, { url: `${sites.allowed.origin}/${page}`, options: { mode: 'text' } });
        expect(r.meta, page).toMatchObject({ rendered: true, title: ARTICLE.title });
        // Settled, not read when the budget ran out.
        expect(r.meta?.render_partial, page).toBeUndefined();
        expect(hasArticle(r.content), page).toBe(true);
      }
    } finally {
      await f.close();
    }
  });
  it('still waits for the slow request the article comes from, beside one that never ends', async () => {
    const f = patient();
    try {
      const r = await f.fetchTarget(new AbortController().signal, caller, { url: `${sites.allowed.origin}/hung-and-slow.html`, options: { mode: 'text' } });
      expect(r.meta).toMatchObject({ rendered: true, title: ARTICLE.title });
      expect(r.meta?.render_partial).toBeUndefined();
      expect(hasArticle(r.content)).toBe(true);
    } finally {
      await f.close();
    }
  });
});

describe('under auto', () => {
  it('does not render a page whose article is in the HTML', async () => {
    const before = sites.allowed.hits.length;
    const r = await fetchPage('static.html');
    expect(r.meta).toMatchObject({ rendered: false });
    expect(hasArticle(r.content)).toBe(true);
    // No browser ever asked for the page's script: the only other request is the soft-404
    // probe's random path (SPEC §5.9, once per host).
    expect(sites.allowed.hits.slice(before).filter((h) => !/^\/[0-9a-f]{18}$/.test(h))).toEqual(['/static.html']);
  });
  it('renders a static article under always, and says so', async () => {
    const r = await fetchPage('static.html', 'always');
    expect(r.meta).toMatchObject({ rendered: true, render_why: 'always' });
    expect(hasArticle(r.content)).toBe(true);
  });
});

describe('a page that names no charset', () => {
  // Chromium reads such a page as windows-1252: "Weâ€™d" where the static fetch read "We’d".
  it.each(['unlabelled-utf8.html', 'unlabelled-gzip.html'])('%s is rendered as UTF-8, as the static fetch reads it', async (page) => {
    const r = await fetchPage(page, 'always');
    expect(r.meta).toMatchObject({ rendered: true, title: UNLABELLED_TEXT.title, charset: 'utf-8' });
    expect(r.content).toContain(UNLABELLED_TEXT.paragraph);
    expect(r.content).not.toMatch(/â€|Ã/);
  });
  it('a legacy windows-1252 page stays windows-1252 when rendered', async () => {
    const r = await fetchPage('unlabelled-legacy.html', 'always');
    expect(r.meta).toMatchObject({ rendered: true, title: legacyText(UNLABELLED_TEXT.title) });
    expect(r.content).toContain(legacyText(UNLABELLED_TEXT.paragraph));
  });
  it('a legacy windows-1251 page is rendered in the charset the static fetch detected', async () => {
    const r = await fetchPage('unlabelled-cyrillic.html', 'always');
    expect(r.meta).toMatchObject({ rendered: true, title: CYRILLIC_TEXT.title });
    expect(r.content).toContain(CYRILLIC_TEXT.paragraph);
  });
});

describe('the guard covers everything a rendered page does', () => {
  it('a forbidden host receives zero connections from any channel, and the proxy refused each', async () => {
    refused.length = 0;
    const r = await fetchPage('ssrf.html', 'always');
    // The page itself rendered: the channels ran, they were only refused.
    expect(hasArticle(r.content)).toBe(true);
    await expect(fetchPage('navigate.html', 'always')).rejects.toMatchObject({ status: 403, reason: 'blocked' });
    expect(sites.forbidden.connections).toBe(0);
    expect(sites.forbidden.hits).toEqual([]);
    const forbiddenHost = new URL(sites.forbidden.origin).hostname;
    expect(refused.filter((e) => e.host !== forbiddenHost)).toEqual([]);
    const paths = new Set(refused.map((e) => e.path ?? `(${e.via})`));
    // fetch, XHR, images, iframe, stylesheet, beacon, redirect, location.href; the WebSocket
    // comes as a CONNECT tunnel.
    for (const p of ['/fetch', '/xhr', '/image.png', '/image2.png', '/iframe', '/style.css', '/beacon', '/redirected', '/location', '/prefetch', '(connect)']) {
      expect(paths, `refused ${[...paths].join(' ')}`).toContain(p);
    }
  });
  it('nor from the rarer channels: CSS, media, pings, forms, every spelling of its address, WebRTC and WebTransport', async () => {
    refused.length = 0;
    const before = sites.forbidden.connections;
    const r = await fetchPage('ssrf-more.html', 'always');
    expect(hasArticle(r.content)).toBe(true);
    expect(sites.forbidden.connections).toBe(before);
    // UDP would go past the proxy altogether: Chromium's WebRTC flags keep it in (without
    // them STUN and TURN sent 4 datagrams here).
    expect(sites.forbiddenUdp.datagrams).toBe(0);
    const paths = new Set(refused.map((e) => e.path ?? `(${e.via})`));
    for (const p of ['/import.css', '/bg.png', '/font.woff', '/video.mp4', '/object', '/svg.png', '/ping', '/form', '/keepalive', '/decimal', '/hex', '/octal', '/short', '/mapped', '/dot', '/percent', '(connect)']) {
      expect(paths, `refused ${[...paths].join(' ')}`).toContain(p);
    }
  });
  it('still goes through the proxy when the environment tells playwright-core to let loopback bypass it', async () => {
    // A developer's shell may set this for their own Playwright tests; Chromium then sent the
    // page's requests to 127.0.0.0/8 straight to the host, past the guard.
    const name = 'PLAYWRIGHT_DISABLE_FORCED_CHROMIUM_PROXIED_LOOPBACK';
    const was = process.env[name];
    process.env[name] = '1';
    try {
      refused.length = 0;
      const before = sites.forbidden.connections;
      const r = await fetchPage('ssrf.html', 'always');
      expect(hasArticle(r.content)).toBe(true);
      expect(sites.forbidden.connections).toBe(before);
      expect(refused.map((e) => e.path)).toContain('/image.png');
    } finally {
      if (was === undefined) delete process.env[name];
      else process.env[name] = was;
    }
  });
});

describe('a page whose script moves it on after it loaded', () => {
  it('is the page it went to, not a page that "did not yield"', async () => {
    const r = await fetchPage('moves-on.html', 'always');
    expect(r.meta).toMatchObject({ rendered: true, title: ARTICLE.title, final_url: `${sites.allowed.origin}/inline.html` });
    expect(hasArticle(r.content)).toBe(true);
  });
  it('is blocked when it went where the guard refuses, and that host sees no connection', async () => {
    const before = sites.forbidden.connections;
    await expect(fetchPage('moves-on-forbidden.html', 'always')).rejects.toMatchObject({ status: 403, reason: 'blocked' });
    expect(sites.forbidden.connections).toBe(before);
  });
  it('to a page its server does not have says the page went there, not that the URL is gone', async () => {
    const err = await fetchPage('moves-on-gone.html', 'always').catch((e: unknown) => e);
    expect(sites.allowed.hits).toContain('/moved-away.html');
    // Before: "HTTP 404 Not Found", "The page is gone; the recover option looks for an archived
    // copy", of a URL that answers 200 and whose own page loads.
    expect(err).toMatchObject({ status: 404, reason: 'upstream', message: 'the rendered page went (by a redirect or a script) to a page that answered HTTP 404 Not Found' });
    expect((err as FetchError).hint).not.toMatch(/gone|recover/);
    expect((err as FetchError).hint).toMatch(/\(--render never\)/);
  });
});

describe('a page whose script sends the reader where the browser cannot go', () => {
  const to = (url: string): string => `navigate-to.html?to=${encodeURIComponent(url)}`;
  it('to a host that does not answer, over https or http, is a network failure, not "blocked"', async () => {
    const dead = await closedPort();
    for (const url of [`https://127.0.0.1:${dead}/gone`, `http://127.0.0.1:${dead}/gone`]) {
      const err = await fetchPage(to(url), 'always').catch((e: unknown) => e);
      expect(err, url).toMatchObject({ status: 502, reason: 'network' });
      expect((err as FetchError).hint, url).not.toMatch(/allow/i);
    }
  });
  it('to a forbidden host over https is blocked, and that host sees no connection', async () => {
    const before = sites.forbidden.connections;
    await expect(fetchPage(to(`${sites.forbidden.origin.replace(/^http:/, 'https:')}/tls`), 'always')).rejects.toMatchObject({ status: 403, reason: 'blocked' });
    expect(sites.forbidden.connections).toBe(before);
  });
  it('to an empty page (about:blank) says the page left itself for an empty one, not ok and empty', async () => {
    // Before: ok, content '' and marked thin, as if the page were short.
    const err = await fetchPage(to('about:blank'), 'always').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(FetchError);
    expect(err).toMatchObject({ reason: 'needs_js' });
    expect((err as FetchError).message).toMatch(/empty page \(about:blank\)/);
    expect((err as FetchError).hint).toMatch(/open it in a browser/);
  });
});

describe('a URL whose server sends no page', () => {
  it('is the empty answer it is under always, as under never: not an app shell, nor a page the browser could not load', async () => {
    // Before: 502 "rendering failed" (Chromium stays on about:blank; the app's window read that
    // as a script that left for about:blank, needs_js) where never and auto said ok and empty.
    for (const path of ['no-content', 'reset-content']) {
      const never = await fetchPage(path, 'never');
      const always = await fetchPage(path, 'always');
      expect(always.content, path).toBe('');
      expect(always.meta, path).toMatchObject({ status: never.meta?.status, rendered: false, warnings: ['empty'] });
      expect(always.meta?.warnings, path).toEqual(never.meta?.warnings);
    }
  });
});

describe('a page whose script sends the browser on to a file on a forbidden host once it has loaded', () => {
  it('is the page, as its server sent it, and says what the guard refused; that host sees no connection', async () => {
    // Before: 403 blocked, the whole page lost to a download a browser would have saved beside it.
    const before = sites.forbidden.connections;
    for (const path of ['download-forbidden.html', 'download-forbidden.html?https']) {
      const r = await fetchPage(path, 'always');
      expect(hasArticle(r.content), path).toBe(true);
      expect(r.meta, path).toMatchObject({ title: ARTICLE.title, rendered: false });
      // The browser's own count: over https it asks for the tunnel again after a refusal.
      expect(r.meta?.render_refused, path).toBeGreaterThanOrEqual(1);
      expect(String(r.meta?.render_refused_why), path).toMatch(/went on to an address Sift does not fetch.*as its server sent it/);
    }
    expect(sites.forbidden.connections).toBe(before);
  });
});

describe('a page whose server sends the browser elsewhere than it sent the static fetch', () => {
  /** Serves /page once (the static fetch), then redirects the browser's request for it to `to`. */
  async function redirectsTheBrowser(to: string, work: (url: string) => Promise<void>): Promise<void> {
    let served = 0;
    const page = `<!doctype html><html><head><title>Tides</title></head><body><article>${'<p>Spring tides come with the full and the new moon.</p>'.repeat(20)}</article></body></html>`;
    const s = createHttpServer((req, res) => {
      if (req.url !== '/page') return void res.writeHead(404).end();
      if (served++ === 0) return void res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page);
      res.writeHead(302, { location: to }).end();
    });
    await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
    try {
      await work(`http://127.0.0.1:${(s.address() as AddressInfo).port}/page`);
    } finally {
      await new Promise((resolve) => s.close(resolve));
    }
  }
  const render = (url: string) => fetcher.fetchTarget(new AbortController().signal, caller, { url, options: { mode: 'text', render: 'always' } });
  it('to an https address that does not answer: a network failure, not "blocked"', async () => {
    await redirectsTheBrowser(`https://127.0.0.1:${await closedPort()}/moved`, async (url) => {
      const err = await render(url).catch((e: unknown) => e);
      expect(err).toMatchObject({ status: 502, reason: 'network' });
      expect((err as FetchError).hint).not.toMatch(/allow/i);
    });
  });
  it("to a dead https address is a network failure though another page rendering at the same time had a request refused", async () => {
    const both = createFetcher({ allowHosts: ['127.0.0.1'], renderBudgetMs: BUDGET_MS, renderPages: 2 });
    const refusedNow = new Promise<void>((resolve) => both.proxy.on((e) => e.kind === 'refused' && resolve()));
    // The other page asks the forbidden host for a script (refused) while it renders.
    let signalled!: () => void;
    const otherRefused = new Promise<void>((r) => (signalled = r));
    const other = createHttpServer((req, res) => {
      if (req.url === '/signal') {
        signalled();
        return void res.writeHead(204).end();
      }
      // Its own page only: a host that answers every path with it is a catch-all (a soft 404).
      if (req.url !== '/other') return void res.writeHead(404).end();
      const script = `${sites.forbidden.origin.replace(/^http:/, 'https:')}/x.js`;
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(`<!doctype html><html><head><title>Other</title></head><body><article>${'<p>The other page renders beside it.</p>'.repeat(20)}</article><script src="${script}" onerror="fetch('/signal')"></script></body></html>`);
    });
    await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
    try {
      // This page's browser request is redirected to a dead https port only once the other page's request was refused.
      let served = 0;
      const page = `<!doctype html><html><head><title>Tides</title></head><body><article>${'<p>Spring tides come with the full and the new moon.</p>'.repeat(20)}</article></body></html>`;
      const dead = `https://127.0.0.1:${await closedPort()}/moved`;
      const s = createHttpServer((req, res) => {
        if (req.url !== '/page') return void res.writeHead(404).end();
        if (served++ === 0) return void res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page);
        void Promise.all([otherRefused, refusedNow]).then(() => res.writeHead(302, { location: dead }).end());
      });
      await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
      try {
        const render2 = (url: string) => both.fetchTarget(new AbortController().signal, caller, { url, options: { mode: 'text', render: 'always' } });
        const [mine, theirs] = await Promise.allSettled([render2(`http://127.0.0.1:${(s.address() as AddressInfo).port}/page`), render2(`http://127.0.0.1:${(other.address() as AddressInfo).port}/other`)]);
        expect(theirs.status).toBe('fulfilled');
        expect(mine).toMatchObject({ status: 'rejected', reason: { status: 502, reason: 'network' } });
      } finally {
        await new Promise((resolve) => s.close(resolve));
      }
    } finally {
      await new Promise((resolve) => other.close(resolve));
      await both.close();
    }
  });
  it('to a forbidden https address: blocked, and that host sees no connection', async () => {
    const before = sites.forbidden.connections;
    await redirectsTheBrowser(`${sites.forbidden.origin.replace(/^http:/, 'https:')}/moved`, async (url) => {
      const err = await render(url).catch((e: unknown) => e);
      expect(err).toMatchObject({ status: 403, reason: 'blocked' });
      // The same way out as a static fetch's block: the one host, or every private address.
      expect((err as FetchError).hint).toMatch(/--allow-host HOST.*--allow-private/);
    });
    expect(sites.forbidden.connections).toBe(before);
  });
});

/** A loopback port nothing listens on: one the kernel gave and took back. */
async function closedPort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
  const { port } = s.address() as AddressInfo;
  await new Promise((resolve) => s.close(resolve));
  return port;
}

describe("the browser's own requests", () => {
  it('a page with a sign-in form makes the browser ask no one about it: no name is looked up beside the page', async () => {
    const asked: string[] = [];
    const events: ProxyEvent[] = [];
    // No real DNS: a name the browser asks for on its own is recorded and does not resolve.
    const lookup = async (hostname: string) => {
      asked.push(hostname);
      throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
    };
    const f = createFetcher({ allowHosts: ['127.0.0.1'], renderBudgetMs: BUDGET_MS }, { lookup });
    const off = f.proxy.on((e) => events.push(e));
    try {
      const r = await fetchOn(f, 'sign-in-form.html');
      expect(r.meta).toMatchObject({ rendered: true });
      expect(asked).toEqual([]);
      expect(events.filter((e) => e.host !== '127.0.0.1')).toEqual([]);
    } finally {
      off();
      await f.close();
    }
  });
});

describe('a page that never yields', () => {
  it('ends as a 504 within the budget plus a few seconds, and the next target renders normally', async () => {
    const f = createFetcher({ allowHosts: ['127.0.0.1'], renderBudgetMs: 3_000 });
    try {
      const started = Date.now();
      const err = await fetchOn(f, 'busy.html').catch((e: unknown) => e);
      expect(err).toBeInstanceOf(FetchError);
      expect(err).toMatchObject({ status: 504, code: 'timeout' });
      // Budget 3 s, plus the grace to hand over a DOM and to close a stuck page (≤ 5 s), plus
      // the browser's start-up on a loaded machine.
      expect(Date.now() - started).toBeLessThan(3_000 + 15_000);
      const next = await fetchOn(f, 'inline.html');
      expect(hasArticle(next.content)).toBe(true);
    } finally {
      await f.close();
    }
  });
});

describe('a page whose DOM takes long to read', () => {
  // slow-read.html's read takes ?ms= by its own making, whatever the machine's speed: 4 s is
  // twice the 2 s that were left past the budget, and the page answers PROBE throughout.
  it('is read when its budget ran out, though reading takes longer than what was left, not failed as a page that "did not yield"', async () => {
    const f = createFetcher({ allowHosts: ['127.0.0.1'], renderBudgetMs: 3_000 });
    try {
      const r = await fetchOn(f, 'slow-read.html?ms=4000');
      expect(r.meta).toMatchObject({ rendered: true, render_partial: true });
      expect(r.content).toContain("The card's words come from a web component");
    } finally {
      await f.close();
    }
  });
  it('is let go of when reading takes longer than the allowance, said as a read that did not finish: a page cannot hold the browser by its read', async () => {
    const f = createFetcher({ allowHosts: ['127.0.0.1'], renderBudgetMs: 3_000 }, { renderer: (env) => new ChromiumRenderer(env, { readMs: 1_000 }) });
    try {
      // Not "did not yield within the render budget": it answered, and a bigger budget would not help.
      await expect(fetchOn(f, 'slow-read.html?ms=4000')).rejects.toMatchObject({
        status: 504,
        code: 'timeout',
        message: expect.stringMatching(/^timeout: the page answered, but its document could not be read within 1 s/),
        hint: RENDER_HINT.download.cli,
      });
      const next = await fetchOn(f, 'inline.html');
      expect(hasArticle(next.content)).toBe(true);
    } finally {
      await f.close();
    }
  });
});

describe('a page that crashes its tab', () => {
  it('fails as a crash, while loading or after, not as a page that "did not yield", and the next target renders', async () => {
    // A budget well past the ~10 s a tab takes to run out of memory here: the crash ends the render, not the budget.
    const f = createFetcher({ allowHosts: ['127.0.0.1'], renderBudgetMs: 120_000 });
    try {
      for (const page of ['crash-later.html', 'crash-loading.html']) {
        const err = await fetchOn(f, page).catch((e: unknown) => e);
        expect(err, page).toMatchObject({ status: 502, message: 'rendering failed: the page crashed the browser' });
        expect((err as FetchError).hint).toMatch(/page process ended \(out of memory, or a crash\)/);
      }
      const next = await fetchOn(f, 'inline.html');
      expect(hasArticle(next.content)).toBe(true);
    } finally {
      await f.close();
    }
  }, 400_000);
});

describe('a browser that quits while a page renders', () => {
  it('fails the page as a browser that quit, whether it was loading or being asked whether it had settled, and the next target renders', async () => {
    let renderer!: ChromiumRenderer;
    const f = createFetcher({ allowHosts: ['127.0.0.1'], renderBudgetMs: 60_000 }, { renderer: (env) => (renderer = new ChromiumRenderer(env)) });
    try {
      // Killed as the page loads (its script asked for), and as the settle loop waits on the page.
      for (const [page, when] of [
        ['hung-script.html', '/hung/tag.js'],
        ['stuck-when-asked.html', '/held-while-asked'],
      ] as const) {
        const asked = sites.allowed.next(when);
        const rendering = fetchOn(f, page).catch((e: unknown) => e);
        await asked;
        process.kill((await renderer.browserPid()) as number, 'SIGKILL');
        const err = await rendering;
        // Before: "the browser could not load the page; try render=never", or "the page's
        // JavaScript did not yield within the render budget (60 s)" a moment into it.
        expect(err, page).toMatchObject({ status: 502, message: 'rendering failed: the browser quit while the page rendered' });
        expect((err as FetchError).hint, page).toMatch(/try this one again/);
      }
      const next = await fetchOn(f, 'inline.html');
      expect(hasArticle(next.content)).toBe(true);
    } finally {
      await f.close();
    }
  });
});

describe('a page the server never sends to the browser', () => {
  it('is a timeout that says so, not a page whose JavaScript kept the browser busy', async () => {
    const f = createFetcher({ allowHosts: ['127.0.0.1'], renderBudgetMs: 3_000 });
    try {
      const err = await fetchOn(f, 'answers-once.html').catch((e: unknown) => e);
      expect(err).toMatchObject({ status: 504, code: 'timeout' });
      expect((err as FetchError).msg).toMatch(/the server did not send the page to the browser/);
      expect((err as FetchError).hint).not.toMatch(/keeps the browser busy/);
    } finally {
      await f.close();
    }
  });
});

function fetchOn(f: Fetcher, path: string) {
  return f.fetchTarget(new AbortController().signal, caller, { url: `${sites.allowed.origin}/${path}`, options: { mode: 'text', render: 'always' } });
}

describe('isolation', () => {
  it('refuses popups and downloads', async () => {
    const before = sites.allowed.hits.length;
    const r = await fetchPage('popup.html', 'always');
    expect(r.content).toContain('window.open gave null, from a frame null');
    expect(r.meta).toMatchObject({ final_url: `${sites.allowed.origin}/popup.html` });
    const hits = sites.allowed.hits.slice(before);
    expect(hits).not.toContain('/popup-target');
    expect(hits).not.toContain('/popup-target-frame');
  });
  it('reads a page that sent the browser to a download while it loaded once it settles, not at the end of the budget', async () => {
    const r = await fetchPage('download-moves.html', 'always');
    expect(r.meta).toMatchObject({ rendered: true, title: ARTICLE.title, final_url: `${sites.allowed.origin}/download-moves.html` });
    expect(r.meta?.render_partial).toBeUndefined();
    expect(hasArticle(r.content)).toBe(true);
  });
  it('says a page the server sends as a download is one, which a browser saves instead of showing', async () => {
    const err = await fetchPage('attachment.html', 'always').catch((e: unknown) => e);
    expect(err).toMatchObject({ status: 415, reason: 'unsupported', message: 'rendering failed: the server sends the page as a file to download (Content-Disposition: attachment), which a browser saves instead of showing' });
    expect((err as FetchError).hint).toMatch(/\(--render never\)/);
  });
  it('leaves no cookie, storage, IndexedDB or cache from one target to the next', async () => {
    const cachedBefore = sites.allowed.hits.filter((h) => h === '/cached.js').length;
    for (let i = 0; i < 2; i++) {
      const r = await fetchPage('state.html', 'always');
      expect(r.content).toContain('cookie=[] local=[null] session=[null] idb=[new] cachedRuns=[1]');
    }
    // cached.js may be cached for an hour; each target fetched it anew.
    expect(sites.allowed.hits.filter((h) => h === '/cached.js').length - cachedBefore).toBe(2);
  });
});

describe('waiting for a render slot', () => {
  const rendered = (f: Fetcher) => f.fetchTarget(new AbortController().signal, caller, { url: `${sites.allowed.origin}/inline.html`, options: { mode: 'text', render: 'always' } });
  it("fails busy (retried) when every render slot stayed taken past the target's time per URL, not 'timeout: waiting for a render slot'", async () => {
    // Time per URL 3 s, the render slots' own wait 25 s (twice the budget and 5 s): the target
    // never got its turn to render, and was told it took too long.
    const f = createFetcher({ allowHosts: ['127.0.0.1'], renderBudgetMs: BUDGET_MS, renderPages: 1, deadlineMs: 3_000 });
    const held = await f.renderGate.acquire(new AbortController().signal);
    try {
      const e = await rendered(f).catch((err: unknown) => err);
      expect(e).toMatchObject({ status: 503, code: 'busy' });
      expect((e as FetchError).hint).toMatch(/render/);
      // What the runner says while it waits to try again (and the row once the retries ran
      // out) names the render slots, not "fetching as many pages": the fetches were not full.
      expect(busyWhy(mapFetchError(e, { caller, log: silentLog(), onBlocked: () => {} }))).toBe('Sift is already rendering as many pages as it may at once');
    } finally {
      held();
      await f.close();
    }
  });
  it('counts render_ms from when the page got its render slot, not the wait for one', async () => {
    let clock = 1_000_000;
    const f = createFetcher({ allowHosts: ['127.0.0.1'], renderBudgetMs: BUDGET_MS, renderPages: 1 }, { now: () => clock });
    const held = await f.renderGate.acquire(new AbortController().signal);
    try {
      const fetching = rendered(f);
      await vi.waitFor(() => expect(f.renderGate.waiting()).toBe(1), { timeout: 30_000 });
      // It waited 20 s for the slot.
      clock += 20_000;
      held();
      const r = await fetching;
      expect(r.meta).toMatchObject({ rendered: true, title: ARTICLE.title });
      expect(r.meta?.render_ms).toBeLessThan(20_000);
    } finally {
      held();
      await f.close();
    }
  });
});

describe('a job cancelled while its page renders', () => {
  it('stores the target as cancelled, though the page was not answering, not as a page that "did not yield"', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'sift-render-cancel-'));
    const store = openStore(path.join(dir, 'sift.db'));
    const f = createFetcher({ allowHosts: ['127.0.0.1'], renderBudgetMs: 60_000 });
    const runner = createBatchRunner(store, f, {}, new BatchMetrics(), silentLog());
    try {
      const { id } = runner.submit(caller, 'test', [{ url: `${sites.allowed.origin}/stuck-when-asked.html`, options: { mode: 'text', render: 'always' } }]);
      // The page blocks as Sift asks it whether it has settled: the render is waiting on it.
      await sites.allowed.hit('/held-while-asked');
      expect(runner.cancel(id)).toBe(true);
      await runner.settled(id);
      expect(store.getJob(id)?.status).toBe('cancelled');
      const target = store.targetResult(id, 0);
      expect(target).toMatchObject({ reason: 'cancelled' });
      expect(target?.error).not.toMatch(/timeout|yield|internal/);
    } finally {
      await runner.close();
      await f.close();
      store.close();
    }
  });
});

describe('a job cancelled just as its page starts rendering', () => {
  it('stores the target cancelled at once: the browser never asks for the page, nor waits for its load', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'sift-render-cancel-early-'));
    const store = openStore(path.join(dir, 'sift.db'));
    let cancel = (): void => {};
    // The cancel comes as the page's browser context is being made, after the browser started:
    // the render has begun and the page is not yet asked for.
    const f = createFetcher(
      { allowHosts: ['127.0.0.1'], renderBudgetMs: 30_000 },
      { renderer: (env) => new ChromiumRenderer({ ...env, proxySession: () => env.proxySession().finally(() => cancel()) }) },
    );
    const runner = createBatchRunner(store, f, {}, new BatchMetrics(), silentLog());
    try {
      const page = '/hung-parser.html';
      const { id } = runner.submit(caller, 'test', [{ url: `${sites.allowed.origin}${page}`, options: { mode: 'text', render: 'always' } }]);
      cancel = () => void runner.cancel(id);
      await runner.settled(id);
      expect(store.getJob(id)?.status).toBe('cancelled');
      expect(store.targetResult(id, 0)).toMatchObject({ reason: 'cancelled' });
      // Once, by the static fetch. Before, the browser went on to load it, and its parser, held
      // by a script that never came, kept the cancelled target 11.3 s, until the proxy gave up on that script.
      expect(sites.allowed.hits.filter((h) => h === page)).toHaveLength(1);
    } finally {
      await runner.close();
      await f.close();
      store.close();
    }
  });
});

describe('a shell that stays empty in the browser', () => {
  it('is needs_js that says it was rendered, not "turn on rendering"', async () => {
    const e = await fetchPage('broken-shell.html').catch((err: unknown) => err);
    expect(e).toMatchObject({ status: 422, code: 'needs_js', reason: 'needs_js' });
    // Its bundle is missing (the server answers it 404): said so, not that its scripts ran.
    expect((e as FetchError).message).toMatch(/its server answered 1 of its scripts with an error \(HTTP 404\), so it never ran/);
    expect((e as FetchError).hint).not.toMatch(/Turn on rendering/);
    // Not rendered, the same shell says how to render it.
    const never = await fetchPage('broken-shell.html', 'never').catch((err: unknown) => err);
    expect((never as FetchError).hint).toMatch(/^Turn on rendering/);
  });

  it("says how to turn rendering on in the words of what asked: the app's setting for the app, the flag for the command line", async () => {
    const asked = (name: string) => fetcher.fetchTarget(new AbortController().signal, { name }, { url: `${sites.allowed.origin}/broken-shell.html`, options: { mode: 'text', render: 'never' } }).then(
        () => expect.fail('the shell came back as a page'),
        (err: unknown) => err as FetchError,
      );
    const app = await asked('desktop');
    expect(app).toMatchObject({ reason: 'needs_js' });
    expect(app.hint).toMatch(/“Run a page’s JavaScript” in Settings/);
    expect(app.hint).not.toMatch(/--render/);
    const cli = await asked('cli');
    expect(cli.hint).toMatch(/--render auto/);
    expect(cli.hint).not.toMatch(/Settings/);
  });
});

describe('a parked domain', () => {
  it("is a soft 404 once its script draws the placeholder, not an ok thin page of the seller's links", async () => {
    // Its HTML is an empty shell, so it is rendered; rendered, it says the domain is for sale.
    const e = await fetchPage('parked-lander.html').catch((err: unknown) => err);
    expect(e).toMatchObject({ status: 404, code: 'soft404', reason: 'soft404' });
    expect((e as FetchError).message).toMatch(/^soft 404: the domain is parked/);
    expect((e as FetchError).hint).toMatch(/recover option looks for an archived copy/);
  });
});

describe('without a browser', () => {
  it('auto fails an app shell as needs_js with a hint how to get one; always fails with that hint; a static page is fine', async () => {
    const f = createFetcher({ allowHosts: ['127.0.0.1'], chromiumPath: '/nonexistent/chrome' });
    try {
      const shell = await fetchNoBrowser(f, 'inline.html', 'auto').catch((e: unknown) => e);
      expect(shell).toMatchObject({ status: 422, code: 'needs_js', reason: 'needs_js' });
      expect((shell as FetchError).hint).toMatch(/SIFT_CHROMIUM/);
      const always = await fetchNoBrowser(f, 'static.html', 'always').catch((e: unknown) => e);
      expect(always).toMatchObject({ status: 422, code: 'no_browser' });
      expect((always as FetchError).message).toMatch(/rendering unavailable: "Browser for the command line" in the app’s Settings names no executable browser/);
      expect((always as FetchError).hint).toMatch(/Install Chromium/);
      const ok = await fetchNoBrowser(f, 'static.html', 'auto');
      expect(ok.meta).toMatchObject({ rendered: false });
      await expect(fetchNoBrowser(f, 'inline.html', 'never')).rejects.toMatchObject({ status: 422, reason: 'needs_js' });
    } finally {
      await f.close();
    }
  });
});

describe('a browser that never finishes starting', () => {
  /**
   * An executable that starts and then neither answers nor exits (a wrapper script waiting on
   * something): it tells the test its pid over loopback, then idles. Each test gets its own.
   */
  async function hangingBrowser(): Promise<{ path: string; started: Promise<number>; close: () => Promise<void> }> {
    let onStart!: (pid: number) => void;
    const started = new Promise<number>((r) => (onStart = r));
    const hook = createHttpServer((req, res) => {
      onStart(Number(req.url?.slice(1)));
      res.end();
    });
    await new Promise<void>((resolve) => hook.listen(0, '127.0.0.1', resolve));
    const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'sift-hanging-browser-')), 'chrome');
    const port = (hook.address() as AddressInfo).port;
    writeFileSync(file, `#!${process.execPath}\nrequire('http').get('http://127.0.0.1:${port}/' + process.pid, (r) => r.resume());\nsetInterval(() => {}, 1 << 30);\n`, { mode: 0o755 });
    return { path: file, started, close: () => new Promise((resolve) => hook.close(() => resolve())) };
  }
  /** Running or sleeping: not gone, and not a zombie waiting for its parent. */
  const alive = (pid: number): boolean => {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
    } catch {
      return false;
    }
  };
  it('fails the page as a browser that did not start, after its start time, not after the target deadline, and leaves no process', async () => {
    const b = await hangingBrowser();
    const f = createFetcher({ allowHosts: ['127.0.0.1'], chromiumPath: b.path }, { renderer: (env) => new ChromiumRenderer(env, { launchMs: 3_000 }) });
    try {
      const err = await fetchNoBrowser(f, 'static.html', 'always').catch((e: unknown) => e);
      expect(err).toMatchObject({ status: 422, code: 'no_browser', message: `rendering unavailable: ${b.path} did not start as a browser (no answer within 3 s of its start)` });
      expect((err as FetchError).hint).toMatch(/^Install Chromium or Google Chrome, or point Sift at one/);
      expect(alive(await b.started)).toBe(false);
    } finally {
      await f.close();
      await b.close();
    }
  });
  it('lets a target cancelled while the browser starts end at once, and closing ends the start', async () => {
    const b = await hangingBrowser();
    const f = createFetcher({ allowHosts: ['127.0.0.1'], chromiumPath: b.path }, { renderer: (env) => new ChromiumRenderer(env, { launchMs: 600_000 }) });
    try {
      const ac = new AbortController();
      const rendering = f.fetchTarget(ac.signal, caller, { url: `${sites.allowed.origin}/static.html`, options: { mode: 'text', render: 'always' } }).catch((e: unknown) => e);
      await b.started;
      const why = new Error('cancelled');
      ac.abort(why);
      // The cancellation itself, as for any fetch cancelled (the runner stores it as cancelled).
      expect(await rendering).toBe(why);
      // Closing (sift exiting after Ctrl-C) ends the start under way, rather than waiting for it.
      await f.close();
      expect(alive(await b.started)).toBe(false);
    } finally {
      await f.close();
      await b.close();
    }
  });
});

function fetchNoBrowser(f: Fetcher, path: string, render: 'auto' | 'always' | 'never') {
  return f.fetchTarget(new AbortController().signal, caller, { url: `${sites.allowed.origin}/${path}`, options: { mode: 'text', render } });
}
