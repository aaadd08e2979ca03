/**
 * Jobs of one host told apart in the narrow job list: a list's name is its host and the folder
 * its URLs share ("127.0.0.1:41234/quarterly-reports"), and the list's 250 px cut every such
 * name at its end, so two jobs of one site showed as "127.0.0.1:4123…" both. The name is cut
 * in its middle now, as the target table's URLs are: its start and its end stay.
 * A job's status in its header stays on one line beside a long name: at 1024 px a job named
 * "rest of 127.0.0.1:43101 · options per URL · 23 URLs" left its badge one word wide, and
 * "partly failed" read "partly" over "failed".
 * Real services over the bridge, real Chromium, a loopback site.
 */
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import { screenshotPath } from '../helpers/chromium';
import { expectNoInternalErrorText, openApp, type OpenedApp, pageErrors, pasteList, runListToDone } from '../helpers/ui-app';
import { startReportSite, type TestSite } from '../helpers/ui-servers';

let o: OpenedApp;
let page: Page;
let site: TestSite;

beforeAll(async () => {
  site = await startReportSite();
  o = await openApp();
  page = o.page;
  for (const folder of ['quarterly-reports', 'quarterly-minutes']) {
    await page.getByTestId('nav-new').click();
    await runListToDone(page, [1, 2].map((n) => `${site.url}/${folder}/report-${n}`));
  }
});

afterAll(async () => {
  await expectNoInternalErrorText(page);
  await o?.close();
  await site?.close();
});

/** Each job's name as the list shows it, and whether any of it runs past its box. */
const shownNames = (): Promise<{ text: string; cut: boolean }[]> =>
  page.locator('.job-item-label').evaluateAll((els) => els.map((e) => ({ text: e.textContent ?? '', cut: e.scrollWidth > e.clientWidth + 1 })));

for (const [width, height] of [
  [1024, 768],
  [1440, 900],
] as const) {
  test(`at ${width} × ${height} two jobs of one host show the folders that tell them apart`, async () => {
    await page.setViewportSize({ width, height });
    const host = new URL(site.url).host;
    await expect.poll(async () => (await shownNames()).map((n) => n.text.endsWith('minutes') || n.text.endsWith('reports'))).toEqual([true, true]);
    const names = await shownNames();
    expect(names.map((n) => n.cut)).toEqual([false, false]);
    // Shortened, in the middle: the host's start is there, and the whole name on hover.
    for (const n of names) expect(n.text).toMatch(new RegExp(`^${host.slice(0, 5).replace(/\./g, '\\.')}.*…`));
    expect(await page.locator('[data-testid="job-item-name"]').first().getAttribute('title')).toBe(`${host}/quarterly-minutes · 2 URLs`);
    await page.screenshot({ path: screenshotPath(`ui-sidebar-names-${width}`) });
    expect(pageErrors(page)).toEqual([]);
  });
}

test('at 1024 × 768 a job run again keeps its host and its folder, not "again: … per URL"', async () => {
  await page.setViewportSize({ width: 1024, height: 768 });
  const folder = 'annual-board-meeting-minutes';
  await page.getByTestId('nav-new').click();
  // Options that differ from URL to URL: the name ends "· options per URL".
  await runListToDone(page, [`${site.url}/${folder}/report-1 grep=Harbour`, `${site.url}/${folder}/report-2 mode=text`]);
  await page.getByTestId('run-all').click();
  const host = new URL(site.url).host;
  const again = page.locator('[data-testid="job-item-name"]').filter({ has: page.locator('.job-item-label', { hasText: /^again: / }) });
  await expect.poll(() => again.getAttribute('title')).toBe(`again: ${host}/${folder} · options per URL · 2 URLs`);
  await page.locator('[data-testid="job-header"][data-status="done"]').waitFor();
  const shown = await again.locator('.job-item-label').evaluate((e) => ({ text: e.textContent ?? '', cut: e.scrollWidth > e.clientWidth + 1 }));
  // Cut in its middle whole, it read "again: 127.0…ns per URL": the host cut, and the folder,
  // what tells this job from the others of the host, gone.
  expect(shown.cut).toBe(false);
  expect(shown.text).toMatch(new RegExp(`^again: ${host.slice(0, 5).replace(/\./g, '\\.')}.*…`));
  expect(shown.text).toMatch(/utes$/);
  await page.screenshot({ path: screenshotPath('ui-sidebar-names-again') });
  expect(pageErrors(page)).toEqual([]);
});

test('at 1024 × 768 "partly failed" beside a long job name is one line', async () => {
  await page.setViewportSize({ width: 1024, height: 768 });
  // A folder long enough that the job's name takes the header's width; one URL is not there.
  const folder = `${site.url}/quarterly-reports-and-statements-of-the-harbour-board`;
  await page.getByTestId('nav-new').click();
  await pasteList(page, [`${folder}/report-1`, `${folder}/report-2`, `${folder}/missing`].join('\n'));
  await page.getByTestId('count-valid').filter({ hasText: /^3$/ }).waitFor();
  await page.keyboard.press('Control+Enter');
  await page.locator('[data-testid="job-header"][data-status="partial"]').waitFor();
  const badge = page.locator('[data-testid="job-header"] .badge').first();
  await expect.poll(() => badge.textContent()).toBe('partly failed');
  const { height, lineHeight } = await badge.evaluate((e) => ({ height: e.getBoundingClientRect().height, lineHeight: parseFloat(getComputedStyle(e).lineHeight) || 1.4 * parseFloat(getComputedStyle(e).fontSize) }));
  // One line is its line height and 2 px of padding; two lines are twice that.
  expect(height).toBeLessThan(1.5 * lineHeight);
  await page.screenshot({ path: screenshotPath('ui-header-badge-1024') });
  expect(pageErrors(page)).toEqual([]);
});
