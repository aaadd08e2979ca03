import { expect, test } from 'vitest';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { openBridgedPage, screenshotPath } from '../helpers/chromium';
import { cutInCells, dropFile, dropLinks, expectNoInternalErrorText, pageErrors, type UiApp } from '../helpers/ui-app';
import { appForFile } from '../helpers/ui-file';
import { feed, startTestSite, type TestSite } from '../helpers/ui-servers';

let browser: Browser;
let site: TestSite;
let app: UiApp;
let page: Page;

appForFile({
  serve: async () => (site = await startTestSite()),
  ready: (opened) => {
    ({ app, browser, page } = opened);
  },
});

const text = (testId: string) => () => page.getByTestId(testId).first().textContent();
const jobStatus = () => page.getByTestId('job-header').getAttribute('data-status');
const rowStatus = (idx: number) => () => page.locator(`[data-testid="target-row"][data-idx="${idx}"]`).getAttribute('data-status');
const currentJobId = async (): Promise<string> => (await page.getByTestId('job-view').getAttribute('data-job-id')) ?? '';

function list(s: TestSite): string {
  return [
    '# reading list',
    `${s.url}/article/1`,
    `${s.url}/article/2 mode=text`,
    `${s.url}/data.json jq=".items[].name"`,
    `${s.url}/missing`,
    'not a url at all',
    `${s.url}/article/1`,
    `${s.url}/article/3`,
  ].join('\n');
}

test('a first-time user sees what to do: empty composer and empty job list', async () => {
  await expect.poll(text('jobs-empty')).toMatch(/No jobs yet/);
  expect(await page.getByTestId('first-time').textContent()).toMatch(/dropping a list/);
  await page.screenshot({ path: screenshotPath('ui-composer-empty') });
});

test('a dropped file shows valid, invalid and duplicate counts, with each URL’s own options', async () => {
  await dropFile(page, 'reading.txt', list(site));
  await expect.poll(text('count-valid')).toBe('5');
  expect(await text('count-invalid')()).toBe('1');
  expect(await text('count-duplicates')()).toBe('1');
  expect(await page.locator('.counts').innerText()).toMatch(/^5 valid\s+1 invalid\s+1 duplicate\s/);
  expect(await page.getByTestId('invalid-list').textContent()).toMatch(/line 6/);
  expect(await page.getByTestId('own-options').allTextContents()).toEqual(['mode=text', 'jq=.items[].name']);
  expect(await page.getByTestId('list-file').textContent()).toMatch(/reading\.txt/);
  await page.screenshot({ path: screenshotPath('ui-composer') });
});

test('preview fetches one URL with its options and renders it sanitized, with no remote image', async () => {
  await page.getByTestId('preview-button').click();
  await expect.poll(text('result-markdown')).toMatch(/Paragraph about topic 1/);
  const md = page.getByTestId('result-markdown');
  expect(await md.locator('img').count()).toBe(0);
  expect(await md.locator('a.remote-image').count()).toBe(1);
  expect(await md.locator('a[href="https://example.org/more"]').getAttribute('target')).toBe('_blank');
  expect(await page.getByTestId('result-meta').textContent()).toMatch(/Article 1/);
  // Its size as main counted it (the pane no longer encodes the content again to count it).
  expect(await page.getByTestId('result-view').locator('.result-toolbar .muted').first().textContent()).toMatch(/^Markdown result · [1-9][\d.]* (B|kB)$/);
  await page.screenshot({ path: screenshotPath('ui-preview') });
});

test('submit shows the new job; rows turn done and failed live; a failed row shows its error', async () => {
  await page.getByTestId('paste-box').or(page.getByTestId('list-file')).first().waitFor();
  await page.keyboard.press('Control+Enter');
  await expect.poll(() => page.getByTestId('job-view').count()).toBe(1);
  await expect.poll(jobStatus, { timeout: 60_000 }).toBe('partial');
  expect(await rowStatus(0)()).toBe('done');
  expect(await rowStatus(3)()).toBe('failed');
  expect(await page.locator('[data-testid="target-row"][data-idx="3"] [data-testid="row-error"]').textContent()).toMatch(/404|not found/i);
  expect(await text('stat-done')()).toBe('5 / 5');
  expect(await text('stat-failed')()).toBe('1');
  const item = page.locator(`[data-testid="job-item"][data-job-id="${await currentJobId()}"]`);
  expect(await item.getAttribute('data-status')).toBe('partial');
  await page.screenshot({ path: screenshotPath('ui-job') });
});

test('a row opens its result by click, and by arrow keys and Enter: markdown, text, JSON', async () => {
  await page.locator('[data-testid="target-row"][data-idx="0"]').click();
  await expect.poll(text('result-markdown')).toMatch(/Article 1|topic 1/);
  await page.screenshot({ path: screenshotPath('ui-result') });
  await page.getByTestId('target-grid').focus();
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowDown');
  expect(await page.getByTestId('result-pane').getAttribute('data-idx')).toBe('2');
  await page.keyboard.press('Enter');
  await expect.poll(text('result-text')).toMatch(/alpha/);
  // jq's output is a stream of JSON values, shown as is under the JSON label.
  expect(await page.getByTestId('result-view').getAttribute('data-shape')).toBe('json');
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Enter');
  await expect.poll(text('result-error')).toMatch(/404|not found/i);
  await page.screenshot({ path: screenshotPath('ui-result-failed') });
});

test('export through the UI writes the files and shows progress and the result', async () => {
  await page.getByTestId('export-job').click();
  // "Include meta" says what it adds in each format, and is not offered where it adds nothing.
  for (const [format, says] of [
    ['json', 'Include meta (a "meta" field in each file)'],
    ['combined', 'Include meta (a YAML block under each result)'],
    ['jsonl', null],
    ['csv', null],
    ['txt', null],
    ['md', 'Include meta (front matter in each Markdown file)'],
  ] as const) {
    await page.getByTestId('export-format').selectOption(format);
    const meta = page.locator('label', { has: page.getByTestId('export-include-meta') });
    if (says === null) expect(await meta.count(), format).toBe(0);
    else expect((await meta.textContent())?.trim(), format).toBe(says);
  }
  await page.getByTestId('export-include-failed').check();
  await page.getByTestId('export-start').click();
  await expect.poll(text('export-result'), { timeout: 60_000 }).toMatch(/^Exported/);
  expect(await text('export-result')()).toContain(app.exportDir);
  const files = readdirSync(app.exportDir, { recursive: true }) as string[];
  const manifest = files.find((f) => path.basename(f) === 'manifest.jsonl');
  expect(manifest).toBeDefined();
  expect(files.filter((f) => f.endsWith('.md')).length).toBeGreaterThanOrEqual(3);
  expect(readFileSync(path.join(app.exportDir, manifest!), 'utf8').trim().split('\n')).toHaveLength(5);
  await page.screenshot({ path: screenshotPath('ui-export') });
  await page.getByTestId('export-close').click();
  expect(await page.getByTestId('export-dialog').count()).toBe(0);
});

test('a running job is cancelled mid-way with Esc, and "run the rest again" fetches the rest', async () => {
  await page.getByTestId('nav-new').click();
  // 4 s a page: wide enough that the Escape lands while a page is downloading, however busy
  // the machine; the assertions below find that row rather than assume which one it is.
  await dropLinks(page, [`${site.url}/article/5`, ...[1, 2, 3, 4].map((i) => `${site.url}/slow/${i}?ms=4000`)]);
  await expect.poll(text('count-valid')).toBe('5');
  await page.getByTestId('submit').click();
  await expect.poll(rowStatus(1), { timeout: 60_000 }).toBe('running');
  const id = await currentJobId();
  await page.keyboard.press('Escape');
  await expect.poll(jobStatus, { timeout: 60_000 }).toBe('cancelled');
  await expect.poll(rowStatus(4)).toBe('pending');
  // The cancelled job will not fetch it: its badge says so, not "pending".
  const neverReached = page.locator('[data-testid="target-row"][data-idx="4"] [data-testid="status-badge"]');
  expect(await neverReached.textContent()).toBe('not fetched');
  expect(await neverReached.getAttribute('title')).toMatch(/Run the rest again/);
  expect(await rowStatus(0)()).toBe('done');
  // The row in flight when the user cancelled says so: not an internal error, not a bug.
  const failedRows = page.locator('[data-testid="target-row"][data-status="failed"]');
  await expect.poll(() => failedRows.count(), { timeout: 60_000 }).toBe(1);
  const inFlight = failedRows.locator('[data-testid="row-error"]');
  expect(await inFlight.textContent()).toMatch(/cancelled/);
  expect(await inFlight.textContent()).not.toMatch(/internal|bug/i);
  expect(await page.locator('[data-testid="target-row"][data-status="running"]').count()).toBe(0);
  // The notice counts what "run the rest again" takes: 3 never reached and the 1 stopped mid-way.
  await expect.poll(text('cancel-notice')).toBe('Cancelled: 4 not fetched (1 stopped mid-way). Run the rest again to fetch them.');
  // URLs with a query ("…/1?ms=4000") keep their end in view, as the others do.
  expect(await cutInCells(page, 'row-url')).toEqual([]);
  await page.screenshot({ path: screenshotPath('ui-cancelled') });
  // The header's lines stand its grid's gap apart: the cancel and expiry notes kept their
  // paragraph margins too, 36 px between them where the rest have 8, a blank line's height of
  // a header that takes half of a 700 px window.
  const gaps = await page.getByTestId('job-header').evaluate((h) => {
    const boxes = Array.from(h.children, (e) => e.getBoundingClientRect()).filter((b) => b.height > 1);
    return { grid: Math.round(parseFloat(getComputedStyle(h).rowGap)), between: boxes.slice(1).map((b, i) => Math.round(b.top - boxes[i]!.bottom)) };
  });
  expect(gaps.between.length).toBeGreaterThanOrEqual(5);
  expect(new Set(gaps.between)).toEqual(new Set([gaps.grid]));

  // The header counts the one stopped mid-way with the 3 never reached, not as failed, and so
  // do the job list and the export (they said "Done 2 / 5", "Failed 1" and "1 failed").
  expect(await text('stat-done')()).toBe('1 / 5');
  expect(await text('stat-failed')()).toBe('0');
  expect(await page.locator(`[data-testid="job-item"][data-job-id="${id}"]`).textContent()).toContain('1 / 5 done');
  await page.getByTestId('export-job').click();
  expect(await text('export-dialog')()).toContain('Include failed and unfetched targets (4 not fetched)');
  await page.getByTestId('export-format').selectOption('jsonl');
  await page.getByTestId('export-start').click();
  await expect.poll(text('export-result'), { timeout: 60_000 }).toMatch(/^Exported 5 targets \(4 not fetched\) to .+ \(.+\): 1 file, a line for each of the 5 targets: 1 result, and the 4 without one with why\.$/);
  expect(await text('export-result')()).toContain(`sift-${id}.jsonl`);
  await page.screenshot({ path: screenshotPath('ui-export-cancelled') });
  // Export again into the same folder: the first file stays, the second takes the next name.
  await page.getByTestId('export-start').click();
  await expect.poll(text('export-result'), { timeout: 60_000 }).toContain(`sift-${id} (2).jsonl`);
  expect(readdirSync(app.exportDir).filter((n) => n.startsWith(`sift-${id}`)).sort()).toEqual([`sift-${id} (2).jsonl`, `sift-${id}.jsonl`]);
  await page.screenshot({ path: screenshotPath('ui-export-again') });
  await page.getByTestId('export-close').click();

  await page.getByTestId('run-rest').click();
  await expect.poll(currentJobId).not.toBe(id);
  await expect.poll(async () => page.getByTestId('target-row').count()).toBeGreaterThanOrEqual(3);
  await expect.poll(jobStatus, { timeout: 60_000 }).toBe('done');
});

test('a reload mid-job brings the job list, the open job and its rows back, still live', async () => {
  await page.getByTestId('nav-new').click();
  await dropLinks(page, [`${site.url}/article/7`, ...[5, 6, 7].map((i) => `${site.url}/slow/${i}?ms=1200`)]);
  await expect.poll(text('count-valid')).toBe('4');
  await page.getByTestId('submit').click();
  await expect.poll(rowStatus(0), { timeout: 60_000 }).toBe('done');
  const id = await currentJobId();
  await page.reload();
  await expect.poll(currentJobId).toBe(id);
  await expect.poll(rowStatus(0)).toBe('done');
  expect(await page.locator('[data-testid="job-item"]').count()).toBe(4);
  await expect.poll(jobStatus, { timeout: 60_000 }).toBe('done');
  expect(await rowStatus(3)()).toBe('done');
});

test('the same list again opens the finished job and says so; "Fetch all again" fetches it anew', async () => {
  const id = await currentJobId();
  await page.getByTestId('nav-new').click();
  await dropLinks(page, [`${site.url}/article/7`, ...[5, 6, 7].map((i) => `${site.url}/slow/${i}?ms=1200`)]);
  await expect.poll(text('count-valid')).toBe('4');
  await page.getByTestId('submit').click();
  await expect.poll(currentJobId).toBe(id);
  const notices = () => page.getByTestId('notice').allTextContents();
  await expect.poll(notices).toContainEqual(expect.stringMatching(/^The same list ran as this job \(.+\); these are its results\. Fetch all again gets them anew\./));
  await page.screenshot({ path: screenshotPath('ui-job-reused') });
  await page.getByTestId('run-all').click();
  await expect.poll(currentJobId).not.toBe(id);
  await expect.poll(notices).toContainEqual(expect.stringMatching(/Started a new job with 4 targets/));
  await expect.poll(jobStatus, { timeout: 60_000 }).toBe('done');
  expect(await page.getByTestId('target-row').count()).toBe(4);
  expect(await page.locator(`[data-testid="job-item"][data-job-id="${id}"]`).count()).toBe(1);
});

test('a finished job is deleted after a confirming second click', async () => {
  const id = await currentJobId();
  await page.getByTestId('delete-job').click();
  expect(await page.getByTestId('delete-job').textContent()).toMatch(/Really/);
  await page.getByTestId('delete-job').click();
  await expect.poll(() => page.locator(`[data-testid="job-item"][data-job-id="${id}"]`).count()).toBe(0);
  await expect.poll(currentJobId).not.toBe(id);
});

// Before the next test, which lowers "URLs per job" in Settings to 2.
test('Submit right after a large list is dropped submits that list once it is read; the click is not lost', async () => {
  await page.getByTestId('nav-new').click();
  // Long enough that the click lands while the file is read and parsed, on any machine.
  const urls = Array.from({ length: 5000 }, (_, i) => `${site.url}/slow/${100 + i}?ms=1`);
  await dropFile(page, 'big-list.txt', urls.join('\n'));
  await page.getByTestId('submit').click();
  await expect.poll(() => page.getByTestId('job-view').count()).toBe(1);
  expect(await text('job-name')()).toMatch(/^big-list\.txt · 5,000 URLs$/);
  await expect.poll(text('stat-done')).toMatch(/ \/ 5,000$/);
  await page.keyboard.press('Escape');
  await expect.poll(jobStatus, { timeout: 60_000 }).toBe('cancelled');
});

test('the typed errors reach the user as clear messages', async () => {
  // Invalid list: nothing valid.
  await page.getByTestId('nav-new').click();
  await page.getByTestId('paste-box').fill('just words\nftp://example.org/file');
  await expect.poll(text('count-invalid')).toBe('2');
  // Each invalid line once: the reason that quotes it is not followed by it again.
  expect((await text('invalid-list')())?.split('ftp://example.org/file')).toHaveLength(2);
  await page.getByTestId('submit').click();
  await expect.poll(() => page.getByTestId('submit-error').getAttribute('data-code')).toBe('no_targets');

  // A bad grep, checked by main when the field is left.
  await page.getByTestId('opt-grep').fill('(unclosed');
  await page.getByTestId('opt-pages').focus();
  await expect.poll(text('options-error')).toMatch(/^Invalid grep expression "\(unclosed": a \( has no \) to close it/);
  await page.screenshot({ path: screenshotPath('ui-errors') });
  await page.getByTestId('opt-grep').fill('');

  // Too many targets, after lowering the cap in Settings.
  await page.getByTestId('nav-settings').click();
  await page.getByTestId('setting-targetsPerJob').fill('0');
  await expect.poll(text('settings-status')).toBe('Fix “URLs per job” to save.');
  await page.getByTestId('setting-targetsPerJob').fill('2');
  await page.getByTestId('setting-jobsPerCaller').fill('1');
  await page.getByTestId('settings-save').click();
  await expect.poll(() => page.locator('[data-testid="settings-status"], [data-testid="settings-error"]').allTextContents()).toEqual([expect.stringMatching(/Saved/)]);
  await page.screenshot({ path: screenshotPath('ui-settings') });

  await page.getByTestId('nav-new').click();
  await page.getByTestId('paste-box').fill([1, 2, 3].map((i) => `${site.url}/article/${i}?x=too-many`).join('\n'));
  await expect.poll(text('count-valid')).toBe('3');
  await page.getByTestId('submit').click();
  await expect.poll(() => page.getByTestId('submit-error').getAttribute('data-code')).toBe('too_many_targets');
  expect(await text('submit-error')()).toMatch(/\S/);

  // Caller busy: one live job allowed, one running.
  // A page that answers only when cancelled: the job is still live when the next submit comes.
  await page.getByTestId('paste-box').fill(`${site.url}/slow/20?ms=600000`);
  await expect.poll(text('count-valid')).toBe('1');
  await page.getByTestId('submit').click();
  await expect.poll(() => page.getByTestId('job-view').count()).toBe(1);
  const busyId = await currentJobId();
  await page.getByTestId('nav-new').click();
  await page.getByTestId('paste-box').fill(`${site.url}/article/9`);
  await expect.poll(text('count-valid')).toBe('1');
  await page.getByTestId('submit').click();
  await expect.poll(() => page.getByTestId('submit-error').getAttribute('data-code')).toMatch(/busy/);
  await page.screenshot({ path: screenshotPath('ui-busy') });

  // A bad jq on a line of the list stops the submit, naming the line, with the hint; no job is made.
  await page.locator(`[data-testid="job-item"][data-job-id="${busyId}"]`).click();
  await page.keyboard.press('Escape');
  await expect.poll(jobStatus, { timeout: 60_000 }).toBe('cancelled');
  await page.getByTestId('nav-new').click();
  await page.getByTestId('paste-box').fill(`${site.url}/data.json jq=".items[" `);
  await expect.poll(text('count-valid')).toBe('1');
  await page.getByTestId('submit').click();
  await expect.poll(text('submit-error')).toMatch(/^Line 1: jq: syntax error, unexpected end of the program at column 7 \("\["\)Check the jq program/);
  expect(await page.getByTestId('job-view').count()).toBe(0);
});

test('a dead link says what happened (nothing listens there), not "internal error"', async () => {
  // Port 1 on loopback: refused at once. The seed's wiring stores such a bad gateway as
  // "internal error" with what happened in the hint; the afterEach check reads the screen.
  await page.getByTestId('nav-new').click();
  await page.getByTestId('paste-box').fill('http://127.0.0.1:1/gone');
  await expect.poll(text('count-valid')).toBe('1');
  await page.getByTestId('submit').click();
  await expect.poll(jobStatus, { timeout: 60_000 }).toBe('failed');
  expect(await page.getByTestId('row-reason').getAttribute('data-reason')).toBe('network');
  expect(await page.getByTestId('row-error').textContent()).toMatch(/network error\s*connection refused\. Nothing listens at that address/);
  await page.locator('[data-testid="target-row"][data-idx="0"]').click();
  await expect.poll(text('result-error')).toMatch(/^Connection refused\. Nothing listens at that address/);
  await page.screenshot({ path: screenshotPath('ui-result-dead-link') });
});

test('a dropped UTF-16 list is read as text; a dropped PDF is named for what it is, not read as lines', async () => {
  await page.getByTestId('nav-new').click();
  // Windows Notepad's "Unicode" and PowerShell's `>` write lists as UTF-16 with a byte order mark.
  const lines = `${site.url}/article/1\r\n${site.url}/article/2\r\n`;
  await dropFile(page, 'notepad.txt', Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(lines, 'utf16le')]));
  await expect.poll(text('count-valid')).toBe('2');
  expect(await text('count-invalid')()).toBe('0');
  await dropFile(page, 'report.pdf', Buffer.from('%PDF-1.7\n%\xe2\xe3\xcf\xd3\n1 0 obj\n<<>>\nendobj\n', 'latin1'), 'application/pdf');
  const alert = page.locator('[data-testid="notice"][data-code="not_a_list"]');
  await expect.poll(() => alert.textContent()).toMatch(/report\.pdf is a PDF document, not a list of URLs\./);
  await page.screenshot({ path: screenshotPath('ui-drop-not-a-list') });
  // The list read before stays as it was.
  expect(await text('count-valid')()).toBe('2');
  // An error notice stays until dismissed (it sits over the composer's corner).
  await alert.getByRole('button', { name: 'Dismiss' }).click();
  await expect.poll(() => alert.count()).toBe(0);
});

test("a dropped feed is the list of its entries' pages, and a feed fetched reads as its entries", async () => {
  await page.getByTestId('nav-new').click();
  await dropFile(page, 'news.xml', feed(site.url), 'application/rss+xml');
  // The list before (the last test's) also counted 2: wait for the feed's own reading, not the count.
  await expect.poll(text('parse-summary')).toMatch(/read as xml/);
  expect(await text('count-valid')()).toBe('2');
  await page.screenshot({ path: screenshotPath('ui-composer-feed') });
  await page.getByTestId('submit').click();
  await expect.poll(jobStatus, { timeout: 60_000 }).toBe('done');
  await page.locator('[data-testid="target-row"][data-idx="1"]').click();
  await expect.poll(text('result-markdown')).toMatch(/Paragraph about topic 12/);

  await page.getByTestId('nav-new').click();
  await page.getByTestId('paste-box').fill(`${site.url}/feed.xml`);
  await expect.poll(text('count-valid')).toBe('1');
  await page.getByTestId('submit').click();
  await expect.poll(jobStatus, { timeout: 60_000 }).toBe('done');
  expect(await page.locator('[data-testid="target-row"][data-idx="0"]').textContent()).toContain('The Test Site');
  await page.locator('[data-testid="target-row"][data-idx="0"]').click();
  await expect.poll(text('result-markdown')).toMatch(/The first lines of article 11/);
  const md = page.getByTestId('result-markdown');
  expect(await md.locator('h1').textContent()).toBe('The Test Site');
  expect(await md.locator('h2').allTextContents()).toEqual(['Article 11', 'Article 12']);
  expect(await md.locator('h2 a').first().getAttribute('href')).toBe(`${site.url}/article/11`);
  expect(await md.textContent()).not.toMatch(/<\?xml|<rss|<item|track\(\)/);
  await page.screenshot({ path: screenshotPath('ui-result-feed') });
});

test('a text document reads as it is laid out, not as Markdown', async () => {
  await page.getByTestId('nav-new').click();
  await page.getByTestId('paste-box').fill(`${site.url}/prices.csv`);
  await expect.poll(text('count-valid')).toBe('1');
  await page.getByTestId('submit').click();
  await expect.poll(jobStatus, { timeout: 60_000 }).toBe('done');
  await page.locator('[data-testid="target-row"][data-idx="0"]').click();
  // As Markdown, "# prices" was a heading, "1. coffee" a list and the rows one paragraph.
  await expect.poll(text('result-text')).toBe('# prices in pence\nitem,price\ntea,300\n1. coffee,420\n');
  expect(await page.getByTestId('result-view').getAttribute('data-shape')).toBe('text');
  await page.screenshot({ path: screenshotPath('ui-result-csv') });
});

test('the activity panel shows counts and charts', async () => {
  await page.getByTestId('nav-activity').click();
  await expect.poll(text('metric-targets')).not.toBe('0');
  expect(await page.getByTestId('chart-durations').locator('rect').count()).toBeGreaterThan(0);
  await page.screenshot({ path: screenshotPath('ui-activity') });
});

test('the dark theme follows the system', async () => {
  const dark = await openBridgedPage(browser, app.bridge.url, app.bridge.wsUrl, 'dark');
  await dark.locator('[data-testid="job-item"]').first().click();
  await dark.locator('[data-testid="target-row"]').first().click();
  const bg = await dark.evaluate(() => getComputedStyle(document.body).backgroundColor);
  expect(bg).toBe('rgb(27, 29, 33)');
  await dark.screenshot({ path: screenshotPath('ui-job-dark') });
  await expectNoInternalErrorText(dark);
  await dark.getByTestId('nav-new').click();
  await dark.screenshot({ path: screenshotPath('ui-composer-dark') });
  expect(pageErrors(dark)).toEqual([]);
  await dark.context().close();
});

test('in a 900 × 600 window the target table is readable and the composer fits', async () => {
  const narrow = await openBridgedPage(browser, app.bridge.url, app.bridge.wsUrl);
  await narrow.setViewportSize({ width: 900, height: 600 });
  await narrow.locator('[data-testid="job-item"][data-status="partial"]').first().click();
  const failed = narrow.locator('[data-testid="target-row"][data-status="failed"]').first();
  await failed.click();
  await narrow.getByTestId('result-error').waitFor();
  // Beside the result pane the URL column was 30 px ("12…") and the reason chips were cut.
  const urlColumn = await narrow.locator('.target-head .c-url').evaluate((e) => e.getBoundingClientRect().width);
  expect(urlColumn).toBeGreaterThan(150);
  expect(await cutInCells(narrow, 'row-url')).toEqual([]);
  expect(await cutInCells(narrow, 'row-reason')).toEqual([]);
  const right = (sel: string) => narrow.locator(sel).first().evaluate((e) => e.getBoundingClientRect().right);
  expect(await right('[data-testid="result-pane"]')).toBeLessThanOrEqual(900);
  // In the narrower job list a long name gives way and its URL count stays whole.
  const totals = await narrow.getByTestId('job-item-total').evaluateAll((els) =>
    els.map((e) => {
      const name = (e.parentElement as HTMLElement).getBoundingClientRect();
      const total = e.getBoundingClientRect();
      return { text: e.textContent, whole: total.width > 0 && total.left >= name.left - 0.5 && total.right <= name.right + 0.5 };
    }),
  );
  expect(totals.length).toBeGreaterThan(0);
  expect(totals.filter((t) => !t.whole)).toEqual([]);
  expect(totals.every((t) => /\d URLs?$/.test(t.text ?? ''))).toBe(true);
  await narrow.screenshot({ path: screenshotPath('ui-job-narrow') });
  // The composer's two columns needed 696 px of the 650 left beside the sidebar.
  await narrow.getByTestId('nav-new').click();
  expect(await right('.composer-review')).toBeLessThanOrEqual(900);
  // Each Extract choice reads whole in its select ("markdown — the readable articl…" did not).
  const cut = await narrow.getByTestId('opt-mode').evaluate((sel: HTMLSelectElement) => {
    const style = getComputedStyle(sel);
    const ctx = document.createElement('canvas').getContext('2d') as CanvasRenderingContext2D;
    ctx.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
    // Room for the text: the box less its padding, borders and the drop-down arrow (~20 px).
    const room = sel.getBoundingClientRect().width - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight) - 2 * parseFloat(style.borderLeftWidth) - 20;
    return [...sel.options].filter((o) => ctx.measureText(o.text).width > room).map((o) => o.text);
  });
  expect(cut).toEqual([]);
  await narrow.screenshot({ path: screenshotPath('ui-composer-narrow') });
  await expectNoInternalErrorText(narrow);
  expect(pageErrors(narrow)).toEqual([]);
  await narrow.context().close();
});

test('a long pasted list: counts follow typing, the box is never written back, problems past the first 100 are counted', async () => {
  const own = await openBridgedPage(browser, app.bridge.url, app.bridge.wsUrl);
  const ownText = (testId: string) => () => own.getByTestId(testId).first().textContent();
  const lines = [
    ...Array.from({ length: 300 }, (_, i) => `${site.url}/article/${i}`),
    ...Array.from({ length: 150 }, (_, i) => `not a url ${i}`),
    ...Array.from({ length: 20 }, (_, i) => `${site.url}/article/${i}`),
  ];
  const box = own.getByTestId('paste-box');
  await box.fill(lines.join('\n'));
  await expect.poll(ownText('count-valid')).toBe('300');
  expect(await ownText('count-invalid')()).toBe('150');
  expect(await ownText('count-duplicates')()).toBe('20');
  expect(await own.locator('.counts').first().innerText()).toMatch(/\b20 duplicates\b/);
  expect(await own.getByTestId('invalid-list').locator('li').count()).toBe(100);
  expect(await ownText('invalid-list')()).toMatch(/Invalid: 150[\s\S]*and 50 more/);
  expect(await ownText('duplicate-list')()).toMatch(/Duplicates \(dropped\): 20/);

  await box.press('Control+End');
  await box.pressSequentially(`\n${site.url}/typed/1`);
  await expect.poll(ownText('count-valid')).toBe('301');
  await expect.poll(ownText('submit')).toMatch(/Fetch 301 URLs/);
  // React wrote the box's whole text back as its default (a new text node) at every key.
  expect(await box.evaluate((el) => (el as HTMLTextAreaElement).defaultValue)).toBe('');
  expect(await box.inputValue()).toBe(`${lines.join('\n')}\n${site.url}/typed/1`);

  // Typing not parsed yet does not replace a list dropped in the meantime (Submit parses what
  // is pending first): one task types and drops, so no pause can end between them.
  const dropped = `${site.url}/article/1\n${site.url}/article/2\n`;
  await own.getByTestId('drop-zone').evaluate((zone, { data, late }) => {
    const el = document.getElementById('paste-box') as HTMLTextAreaElement;
    el.value += `\n${late}`;
    el.dispatchEvent(new Event('input', { bubbles: true }));
    const dt = new DataTransfer();
    dt.items.add(new File([data], 'dropped.txt', { type: 'text/plain' }));
    zone.dispatchEvent(new DragEvent('drop', { bubbles: true, cancelable: true, dataTransfer: dt }));
  }, { data: dropped, late: `${site.url}/article/99` });
  await expect.poll(ownText('count-valid')).toBe('2');
  await own.getByTestId('submit').click();
  await own.getByTestId('job-view').waitFor();
  const id = (await own.getByTestId('job-view').getAttribute('data-job-id')) ?? '';
  const detail = await app.services.handlers.jobDetail({ id });
  expect(detail.targets.map((t) => t.url)).toEqual([`${site.url}/article/1`, `${site.url}/article/2`]);
  await expect.poll(() => own.getByTestId('job-header').getAttribute('data-status')).toBe('done');
  expect(pageErrors(own)).toEqual([]);
  await own.context().close();
});

test('no errors were logged in the page', () => {
  expect(pageErrors(page)).toEqual([]);
  expect(existsSync(app.dbPath)).toBe(true);
});
