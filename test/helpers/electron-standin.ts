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
  permissionCheck: (() => boolean) | null = null;
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
