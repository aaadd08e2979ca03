/**
 * The keyboard from the sidebar's search box to its hits: the hits show in the view on the
 * right, after the job list, Activity, Settings and About in the Tab order, so a keyboard
 * user typed a search and had five Tab presses to go before the first hit. Down moves there.
 * Real services over the bridge, real Chromium, a loopback site.
 */
import { expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import { focused } from '../helpers/a11y';
import { screenshotPath } from '../helpers/chromium';
import { pageErrors, runListToDone } from '../helpers/ui-app';
import { appForFile } from '../helpers/ui-file';
import { startReportSite, type TestSite } from '../helpers/ui-servers';

let page: Page;
let site: TestSite;

appForFile({
  serve: async () => (site = await startReportSite()),
  viewport: { width: 1024, height: 768 },
  ready: (o) => {
    page = o.page;
  },
});

test('Down in the sidebar search box moves to the first hit; Enter opens it; Up goes back to the box', async () => {
  await runListToDone(page, [`${site.url}/a/report-1`, `${site.url}/a/report-2`], { fromNew: true });
  await page.getByTestId('sidebar-search-input').focus();
  await page.keyboard.type('harbour');
  await expect.poll(() => page.getByTestId('search-hit').count()).toBe(2);
  expect((await focused(page)).id).toBe('sidebar-search-input');
  await page.keyboard.press('ArrowDown');
  expect(await focused(page)).toMatchObject({ id: 'search-hit', outlined: true });
  expect(await page.evaluate(() => document.activeElement?.getAttribute('data-idx'))).toBe('0');
  await page.screenshot({ path: screenshotPath('ui-search-arrow-hit') });
  await page.keyboard.press('ArrowDown');
  expect(await page.evaluate(() => document.activeElement?.getAttribute('data-idx'))).toBe('1');
  await page.keyboard.press('ArrowUp');
  await page.keyboard.press('ArrowUp');
  expect((await focused(page)).id).toBe('sidebar-search-input');
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Enter');
  await page.getByTestId('job-view').waitFor();
  expect(pageErrors(page)).toEqual([]);
});
