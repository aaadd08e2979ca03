/**
 * A running job's table at 1024 × 768, in real Chromium over the bridge: the row being fetched
 * stays in view as the job goes past the table's fold, until the user scrolls away; then their
 * scroll is left alone (s28 appqa3: the table stayed at its top while the job ran on below it).
 */
import { afterAll, expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import type { ServerResponse } from 'node:http';
import { screenshotPath } from '../helpers/chromium';
import { startServer, type TestServer } from '../helpers/fetch-server';
import { articlePage, pageErrors, pasteList } from '../helpers/ui-app';
import { held, type Held } from '../helpers/loopback';
import { appForFile } from '../helpers/ui-file';

let page: Page;
let site: TestServer;

const COUNT = 40;
// Held until the test lets them go: /p/30 is below the fold of a 768 px window (about 12 rows show).
const HELD = [30, 36];
const holds = new Map<number, Held>();

/** The site of COUNT pages, HELD of them held until the test lets each go. */
async function serve(): Promise<TestServer> {
  const routes: Record<string, (q: unknown, r: ServerResponse) => void> = {};
  for (let i = 0; i < COUNT; i++) {
    const answer = (r: ServerResponse): void => void r.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(articlePage(`Page ${i}`));
    if (!HELD.includes(i)) {
      routes[`/p/${i}`] = (_q, r) => answer(r);
      continue;
    }
    const h = held();
    holds.set(i, h);
    routes[`/p/${i}`] = (_q, r) => h.hold(() => answer(r));
  }
  return (site = await startServer(routes));
}

appForFile({
  serve,
  viewport: { width: 1024, height: 768 },
  ready: (o) => {
    page = o.page;
  },
});
// Before the app closes (an afterAll after appForFile's runs first).
afterAll(() => {
  for (const h of holds.values()) h.release();
});

/** Whether row `idx` is drawn, in `status`, wholly inside the table's scrolled box. */
const rowInView = (idx: number, status: string): Promise<boolean> =>
  page.evaluate(
    ([idx, status]) => {
      const row = document.querySelector(`[data-testid="target-row"][data-idx="${idx}"][data-status="${status}"]`);
      const box = document.querySelector('[data-testid="target-scroll"]');
      if (!row || !box) return false;
      const r = row.getBoundingClientRect();
      const b = box.getBoundingClientRect();
      return r.top >= b.top && r.bottom <= b.bottom;
    },
    [idx, status] as const,
  );

test('the running row is followed below the fold, and a user who scrolled away keeps their place', async () => {
  await pasteList(page, Array.from({ length: COUNT }, (_, i) => `${site.origin}/p/${i}`).join('\n'));
  await page.getByTestId('count-valid').filter({ hasText: new RegExp(`^${COUNT}$`) }).waitFor();
  await page.keyboard.press('Control+Enter');
  await holds.get(30)!.arrived;
  await expect.poll(() => rowInView(30, 'running')).toBe(true);
  await page.screenshot({ path: screenshotPath('ui-follow-running') });

  // The user goes back to the top; the job goes on to /p/36, and the table stays where they put it.
  const scroller = page.getByTestId('target-scroll');
  await scroller.hover();
  await page.mouse.wheel(0, -5000);
  await expect.poll(() => scroller.evaluate((el) => el.scrollTop)).toBe(0);
  holds.get(30)!.release();
  await holds.get(36)!.arrived;
  // Row 35 done is the job's news before /p/36 runs: once the header counts it, the table has had it too.
  await expect.poll(() => page.getByTestId('job-header').textContent()).toMatch(/36 \/ 40/);
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
  expect(await scroller.evaluate((el) => el.scrollTop)).toBe(0);
  expect(await rowInView(0, 'done')).toBe(true);
  holds.get(36)!.release();
  await page.locator('[data-testid="job-header"][data-status="done"]').waitFor();
  expect(pageErrors(page)).toEqual([]);
});
