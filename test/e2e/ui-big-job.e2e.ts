/**
 * A finished job of 100,000 targets (as many as the app takes from one list) opened in
 * Chromium over the bridge: its first rows show from a first page of the rows, the rest come
 * in pages behind it, and the counts, the filters and the keys are the whole job's once they
 * are in. All 100,000 rows crossed in one answer before (21 MB), and the table was blank for
 * 14-17 s.
 */
import { expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import { FIRST_ROWS, MAX_SUBMIT_TARGETS, ROWS_PER_PAGE } from '../../src/shared/ipc/contract';
import { REASON_LABELS, warningLabel } from '../../src/shared/reasons';
import { finishedJobForFile } from '../helpers/big-job-file';
import { expectNoInternalErrorText, pageErrors, tapAnswers } from '../helpers/ui-app';
import { appForFile } from '../helpers/ui-file';

let page: Page;
// Before appForFile, so the folder (30 MB) is removed after the app has closed.
const onDisk = finishedJobForFile('sift-ui-big-', MAX_SUBMIT_TARGETS);

/** Each jobDetail answer the bridge sent the page, in order: its bytes. */
const detailAnswers: number[] = [];
/** The first two jobDetail answers are held until the test lets each go. */
const releases: (() => void)[] = [];

appForFile({
  app: () => ({
    dataDir: onDisk.t.dir,
    prepare: (context, app) =>
      tapAnswers(context, app, (method, bytes) => {
        if (method !== 'jobDetail') return;
        detailAnswers.push(bytes);
        if (detailAnswers.length <= 2) return new Promise<void>((release) => releases.push(release));
      }),
  }),
  ready: (o) => {
    page = o.page;
  },
});

test('a job of 100,000 targets shows its first rows from a small first answer, then counts, filters and reaches every row', async () => {
  await page.getByTestId('job-item').first().click();
  // A filter chosen while the first answer is on its way, before any count is in.
  await expect.poll(() => releases.length).toBe(1);
  await page.getByTestId('filter-status').selectOption('failed');
  releases[0]!();
  const failed = page.locator('[data-testid="target-row"][data-idx="9"]');
  await failed.waitFor();
  // The first screen came from a first page: well under a MB, where all rows were 21 MB.
  expect(detailAnswers[0]).toBeLessThan(FIRST_ROWS * 400);
  // With the second page held: the filter's count and the chips are the whole job's already
  // (they waited for the last page before, ~5 s on a loaded machine).
  await expect.poll(() => releases.length).toBe(2);
  const total = onDisk.job.total.toLocaleString('en-US');
  expect(await page.getByTestId('filter-count').textContent()).toBe(`${onDisk.job.failed.toLocaleString('en-US')} of ${total}`);
  expect(await page.getByTestId('target-grid').getAttribute('data-rows-read')).toBe('some');
  const chipsAtFirst = await page.getByTestId('reason-chip').evaluateAll((els) => els.map((e) => [e.getAttribute('data-reason'), e.querySelector('strong')?.textContent]));
  expect(chipsAtFirst).toEqual([
    ['upstream', onDisk.job.reasons.upstream!.toLocaleString('en-US')],
    ['timeout', onDisk.job.reasons.timeout!.toLocaleString('en-US')],
  ]);
  expect(await page.getByTestId('warning-chip').textContent()).toBe(`${warningLabel('thin')} ${onDisk.job.thin.toLocaleString('en-US')}`);
  await page.getByTestId('filter-clear').click();
  releases[1]!();
  await page.locator('[data-testid="target-row"][data-idx="0"]').waitFor();
  // The table holds every row's place from the first page on.
  expect(await page.getByTestId('target-grid').getAttribute('aria-rowcount')).toBe(String(onDisk.job.total + 1));

  await page.locator('[data-testid="target-grid"][data-rows-read="all"]').waitFor();
  expect(detailAnswers.length).toBeGreaterThan(2);
  expect(Math.max(...detailAnswers)).toBeLessThan(ROWS_PER_PAGE * 400);
  // The chips count the whole job's failures and warnings.
  const chips = await page.getByTestId('reason-chip').evaluateAll((els) => els.map((e) => [e.getAttribute('data-reason'), e.querySelector('strong')?.textContent]));
  expect(chips).toEqual([
    ['upstream', onDisk.job.reasons.upstream!.toLocaleString('en-US')],
    ['timeout', onDisk.job.reasons.timeout!.toLocaleString('en-US')],
  ]);
  const warnings = await page.getByTestId('warning-chip').evaluateAll((els) => els.map((e) => e.textContent));
  expect(warnings).toEqual([`${warningLabel('thin')} ${onDisk.job.thin.toLocaleString('en-US')}`]);

  // A reason's chip filters to its targets, counted against the job.
  await page.locator('[data-testid="reason-chip"][data-reason="timeout"]').click();
  await expect.poll(() => page.getByTestId('filter-count').textContent()).toBe(`${onDisk.job.reasons.timeout!.toLocaleString('en-US')} of ${onDisk.job.total.toLocaleString('en-US')}`);
  expect(await page.getByTestId('filter-reason').inputValue()).toBe('timeout');
  expect(await page.locator('[data-testid="row-reason"]').first().textContent()).toBe(REASON_LABELS.timeout);
  await page.getByTestId('filter-clear').click();
  await expect.poll(() => page.getByTestId('filter-count').count()).toBe(0);

  // End reaches the last of the 100,000, and it is drawn.
  await page.getByTestId('target-grid').focus();
  await page.keyboard.press('End');
  const last = page.locator(`[data-testid="target-row"][data-idx="${onDisk.job.total - 1}"]`);
  await expect.poll(() => last.getAttribute('aria-selected')).toBe('true');
  expect(await page.getByTestId('target-row-unread').count()).toBe(0);
  expect(pageErrors(page)).toEqual([]);
  await expectNoInternalErrorText(page);
});
