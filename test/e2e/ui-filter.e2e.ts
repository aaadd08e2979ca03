/**
 * The job view's filter as a keyboard and screen-reader user meets it, on a job that is still
 * running: the reason filter, dimmed while no target has failed, says why; and a change of the
 * filter says once how many rows it shows, not again at each target that ends. The site holds
 * each answer until the test lets it go, so the job moves at the test's pace, however busy the
 * machine.
 */
import type http from 'node:http';
import { expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import { screenshotPath } from '../helpers/chromium';
import { axOf } from '../helpers/a11y';
import { pageErrors, pasteList } from '../helpers/ui-app';
import { appForFile } from '../helpers/ui-file';
import { articleHtml, startSite, type Site } from '../helpers/sites';

let page: Page;
let site: Site;

/** Per held page, the answer waiting to be sent, once its request has come. */
const arrived = new Map<string, Promise<() => void>>();
const onArrival = new Map<string, (release: () => void) => void>();
const HELD = ['/held/1', '/held/2', '/held/3'];
for (const p of HELD) arrived.set(p, new Promise((resolve) => onArrival.set(p, resolve)));
const hold = (n: number) => (_req: http.IncomingMessage, res: http.ServerResponse) =>
  onArrival.get(`/held/${n}`)!(() => {
    if (!res.headersSent) res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(articleHtml(n));
  });
/** Sends the page's answer as soon as its request has come. */
const release = async (p: string): Promise<void> => (await arrived.get(p)!)();

appForFile({
  serve: async () => (site = await startSite({ '/held/1': hold(1), '/held/2': hold(2), '/held/3': hold(3) })),
  ready: (o) => {
    page = o.page;
  },
});

const text = (testId: string) => () => page.getByTestId(testId).first().textContent();
const rowStatus = (idx: number) => () => page.locator(`[data-testid="target-row"][data-idx="${idx}"]`).getAttribute('data-status');

test('the reason filter says why it is dimmed, and a filter change says once how many targets it shows', async () => {
  await pasteList(page, HELD.map((p) => `${site.base}${p}`).join('\n'));
  await expect.poll(text('count-valid')).toBe('3');
  await page.keyboard.press('Control+Enter');
  await release('/held/1');
  await expect.poll(rowStatus(0)).toBe('done');

  // No target has failed: the reason filter has nothing to offer. It was a dimmed, disabled
  // select that Tab skipped, and nothing said why.
  const reason = page.getByTestId('filter-reason');
  await page.getByTestId('filter-status').focus();
  await page.keyboard.press('Tab');
  expect(await page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('filter-reason');
  expect(await reason.getAttribute('aria-disabled')).toBe('true');
  expect(await axOf(page, '[data-testid="filter-reason"]')).toMatchObject({ description: 'No target has failed yet: the reasons appear here when one does.' });
  await page.screenshot({ path: screenshotPath('ui-filter-reason-why') });

  // The filter's count said nothing to a screen reader: the rows changed under it in silence.
  const announce = page.getByTestId('filter-announce');
  expect(await announce.getAttribute('role')).toBe('status');
  expect(await announce.textContent()).toBe('');
  const statuses = () => page.getByTestId('filter-status').evaluate((s: HTMLSelectElement) => [...s.options].map((o) => o.text));
  expect(await statuses()).toEqual(['Every status', 'OK', 'Failed', 'Running', 'Waiting']);
  await page.getByTestId('filter-status').selectOption('done');
  await expect.poll(() => announce.textContent()).toBe('1 of 3 targets shown');
  // A target that ends while the filter is on changes the count beside the selects, and is not
  // said again: a live job would have it speak at every target.
  await release('/held/2');
  await expect.poll(text('filter-count')).toBe('2 of 3');
  expect(await announce.textContent()).toBe('1 of 3 targets shown');
  await page.screenshot({ path: screenshotPath('ui-filter-live-count') });

  await page.getByTestId('filter-status').selectOption('running');
  await expect.poll(text('filter-count')).toBe('1 of 3');
  await release('/held/3');
  await expect.poll(() => page.getByTestId('job-header').getAttribute('data-status'), { timeout: 60_000 }).toBe('done');
  // Chosen as the job ended, "Running" stays in the select that says what the table shows.
  expect(await page.getByTestId('filter-status').inputValue()).toBe('running');
  expect(await statuses()).toContain('Running');
  expect(await axOf(page, '[data-testid="filter-reason"]')).toMatchObject({ description: 'No target failed: there is no reason to filter by.' });
  await page.getByTestId('filter-clear').click();
  await expect.poll(() => announce.textContent()).toBe('All 3 targets shown');
  // An ended job runs nothing: "Running" was offered still, and showed "0 of 3" and an empty table.
  expect(await statuses()).toEqual(['Every status', 'OK', 'Failed', 'Not fetched']);
  expect(pageErrors(page)).toEqual([]);
});
