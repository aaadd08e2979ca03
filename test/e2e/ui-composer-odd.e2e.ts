/**
 * The composer fed what is not a list of URLs, in real Chromium over the real services: what
 * the user reads beside the counts and when Fetch has nothing to send.
 */
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import { screenshotPath } from '../helpers/chromium';
import { dropFile, expectNoInternalErrorText, openApp, pasteList, type OpenedApp } from '../helpers/ui-app';

let opened: OpenedApp;
let page: Page;

beforeAll(async () => {
  opened = await openApp();
  page = opened.page;
});

afterAll(async () => {
  await opened?.close();
});

test('a saved page with no links says there is no URL in it and why, not that problems are listed', async () => {
  await page.getByTestId('nav-new').click();
  await dropFile(page, 'article.html', '<!doctype html><html><body><h1>Notes</h1><p>Nothing to follow here.</p></body></html>', 'text/html');
  await expect.poll(() => page.getByTestId('parse-nothing').textContent()).toBe('Sift found no URL in this list. The page has no links in it.');
  await page.getByTestId('submit').click();
  const error = page.getByTestId('submit-error');
  await expect.poll(() => error.textContent()).toMatch(/^Sift found no URL in this list\./);
  expect(await error.textContent()).not.toMatch(/listed/);
  await page.screenshot({ path: screenshotPath('ui-composer-no-links') });
  await expectNoInternalErrorText(page);
});

test('a list of only bad lines sends the user to the lines marked invalid, where they are', async () => {
  await page.getByTestId('list-file').getByRole('button', { name: 'Clear and paste instead' }).click();
  await pasteList(page, 'not a url\nftp://files.example/a\njavascript:alert(1)\n');
  await expect.poll(() => page.getByTestId('count-invalid').textContent()).toBe('3');
  expect(await page.getByTestId('parse-nothing').count()).toBe(0);
  await page.getByTestId('submit').click();
  await expect.poll(() => page.getByTestId('submit-error').textContent()).toMatch(/the 3 lines Sift could not read are listed under “Invalid”, with why\.$/);
  expect(await page.getByTestId('invalid-list').isVisible()).toBe(true);
  await page.screenshot({ path: screenshotPath('ui-composer-only-bad') });
  await expectNoInternalErrorText(page);
});
