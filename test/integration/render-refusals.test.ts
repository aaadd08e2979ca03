import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createFetcher, type Fetcher } from '../../src/main/fetch';
import { ARTICLE, startRenderSites, type RenderSites } from '../helpers/render-sites';

/**
 * What the guard refused of a page that rendered, in the result's meta: through the real
 * pipeline (static fetch, guarding proxy, the system Chromium). 127.0.0.1 is the one host a
 * test allows (--allow-host), as a user allows their intranet; 127.0.0.2 stands for every host
 * the guard refuses.
 */
// A browser start on a loaded 2-core machine alone can take 10 s.
vi.setConfig({ testTimeout: 90_000 });

let sites: RenderSites;
let server: Server;
let origin = '';
let fetcher: Fetcher;
/** The clean page's data request, held until the test lets it go. */
let held: ServerResponse | undefined;
let heldCame: () => void = () => {};
const heldComing = new Promise<void>((resolve) => (heldCame = resolve));

const article = `<article><h1>${ARTICLE.title}</h1>${ARTICLE.paragraphs.map((p) => `<p>${p}</p>`).join('')}</article>`;

beforeAll(async () => {
  sites = await startRenderSites();
  const F = sites.forbidden.origin;
  const pages: Record<string, string> = {
    // Its article is there; its photo and its figures come from a host the guard refuses, one
    // over http (the proxy sees the path), one over https (a CONNECT tunnel).
    '/with-intranet-parts.html': `<!doctype html><title>${ARTICLE.title}</title><div id="root"></div><img src="${F}/photo.png" alt="">
      <script>document.getElementById('root').innerHTML = ${JSON.stringify(article)};
      fetch('${F.replace('http:', 'https:')}/figures.json').catch(function () {});</script>`,
    // An app shell whose article comes from an API on a host the guard refuses (the intranet's).
    '/intranet-app.html': `<!doctype html><html><head><meta charset="utf-8"><title>Loading</title></head><body><div id="app"></div><script src="/intranet-app.js"></script></body></html>`,
    '/intranet-app.js': `fetch('${F}/api/article.json').then(function (r) { return r.json(); }).then(function (d) { document.getElementById('app').textContent = d.title; });`,
    // Nothing refused: its article comes from its own host, once the test lets the request go.
    '/clean.html': `<!doctype html><title>${ARTICLE.title}</title><div id="root"></div>
      <script>fetch('/held.html').then(function (r) { return r.text(); }).then(function (t) { document.getElementById('root').innerHTML = t; });</script>`,
  };
  server = createServer((req, res) => {
    if (req.url === '/held.html') {
      held = res;
      heldCame();
      return;
    }
    const body = pages[req.url ?? ''];
    if (body === undefined) return void res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
    res.writeHead(200, { 'content-type': req.url?.endsWith('.js') ? 'text/javascript' : 'text/html; charset=utf-8', 'cache-control': 'no-store' }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  fetcher = createFetcher({ allowHosts: ['127.0.0.1'], renderBudgetMs: 10_000, renderPages: 2 });
});
afterAll(async () => {
  held?.destroy();
  await fetcher.close();
  await new Promise((resolve) => server.close(resolve));
  await sites.close();
});

// The command line's caller: what to do names its flag (the app's names Settings, hints-surface.test.ts).
const render = (path: string, mode: 'auto' | 'always' = 'always', caller = 'cli') => fetcher.fetchTarget(new AbortController().signal, { name: caller }, { url: `${origin}${path}`, options: { mode: 'text', render: mode } });

describe('a page that rendered without what the guard refused it', () => {
  it('says in its meta how many requests were refused, to which host, why, and what to do', async () => {
    const r = await render('/with-intranet-parts.html');
    expect(ARTICLE.paragraphs.every((p) => r.content.includes(p))).toBe(true);
    expect(r.meta).toMatchObject({ rendered: true, render_refused: 2 });
    const words = String(r.meta?.render_refused_why);
    expect(words).toContain("Sift's guard refused 2 requests the page made, to 127.0.0.2: a loopback address (this computer).");
    expect(words).toContain('--allow-host HOST');
    const inApp = await render('/with-intranet-parts.html', 'always', 'desktop');
    expect(String(inApp.meta?.render_refused_why)).toMatch(/allow it in Settings, under Network\.$/);
    expect(sites.forbidden.connections).toBe(0);
  });
  it('an app shell that stayed empty because its data was refused says so first, not only "give it more time"', async () => {
    const err = await render('/intranet-app.html', 'auto').catch((e: unknown) => e);
    expect(err).toMatchObject({ status: 422, reason: 'needs_js', message: expect.stringContaining('content did not appear in a browser, though its scripts ran') });
    const hint = (err as { hint: string }).hint;
    expect(hint).toMatch(/^Sift's guard refused 1 request the page made, to 127\.0\.0\.2: a loopback address \(this computer\)\. The page's content may come from it\. /);
    expect(hint).toContain('--allow-host HOST');
    expect(hint).toContain('Otherwise: its scripts may need a sign-in');
    expect(sites.forbidden.connections).toBe(0);
  });
  it("counts only its own page's refusals, not those of a page rendering beside it", async () => {
    // The clean page is held rendering (its data request unanswered) until the other page's
    // refusals have happened, so the two overlap whatever the machine's speed.
    const clean = render('/clean.html');
    await heldComing;
    const refusedNow = new Promise<void>((resolve) => {
      const off = fetcher.proxy.on((e) => {
        if (e.kind === 'refused' && e.path === '/photo.png') {
          off();
          resolve();
        }
      });
    });
    const other = render('/with-intranet-parts.html');
    await refusedNow;
    held?.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(article);
    const [a, b] = await Promise.all([clean, other]);
    expect(ARTICLE.paragraphs.every((p) => a.content.includes(p))).toBe(true);
    expect(a.meta).toMatchObject({ rendered: true });
    expect(a.meta).not.toHaveProperty('render_refused');
    expect(a.meta).not.toHaveProperty('render_refused_why');
    expect(b.meta).toMatchObject({ render_refused: 2 });
  });
});
