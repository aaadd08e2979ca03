/**
 * A search hit far into a result longer than the pane shows (1 MiB): the view shows the part
 * around the hit's line, scrolled to it and highlighted, and says which part it shows. It
 * showed the first MiB only: the view stayed at the top, or marked another occurrence.
 */
import { expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import { screenshotPath } from '../helpers/chromium';
import { expectNoInternalErrorText, pageErrors, pasteList } from '../helpers/ui-app';
import { appForFile } from '../helpers/ui-file';
import { startSite, type Site } from '../helpers/sites';

let page: Page;
let site: Site;

/**
 * 30,000 lines of about 60 characters (1.8 MB): "lighthouse keeper" on line 27,000 only, and
 * "lighthouse" alone on line 12, the occurrence the view marked when it showed the first MiB.
 */
const LINES = 30_000;
const text = Array.from({ length: LINES }, (_, i) => {
  const n = i + 1;
  if (n === 12) return `Line ${n}: the old lighthouse stood on the cape, white and tall.`;
  return n === 27_000 ? `Line ${n}: the old lighthouse keeper wrote down the tides.` : `Line ${n}: a ledger entry of goods, weights and the prices paid.`;
}).join('\n');

appForFile({
  serve: async () => (site = await startSite({ '/ledger.txt': (_req, res) => res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' }).end(text) })),
  ready: (o) => {
    page = o.page;
  },
});

test("a hit past the first MiB of a long text opens at its line, highlighted, and the view says which part it shows", async () => {
  await pasteList(page, `${site.base}/ledger.txt`);
  await expect.poll(() => page.getByTestId('count-valid').textContent()).toBe('1');
  await page.keyboard.press('Control+Enter');
  await expect.poll(() => page.getByTestId('job-header').getAttribute('data-status'), { timeout: 60_000 }).toBe('done');
  await page.getByTestId('job-search-input').fill('"lighthouse keeper"');
  await expect.poll(() => page.getByTestId('search-results-job').getAttribute('data-state'), { timeout: 60_000 }).toBe('done');
  const hit = page.getByTestId('search-hit').first();
  expect(await hit.textContent()).toMatch(/#1 · line 27,?000/);
  await hit.click();
  await expect.poll(() => page.getByTestId('result-view').getAttribute('data-highlight'), { timeout: 30_000 }).toMatch(/^lighthouse keeper$/i);
  // The highlighted words are those of the cited line, in view in the pane.
  const seen = await page.evaluate(() => {
    const h = CSS.highlights.get('sift-hit');
    const range = h ? ([...h][0] as Range | undefined) : undefined;
    const pane = document.querySelector('[data-testid="result-pane"]');
    if (!range || !pane) return null;
    const r = range.getBoundingClientRect();
    const p = pane.getBoundingClientRect();
    const node = range.startContainer.textContent ?? '';
    const lineStart = node.lastIndexOf('\n', range.startOffset) + 1;
    return { inView: r.height > 0 && r.top >= p.top && r.bottom <= p.bottom, line: node.slice(lineStart, node.indexOf('\n', range.startOffset)) };
  });
  expect(seen).toEqual({ inView: true, line: 'Line 27000: the old lighthouse keeper wrote down the tides.' });
  expect(await page.getByTestId('result-cut').textContent()).toMatch(/^Showing 1\.0 MB around the match, from line [\d,]+; Copy takes all of it, as does exporting the job\.$/);
  await page.screenshot({ path: screenshotPath('ui-long-result-hit') });
  await expectNoInternalErrorText(page);
});

test('no errors were logged in the page', () => {
  expect(pageErrors(page)).toEqual([]);
});
