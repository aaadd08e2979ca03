/**
 * The job box's search help, shown while the empty box has focus, leaves the table's status
 * and reason filters in sight: a user who focuses the box to search, then thinks of filtering
 * instead, sees the filter where it was. Real Chromium, a finished job on disk, 1280 and 800 px.
 */
import { expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import { screenshotPath } from '../helpers/chromium';
import { finishedJobForFile } from '../helpers/big-job-file';
import { appForFile } from '../helpers/ui-file';

let page: Page;
// Before appForFile, so the folder is removed after the app has closed.
const onDisk = finishedJobForFile('sift-ui-search-help-room-', 20);

appForFile({
  app: () => ({ dataDir: onDisk.t.dir }),
  ready: (o) => {
    page = o.page;
  },
});

/**
 * What the user sees at the centre of the filter's select: the select itself, or what covers it.
 * The help lets clicks through (pointer-events: none), and elementFromPoint skips what clicks
 * skip, so it is made hittable for the look: else a help drawn over the filter reads as absent.
 */
const atCentre = (testId: string): Promise<string> =>
  page.evaluate((id) => {
    const el = document.querySelector(`[data-testid="${id}"]`)!;
    const help = document.querySelector<HTMLElement>('[data-testid="job-search-help"]')!;
    const r = el.getBoundingClientRect();
    help.style.pointerEvents = 'auto';
    const top = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    help.style.pointerEvents = '';
    return top === el || el.contains(top) ? 'the filter' : `covered by ${top?.getAttribute('data-testid') ?? top?.className ?? 'nothing'}`;
  }, testId);

for (const width of [1280, 800]) {
  test(`at ${width} px the search help shown on focus leaves the status and reason filters in sight`, async () => {
    await page.setViewportSize({ width, height: 820 });
    await page.getByTestId('job-item').first().click();
    await page.locator('[data-testid="target-row"][data-idx="0"]').waitFor();
    const help = page.getByTestId('job-search-help');
    await page.getByTestId('job-search-input').focus();
    await expect.poll(() => help.isVisible()).toBe(true);
    await page.screenshot({ path: screenshotPath(`ui-search-help-room-${width}`) });
    // Before: the help lay over the filter's row from 16 px in to 16 px from the right, the filter under it.
    expect(await atCentre('filter-status')).toBe('the filter');
    expect(await atCentre('filter-reason')).toBe('the filter');
    // The help is still read whole: not cut off by the window's edge nor by the table's box.
    const box = (await help.boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(width);
    expect(await help.evaluate((e) => e.scrollHeight <= e.clientHeight + 1 && e.scrollWidth <= e.clientWidth + 1)).toBe(true);
    await page.getByTestId('job-header').click({ position: { x: 5, y: 5 } });
    await expect.poll(() => help.isVisible()).toBe(false);
  });
}

/** How many px of the two elements' boxes overlap, across and down: 0 × 0 where they do not. */
const overlap = (a: string, b: string): Promise<{ x: number; y: number }> =>
  page.evaluate(
    ([one, two]) => {
      const r1 = document.querySelector(`[data-testid="${one}"]`)!.getBoundingClientRect();
      const r2 = document.querySelector(`[data-testid="${two}"]`)!.getBoundingClientRect();
      return { x: Math.max(0, Math.min(r1.right, r2.right) - Math.max(r1.left, r2.left)), y: Math.max(0, Math.min(r1.bottom, r2.bottom) - Math.max(r1.top, r2.top)) };
    },
    [a, b],
  );

for (const width of [1280, 900]) {
  test(`at ${width} px, a row selected, the search help leaves the result's address and title in sight`, async () => {
    await page.setViewportSize({ width, height: 800 });
    await page.getByTestId('job-item').first().click();
    await page.locator('[data-testid="target-row"][data-idx="1"]').click();
    await expect.poll(() => page.locator('[data-testid="result-pane"] .result-title').textContent()).toBe('Page 1');
    const help = page.getByTestId('job-search-help');
    await page.getByTestId('job-search-input').focus();
    await expect.poll(() => help.isVisible()).toBe(true);
    await page.screenshot({ path: screenshotPath(`ui-search-help-room-pane-${width}`) });
    // Before: at 1280 px the help ran from the table's left to 16 px from the window's right, over the
    // pane's badge, address and title ("Page 1") from 1 to 3 lines down, while the box had focus.
    const top = await overlap('job-search-help', 'result-top');
    expect(top.x * top.y).toBe(0);
    const pane = await overlap('job-search-help', 'result-pane');
    expect(pane.x * pane.y).toBe(0);
    expect(await help.evaluate((e) => e.scrollHeight <= e.clientHeight + 1 && e.scrollWidth <= e.clientWidth + 1)).toBe(true);
    await page.getByTestId('job-header').click({ position: { x: 5, y: 5 } });
    await expect.poll(() => help.isVisible()).toBe(false);
  });
}
