import { readdirSync, readFileSync } from 'node:fs';
import type { Browser, BrowserContext, CDPSession, Page } from 'playwright-core';
import { headerCharset, namesNoCharset, unlabelledCharset } from '../charset';
import { mediaType } from '../sniff';
import { blocked, FetchError } from '../errors';
import { untilAborted } from '../linked-signal';
import { findBrowser, NO_BROWSER_HINT } from './find-browser';
import { GRACE_MS, NetActivity, notYielded, READ_MS, settle, SETTLE_SCRIPT, topFrameErrors, unreadPage, watchFailedNavigation } from './settle';
import type { ProxySession } from './proxy';
import { RefusalTally } from './refusals';
import type { BrowserInfo, Rendered, Renderer, RendererEnv } from './types';
import { RENDER_HINT } from '../../../shared/hints';

/**
 * Chromium flags. Every request goes through the guarding proxy, loopback included
 * (`<-loopback>` removes Chromium's implicit bypass); QUIC off (UDP would skip an HTTP proxy);
 * WebRTC only over proxied UDP, i.e. none; no DNS prefetch or preconnect (they resolve names
 * without the proxy); nothing of Chromium's own in the background.
 *
 * Chromium 150 also opens a connection to its default search engine from each page's context
 * as the page loads (PreconnectToSearch): through the proxy, with the context's credentials,
 * so a public search host would have been let through for every rendered page. It also asks
 * for the network time and for "AI mode" eligibility at start; those come without the
 * context's credentials and the proxy refuses them (407), as it refuses the rest of the
 * browser's own requests (sign-in's ListAccounts, GCM's check-in), but they are not made at all.
 *
 * A page with a form (a sign-in box, a search field) made Chromium 150 ask its autofill
 * server (content-autofill.googleapis.com) about the form, two requests per page, through
 * the proxy with the context's credentials: the proxy let them through as it would any public
 * host, so each rendered page's forms were reported to Google. AutofillServerCommunication off.
 */
export function chromiumArgs(proxyServer: string): string[] {
  return [
    `--proxy-server=${proxyServer}`,
    '--proxy-bypass-list=<-loopback>',
    '--disable-quic',
    '--force-webrtc-ip-handling-policy=disable_non_proxied_udp',
    '--webrtc-ip-handling-policy=disable_non_proxied_udp',
    '--dns-prefetch-disable',
    '--disable-features=NetworkPrediction,NetworkServiceInProcess2,PreloadingHeuristics,Prerender2,SpeculationRulesPrefetchFuture,PreconnectToSearch,NetworkTimeServiceQuerying,AimEnabled,AimServerEligibilityEnabled,AutofillServerCommunication',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-domain-reliability',
    '--disable-sync',
    '--no-first-run',
    '--no-default-browser-check',
    '--disable-gpu',
    '--disable-dev-shm-usage',
    '--mute-audio',
  ];
}

// How long a browser with nothing to do stays up: a list renders page after page, so the
// 0.5–1 s start-up is paid once per run, and an idle app does not hold ~150 MB for nothing.
const IDLE_CLOSE_MS = 30_000;
// Closing a context whose renderer is stuck; longer and the browser is killed and restarted.
const CLOSE_MS = 3_000;
// A browser that has not answered this long after its start never will (a wrapper script that
// waits on something, a program that is no browser and does not exit): playwright-core's own
// 180 s ran into the target's deadline, and every page of a list waited on the same start,
// failing one by one as "the target's deadline passed while rendering". A start on a loaded
// 2-core machine takes up to ~10 s.
const LAUNCH_MS = 30_000;

interface Launched {
  browser: Browser;
  pid: number | undefined;
}

/**
 * The CLI's and the tests' renderer: playwright-core driving a system Chromium or Chrome
 * (never a downloaded one). One browser per renderer, started on the first render and closed
 * when idle; a fresh browser context per target, so cookies, storage and cache of one target
 * are gone before the next.
 */
export class ChromiumRenderer implements Renderer {
  private launched: Promise<Launched> | undefined;
  /** A browser start under way: its program, and this process's children before it. */
  private starting: { exe: string; before: number[] } | undefined;
  private active = 0;
  private idleTimer: NodeJS.Timeout | undefined;

  constructor(
    private readonly env: RendererEnv,
    /** `readMs`: how long reading a page that answered may take (READ_MS). */
    private readonly opts: { idleCloseMs?: number; launchMs?: number; readMs?: number } = {},
  ) {}

  async browser(): Promise<BrowserInfo> {
    return findBrowser(this.env.chromiumPath());
  }

  /** The browser's process id (Linux), for the benchmark's memory reading. */
  async browserPid(): Promise<number | undefined> {
    return this.launched ? (await this.launched).pid : undefined;
  }

  private launch(): Promise<Launched> {
    if (this.launched) return this.launched;
    const started = Date.now();
    const p = (async () => {
      const info = findBrowser(this.env.chromiumPath());
      if (!info.ok) throw new FetchError(422, `rendering unavailable: ${info.why}`, info.hint, 'no_browser');
      const endpoint = await this.env.proxy();
      // Imported here, not at the top: only a run that renders pays for loading playwright-core.
      const { chromium } = await import('playwright-core');
      const before = childPids();
      const launchMs = this.opts.launchMs ?? LAUNCH_MS;
      this.starting = { exe: info.path, before };
      const browser = await chromium
        .launch({ executablePath: info.path, headless: true, args: chromiumArgs(endpoint.server), handleSIGINT: false, handleSIGTERM: false, handleSIGHUP: false, timeout: launchMs })
        .catch(async (err: unknown) => {
          // playwright-core leaves a program that never answered running when its start times out.
          await killStarted(info.path, before);
          // An executable that is not a browser (a typo'd path to another program, a broken
          // install) exits at once; that failed every page as "the browser could not load the
          // page", with a hint to try render=never, where the browser path was what to fix.
          const late = (err as Error | undefined)?.name === 'TimeoutError' ? ` (no answer within ${Math.round(launchMs / 1000)} s of its start)` : '';
          throw new FetchError(422, `rendering unavailable: ${info.path} did not start as a browser${late}`, NO_BROWSER_HINT, 'no_browser');
        })
        .finally(() => (this.starting = undefined));
      const pid = childPids().find((c) => !before.includes(c));
      this.env.log({ msg: 'browser started', ms: Date.now() - started, browser: info.name });
      browser.on('disconnected', () => {
        if (this.launched === p) this.launched = undefined;
      });
      return { browser, pid };
    })();
    this.launched = p;
    p.catch(() => {
      if (this.launched === p) this.launched = undefined;
    });
    return p;
  }

  async render(url: string, signal: AbortSignal, budgetMs: number): Promise<Rendered> {
    clearTimeout(this.idleTimer);
    this.active++;
    const launched = this.launch();
    let context: BrowserContext | undefined;
    let stuck = false;
    // What the guard refused of this page: its context has proxy credentials of its own, so the
    // refusals of a page rendering beside it (renderPages at once) are not counted as its own.
    const tally = new RefusalTally();
    let session: ProxySession | undefined;
    let unlisten = (): void => {};
    // The host of this page's main-frame navigation that failed: the refusal that counts is
    // of that host.
    let failedHost: () => string | undefined = () => undefined;
    let browser: Browser | undefined;
    try {
      // Cancelled while the browser starts: the start goes on for the next target, this one ends.
      ({ browser } = await untilAborted(launched, signal));
      signal.throwIfAborted();
      const endpoint = (session = await this.env.proxySession());
      // Each step from here to the page's load ends at a cancel: a target cancelled as its
      // context was made still had its context, page and CDP session made before the cancel
      // was seen, and was stored cancelled 1.8-2.0 s after it (2 runs, a busy 2-core machine).
      signal.throwIfAborted();
      const own = endpoint.id;
      unlisten = this.env.proxyEvents((e) => {
        if (e.session === own) tally.add(e);
      });
      const making = browser.newContext({
        // The bypass list said here, not left to playwright-core: it adds `<-loopback>` itself
        // only while PLAYWRIGHT_DISABLE_FORCED_CHROMIUM_PROXIED_LOOPBACK is unset. With that set
        // in the environment, Chromium's implicit bypass sent every request to 127.0.0.0/8 (and
        // link-local) past the proxy: 12 of 12 to 127.0.0.2 connected, the guard saw none.
        proxy: { server: endpoint.server, bypass: '<-loopback>', username: endpoint.username, password: endpoint.password },
        serviceWorkers: 'block',
        acceptDownloads: false,
        javaScriptEnabled: true,
        userAgent: this.env.userAgent(),
        viewport: { width: 1280, height: 900 },
      });
      context = await untilAborted(making, signal).catch((err: unknown) => {
        // Cancelled while it was made: closed once it is, as the finally below closes one made.
        void making.then((c) => c.close()).catch(() => {});
        throw err;
      });
      await untilAborted(context.addInitScript({ content: SETTLE_SCRIPT }), signal);
      const page = await untilAborted(context.newPage(), signal);
      failedHost = watchFailedNavigation(page);
      const cdp = await untilAborted(context.newCDPSession(page), signal);
      await untilAborted(labelDocuments(cdp, endpoint), signal);
      const scriptError = await untilAborted(topFrameErrors(cdp), signal);
      // A popup (window.open past the init script, target=_blank) is closed as it appears.
      context.on('page', (p: Page) => {
        if (p !== page) void p.close().catch(() => {});
      });
      const net = new NetActivity(budgetMs);
      const out = await settle(page, url, signal, budgetMs, GRACE_MS, (host) => tally.refused(host), failedHost, scriptError, this.opts.readMs, net);
      // A page closed under the settle loop reads as one that went away or never answered.
      if (!browser.isConnected()) throw browserQuit();
      if (out === 'stuck' || out === 'unread') {
        stuck = true;
        if (out === 'unread') throw unreadPage(this.opts.readMs ?? READ_MS, 'cli');
        throw notYielded(budgetMs, net.blockingWaiting(), 'cli');
      }
      // A page that left for a refused address keeps its tally: the result says what was refused.
      const guardRefused = (out.refused && !out.left) || out.unreachable ? undefined : tally.result();
      return guardRefused ? { ...out, guardRefused } : out;
    } catch (err) {
      // Cancelled (or out of time) first: the abort closes the page, and a page closed while
      // Sift waited on it reads as one that never answered. A job cancelled while its page
      // was busy stored that target as "timeout: the page's JavaScript did not yield".
      if (signal.aborted) throw signal.reason ?? err;
      if (err instanceof FetchError) throw err;
      if (browser && !browser.isConnected()) throw browserQuit();
      const failed = failedHost();
      throw mapBrowserError(err, failed === undefined ? tally.any : tally.refused(failed));
    } finally {
      unlisten();
      if (context) {
        const closed = await withTimeout(context.close().then(() => true), stuck ? CLOSE_MS : CLOSE_MS * 2, false).catch(() => false);
        // A renderer so stuck that its context cannot close takes the browser with it; the
        // next target starts a fresh one.
        if (!closed) await this.kill(launched);
      }
      // After the context: a request it still had on its way is answered 407, not let through.
      session?.end();
      this.active--;
      if (this.active === 0) {
        this.idleTimer = setTimeout(() => void this.close(), this.opts.idleCloseMs ?? IDLE_CLOSE_MS);
        this.idleTimer.unref();
      }
    }
  }

  private async kill(launched: Promise<Launched>): Promise<void> {
    if (this.launched === launched) this.launched = undefined;
    const l = await launched.catch(() => undefined);
    if (!l) return;
    this.env.log({ msg: 'browser restarted', why: 'a page did not close' });
    if (l.pid) {
      try {
        process.kill(l.pid, 'SIGKILL');
      } catch {
        /* already gone */
      }
    }
    await withTimeout(l.browser.close(), CLOSE_MS, undefined).catch(() => {});
  }

  async close(): Promise<void> {
    clearTimeout(this.idleTimer);
    const launched = this.launched;
    this.launched = undefined;
    // A start under way ends with it: closing waited for it (up to LAUNCH_MS, playwright-core's
    // 180 s before), and Ctrl-C on a batch whose browser hung at its start did not end sift.
    if (this.starting) await killStarted(this.starting.exe, this.starting.before);
    const l = await launched?.catch(() => undefined);
    if (!l) return;
    const closed = await withTimeout(l.browser.close().then(() => true), CLOSE_MS * 2, false).catch(() => false);
    if (!closed && l.pid) {
      try {
        process.kill(l.pid, 'SIGKILL');
      } catch {
        /* already gone */
      }
    }
  }
}

type Header = { name: string; value: string };
interface PausedResponse {
  requestId: string;
  responseStatusCode?: number;
  responseHeaders?: Header[];
}

/**
 * Makes the browser read a page that names no charset as Sift's own fetch reads it
 * (unlabelledCharset), frames included, from the bytes the browser got (so the render hint,
 * which the app's renderer uses, is not needed here). Chromium reads such a page as
 * windows-1252, so a UTF-8 article served as plain "text/html" came out rendered as "Weâ€™d"
 * where the static fetch had "We’d".
 * Each HTML document's response is held (CDP Fetch, response stage): one whose header names
 * no charset and whose first 1024 bytes declare none is handed to the page with the charset
 * in its header; every other response goes on untouched. Nothing is fetched again: the body
 * is the one the browser got through the proxy.
 *
 * This session also answers the guarding proxy's challenge (407) with the run's credentials.
 * Chromium 150 (Debian's since late 2026) leaves a document's challenge to this session, which
 * enabled Fetch last, not to Playwright's own, which holds the context's proxy credentials; as
 * this session did not ask for auth requests, the challenge was cancelled and every page
 * failed with ERR_INVALID_AUTH_CREDENTIALS ("rendering failed"). Chromium then keeps the
 * credentials for the page's other requests. A server's own challenge (401) gets the
 * browser's default answer, as before: no credentials.
 */
async function labelDocuments(cdp: CDPSession, proxy: { username: string; password: string }): Promise<void> {
  cdp.on('Fetch.requestPaused', (e: PausedResponse) => {
    void relabel(cdp, e).catch(() => cdp.send('Fetch.continueResponse', { requestId: e.requestId }).catch(() => {}));
  });
  cdp.on('Fetch.authRequired', (e: AuthRequired) => {
    const authChallengeResponse =
      e.authChallenge?.source === 'Proxy' ? { response: 'ProvideCredentials' as const, username: proxy.username, password: proxy.password } : { response: 'Default' as const };
    // Playwright's session may have answered first; the request is then no longer paused.
    cdp.send('Fetch.continueWithAuth', { requestId: e.requestId, authChallengeResponse }).catch(() => {});
  });
  // Chromium issues authRequired only for a request this session holds at the request stage:
  // a document's request is let go at once (relabel), its response held as above.
  await cdp.send('Fetch.enable', {
    handleAuthRequests: true,
    patterns: [
      { urlPattern: '*', resourceType: 'Document', requestStage: 'Request' },
      { urlPattern: '*', resourceType: 'Document', requestStage: 'Response' },
    ],
  });
}

interface AuthRequired {
  requestId: string;
  authChallenge?: { source?: 'Server' | 'Proxy' };
}

// Dropped from a relabelled response: the body handed back is already decoded and whole.
const BODY_FRAMING = new Set(['content-encoding', 'content-length', 'transfer-encoding']);

async function relabel(cdp: CDPSession, e: PausedResponse): Promise<void> {
  const status = e.responseStatusCode;
  // No status: a request on its way out (held for the proxy's challenge), or one that
  // failed, whose error page the browser shows.
  if (status === undefined) return void (await cdp.send('Fetch.continueRequest', { requestId: e.requestId }));
  const headers = e.responseHeaders ?? [];
  const type = headers.find((h) => h.name.toLowerCase() === 'content-type');
  if ((status >= 300 && status < 400) || !type || mediaType(type.value) !== 'text/html' || headerCharset(type.value)) {
    return void (await cdp.send('Fetch.continueResponse', { requestId: e.requestId }));
  }
  const got = await cdp.send('Fetch.getResponseBody', { requestId: e.requestId });
  const body = Buffer.from(got.body, got.base64Encoded ? 'base64' : 'utf8');
  if (!namesNoCharset(body, type.value)) return void (await cdp.send('Fetch.continueResponse', { requestId: e.requestId }));
  const responseHeaders = headers.filter((h) => !BODY_FRAMING.has(h.name.toLowerCase())).map((h) => (h === type ? { name: h.name, value: `${h.value}; charset=${unlabelledCharset(body)}` } : h));
  await cdp.send('Fetch.fulfillRequest', { requestId: e.requestId, responseCode: status, responseHeaders, body: body.toString('base64') });
}

export function withTimeout<T>(p: Promise<T>, ms: number, fallback: T): Promise<T> {
  return new Promise((resolve, reject) => {
    const t = setTimeout(() => resolve(fallback), ms);
    p.then(
      (v) => {
        clearTimeout(t);
        resolve(v);
      },
      (e: unknown) => {
        clearTimeout(t);
        reject(e);
      },
    );
  });
}

/**
 * The browser itself ended while a page rendered (killed for memory, crashed): the page failed
 * as "the browser could not load the page" (try render=never), or, ended while the page was
 * asked whether it had settled, as "the page's JavaScript did not yield within the render
 * budget" a moment into it. The next target starts a new browser, so trying again may do.
 */
const browserQuit = (): FetchError =>
  new FetchError(502, 'rendering failed: the browser quit while the page rendered', 'The browser process ended (out of memory, or killed) under the page; Sift starts a new one for the next page: try this one again.', 'unreachable');

/**
 * A failed page load as the user reads it. `guardRefused`: the guard refused the host whose
 * load failed (or, when the browser named none, any host while the page loaded). Only then is
 * a tunnel that failed the guard's doing: Chromium reports the proxy's refusal and its failure
 * to reach a host alike (ERR_TUNNEL_CONNECTION_FAILED), and a page the server redirected to a
 * dead https address failed as "blocked".
 */
function mapBrowserError(err: unknown, guardRefused: boolean): FetchError {
  const m = err instanceof Error ? err.message : String(err);
  if (/Executable doesn't exist|ENOENT|spawn/i.test(m)) return new FetchError(422, 'rendering unavailable: the browser did not start', NO_BROWSER_HINT, 'no_browser');
  if (guardRefused && /ERR_TUNNEL_CONNECTION_FAILED|ERR_PROXY/i.test(m)) return blocked('The rendered page went to an address Sift does not fetch');
  if (/ERR_TUNNEL_CONNECTION_FAILED/.test(m)) return new FetchError(502, 'rendering failed: the page went to an address that did not answer', 'The server sent the browser to a host that does not resolve or answer; open the URL in a browser to see where it goes.', 'unreachable');
  // The page itself came as an attachment (Content-Disposition): it failed as "the browser
  // could not load the page", a network error, where the server had sent it whole.
  if (/Download is starting/.test(m)) {
    return new FetchError(
      415,
      'rendering failed: the server sends the page as a file to download (Content-Disposition: attachment), which a browser saves instead of showing',
      RENDER_HINT.download.cli,
      'unsupported',
    );
  }
  if (/ERR_NAME_NOT_RESOLVED/.test(m)) return new FetchError(502, 'DNS lookup failed', 'The host name does not resolve; check the URL for typos.', 'dns');
  // The message names the URL; the user sees only what kind of failure it was.
  return new FetchError(502, 'rendering failed', RENDER_HINT.unloaded.cli, 'unreachable');
}

/**
 * Kills the processes this one started from `exe` since `before` (a browser start that
 * never answered), each with its process group (playwright-core starts a browser as its own
 * group), and waits, at most CLOSE_MS, until they are gone.
 */
async function killStarted(exe: string, before: number[]): Promise<void> {
  const pids = childPids().filter((p) => !before.includes(p) && commandOf(p).slice(0, 2).includes(exe));
  for (const pid of pids) {
    for (const target of [-pid, pid]) {
      try {
        process.kill(target, 'SIGKILL');
      } catch {
        /* no such group, or gone */
      }
    }
  }
  const until = Date.now() + CLOSE_MS;
  while (pids.some(running) && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
}

/** The command line of a process (Linux /proc), [] when it is gone. */
function commandOf(pid: number): string[] {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
  } catch {
    return [];
  }
}

/** Not gone, and not a zombie its parent has yet to reap. */
function running(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return false;
  }
}

/** Process ids whose parent is this process (Linux /proc); [] elsewhere. */
function childPids(): number[] {
  try {
    const me = String(process.pid);
    return readdirSync('/proc')
      .filter((d) => /^\d+$/.test(d))
      .filter((d) => {
        try {
          const stat = readFileSync(`/proc/${d}/stat`, 'utf8');
          return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1] === me;
        } catch {
          return false;
        }
      })
      .map(Number);
  } catch {
    return [];
  }
}
