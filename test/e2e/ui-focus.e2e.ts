/**
 * Where the focus goes after an action taken from the keyboard, and what a screen reader hears
 * of its outcome, in real Chromium against the real services: a control that turns busy or goes
 * away must not drop the focus to the page's body (the next Tab would start over in the
 * sidebar), and a result that appears elsewhere on screen is said. The tests run in order on
 * one page: each starts where the one before left off.
 */
import { expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import { focused } from '../helpers/a11y';
import { screenshotPath } from '../helpers/chromium';
import { appForFile } from '../helpers/ui-file';
import { startTestSite, type TestSite } from '../helpers/ui-servers';

let site: TestSite;
let page: Page;
appForFile({
  serve: async () => (site = await startTestSite()),
  ready: (opened) => {
    page = opened.page;
  },
});

const text = (testId: string) => () => page.getByTestId(testId).first().textContent();
const focusedId = async () => (await focused(page)).id;
const jobStatus = () => page.getByTestId('job-header').getAttribute('data-status');

/** Presses Tab until the control with this test id has the focus (at most `max` presses). */
async function tabTo(testId: string, max = 40): Promise<void> {
  for (let i = 0; i < max && (await focusedId()) !== testId; i++) await page.keyboard.press('Tab');
  expect(await focusedId()).toBe(testId);
}

test('a list typed in is counted aloud in one sentence, not as a bare number that changed', async () => {
  await page.getByTestId('jobs-empty').waitFor();
  await page.getByTestId('paste-box').focus();
  await page.keyboard.insertText(`${site.url}/article/1\nnot a url\n${site.url}/article/1\n`);
  await expect.poll(text('parse-announce')).toBe('1 valid URL, 1 invalid, 1 duplicate dropped.');
  await page.keyboard.insertText(`${site.url}/article/2`);
  await expect.poll(text('parse-announce')).toBe('2 valid URLs, 1 invalid, 1 duplicate dropped.');
  expect(await page.getByTestId('parse-announce').getAttribute('role')).toBe('status');
  // The counts themselves are not a live region: there each number changed alone ("2").
  expect(await page.getByTestId('parse-summary').evaluate((e) => !!e.closest('[aria-live], [role="status"], [role="alert"]'))).toBe(false);
  await page.keyboard.press('Control+a');
  await page.keyboard.press('Delete');
  await expect.poll(() => page.getByTestId('parse-summary').count()).toBe(0);
});


test('Preview pressed with Enter keeps the focus on it while it fetches, and says when the result is there', async () => {
  await page.getByTestId('jobs-empty').waitFor();
  await page.getByTestId('paste-box').focus();
  await page.keyboard.insertText(`${site.url}/article/1\n${site.url}/article/2\n${site.url}/missing`);
  await expect.poll(text('count-valid')).toBe('3');
  await tabTo('preview-button');
  await page.keyboard.press('Enter');
  expect(await focusedId()).toBe('preview-button');
  await expect.poll(text('result-markdown')).toMatch(/topic 1/);
  expect(await focused(page)).toMatchObject({ id: 'preview-button', aria: 'button "Preview"' });
  expect(await page.getByTestId('preview-announce').getAttribute('role')).toBe('status');
  expect(await page.getByTestId('preview-announce').textContent()).toBe('Preview ready: Article 1.');
  // The next Tab goes on from the button, not from the top of the window.
  await page.keyboard.press('Tab');
  expect(await focusedId()).toBe('preview-render-button');
});

test('Cancel pressed with Enter hands the focus to "Run the rest again", which took its place', async () => {
  await page.getByTestId('paste-box').focus();
  await page.keyboard.press('Control+a');
  await page.keyboard.insertText([`${site.url}/article/3`, ...[1, 2].map((i) => `${site.url}/slow/${i}?ms=120000`)].join('\n'));
  await expect.poll(text('count-valid')).toBe('3');
  await page.keyboard.press('Control+Enter');
  await expect.poll(() => page.locator('[data-testid="target-row"][data-status="running"]').count(), { timeout: 60_000 }).toBe(1);
  await page.getByTestId('cancel-job').focus();
  await page.keyboard.press('Enter');
  await expect.poll(jobStatus, { timeout: 60_000 }).toBe('cancelled');
  await expect.poll(focusedId).toBe('run-rest');
  expect((await focused(page)).outlined).toBe(true);
});

test('the sidebar names a job by its words once: the bar beside "1 / 3 done" is not read as another number', async () => {
  const item = page.getByTestId('job-item').first();
  const tree = await item.ariaSnapshot();
  expect(tree).not.toContain('progressbar');
  const name = /^- button "(.*)"/.exec(tree)?.[1] ?? '';
  expect(name).toMatch(/ \d+ \/ 3 done$/);
  expect(name).not.toMatch(/ (\d+) \1 \/ 3 done$/);
});

test('an export started with Enter keeps the focus on its button and says what it wrote', async () => {
  await page.getByTestId('export-job').focus();
  await page.keyboard.press('Enter');
  await page.getByTestId('export-dialog').waitFor();
  await tabTo('export-start', 10);
  await page.keyboard.press('Enter');
  // The page cancelled mid-way is not fetched, as the header counts it, not failed.
  await expect.poll(text('export-announce')).toMatch(/^Exported 3 targets \(2 not fetched\) to \/.+ \(.+\): 1 result file, with manifest\.jsonl and failed\.txt; .+\.$/);
  expect(await page.getByTestId('export-announce').getAttribute('role')).toBe('status');
  expect(await focused(page)).toMatchObject({ id: 'export-start', aria: 'button "Export again…"' });
  await page.screenshot({ path: screenshotPath('focus-export-done') });
  await page.keyboard.press('Escape');
  await expect.poll(() => page.getByTestId('export-dialog').count()).toBe(0);
  expect(await focusedId()).toBe('export-job');
});

test('find in this job says how many hits it found, as a status a screen reader reads', async () => {
  await page.getByTestId('job-search-input').focus();
  await page.keyboard.type('topic 3');
  await page.keyboard.press('Enter');
  await expect.poll(() => page.getByTestId('search-hit').count()).toBe(1);
  expect(await page.locator('[data-testid="search-results-job"] [role="status"]').textContent()).toBe('1 hit for topic 3');
  expect(await focusedId()).toBe('job-search-input');
  await page.keyboard.press('Escape');
});

test('"Show all" pressed with Enter hands the focus to the status filter it undid, not to the page\'s start', async () => {
  // The job's one page that finished (the one cancelled mid-way is not "Failed", as the header counts).
  await page.getByTestId('filter-status').selectOption('done');
  await expect.poll(text('filter-count')).toBe('1 of 3');
  await page.getByTestId('filter-status').focus();
  await tabTo('filter-clear', 3);
  await page.keyboard.press('Enter');
  await expect.poll(() => page.getByTestId('filter-clear').count()).toBe(0);
  expect(await focused(page)).toMatchObject({ id: 'filter-status', aria: expect.stringMatching(/^combobox "Show targets with status"/) });
});

test('"Open result" pressed with Enter hands the focus to the result pane it filled', async () => {
  await page.getByTestId('target-grid').focus();
  await page.keyboard.press('Home');
  const open = page.getByRole('button', { name: /^Open result/ });
  await open.focus();
  await page.keyboard.press('Enter');
  await expect.poll(text('result-markdown')).toMatch(/topic 3/);
  expect(await page.evaluate(() => !!document.activeElement?.closest('[data-testid="result-pane"]'))).toBe(true);
  expect((await focused(page)).outlined).toBe(true);
});


test('Save and Undo changes pressed with Enter keep the focus, though each has nothing left to do', async () => {
  await page.getByTestId('nav-settings').focus();
  await page.keyboard.press('Enter');
  await page.getByTestId('settings-panel').waitFor();
  const ttl = page.getByTestId('setting-ttlHours');
  await ttl.focus();
  await page.keyboard.press('Control+a');
  await page.keyboard.type('48');
  await tabTo('settings-save');
  await page.keyboard.press('Enter');
  await expect.poll(text('settings-status')).toBe('Saved. New jobs use these settings.');
  expect(await focused(page)).toMatchObject({ id: 'settings-save', aria: 'button "Save" [disabled]' });
  expect(await ttl.inputValue()).toBe('48');
  // A press of the unavailable Save saves nothing and leaves the focus where it is.
  await page.keyboard.press('Enter');
  expect(await focusedId()).toBe('settings-save');
  await ttl.focus();
  await page.keyboard.press('Control+a');
  await page.keyboard.type('72');
  await page.getByTestId('settings-undo').focus();
  await page.keyboard.press('Enter');
  expect(await ttl.inputValue()).toBe('48');
  expect(await focused(page)).toMatchObject({ id: 'settings-undo', aria: 'button "Undo changes" [disabled]' });
});

test('a row of a long job is said with its place in the whole table, though only the rows in view exist', async () => {
  await page.getByTestId('nav-new').focus();
  await page.keyboard.press('Enter');
  await page.getByTestId('paste-box').focus();
  await page.keyboard.insertText(Array.from({ length: 60 }, (_, i) => `${site.url}/article/${i + 10}`).join('\n'));
  await expect.poll(text('count-valid')).toBe('60');
  await page.keyboard.press('Control+Enter');
  await expect.poll(jobStatus, { timeout: 90_000 }).toBe('done');
  await page.getByTestId('target-grid').focus();
  await page.keyboard.press('End');
  const grid = page.getByTestId('target-grid');
  expect(await grid.getAttribute('aria-rowcount')).toBe('61');
  expect(await page.locator('[data-testid="target-row"]').count()).toBeLessThan(60);
  const last = page.locator('[data-testid="target-row"][aria-selected="true"]');
  expect(await last.getAttribute('data-idx')).toBe('59');
  expect(await last.getAttribute('aria-rowindex')).toBe('61');
  expect(await grid.locator('[role="row"]').first().getAttribute('aria-rowindex')).toBe('1');
});
