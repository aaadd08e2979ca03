import type { BrowserWindowConstructorOptions, ContextMenuParams, MenuItemConstructorOptions, Session, WebContents, WebPreferences } from 'electron';

/**
 * The Electron glue, written against the few Electron APIs it touches so tests can drive it
 * with a stand-in. Only src/main/index.ts passes the real modules in.
 */

/** Electron's security checklist, as settings. */
export function secureWebPreferences(preloadPath: string): WebPreferences {
  return {
    preload: preloadPath,
    contextIsolation: true,
    sandbox: true,
    nodeIntegration: false,
    nodeIntegrationInWorker: false,
    nodeIntegrationInSubFrames: false,
    webSecurity: true,
    allowRunningInsecureContent: false,
    experimentalFeatures: false,
    webviewTag: false,
    navigateOnDragDrop: false,
    spellcheck: false,
  };
}

export function windowOptions(preloadPath: string): BrowserWindowConstructorOptions {
  return {
    width: 1280,
    height: 820,
    minWidth: 880,
    minHeight: 560,
    title: 'Sift',
    show: false,
    backgroundColor: '#1b1d21',
    webPreferences: secureWebPreferences(preloadPath),
  };
}

/** The renderer's Content-Security-Policy: our own scripts only, no eval, no remote loads. */
export const CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-src 'none'",
  "object-src 'none'",
  "frame-ancestors 'none'",
].join('; ');

type ShellLike = { openExternal(url: string): Promise<void> };

/** Only http(s) links the user clicked leave the app, in the system browser. */
export function isExternalSafe(url: string): boolean {
  try {
    const u = new URL(url);
    return u.protocol === 'http:' || u.protocol === 'https:';
  } catch {
    return false;
  }
}

/** Shows a context menu (Electron's Menu) and writes the clipboard (Electron's clipboard). */
export interface ContextMenuHost {
  popup(template: MenuItemConstructorOptions[]): void;
  copyText(text: string): void;
}

type MenuParams = Pick<ContextMenuParams, 'isEditable' | 'selectionText' | 'linkURL'> & { editFlags: Pick<ContextMenuParams['editFlags'], 'canUndo' | 'canRedo' | 'canCut' | 'canCopy' | 'canPaste' | 'canSelectAll'> };

/**
 * The right-click menu a desktop app is expected to have; Electron shows none of its own, so a
 * right-click on the list box offered no Paste, and one on a result's text no Copy. A text field
 * gets the editing commands, selected text Copy, a web link "Copy Link Address"; elsewhere
 * there is no menu.
 */
export function contextMenuTemplate(p: MenuParams, copyText: (text: string) => void): MenuItemConstructorOptions[] {
  const groups: MenuItemConstructorOptions[][] = [];
  if (p.linkURL && isExternalSafe(p.linkURL)) groups.push([{ label: 'Copy Link Address', click: () => copyText(p.linkURL) }]);
  const f = p.editFlags;
  if (p.isEditable) {
    groups.push(
      [
        { role: 'undo', enabled: f.canUndo },
        { role: 'redo', enabled: f.canRedo },
      ],
      [
        { role: 'cut', enabled: f.canCut },
        { role: 'copy', enabled: f.canCopy },
        { role: 'paste', enabled: f.canPaste },
      ],
      [{ role: 'selectAll', enabled: f.canSelectAll }],
    );
  } else if (p.selectionText.trim()) {
    groups.push([{ role: 'copy' }]);
  }
  return groups.flatMap((g, i) => (i === 0 ? g : [{ type: 'separator' as const }, ...g]));
}

/**
 * No navigation away from the app and no new windows; http(s) links open in the browser; a
 * right-click shows the menu contextMenuTemplate makes, when there is a host to show it.
 */
export function hardenWebContents(contents: Pick<WebContents, 'on' | 'setWindowOpenHandler'>, appUrl: string, shell: ShellLike, menus?: ContextMenuHost): void {
  if (menus) {
    contents.on('context-menu', (_event, params) => {
      const template = contextMenuTemplate(params, (text) => menus.copyText(text));
      if (template.length) menus.popup(template);
    });
  }
  contents.on('will-navigate', (event, url) => {
    if (url !== appUrl) event.preventDefault();
  });
  contents.on('will-redirect', (event, url) => {
    if (url !== appUrl) event.preventDefault();
  });
  contents.on('will-attach-webview', (event) => event.preventDefault());
  contents.setWindowOpenHandler(({ url }) => {
    if (isExternalSafe(url)) void shell.openExternal(url);
    return { action: 'deny' };
  });
}

/**
 * Writing text to the clipboard: the result pane's Copy button (navigator.clipboard.writeText).
 * Chromium asks for it by this name; denied, Copy failed in the app while it worked in a browser.
 * Only writing, and only on a click; reading the clipboard stays denied.
 */
const ALLOWED_PERMISSION = 'clipboard-sanitized-write';

/** Deny every permission request (camera, notifications, geolocation, …) but writing the clipboard, and set the CSP header. */
export function hardenSession(session: Pick<Session, 'setPermissionRequestHandler' | 'setPermissionCheckHandler' | 'webRequest'>): void {
  session.setPermissionRequestHandler((_wc, permission, callback) => callback(permission === ALLOWED_PERMISSION));
  session.setPermissionCheckHandler((_wc, permission) => permission === ALLOWED_PERMISSION);
  session.webRequest.onHeadersReceived((details, callback) => {
    callback({
      responseHeaders: { ...details.responseHeaders, 'Content-Security-Policy': [CSP] },
    });
  });
}
