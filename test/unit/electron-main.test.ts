/**
 * Drives src/main/index.ts (the one file that imports 'electron' for real) with a stand-in
 * for the Electron module, so its wiring is checked without the Electron binary.
 */
import { afterAll, expect, test, vi } from 'vitest';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { FakeIpcMain, FakeSession, FakeShell, FakeWebContents } from '../helpers/electron-standin';
import { METHODS, channelOf } from '../../src/shared/ipc/contract';

const h = vi.hoisted(() => ({
  userData: '',
  windows: [] as { options: Record<string, unknown>; url: string; webContents: unknown }[],
  appListeners: new Map<string, ((...a: unknown[]) => void)[]>(),
  sandboxEnabled: false,
  shown: [] as string[],
  switches: [] as string[],
}));
h.userData = mkdtempSync(path.join(os.tmpdir(), 'sift-main-'));

const ipcMain = new FakeIpcMain();
const session = new FakeSession();
const shell = new FakeShell();

vi.mock('electron', () => {
  class BrowserWindow {
    webContents = new FakeWebContents();
    record: { options: Record<string, unknown>; url: string; webContents: unknown };
    constructor(options: Record<string, unknown>) {
      this.record = { options, url: '', webContents: this.webContents };
      h.windows.push(this.record);
    }
    once(): void {}
    on(): void {}
    show(): void {}
    isMinimized(): boolean {
      return true;
    }
    restore(): void {
      h.shown.push('restore');
    }
    focus(): void {
      h.shown.push('focus');
    }
    async loadURL(url: string): Promise<void> {
      this.record.url = url;
    }
  }
  const app = {
    enableSandbox: () => (h.sandboxEnabled = true),
    commandLine: { appendSwitch: (name: string) => h.switches.push(name) },
    setName: () => {},
    whenReady: () => Promise.resolve(),
    getPath: () => h.userData,
    on: (ev: string, l: (...a: unknown[]) => void) => h.appListeners.set(ev, [...(h.appListeners.get(ev) ?? []), l]),
    quit: () => {},
    exit: () => {},
    requestSingleInstanceLock: () => true,
  };
  return {
    app,
    BrowserWindow,
    ipcMain,
    session: { defaultSession: session },
    shell,
    dialog: { showOpenDialog: vi.fn(), showSaveDialog: vi.fn(), showErrorBox: vi.fn() },
  };
});

afterAll(() => {
  for (const l of h.appListeners.get('before-quit') ?? []) l({ preventDefault() {} });
});

test('the main process enables the sandbox, hardens the session, binds the contract and opens one secure window', async () => {
  await import('../../src/main/index');
  await vi.waitFor(() => expect(h.windows.length).toBe(1));
  expect(h.sandboxEnabled).toBe(true);
  // Rendered pages: no QUIC, WebRTC only through the proxy, no DNS prefetch.
  expect(h.switches).toEqual(expect.arrayContaining(['disable-quic', 'force-webrtc-ip-handling-policy', 'dns-prefetch-disable']));
  const win = h.windows[0]!;
  expect(win.options.webPreferences).toMatchObject({ contextIsolation: true, sandbox: true, nodeIntegration: false });
  expect(String((win.options.webPreferences as { preload: string }).preload)).toMatch(/preload[/\\]index\.js$/);
  expect(win.url).toMatch(/^file:.*renderer\/index\.html$/);
  expect(session.permissionRequest).not.toBeNull();
  expect([...ipcMain.handlers.keys()].sort()).toEqual(METHODS.map(channelOf).sort());

  // The renderer at the loaded URL may call; any other frame may not.
  const ok = await ipcMain.invoke(channelOf('appInfo'), win.url, {});
  expect(ok).toMatchObject({ ok: true, value: { dbPath: path.join(h.userData, 'sift.db'), host: 'electron' } });
  const refused = await ipcMain.invoke(channelOf('appInfo'), 'https://evil.example/', {});
  expect(refused.ok).toBe(false);

  // Every web contents created later is hardened too.
  const wc = new FakeWebContents();
  for (const l of h.appListeners.get('web-contents-created') ?? []) l({}, wc);
  expect(wc.fire('will-navigate', 'https://example.org/')).toBe(true);
  expect(wc.openHandler!({ url: 'https://example.org/' })).toEqual({ action: 'deny' });
  expect(shell.opened).toEqual(['https://example.org/']);

  // A second start of the app brings this window back instead of a "could not start" box.
  for (const l of h.appListeners.get('second-instance') ?? []) l({}, [], '');
  expect(h.shown).toEqual(['restore', 'focus']);
});
