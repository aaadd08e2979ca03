/**
 * A cancelled job whose rest has been run: its notice points to the job that ran it, and
 * "Run the rest again" is not offered a second time. Real services over the bridge, real
 * Chromium, a loopback site that holds one page until the job is cancelled.
 */
import { expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import { screenshotPath } from '../helpers/chromium';
import { closedAfterAll, held, listenLoopback } from '../helpers/loopback';
import { articlePage, expectNothingCutOrOverlapping, pageErrors, pasteList } from '../helpers/ui-app';
import { appForFile } from '../helpers/ui-file';

let page: Page;
const servers = closedAfterAll();
// The first request for /held is held until the job is cancelled; the rest's is answered.
const first = held();
let base = '';

const app = appForFile({
  serve: async () => {
    base = await listenLoopback(servers, (req, res) => {
      const answer = (): void => void (res.destroyed || res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(articlePage(`Harbour report ${req.url ?? ''}`)));
      if (req.url === '/held') return first.hold(answer);
      // Any other address is not there, as Sift's probe for a soft 404 expects.
      if (req.url?.startsWith('/report/')) return answer();
      res.writeHead(404, { 'content-type': 'text/plain' }).end('no such page');
    });
    return [];
  },
  ready: (o) => {
    page = o.page;
  },
});

const viewId = (): Promise<string | null> => page.getByTestId('job-view').getAttribute('data-job-id');
const notice = (): Promise<string | null> => page.getByTestId('cancel-notice').textContent();
const openJob = async (id: string): Promise<void> => {
  await page.locator(`[data-testid="job-item"][data-job-id="${id}"]`).click();
  await expect.poll(viewId).toBe(id);
};

test('a cancelled job whose rest was run points to that job, and offers the rest no more', async () => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await pasteList(page, [`${base}/report/1`, `${base}/held`, `${base}/report/2`, `${base}/report/3`].join('\n'));
  await page.getByTestId('count-valid').filter({ hasText: /^4$/ }).waitFor();
  await page.keyboard.press('Control+Enter');
  await first.arrived;
  await page.getByTestId('cancel-job').click();
  first.release();
  await page.locator('[data-testid="job-header"][data-status="cancelled"]').waitFor();
  const cancelled = (await viewId()) ?? '';
  await expect.poll(notice).toBe('Cancelled: 3 not fetched (1 stopped mid-way). Run the rest again to fetch them.');

  await page.getByTestId('run-rest').click();
  await expect.poll(viewId).not.toBe(cancelled);
  const rest = (await viewId()) ?? '';
  await expect.poll(() => page.getByTestId('job-header').getAttribute('data-status'), { timeout: 60_000 }).toBe('done');

  // Back on the cancelled job: it said "Run the rest again to fetch them." and offered the
  // button, which started the same 3 targets again as a third job.
  await openJob(cancelled);
  await expect.poll(notice).toMatch(/^Cancelled: 3 not fetched \(1 stopped mid-way\)\. The rest was run again as rest of .+ · 3 URLs\.$/);
  expect(await page.getByTestId('run-rest').count()).toBe(0);
  const link = page.getByTestId('rest-run');
  expect(await link.getAttribute('data-job-id')).toBe(rest);
  for (const width of [1280, 900]) {
    await page.setViewportSize({ width, height: 800 });
    await expect.poll(() => expectNothingCutOrOverlapping(page).then(() => 'ok', (e: Error) => e.message)).toBe('ok');
    await page.screenshot({ path: screenshotPath(`ui-rest-run-link-${width}`) });
  }
  await page.setViewportSize({ width: 1280, height: 800 });
  // The link opens the job that ran the rest.
  await link.click();
  await expect.poll(viewId).toBe(rest);
  expect(await page.locator(`[data-testid="job-item"][data-job-id="${rest}"]`).getAttribute('aria-current')).toBe('page');

  // That job deleted, the rest is the cancelled job's to run again.
  await page.getByTestId('delete-job').click();
  await page.getByTestId('delete-job').click();
  await expect.poll(() => page.locator(`[data-testid="job-item"][data-job-id="${rest}"]`).count()).toBe(0);
  await openJob(cancelled);
  await expect.poll(notice).toBe('Cancelled: 3 not fetched (1 stopped mid-way). Run the rest again to fetch them.');
  expect(await page.getByTestId('rest-run').count()).toBe(0);
  expect(await page.getByTestId('run-rest').count()).toBe(1);
  expect(app.app.services.store.listJobs().map((j) => j.id)).toEqual([cancelled]);
  expect(pageErrors(page)).toEqual([]);
});
