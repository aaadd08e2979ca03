import type { BrowserWindow, BrowserWindowConstructorOptions, Session, WebContents } from 'electron';
import { FetchError } from '../fetch/errors';
import { GateBusyError, RENDERING_BUSY } from '../fetch/gate';
import { type BrowserInfo, type Rendered, type RenderHint, type Renderer, type RendererEnv } from '../fetch/render/types';
import { headerCharset } from '../fetch/charset';
import { mediaType } from '../fetch/sniff';
import { bounded, GRACE_MS, movingPage, NetActivity, notYielded, pageCrashed, PROBE, READ_MS, readPage, SCROLL, scriptErrorWords, SERIALIZE, ScriptsMissing, SETTLE_SCRIPT, settleLoaded, shownDocument, unreadPage, type Serialized, type SettlingPage } from '../fetch/render/settle';
import { GUARD_HEADER, type ProxyEndpoint, type ProxySession } from '../fetch/render/proxy';
import { RefusalTally } from '../fetch/render/refusals';
import { bareHost } from '../fetch/guard';
import { crashWords, RENDER_HINT } from '../../shared/hints';

/**
 * The app's renderer (SPEC §5.10): Electron's own Chromium in a hidden window. Written
 * against the few Electron APIs it touches, so the tests drive it with a stand-in; only
 * src/main/index.ts passes the real modules in.
 */

type SessionLike = Pick<Session, 'setProxy' | 'setPermissionRequestHandler' | 'setPermissionCheckHandler' | 'setUserAgent' | 'clearStorageData' | 'clearCache' | 'on'> & {
  webRequest: Pick<Session['webRequest'], 'onBeforeRequest' | 'onBeforeSendHeaders' | 'onHeadersReceived' | 'onCompleted' | 'onErrorOccurred'>;
};
type ContentsLike = Pick<WebContents, 'on' | 'setWindowOpenHandler' | 'loadURL' | 'executeJavaScript' | 'getURL' | 'setAudioMuted' | 'forcefullyCrashRenderer' | 'setWebRTCIPHandlingPolicy'> & { id: number };
type WindowLike = Pick<BrowserWindow, 'destroy' | 'isDestroyed'> & { webContents: ContentsLike };

export interface ElectronRenderDeps {
  fromPartition(partition: string): SessionLike;
  createWindow(options: BrowserWindowConstructorOptions): WindowLike;
  /** Electron's Chromium version, for Settings. */
  chromeVersion: string;
}

/** The hidden window's options: no preload, sandboxed, isolated, no Node, JavaScript on, no images. */
export function renderWindowOptions(session: SessionLike): BrowserWindowConstructorOptions {
  return {
    show: false,
    width: 1280,
    height: 900,
    webPreferences: {
      session: session as Session,
      sandbox: true,
      contextIsolation: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      javascript: true,
      webSecurity: true,
      allowRunningInsecureContent: false,
      images: false,
      webgl: false,
      plugins: false,
      experimentalFeatures: false,
      webviewTag: false,
      navigateOnDragDrop: false,
      spellcheck: false,
      backgroundThrottling: false,
      autoplayPolicy: 'document-user-activation-required',
      disableDialogs: true,
    },
  };
}

/** Chromium switches for the whole app, set before it is ready (the render window needs them). */
export const RENDER_SWITCHES: [string, string?][] = [
  ['disable-quic'],
  ['force-webrtc-ip-handling-policy', 'disable_non_proxied_udp'],
  ['webrtc-ip-handling-policy', 'disable_non_proxied_udp'],
  ['dns-prefetch-disable'],
  ['disable-features', 'NetworkPrediction,PreloadingHeuristics,Prerender2'],
];

const BLOCKED_TYPES = new Set(['image', 'media', 'font', 'object']);
const ALLOWED_SCHEMES = /^(?:https?|wss?|data|blob|about):/i;
const HTTP_ONLY = /^https?:/i;
// Partitions: one per render slot, in memory (no "persist:"), wiped after every target.
const PARTITION = 'sift-render-';

interface Slot {
  /** Its partition's number (PARTITION + index). */
  index: number;
  session: SessionLike;
  busy: boolean;
  net: NetActivity;
  /** The render window using the slot now: its requests count, others' never happen. */
  contentsId: number;
  /** The main frame's last document: its status, and whether the guard refused it. */
  mainStatus: number;
  refused: boolean;
  /** A document of the page's own was shown before (shownDocument): a refusal after it is the page leaving. */
  shown: boolean;
  /** The top page's scripts its server answered with an error. */
  missing: ScriptsMissing;
  /** The render hint's charset for the main document (see hardenRenderSession). */
  charset: string | undefined;
  /** The slot's own proxy credentials: the guard's events of its window are told from the other slots'. */
  proxy: ProxySession;
}

/**
 * One dedicated partition per render slot, each set up once: every request through the
 * guarding proxy (loopback included), permissions denied, downloads cancelled, images,
 * media and fonts not loaded, service workers refused, anything but http(s)/ws(s) refused.
 */
export class ElectronRenderer implements Renderer {
  private readonly slots: Slot[] = [];
  /** Partition numbers of slots being set up (slot()), not yet in `slots`. */
  private readonly making = new Set<number>();

  constructor(
    private readonly env: RendererEnv,
    private readonly deps: ElectronRenderDeps,
    private readonly maxSlots = 8,
  ) {}

  async browser(): Promise<BrowserInfo> {
    return { ok: true, name: `Electron's Chromium ${this.deps.chromeVersion}`, path: 'built in' };
  }

  private async slot(): Promise<Slot> {
    const free = this.slots.find((s) => !s.busy);
    if (free) {
      free.busy = true;
      return free;
    }
    // The fetch pipeline's render gate caps concurrent renders; this cap only guards a bug.
    // Its words are the gate's: a bare 'busy' was told as "already fetching as many pages".
    if (this.slots.length + this.making.size >= this.maxSlots) throw new GateBusyError(RENDERING_BUSY);
    // The partition is taken before the first await: two first renders (renderPages is 2 by
    // default) both named 'sift-render-0', and Electron gives one session for one name, so the
    // second's hooks replaced the first's and each wiped the other's cookies after its target.
    let index = 0;
    while (this.slots.some((s) => s.index === index) || this.making.has(index)) index++;
    this.making.add(index);
    let proxy: ProxySession | undefined;
    try {
      proxy = await this.env.proxySession();
      const session = this.deps.fromPartition(`${PARTITION}${index}`);
      const slot: Slot = { index, session, busy: true, net: new NetActivity(0), contentsId: -1, mainStatus: 0, refused: false, shown: false, missing: new ScriptsMissing(), charset: undefined, proxy };
      await hardenRenderSession(session, proxy, this.env.userAgent(), {
        started: (id, request, type) => {
          if (id === slot.contentsId) slot.net.started(request, type);
        },
        ended: (id, request) => {
          if (id === slot.contentsId) slot.net.ended(request);
        },
        document: (id, status, refused) => {
          if (id !== slot.contentsId) return;
          slot.mainStatus = status;
          slot.refused = refused;
          slot.shown ||= shownDocument(status, refused);
        },
        script: (id, status, refused, contentType, url) => {
          if (id === slot.contentsId) slot.missing.answered(status, refused, contentType, url);
        },
        charset: (id) => (id === slot.contentsId ? slot.charset : undefined),
      });
      this.slots.push(slot);
      return slot;
    } catch {
      // Electron's own words (a session or proxy it could not set up) were stored as "internal
      // error — a bug in Sift". The partition's number is free again, and the next render sets
      // the slot up anew in the same partition; its proxy credentials end with it.
      proxy?.end();
      throw new FetchError(502, 'rendering failed: the browser could not be set up for the page', RENDER_HINT.setup.app, 'unreachable');
    } finally {
      this.making.delete(index);
    }
  }

  async render(url: string, signal: AbortSignal, budgetMs: number, hint: RenderHint = {}): Promise<Rendered> {
    if (!HTTP_ONLY.test(url)) throw new FetchError(400, 'only http and https pages are rendered', '', 'bad_url');
    // A set-up that failed after a cancel failed for the cancel (its window or session torn
    // down): its "could not be set up" was stored as an internal error of a cancelled job.
    const slot = await this.slot().catch((err: unknown) => {
      throw signal.aborted ? (signal.reason ?? err) : err;
    });
    if (signal.aborted) {
      slot.busy = false;
      throw signal.reason;
    }
    let win: WindowLike;
    try {
      win = this.deps.createWindow(renderWindowOptions(slot.session));
    } catch {
      // Electron's own words ("Cannot create BrowserWindow …") were stored as "internal error",
      // and the slot stayed taken: with the 8 slots gone so, every later page failed busy.
      slot.busy = false;
      throw new FetchError(502, 'rendering failed: the browser window for the page could not be opened', RENDER_HINT.unloaded.app, 'unreachable');
    }
    const wc = win.webContents;
    slot.contentsId = wc.id;
    slot.net = new NetActivity(budgetMs);
    slot.mainStatus = 0;
    slot.refused = false;
    slot.shown = false;
    slot.missing = new ScriptsMissing();
    slot.charset = hint.charset;
    hardenRenderContents(wc, slot.proxy);
    const onAbort = (): void => {
      if (!win.isDestroyed()) win.destroy();
    };
    signal.addEventListener('abort', onAbort, { once: true });
    let stuck = false;
    const doc = new DocumentWatch(wc);
    // What the guard refused of this page, as the Chromium path keeps it: the slot's own
    // credentials tell its requests from those of a window rendering in another slot.
    const tally = new RefusalTally();
    const unlisten = this.env.proxyEvents((e) => {
      if (e.session === slot.proxy.id) tally.add(e);
    });
    try {
      // Cancelled while the slot was made: an abort before the listener never calls it, and the
      // window loaded the page and waited for its load event, up to the whole budget.
      signal.throwIfAborted();
      const out = await this.settle(wc, doc, slot, url, signal, budgetMs, tally);
      if (out === 'stuck' || out === 'unread') {
        stuck = true;
        if (out === 'unread') throw unreadPage(READ_MS, 'app');
        throw notYielded(budgetMs, slot.net.blockingWaiting(), 'app');
      }
      // In the CLI renderer's words: the app said only "rendering failed".
      if (out === 'crashed') throw pageCrashed('app', crashWords(doc.crashed));
      // A page that left for a refused address keeps its tally: the result says what was refused.
      const guardRefused = (out.refused && !out.left) || out.unreachable ? undefined : tally.result();
      return guardRefused ? { ...out, guardRefused } : out;
    } catch (err) {
      // Cancelled first: the abort destroys the window, which reads as a page that never
      // answered or crashed (as the Chromium path says).
      if (signal.aborted) throw signal.reason ?? err;
      if (err instanceof FetchError) throw err;
      throw new FetchError(502, 'rendering failed', RENDER_HINT.unloaded.app, 'unreachable');
    } finally {
      unlisten();
      signal.removeEventListener('abort', onAbort);
      if (!win.isDestroyed()) {
        // A renderer stuck in a busy loop is killed, not asked to close.
        if (stuck) wc.forcefullyCrashRenderer();
        win.destroy();
      }
      slot.contentsId = -1;
      slot.charset = undefined;
      // Nothing of this target (cookies, storage, cache) is left for the next one.
      await Promise.all([slot.session.clearStorageData(), slot.session.clearCache()]).catch(() => {});
      slot.busy = false;
    }
  }

  private async settle(wc: ContentsLike, doc: DocumentWatch, slot: Slot, url: string, signal: AbortSignal, budgetMs: number, tally: RefusalTally): Promise<Rendered | 'stuck' | 'unread' | 'crashed'> {
    const start = Date.now();
    const deadline = start + budgetMs;
    let loaded = false;
    // did-finish-load, or the budget: a page whose scripts never let it load is read as it is.
    // Not dom-ready, as the Chromium path reads a page: Electron 41's executeJavaScript waits
    // while the page loads, so a page asked before its load would not answer either. Requests
    // that hang after the load stop counting (NetActivity); images are never loaded here.
    const load = wc.loadURL(url).then(
      () => (loaded = true),
      () => undefined,
    );
    await bounded(load, budgetMs);
    signal.throwIfAborted();
    // Electron has no init script for every frame: each main document gets it once loaded.
    let unanswered = false;
    const prepare = async (): Promise<boolean> => {
      const r = await doc.ask(`${SETTLE_SCRIPT}; true`, Math.max(0, deadline - Date.now()) + GRACE_MS);
      if (r === undefined) unanswered = true;
      // Gone again before it answered: the next question starts over with the next document.
      if (r === 'gone') doc.missed();
      return r !== undefined && r !== 'gone';
    };
    const page: SettlingPage = {
      probe: async (ms) => {
        if (unanswered) return undefined;
        const st = await doc.ask(PROBE, ms);
        return st === 'gone' || st === undefined ? st : (st as [number, number]);
      },
      ended: () => doc.ended(slot),
      nextDocument: async (ms) => {
        await doc.nextDocument(ms);
        await prepare();
      },
      scroll: async (ms) => void (await doc.ask(SCROLL, ms)),
    };
    let settled = false;
    if (loaded) {
      const out = (await prepare()) || !unanswered ? await settleLoaded(page, slot.net, signal, budgetMs, deadline, GRACE_MS) : 'stuck';
      if (out === 'stuck') return 'stuck';
      settled = out === 'settled';
    }
    if (doc.crashed) return 'crashed';
    const read = async (ms: number): Promise<Serialized | 'gone' | undefined> => (await doc.ask(SERIALIZE, ms)) as Serialized | 'gone' | undefined;
    const { html, reread } = await readPage(page, read, Math.max(deadline, Date.now()) + GRACE_MS);
    // The browser's error page: https goes through a CONNECT tunnel, whose refusal by the guard
    // and whose failure to resolve or connect the browser reports alike, so the guard's own
    // record says which it was. A script that sent the reader to a dead or misspelled site
    // failed as "blocked", with a hint to allow private addresses, which changed nothing.
    const errorPage = doc.failedHost !== undefined || !HTTP_ONLY.test(wc.getURL());
    const unreachable = errorPage && !slot.refused && doc.failedHost !== undefined && doc.failedHost !== '' && !tally.refused(doc.failedHost);
    const refused = slot.refused || (errorPage && !unreachable);
    if (doc.crashed) return 'crashed';
    if (html === 'gone' && !refused && !unreachable) throw movingPage();
    if (html === 'unread' && !refused && !unreachable) return 'unread';
    if (html === undefined && !refused && !unreachable) return 'stuck';
    const finalUrl = wc.getURL();
    return { finalUrl, html: typeof html === 'string' && html !== 'gone' && html !== 'unread' ? html : '', status: slot.mainStatus, partial: !settled || reread, ...(unreachable ? { unreachable: true } : refused ? { refused: true, ...(slot.shown ? { left: true } : {}) } : {}), ...(doc.scriptError ? { scriptError: doc.scriptError } : {}), ...slot.missing.result() };
  }

  async close(): Promise<void> {
    await Promise.all(this.slots.map((s) => Promise.all([s.session.clearStorageData(), s.session.clearCache()]).catch(() => {})));
  }
}

// Chromium's net error codes (net/base/net_error_list.h) that did-fail-load reports.
const ERR_ABORTED = -3;
/** A request the session's own hooks cancelled (hardenRenderSession: a scheme Sift does not fetch). */
const ERR_BLOCKED_BY_CLIENT = -20;

/** The bare host of an http(s) URL; '' for anything else. */
function httpHost(url: string): string {
  if (!HTTP_ONLY.test(url)) return '';
  try {
    return bareHost(new URL(url).hostname);
  } catch {
    return '';
  }
}

/**
 * The window's main document as the settle loop asks it. Electron 41's executeJavaScript
 * waits while the page loads and never answers from a document that went away (a script's
 * location.href, a meta refresh after the load): the promise just stays pending (Electron
 * made it reject only later, electron/electron#53969). Read as "no answer", that was a stuck
 * page: the renderer was killed and the target failed as "did not yield within the render
 * budget", where Chromium's path (settle.ts) goes on in the new document. So a question is
 * 'gone' when a main-frame navigation to another document starts while it waits (or started
 * since the last question), and when the renderer process ends.
 */
class DocumentWatch {
  private navigations = 0;
  private seen = 0;
  /** Why the renderer process ended, when it did. */
  crashed: string | undefined;
  /** The first uncaught error of the page's scripts (scriptErrorWords), as the Chromium path's 'pageerror' gives it. */
  scriptError: string | undefined;
  private wake: (() => void)[] = [];
  /** A main-frame navigation started and its document has not finished (or failed) loading. */
  private loading = false;
  /**
   * The host whose load failed in the main frame's last navigation, in the browser (its error
   * page shows); '' when Sift itself stopped it (a scheme it does not fetch) or it was no http
   * address. Undefined while the last navigation has not failed.
   */
  failedHost: string | undefined;

  // The listeners live as long as the window, which is made for one target and destroyed.
  constructor(private readonly wc: ContentsLike) {
    wc.on('did-start-navigation', (details: { isMainFrame?: boolean; isSameDocument?: boolean }) => {
      if (!details.isMainFrame || details.isSameDocument) return;
      this.navigations++;
      this.loading = true;
      this.failedHost = undefined;
      this.poke();
    });
    const loaded = (): void => {
      this.loading = false;
      this.poke();
    };
    wc.on('did-finish-load', loaded);
    wc.on('did-stop-loading', loaded);
    wc.on('did-fail-load', (_e, code, _desc, failedUrl, isMainFrame) => {
      if (!isMainFrame) return;
      // ERR_ABORTED: the navigation was replaced by another one (or stopped); nothing failed.
      if (code !== ERR_ABORTED) this.failedHost = code === ERR_BLOCKED_BY_CLIENT ? '' : httpHost(failedUrl);
      loaded();
    });
    // Electron has no 'pageerror': Chromium reports an uncaught error to the console as "Uncaught …".
    // Only the top frame's: an ad's or a widget's iframe that threw was quoted as the page's own
    // script failing, with "open it in a browser", where the page's shell stayed empty for another reason.
    wc.on('console-message', (e) => {
      if (e.level === 'error' && e.message.startsWith('Uncaught ') && e.frame?.parent === null) this.scriptError ??= scriptErrorWords(e.message);
    });
    wc.on('render-process-gone', (_e, details) => {
      this.crashed = details.reason;
      this.poke();
    });
  }

  private poke(): void {
    const w = this.wake;
    this.wake = [];
    for (const f of w) f();
  }

  private changed(): Promise<void> {
    return new Promise((r) => this.wake.push(r));
  }

  /** code's value in the current main document within ms; 'gone' when that document went away first; undefined when it did not answer. */
  async ask(code: string, ms: number): Promise<unknown> {
    if (this.crashed || this.navigations !== this.seen) {
      this.seen = this.navigations;
      return 'gone';
    }
    const before = this.navigations;
    let done = false;
    const moved = (async () => {
      while (this.navigations === before && !this.crashed && !done) await this.changed();
      return 'gone' as const;
    })();
    const answer = await bounded(Promise.race([this.wc.executeJavaScript(code) as Promise<unknown>, moved]), ms);
    done = true;
    this.poke();
    if (this.navigations !== before || this.crashed) {
      this.seen = this.navigations;
      return 'gone';
    }
    return answer;
  }

  /** The new document was asked before it was ready: the next question starts over with it. */
  missed(): void {
    this.seen = this.navigations - 1;
  }

  /** After a document went away: nothing more will load (the renderer ended, the guard refused where it went, the browser could not go). */
  ended(slot: Pick<Slot, 'refused'>): boolean {
    return this.crashed !== undefined || slot.refused || this.failedHost !== undefined;
  }

  /** Waits, at most ms, for the main frame to finish (or fail) loading the document it went to. */
  async nextDocument(ms: number): Promise<void> {
    let done = false;
    await bounded(
      (async () => {
        while (this.loading && !this.crashed && !done) await this.changed();
      })(),
      ms,
    );
    done = true;
    this.poke();
  }
}

/** The partition's rules; `track` counts a window's requests for "network idle". */
export async function hardenRenderSession(
  session: SessionLike,
  endpoint: ProxyEndpoint,
  userAgent: string,
  track: {
    /** A request of the window started: `request` names it to ended(), `type` is its resourceType. */
    started(webContentsId: number, request: unknown, type: string): void;
    ended(webContentsId: number, request: unknown): void;
    document?(webContentsId: number, status: number, refused: boolean): void;
    /** A script of the window's top page was answered (`contentType`: its Content-Type). */
    script?(webContentsId: number, status: number, refused: boolean, contentType: string, url: string): void;
    /** The charset to give the window's main document when its header names none. */
    charset?(webContentsId: number): string | undefined;
  },
): Promise<void> {
  await session.setProxy({ proxyRules: endpoint.server, proxyBypassRules: '<-loopback>' });
  session.setUserAgent(userAgent);
  session.setPermissionRequestHandler((_wc, _permission, callback) => callback(false));
  session.setPermissionCheckHandler(() => false);
  session.on('will-download', (event, item) => {
    event.preventDefault();
    item.cancel();
  });
  session.webRequest.onBeforeRequest((details, callback) => {
    const cancel = BLOCKED_TYPES.has(details.resourceType) || !ALLOWED_SCHEMES.test(details.url);
    if (!cancel && details.webContentsId !== undefined) track.started(details.webContentsId, details.id, details.resourceType);
    callback({ cancel });
  });
  // Chromium marks a service worker's script fetch with this header; refusing it keeps
  // workers (and their cache, which outlives the page) from being installed.
  session.webRequest.onBeforeSendHeaders((details, callback) => {
    const sw = Object.entries(details.requestHeaders).some(([k, v]) => k.toLowerCase() === 'service-worker' && v === 'script');
    if (sw && details.webContentsId !== undefined) track.ended(details.webContentsId, details.id);
    callback(sw ? { cancel: true } : { requestHeaders: details.requestHeaders });
  });
  // A page that names no charset is read by Chromium as windows-1252; the static fetch read it
  // (from its bytes) as UTF-8 or windows-1252 and says which in the render hint. The main
  // document's header is given that charset, so the window reads the page as Sift did.
  // A top-page script's answer, kept until its request ends: Chromium cancels a script whose
  // answer is an error (a 404's body is never read; playwright-core reports it failed,
  // net::ERR_ABORTED, after its response), so its end may be an error, and counted there as
  // no answer it read "its scripts could not be loaded: the server … did not answer".
  const scriptAnswers = new Map<number, { status: number; refused: boolean; type: string }>();
  const headerOf = (headers: Record<string, string[]> | undefined, name: string): string[] => Object.entries(headers ?? {}).find(([k]) => k.toLowerCase() === name)?.[1] ?? [];
  session.webRequest.onHeadersReceived((details, callback) => {
    if (details.resourceType === 'script' && details.frame?.parent === null) {
      scriptAnswers.set(details.id, { status: details.statusCode, refused: headerOf(details.responseHeaders, GUARD_HEADER).includes('refused'), type: headerOf(details.responseHeaders, 'content-type')[0] ?? '' });
    }
    const charset = details.resourceType === 'mainFrame' && details.webContentsId !== undefined ? track.charset?.(details.webContentsId) : undefined;
    const headers = details.responseHeaders ?? {};
    const typeKey = Object.keys(headers).find((k) => k.toLowerCase() === 'content-type');
    const type = typeKey ? (headers[typeKey]?.[0] ?? '') : '';
    if (!charset || !typeKey || mediaType(type) !== 'text/html' || headerCharset(type)) return callback({});
    callback({ responseHeaders: { ...headers, [typeKey]: [`${type}; charset=${charset}`] } });
  });
  session.webRequest.onCompleted((details) => {
    scriptAnswers.delete(details.id);
    if (details.webContentsId === undefined) return;
    track.ended(details.webContentsId, details.id);
    const refused = (): boolean => Object.entries(details.responseHeaders ?? {}).some(([k, v]) => k.toLowerCase() === GUARD_HEADER && v.includes('refused'));
    if (details.resourceType === 'mainFrame') track.document?.(details.webContentsId, details.statusCode, refused());
    // An iframe's (an ad's) missing script says nothing of the page's own.
    else if (details.resourceType === 'script' && details.frame?.parent === null) {
      const type = Object.entries(details.responseHeaders ?? {}).find(([k]) => k.toLowerCase() === 'content-type')?.[1]?.[0] ?? '';
      track.script?.(details.webContentsId, details.statusCode, refused(), type, details.url);
    }
  });
  session.webRequest.onErrorOccurred((details) => {
    const answer = scriptAnswers.get(details.id);
    scriptAnswers.delete(details.id);
    if (details.webContentsId === undefined) return;
    track.ended(details.webContentsId, details.id);
    if (details.resourceType === 'script' && details.frame?.parent === null) track.script?.(details.webContentsId, answer?.status ?? 0, answer?.refused ?? false, answer?.type ?? '', details.url);
  });
}

/** The window's rules: no popups, http(s) navigation only, proxy credentials on request. */
export function hardenRenderContents(wc: Pick<ContentsLike, 'on' | 'setWindowOpenHandler' | 'setAudioMuted' | 'setWebRTCIPHandlingPolicy'>, endpoint: ProxyEndpoint): void {
  wc.setWindowOpenHandler(() => ({ action: 'deny' }));
  wc.setAudioMuted(true);
  wc.setWebRTCIPHandlingPolicy('disable_non_proxied_udp');
  const httpOnly = (event: { preventDefault(): void }, url: string): void => {
    if (!HTTP_ONLY.test(url)) event.preventDefault();
  };
  wc.on('will-navigate', httpOnly);
  wc.on('will-redirect', httpOnly);
  wc.on('will-frame-navigate', (event) => {
    if (!HTTP_ONLY.test(event.url) && !/^about:blank/.test(event.url)) event.preventDefault();
  });
  wc.on('will-attach-webview', (event) => event.preventDefault());
  // The guarding proxy asks for this run's credentials; a site's own login prompt is refused.
  wc.on('login', (event, _details, authInfo, callback) => {
    event.preventDefault();
    if (authInfo.isProxy) callback(endpoint.username, endpoint.password);
    else callback();
  });
}

/** The renderer factory for the app: Electron's modules in, a Renderer out. */
export function electronRendererFactory(deps: ElectronRenderDeps): (env: RendererEnv) => Renderer {
  return (env) => new ElectronRenderer(env, deps);
}
