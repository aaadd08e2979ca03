/**
 * A job's status in its header stays on one line beside a long name: at 1024 px a job named
 * "rest of 127.0.0.1:43101 · options per URL · 23 URLs" left its badge one word wide, and
 * "partly failed" read "partly" over "failed".
 * Real services over the bridge, real Chromium, a loopback site.
 */
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import { screenshotPath } from '../helpers/chromium';
import { expectNoInternalErrorText, openApp, type OpenedApp, pageErrors, pasteList } from '../helpers/ui-app';
import { startReportSite, type TestSite } from '../helpers/ui-servers';

let o: OpenedApp;
let page: Page;
let site: TestSite;

beforeAll(async () => {
  site = await startReportSite();
  o = await openApp();
  page = o.page;
  await page.setViewportSize({ width: 1024, height: 768 });
  // A folder long enough that the job's name takes the header's width; one URL is not there.
  const folder = `${site.url}/quarterly-reports-and-statements-of-the-harbour-board`;
  await pasteList(page, [`${folder}/report-1`, `${folder}/report-2`, `${folder}/missing`].join('\n'));
  await page.getByTestId('count-valid').filter({ hasText: /^3$/ }).waitFor();
  await page.keyboard.press('Control+Enter');
  await page.locator('[data-testid="job-header"][data-status="partial"]').waitFor();
});

afterAll(async () => {
  await expectNoInternalErrorText(page);
  await o?.close();
  await site?.close();
});

test('at 1024 × 768 "partly failed" beside a long job name is one line', async () => {
  const badge = page.locator('[data-testid="job-header"] .badge').first();
  await expect.poll(() => badge.textContent()).toBe('partly failed');
  const { height, lineHeight } = await badge.evaluate((e) => ({ height: e.getBoundingClientRect().height, lineHeight: parseFloat(getComputedStyle(e).lineHeight) || 1.4 * parseFloat(getComputedStyle(e).fontSize) }));
  // One line is its line height and 2 px of padding; two lines are twice that.
  expect(height).toBeLessThan(1.5 * lineHeight);
  await page.screenshot({ path: screenshotPath('ui-header-badge-1024') });
  expect(pageErrors(page)).toEqual([]);
});
