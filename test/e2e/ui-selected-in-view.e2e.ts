/**
 * The selected row stays in view when the table's height changes: at 900 px the result pane
 * goes under the table, which loses half its height. Real services over the bridge, real
 * Chromium, a loopback site of articles.
 */
import { expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import { screenshotPath } from '../helpers/chromium';
import { pageErrors, runListToDone } from '../helpers/ui-app';
import { appForFile } from '../helpers/ui-file';
import { startTestSite, type TestSite } from '../helpers/ui-servers';

let page: Page;
let site: TestSite;
appForFile({
  serve: async () => (site = await startTestSite()),
  ready: (o) => {
    page = o.page;
  },
});

/** The rows whole in the table's scrolling part, by idx. */
const rowsInView = (): Promise<number[]> =>
  page.getByTestId('target-scroll').evaluate((el) => {
    const box = el.getBoundingClientRect();
    return [...el.querySelectorAll('[data-testid="target-row"]')]
      .filter((r) => {
        const b = r.getBoundingClientRect();
        return b.top >= box.top - 1 && b.bottom <= box.bottom + 1;
      })
      .map((r) => Number(r.getAttribute('data-idx')));
  });

test('the selected row stays in view when the window narrows from 1280 to 900 px, and back', async () => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await runListToDone(page, Array.from({ length: 30 }, (_, i) => `${site.url}/article/${i + 1}`));
  await expect.poll(async () => (await rowsInView()).length).toBeGreaterThan(10);
  // The lowest row in view, as a user reading down the table picks it.
  const low = Math.max(...(await rowsInView()));
  await page.locator(`[data-testid="target-row"][data-idx="${low}"]`).click();
  await expect.poll(() => page.getByTestId('result-pane').getAttribute('data-idx')).toBe(String(low));
  // At 900 px the pane goes under the table: the row the pane shows went out of view below it.
  await page.setViewportSize({ width: 900, height: 800 });
  await expect.poll(() => page.getByTestId('target-scroll').evaluate((el) => el.clientHeight)).toBeLessThan(low * 34);
  await expect.poll(rowsInView).toContain(low);
  await page.screenshot({ path: screenshotPath('ui-selected-in-view-900') });
  await page.setViewportSize({ width: 1280, height: 800 });
  await expect.poll(rowsInView).toContain(low);
  // A row the user scrolled away from is left where they left it.
  await page.getByTestId('target-scroll').evaluate((el) => el.scrollTo({ top: el.scrollHeight }));
  await page.getByTestId('target-grid').focus();
  await page.keyboard.press('Home');
  await page.getByTestId('target-scroll').evaluate((el) => el.scrollTo({ top: el.scrollHeight }));
  await expect.poll(rowsInView).not.toContain(0);
  await page.setViewportSize({ width: 900, height: 800 });
  await expect.poll(() => page.getByTestId('target-scroll').evaluate((el) => el.clientHeight)).toBeLessThan(400);
  expect(await rowsInView()).not.toContain(0);
  expect(pageErrors(page)).toEqual([]);
});
