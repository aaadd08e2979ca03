/**
 * The job header of a job whose targets failed for many reasons: the chips that say why stay
 * beside the counts at 1280 px, wrapping there, instead of taking a row of their own under
 * them. Real services over the bridge, real Chromium, loopback sites serving real walls.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import { screenshotPath } from '../helpers/chromium';
import { closedAfterAll, listenLoopback } from '../helpers/loopback';
import { articlePage, expectNothingCutOrOverlapping, pageErrors, composeList } from '../helpers/ui-app';
import { appForFile } from '../helpers/ui-file';

const FIX = path.resolve(__dirname, '../fixtures/outcomes/batch');
const fixture = (name: string): string => readFileSync(path.join(FIX, name), 'utf8');

let page: Page;
const servers = closedAfterAll();
let base = '';
let catchAll = '';

appForFile({
  serve: async () => {
    const walls: Record<string, [number, string]> = {
      account: [200, fixture('login_bank_of_ireland_365.html')],
      challenge: [503, fixture('cf_uam_just_a_moment_2021.html')],
      consent: [200, fixture('consent_yahoo_oath_before_you_continue.html')],
    };
    base = await listenLoopback(servers, (req, res) => {
      const [, first = ''] = (req.url ?? '/').split('/');
      const wall = walls[first];
      if (wall) return res.writeHead(wall[0], { 'content-type': 'text/html; charset=utf-8' }).end(wall[1]);
      if (first === 'article') return res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(articlePage(`Harbour report ${req.url ?? ''}`));
      if (first === 'broken') return res.writeHead(500, { 'content-type': 'text/plain' }).end('server error');
      if (first === 'file') return res.writeHead(200, { 'content-type': 'application/octet-stream' }).end(Buffer.alloc(64, 7));
      res.writeHead(404, { 'content-type': 'text/plain' }).end('no such page');
    });
    const notFound = fixture('soft404_harvest.html');
    catchAll = await listenLoopback(servers, (_req, res) => res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(notFound), '127.0.0.2');
    return [];
  },
  ready: (o) => {
    page = o.page;
  },
});

test('six reasons for failing stay beside the counts at 1280 px, the header as low as with four', async () => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await composeList(page, [
    ...[1, 2, 3].map((n) => `${base}/article/${n}`),
    `${base}/account/overview`,
    `${base}/challenge/news`,
    `${base}/consent/news`,
    `${catchAll}/blog/a-post-that-moved`,
    `${base}/broken/1`,
    `${base}/file/data.bin`,
  ]);
  await page.keyboard.press('Control+Enter');
  await page.locator('[data-testid="job-header"][data-status="partial"]').waitFor({ timeout: 60_000 });
  await expect.poll(() => page.getByTestId('reason-chip').count()).toBe(6);
  // The chips took a row of their own under the counts: the header was 210 px with five, where
  // ui-walk's with four is under 200 and the table's first row sat that much lower.
  const box = (testId: string) => page.getByTestId(testId).evaluate((e) => e.getBoundingClientRect().toJSON() as DOMRect);
  const [stats, reasons] = [await page.locator('.job-stats').evaluate((e) => e.getBoundingClientRect().toJSON() as DOMRect), await box('reason-summary')];
  expect(reasons.top, 'the reasons start on the counts’ line').toBeLessThan(stats.bottom);
  expect(reasons.left).toBeGreaterThan(stats.right);
  expect(await page.getByTestId('job-header').evaluate((h) => h.getBoundingClientRect().height)).toBeLessThanOrEqual(200);
  await expect.poll(() => expectNothingCutOrOverlapping(page).then(() => 'ok', (e: Error) => e.message)).toBe('ok');
  await page.screenshot({ path: screenshotPath('ui-header-reasons-1280') });
  // At 900 px they do not fit beside the counts: under them, whole, as before.
  await page.setViewportSize({ width: 900, height: 800 });
  await expect.poll(() => expectNothingCutOrOverlapping(page).then(() => 'ok', (e: Error) => e.message)).toBe('ok');
  await page.screenshot({ path: screenshotPath('ui-header-reasons-900') });
  expect(pageErrors(page)).toEqual([]);
});
