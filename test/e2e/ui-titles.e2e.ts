/**
 * Page titles of extreme shape in the app, fetched through the real services and shown in
 * Chromium at the two window sizes people use most (1024 × 700, 1440 × 900): a <title> of 2 MB
 * on one line, which froze the window for minutes when its result pane opened (laid out whole
 * in the pane's heading and its Meta row), and one with a right-to-left override (U+202E) that
 * showed "Invoice txt.exe done" as "Invoice enod exe.txt".
 */
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import { screenshotPath } from '../helpers/chromium';
import { startServer, type TestServer } from '../helpers/fetch-server';
import { articlePage, dropFile, openResultMeta, pageErrors, runListToDone } from '../helpers/ui-app';
import { appForFile } from '../helpers/ui-file';
import { MAX_SHOWN_TITLE } from '../../src/shared/shown';

let page: Page;
let site: TestServer;

const HUGE = `Start ${'H'.repeat(2 * 1024 * 1024)}`;
const OVERRIDE = 'Invoice \u202Etxt.exe done';
const READS = 'Invoice txt.exe done';

beforeAll(async () => {
  site = await startServer({
    '/huge': (_q, r) => r.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(articlePage(HUGE)),
    '/override': (_q, r) => r.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(articlePage(OVERRIDE)),
  });
});
afterAll(async () => {
  await site?.close();
});

appForFile({
  ready: async (o) => {
    page = o.page;
    await runListToDone(page, [`${site.origin}/huge`, `${site.origin}/override`]);
  },
});

const openRow = (idx: number): Promise<void> => openResultMeta(page, idx);

/** The title as the row, the pane's heading, its Meta row and the row's tooltip show it. */
async function titlesShown(idx: number): Promise<{ row: string; tooltip: string; heading: string; meta: string }> {
  const row = page.locator(`[data-testid="target-row"][data-idx="${idx}"] .c-detail`);
  return {
    row: (await row.textContent()) ?? '',
    tooltip: (await row.getAttribute('title')) ?? '',
    heading: (await page.locator('.result-title').textContent()) ?? '',
    meta: (await page.locator('[data-testid="result-meta"] [data-key="title"] [data-testid="meta-value"]').textContent()) ?? '',
  };
}

test('a title of 2 MB on one line is shown as its first 300 characters and "…", in the table, the result pane and a search hit, at 1024 and 1440 px', async () => {
  const cut = `${HUGE.slice(0, MAX_SHOWN_TITLE)}…`;
  for (const [width, height] of [[1024, 700], [1440, 900]] as const) {
    await page.setViewportSize({ width, height });
    await openRow(0);
    expect(await titlesShown(0)).toEqual({ row: cut, tooltip: cut, heading: cut, meta: cut });
    // One line of the pane's width, cut by its ellipsis: the heading does not push the pane wider.
    const pane = await page.getByTestId('result-pane').evaluate((el) => ({ scroll: el.scrollWidth, client: el.clientWidth }));
    expect(pane.scroll).toBeLessThanOrEqual(pane.client);
    await page.screenshot({ path: screenshotPath(`ui-titles-huge-${width}`) });
  }
  await page.getByTestId('sidebar-search-input').fill('crane');
  await expect.poll(() => page.getByTestId('search-results-all').getAttribute('data-state')).toBe('done');
  expect(await page.locator('[data-testid="search-hit"] .hit-title').allTextContents()).toContain(cut);
  await page.getByTestId('search-hit').first().screenshot({ path: screenshotPath('ui-titles-huge-hit') });
  await page.getByTestId('job-item').first().click();
  await page.getByTestId('job-view').waitFor();
  expect(pageErrors(page)).toEqual([]);
});

test('a title with a right-to-left override reads in the order it was written, not backwards after the override', async () => {
  await page.setViewportSize({ width: 1024, height: 700 });
  await openRow(1);
  expect(await titlesShown(1)).toEqual({ row: READS, tooltip: READS, heading: READS, meta: READS });
  // What Chromium lays out, not just the text: "txt.exe" left of "done", its letters left to right.
  const lefts = await page.locator('.result-title').evaluate((el) => {
    const text = el.firstChild as Text;
    const range = document.createRange();
    return Array.from(text.data, (_, i) => {
      range.setStart(text, i);
      range.setEnd(text, i + 1);
      return range.getBoundingClientRect().left;
    });
  });
  expect(lefts).toEqual([...lefts].sort((a, b) => a - b));
  await page.screenshot({ path: screenshotPath('ui-titles-override-1024') });
  expect(pageErrors(page)).toEqual([]);
});

// A list file's name as long as Linux allows one (255 bytes), ending in an override that
// turned the name's end around ("evil name" read "eman live") in the jobs list and the header.
const LIST_NAME = `Reading list ${'of the season '.repeat(16)}\u202Eevil name.txt`;

test('a dropped list whose file name is 250 characters with an override is submitted (main took 200), and named in its order', async () => {
  expect(LIST_NAME.length).toBeGreaterThan(240);
  await page.getByTestId('nav-new').click();
  await dropFile(page, LIST_NAME, `${site.origin}/override?again\n`);
  await page.getByTestId('count-valid').filter({ hasText: /^1$/ }).waitFor();
  // The name, then its size: the override turned them around too ("B 83 txt.eman live").
  const dropped = (await page.getByTestId('drop-zone').locator('strong').last().textContent()) ?? '';
  expect(dropped).toBe(LIST_NAME.replace('\u202E', ''));
  await page.keyboard.press('Control+Enter');
  await page.locator('[data-testid="job-header"][data-status="done"]').waitFor();
  const name = (await page.getByTestId('job-name').textContent()) ?? '';
  // Cut in its middle to the header's room, as the job list cuts names ("Reading list of the season of the s…on of the season of …").
  expect(name).toMatch(/^Reading list of the .*…/);
  expect(name).not.toMatch(/[\u202a-\u202e\u2066-\u2069]/);
  expect(name).toMatch(/… · 1 URL$/);
  await page.screenshot({ path: screenshotPath('ui-titles-list-name-1024') });
  expect(pageErrors(page)).toEqual([]);
});
