/**
 * The composer's options past the lengths Sift takes (a question or grep of 2,000 characters,
 * a jq program of 8,000): said in words about the field, before any fetch, through the real
 * services. main's request check answered them with zod's words and "restart the window".
 */
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import { screenshotPath } from '../helpers/chromium';
import { startServer, type TestServer } from '../helpers/fetch-server';
import { openApp, pageErrors, pasteList, type OpenedApp } from '../helpers/ui-app';

let opened: OpenedApp;
let page: Page;
let site: TestServer;

beforeAll(async () => {
  site = await startServer({
    '/a': (_q, r) => r.writeHead(200, { 'content-type': 'text/plain' }).end('alpha\nbeta\n'),
  });
  opened = await openApp();
  page = opened.page;
});

afterAll(async () => {
  await opened?.close();
  await site?.close();
});

const RAW = /invalid request|Too big|restart the window/i;

test('a question longer than Sift takes stops the submit with its length and what to do, and nothing is fetched', async () => {
  await page.getByTestId('nav-new').click();
  await pasteList(page, `${site.origin}/a`);
  await expect.poll(() => page.getByTestId('count-valid').textContent()).toBe('1');
  await page.getByTestId('opt-question').fill('why '.repeat(600).trim());
  await page.getByTestId('submit').click();
  const error = page.getByTestId('options-error');
  await expect.poll(() => error.locator('strong').textContent()).toBe('The question is 2,399 characters long; Sift takes at most 2,000.');
  expect(await error.textContent()).not.toMatch(RAW);
  expect(await error.locator('.hint').textContent()).toMatch(/fewer words/);
  await page.screenshot({ path: screenshotPath('ui-option-limits-question') });
  expect(await page.getByTestId('job-view').count()).toBe(0);
  // The preview of one URL with these options says the same, rather than main's refusal.
  await page.getByTestId('preview-button').click();
  await expect.poll(() => page.getByTestId('preview-error').locator('strong').textContent()).toBe('The question is 2,399 characters long; Sift takes at most 2,000.');
  expect(site.hits).toEqual([]);
  expect(pageErrors(page)).toEqual([]);
});

test('a grep expression too long is said under the field when the user leaves it', async () => {
  await page.getByTestId('nav-new').click();
  await pasteList(page, `${site.origin}/a`);
  await page.getByTestId('opt-question').fill('');
  await page.getByTestId('opt-grep').fill(Array.from({ length: 500 }, (_, i) => `w${i}`).join('|'));
  await page.getByTestId('opt-jq').focus();
  const error = page.getByTestId('options-error');
  await expect.poll(() => error.locator('strong').textContent()).toBe('The grep expression is 2,389 characters long; Sift takes at most 2,000.');
  expect(await error.textContent()).not.toMatch(RAW);
  expect(pageErrors(page)).toEqual([]);
});
