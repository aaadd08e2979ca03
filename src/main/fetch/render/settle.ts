import type { Page } from 'playwright-core';
import type { Response } from 'playwright-core';
import { THIN_CHARS } from './decide';
import { GUARD_HEADER } from './proxy';
import { SETTLE_IDLE_MS, type Rendered } from './types';

/**
 * Runs in every frame before the page's own scripts: records the last DOM change (so
 * "settled" means quiet, not just loaded) and takes window.open away (a popup would be a
 * second page outside the one being rendered; the context closes any that appear anyway).
 */
export const SETTLE_SCRIPT = `(() => {
  try { Object.defineProperty(window, 'open', { value: function () { return null; }, writable: false, configurable: false }); } catch (e) {}
  window.__siftChanged = Date.now();
  try {
    new MutationObserver(function () { window.__siftChanged = Date.now(); })
      .observe(document, { subtree: true, childList: true, characterData: true, attributes: false });
  } catch (e) {}
})();`;

/** [ms since the DOM last changed, visible text length]: what both renderers poll. */
export const PROBE = '[Date.now() - (window.__siftChanged || 0), document.body ? document.body.innerText.length : 0]';

// A page that is still thin when the network goes quiet may be waiting on a timer (content
// "after a delay"); it gets this much longer, within the budget, to fill in.
export const THIN_PATIENCE_MS = 5_000;
export const TICK_MS = 100;

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms).unref?.());

/** p's value, or undefined once ms have passed or p rejected. */
export function bounded<T>(p: Promise<T>, ms: number): Promise<T | undefined> {
  return new Promise((resolve) => {
    const t = setTimeout(() => resolve(undefined), Math.max(0, ms));
    p.then(
      (v) => {
        clearTimeout(t);
        resolve(v);
      },
      () => {
        clearTimeout(t);
        resolve(undefined);
      },
    );
  });
}

/**
 * Loads a page and waits until it settles: the load event, then no request in flight and no
 * DOM change for SETTLE_IDLE_MS, or the budget runs out. 'stuck' when the page's main
 * thread never answers (a busy loop): nothing can be read from it.
 */
export async function settle(page: Page, url: string, signal: AbortSignal, budgetMs: number, graceMs: number): Promise<Rendered | 'stuck'> {
  const start = Date.now();
  const deadline = start + budgetMs;
  let inflight = 0;
  let netChanged = start;
  const up = (): void => {
    inflight++;
    netChanged = Date.now();
  };
  const down = (): void => {
    inflight = Math.max(0, inflight - 1);
    netChanged = Date.now();
  };
  page.on('request', up);
  page.on('requestfinished', down);
  page.on('requestfailed', down);
  // The main frame's last document: a redirect or location.href moves it elsewhere.
  let mainStatus = 0;
  let refused = false;
  const onResponse = (r: Response): void => {
    if (r.frame() !== page.mainFrame() || !r.request().isNavigationRequest()) return;
    mainStatus = r.status();
    refused = r.headers()[GUARD_HEADER] === 'refused';
  };
  page.on('response', onResponse);
  const onAbort = (): void => void page.close().catch(() => {});
  signal.addEventListener('abort', onAbort, { once: true });
  try {
    let loaded = false;
    try {
      await page.goto(url, { waitUntil: 'load', timeout: budgetMs });
      loaded = true;
    } catch (err) {
      signal.throwIfAborted();
      if ((err as Error).name !== 'TimeoutError') throw err;
    }
    const loadedAt = Date.now();
    let settled = false;
    while (loaded && Date.now() < deadline) {
      const now = Date.now();
      if (inflight === 0 && now - netChanged >= SETTLE_IDLE_MS) {
        const st = await bounded(page.evaluate(PROBE) as Promise<[number, number]>, deadline - now + graceMs);
        if (!st) return 'stuck';
        const [quietMs, textChars] = st;
        if (quietMs >= SETTLE_IDLE_MS && (textChars >= THIN_CHARS || Date.now() - loadedAt >= Math.min(THIN_PATIENCE_MS, budgetMs))) {
          settled = true;
          break;
        }
      }
      signal.throwIfAborted();
      await sleep(TICK_MS);
    }
    const html = await bounded(page.content(), Math.max(0, deadline - Date.now()) + graceMs);
    if (html === undefined) return 'stuck';
    return { finalUrl: page.url(), html, status: mainStatus, partial: !settled, ...(refused || /^chrome-error:/.test(page.url()) ? { refused: true } : {}) };
  } finally {
    signal.removeEventListener('abort', onAbort);
    page.off('response', onResponse);
    page.off('request', up);
    page.off('requestfinished', down);
    page.off('requestfailed', down);
  }
}
