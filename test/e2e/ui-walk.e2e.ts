/**
 * A user's walk through the app, read at the two widths people use (800 and 1280 px): a list of
 * 50 URLs with every outcome (ok, login, anti-bot check, soft 404, not found, server error, PDF)
 * from loopback sites, cancelled while its 42nd target is held on the wire; then Search, Ask
 * this job and Export. At each step the page must say nothing no user should read (a raw value,
 * a code, "internal error") and no count or label may be cut off or drawn over another.
 * Real services over the bridge, real Chromium.
 */
import { readFileSync } from 'node:fs';
import type http from 'node:http';
import path from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import { screenshotPath } from '../helpers/chromium';
import { closedAfterAll, listenLoopback } from '../helpers/loopback';
import { makePdf } from '../helpers/fetch-pdf';
import { articlePage, expectNoInternalErrorText, expectNothingCutOrOverlapping, pageErrors, pasteList } from '../helpers/ui-app';
import { appForFile } from '../helpers/ui-file';

const FIX = path.resolve(__dirname, '../fixtures/outcomes');
const fixture = (rel: string): string => readFileSync(path.join(FIX, rel), 'utf8');

let page: Page;
// Closed after the app (its afterAll is registered before appForFile's).
const servers = closedAfterAll();
/** The held requests' ends, so afterAll lets none hang. */
const held: http.ServerResponse[] = [];
let heldSeen: () => void = () => {};
const firstHeld = new Promise<void>((r) => (heldSeen = r));
let base = '';
let catchAll = '';

const URLS = (): string[] => [
  ...Array.from({ length: 24 }, (_, i) => `${base}/article/${i + 1}`),
  ...[1, 2, 3].map((n) => `${base}/account/overview-${n}`),
  ...[1, 2, 3].map((n) => `${base}/news/challenge-${n}`),
  ...[1, 2, 3].map((n) => `${catchAll}/blog/2019/a-post-that-moved-${n}`),
  ...[1, 2, 3].map((n) => `${base}/missing/${n}`),
  ...[1, 2].map((n) => `${base}/broken/${n}`),
  ...[1, 2, 3].map((n) => `${base}/doc/${n}.pdf`),
  // The 42nd is held until the job is cancelled; the 8 after it are never reached.
  ...Array.from({ length: 9 }, (_, i) => `${base}/slow/${i + 1}`),
];

beforeAll(async () => {
  const login = fixture('batch/login_bank_of_ireland_365.html');
  const challenge = fixture('batch/cf_uam_just_a_moment_2021.html');
  const pdf = makePdf({ pages: [['Harbour annual report', 'Net revenue grew 12% as the new crane came into use'], ['Outlook', 'More ships are expected next year']], title: 'Harbour annual report' });
  base = await listenLoopback(servers, (req, res) => {
    const p = new URL(req.url ?? '/', 'http://x').pathname;
    const html = (status: number, body: string) => res.writeHead(status, { 'content-type': 'text/html; charset=utf-8' }).end(body);
    if (p.startsWith('/article/')) return html(200, articlePage(`Harbour report ${p.slice(9)}`));
    if (p.startsWith('/account/')) return html(200, login);
    if (p.startsWith('/news/challenge-')) return html(503, challenge);
    if (p.startsWith('/broken/')) return res.writeHead(500, { 'content-type': 'text/plain' }).end('server error');
    if (p.endsWith('.pdf')) return res.writeHead(200, { 'content-type': 'application/pdf' }).end(pdf);
    if (p.startsWith('/slow/')) {
      held.push(res);
      heldSeen();
      return;
    }
    res.writeHead(404, { 'content-type': 'text/plain' }).end('no such page');
  });
  const notFound = fixture('batch/soft404_harvest.html');
  catchAll = await listenLoopback(servers, (_req, res) => res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(notFound), '127.0.0.2');
});

appForFile({
  ready: (o) => {
    page = o.page;
  },
});
// Before the app closes (an afterAll after appForFile's runs first).
afterAll(async () => {
  for (const res of held) res.destroy();
});

/** Reads the page at both widths, as a user would: what it says, and that nothing is cut or overlaps. */
async function readAtBothWidths(name: string): Promise<void> {
  for (const width of [1280, 800]) {
    await page.setViewportSize({ width, height: 800 });
    // The names and cells are cut to fit once their columns are measured again (a resize observer's callback).
    await expect.poll(() => expectNothingCutOrOverlapping(page).then(() => 'ok', (e: Error) => e.message)).toBe('ok');
    await expectNoInternalErrorText(page);
    await page.screenshot({ path: screenshotPath(`ui-walk-${name}-${width}`) });
  }
}

test('a list of 50 URLs with every outcome, cancelled mid-way, reads right at 800 and 1280 px', async () => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await pasteList(page, URLS().join('\n'));
  await page.getByTestId('count-valid').filter({ hasText: /^50$/ }).waitFor();
  await readAtBothWidths('composer');
  await page.keyboard.press('Control+Enter');
  await firstHeld;
  await expect.poll(() => page.getByTestId('stat-done').textContent(), { timeout: 60_000 }).toBe('41 / 50');
  await readAtBothWidths('running');

  await page.getByTestId('cancel-job').click();
  await page.locator('[data-testid="job-header"][data-status="cancelled"]').waitFor();
  await expect.poll(() => page.getByTestId('cancel-notice').textContent()).toMatch(/^Cancelled: 9 not fetched \(1 stopped mid-way\)/);
  await readAtBothWidths('cancelled');
  // Its header took about 270 of an 800 px window: 4 reasons on two lines under the counts, the
  // notice on two, and 5 actions on two rows; the first row of results at the window's middle.
  for (const [width, most] of [
    [800, 224],
    [1280, 200],
  ] as const) {
    await page.setViewportSize({ width, height: 800 });
    const parts = await page.getByTestId('job-header').evaluate((h) => [h, ...h.children].map((e) => `${e.className || e.tagName}: ${Math.round(e.getBoundingClientRect().height)}`).join(', '));
    await expect.poll(() => page.getByTestId('job-header').evaluate((h) => h.getBoundingClientRect().height), { message: parts }).toBeLessThanOrEqual(most);
  }
  // The sign-in walls alone, one opened: its reason and what to do, in words.
  await page.locator('[data-testid="reason-chip"][data-reason="login"]').click();
  await expect.poll(() => page.getByTestId('target-row').count()).toBe(3);
  await page.getByTestId('target-row').first().click();
  await expect.poll(() => page.getByTestId('result-pane').textContent()).toMatch(/sign/i);
  await readAtBothWidths('login-row');
  // The pane's address keeps its end, what tells the three apart: it read "http://127.0.0.1:46315/acc…" at 1280 px.
  expect(await page.locator('.result-url').textContent()).toMatch(/overview-1$/);
  // Without its scheme, as the table and the header write addresses; whole in its tooltip and when copied.
  const address = page.locator('.result-url');
  expect(await address.textContent()).toMatch(/^127\.0\./);
  expect(await address.getAttribute('title')).toContain(`${base}/account/overview-1`);
  const copied = await address.evaluate((a) => {
    let data = '';
    document.addEventListener('copy', (e) => void (data = e.clipboardData?.getData('text/plain') ?? ''), { once: true });
    getSelection()?.selectAllChildren(a);
    document.execCommand('copy');
    getSelection()?.removeAllRanges();
    return data;
  });
  expect(copied).toBe(`${base}/account/overview-1`);
  // And a PDF's result, with its size.
  await page.locator('[data-testid="reason-chip"][data-reason="login"]').click();
  await expect.poll(() => page.getByTestId('target-row').count()).toBeGreaterThan(3);
  // Its row is past the first screen of the table, which draws the rows in view only: End, then up to it.
  await page.getByTestId('target-grid').focus();
  await page.keyboard.press('End');
  await page.locator('[data-testid="target-row"][data-idx="49"]').waitFor();
  await page.locator('[data-testid="target-row"][data-idx="38"]').click();
  await expect.poll(() => page.getByTestId('result-view').textContent()).toMatch(/Net revenue grew 12%/);
  await readAtBothWidths('pdf-row');
  expect(pageErrors(page)).toEqual([]);
});

test('Search all jobs, Ask this job and Export read right at 800 and 1280 px', async () => {
  await page.getByTestId('sidebar-search-input').fill('harbour crane');
  await expect.poll(() => page.getByTestId('search-results-all').getAttribute('data-state')).toBe('done');
  await expect.poll(() => page.getByTestId('search-hit').count()).toBeGreaterThan(0);
  await readAtBothWidths('search');

  await page.getByTestId('job-item').first().click();
  await page.getByTestId('search-mode-ask').click();
  await page.getByTestId('ask-input').fill('how much did net revenue grow?');
  await page.getByTestId('ask-submit').click();
  await expect.poll(() => page.getByTestId('ask-results').getAttribute('data-state')).toBe('done');
  await readAtBothWidths('ask');

  await page.getByTestId('export-job').click();
  await page.getByTestId('export-dialog').waitFor();
  await readAtBothWidths('export-dialog');
  await page.getByTestId('export-start').click();
  await expect.poll(() => page.getByTestId('export-status').getAttribute('data-state')).toBe('done');
  await readAtBothWidths('exported');
  expect(pageErrors(page)).toEqual([]);
});
