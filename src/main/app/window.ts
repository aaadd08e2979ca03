import type { BrowserWindowConstructorOptions, Session, WebContents, WebPreferences } from 'electron';

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

/** No navigation away from the app and no new windows; http(s) links open in the browser. */
export function hardenWebContents(contents: Pick<WebContents, 'on' | 'setWindowOpenHandler'>, appUrl: string, shell: ShellLike): void {
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
