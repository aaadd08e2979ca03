/**
 * A filter on a big job whose matches are in rows not read yet: the count beside the filter
 * is the job's from the first page on ("3,000 of 6,000"), and the filter asks the store for
 * its matches, so they are listed before the pages reach them; while that answer is on its
 * way the table says it is still reading them. The bridge holds the later pages and the
 * filter's answer until the test lets each go, so each state is seen however busy the machine.
 */
import { expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import { FIRST_ROWS, ROWS_PER_PAGE } from '../../src/shared/ipc/contract';
import { screenshotPath } from '../helpers/chromium';
import { finishedJobForFile } from '../helpers/big-job-file';
import { pageErrors, tapAnswers } from '../helpers/ui-app';
import { appForFile } from '../helpers/ui-file';

// Its first FIRST_ROWS + ROWS_PER_PAGE targets finished, the rest not: the start-up marks
// the one left running as cut short, so "Not fetched" matches the last UNFINISHED, none of
// them in the first page, and the second page ends inside them.
const TOTAL = FIRST_ROWS + ROWS_PER_PAGE + 500;
const UNFINISHED = 3_000;

let page: Page;
// Before appForFile, so the folder is removed after the app has closed.
const onDisk = finishedJobForFile('sift-ui-filter-reading-', TOTAL, { unfinished: UNFINISHED });

/** The second and third jobDetail answers (the later pages), each held until the test lets it go. */
const answers: number[] = [];
const releases: (() => void)[] = [];
/** The filter's first answer (its matches), held apart from the pages: they pass it. */
const matchReleases: (() => void)[] = [];

appForFile({
  app: () => ({
    dataDir: onDisk.t.dir,
    prepare: (context, app) =>
      tapAnswers(context, app, (method, _bytes, req) => {
        if (method !== 'jobDetail') return;
        if ((req as { filter?: unknown }).filter) {
          if (matchReleases.length === 0) return { alone: new Promise<void>((release) => matchReleases.push(release)) };
          return;
        }
        answers.push(1);
        if (answers.length === 2 || answers.length === 3) return { alone: new Promise<void>((release) => releases.push(release)) };
      }),
  }),
  ready: (o) => {
    page = o.page;
  },
});

const n = (x: number): string => x.toLocaleString('en-US');
// Read without waiting for the note to exist: a locator's textContent waits for its element.
const note = (): Promise<string | null> => page.evaluate(() => document.querySelector('[data-testid="filter-reading"]')?.textContent ?? null);

test("a filter's matches in pages not read yet are read from the store and listed before the pages come; while they are read the table says so", async () => {
  await page.getByTestId('job-item').first().click();
  await page.locator('[data-testid="target-row"][data-idx="0"]').waitFor();
  await expect.poll(() => releases.length).toBe(1);
  await page.getByTestId('filter-status').selectOption('pending');
  // Before: no such request; the matches waited for the pages.
  await expect.poll(() => matchReleases.length).toBe(1);

  // Every match is in a page not read yet and the filter's answer is held: no row, the count says 3,000.
  expect(await page.getByTestId('filter-count').textContent()).toBe(`${n(UNFINISHED)} of ${n(TOTAL)}`);
  expect(await page.getByTestId('target-row').count()).toBe(0);
  await expect.poll(note).toBe(`Still reading this job's targets: 0 of the ${n(UNFINISHED)} targets that match are listed so far. The rest appear here as they are read.`);
  expect(await page.getByText('No target matches this filter.').count()).toBe(0);
  await page.screenshot({ path: screenshotPath('ui-filter-reading-none') });

  // The second page brings the matches up to its end; the note stays in view below them.
  releases[0]!();
  await expect.poll(() => releases.length).toBe(2);
  const listed = FIRST_ROWS + ROWS_PER_PAGE - (TOTAL - UNFINISHED);
  await expect.poll(note).toBe(`Still reading this job's targets: ${n(listed)} of the ${n(UNFINISHED)} targets that match are listed so far. The rest appear here as they are read.`);
  await page.locator(`[data-testid="target-row"][data-idx="${TOTAL - UNFINISHED}"]`).waitFor();
  const scroll = (await page.getByTestId('target-scroll').boundingBox())!;
  const shown = (await page.getByTestId('filter-reading').boundingBox())!;
  expect(shown.y + shown.height).toBeLessThanOrEqual(scroll.y + scroll.height + 1);
  // A key that moves the selection down a screen does not leave the row under the note.
  await page.getByTestId('target-grid').focus();
  await page.keyboard.press('Home');
  await expect.poll(() => page.locator('[data-testid="target-row"][aria-selected="true"]').getAttribute('data-idx')).toBe(String(TOTAL - UNFINISHED));
  await page.keyboard.press('PageDown');
  const selected = page.locator('[data-testid="target-row"][aria-selected="true"]');
  await expect.poll(async () => Number(await selected.getAttribute('data-idx'))).toBeGreaterThan(TOTAL - UNFINISHED + 1);
  const selectedBox = (await selected.boundingBox())!;
  const noteBox = (await page.getByTestId('filter-reading').boundingBox())!;
  expect(selectedBox.y + selectedBox.height).toBeLessThanOrEqual(noteBox.y + 1);
  await page.screenshot({ path: screenshotPath('ui-filter-reading-some') });

  // The filter's answer: every match is listed, the last page still held, and the note goes.
  matchReleases[0]!();
  await expect.poll(note).toBe(null);
  expect(await page.getByTestId('target-grid').getAttribute('data-rows-read')).toBe('some');
  expect(releases.length).toBe(2);
  await page.getByTestId('target-grid').focus();
  await page.keyboard.press('End');
  await expect.poll(() => page.locator('[data-testid="target-row"][aria-selected="true"]').getAttribute('data-idx')).toBe(String(TOTAL - 1));
  expect(await page.getByTestId('filter-count').textContent()).toBe(`${n(UNFINISHED)} of ${n(TOTAL)}`);
  await page.screenshot({ path: screenshotPath('ui-filter-reading-ahead') });

  // Every row read: nothing is still to come, and the rows read ahead are the pages' now.
  releases[1]!();
  await page.locator('[data-testid="target-grid"][data-rows-read="all"]').waitFor();
  expect(await page.getByTestId('filter-reading').count()).toBe(0);
  expect(await page.getByTestId('filter-count').textContent()).toBe(`${n(UNFINISHED)} of ${n(TOTAL)}`);
  expect(pageErrors(page)).toEqual([]);
});
