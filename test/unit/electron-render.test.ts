import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { ElectronRenderer, RENDER_SWITCHES, renderWindowOptions } from '../../src/main/app/render-window';
import type { ElectronRenderDeps } from '../../src/main/app/render-window';
import { createFetcher, FetchError, GateBusyError, type RendererEnv } from '../../src/main/fetch';
import { mapFetchError } from '../../src/main/batchrun';
import { busyWhy } from '../../src/main/batch/errors';
import { silentLog } from '../../src/main/log';
import { FakeRenderContents, FakeRenderSession, FakeRenderWindow, type FakePage } from '../helpers/electron-standin';
import { startRenderSites, type RenderSites } from '../helpers/render-sites';

let sites: RenderSites;
beforeAll(async () => {
  sites = await startRenderSites();
});
afterAll(() => sites.close());

const ENDPOINT = { server: 'http://127.0.0.1:40123', username: 'sift-u', password: 'secret-p' };
// Each render slot's credentials of its own (the stand-in has one slot's worth).
const SESSION = { ...ENDPOINT, id: 'slot-0', end: () => {} };
const ARTICLE = `<html><body><article><h1>T</h1><p>${'Words of the article. '.repeat(30)}</p></article></body></html>`;

/** What the guarding proxy reports while a page renders (ProxyEvent), handed to the renderer's listener. */
type ProxyReport = { kind: 'refused' | 'failed'; host: string; why?: string; session?: string };

function setup(page: FakePage = { html: ARTICLE }, proxyReports: ProxyReport[] = [], onWindow: (wc: FakeRenderContents) => void = () => {}, onSession: () => void = () => {}, maxSlots?: number) {
  const sessions: FakeRenderSession[] = [];
  const windows: FakeRenderWindow[] = [];
  const deps: ElectronRenderDeps = {
    fromPartition: (p) => {
      const s = new FakeRenderSession(p);
      sessions.push(s);
      return s as unknown as ReturnType<ElectronRenderDeps['fromPartition']>;
    },
    createWindow: (options) => {
      const w = new FakeRenderWindow(options as Record<string, unknown>, new FakeRenderContents(page));
      windows.push(w);
      onWindow(w.webContents);
      return w as unknown as ReturnType<ElectronRenderDeps['createWindow']>;
    },
    chromeVersion: '140.0.0.0',
  };
  // The proxy's reports reach the listener as soon as it listens, as the page's requests would.
  const proxyEvents: RendererEnv['proxyEvents'] = (listener) => {
    for (const r of proxyReports) listener({ session: SESSION.id, ...r, via: 'connect' });
    return () => {};
  };
  const env: RendererEnv = { proxy: async () => ENDPOINT, proxyEvents, proxySession: async () => (onSession(), SESSION), policy: () => ({ allowPrivate: false, allowHosts: [] }), chromiumPath: () => '', userAgent: () => 'Sift-test', log: () => {} };
  return { renderer: new ElectronRenderer(env, deps, maxSlots), sessions, windows };
}

describe('the app render window (Electron stand-in)', () => {
  test('is hidden, sandboxed, isolated, without preload or Node, JavaScript on, images off, in its own partition', async () => {
    const { renderer, sessions, windows } = setup();
    await renderer.render('http://example.org/a', new AbortController().signal, 5_000);
    const opts = windows[0]?.options as { show: boolean; webPreferences: Record<string, unknown> };
    expect(opts.show).toBe(false);
    expect(opts.webPreferences).toMatchObject({ sandbox: true, contextIsolation: true, nodeIntegration: false, nodeIntegrationInSubFrames: false, nodeIntegrationInWorker: false, javascript: true, images: false, webviewTag: false });
    expect(opts.webPreferences.preload).toBeUndefined();
    expect(opts.webPreferences.session).toBe(sessions[0]);
    expect(sessions[0]?.partition).toMatch(/^sift-render-\d$/);
    expect(renderWindowOptions(sessions[0] as never)).toEqual(opts);
  });

  test('sends everything through the guarding proxy, loopback included, and answers only its login', async () => {
    const { renderer, sessions, windows } = setup();
    await renderer.render('http://example.org/a', new AbortController().signal, 5_000);
    expect(sessions[0]?.proxy).toEqual({ proxyRules: ENDPOINT.server, proxyBypassRules: '<-loopback>' });
    const wc = windows[0]?.webContents as FakeRenderContents;
    const answers: unknown[][] = [];
    let prevented = 0;
    const ev = { preventDefault: () => prevented++ };
    wc.emit('login', ev, {}, { isProxy: true }, (...a: unknown[]) => answers.push(a));
    wc.emit('login', ev, {}, { isProxy: false }, (...a: unknown[]) => answers.push(a));
    expect(answers).toEqual([[ENDPOINT.username, ENDPOINT.password], []]);
    expect(prevented).toBe(2);
    expect(wc.webrtc).toBe('disable_non_proxied_udp');
    expect(RENDER_SWITCHES.map((s) => s[0])).toEqual(expect.arrayContaining(['disable-quic', 'force-webrtc-ip-handling-policy', 'dns-prefetch-disable']));
  });

  test('denies permissions, popups and non-http navigation; cancels downloads, images, media, fonts, service workers', async () => {
    const { renderer, sessions, windows } = setup();
    await renderer.render('https://example.org/a', new AbortController().signal, 5_000);
    const s = sessions[0] as FakeRenderSession;
    const wc = windows[0]?.webContents as FakeRenderContents;
    let granted: boolean | undefined;
    s.permissionRequest?.({}, 'geolocation', (ok) => (granted = ok));
    expect(granted).toBe(false);
    expect(s.permissionCheck?.({}, 'clipboard-sanitized-write')).toBe(false);
    expect(wc.openHandler?.({ url: 'https://example.org/popup' })).toEqual({ action: 'deny' });
    expect(wc.fire('will-navigate', 'file:///etc/passwd')).toBe(true);
    expect(wc.fire('will-navigate', 'javascript:alert(1)')).toBe(true);
    expect(wc.fire('will-redirect', 'chrome://settings')).toBe(true);
    expect(wc.fire('will-navigate', 'https://example.org/next')).toBe(false);
    let cancelled = false;
    let dlPrevented = false;
    for (const l of s.listeners.get('will-download') ?? []) l({ preventDefault: () => (dlPrevented = true) }, { cancel: () => (cancelled = true) });
    expect([dlPrevented, cancelled]).toEqual([true, true]);
    for (const resourceType of ['image', 'media', 'font']) {
      expect(await s.request('beforeRequest', { url: 'https://example.org/x', resourceType })).toEqual({ cancel: true });
    }
    expect(await s.request('beforeRequest', { url: 'ftp://example.org/x', resourceType: 'xhr' })).toEqual({ cancel: true });
    expect(await s.request('beforeRequest', { url: 'https://example.org/x.js', resourceType: 'script' })).toEqual({ cancel: false });
    expect(await s.request('beforeSendHeaders', { url: 'https://example.org/sw.js', requestHeaders: { 'Service-Worker': 'script' } })).toEqual({ cancel: true });
    expect(await s.request('beforeSendHeaders', { url: 'https://example.org/a.js', requestHeaders: { Accept: '*/*' } })).toEqual({ requestHeaders: { Accept: '*/*' } });
  });

  test('returns the serialized DOM, destroys the window and wipes the partition after every target', async () => {
    const { renderer, sessions, windows } = setup();
    const r = await renderer.render('https://example.org/a', new AbortController().signal, 5_000);
    expect(r).toMatchObject({ finalUrl: 'https://example.org/a', html: ARTICLE, partial: false });
    expect(windows[0]?.destroyed).toBe(true);
    expect(sessions[0]?.cleared).toBe(1);
    await renderer.render('https://example.org/b', new AbortController().signal, 5_000);
    // The slot (and its partition) is reused only after it was wiped.
    expect(sessions).toHaveLength(1);
    expect(sessions[0]?.cleared).toBe(2);
  });

  test("a page with a request that never ends (a tracker's) is read once it settles, not when the budget runs out", async () => {
    const { renderer, sessions } = setup({ html: ARTICLE }, [], (wc) => {
      // The page's script asks for something its server never answers: started, never completed.
      setImmediate(() => void sessions[0]?.request('beforeRequest', { webContentsId: wc.id, id: 7, resourceType: 'xhr', url: 'https://example.org/collect' }));
    });
    // Counted until it is taken as hung (5 s under the default 15 s budget); counted for ever,
    // it held the render to the budget's end, read as partial.
    const r = await renderer.render('https://example.org/hangs', new AbortController().signal, 15_000);
    expect(r).toMatchObject({ finalUrl: 'https://example.org/hangs', html: ARTICLE, partial: false });
  }, 60_000);

  test('a busy page is a 504 within the budget plus the grace, and its renderer is killed', async () => {
    const { renderer, windows } = setup({ html: '', busy: true });
    const err = await renderer.render('https://example.org/busy', new AbortController().signal, 300).catch((e: unknown) => e);
    expect(err).toMatchObject({ status: 504, code: 'timeout', message: expect.stringContaining('did not yield') });
    expect(windows[0]?.webContents.crashed).toBe(true);
    expect(windows[0]?.destroyed).toBe(true);
  });

  test('a page that never answered while one of its scripts never came says it waited for that script, not that its JavaScript kept the browser busy', async () => {
    const { renderer, sessions } = setup({ html: '', busy: true }, [], (wc) => {
      // Its script's request starts as the page loads and never ends: its server holds it open.
      const load = wc.loadURL.bind(wc);
      wc.loadURL = async (url) => {
        await sessions[0]?.request('beforeRequest', { id: 7, url: 'https://example.org/app.js', resourceType: 'script', webContentsId: wc.id });
        return load(url);
      };
    });
    const err = await renderer.render('https://example.org/held', new AbortController().signal, 300).catch((e: unknown) => e);
    expect(err).toMatchObject({ status: 504, code: 'timeout', message: expect.stringContaining('still waiting for 1 of its scripts') });
    expect((err as { hint: string }).hint).not.toMatch(/keeps the browser busy/);
    expect((err as { hint: string }).hint).toMatch(/“Run a page’s JavaScript” in Settings/);
  });

  test('a page that never answered while its stylesheet never came says it waited for that stylesheet, not that its JavaScript kept the browser busy', async () => {
    const { renderer, sessions } = setup({ html: '', busy: true }, [], (wc) => {
      const load = wc.loadURL.bind(wc);
      wc.loadURL = async (url) => {
        await sessions[0]?.request('beforeRequest', { id: 8, url: 'https://example.org/app.css', resourceType: 'stylesheet', webContentsId: wc.id });
        return load(url);
      };
    });
    const err = await renderer.render('https://example.org/held-style', new AbortController().signal, 300).catch((e: unknown) => e);
    expect(err).toMatchObject({ status: 504, code: 'timeout', message: expect.stringContaining('still waiting for 1 of its stylesheets') });
    expect((err as { hint: string }).hint).toMatch(/stylesheets did not finish/);
    expect((err as { hint: string }).hint).toMatch(/“Run a page’s JavaScript” in Settings/);
  });

  test("counts the top page's scripts its server answered with an error or an HTML page, not an iframe's nor the guard's refusals", async () => {
    const { renderer, sessions } = setup({ html: ARTICLE }, [], (wc) => {
      const load = wc.loadURL.bind(wc);
      wc.loadURL = async (url) => {
        // onCompleted answers nothing: its promise never settles.
        const answered = (id: number, statusCode: number, parent: unknown, responseHeaders = {}): void =>
          void sessions[0]?.request('completed', { id, webContentsId: wc.id, resourceType: 'script', statusCode, responseHeaders, frame: { parent } });
        answered(1, 404, null);
        answered(2, 200, null);
        answered(3, 500, {});
        answered(4, 403, null, { 'X-Sift-Guard': ['refused'] });
        // Sift's proxy answers 502 or 504 itself for a script whose host did not resolve or answer.
        answered(5, 502, null);
        // A single-page app's index page where its bundle was, in the top page and in an iframe.
        answered(6, 200, null, { 'Content-Type': ['text/html; charset=utf-8'] });
        answered(7, 200, {}, { 'Content-Type': ['text/html'] });
        return load(url);
      };
    });
    const r = await renderer.render('https://example.org/app', new AbortController().signal, 5_000);
    expect(r.scriptsMissing).toEqual({ count: 1, status: 404 });
    expect(r.scriptsAsHtml).toBe(1);
  });

  test("counts a top-page script answered with an error and then cancelled as its error, not as a server that did not answer", async () => {
    const { renderer, sessions } = setup({ html: ARTICLE }, [], (wc) => {
      const load = wc.loadURL.bind(wc);
      wc.loadURL = async (url) => {
        // Chromium reads a script's 404 headers, then cancels it (net::ERR_ABORTED): no onCompleted.
        const s = sessions[0]!;
        const script = { webContentsId: wc.id, resourceType: 'script', frame: { parent: null } };
        void s.request('headersReceived', { ...script, id: 11, statusCode: 404, responseHeaders: { 'Content-Type': ['text/plain'] } });
        void s.request('errorOccurred', { ...script, id: 11, error: 'net::ERR_ABORTED' });
        // A script whose host never answered has no headers before its error.
        void s.request('errorOccurred', { ...script, id: 12, url: 'https://cdn.example.net/vendor.js', error: 'net::ERR_CONNECTION_REFUSED' });
        return load(url);
      };
    });
    const r = await renderer.render('https://example.org/app', new AbortController().signal, 5_000);
    expect(r.scriptsMissing).toEqual({ count: 1, status: 404 });
    expect(r.scriptsUnreached).toBe(1);
    // Its host is named in the message, for a user to check a firewall for it.
    expect(r.scriptsUnreachedHosts).toEqual(['cdn.example.net']);
  });

  test("a page whose script moves it on while probed is read in the document it went to, not killed as stuck", async () => {
    const next = `<html><body><article><h1>Moved</h1><p>${'The page it went to. '.repeat(30)}</p></article></body></html>`;
    const { renderer, windows } = setup({ html: '<html><body>Loading…</body></html>', navigate: { url: 'https://example.org/next', html: next } });
    const r = await renderer.render('https://example.org/start', new AbortController().signal, 60_000);
    expect(r).toMatchObject({ finalUrl: 'https://example.org/next', html: next, partial: false });
    const wc = windows[0]?.webContents;
    expect(wc?.crashed).toBe(false);
    expect(wc?.navigations).toEqual(['https://example.org/next']);
    // The new document got the settle script too (Electron has no init script for it).
    expect(wc?.scripts.filter((c) => c.endsWith('; true'))).toHaveLength(2);
  });

  test('a page that moves on as it is read (it reloads itself) is read in the document it went to, not as an empty page', async () => {
    const next = `<html><body><article><h1>Reloaded</h1><p>${'The page once more. '.repeat(30)}</p></article></body></html>`;
    const { renderer, windows } = setup({ html: ARTICLE, navigate: { url: 'https://example.org/start', html: next }, navigateWhenRead: true });
    const r = await renderer.render('https://example.org/start', new AbortController().signal, 60_000);
    // Read as soon as it loaded, not watched settle: partial.
    expect(r).toMatchObject({ finalUrl: 'https://example.org/start', html: next, partial: true });
    expect(windows[0]?.webContents.crashed).toBe(false);
  });

  test('a page whose script moves it where the guard refuses is reported as refused, not stuck', async () => {
    const { renderer, sessions, windows } = setup({ html: '<html><body>Loading…</body></html>', navigate: { url: 'http://10.0.0.1/', html: '<html><body>refused</body></html>', status: 403 } });
    const pending = renderer.render('https://example.org/start', new AbortController().signal, 60_000);
    await vi.waitFor(() => expect(windows).toHaveLength(1));
    const wc = windows[0]?.webContents;
    // The guard's answer to the new document arrives with its navigation, as the proxy refuses it.
    wc?.on('did-start-navigation', () => {
      void sessions[0]?.request('completed', { webContentsId: wc.id, resourceType: 'mainFrame', statusCode: 403, responseHeaders: { 'x-sift-guard': ['refused'] } });
    });
    const r = await pending;
    expect(r).toMatchObject({ status: 403, refused: true });
    expect(windows[0]?.webContents.crashed).toBe(false);
  });

  test("a renderer process that ends while probed fails as a failed render, not as a page that did not yield", async () => {
    const { renderer, windows } = setup({ html: '<html><body>Loading…</body></html>', crash: 'oom' });
    const err = await renderer.render('https://example.org/heavy', new AbortController().signal, 60_000).catch((e: unknown) => e);
    // In the words the CLI's renderer uses for a crash; the cause in words, not Electron's code ("(oom)" before).
    expect(err).toMatchObject({ status: 502, msg: 'rendering failed: the page crashed the browser' });
    expect((err as { hint: string }).hint).toMatch(/page process ended \(out of memory\)/);
    expect(windows[0]?.destroyed).toBe(true);
    for (const [code, words] of [['abnormal-exit', 'a crash'], ['memory-eviction', 'closed to free memory'], ['integrity-failure', 'a crash']]) {
      const e = await setup({ html: '<html><body>Loading…</body></html>', crash: code }).renderer.render('https://example.org/heavy', new AbortController().signal, 60_000).catch((x: unknown) => x);
      expect((e as { hint: string }).hint).toContain(`page process ended (${words ?? ''})`);
      expect((e as { hint: string }).hint).not.toContain(code ?? '');
    }
  });

  test('a main document the guard refused is reported as refused, with its status', async () => {
    const { renderer, sessions, windows } = setup();
    const pending = renderer.render('http://example.org/a', new AbortController().signal, 5_000);
    // Once the window exists, its main document comes back refused by the guard.
    await vi.waitFor(() => expect(windows).toHaveLength(1));
    const page = { id: windows[0]?.webContents.id };
    // onCompleted answers nothing; the hook only records.
    void sessions[0]?.request('completed', { webContentsId: page.id, resourceType: 'mainFrame', statusCode: 403, responseHeaders: { 'x-sift-guard': ['refused'] } });
    const r = await pending;
    expect(r).toMatchObject({ status: 403, refused: true });
  });

  // https goes through a CONNECT tunnel: the browser reports the guard's refusal and a dead
  // host alike (ERR_TUNNEL_CONNECTION_FAILED); the proxy's own report says which it was.
  const TUNNEL_FAILED = -111;
  for (const shownUrl of ['chrome-error://chromewebdata/', 'https://dead.example/']) {
    test(`a page that could not be reached is unreachable, not refused (getURL: ${shownUrl.slice(0, 13)})`, async () => {
      const { renderer } = setup({ html: '<html><body>This site can’t be reached</body></html>', fail: { code: TUNNEL_FAILED, shownUrl } }, [{ kind: 'failed', host: 'dead.example' }]);
      const r = await renderer.render('https://dead.example/', new AbortController().signal, 5_000);
      expect(r).toMatchObject({ unreachable: true });
      expect(r.refused).toBeUndefined();
    });
  }

  test('a page whose host the guard refused is refused, though the browser shows the same error page', async () => {
    const { renderer } = setup({ html: '', fail: { code: TUNNEL_FAILED, shownUrl: 'chrome-error://chromewebdata/' } }, [{ kind: 'refused', host: 'intranet.example' }]);
    const r = await renderer.render('https://intranet.example/', new AbortController().signal, 5_000);
    expect(r).toMatchObject({ refused: true });
    expect(r.unreachable).toBeUndefined();
  });

  test("a page that rendered says what the guard refused of its own requests, not of another slot's window", async () => {
    const why = 'The address is a private address';
    const { renderer } = setup({ html: ARTICLE }, [
      { kind: 'refused', host: 'intranet.example', why },
      { kind: 'refused', host: 'intranet.example', why },
      { kind: 'failed', host: 'dead.example' },
      { kind: 'refused', host: 'other-slot.example', why, session: 'slot-1' },
    ]);
    const r = await renderer.render('https://example.org/a', new AbortController().signal, 5_000);
    expect(r.guardRefused).toEqual({ requests: 2, hosts: ['intranet.example'], why: [why] });
    const clean = setup({ html: ARTICLE }, [{ kind: 'refused', host: 'other-slot.example', why, session: 'slot-1' }]);
    expect((await clean.renderer.render('https://example.org/a', new AbortController().signal, 5_000)).guardRefused).toBeUndefined();
  });

  test('a page whose script sends it to a dead site is unreachable; one Sift itself stopped (a scheme it does not fetch) is refused', async () => {
    const start = '<html><body>Loading…</body></html>';
    const dead = setup({ html: start, navigate: { url: 'https://gone.example/', html: '', fail: { code: TUNNEL_FAILED, shownUrl: 'chrome-error://chromewebdata/' } } }, [{ kind: 'failed', host: 'gone.example' }]);
    expect(await dead.renderer.render('https://example.org/start', new AbortController().signal, 60_000)).toMatchObject({ unreachable: true });
    const ERR_BLOCKED_BY_CLIENT = -20;
    const stopped = setup({ html: start, navigate: { url: 'https://example.org/next', html: '', fail: { code: ERR_BLOCKED_BY_CLIENT, shownUrl: 'chrome-error://chromewebdata/' } } });
    expect(await stopped.renderer.render('https://example.org/start', new AbortController().signal, 60_000)).toMatchObject({ refused: true });
  });

  test('through the fetch pipeline: a rendered page that went to a dead site fails as unreachable (502), not as blocked', async () => {
    const { renderer } = setup({ html: '', fail: { code: TUNNEL_FAILED, shownUrl: 'chrome-error://chromewebdata/' } });
    const fetcher = createFetcher({ allowHosts: ['127.0.0.1'] }, { renderer: () => renderer });
    try {
      const err = await fetcher.fetchTarget(new AbortController().signal, { name: 't' }, { url: `${sites.allowed.origin}/static.html`, options: { render: 'always', mode: 'text' } }).catch((e: unknown) => e);
      expect(err).toMatchObject({ status: 502, code: 'unreachable', msg: expect.stringMatching(/did not answer/) });
    } finally {
      await fetcher.close();
    }
  });

  test("gives a page that names no charset the one the static fetch read it in (the render hint), only in this window's main document", async () => {
    const { renderer, sessions, windows } = setup();
    const pending = renderer.render('http://example.org/a', new AbortController().signal, 5_000, { charset: 'utf-8' });
    await vi.waitFor(() => expect(windows).toHaveLength(1));
    const id = windows[0]?.webContents.id;
    const s = sessions[0] as FakeRenderSession;
    // A request in flight keeps the window from settling until the checks are done.
    await s.request('beforeRequest', { webContentsId: id, url: 'http://example.org/a', resourceType: 'mainFrame' });
    const headers = (resourceType: string, type: string, webContentsId = id) => s.request('headersReceived', { webContentsId, resourceType, responseHeaders: { 'Content-Type': [type], 'X-Other': ['1'] } });
    expect(await headers('mainFrame', 'text/html')).toEqual({ responseHeaders: { 'Content-Type': ['text/html; charset=utf-8'], 'X-Other': ['1'] } });
    // A charset the server named, another kind of document, a frame, another window: untouched.
    expect(await headers('mainFrame', 'text/html; charset=iso-8859-2')).toEqual({});
    expect(await headers('mainFrame', 'application/pdf')).toEqual({});
    expect(await headers('subFrame', 'text/html')).toEqual({});
    expect(await headers('mainFrame', 'text/html', 12345)).toEqual({});
    void s.request('completed', { webContentsId: id, resourceType: 'mainFrame', statusCode: 200, responseHeaders: {} });
    await pending;
    // The next target without a hint gets nothing added.
    const next = renderer.render('http://example.org/b', new AbortController().signal, 5_000);
    await vi.waitFor(() => expect(windows).toHaveLength(2));
    expect(await s.request('headersReceived', { webContentsId: windows[1]?.webContents.id, resourceType: 'mainFrame', responseHeaders: { 'content-type': ['text/html'] } })).toEqual({});
    await next;
  });

  test("an uncaught error in one of the page's iframes (an ad's, a widget's) is not quoted as the page's own script failing", async () => {
    const { renderer } = setup({
      html: ARTICLE,
      console: [
        { level: 'error', message: 'Uncaught ReferenceError: adsbygoogle is not defined', inFrame: true },
        { level: 'error', message: "Uncaught TypeError: Cannot read properties of undefined (reading 'mount')" },
      ],
    });
    const r = await renderer.render('http://example.org/a', new AbortController().signal, 5_000);
    expect(r.scriptError).toBe("TypeError: Cannot read properties of undefined (reading 'mount')");
    const framed = await setup({ html: ARTICLE, console: [{ level: 'error', message: 'Uncaught Error: the widget broke', inFrame: true }] }).renderer.render('http://example.org/b', new AbortController().signal, 5_000);
    expect(framed.scriptError).toBeUndefined();
  });

  test("keeps the first uncaught error of the page's scripts, cut short, as the Chromium path's pageerror does; a console.error is no such error", async () => {
    const long = 'x'.repeat(400);
    const { renderer } = setup({
      html: ARTICLE,
      console: [
        { level: 'error', message: 'Failed to load resource: the server responded with a status of 404' },
        { level: 'error', message: "Uncaught TypeError: Cannot read properties of undefined (reading 'mount')" },
        { level: 'error', message: 'Uncaught Error: a second one' },
      ],
    });
    const r = await renderer.render('http://example.org/a', new AbortController().signal, 5_000);
    expect(r.scriptError).toBe("TypeError: Cannot read properties of undefined (reading 'mount')");
    const quiet = await setup({ html: ARTICLE, console: [{ level: 'error', message: 'logged by the page' }] }).renderer.render('http://example.org/a', new AbortController().signal, 5_000);
    expect(quiet.scriptError).toBeUndefined();
    const cut = await setup({ html: ARTICLE, console: [{ level: 'error', message: `Uncaught (in promise) Error: ${long}` }] }).renderer.render('http://example.org/a', new AbortController().signal, 5_000);
    expect(cut.scriptError).toMatch(/^Error: x+…$/);
    expect(cut.scriptError?.length).toBe(160);
  });
  test("ends at once when cancelled as its render slot is made, without loading a page whose load would never come", async () => {
    const job = new AbortController();
    const cancelled = new Error('cancelled');
    const { renderer, windows } = setup({ html: ARTICLE, neverLoads: true }, [], () => {}, () => job.abort(cancelled));
    // Before, the window loaded the page and the render waited for its load until the budget ran out.
    await expect(renderer.render('http://example.org/a', job.signal, 20_000)).rejects.toBe(cancelled);
    // Nor is a window opened for it (one was, and destroyed at once).
    expect(windows).toEqual([]);
  });
  test("with every render slot taken, fails busy in the render gate's words, so the runner says what the CLI's renderer would", async () => {
    let shown = (): void => {};
    const windowMade = new Promise<void>((resolve) => (shown = resolve));
    const { renderer } = setup({ html: ARTICLE, neverLoads: true }, [], () => shown(), () => {}, 1);
    const first = new AbortController();
    const holding = renderer.render('http://example.org/a', first.signal, 60_000).catch((e: unknown) => e);
    await windowMade;
    const err = await renderer.render('http://example.org/b', new AbortController().signal, 5_000).catch((e: unknown) => e);
    // Before: FetchError 'busy', which the runner's wait read as "Sift is already fetching as many pages".
    expect(err).toBeInstanceOf(GateBusyError);
    expect(err).toMatchObject({ status: 503, code: 'busy', retryAfterMs: 2_000 });
    expect(busyWhy(mapFetchError(err, { caller: { name: 'desktop' }, log: silentLog(), onBlocked: () => {} }))).toBe('Sift is already rendering as many pages as it may at once');
    first.abort(new Error('cancelled'));
    await holding;
  });
  test('a render window that cannot be opened fails as a failed render, in words, and gives its slot back', async () => {
    let fail = true;
    const { renderer } = setup({ html: ARTICLE }, [], () => {
      if (!fail) return;
      fail = false;
      throw new Error('Cannot create BrowserWindow: GPU process isn’t usable. Goodbye.');
    }, () => {}, 1);
    const err = await renderer.render('http://example.org/a', new AbortController().signal, 5_000).catch((e: unknown) => e);
    // Before: Electron's own error, which the runner stores as "internal error", and the one slot stayed taken.
    expect(err).toBeInstanceOf(FetchError);
    expect(err).toMatchObject({ status: 502, msg: 'rendering failed: the browser window for the page could not be opened' });
    expect((err as FetchError).reason).toBe('network');
    const r = await renderer.render('http://example.org/a', new AbortController().signal, 5_000);
    expect(r.html).toContain('Words of the article.');
  });
  for (const step of ['proxy credentials', 'partition', 'session rules'] as const) {
    test(`a render slot whose setup fails (${step}) fails as a failed render, in words, and the slot is set up anew for the next page`, async () => {
      let fail = true;
      const ended: string[] = [];
      const sessions: FakeRenderSession[] = [];
      const deps: ElectronRenderDeps = {
        fromPartition: (p) => {
          if (step === 'partition' && fail) throw new Error("Failed to create session: partition 'sift-render-0' is in use");
          const s = new FakeRenderSession(p);
          if (step === 'session rules' && fail) s.setProxy = () => Promise.reject(new Error('ERR_INVALID_ARGUMENT (-4) loading proxy rules'));
          sessions.push(s);
          return s as unknown as ReturnType<ElectronRenderDeps['fromPartition']>;
        },
        createWindow: (options) => new FakeRenderWindow(options as Record<string, unknown>, new FakeRenderContents({ html: ARTICLE })) as unknown as ReturnType<ElectronRenderDeps['createWindow']>,
        chromeVersion: '140.0.0.0',
      };
      let made = 0;
      const env: RendererEnv = {
        proxy: async () => ENDPOINT,
        proxyEvents: () => () => {},
        proxySession: async () => {
          if (step === 'proxy credentials' && fail) throw new Error('listen EADDRINUSE: address already in use 127.0.0.1');
          const id = `slot-${made++}`;
          return { ...ENDPOINT, id, end: () => ended.push(id) };
        },
        policy: () => ({ allowPrivate: false, allowHosts: [] }),
        chromiumPath: () => '',
        userAgent: () => 'Sift-test',
        log: () => {},
      };
      const renderer = new ElectronRenderer(env, deps, 1);
      const err = await renderer.render('http://example.org/a', new AbortController().signal, 5_000).catch((e: unknown) => e);
      // Before: Electron's (or the proxy's) own error, which the runner stores as "internal error — a bug in Sift".
      expect(err).toBeInstanceOf(FetchError);
      expect(err).toMatchObject({ status: 502, msg: 'rendering failed: the browser could not be set up for the page' });
      expect((err as FetchError).hint).toMatch(/try again.*“Run a page’s JavaScript” in Settings to never/);
      expect((err as FetchError).reason).toBe('network');
      // The credentials made for the slot that failed are no longer accepted by the proxy.
      expect(ended).toEqual(step === 'proxy credentials' ? [] : ['slot-0']);
      fail = false;
      const r = await renderer.render('http://example.org/a', new AbortController().signal, 5_000);
      expect(r.html).toContain('Words of the article.');
      expect(sessions.at(-1)?.partition).toBe('sift-render-0');
    });
  }
  test('two pages rendered at once on first use get a partition each', async () => {
    const { renderer, sessions } = setup({ html: ARTICLE }, [], () => {}, () => {}, 2);
    const [a, b] = await Promise.all([renderer.render('http://example.org/a', new AbortController().signal, 5_000), renderer.render('http://example.org/b', new AbortController().signal, 5_000)]);
    expect([a.html, b.html]).toEqual([ARTICLE, ARTICLE]);
    // Before, both were 'sift-render-0': Electron gives one session for one partition name, so
    // the second slot's request hooks replaced the first's, and each target wiped the other's cookies.
    expect(sessions.map((s) => s.partition).sort()).toEqual(['sift-render-0', 'sift-render-1']);
  });
  test('refuses to render anything but http(s)', async () => {
    const { renderer } = setup();
    await expect(renderer.render('file:///etc/passwd', new AbortController().signal, 1_000)).rejects.toMatchObject({ status: 400 });
  });
});
