import { expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import { screenshotPath } from '../helpers/chromium';
import { pageErrors, pasteList } from '../helpers/ui-app';
import { appForFile } from '../helpers/ui-file';
import { startSite, type Site } from '../helpers/sites';

/**
 * The export's "Include failed and unfetched targets" choice takes failed targets into a
 * format's files or sections. The CSV summary and the JSONL file list every target whatever it
 * says (their writers take no such choice), and the box sat ticked or not beside them, changing
 * nothing.
 */
let site: Site;
let page: Page;

appForFile({
  serve: async () => (site = await startSite()),
  viewport: { width: 1024, height: 768 },
  ready: (o) => {
    page = o.page;
  },
});

test('the failed-targets choice is offered only with the formats it changes, and the list-every-target ones say so', async () => {
  await pasteList(page, `${site.base}/article/1\n${site.base}/missing/1`);
  await page.getByTestId('count-valid').filter({ hasText: /^2$/ }).waitFor();
  await page.keyboard.press('Control+Enter');
  await page.locator('[data-testid="job-header"][data-status="partial"]').waitFor();
  await page.getByTestId('export-job').click();
  const offered: Record<string, boolean> = {};
  const notes: Record<string, string> = {};
  for (const format of ['md', 'txt', 'json', 'jsonl', 'csv', 'combined', 'zip']) {
    await page.getByTestId('export-format').selectOption(format);
    offered[format] = (await page.getByTestId('export-include-failed').count()) === 1;
    notes[format] = (await page.getByTestId('export-listing-note').textContent()) ?? '';
  }
  expect(offered).toEqual({ md: true, txt: true, json: true, jsonl: false, csv: false, combined: true, zip: true });
  expect(notes.csv).toBe('Every target has a row here, each failed or unfetched one with why.');
  expect(notes.jsonl).toBe('Every target has a line here, each failed or unfetched one with why.');
  expect(notes.md).toBe('The manifest, the CSV summary and the JSONL file always list every target, with its error.');
  await page.getByTestId('export-format').selectOption('csv');
  await page.screenshot({ path: screenshotPath('ui-export-failed-choice-csv') });
  expect(pageErrors(page)).toEqual([]);
});

/**
 * The listing note lines up with what it reads under: the format's own note for the CSV summary
 * and the JSONL file, which have no box (it sat 24 px in, under nothing, as a second line of
 * the format's note indented), and the box's words where the box is there.
 */
test('the listing note is indented under the failed-targets box only, and level with the format note without it', async () => {
  const left = (testId: string): Promise<number> => page.getByTestId(testId).evaluate((e) => e.getBoundingClientRect().left);
  const formatNoteLeft = (): Promise<number> => page.locator('.export-dialog .field > .muted').evaluate((e) => e.getBoundingClientRect().left);
  const boxWordsLeft = (): Promise<number> =>
    page.getByTestId('export-include-failed').evaluate((box) => {
      const range = document.createRange();
      range.selectNodeContents(box.parentElement!);
      range.setStartAfter(box);
      return range.getBoundingClientRect().left;
    });
  await page.getByTestId('export-format').selectOption('csv');
  expect(await left('export-listing-note')).toBeCloseTo(await formatNoteLeft(), 0);
  await page.getByTestId('export-format').selectOption('md');
  expect(await left('export-listing-note')).toBeCloseTo(await boxWordsLeft(), 0);
  await page.screenshot({ path: screenshotPath('ui-export-failed-choice-notes') });
});
