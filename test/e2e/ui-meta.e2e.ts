/**
 * A page's other metadata of hostile shape in the result pane, fetched through the real
 * services and shown in Chromium at 1024 × 700: an author meta tag of 2 MB on one line (the
 * pane's Meta row laid it out whole, as it did a 2 MB title before shownTitle), one with a
 * right-to-left override, and the override in the title the result's Markdown opens with
 * ("# Invoice \u202Etxt.exe done" rendered "Invoice enod exe.txt").
 */
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import { screenshotPath } from '../helpers/chromium';
import { startServer, type TestServer } from '../helpers/fetch-server';
import { articlePage, openResultMeta, pageErrors, runListToDone } from '../helpers/ui-app';
import { appForFile } from '../helpers/ui-file';
import { MAX_SHOWN_META } from '../../src/shared/shown';

let page: Page;
let site: TestServer;

const HUGE = `Start ${'A'.repeat(2 * 1024 * 1024)}`;
const OVERRIDE = 'Invoice \u202Etxt.exe done';
const READS = 'Invoice txt.exe done';

beforeAll(async () => {
  site = await startServer({
    '/huge-author': (_q, r) => r.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(articlePage('Harbour report', HUGE)),
    '/override': (_q, r) => r.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(articlePage(OVERRIDE, `Ann \u202Eeel Smith`)),
  });
});
afterAll(async () => {
  await site?.close();
});

appForFile({
  viewport: { width: 1024, height: 700 },
  ready: async (o) => {
    page = o.page;
    await runListToDone(page, [`${site.origin}/huge-author`, `${site.origin}/override`]);
  },
});

const openRow = (idx: number): Promise<void> => openResultMeta(page, idx);

const metaShown = async (key: string): Promise<string> => (await page.locator(`[data-testid="result-meta"] [data-key="${key}"] [data-testid="meta-value"]`).textContent()) ?? '';

/** Whether Chromium lays the element's first text out letter after letter, left to right and down (an override turns part around). */
const laidOutInOrder = (selector: string): Promise<boolean> =>
  page.locator(selector).first().evaluate((el) => {
    const text = el.firstChild as Text;
    const range = document.createRange();
    const boxes = Array.from(text.data, (_, i) => {
      range.setStart(text, i);
      range.setEnd(text, i + 1);
      return range.getBoundingClientRect();
    });
    // A heading may wrap: a letter on a lower line comes after, whatever its left.
    return boxes.every((b, i) => {
      const before = boxes[i - 1];
      return !before || b.top >= before.bottom - 1 || (Math.abs(b.top - before.top) < 1 && b.left >= before.left);
    });
  });

test('an author of 2 MB on one line is shown in Meta as its first 2,000 characters and "…", the pane as wide as before', async () => {
  await openRow(0);
  expect(await metaShown('byline')).toBe(`${HUGE.slice(0, MAX_SHOWN_META)}…`);
  const pane = await page.getByTestId('result-pane').evaluate((el) => ({ scroll: el.scrollWidth, client: el.clientWidth }));
  expect(pane.scroll).toBeLessThanOrEqual(pane.client);
  await page.screenshot({ path: screenshotPath('ui-meta-huge-author-1024') });
  const row = page.locator('[data-testid="result-meta"] [data-key="byline"]');
  await row.scrollIntoViewIfNeeded();
  await page.screenshot({ path: screenshotPath('ui-meta-huge-author-meta-1024') });
  expect(pageErrors(page)).toEqual([]);
});

test("an override in the result's own Markdown heading and in Meta's author reads in the order it was written", async () => {
  await openRow(1);
  const heading = page.locator('[data-testid="result-markdown"] h1').first();
  expect(await heading.textContent()).toBe(READS);
  expect(await laidOutInOrder('[data-testid="result-markdown"] h1')).toBe(true);
  expect(await metaShown('byline')).toBe('Ann eel Smith');
  expect(await laidOutInOrder('[data-testid="result-meta"] [data-key="byline"] [data-testid="meta-value"]')).toBe(true);
  await page.screenshot({ path: screenshotPath('ui-meta-override-1024') });
  await page.locator('[data-testid="result-meta"]').screenshot({ path: screenshotPath('ui-meta-override-meta-1024') });
  expect(pageErrors(page)).toEqual([]);
});
