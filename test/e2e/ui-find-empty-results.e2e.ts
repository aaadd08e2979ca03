/**
 * Find in a job whose every ok result came back empty: no passage answered the question, no
 * line matched the grep expression, the page had no text. Only the results' titles and
 * addresses hold words there, and it said "Nothing stored matches. Try fewer words, or a prefix
 * like revenu*.", as if other words could find something. Real fetches on loopback, the real
 * services over the bridge, real Chromium.
 */
import { beforeAll, expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import { screenshotPath } from '../helpers/chromium';
import { closedAfterAll, listenLoopback } from '../helpers/loopback';
import { articlePage, composeList, expectNothingCutOrOverlapping, pageErrors, submitToDone } from '../helpers/ui-app';
import { appForFile } from '../helpers/ui-file';

let page: Page;
const servers = closedAfterAll();
let base = '';

beforeAll(async () => {
  base = await listenLoopback(servers, (req, res) => {
    const p = new URL(req.url ?? '/', 'http://x').pathname;
    // The article's text holds "crane"; its title and address do not.
    if (p.startsWith('/article/')) return res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(articlePage(`Quarter ${p.slice(9)}`));
    if (p.startsWith('/blank/')) return res.writeHead(200, { 'content-type': 'text/plain' }).end('');
    res.writeHead(404, { 'content-type': 'text/plain' }).end('no such page');
  });
});

appForFile({
  ready: (o) => {
    page = o.page;
  },
});

/** The note under "No hits for crane" in the job on screen. */
async function noHitsNote(): Promise<string> {
  await page.getByTestId('job-search-input').fill('crane');
  await expect.poll(() => page.getByTestId('search-results-job').getAttribute('data-state')).toBe('done');
  await expect.poll(() => page.getByTestId('search-count').textContent()).toBe('No hits for crane');
  return (await page.getByTestId('search-none').textContent()) ?? '';
}

/** Runs `lines` as a new job to its end (`status`), from the composer. */
async function runJob(lines: string[], status = 'done'): Promise<void> {
  await composeList(page, lines, { fromNew: true });
  if (status === 'done') {
    await submitToDone(page);
    return;
  }
  await page.keyboard.press('Control+Enter');
  await page.locator(`[data-testid="job-header"][data-status="${status}"]`).waitFor();
}

test('Find in a job whose ok results are all empty says why for each, and what gives them text', async () => {
  await page.setViewportSize({ width: 1280, height: 800 });

  // A question no passage answers.
  await runJob([`${base}/article/1 q="zebra migration routes"`, `${base}/article/2 q="zebra migration routes"`]);
  expect(await noHitsNote()).toBe(
    "All 2 results of this job are empty: no passage of their pages answered the question, so only their titles and addresses were searched. To search the pages' text, run the list again without the question.",
  );

  // A grep no line matches, beside a page that failed.
  await runJob([`${base}/article/3 grep=zebra`, `${base}/missing`], 'partial');
  expect(await noHitsNote()).toBe(
    "This job's one result is empty: no line of its page matched the grep expression, so only its title and address were searched. To search the pages' text, run the list again without the grep expression. Not read: 1 failed.",
  );

  // A page with nothing in it.
  await runJob([`${base}/blank/1`]);
  expect(await noHitsNote()).toBe("This job's one result is empty: its page had no text, so only its title and address were searched.");

  // All three at once, at both widths.
  await runJob([`${base}/article/4 q="zebra migration routes"`, `${base}/article/5 grep=zebra`, `${base}/blank/2`]);
  for (const width of [1280, 900]) {
    await page.setViewportSize({ width, height: 800 });
    expect(await noHitsNote()).toBe(
      "All 3 results of this job are empty (1 had no passage answering the question, 1 had no line matching the grep expression, 1 had no text), so only their titles and addresses were searched. To search the pages' text, run the list again without the question or the grep expression.",
    );
    await expect.poll(() => expectNothingCutOrOverlapping(page).then(() => 'ok', (e: Error) => e.message)).toBe('ok');
    await page.screenshot({ path: screenshotPath(`ui-find-empty-results-${width}`) });
  }

  // A job with text to search keeps the old advice.
  await page.setViewportSize({ width: 1280, height: 800 });
  await runJob([`${base}/article/6`]);
  await page.getByTestId('job-search-input').fill('zebra');
  await expect.poll(() => page.getByTestId('search-results-job').getAttribute('data-state')).toBe('done');
  await expect.poll(() => page.getByTestId('search-none').textContent()).toBe('Nothing stored matches. Try fewer words, or a prefix like revenu*.');
  expect(pageErrors(page)).toEqual([]);
});
