/**
 * Failures as a person reads them, in real Chromium over the real services: each headline is
 * a sentence that says what happened (s26 appqa: an export refused by the disk read "cannot
 * write to …", and a file of a type Sift does not read was headed "Image/png").
 */
import { rmSync, writeFileSync } from 'node:fs';
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import { screenshotPath } from '../helpers/chromium';
import { pageErrors, pasteList } from '../helpers/ui-app';
import { appForFile } from '../helpers/ui-file';
import { startSite, type Site } from '../helpers/sites';

let page: Page;
let site: Site;

beforeAll(async () => {
  site = await startSite({
    // A real PNG's first bytes, served as what it is.
    '/logo.png': (_req, res) => res.writeHead(200, { 'content-type': 'image/png' }).end(Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex')),
  });
});
afterAll(async () => {
  await site?.close();
});

const opened = appForFile({
  ready: (o) => {
    page = o.page;
  },
});

test('an image in the list fails saying what the address gave, in the row and as the pane’s headline', async () => {
  await pasteList(page, `${site.base}/logo.png`);
  await expect.poll(() => page.getByTestId('count-valid').textContent()).toBe('1');
  await page.getByTestId('submit').click();
  await expect.poll(() => page.getByTestId('job-header').getAttribute('data-status')).toBe('failed');
  expect(await page.getByTestId('row-reason').textContent()).toBe('unreadable file');
  expect(await page.getByTestId('row-error').textContent()).toMatch(/^unreadable file\s*the address gives image\/png — Sift extracts HTML, PDF, JSON and text/);
  await page.locator('[data-testid="target-row"][data-idx="0"]').click();
  await expect.poll(() => page.getByTestId('result-error').locator('strong').textContent()).toBe('The address gives image/png');
  await page.screenshot({ path: screenshotPath('ui-failure-words-image') });
});

test('an export where a file stands in the folder’s place says so as a sentence, with what to do; Escape then closes the dialog', async () => {
  // What the user chose is a file now (a download landed under the folder's name): writing fails
  // whoever runs the test, where a folder without write permission does not stop root.
  rmSync(opened.app.exportDir, { recursive: true, force: true });
  writeFileSync(opened.app.exportDir, 'not a folder');
  await page.getByTestId('export-job').click();
  await page.getByTestId('export-start').click();
  const error = page.getByTestId('export-error');
  await expect.poll(() => error.locator('strong').textContent()).toBe(`Cannot write to ${opened.app.exportDir}: a file is in the way of the export folder`);
  expect(await error.locator('.hint').textContent()).toBe('Choose a folder, not a file, as the export destination.');
  await page.screenshot({ path: screenshotPath('ui-failure-words-export') });
  await page.keyboard.press('Escape');
  await expect.poll(() => page.getByTestId('export-dialog').count()).toBe(0);
  expect(await page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('export-job');
  expect(pageErrors(page)).toEqual([]);
});
