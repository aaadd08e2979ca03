/**
 * The export dialog names the folder it writes to; a path longer than the dialog's line wraps
 * between its folders, in real Chromium at 1024 × 768. It wrapped anywhere: "…to /t" on one
 * line and "mp/sift-ui-export-…" on the next (s26 appqa).
 */
import { expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import { screenshotPath } from '../helpers/chromium';
import { expectNoInternalErrorText, pageErrors, runListToDone } from '../helpers/ui-app';
import { appForFile } from '../helpers/ui-file';
import { startSite, type Site } from '../helpers/sites';

let page: Page;
let site: Site;

const opened = appForFile({
  serve: async () => (site = await startSite()),
  viewport: { width: 1024, height: 768 },
  ready: (o) => {
    page = o.page;
  },
});

/**
 * Where each wrapped line of the element with this test id's `code` starts, after its first:
 * its offset in the path and the path from the character before it. At each of `widths` (px)
 * given to the element, or at its own width when none.
 */
const wrappedLineStarts = (testId: string, widths: number[] = []): Promise<{ at: number; s: string }[]> =>
  page.getByTestId(testId).evaluate((el, widths) => {
    const code = el.querySelector('code');
    if (!code) return [];
    const starts: { at: number; s: string }[] = [];
    const text = code.textContent ?? '';
    const range = document.createRange();
    const measure = (): void => {
      const walker = document.createTreeWalker(code, NodeFilter.SHOW_TEXT);
      let lastTop: number | undefined;
      let at = 0;
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        for (let i = 0; i < (node.textContent ?? '').length; i++, at++) {
          range.setStart(node, i);
          range.setEnd(node, i + 1);
          const top = range.getBoundingClientRect().top;
          if (lastTop !== undefined && top > lastTop + 2) starts.push({ at, s: text.slice(Math.max(0, at - 1), at + 4) });
          lastTop = top;
        }
      }
    };
    if (widths.length === 0) measure();
    for (const w of widths) {
      el.style.width = `${w}px`;
      measure();
    }
    el.style.width = '';
    return starts;
  }, widths);

test('the folder an export wrote to wraps after a slash, never inside a folder’s name', async () => {
  await runListToDone(page, [`${site.base}/article/1`]);
  await page.getByTestId('export-job').click();
  await page.getByTestId('export-start').click();
  await expect.poll(() => page.getByTestId('export-result').textContent()).toContain(opened.app.exportDir);
  const starts = await wrappedLineStarts('export-result');
  // The path is longer than what is left of the summary's line: it wraps at least once.
  expect(starts.length).toBeGreaterThan(0);
  for (const { s } of starts) expect(s, `a line starts at "${s}"`).toMatch(/^\//);
  await page.screenshot({ path: screenshotPath('ui-export-path') });
  await expectNoInternalErrorText(page);
  expect(pageErrors(page)).toEqual([]);
});

test('a zip export says it wrote one zip, and its path never leaves its leading / alone at a line end', async () => {
  await page.getByTestId('export-format').selectOption('zip');
  await page.getByTestId('export-start').click();
  await expect.poll(() => page.getByTestId('export-result').textContent()).toMatch(/\.zip \(/);
  // One target: its file, manifest.jsonl and failed.txt, in one zip. It read "Wrote 3 files",
  // then "a zip of 3 files": the two listings counted as results.
  expect(await page.getByTestId('export-result').textContent()).toMatch(/^Exported 1 target to \/.+\.zip \(.+\): a zip of 1 result file, with manifest\.jsonl and failed\.txt\.$/);
  // "…1 target to /" above "tmp/sift-ui-export-…": the root is no folder to wrap after.
  await page.screenshot({ path: screenshotPath('ui-export-zip') });
  // Where the summary leaves the path a line's last few pixels, at every width the dialog's
  // line may have (its 520 px at 1024, less in a narrower window): "…1 target to /" above
  // "tmp/sift-ui-export-…", the root being no folder to wrap after; or "…/sift-ui-export-" above
  // "hC8eTG/", inside a folder's name at its hyphen.
  const widths = Array.from({ length: 150 }, (_, i) => 180 + 2 * i);
  const starts = await wrappedLineStarts('export-result', widths);
  const wrong = new Set(starts.filter(({ at, s }) => at <= 1 || !s.startsWith('/')).map(({ s }) => s));
  expect([...wrong], 'lines start at these').toEqual([]);
  await expectNoInternalErrorText(page);
  expect(pageErrors(page)).toEqual([]);
});
