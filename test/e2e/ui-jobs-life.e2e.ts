/**
 * The life of a job as the app shows it, through the real services and the bridge in
 * Chromium: when the expiry sweep will delete it.
 */
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import type { SiftApi } from '../../src/shared/ipc/contract';
import { ensureBuilt } from '../helpers/build';
import { launchChromium, openBridgedPage, screenshotPath } from '../helpers/chromium';
import { expectNoInternalErrorText, pageErrors, pasteList, startUiApp, type UiApp } from '../helpers/ui-app';
import { startTestSite, type TestSite } from '../helpers/ui-servers';

let browser: Browser;
let site: TestSite;
const apps: UiApp[] = [];

beforeAll(async () => {
  ensureBuilt();
  site = await startTestSite();
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  for (const a of apps) await a.close().catch(() => {});
  await site?.close();
});

/** An app keeping finished jobs `ttlHours`, with one finished job of two articles shown. */
async function finishedJob(ttlHours: number): Promise<{ page: Page; lease: number }> {
  const app = await startUiApp({ settings: { ttlHours } });
  apps.push(app);
  const page = await openBridgedPage(browser, app.bridge.url, app.bridge.wsUrl);
  await pasteList(page, `${site.url}/article/1\n${site.url}/article/2`);
  await expect.poll(() => page.getByTestId('count-valid').textContent()).toBe('2');
  await page.getByTestId('submit').click();
  await expect.poll(() => page.getByTestId('job-header').getAttribute('data-status'), { timeout: 120_000 }).toBe('done');
  const lease = await page.evaluate(async () => (await (window as unknown as { sift: SiftApi }).sift.listJobs()).jobs[0]!.leaseExpires);
  return { page, lease };
}

/** The time of day `ms` as the page's locale writes it short, as the app writes times. */
const timeIn = (page: Page, ms: number): Promise<string> => page.evaluate((t) => new Date(t).toLocaleTimeString(undefined, { timeStyle: 'short' }), ms);

test('a finished job says until when Sift keeps it, and the job list warns of one deleted within a day', async () => {
  // Nothing said when a job would go: a user back after the ttl found it deleted, results and all.
  const { page, lease } = await finishedJob(2);
  const expiry = page.getByTestId('job-expiry');
  await expect.poll(() => expiry.count()).toBe(1);
  const text = (await expiry.textContent()) ?? '';
  expect(text).toMatch(/^Kept until .+, then Sift deletes this job and its results\. Opening it again before then keeps it longer\.$/);
  expect(text).toContain(await timeIn(page, lease));
  // Two hours away: the job's item in the list says so too, beside its count.
  const item = page.getByTestId('job-item-expiry');
  await expect.poll(() => item.count()).toBe(1);
  expect(await item.textContent()).toBe(`expires ${await timeIn(page, lease)}`);
  expect(await page.getByTestId('job-item').first().innerText()).toContain(`2 / 2 done · expires ${await timeIn(page, lease)}`);
  await page.screenshot({ path: screenshotPath('jobs-expiry-soon') });
  expect(pageErrors(page)).toEqual([]);
  await expectNoInternalErrorText(page);
});

test('a job kept for a week says so in its view and not in the job list', async () => {
  const { page, lease } = await finishedJob(24 * 7);
  const expiry = page.getByTestId('job-expiry');
  await expect.poll(() => expiry.count()).toBe(1);
  const day = await page.evaluate((t) => new Date(t).toLocaleDateString(undefined, { day: 'numeric', month: 'short' }), lease);
  expect(await expiry.textContent()).toContain(`Kept until ${day} ${await timeIn(page, lease)}, then Sift deletes this job`);
  expect(await page.getByTestId('job-item-expiry').count()).toBe(0);
  expect(pageErrors(page)).toEqual([]);
  await expectNoInternalErrorText(page);
});
