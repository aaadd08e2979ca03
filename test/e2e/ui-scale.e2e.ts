/**
 * The app with a database grown large, through the real services and the bridge in Chromium.
 */
import path from 'node:path';
import { expect, test } from 'vitest';
import { openStore } from '../../src/main/store';
import { LISTED_JOBS, MAX_SUBMIT_TARGETS, type SiftApi } from '../../src/shared/ipc/contract';
import { expectNoInternalErrorText, pageErrors, pasteList, tempDir } from '../helpers/ui-app';
import { manyJobs } from '../helpers/big-job';
import { appsForFile } from '../helpers/ui-file';
import { startTestSite, type TestSite } from '../helpers/ui-servers';
import { SHOWN_HITS } from '../../src/shared/search';
import { formatBytes } from '../../src/shared/bytes';

let site: TestSite;
const apps = appsForFile({ serve: async () => (site = await startTestSite()) });

/** A new data folder whose database holds `n` one-target jobs, the oldest first (manyJobs). */
function dataDirWithJobs(n: number): { dataDir: string; ids: string[] } {
  const dataDir = tempDir('sift-ui-scale-');
  return { dataDir, ids: manyJobs(path.join(dataDir, 'sift.db'), n) };
}

test('the job list says how many older jobs it does not list', async () => {
  // Two more than the list holds: the two oldest were left out, and nothing said so.
  const { dataDir, ids } = dataDirWithJobs(LISTED_JOBS + 2);
  const { page } = await apps.open({ dataDir });
  const items = page.getByTestId('job-item');
  await expect.poll(() => items.count()).toBe(LISTED_JOBS);
  // The list and its note come from one answer: once the items are drawn, so is the note.
  expect(await page.getByTestId('jobs-unlisted').count()).toBe(1);
  expect(await page.getByTestId('jobs-unlisted').textContent()).toBe(
    `2 older jobs are not listed here: only the newest ${LISTED_JOBS.toLocaleString('en-US')} are. Search finds their results; deleting jobs you no longer need brings older ones into the list.`,
  );
  expect(await items.first().getAttribute('data-job-id')).toBe(ids.at(-1));
  expect(await items.last().getAttribute('data-job-id')).toBe(ids[2]);
  // The note comes last in the list, where someone scrolling down for an older job arrives.
  expect(await page.getByTestId('job-list').evaluate((ul) => ul.lastElementChild?.getAttribute('data-testid'))).toBe('jobs-unlisted');
  expect(pageErrors(page)).toEqual([]);
  await expectNoInternalErrorText(page);
});

test('a list of exactly as many jobs as it holds has no such note', async () => {
  const { dataDir } = dataDirWithJobs(LISTED_JOBS);
  const { page } = await apps.open({ dataDir });
  await expect.poll(() => page.getByTestId('job-item').count()).toBe(LISTED_JOBS);
  expect(await page.getByTestId('jobs-unlisted').count()).toBe(0);
});

test('a list longer than Sift reads at once is not submitted in part', async () => {
  // One URL past what the composer reads, with a job cap that would take all it read: the
  // first 100,000 were submitted, the job ended "done", and the last URL was never fetched.
  const { page } = await apps.open({ settings: { targetsPerJob: MAX_SUBMIT_TARGETS } });
  const n = MAX_SUBMIT_TARGETS + 1;
  await pasteList(page, Array.from({ length: n }, (_, i) => `http://127.0.0.1:9/page/${i}`).join('\n'));
  await expect.poll(() => page.getByTestId('parse-truncated').count(), { timeout: 120_000 }).toBe(1);
  await page.getByTestId('submit').click();
  // Either answer to the click: the job's view (the part submitted) or a message.
  await page.waitForFunction(() => location.hash.startsWith('#job/') || !!document.querySelector('[data-testid="submit-error"]'));
  expect(await page.evaluate(() => location.hash)).toBe('');
  expect(await page.getByTestId('submit-error').getAttribute('data-code')).toBe('list_too_long');
  expect(await page.getByTestId('submit-error').innerText()).toMatch(/only its first 100,000 URLs were read, so none of it was submitted/);
  // The click is answered by the message alone: no job was made of the list's first part.
  const listed = await page.evaluate(async () => (await (window as unknown as { sift: SiftApi }).sift.listJobs()).jobs.length);
  expect(listed).toBe(0);
  expect(pageErrors(page)).toEqual([]);
});

test('a search matching more results than it shows says so', async () => {
  const { page } = await apps.open();
  // Every article holds "readable"; one more of them than the box shows.
  const n = SHOWN_HITS + 1;
  await pasteList(page, Array.from({ length: n }, (_, i) => `${site.url}/article/${i + 1}`).join('\n'));
  await expect.poll(() => page.getByTestId('count-valid').textContent()).toBe(String(n));
  await page.getByTestId('submit').click();
  await expect.poll(() => page.getByTestId('job-header').getAttribute('data-status'), { timeout: 120_000 }).toBe('done');
  await page.getByTestId('job-search-input').fill('readable');
  await expect.poll(() => page.getByTestId('search-results-job').getAttribute('data-state')).toBe('done');
  // It read "50 hits for readable": a search matching thousands of pages looked like one matching 50.
  expect(await page.getByTestId('search-count').textContent()).toBe(`The best ${SHOWN_HITS} hits for readable; more results match: add a word to narrow them`);
  expect(await page.getByTestId('search-hit').count()).toBe(SHOWN_HITS);
  // One word more, and the one page it finds is counted as before.
  await page.getByTestId('job-search-input').fill('readable "article 7"');
  await expect.poll(() => page.getByTestId('search-count').textContent()).toBe('1 hit for readable "article 7"');
  expect(pageErrors(page)).toEqual([]);
  await expectNoInternalErrorText(page);
});

test("a result of 6 MB opens without the page encoding all of it again to say its size", async () => {
  // A long page stored as a batch leaves it: em dashes make its UTF-8 bytes more than its characters.
  const para = 'The pilot reads the chart — by the light of the beacon — as the tide comes in.\n\n';
  const content = `# A very long result\n\n${para.repeat(Math.ceil((6 * 1024 * 1024) / para.length))}`;
  const bytes = Buffer.byteLength(content);
  const dataDir = tempDir('sift-ui-scale-');
  const store = openStore(path.join(dataDir, 'sift.db'));
  const now = Date.now();
  store.insertJob({ id: 'long000000000001', caller: 'desktop', callerClass: 'desktop/batch', idemKey: 'long', targetsTotal: 1, nowMs: now, leaseExpires: now + 24 * 3600_000 }, [{ url: 'https://example.test/long' }]);
  store.transition('long000000000001', 'queued', 'running', '', now);
  store.startTarget('long000000000001', 0, now);
  store.finishTarget('long000000000001', 0, { status: 'done', result: { content, meta: { title: 'Long', status: 200, content_type: 'text/html' } }, error: '', hint: '', bytes, title: 'Long', errorStatus: 0 }, now, now + 24 * 3600_000);
  store.transition('long000000000001', 'running', 'done', '', now);
  store.close();
  const { page } = await apps.open({ dataDir });
  // The longest text the page encodes as UTF-8.
  await page.evaluate(() => {
    const w = window as unknown as { longestEncoded: number };
    w.longestEncoded = 0;
    const encode = TextEncoder.prototype.encode;
    TextEncoder.prototype.encode = function (this: TextEncoder, input?: string) {
      w.longestEncoded = Math.max(w.longestEncoded, input?.length ?? 0);
      return encode.call(this, input);
    };
  });
  await page.getByTestId('job-item').first().click();
  await page.getByTestId('target-row').first().click();
  await page.getByTestId('result-cut').waitFor();
  // The size is the one the job stored when the result came in, its UTF-8 bytes, not its characters.
  expect(formatBytes(bytes)).not.toBe(formatBytes(content.length));
  expect(await page.getByTestId('result-view').locator('.result-toolbar .muted').first().textContent()).toBe(`Markdown result · ${formatBytes(bytes)}`);
  // Before, the pane encoded the whole result on the page's one thread to count its bytes:
  // 2 to 5.5 s of a 40 MB result's 9.6 s longest task on a loaded 2-core machine.
  expect(await page.evaluate(() => (window as unknown as { longestEncoded: number }).longestEncoded)).toBeLessThan(content.length);
  expect(pageErrors(page)).toEqual([]);
  await expectNoInternalErrorText(page);
});
