/**
 * Honest outcomes in the app (issue 12), in real Chromium over the real services: a job
 * with one real captured page of each class shows why each failed, filters by reason,
 * retries one bucket with recover on, and Activity charts the reasons.
 */
import { beforeAll, expect, test } from 'vitest';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { screenshotPath } from '../helpers/chromium';
import { closedAfterAll, listenLoopback } from '../helpers/loopback';
import { axOf } from '../helpers/a11y';
import { cutInCells, dropFile, pageErrors } from '../helpers/ui-app';
import { appForFile } from '../helpers/ui-file';

const FIX = path.resolve(__dirname, '../fixtures/outcomes');
const page$ = (rel: string): string => readFileSync(path.join(FIX, rel), 'utf8');

let page: Page;
// Closed after the app (its afterAll is registered before appForFile's).
const servers = closedAfterAll();
let base = '';
let catchAll = '';

beforeAll(async () => {
  const routes: Record<string, [number, string]> = {
    '/news/challenge-page': [503, page$('batch/cf_uam_just_a_moment_2021.html')],
    '/account/overview': [200, page$('batch/login_bank_of_ireland_365.html')],
    '/consent/before-you-continue': [200, page$('batch/consent_yahoo_oath_before_you_continue.html')],
    '/app/dashboard': [200, page$('batch/needs_js_cra_react_app.html')],
    '/about/example': [200, page$('pages/ok_example_domain_short_2014.html')],
    '/snapshot/challenge-page': [200, page$('pages/ok_example_domain_short_2014.html')],
    '/news/tariffs-explained': [200, page$('pages/ok_teaser_trade_news_opening_then_signin_form.html')],
  };
  base = await listenLoopback(servers, (req, res) => {
    const p = new URL(req.url ?? '/', 'http://x').pathname;
    if (p === '/wayback/available') {
      // The archive service: it has a snapshot of every page, on this same loopback site.
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ archived_snapshots: { closest: { available: true, url: `${base}/snapshot/challenge-page`, timestamp: '20240101000000', status: '200' } } }));
      return;
    }
    // A site busy for good, asking for 30 s: a target that waits while the test looks at its row.
    if (p === '/busy/wait') return res.writeHead(429, { 'content-type': 'text/plain', 'retry-after': '30' }).end('slow down');
    const r = routes[p];
    if (!r) return res.writeHead(404, { 'content-type': 'text/plain' }).end('no such page');
    res.writeHead(r[0], { 'content-type': 'text/html; charset=utf-8' }).end(r[1]);
  });
  // A site that answers every path with 200 and its not-found page.
  const notFound = page$('batch/soft404_harvest.html');
  catchAll = await listenLoopback(servers, (_req, res) => res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(notFound), '127.0.0.2');
  // Only the two loopback sites are allowed, not every private address: a target on any other
  // host of this computer is refused as it is on a user's machine (no traffic is sent).
});

// Every reason is on screen here: appForFile's read after each test finds each in its words, none as its code ("needs_js").
appForFile({
  app: () => ({ settings: { archiveService: `${base}/wayback/available`, allowPrivate: false, allowHosts: ['127.0.0.1', '127.0.0.2'] } }),
  ready: (o) => {
    page = o.page;
  },
});

const text = (testId: string) => () => page.getByTestId(testId).first().textContent();
const jobStatus = () => page.getByTestId('job-header').getAttribute('data-status');
const currentJobId = async (): Promise<string> => (await page.getByTestId('job-view').getAttribute('data-job-id')) ?? '';
const shownReasons = () => page.getByTestId('row-reason').evaluateAll((els) => els.map((e) => e.getAttribute('data-reason')));

test('a job with one page of each class shows why each failed, named after its list', async () => {
  const urls = [
    `${base}/news/challenge-page`,
    `${base}/account/overview`,
    `${base}/consent/before-you-continue`,
    `${catchAll}/blog/2019/a-post-that-moved`,
    `${base}/app/dashboard`,
    `${base}/about/example`,
  ];
  await dropFile(page, 'reading-list.txt', urls.join('\n'));
  await expect.poll(text('count-valid')).toBe('6');
  await page.getByTestId('submit').click();
  await expect.poll(jobStatus, { timeout: 60_000 }).toBe('partial');
  await expect.poll(() => page.getByTestId('reason-chip').count()).toBe(5);
  const chips = await page.getByTestId('reason-chip').evaluateAll((els) => els.map((e) => e.getAttribute('data-reason')).sort());
  expect(chips).toEqual(['challenge', 'consent', 'login', 'needs_js', 'soft404']);
  expect(await text('reason-summary')()).toMatch(/anti-bot check\s*1/);
  expect(await shownReasons()).toEqual(['challenge', 'login', 'consent', 'soft404', 'needs_js']);
  // The job is named after its list, in the header and in the job list.
  expect(await text('job-name')()).toBe('reading-list.txt · 6 URLs');
  const item = page.locator(`[data-testid="job-item"][data-job-id="${await currentJobId()}"] [data-testid="job-item-name"]`);
  expect(await item.textContent()).toBe('reading-list.txt · 6 URLs');
  // The URL column shows host and path, the full URL on hover.
  const url0 = page.locator('[data-testid="target-row"][data-idx="0"] [data-testid="row-url"]');
  // No scheme; the host's start and the path's end stay, the middle gives way.
  const shown = (await url0.textContent()) ?? '';
  expect(shown).not.toContain('http');
  // Its port whole or left out (cutAddress), never a part of it: "127.0.0.1:39…".
  expect(shown).toMatch(/^127\.0\.0\.1(?::\d+\/|…)/);
  expect(shown.endsWith('-page')).toBe(true);
  expect(await url0.getAttribute('title')).toBe(`${base}/news/challenge-page`);
  expect(await page.locator('[data-testid="target-row"][data-idx="5"]').getAttribute('data-status')).toBe('done');
  // The one page that is ok is a short one: ok, with the warning that says so, in its row and in the header.
  expect(await page.getByTestId('row-warning').evaluateAll((els) => els.map((e) => e.getAttribute('data-warning')))).toEqual(['thin']);
  expect(await page.locator('[data-testid="target-row"][data-idx="5"] [data-testid="row-warning"]').textContent()).toBe('thin page');
  expect(await text('warning-summary')()).toMatch(/^OK with warnings\s*thin page\s*1$/);
  expect(await cutInCells(page, 'row-warning')).toEqual([]);
  // Each row's reason is readable whole ("not found (soft 404)", not "not found (so…"), and no
  // URL runs past its column: the middle-cut text is sized to the column, so CSS never cuts its end.
  expect(await cutInCells(page, 'row-reason')).toEqual([]);
  expect(await cutInCells(page, 'row-url')).toEqual([]);
  await page.screenshot({ path: screenshotPath('ui-outcomes-job') });
  // Each failed row's pane names its reason as the row's chip does, and says the row's words:
  // it read the stored code word instead ("challenge: the site answered…", no chip). As the
  // pane's headline the words start a sentence.
  const pane = page.getByTestId('result-pane');
  for (const [idx, reason, words] of [
    [0, 'anti-bot check', /^The site answered with an anti-bot check instead of the page/],
    [1, 'sign-in wall', /^The site answered with a sign-in page/],
    [3, 'not found (soft 404)', /^The page says it does not exist/],
  ] as const) {
    await page.locator(`[data-testid="target-row"][data-idx="${idx}"]`).click();
    await expect.poll(() => pane.getAttribute('data-idx')).toBe(String(idx));
    expect(await pane.getByTestId('result-reason').textContent()).toBe(reason);
    const row = page.locator(`[data-testid="target-row"][data-idx="${idx}"] [data-testid="row-reason"]`);
    expect(await row.textContent()).toBe(reason);
    expect(await pane.getByTestId('result-error').locator('strong').textContent()).toMatch(words);
    // On one line beside the badge, the URL giving way: "not found (soft 404)" wrapped in two.
    const [chipBox, badgeBox] = [await pane.getByTestId('result-reason').boundingBox(), await pane.getByTestId('status-badge').boundingBox()];
    expect(chipBox?.height ?? 0).toBeLessThan(1.5 * (badgeBox?.height ?? 0));
  }
  await page.screenshot({ path: screenshotPath('ui-outcomes-pane-reason') });
});

test('the table filters by reason and by status', async () => {
  await page.locator('[data-testid="reason-chip"][data-reason="soft404"]').click();
  await expect.poll(() => page.getByTestId('target-row').count()).toBe(1);
  expect(await page.getByTestId('target-row').first().getAttribute('data-idx')).toBe('3');
  expect(await text('filter-count')()).toBe('1 of 6');
  await page.screenshot({ path: screenshotPath('ui-outcomes-filter-soft404') });

  await page.getByTestId('filter-reason').selectOption('challenge');
  await expect.poll(shownReasons).toEqual(['challenge']);
  await page.getByTestId('filter-clear').click();
  await page.getByTestId('filter-status').selectOption('done');
  await expect.poll(() => page.getByTestId('target-row').count()).toBe(1);
  expect(await page.getByTestId('target-row').first().getAttribute('data-idx')).toBe('5');
  await page.getByTestId('filter-status').selectOption('failed');
  await expect.poll(() => page.getByTestId('target-row').count()).toBe(5);
  await page.getByTestId('filter-clear').click();
  await expect.poll(() => page.getByTestId('target-row').count()).toBe(6);
  // The warning's chip shows the pages that are ok with it, and takes the reason's filter off.
  await page.locator('[data-testid="reason-chip"][data-reason="login"]').click();
  await page.locator('[data-testid="warning-chip"][data-warning="thin"]').click();
  await expect.poll(() => page.getByTestId('target-row').count()).toBe(1);
  expect(await page.getByTestId('target-row').first().getAttribute('data-idx')).toBe('5');
  expect(await page.locator('[data-testid="warning-chip"]').getAttribute('aria-pressed')).toBe('true');
  // Named with what its number counts: "thin page 1" read like a page number.
  expect(await axOf(page, '[data-testid="warning-chip"]')).toMatchObject({ name: expect.stringMatching(/^[a-z ]+: 1 target$/) });
  expect(await page.locator('[data-testid="reason-chip"][aria-pressed="true"]').count()).toBe(0);
  await page.locator('[data-testid="warning-chip"][data-warning="thin"]').click();
  await expect.poll(() => page.getByTestId('target-row').count()).toBe(6);
});

test('"Retry these" starts a fresh job from one reason, with recover on, and the archive has the page', async () => {
  const first = await currentJobId();
  await page.locator('[data-testid="reason-chip"][data-reason="challenge"]').click();
  await page.getByTestId('retry-reason').click();
  await expect.poll(() => page.getByTestId('retry-dialog').count()).toBe(1);
  expect(await page.getByTestId('retry-recover').isChecked()).toBe(true);
  // A screen reader says the dialog's title and, as its description, what usually helps.
  expect(await axOf(page, '[data-testid="retry-dialog"]')).toMatchObject({ name: 'Retry 1 target that failed as anti-bot check', description: 'Anti-bot checks rarely clear on their own; an archived copy often has the page.' });
  await page.screenshot({ path: screenshotPath('ui-outcomes-retry-dialog') });
  await page.getByTestId('retry-start').click();
  await expect.poll(currentJobId).not.toBe(first);
  await expect.poll(jobStatus, { timeout: 30_000 }).toBe('done');
  expect(await page.getByTestId('target-row').count()).toBe(1);
  expect(await text('job-name')()).toBe('retry of reading-list.txt (anti-bot check) · 1 URL');
  // The row and the summary say it is the archive's copy, not the live page.
  expect(await page.locator('[data-testid="target-row"][data-idx="0"] [data-testid="row-warning"][data-warning="recovered"]').textContent()).toBe('archived copy');
  expect(await text('warning-summary')()).toMatch(/archived copy\s*1/);
  // Its tooltip names the rows of the Meta table below, not the meta fields' own names.
  const why = await page.locator('[data-testid="target-row"][data-idx="0"] [data-testid="row-warning"][data-warning="recovered"]').getAttribute('title');
  expect(why).toMatch(/Archived at.*Archived copy/);
  expect(why).not.toMatch(/snapshot_/);
  await page.locator('[data-testid="target-row"][data-idx="0"]').click();
  await expect.poll(text('result-meta')).toMatch(/From an archived copy\s*yes/);
  await page.screenshot({ path: screenshotPath('ui-outcomes-retried') });
});

test('Activity charts why targets failed', async () => {
  await page.getByTestId('nav-activity').click();
  await expect.poll(text('chart-reasons')).toMatch(/anti-bot check/);
  const labels = await page.getByTestId('chart-reasons').locator('text.chart-label').allTextContents();
  expect(labels).toEqual(expect.arrayContaining(['anti-bot check', 'sign-in wall', 'consent wall', 'not found (soft 404)', 'needs JavaScript']));
  await page.screenshot({ path: screenshotPath('ui-outcomes-activity') });
  expect(pageErrors(page)).toEqual([]);
});

test('a target waiting on a busy site says so on its row, counting down, until it is cancelled', async () => {
  await page.getByTestId('nav-new').click();
  await dropFile(page, 'busy.txt', `${base}/busy/wait`);
  await expect.poll(text('count-valid')).toBe('1');
  await page.getByTestId('submit').click();
  const waiting = page.locator('[data-testid="target-row"][data-idx="0"] [data-testid="row-waiting"]');
  await expect.poll(() => waiting.textContent()).toMatch(/^waiting \d+ s, then trying again: the site answered HTTP 429 Too Many Requests$/);
  expect(await page.locator('[data-testid="target-row"][data-idx="0"]').getAttribute('data-status')).toBe('running');
  // The table's cell is narrow: the row's result pane says it whole.
  await page.locator('[data-testid="target-row"][data-idx="0"]').click();
  await expect.poll(text('result-waiting')).toMatch(/^waiting \d+ s, then trying again: the site answered HTTP 429 Too Many Requests\.Sift tries a busy site again/);
  await page.screenshot({ path: screenshotPath('ui-outcomes-waiting') });
  await page.getByTestId('cancel-job').click();
  await expect.poll(jobStatus).toBe('cancelled');
  await expect.poll(() => page.locator('[data-testid="target-row"][data-idx="0"]').getAttribute('data-status')).toBe('failed');
  expect(await waiting.count()).toBe(0);
  expect(pageErrors(page)).toEqual([]);
});

test('a blocked address says why beside its chip, without its code word again', async () => {
  await page.getByTestId('nav-new').click();
  // localhost is refused by its name, before any lookup: nothing is sent anywhere.
  await page.getByTestId('paste-box').fill('http://localhost:1/admin');
  await expect.poll(text('count-valid')).toBe('1');
  await page.getByTestId('submit').click();
  await expect.poll(jobStatus, { timeout: 60_000 }).toBe('failed');
  expect(await page.getByTestId('row-reason').getAttribute('data-reason')).toBe('blocked');
  // The row read "blocked address blocked — The name is localhost…".
  expect(await page.getByTestId('row-error').textContent()).toMatch(/^blocked addressThe name is localhost, which always means this computer — Sift does not fetch private/);
  await page.locator('[data-testid="target-row"][data-idx="0"]').click();
  await expect.poll(text('result-error')).toMatch(/^The name is localhost, which always means this computer\s*Sift does not fetch private, loopback or reserved addresses unless they are allowed in Settings, under Network/);
  await page.screenshot({ path: screenshotPath('ui-outcomes-blocked') });
  expect(pageErrors(page)).toEqual([]);
});

test("an article's opening over a sign-in form is ok, and its row says it is a teaser and what to do", async () => {
  await page.getByTestId('nav-new').click();
  await page.getByTestId('paste-box').fill(`${base}/news/tariffs-explained`);
  await expect.poll(text('count-valid')).toBe('1');
  await page.getByTestId('submit').click();
  await expect.poll(jobStatus, { timeout: 60_000 }).toBe('done');
  const chip = page.locator('[data-testid="target-row"][data-idx="0"] [data-testid="row-warning"]');
  expect(await chip.evaluateAll((els) => els.map((e) => e.getAttribute('data-warning')))).toEqual(['teaser']);
  expect(await chip.textContent()).toBe('teaser');
  expect(await chip.getAttribute('title')).toBe(
    'Only the opening of the article came back: the page has a sign-in form where the rest of its text would be. Open the page in a browser and sign in to read all of it.',
  );
  expect(await text('warning-summary')()).toMatch(/^OK with warnings\s*teaser\s*1$/);
  expect(await cutInCells(page, 'row-warning')).toEqual([]);
  await page.screenshot({ path: screenshotPath('ui-outcomes-teaser') });
  expect(pageErrors(page)).toEqual([]);
});
