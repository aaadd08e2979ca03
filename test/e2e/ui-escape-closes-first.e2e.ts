/**
 * Esc closes what is open before it cancels the job on screen ("Cancel Esc"): a user pressed
 * Esc to close what looked like a dialog and cancelled the running job. The About box, the job
 * box's hits (which stand in the table's place) and the export dialog each close on one Esc,
 * the job runs on; an Esc with nothing open cancels it. Real services over the bridge, a page
 * held on the wire on loopback, real Chromium.
 */
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import { closedAfterAll, held, listenLoopback } from '../helpers/loopback';
import { articlePage, composeList, pageErrors } from '../helpers/ui-app';
import { appForFile } from '../helpers/ui-file';

let page: Page;
const servers = closedAfterAll();
const slow = held();
let base = '';

beforeAll(async () => {
  base = await listenLoopback(servers, (req, res) => {
    const p = new URL(req.url ?? '/', 'http://x').pathname;
    if (p === '/slow') return slow.hold(() => res.destroy());
    if (p.startsWith('/article/')) return res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(articlePage(`Quarter ${p.slice(9)}`));
    res.writeHead(404, { 'content-type': 'text/plain' }).end('no such page');
  });
});

appForFile({
  ready: (o) => {
    page = o.page;
  },
});
// Before the app closes (an afterAll after appForFile's runs first).
afterAll(() => slow.release());

const jobStatus = (): Promise<string | null> => page.getByTestId('job-header').getAttribute('data-status');
const focusedTestId = (): Promise<string | null> => page.evaluate(() => document.activeElement?.getAttribute('data-testid') ?? document.activeElement?.tagName ?? null);

test('Esc closes the About box, the hits and the export dialog first, and cancels the running job only with nothing open', async () => {
  await composeList(page, [`${base}/article/1`, `${base}/article/2`, `${base}/slow`, `${base}/article/3`]);
  await page.keyboard.press('Control+Enter');
  await slow.arrived;
  await expect.poll(() => page.getByTestId('target-row').evaluateAll((rs) => rs.map((r) => r.getAttribute('data-status')).join(' '))).toBe('done done running pending');

  // The About box, opened from its line: Esc closes it, with the keyboard on its line or not.
  const about = page.locator('details.about');
  await about.locator('summary').click();
  await page.keyboard.press('Escape');
  expect(await about.evaluate((d: HTMLDetailsElement) => d.open)).toBe(false);
  expect(await jobStatus()).toBe('running');
  await about.locator('summary').click();
  await page.getByTestId('job-header').locator('h2').click();
  await page.keyboard.press('Escape');
  expect(await about.evaluate((d: HTMLDetailsElement) => d.open)).toBe(false);
  expect(await jobStatus()).toBe('running');

  // The job box's hits, with the keyboard on one: Esc brings the table back, the keyboard in the box.
  await page.getByTestId('job-search-input').fill('crane');
  await page.keyboard.press('Enter');
  await expect.poll(() => page.getByTestId('search-hit').count()).toBe(2);
  await page.keyboard.press('ArrowDown');
  expect(await focusedTestId()).toBe('search-hit');
  await page.keyboard.press('Escape');
  await expect.poll(() => page.getByTestId('search-results-job').count()).toBe(0);
  expect(await page.getByTestId('job-search-input').inputValue()).toBe('');
  expect(await focusedTestId()).toBe('job-search-input');
  expect(await jobStatus()).toBe('running');

  // The export dialog closes on its own Esc.
  await page.getByTestId('export-job').click();
  await page.getByTestId('export-dialog').waitFor();
  await page.keyboard.press('Escape');
  await expect.poll(() => page.getByTestId('export-dialog').count()).toBe(0);
  expect(await jobStatus()).toBe('running');

  // Nothing open: Esc cancels, as its button says.
  await page.getByTestId('job-header').locator('h2').click();
  await page.keyboard.press('Escape');
  await page.locator('[data-testid="job-header"][data-status="cancelled"]').waitFor();
  expect(pageErrors(page)).toEqual([]);
});

test('Clear beside the Find box is disabled while nothing is typed, and the box keeps its width', async () => {
  const input = page.getByTestId('job-search-input');
  const clear = page.getByTestId('job-search-clear');
  await input.fill('');
  expect(await clear.isDisabled()).toBe(true);
  const width = (await input.boundingBox())?.width;
  await input.fill('crane');
  expect(await clear.isDisabled()).toBe(false);
  expect((await input.boundingBox())?.width).toBe(width);
  await clear.click();
  expect(await input.inputValue()).toBe('');
  expect(await clear.isDisabled()).toBe(true);
  expect(await focusedTestId()).toBe('job-search-input');
});
