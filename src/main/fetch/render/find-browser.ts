import { accessSync, constants } from 'node:fs';
import path from 'node:path';
import { BROWSER_SETTING, NO_BROWSER_HINT as NO_BROWSER_HINTS } from '../../../shared/hints';
import type { BrowserInfo } from './types';

/** Where Chromium and Chrome usually live, per platform, most specific first. */
function usualPaths(platform: NodeJS.Platform, env: NodeJS.ProcessEnv): string[] {
  if (platform === 'darwin') {
    return [
      '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome',
      '/Applications/Chromium.app/Contents/MacOS/Chromium',
      '/Applications/Microsoft Edge.app/Contents/MacOS/Microsoft Edge',
      '/Applications/Brave Browser.app/Contents/MacOS/Brave Browser',
    ];
  }
  if (platform === 'win32') {
    const roots = [env.PROGRAMFILES, env['PROGRAMFILES(X86)'], env.LOCALAPPDATA].filter((r): r is string => !!r);
    return roots.flatMap((r) => [
      path.win32.join(r, 'Google', 'Chrome', 'Application', 'chrome.exe'),
      path.win32.join(r, 'Chromium', 'Application', 'chrome.exe'),
      path.win32.join(r, 'Microsoft', 'Edge', 'Application', 'msedge.exe'),
    ]);
  }
  return ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome', '/usr/bin/google-chrome-stable', '/snap/bin/chromium', '/usr/bin/microsoft-edge'];
}

const executable = (p: string): boolean => {
  try {
    accessSync(p, constants.X_OK);
    return true;
  } catch {
    return false;
  }
};

/** In the command line's words, as the guard's: the app's IPC says it in the app's (hintOn). */
export const NO_BROWSER_HINT = NO_BROWSER_HINTS.cli;

/**
 * The browser the CLI's renderer drives: the setting, then SIFT_CHROMIUM, then the usual
 * places. A path that is set but not executable is an error of its own, not a fall-through,
 * so a typo is reported instead of silently using another browser.
 */
export function findBrowser(setting: string, env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform): BrowserInfo {
  for (const [given, where] of [
    [setting.trim(), BROWSER_SETTING.cli],
    [(env.SIFT_CHROMIUM ?? '').trim(), 'SIFT_CHROMIUM'],
  ] as const) {
    if (!given) continue;
    if (executable(given)) return { ok: true, name: path.basename(given), path: given };
    return { ok: false, why: `${where} names no executable browser`, hint: NO_BROWSER_HINT };
  }
  for (const p of usualPaths(platform, env)) if (executable(p)) return { ok: true, name: path.basename(p), path: p };
  return { ok: false, why: 'no Chromium or Chrome found in the usual places', hint: NO_BROWSER_HINT };
}
