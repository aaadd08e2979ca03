import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createServer, type Server, type ServerResponse } from 'node:http';
import { createServer as createNetServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { createFetcher, type FetchError, type Fetcher } from '../../src/main/fetch';
import { startRenderSites, type RenderSites } from '../helpers/render-sites';

/**
 * What a rendered app shell's failure says when its own scripts are what failed: they threw,
 * their server never finished sending them, or the guard refused them. Through the real
 * pipeline (static fetch, guarding proxy, the system Chromium); 127.0.0.1 is the one host
 * allowed, 127.0.0.2 stands for every host the guard refuses.
 */
// A browser start on a loaded 2-core machine alone can take 10 s.
vi.setConfig({ testTimeout: 90_000 });

let sites: RenderSites;
let server: Server;
let origin = '';
let fetcher: Fetcher;
/** Script responses held open: their server never finishes sending them. */
const held: ServerResponse[] = [];

const shell = (script: string): string =>
  `<!doctype html><html><head><meta charset="utf-8"><title>Loading</title></head><body><div id="app"></div><script src="${script}"></script></body></html>`;
const LONG = 'x'.repeat(600);
/** 12 paragraphs of a story, in the page's data island; its bundle draws the first `shown` of them. */
const drawnShell = (shown: number, analytics: string): string => {
  const paragraphs = Array.from({ length: 12 }, (_, i) => `Paragraph ${i + 1}: the council met on Tuesday evening and agreed, after a long debate about costs, that the night buses will keep running until the end of the year.`);
  const data = JSON.stringify({ title: 'Night buses stay', shown, paragraphs }).replace(/</g, '\\u003c');
  return `<!doctype html><html><head><meta charset="utf-8"><title>Night buses stay</title></head><body><div id="app"></div><script id="__NEXT_DATA__" type="application/json">${data}</script><script src="${analytics}"></script><script src="/draws-article.js"></script></body></html>`;
};
/** A port nothing listens on, set in beforeAll: the unreached scripts' host. */
let closed = 0;

beforeAll(async () => {
  sites = await startRenderSites();
  // A port nothing listens on: a script's host that does not answer, over https as a CDN's is.
  closed = await new Promise<number>((resolve) => {
    const s = createNetServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as AddressInfo;
      s.close(() => resolve(port));
    });
  });
  const pages: Record<string, string> = {
    // An app whose bundle throws before it draws anything: the shell stays empty.
    '/throws.html': shell('/throws.js'),
    '/throws.js': "window.App.mount(document.getElementById('app'));",
    '/throws-long.html': shell('/throws-long.js'),
    // An app that draws nothing, beside a widget in an iframe whose own script throws.
    '/framed-throws.html': shell('/draws-nothing.js').replace('</body>', '<iframe src="/widget.html"></iframe></body>'),
    '/draws-nothing.js': '// waits for a sign-in that never comes',
    '/widget.html': '<!doctype html><html><body><script>throw new Error("the widget broke");</script></body></html>',
    '/throws-long.js': `throw new Error('state ${LONG}');`,
    // An app whose bundle's server sends its headers and then nothing more.
    '/held-script.html': shell('/held.js'),
    // An app whose bundle its server no longer has (a deploy removed it): 404.
    '/missing-bundle.html': shell('/static/js/main.0000.chunk.js'),
    // An app whose stylesheet's server sends its headers and then nothing more: the browser
    // runs no script after a stylesheet it has not got.
    '/held-style.html': `<!doctype html><html><head><meta charset="utf-8"><title>Loading</title><link rel="stylesheet" href="/held.css"></head><body><div id="app"></div><script src="/app.js"></script></body></html>`,
    '/app.js': "document.getElementById('app').textContent = 'drawn';",
    // An app whose bundle is on a host the guard refuses.
    '/foreign-bundle.html': shell(`${sites.forbidden.origin}/bundle.js`),
    // An app whose bundle is on one refused host and whose own script asks another refused host for its data.
    '/foreign-bundle-and-data.html': shell(`${sites.forbidden.origin}/bundle.js`).replace('</body>', '<script src="/asks-data.js"></script></body>'),
    '/asks-data.js': "fetch('http://127.0.0.3/api/items').catch(function () {});",
    // An app whose bundle's address its server answers with its index page, as a single-page
    // app's catch-all route does for a bundle a deploy removed: 200, text/html.
    '/html-bundle.html': shell('/static/js/main.1111.js'),
    '/static/js/main.1111.js': shell('/static/js/main.2222.js'),
    // The same, its bundle a module, which the browser refuses to run as HTML without throwing.
    '/html-module.html': shell('/static/js/app.3333.mjs').replace('<script src', '<script type="module" src'),
    '/static/js/app.3333.mjs': shell('/static/js/app.4444.mjs'),
    // An app that draws its article from its data island, beside an analytics script that
    // throws or whose server no longer has it: all of it, or its first 2 of 12 paragraphs.
    '/drawn-analytics-throws.html': drawnShell(12, '/analytics-throws.js'),
    '/drawn-part-analytics-throws.html': drawnShell(2, '/analytics-throws.js'),
    '/drawn-part-analytics-missing.html': drawnShell(2, '/analytics-gone.js'),
    '/draws-article.js':
      "var d = JSON.parse(document.getElementById('__NEXT_DATA__').textContent); var a = document.createElement('article'); var h = document.createElement('h1'); h.textContent = d.title; a.appendChild(h); d.paragraphs.slice(0, d.shown).forEach(function (t) { var p = document.createElement('p'); p.textContent = t; a.appendChild(p); }); document.getElementById('app').appendChild(a);",
    '/analytics-throws.js': 'window.dataLayer.push({ event: "view" });',
    // An app whose bundle is on a host that does not answer.
    '/unreached-bundle.html': shell(`https://127.0.0.1:${closed}/bundle.js`),
    // The same, and its own inline script calls the library that bundle was to define.
    '/unreached-library.html': shell(`https://127.0.0.1:${closed}/vue.js`).replace('</body>', "<script>new Vue({ el: '#app' });</script></body>"),
  };
  server = createServer((req, res) => {
    if (req.url === '/held.js' || req.url === '/held.css') {
      held.push(res);
      return void res.writeHead(200, { 'content-type': req.url.endsWith('.css') ? 'text/css' : 'text/javascript' }).write('/* the rest never comes */\n');
    }
    const body = pages[req.url ?? ''];
    if (body === undefined) return void res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
    const html = req.url?.startsWith('/static/') || !req.url?.endsWith('.js');
    res.writeHead(200, { 'content-type': !html ? 'text/javascript' : 'text/html; charset=utf-8', 'cache-control': 'no-store' }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  fetcher = createFetcher({ allowHosts: ['127.0.0.1'], renderBudgetMs: 10_000 });
});
afterAll(async () => {
  for (const r of held) r.destroy();
  await fetcher.close();
  await new Promise((resolve) => server.close(resolve));
  await sites.close();
});

const failure = (f: Fetcher, path: string, caller = 'cli', render?: 'always'): Promise<FetchError> =>
  f.fetchTarget(new AbortController().signal, { name: caller }, { url: `${origin}${path}`, options: { mode: 'text', ...(render ? { render } : {}) } }).then(
    () => expect.fail('the shell came back as a page'),
    (err: unknown) => err as FetchError,
  );

describe('an app shell whose script throws', () => {
  it("says the page's script failed, with its error, not that it may need a sign-in or more time", async () => {
    const err = await failure(fetcher, '/throws.html');
    expect(err).toMatchObject({ status: 422, reason: 'needs_js' });
    expect(err.message).toBe("needs JavaScript: the page's content did not appear in a browser because its script failed: TypeError: Cannot read properties of undefined (reading 'mount')");
    expect(err.hint).not.toMatch(/more time/);
    expect(err.hint).toMatch(/open it in a browser/i);
  });
  it('cuts a long error message short', async () => {
    const err = await failure(fetcher, '/throws-long.html');
    expect(err.message).toMatch(/because its script failed: Error: state x+…$/);
    expect(err.message.length).toBeLessThan(300);
  });
});

describe("an app shell beside an iframe whose script throws", () => {
  it("does not quote the iframe's error as the page's own script failing", async () => {
    const err = await failure(fetcher, '/framed-throws.html');
    expect(err).toMatchObject({ status: 422, reason: 'needs_js' });
    expect(err.message).not.toMatch(/widget broke|script failed/);
  });
});

describe('an app shell whose script its server answers with an error', () => {
  it('says its scripts were not there, not that they ran and may need a sign-in or more time', async () => {
    const err = await failure(fetcher, '/missing-bundle.html');
    expect(err).toMatchObject({ status: 422, reason: 'needs_js' });
    expect(err.message).toBe("needs JavaScript: the page's content did not appear in a browser because its server answered 1 of its scripts with an error (HTTP 404), so it never ran");
    expect(err.hint).not.toMatch(/more time/);
  });
});

describe('an app shell whose script its server answers with an HTML page', () => {
  it("says its script came back as an HTML page, not only the browser's SyntaxError at its '<'", async () => {
    const err = await failure(fetcher, '/html-bundle.html', 'cli', 'always');
    expect(err).toMatchObject({ status: 422, reason: 'needs_js' });
    expect(err.message).toBe("needs JavaScript: the page's content did not appear in a browser because its server answered 1 of its scripts with a web page instead of the script, so it never ran");
    expect(err.hint).toMatch(/^The site answers the address of the files that draw the page with a web page/);
    expect(err.hint).not.toMatch(/more time/);
  });
  it('says so of a module script too, which the browser refuses without an error of its own', async () => {
    const err = await failure(fetcher, '/html-module.html', 'cli', 'always');
    expect(err).toMatchObject({ status: 422, reason: 'needs_js' });
    expect(err.message).toMatch(/answered 1 of its scripts with a web page instead of the script/);
  });
});

describe('a page whose content drew, beside one unrelated script that failed', () => {
  const rendered = (path: string) => fetcher.fetchTarget(new AbortController().signal, { name: 'cli' }, { url: `${origin}${path}`, options: { mode: 'text', render: 'always' } });
  it('is ok with its text, whether it drew all of its story or its first paragraphs, and whether the script threw or was gone', async () => {
    const whole = await rendered('/drawn-analytics-throws.html');
    expect(whole.meta).toMatchObject({ rendered: true });
    expect(whole.content).toContain('Paragraph 12: the council met');
    for (const path of ['/drawn-part-analytics-throws.html', '/drawn-part-analytics-missing.html']) {
      const part = await rendered(path);
      expect(part.meta, path).toMatchObject({ rendered: true });
      expect(part.content).toContain('Paragraph 2: the council met');
      expect(part.content).not.toContain('Paragraph 3:');
    }
  });
});

describe("an app shell whose script's host does not answer", () => {
  const unreached = (): string => `needs JavaScript: the page's content did not appear in a browser because 1 of its scripts could not be loaded: the server it is on (127.0.0.1:${closed}) did not answer`;
  it('says its script could not be loaded, not that it ran and may need a sign-in or more time', async () => {
    const err = await failure(fetcher, '/unreached-bundle.html');
    expect(err).toMatchObject({ status: 422, reason: 'needs_js' });
    expect(err.message).toBe(unreached());
    expect(err.message).not.toMatch(/scripts ran|app shell/);
    expect(err.hint).toMatch(/try again later/);
    expect(err.hint).toMatch(/network/);
    expect(err.hint).not.toMatch(/more time|sign-in/);
  });
  it("says so before the error the page's own script throws for the library that never came", async () => {
    const err = await failure(fetcher, '/unreached-library.html');
    expect(err).toMatchObject({ status: 422, reason: 'needs_js' });
    expect(err.message).toBe(unreached());
  });
});

describe('an app shell whose script never finishes loading', () => {
  it('says it waited for a script that never came, not that the page kept the browser busy', async () => {
    const f = createFetcher({ allowHosts: ['127.0.0.1'], renderBudgetMs: 3_000 });
    try {
      const err = await failure(f, '/held-script.html');
      expect(err).toMatchObject({ status: 504, reason: 'timeout' });
      expect(err.message).toMatch(/waiting for 1 of its scripts/);
      expect(err.message).not.toMatch(/did not yield/);
      expect(err.hint).not.toMatch(/keeps the browser busy/);
    } finally {
      await f.close();
    }
  });
});

describe('an app shell whose stylesheet never finishes loading', () => {
  it('says it waited for a stylesheet that never came, not that the page kept the browser busy', async () => {
    const f = createFetcher({ allowHosts: ['127.0.0.1'], renderBudgetMs: 3_000 });
    try {
      const err = await failure(f, '/held-style.html');
      expect(err).toMatchObject({ status: 504, reason: 'timeout' });
      expect(err.message).toMatch(/waiting for 1 of its stylesheets/);
      expect(err.message).not.toMatch(/did not yield|scripts/);
      expect(err.hint).toMatch(/stylesheets did not finish/);
      expect(err.hint).not.toMatch(/keeps the browser busy/);
    } finally {
      await f.close();
    }
  });
});

describe('an app shell whose script the guard refused', () => {
  it('says its script loads from the refused host, not that its content may come from there', async () => {
    const err = await failure(fetcher, '/foreign-bundle.html');
    expect(err).toMatchObject({ status: 422, reason: 'needs_js' });
    expect(err.hint).toMatch(/^Sift's guard refused 1 request the page made, to 127\.0\.0\.2/);
    expect(err.hint).not.toMatch(/content may come from/);
    expect(err.message).toMatch(/scripts are on an address Sift does not fetch/);
    expect(err.hint).toMatch(/The page's scripts load from there/);
    expect(err.hint).toContain('--allow-host HOST');
    expect(sites.forbidden.connections).toBe(0);
  });
  it('says which refused host holds its scripts and which its data, when the guard refused both', async () => {
    const err = await failure(fetcher, '/foreign-bundle-and-data.html');
    expect(err).toMatchObject({ status: 422, reason: 'needs_js' });
    expect(err.hint).toMatch(/^Sift's guard refused 2 requests the page made, to 127\.0\.0\.2, 127\.0\.0\.3/);
    expect(err.hint).toMatch(/The page's scripts load from 127\.0\.0\.2, and they draw its content; its data may come from the other host\./);
    expect(err.hint).toContain('--allow-host HOST');
  });
});
