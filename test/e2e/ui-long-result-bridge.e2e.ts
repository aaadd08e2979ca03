/**
 * A result of several MB opened in the pane: only the part the pane shows (1 MiB) crosses the
 * bridge, with the stored size. The whole crossed before, to show its first MiB: a 40 MB result
 * froze the window for ~9 s. Copy fetches the whole and copies all of it.
 */
import { expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import { screenshotPath } from '../helpers/chromium';
import { expectNoInternalErrorText, pageErrors, runListToDone, tapAnswers } from '../helpers/ui-app';
import { appForFile } from '../helpers/ui-file';
import { startSite, type Site } from '../helpers/sites';
import { MAX_SHOWN_TEXT } from '../../src/shared/shown';

let page: Page;
let site: Site;

/** 100,000 lines (6.9 MB as UTF-8, each with an "é"), the last one past anything the pane shows. */
const TEXT = Array.from({ length: 100_000 }, (_, i) => `Line ${i + 1}: a ledger entry of goods, café weights and the prices paid.`).join('\n');
const BYTES = Buffer.byteLength(TEXT);

/** Each answer the bridge sent the page to a call: the call's method and the answer's bytes. */
const answers: { method: string; bytes: number }[] = [];

appForFile({
  serve: async () => (site = await startSite({ '/ledger.txt': (_req, res) => res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' }).end(TEXT) })),
  app: {
    prepare: (context, app) => tapAnswers(context, app, (method, bytes) => {
      answers.push({ method, bytes });
    }),
  },
  ready: (o) => {
    page = o.page;
  },
});

const resultAnswers = (): number[] => answers.filter((a) => a.method === 'targetResult').map((a) => a.bytes);

test('a 6.9 MB result crosses the bridge as the 1 MiB the pane shows, with its size; Copy fetches and copies all of it', async () => {
  await runListToDone(page, [`${site.base}/ledger.txt`], { fromNew: true });
  // A click opens it (Enter on the row would fetch it a second time).
  await page.locator('[data-testid="target-row"][data-idx="0"]').click();
  await expect.poll(() => page.getByTestId('result-cut').textContent()).toBe('Showing the first 1.0 MB; Copy takes all of it, as does exporting the job.');
  expect(await page.getByTestId('result-view').locator('.result-toolbar .muted').first().textContent()).toBe('Text result · 6.9 MB');
  expect(await page.getByTestId('result-text').textContent()).toBe(TEXT.slice(0, MAX_SHOWN_TEXT));
  // The part as JSON (its line ends escaped) and the row's fields: a few hundred bytes besides.
  const [first, ...more] = resultAnswers();
  expect(more).toEqual([]);
  expect(first).toBeGreaterThan(MAX_SHOWN_TEXT);
  expect(first).toBeLessThan(Buffer.byteLength(JSON.stringify(TEXT.slice(0, MAX_SHOWN_TEXT))) + 4096);

  await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(page.url()).origin });
  await page.getByTestId('result-copy').click();
  await expect.poll(() => page.getByTestId('result-copy-status').textContent()).toBe('Copied 6.9 MB');
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(TEXT);
  // The whole crossed once, for Copy.
  expect(resultAnswers().slice(1)).toEqual([expect.any(Number)]);
  expect(resultAnswers()[1]).toBeGreaterThan(BYTES);
  await page.screenshot({ path: screenshotPath('ui-long-result-bridge') });
  await expectNoInternalErrorText(page);
});

test('no errors were logged in the page', () => {
  expect(pageErrors(page)).toEqual([]);
});
