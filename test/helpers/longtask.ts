/**
 * The longest main-thread task of a page (PerformanceObserver 'longtask', which sees tasks of
 * 50 ms and more) and the longest gap between its frames, which also sees shorter blocks.
 * Tasks are counted from the last reset by their start: the observer is told of a task after
 * it ends, and a long one just before the reset (a test building its 50 MB file) came in after it.
 */
import type { Page } from 'playwright-core';

/** Installed before any page script (an init script). */
export const PROBE = `
  window.__probe = { longtask: 0, frameGap: 0, since: 0 };
  new PerformanceObserver((l) => {
    for (const e of l.getEntries()) if (e.startTime >= window.__probe.since) window.__probe.longtask = Math.max(window.__probe.longtask, e.duration);
  }).observe({ type: 'longtask', buffered: true });
  let last = performance.now();
  const tick = (t) => { window.__probe.frameGap = Math.max(window.__probe.frameGap, t - last); last = t; requestAnimationFrame(tick); };
  requestAnimationFrame(tick);
`;

export interface Probe {
  longtask: number;
  frameGap: number;
}

export async function resetProbe(page: Page): Promise<void> {
  await page.evaluate(() => {
    const w = window as unknown as { __probe: Probe };
    w.__probe.longtask = 0;
    w.__probe.frameGap = 0;
    (w.__probe as Probe & { since: number }).since = performance.now();
  });
}

export const readProbe = (page: Page): Promise<Probe> => page.evaluate(() => (window as unknown as { __probe: Probe }).__probe);
