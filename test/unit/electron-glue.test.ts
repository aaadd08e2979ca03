import { afterEach, describe, expect, test } from 'vitest';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { bindContract, trustedSenderFor } from '../../src/main/ipc/bind';
import type { Handlers } from '../../src/main/ipc/dispatch';
import { METHODS, channelOf } from '../../src/shared/ipc/contract';
import { CSP, hardenSession, hardenWebContents, isExternalSafe, secureWebPreferences, windowOptions } from '../../src/main/app/window';
import type { MenuItemConstructorOptions } from 'electron';
import { createServices, type Services } from '../../src/main/services';
import { FakeIpcMain, FakeSession, FakeShell, FakeWebContents } from '../helpers/electron-standin';

const APP_URL = 'file:///opt/Sift/resources/app.asar/out/renderer/index.html';

const open: Services[] = [];
afterEach(async () => {
  for (const s of open.splice(0)) await s.close();
});

function setup(): { ipc: FakeIpcMain; calls: string[] } {
  const ipc = new FakeIpcMain();
  const calls: string[] = [];
  const services = createServices({ dbPath: path.join(mkdtempSync(path.join(os.tmpdir(), 'sift-glue-')), 'sift.db'), host: 'electron', logFiles: [] });
  open.push(services);
  const real = services.handlers;
  const handlers = Object.fromEntries(
    Object.entries(real).map(([k, fn]) => [k, (req: unknown) => (calls.push(k), (fn as (r: unknown) => unknown)(req))]),
  ) as unknown as Handlers;
  bindContract(ipc, handlers, { isTrustedSender: trustedSenderFor(APP_URL) });
  return { ipc, calls };
}

describe('IPC binding', () => {
  test('registers every channel of the contract and no other', () => {
    const { ipc } = setup();
    expect([...ipc.handlers.keys()].sort()).toEqual(METHODS.map(channelOf).sort());
  });

  test('a call from our window top frame is answered', async () => {
    const { ipc, calls } = setup();
    const env = await ipc.invoke(channelOf('appInfo'), APP_URL, {});
    expect(env.ok).toBe(true);
    expect(calls).toEqual(['appInfo']);
  });

  test.each([
    ['another origin', 'https://evil.example/index.html', false],
    ['another local file', 'file:///tmp/evil.html', false],
    ['a subframe at our URL', APP_URL, true],
  ])('a call from %s is refused and no handler runs', async (_name, url, subframe) => {
    const { ipc, calls } = setup();
    const env = await ipc.invoke(channelOf('appInfo'), url, {}, { subframe });
    expect(env).toMatchObject({ ok: false, error: { code: 'forbidden_sender', status: 403 } });
    expect(calls).toEqual([]);
  });

  test('a call without a sender frame is refused', async () => {
    const { ipc, calls } = setup();
    const h = ipc.handlers.get(channelOf('appInfo'))!;
    const env = await h({ senderFrame: null }, {});
    expect(env.ok).toBe(false);
    expect(calls).toEqual([]);
  });

  test.each([
    ['an unexpected field', { extra: 1 }],
    ['a string', 'hello'],
    ['a number', 42],
    ['an array', [1, 2]],
  ])('a malformed payload (%s) gets a typed validation error and no handler runs', async (_name, payload) => {
    const { ipc, calls } = setup();
    const env = await ipc.invoke(channelOf('appInfo'), APP_URL, payload);
    expect(env).toMatchObject({ ok: false, error: { code: 'invalid_request', status: 400 } });
    expect(calls).toEqual([]);
  });
});

describe('window and session hardening', () => {
  test('the window webPreferences are the secure ones', () => {
    const prefs = windowOptions('/app/out/preload/index.js').webPreferences!;
    expect(prefs).toMatchObject({
      preload: '/app/out/preload/index.js',
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
    });
    expect(secureWebPreferences('x')).toEqual(prefs === undefined ? {} : { ...prefs, preload: 'x' });
  });

  test('navigation away from the app and new windows are denied; http(s) links open in the browser', () => {
    const wc = new FakeWebContents();
    const shell = new FakeShell();
    hardenWebContents(wc as never, APP_URL, shell);
    expect(wc.fire('will-navigate', 'https://example.org/')).toBe(true);
    expect(wc.fire('will-navigate', 'file:///etc/passwd')).toBe(true);
    expect(wc.fire('will-redirect', 'https://example.org/')).toBe(true);
    expect(wc.fire('will-navigate', APP_URL)).toBe(false);
    expect(wc.openHandler!({ url: 'https://example.org/a' })).toEqual({ action: 'deny' });
    expect(wc.openHandler!({ url: 'file:///etc/passwd' })).toEqual({ action: 'deny' });
    expect(wc.openHandler!({ url: 'javascript:alert(1)' })).toEqual({ action: 'deny' });
    expect(shell.opened).toEqual(['https://example.org/a']);
  });

  test('a right-click shows the menu a desktop app has: editing in a text field, Copy on a selection, Copy Link Address on a web link', () => {
    const wc = new FakeWebContents();
    const shown: MenuItemConstructorOptions[][] = [];
    const copied: string[] = [];
    hardenWebContents(wc as never, APP_URL, new FakeShell(), { popup: (t) => shown.push(t), copyText: (s) => copied.push(s) });
    const flags = { canUndo: false, canRedo: false, canCut: false, canCopy: false, canPaste: true, canSelectAll: true };
    const names = (t: MenuItemConstructorOptions[] | undefined) => (t ?? []).map((i) => (i.type === 'separator' ? '-' : (i.role ?? i.label)));
    // The list box, empty: Paste (the way many people paste a list) and Select All work, the rest is greyed.
    wc.fireWith('context-menu', { isEditable: true, selectionText: '', linkURL: '', editFlags: flags });
    expect(names(shown[0])).toEqual(['undo', 'redo', '-', 'cut', 'copy', 'paste', '-', 'selectAll']);
    expect(shown[0]!.filter((i) => i.enabled).map((i) => i.role)).toEqual(['paste', 'selectAll']);
    // Selected text of a result.
    wc.fireWith('context-menu', { isEditable: false, selectionText: 'net revenue', linkURL: '', editFlags: { ...flags, canCopy: true } });
    expect(names(shown[1])).toEqual(['copy']);
    // A result's link, with its text selected.
    wc.fireWith('context-menu', { isEditable: false, selectionText: 'the report', linkURL: 'https://example.org/report', editFlags: flags });
    expect(names(shown[2])).toEqual(['Copy Link Address', '-', 'copy']);
    (shown[2]![0]!.click as () => void)();
    expect(copied).toEqual(['https://example.org/report']);
    // Nothing to act on (a click on the page's background, a javascript: link): no empty menu.
    wc.fireWith('context-menu', { isEditable: false, selectionText: '  ', linkURL: 'javascript:alert(1)', editFlags: flags });
    expect(shown).toHaveLength(3);
  });

  test('openExternal is only for http(s) URLs', () => {
    expect(isExternalSafe('https://example.org')).toBe(true);
    expect(isExternalSafe('http://example.org')).toBe(true);
    for (const u of ['file:///etc/passwd', 'smb://host/share', 'javascript:alert(1)', 'ms-msdt:foo', 'not a url']) {
      expect(isExternalSafe(u)).toBe(false);
    }
  });

  test('every permission request and check is denied but writing the clipboard, and responses carry the CSP', () => {
    const s = new FakeSession();
    hardenSession(s as never);
    for (const p of ['media', 'notifications', 'geolocation', 'clipboard-read', 'openExternal', 'unknown']) {
      let answer: boolean | undefined;
      s.permissionRequest!(null, p, (ok) => (answer = ok));
      expect(answer).toBe(false);
      expect(s.permissionCheck!(null, p)).toBe(false);
    }
    // The result pane's Copy button: navigator.clipboard.writeText asks for this one.
    let answer: boolean | undefined;
    s.permissionRequest!(null, 'clipboard-sanitized-write', (ok) => (answer = ok));
    expect(answer).toBe(true);
    expect(s.permissionCheck!(null, 'clipboard-sanitized-write')).toBe(true);
    let headers: Record<string, string[]> | undefined;
    s.headersHook!({ responseHeaders: { 'X-Other': ['1'] } }, (r) => (headers = r.responseHeaders));
    expect(headers!['Content-Security-Policy']).toEqual([CSP]);
    expect(headers!['X-Other']).toEqual(['1']);
  });

  test('the CSP allows no eval, no inline script and no remote source', () => {
    expect(CSP).toContain("script-src 'self'");
    expect(CSP).not.toMatch(/unsafe-eval|unsafe-inline|https?:|\*/);
  });
});
