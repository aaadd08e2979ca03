/**
 * The export dialog names the folder it writes to; a path longer than the dialog's line wraps
 * between its folders, in real Chromium at 1024 × 768. It wrapped anywhere: "…to /t" on one
 * line and "mp/sift-ui-export-…" on the next (s26 appqa).
 */
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import { screenshotPath } from '../helpers/chromium';
import { expectNoInternalErrorText, openApp, pageErrors, runListToDone, type OpenedApp } from '../helpers/ui-app';
import { startSite, type Site } from '../helpers/sites';

let opened: OpenedApp;
let page: Page;
let site: Site;

beforeAll(async () => {
  site = await startSite();
  opened = await openApp();
  page = opened.page;
  await page.setViewportSize({ width: 1024, height: 768 });
});

afterAll(async () => {
  await opened?.close();
  await site?.close();
});

/** What each wrapped line of the element with this test id's `code` starts with, after its first. */
const wrappedLineStarts = (testId: string): Promise<string[]> =>
  page.getByTestId(testId).locator('code').evaluate((code) => {
    const starts: string[] = [];
    const text = code.textContent ?? '';
    const walker = document.createTreeWalker(code, NodeFilter.SHOW_TEXT);
    const range = document.createRange();
    let lastTop: number | undefined;
    let at = 0;
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      for (let i = 0; i < (node.textContent ?? '').length; i++, at++) {
        range.setStart(node, i);
        range.setEnd(node, i + 1);
        const top = range.getBoundingClientRect().top;
        if (lastTop !== undefined && top > lastTop + 2) starts.push(text.slice(Math.max(0, at - 1), at + 4));
        lastTop = top;
      }
    }
    return starts;
  });

test('the folder an export wrote to wraps after a slash, never inside a folder’s name', async () => {
  await runListToDone(page, [`${site.base}/article/1`]);
  await page.getByTestId('export-job').click();
  await page.getByTestId('export-start').click();
  await expect.poll(() => page.getByTestId('export-result').textContent()).toContain(opened.app.exportDir);
  const starts = await wrappedLineStarts('export-result');
  // The path is longer than what is left of the summary's line: it wraps at least once.
  expect(starts.length).toBeGreaterThan(0);
  for (const s of starts) expect(s, `a line starts at "${s}"`).toMatch(/^\//);
  await page.screenshot({ path: screenshotPath('ui-export-path') });
  await expectNoInternalErrorText(page);
  expect(pageErrors(page)).toEqual([]);
});
