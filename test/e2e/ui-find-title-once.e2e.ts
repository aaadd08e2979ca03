/**
 * A Find hit says its result's title once, at 1024 × 768 in real Chromium over the bridge. A
 * page's heading that repeats its title is the first line of its text, and the line a word of
 * the title is found on first: the hit was headed by the title and its snippet began with the
 * title again. A word found in the title only made the title the snippet, under the title, and a
 * word found in the address only made the address the snippet, under the address.
 */
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import { screenshotPath } from '../helpers/chromium';
import { startServer, type TestServer } from '../helpers/fetch-server';
import { expectNoInternalErrorText, openApp, pageErrors, runListToDone, type OpenedApp } from '../helpers/ui-app';

let opened: OpenedApp;
let page: Page;
let site: TestServer;

const PILOTS = 'Harbour pilots of Valletta';
const KEEPERS = 'Lighthouse keepers';
const html = (title: string, body: string): string =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title></head><body><article>${body}</article></body></html>`;

beforeAll(async () => {
  const pilots = html(PILOTS, `<h1>${PILOTS}</h1>${'<p>Pilots board every ship that enters the harbour, by day and by night, in any weather the sea brings.</p>'.repeat(3)}`);
  const keepers = html(KEEPERS, '<p>The keepers trimmed the wick and wound the clockwork every four hours through the winter nights.</p>'.repeat(3));
  site = await startServer({
    '/pilots.html': (_q, r) => r.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(pilots),
    '/keepers.html': (_q, r) => r.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(keepers),
    '/ferry-times.json': (_q, r) => r.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ depart: '07:40', berth: 4 })),
  });
  opened = await openApp();
  page = opened.page;
  await page.setViewportSize({ width: 1024, height: 768 });
  await runListToDone(page, [`${site.origin}/pilots.html`, `${site.origin}/keepers.html`, `${site.origin}/ferry-times.json`]);
});

afterAll(async () => {
  await expectNoInternalErrorText(page);
  await opened?.close();
  await site?.close();
});

/** How many times `text` is in the hit that holds it: its heading, where line, address and snippet. */
const timesIn = async (text: string): Promise<number> => {
  const hit = page.getByTestId('search-hit').filter({ hasText: text });
  expect(await hit.count()).toBe(1);
  return ((await hit.textContent()) ?? '').split(text).length - 1;
};

async function find(words: string): Promise<void> {
  await page.getByTestId('job-search-input').fill(words);
  await expect.poll(() => page.getByTestId('search-results-job').getAttribute('data-state')).toBe('done');
  await page.getByTestId('search-count').filter({ hasText: words }).waitFor();
}

test("a hit on a page whose heading repeats its title shows the title once, and the text's own words under it", async () => {
  await find('harbour');
  await page.screenshot({ path: screenshotPath('ui-find-title-once-heading') });
  expect(await timesIn(PILOTS)).toBe(1);
  const hit = page.getByTestId('search-hit').filter({ hasText: PILOTS });
  expect(await hit.locator('.hit-title').textContent()).toBe(PILOTS);
  expect(await hit.locator('.snippet').textContent()).toMatch(/^Pilots board every ship that enters the harbour/);
  expect(await hit.locator('.snippet mark').first().textContent()).toBe('harbour');
  expect(pageErrors(page)).toEqual([]);
});

test('a hit on a word in the title only shows the title once, the word marked in it', async () => {
  await find('lighthouse');
  await page.screenshot({ path: screenshotPath('ui-find-title-once-title') });
  expect(await timesIn(KEEPERS)).toBe(1);
  const hit = page.getByTestId('search-hit').filter({ hasText: KEEPERS });
  expect(await hit.locator('.hit-title').textContent()).toBe(KEEPERS);
  expect(await hit.locator('.hit-title mark').textContent()).toBe('Lighthouse');
  expect(await hit.locator('.hit-where').textContent()).toContain('in the title');
  expect(pageErrors(page)).toEqual([]);
});

test('a hit on a word in the address only says the address once', async () => {
  await find('ferry');
  await page.screenshot({ path: screenshotPath('ui-find-title-once-address') });
  const address = `${new URL(site.origin).host}/ferry-times.json`;
  expect(await timesIn(address)).toBe(1);
  const hit = page.getByTestId('search-hit').filter({ hasText: address });
  expect(await hit.locator('.hit-where').textContent()).toContain('in the url');
  expect(pageErrors(page)).toEqual([]);
});
