/**
 * A stand-in for the few Electron APIs the glue touches (the Electron binary cannot run
 * here). It records what the glue asked for so tests can assert on it.
 */
import type { Envelope } from '../../src/shared/ipc/contract';
import type { SenderEvent } from '../../src/main/ipc/bind';

type Handler = (event: SenderEvent, ...args: unknown[]) => Promise<Envelope>;

export class FakeIpcMain {
  handlers = new Map<string, Handler>();
  handle(channel: string, listener: Handler): void {
    if (this.handlers.has(channel)) throw new Error(`Attempted to register a second handler for '${channel}'`);
    this.handlers.set(channel, listener);
  }
  removeHandler(channel: string): void {
    this.handlers.delete(channel);
  }
  /** Calls a channel the way ipcRenderer.invoke from `frameUrl` would. */
  invoke(channel: string, frameUrl: string, payload?: unknown, opts: { subframe?: boolean } = {}): Promise<Envelope> {
    const h = this.handlers.get(channel);
    if (!h) throw new Error(`No handler registered for '${channel}'`);
    return h({ senderFrame: { url: frameUrl, parent: opts.subframe ? {} : null } }, payload);
  }
}

type Listener = (...args: unknown[]) => void;

export class FakeWebContents {
  listeners = new Map<string, Listener[]>();
  openHandler: ((d: { url: string }) => { action: string }) | null = null;
  sent: { channel: string; payload: unknown }[] = [];
  on(event: string, l: Listener): this {
    this.listeners.set(event, [...(this.listeners.get(event) ?? []), l]);
    return this;
  }
  setWindowOpenHandler(h: (d: { url: string }) => { action: string }): void {
    this.openHandler = h;
  }
  send(channel: string, payload: unknown): void {
    this.sent.push({ channel, payload });
  }
  /** Fires an event with these arguments after the event object. */
  fireWith(event: string, ...args: unknown[]): void {
    for (const l of this.listeners.get(event) ?? []) l({ preventDefault: () => undefined }, ...args);
  }
  /** Fires a navigation-like event; returns true when the glue prevented it. */
  fire(event: string, url: string): boolean {
    let prevented = false;
    const e = { preventDefault: () => (prevented = true) };
    for (const l of this.listeners.get(event) ?? []) l(e, url);
    return prevented;
  }
}

export class FakeSession {
  permissionRequest: ((wc: unknown, permission: string, cb: (ok: boolean) => void) => void) | null = null;
  permissionCheck: ((wc: unknown, permission: string) => boolean) | null = null;
  headersHook: ((d: { responseHeaders?: Record<string, string[]> }, cb: (r: { responseHeaders?: Record<string, string[]> }) => void) => void) | null = null;
  setPermissionRequestHandler(h: FakeSession['permissionRequest']): void {
    this.permissionRequest = h;
  }
  setPermissionCheckHandler(h: FakeSession['permissionCheck']): void {
    this.permissionCheck = h;
  }
  webRequest = {
    onHeadersReceived: (h: FakeSession['headersHook']) => {
      this.headersHook = h;
    },
  };
}

export class FakeShell {
  opened: string[] = [];
  async openExternal(url: string): Promise<void> {
    this.opened.push(url);
  }
}

type WebRequestListener = (details: Record<string, unknown>, callback: (r: Record<string, unknown>) => void) => void;

/** A partition session as the render window uses it: records its proxy and its handlers. */
export class FakeRenderSession {
  proxy: { proxyRules?: string; proxyBypassRules?: string } | null = null;
  userAgent = '';
  permissionRequest: ((wc: unknown, permission: string, cb: (ok: boolean) => void) => void) | null = null;
  permissionCheck: ((wc: unknown, permission: string) => boolean) | null = null;
  listeners = new Map<string, Listener[]>();
  hooks = new Map<string, WebRequestListener>();
  cleared = 0;
  constructor(readonly partition: string) {}
  async setProxy(c: { proxyRules?: string; proxyBypassRules?: string }): Promise<void> {
    this.proxy = c;
  }
  setUserAgent(ua: string): void {
    this.userAgent = ua;
  }
  setPermissionRequestHandler(h: FakeRenderSession['permissionRequest']): void {
    this.permissionRequest = h;
  }
  setPermissionCheckHandler(h: FakeRenderSession['permissionCheck']): void {
    this.permissionCheck = h;
  }
  on(event: string, l: Listener): this {
    this.listeners.set(event, [...(this.listeners.get(event) ?? []), l]);
    return this;
  }
  async clearStorageData(): Promise<void> {
    this.cleared++;
  }
  async clearCache(): Promise<void> {}
  webRequest = {
    onBeforeRequest: (h: WebRequestListener) => void this.hooks.set('beforeRequest', h),
    onBeforeSendHeaders: (h: WebRequestListener) => void this.hooks.set('beforeSendHeaders', h),
    onHeadersReceived: (h: WebRequestListener) => void this.hooks.set('headersReceived', h),
    onCompleted: (h: WebRequestListener) => void this.hooks.set('completed', h),
    onErrorOccurred: (h: WebRequestListener) => void this.hooks.set('errorOccurred', h),
  };
  /** Runs a webRequest hook the way Chromium would; resolves with what the session answered. */
  request(hook: string, details: Record<string, unknown>): Promise<Record<string, unknown>> {
    return new Promise((resolve) => {
      const h = this.hooks.get(hook);
      if (!h) throw new Error(`no ${hook} hook`);
      h(details, resolve);
    });
  }
}

/** A page of the fake render window: what it answers, and what it does when first probed. */
export interface FakePage {
  html: string;
  busy?: boolean;
  finalUrl?: string;
  /**
   * At its first probe the page's script moves it on to this document, as Electron 41 shows
   * it: did-start-navigation for the main frame, the probe never answered, then the new
   * document's did-navigate, did-finish-load and did-stop-loading.
   */
  navigate?: FakePage & { url: string; status?: number };
  /** `navigate` happens when the page is read (SERIALIZE), once it has settled, not when it is probed. */
  navigateWhenRead?: boolean;
  /** At its first probe the renderer process ends for this reason (render-process-gone). */
  crash?: string;
  /**
   * The main frame's load fails, as Chromium reports a failed navigation: did-start-navigation,
   * did-fail-load (net error `code`, the URL), then the error page's did-finish-load; loadURL
   * rejects. `shownUrl` is what getURL gives then (the error page's, or the URL that failed).
   */
  fail?: { code: number; shownUrl: string };
  /**
   * What the page's scripts write to the console as it loads, as Electron 41's console-message
   * gives it (its details as the event); Chromium writes an uncaught error as "Uncaught …".
   */
  console?: { level: 'info' | 'warning' | 'error' | 'debug'; message: string; /** An iframe's, not the top page's (its frame has a parent). */ inFrame?: boolean }[];
  /** Its load event never comes (a script or a frame whose server never answers): loadURL stays pending. */
  neverLoads?: boolean;
}

/** A render window's webContents; `page` says what the fake page answers to executeJavaScript. */
export class FakeRenderContents extends FakeWebContents {
  static nextId = 100;
  id = FakeRenderContents.nextId++;
  url = '';
  muted = false;
  webrtc = '';
  crashed = false;
  scripts: string[] = [];
  navigations: string[] = [];
  /** The URLs the window was asked to load. */
  loads: string[] = [];
  constructor(public page: FakePage) {
    super();
  }
  async loadURL(url: string): Promise<void> {
    this.loads.push(url);
    // As Electron's loadURL (lib/browser/api/web-contents.ts): a window destroyed while it loads
    // rejects the load; a stand-in that never did held a cancelled render to its whole budget.
    if (this.page.neverLoads) return new Promise((_resolve, reject) => void this.on('destroyed', () => reject(new Error(`ERR_FAILED (-2) loading '${url}'`))));
    const { fail } = this.page;
    if (!fail) {
      this.url = this.page.finalUrl ?? url;
      for (const { inFrame, ...m } of this.page.console ?? []) {
        // Electron's WebFrameMain: the top frame's parent is null.
        const frame = { parent: inFrame ? { parent: null } : null };
        this.emit('console-message', { ...m, frame, lineNumber: 1, sourceId: url, preventDefault: () => undefined });
      }
      return;
    }
    this.emit('did-start-navigation', { url, isMainFrame: true, isSameDocument: false }, url, false, true, 1, 1);
    this.emit('did-fail-load', {}, fail.code, 'net error', url, true, 1, 1);
    this.url = fail.shownUrl;
    this.emit('did-finish-load');
    this.emit('did-stop-loading');
    throw new Error(`ERR_FAILED (${fail.code}) loading '${url}'`);
  }
  executeJavaScript(code: string): Promise<unknown> {
    this.scripts.push(code);
    // A busy loop: the renderer's main thread never answers.
    if (this.page.busy) return new Promise(() => {});
    const asked = this.page.navigateWhenRead ? code.includes('outerHTML') : code.includes('__siftChanged ||');
    if (asked && (this.page.navigate || this.page.crash)) {
      const { navigate, crash } = this.page;
      setImmediate(() => {
        if (crash) {
          this.emit('render-process-gone', {}, { reason: crash, exitCode: 9 });
          return;
        }
        if (!navigate) return;
        this.emit('did-start-navigation', { url: navigate.url, isMainFrame: true, isSameDocument: false }, navigate.url, false, true, 1, 1);
        setImmediate(() => {
          this.page = navigate;
          if (navigate.fail) {
            this.emit('did-fail-load', {}, navigate.fail.code, 'net error', navigate.url, true, 1, 1);
            this.url = navigate.fail.shownUrl;
            this.emit('did-finish-load');
            this.emit('did-stop-loading');
            return;
          }
          this.url = navigate.url;
          this.navigations.push(navigate.url);
          this.emit('did-navigate', {}, navigate.url, navigate.status ?? 200, 'OK');
          this.emit('did-finish-load');
          this.emit('did-stop-loading');
        });
      });
      // Electron 41: a question asked in a document that goes away is never answered.
      return new Promise(() => {});
    }
    if (code.includes('__siftChanged ||')) return Promise.resolve([10_000, this.page.html.length]);
    if (code.includes('outerHTML')) return Promise.resolve([this.page.html, 0]);
    if (code.endsWith('; true')) return Promise.resolve(true);
    return Promise.resolve(undefined);
  }
  getURL(): string {
    return this.url;
  }
  setAudioMuted(m: boolean): void {
    this.muted = m;
  }
  setWebRTCIPHandlingPolicy(p: string): void {
    this.webrtc = p;
  }
  forcefullyCrashRenderer(): void {
    this.crashed = true;
  }
  /** Fires a listener with raw arguments (login, will-frame-navigate). */
  emit(event: string, ...args: unknown[]): void {
    for (const l of this.listeners.get(event) ?? []) l(...args);
  }
}

export class FakeRenderWindow {
  destroyed = false;
  constructor(
    readonly options: Record<string, unknown>,
    readonly webContents: FakeRenderContents,
  ) {}
  destroy(): void {
    if (this.destroyed) return;
    this.destroyed = true;
    this.webContents.emit('destroyed');
  }
  isDestroyed(): boolean {
    return this.destroyed;
  }
}

/** What a test of a start that must stop sees: the error boxes shown and app.exit's code. */
export interface StoppedStart {
  userData: string;
  shown: [string, string][];
  exitCode: number | undefined;
}

/**
 * Electron as src/main/index.ts meets it in a start that must stop before any window opens
 * (a database in use, a data folder it cannot write): userData is `seen.userData`, an error
 * box and app.exit are recorded in `seen`, and a window opening throws `why`. For
 * `vi.mock('electron', async () => (await import(…)).stoppedStartElectron(h, why))`.
 */
export function stoppedStartElectron(seen: StoppedStart, why: string): Record<string, unknown> {
  return {
    app: {
      enableSandbox: () => {},
      commandLine: { appendSwitch: () => {} },
      setName: () => {},
      whenReady: () => Promise.resolve(),
      getPath: () => seen.userData,
      on: () => {},
      quit: () => {},
      exit: (code: number) => (seen.exitCode = code),
      requestSingleInstanceLock: () => true,
    },
    BrowserWindow: class {
      constructor() {
        throw new Error(why);
      }
    },
    ipcMain: new FakeIpcMain(),
    session: { defaultSession: new FakeSession() },
    shell: new FakeShell(),
    dialog: { showErrorBox: (title: string, content: string) => seen.shown.push([title, content]) },
  };
}
