/**
 * A notice takes room of its own below the view, and covers nothing: at 1024 × 768 the
 * "Started a new job" notice, fixed over the window's corner, hid the table's last two rows
 * until it was closed. Real services over the bridge, real Chromium, a loopback site.
 */
import { expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import { screenshotPath } from '../helpers/chromium';
import { pageErrors, runListToDone } from '../helpers/ui-app';
import { appForFile } from '../helpers/ui-file';
import { startReportSite, type TestSite } from '../helpers/ui-servers';

let page: Page;
let site: TestSite;

appForFile({
  serve: async () => (site = await startReportSite()),
  ready: (o) => {
    page = o.page;
  },
});

interface Box { top: number; bottom: number; left: number; right: number }
const overlap = (a: Box, b: Box): number => Math.max(0, Math.min(a.right, b.right) - Math.max(a.left, b.left)) * Math.max(0, Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top));

/**
 * The boxes of the first notice, the view and the job list, measured as the notice appears:
 * an info notice leaves by itself after a few seconds, so the page measures it on the event.
 */
function whenNoticeShows(p: Page): Promise<{ notice: Box; main: Box; sidebar: Box; text: string }> {
  return p.evaluate(
    () =>
      new Promise((resolve) => {
        const box = (sel: string): Box => {
          const r = document.querySelector(sel)!.getBoundingClientRect();
          return { top: r.top, bottom: r.bottom, left: r.left, right: r.right };
        };
        const seen = (obs?: MutationObserver): boolean => {
          const n = document.querySelector('[data-testid="notice"]');
          if (!n) return false;
          obs?.disconnect();
          resolve({ notice: box('[data-testid="notice"]'), main: box('main'), sidebar: box('.sidebar'), text: n.textContent ?? '' });
          return true;
        };
        if (!seen()) new MutationObserver((_, obs) => void seen(obs)).observe(document.body, { subtree: true, childList: true });
      }),
  );
}

for (const [width, height] of [
  [1024, 768],
  [1440, 900],
] as const) {
  test(`at ${width} × ${height} the "Started a new job" notice covers no part of the view or the job list`, async () => {
    await page.setViewportSize({ width, height });
    await runListToDone(page, Array.from({ length: 30 }, (_, i) => `${site.url}/${width}/report-${i}`), { fromNew: true });
    const shown = whenNoticeShows(page);
    await page.getByTestId('run-all').click();
    const { notice, main, sidebar, text } = await shown;
    expect(text).toMatch(/^Started a new job with 30 targets/);
    expect(overlap(notice, main)).toBe(0);
    expect(overlap(notice, sidebar)).toBe(0);
    // Inside the window, whole.
    expect(notice.bottom).toBeLessThanOrEqual(height);
    expect(notice.right).toBeLessThanOrEqual(width);
    await page.screenshot({ path: screenshotPath(`ui-notice-room-${width}`) });
    await page.locator('[data-testid="job-header"][data-status="done"]').waitFor();
    expect(pageErrors(page)).toEqual([]);
  });
}
