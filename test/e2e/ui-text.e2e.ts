/**
 * Text the result pane and the job table showed in a form no reader could use, fetched through
 * the real services and shown in Chromium at 1024 × 768: a right-to-left override in a text
 * result and in a Markdown result's source (the <pre> showed "Invoice enod exe.txt"), a one-word
 * author of 2,000 characters (a Meta row ~140 lines tall) and the URL column (88 px: "127.0.…").
 */
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import { screenshotPath } from '../helpers/chromium';
import { startServer, type TestServer } from '../helpers/fetch-server';
import { articlePage, openResultMeta, pageErrors, pasteList, runListToDone } from '../helpers/ui-app';
import { appForFile } from '../helpers/ui-file';
import { MAX_SHOWN_META } from '../../src/shared/shown';

let page: Page;
let site: TestServer;

const OVERRIDE = 'Invoice \u202Etxt.exe done';
const TEXT = `${OVERRIDE}\nThe next line reads as written.\n`;
const LONG_AUTHOR = `Start${'A'.repeat(MAX_SHOWN_META - 5)}`;
const BIDI = /[\u202a-\u202e\u2066-\u2069]/;

beforeAll(async () => {
  site = await startServer({
    '/override.txt': (_q, r) => r.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' }).end(TEXT),
    '/override-page': (_q, r) => r.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(articlePage(OVERRIDE, 'Ann Smith')),
    '/reports/harbour-annual.html': (_q, r) => r.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(articlePage('Harbour report', LONG_AUTHOR)),
    '/reports/gone.html': (_q, r) => r.writeHead(404, { 'content-type': 'text/html; charset=utf-8' }).end('<h1>Not found</h1>'),
  });
});
afterAll(async () => {
  await site?.close();
});

appForFile({
  viewport: { width: 1024, height: 768 },
  ready: async (o) => {
    page = o.page;
    await runListToDone(page, [`${site.origin}/override.txt`, `${site.origin}/override-page`, `${site.origin}/reports/harbour-annual.html`]);
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(page.url()).origin });
  },
});

/**
 * Whether Chromium lays the element's text out character after character, left to right and
 * down, across all its text nodes (an override turns the rest of its line around).
 */
const laidOutInOrder = (selector: string, nth = 0): Promise<boolean> =>
  page.locator(selector).nth(nth).evaluate((el) => {
    const range = document.createRange();
    const boxes: DOMRect[] = [];
    const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode() as Text | null; n; n = walker.nextNode() as Text | null) {
      for (let i = 0; i < n.data.length; i++) {
        if (/\s/.test(n.data[i] as string)) continue;
        range.setStart(n, i);
        range.setEnd(n, i + 1);
        boxes.push(range.getBoundingClientRect());
      }
    }
    return boxes.every((b, i) => {
      const before = boxes[i - 1];
      return !before || b.top >= before.bottom - 1 || (Math.abs(b.top - before.top) < 1 && b.left >= before.left);
    });
  });

/** The pane's <pre>: its text, where its bidi controls are marked, and whether it reads in order. */
async function preShown(): Promise<{ text: string; marks: (string | null)[]; inOrder: boolean }> {
  const pre = page.getByTestId('result-text');
  return {
    text: (await pre.textContent()) ?? '',
    marks: await pre.getByTestId('bidi-mark').evaluateAll((els) => els.map((e) => getComputedStyle(e, '::before').content)),
    inOrder: await laidOutInOrder('[data-testid="result-text"]'),
  };
}

async function copied(): Promise<string> {
  await page.getByTestId('result-copy').click();
  await page.getByTestId('result-copy-status').filter({ hasText: /^Copied/ }).waitFor();
  return page.evaluate(() => navigator.clipboard.readText());
}

test('a text result with a right-to-left override reads in the order it was written, the override marked where it stands, and Copy keeps it', async () => {
  await openResultMeta(page, 0);
  const shown = await preShown();
  expect(shown.text).not.toMatch(BIDI);
  expect(shown.text).toBe(TEXT.replace('\u202E', ''));
  expect(shown.marks).toEqual(['"U+202E"']);
  expect(shown.inOrder).toBe(true);
  await page.getByTestId('result-text').screenshot({ path: screenshotPath('ui-text-override-text-1024') });
  expect(await copied()).toBe(TEXT);
});

test("a Markdown result's source shows its heading's override marked, not applied, and Copy keeps it", async () => {
  await openResultMeta(page, 1);
  await page.getByRole('button', { name: 'Show source' }).click();
  const shown = await preShown();
  expect(shown.text).toMatch(/^# Invoice txt\.exe done\n/);
  expect(shown.marks).toEqual(['"U+202E"']);
  expect(shown.inOrder).toBe(true);
  await page.screenshot({ path: screenshotPath('ui-text-override-source-1024') });
  expect(await copied()).toMatch(/^# Invoice \u202Etxt\.exe done\n/);
});

test('a one-word author of 2,000 characters stands a few lines tall in Meta, with a button that shows it all and folds it again', async () => {
  await openResultMeta(page, 2);
  const row = page.locator('[data-testid="result-meta"] [data-key="byline"]');
  const value = row.locator('dd');
  const text = row.getByTestId('meta-value');
  await row.scrollIntoViewIfNeeded();
  // A line of Meta: the title's, "Harbour report".
  const line = (await page.locator('[data-testid="result-meta"] [data-key="title"] dd').boundingBox())!.height;
  const folded = (await value.boundingBox())!.height;
  expect(folded / line).toBeLessThanOrEqual(8);
  expect(await text.textContent()).toBe(LONG_AUTHOR);
  await page.screenshot({ path: screenshotPath('ui-text-long-author-1024') });
  const more = row.getByRole('button', { name: /^Show all/ });
  await more.click();
  expect((await value.boundingBox())!.height).toBeGreaterThan(folded * 5);
  await row.getByRole('button', { name: 'Show less' }).click();
  expect((await value.boundingBox())!.height).toBe(folded);
  // Short values have no button.
  expect(await page.locator('[data-testid="result-meta"] [data-key="title"] button').count()).toBe(0);
});

test('the URL column at 1024 px shows the host and the end of the path, Size and Time giving way', async () => {
  const head = page.locator('.target-head .c-url');
  const width = (await head.boundingBox())!.width;
  const shown = (await page.locator('[data-testid="target-row"][data-idx="2"] [data-testid="row-url"]').textContent()) ?? '';
  await page.screenshot({ path: screenshotPath('ui-text-url-column-1024') });
  // The host's first 10 characters and the path's last 10 at least: at 88 px it read "127.0.….html".
  // Its port whole or left out (cutAddress), never a part of it: "127.0.0.1:39…".
  expect(shown, `${width} px`).toMatch(/^127\.0\.0\.1(?::\d+\/|…).*nnual\.html$/);
  expect(width).toBeGreaterThanOrEqual(150);
  expect(await page.locator('.target-head .c-size').isVisible()).toBe(false);
  // The selected row's size and time are in the pane's Meta.
  await openResultMeta(page, 2);
  expect(await page.locator('[data-testid="result-meta"] [data-key="bytes"] dd').textContent()).toMatch(/^[\d.]+ (?:[kMGT]B|B)$/);
  expect(pageErrors(page)).toEqual([]);
});

test("a search hit's words with an override read in the order they were written", async () => {
  await page.getByTestId('sidebar-search-input').fill('invoice');
  await expect.poll(() => page.getByTestId('search-results-all').getAttribute('data-state')).toBe('done');
  // The word is in each result's title only, which heads its hit with the word marked (its snippet was the title again).
  const marked = '[data-testid="search-hit"] :is(.snippet, .hit-title):has(mark)';
  const texts = await page.locator(marked).allTextContents();
  expect(texts.length).toBe(2);
  for (const [i, text] of texts.entries()) {
    expect(text).not.toMatch(BIDI);
    expect(text).toContain('txt.exe done');
    expect(await laidOutInOrder(marked, i)).toBe(true);
  }
  await page.screenshot({ path: screenshotPath('ui-text-override-hit-1024') });
  expect(pageErrors(page)).toEqual([]);
});

test("a failed row's error spans the Size column for a screen reader only while Size is shown", async () => {
  // With Size and Time given way (beside the pane at 1024 px) the error cell still said it
  // spanned two columns, the second one a column the table no longer had.
  await page.getByTestId('nav-new').click();
  await pasteList(page, [`${site.origin}/reports/gone.html`, `${site.origin}/reports/harbour-annual.html`].join('\n'));
  await page.getByTestId('count-valid').filter({ hasText: /^2$/ }).waitFor();
  await page.keyboard.press('Control+Enter');
  await page.locator('[data-testid="job-header"][data-status="partial"]').waitFor();
  const error = page.locator('[data-testid="target-row"][data-idx="0"] [role="gridcell"].c-detail');
  await openResultMeta(page, 1);
  expect(await page.locator('.target-head .c-size').isVisible()).toBe(false);
  await expect.poll(() => error.getAttribute('aria-colspan')).toBe(null);
  await page.setViewportSize({ width: 1920, height: 900 });
  await expect.poll(() => page.locator('.target-head .c-size').isVisible()).toBe(true);
  await expect.poll(() => error.getAttribute('aria-colspan')).toBe('2');
  await page.setViewportSize({ width: 1024, height: 768 });
  expect(pageErrors(page)).toEqual([]);
});
