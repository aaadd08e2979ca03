/**
 * Addresses and job names at the two widths people use (800 and 1280 px), in real Chromium over
 * the bridge, from loopback sites. The composer's preview wrote "http://" before its address,
 * the last place that did; a search hit's address was cut at its end by CSS, the last path part
 * that tells the pages of one site apart gone;
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import { screenshotPath } from '../helpers/chromium';
import { articlePage, expectNoInternalErrorText, openApp, type OpenedApp, pageErrors, pasteList, runListToDone } from '../helpers/ui-app';

let opened: OpenedApp;
let page: Page;
const servers: http.Server[] = [];
let base = '';

async function listen(host: string, handler: http.RequestListener): Promise<string> {
  const s = http.createServer(handler);
  servers.push(s);
  await new Promise<void>((r) => s.listen(0, host, r));
  return `http://${host}:${(s.address() as AddressInfo).port}`;
}

const site: http.RequestListener = (req, res) => {
  const p = new URL(req.url ?? '/', 'http://x').pathname;
  // A 404 for any other path: a site that answers every address with a page is a soft 404's mark.
  if (!/^\/(?:article|page|report|short|annual-reports)\b/.test(p)) return void res.writeHead(404, { 'content-type': 'text/plain' }).end('no such page');
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(articlePage(`Harbour report ${p.split('/').pop() ?? ''}`));
};

// Longer than the preview's and a hit's line at 1280 px: what tells it from its neighbours is its end.
const LONG_PATH = '/annual-reports/of-the-harbour-board-and-its-committees/2026/quarterly-statement-of-accounts-final';

beforeAll(async () => {
  base = await listen('127.0.0.1', site);
  opened = await openApp();
  page = opened.page;
});

afterAll(async () => {
  await expectNoInternalErrorText(page);
  await opened?.close();
  await Promise.all(servers.map((s) => new Promise<void>((r) => s.close(() => r()))));
});

const host = (url: string): string => new URL(url).host;

/** An element's text and whether CSS cuts it (its text runs past its box). */
const shown = (sel: string): Promise<{ text: string; cut: boolean; title: string }> =>
  page.locator(sel).first().evaluate((e) => ({ text: e.textContent ?? '', cut: e.scrollWidth > e.clientWidth + 1, title: e.getAttribute('title') ?? '' }));

test("the preview writes its address without the scheme, cut in its middle, at 800 and 1280 px", async () => {
  await pasteList(page, `${base}${LONG_PATH}`);
  await page.getByTestId('count-valid').filter({ hasText: /^1$/ }).waitFor();
  for (const width of [1280, 800]) {
    await page.setViewportSize({ width, height: 800 });
    const sel = '[data-testid="preview-panel"] .parsed-url';
    await expect.poll(async () => (await shown(sel)).text).toMatch(/…/);
    const address = await shown(sel);
    // It read "http://127.0.0.1:45903/article/8"; the host first, the last path part kept.
    expect(address.text.slice(0, host(base).length)).toBe(host(base));
    expect(address.text).toMatch(/-final$/);
    expect(address.cut).toBe(false);
    expect(address.title).toBe(`${base}${LONG_PATH}`);
    await page.screenshot({ path: screenshotPath(`ui-narrow-addresses-preview-${width}`) });
  }
  expect(pageErrors(page)).toEqual([]);
});

test("a search hit's address keeps its host and its last path part at 800 and 1280 px", async () => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await runListToDone(page, [`${base}${LONG_PATH}`, `${base}/short`]);
  await page.getByTestId('job-search-input').fill('harbour');
  await expect.poll(() => page.getByTestId('search-results-job').getAttribute('data-state')).toBe('done');
  const long = page.getByTestId('search-hit').filter({ hasText: 'accounts-final' });
  for (const width of [1280, 800]) {
    await page.setViewportSize({ width, height: 800 });
    await expect.poll(async () => (await long.locator('.hit-url').textContent()) ?? '').toMatch(/…/);
    const url = await long.locator('.hit-url').evaluate((e) => ({ text: e.textContent ?? '', cut: e.scrollWidth > e.clientWidth + 1 }));
    // Cut at its end by CSS it read "127.0.0.1:40123/annual-reports/of-the-harbour-bo…".
    expect(url.text.slice(0, host(base).length)).toBe(host(base));
    expect(url.text).toMatch(/accounts-final$/);
    expect(url.cut).toBe(false);
    await page.screenshot({ path: screenshotPath(`ui-narrow-addresses-hit-${width}`) });
  }
  await page.getByTestId('job-search-input').fill('');
  expect(pageErrors(page)).toEqual([]);
});
