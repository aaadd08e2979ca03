/**
 * The composer's options past the lengths Sift takes (a question or grep of 2,000 characters,
 * a jq program of 8,000): said in words about the field, before any fetch, through the real
 * services. main's request check answered them with zod's words and "restart the window".
 * And the options a preview runs with, as the list writes them, on one line.
 */
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import { screenshotPath } from '../helpers/chromium';
import { startServer, type TestServer } from '../helpers/fetch-server';
import { pageErrors, pasteList } from '../helpers/ui-app';
import { appForFile } from '../helpers/ui-file';

let page: Page;
let site: TestServer;

beforeAll(async () => {
  site = await startServer({
    '/a': (_q, r) => r.writeHead(200, { 'content-type': 'text/plain' }).end('alpha\nbeta\n'),
    '/shop': (_q, r) =>
      r
        .writeHead(200, { 'content-type': 'text/html' })
        .end('<html><head><title>Shop</title></head><body><article><h1>Shop</h1><p>The price is 10 dollars a unit in the store.</p><p>Delivery takes three days and costs nothing.</p></article></body></html>'),
  });
});
afterAll(async () => {
  await site?.close();
});

appForFile({
  ready: (o) => {
    page = o.page;
  },
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

test('the preview says the options it runs with as the list writes them, on one line, and the URL stays in view', async () => {
  await page.getByTestId('nav-new').click();
  await pasteList(page, `${site.origin}/shop grep=(?i)price|delivery context`);
  await expect.poll(() => page.getByTestId('count-valid').textContent()).toBe('1');
  await page.getByTestId('opt-grep').fill('');
  const question = 'how much does the thing cost when I buy it in the store or online and have it delivered to my house in the country, and how long does it take?';
  await page.getByTestId('opt-question').fill(question);
  // The first test's preview error was of the question it had then.
  expect(await page.getByTestId('preview-error').count()).toBe(0);
  const shown = page.getByTestId('preview-options');
  // It was {"question":"how much…","grep":"(?i)price|delivery","context":true}, over five lines
  // that ran past the panel's edge, and the URL beside the buttons was squeezed to nothing.
  await expect.poll(() => shown.textContent()).toBe(`question="${question}" grep=(?i)price|delivery context`);
  const panel = (await page.getByTestId('preview-panel').boundingBox())!;
  const box = (await shown.boundingBox())!;
  const url = (await page.getByTestId('preview-panel').locator('.parsed-url').boundingBox())!;
  const button = (await page.getByTestId('preview-button').boundingBox())!;
  expect(box.height).toBeLessThanOrEqual(button.height);
  expect(box.x + box.width).toBeLessThanOrEqual(panel.x + panel.width);
  expect(url.width).toBeGreaterThan(100);
  expect(await shown.getAttribute('title')).toContain(question);
  await page.screenshot({ path: screenshotPath('ui-option-limits-preview-options') });
  expect(pageErrors(page)).toEqual([]);
});

test('a jq program with Extract set to raw is said to conflict when the mode is chosen, and the select says which modes go with jq', async () => {
  await page.getByTestId('nav-new').click();
  await pasteList(page, `${site.origin}/a`);
  await expect.poll(() => page.getByTestId('preview-panel').locator('.parsed-url').textContent()).toBe(`${new URL(site.origin).host}/a`);
  await page.getByTestId('opt-question').fill('');
  await page.getByTestId('opt-grep').fill('');
  await page.getByTestId('opt-jq').fill('.items');
  const mode = page.getByTestId('opt-mode');
  // Which modes mean anything beside jq, in the select itself.
  expect(await mode.locator('option[value="raw"]').textContent()).toBe('raw — not with a jq program');
  expect(await mode.locator('option[value="text"]').textContent()).toBe("text — jq's strings, unquoted");
  await mode.selectOption('raw');
  const error = page.getByTestId('options-error');
  // It submitted, and each row came back with jq's output where the body as served was asked for.
  await expect.poll(() => error.locator('strong').textContent()).toBe("A jq program does not go with Extract set to raw: with jq, the result is jq's output.");
  expect(await error.locator('.hint').textContent()).toMatch(/^Set Extract to markdown for jq's output as JSON, or text for its strings unquoted; or clear the jq program for the document as served\.$/);
  await page.screenshot({ path: screenshotPath('ui-option-limits-jq-raw') });
  await page.getByTestId('submit').click();
  await expect.poll(() => error.locator('strong').textContent()).toMatch(/^A jq program does not go with Extract set to raw/);
  expect(await page.getByTestId('job-view').count()).toBe(0);
  // Text goes with jq: the error leaves with the conflict.
  await mode.selectOption('text');
  await expect.poll(() => error.count()).toBe(0);
  expect(site.hits).toEqual([]);
  expect(pageErrors(page)).toEqual([]);
});
