/**
 * The life of a job as the app shows it, through the real services and the bridge in
 * Chromium: when the expiry sweep will delete it, which job the list shows as current, and
 * what a delete leaves on screen.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from 'vitest';
import { openStore } from '../../src/main/store';
import type { Page } from 'playwright-core';
import type { SiftApi } from '../../src/shared/ipc/contract';
import { nestedLiveRegions } from '../helpers/a11y';
import { screenshotPath } from '../helpers/chromium';
import { expectNoInternalErrorText, pageErrors, pasteList, tempDir } from '../helpers/ui-app';
import { appsForFile } from '../helpers/ui-file';
import { startTestSite, type TestSite } from '../helpers/ui-servers';

let site: TestSite;
const apps = appsForFile({ serve: async () => (site = await startTestSite()) });

/** An app keeping finished jobs `ttlHours`, with one finished job of two articles shown. */
async function finishedJob(ttlHours: number): Promise<{ page: Page; lease: number }> {
  const { page } = await apps.open({ settings: { ttlHours } });
  await pasteList(page, `${site.url}/article/1\n${site.url}/article/2`);
  await expect.poll(() => page.getByTestId('count-valid').textContent()).toBe('2');
  await page.getByTestId('submit').click();
  await expect.poll(() => page.getByTestId('job-header').getAttribute('data-status'), { timeout: 120_000 }).toBe('done');
  const lease = await page.evaluate(async () => (await (window as unknown as { sift: SiftApi }).sift.listJobs()).jobs[0]!.leaseExpires);
  return { page, lease };
}

/** The time of day `ms` as the page's locale writes it short, as the app writes times. */
const timeIn = (page: Page, ms: number): Promise<string> => page.evaluate((t) => new Date(t).toLocaleTimeString(undefined, { timeStyle: 'short' }), ms);

test('a finished job says until when Sift keeps it, and the job list warns of one deleted within a day', async () => {
  // Nothing said when a job would go: a user back after the ttl found it deleted, results and all.
  const { page, lease } = await finishedJob(2);
  const expiry = page.getByTestId('job-expiry');
  await expect.poll(() => expiry.count()).toBe(1);
  const text = (await expiry.textContent()) ?? '';
  expect(text).toMatch(/^Kept until .+, then deleted; opening it again keeps it longer\.$/);
  expect(text).toContain(await timeIn(page, lease));
  // Two hours away: the job's item in the list says so too, beside its count.
  const item = page.getByTestId('job-item-expiry');
  await expect.poll(() => item.count()).toBe(1);
  // Two hours on from 22:00 is tomorrow, which the item names with its date ("expires Dec 6
  // 12:05 AM"): the landing run at 22:05 failed on the time alone. The time ends it either way.
  const time = await timeIn(page, lease);
  const said = (await item.textContent()) ?? '';
  expect(said.startsWith('expires ') && said.endsWith(time), said).toBe(true);
  const line = await page.getByTestId('job-item').first().innerText();
  expect(line).toContain('2 / 2 done · expires ');
  expect(line).toContain(time);
  await page.screenshot({ path: screenshotPath('jobs-expiry-soon') });
  expect(pageErrors(page)).toEqual([]);
  await expectNoInternalErrorText(page);
});

test('a job kept for a week says so in its view and not in the job list', async () => {
  const { page, lease } = await finishedJob(24 * 7);
  const expiry = page.getByTestId('job-expiry');
  await expect.poll(() => expiry.count()).toBe(1);
  const day = await page.evaluate((t) => new Date(t).toLocaleDateString(undefined, { day: 'numeric', month: 'short' }), lease);
  expect(await expiry.textContent()).toContain(`Kept until ${day} ${await timeIn(page, lease)}, then deleted`);
  expect(await page.getByTestId('job-item-expiry').count()).toBe(0);
  expect(pageErrors(page)).toEqual([]);
  await expectNoInternalErrorText(page);
});

/**
 * An app whose database holds `n` one-target jobs, the oldest first, left running by a Sift
 * that was closed (so they open as interrupted, and can be deleted), and a page of it.
 */
async function appWithJobs(n: number, prepare?: (dataDir: string) => void): Promise<{ page: Page; ids: string[] }> {
  const dataDir = tempDir('sift-ui-jobs-');
  prepare?.(dataDir);
  const store = openStore(path.join(dataDir, 'sift.db'));
  const now = Date.now();
  const ids = Array.from({ length: n }, (_, i) => `job${String(i).padStart(13, '0')}`);
  store.immediate(() => {
    ids.forEach((id, i) => {
      store.insertJob({ id, caller: 'desktop', callerClass: 'desktop', idemKey: id, targetsTotal: 1, nowMs: now - n + i, leaseExpires: now + 7 * 24 * 3600_000, label: `list ${i}` }, [{ url: `http://127.0.0.1:9/${i}` }]);
    });
  });
  store.close();
  const { page } = await apps.open({ dataDir });
  await expect.poll(() => page.getByTestId('job-item').count()).toBe(n);
  return { page, ids };
}

/** The job the view shows, and whether its item is current and wholly inside the job list's visible part. */
function currentItem(page: Page): Promise<{ view: string | null; current: string | null; inView: boolean }> {
  return page.evaluate(() => {
    const view = document.querySelector('[data-testid="job-view"]')?.getAttribute('data-job-id') ?? null;
    const item = document.querySelector('[data-testid="job-item"][aria-current="page"]');
    const list = document.querySelector('[data-testid="job-list"]')!.getBoundingClientRect();
    const box = item?.getBoundingClientRect();
    return { view, current: item?.getAttribute('data-job-id') ?? null, inView: !!box && box.top >= list.top && box.bottom <= list.bottom };
  });
}

test('the job on screen is in view in a long job list, however it was opened', async () => {
  const { page, ids } = await appWithJobs(60);
  // The oldest job, opened by its address (a reload, a search hit's job): its item was far
  // below the list's fold, and nothing in sight said which job the view showed.
  await page.evaluate((id) => {
    location.hash = `#job/${id}`;
  }, ids[0]!);
  await page.reload();
  await expect.poll(() => page.getByTestId('job-view').getAttribute('data-job-id')).toBe(ids[0]);
  await expect.poll(() => currentItem(page)).toEqual({ view: ids[0], current: ids[0], inView: true });
  expect(pageErrors(page)).toEqual([]);
  await expectNoInternalErrorText(page);
});

test('deleting a job shows the next older one, in view in the list, with the focus on its name', async () => {
  const { page, ids } = await appWithJobs(60);
  const del = async (): Promise<void> => {
    await page.getByTestId('delete-job').click();
    expect(await page.getByTestId('delete-job').textContent()).toBe('Really delete?');
    await page.getByTestId('delete-job').click();
  };
  // A job near the end of the list, as someone clearing out old jobs reaches it: the delete
  // showed the newest job instead, at the top, and the list stayed scrolled where it was.
  await page.locator(`[data-testid="job-item"][data-job-id="${ids[10]}"]`).click();
  await expect.poll(() => page.getByTestId('job-view').getAttribute('data-job-id')).toBe(ids[10]);
  await del();
  await expect.poll(() => page.getByTestId('job-item').count()).toBe(59);
  await expect.poll(() => currentItem(page)).toEqual({ view: ids[9], current: ids[9], inView: true });
  expect(await page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('job-name');
  // The oldest job has none older: the one above it is next.
  await page.locator(`[data-testid="job-item"][data-job-id="${ids[0]}"]`).click();
  await expect.poll(() => page.getByTestId('job-view').getAttribute('data-job-id')).toBe(ids[0]);
  await del();
  await expect.poll(() => currentItem(page)).toEqual({ view: ids[1], current: ids[1], inView: true });
  // The newest job scrolled out of sight, then deleted from the top: the one below it is next.
  await page.locator(`[data-testid="job-item"][data-job-id="${ids[59]}"]`).click();
  await expect.poll(() => page.getByTestId('job-view').getAttribute('data-job-id')).toBe(ids[59]);
  await del();
  await expect.poll(() => currentItem(page)).toEqual({ view: ids[58], current: ids[58], inView: true });
  await page.screenshot({ path: screenshotPath('jobs-after-delete') });
  expect(pageErrors(page)).toEqual([]);
  await expectNoInternalErrorText(page);
});

test('an error notice and an info notice are each in one live region, read once', async () => {
  // A damaged settings.json is an error notice at start; running a job's rest is an info one.
  const { page, ids } = await appWithJobs(2, (dataDir) => writeFileSync(path.join(dataDir, 'settings.json'), '{ "workers": 4, }\n'));
  await expect.poll(() => page.locator('[data-testid="notice"][data-code="settings_reset"]').count()).toBe(1);
  await page.locator(`[data-testid="job-item"][data-job-id="${ids[0]}"]`).click();
  await page.getByTestId('run-rest').click();
  await expect.poll(() => page.getByTestId('notice').allTextContents()).toContainEqual(expect.stringMatching(/^Started a new job with 1 target\./));
  // Each notice had a role of its own inside a polite region: both announced it.
  expect(await nestedLiveRegions(page)).toEqual([]);
  const regionOf = (code: string): Promise<string | null | undefined> =>
    page.locator(`[data-testid="notice"][data-code="${code}"]`).evaluate((n) => n.closest('[role="alert"], [role="status"]')?.getAttribute('role'));
  expect(await regionOf('settings_reset')).toBe('alert');
  expect(await regionOf('info')).toBe('status');
  await page.screenshot({ path: screenshotPath('jobs-notices') });
  expect(pageErrors(page)).toEqual([]);
  await expectNoInternalErrorText(page);
});

test('the job list is one Tab stop, with arrows to move in it: 60 jobs do not take 60 presses of Tab', async () => {
  const { page, ids } = await appWithJobs(60);
  const focusedId = (): Promise<string | null | undefined> => page.evaluate(() => document.activeElement?.getAttribute('data-job-id') ?? document.activeElement?.getAttribute('data-testid'));
  await page.getByTestId('sidebar-search-input').focus();
  // No job on screen: the newest is the stop, and the next Tab leaves the list.
  await page.keyboard.press('Tab');
  expect(await focusedId()).toBe(ids[59]);
  await page.keyboard.press('Tab');
  expect(await focusedId()).toBe('nav-activity');
  await page.keyboard.press('Shift+Tab');
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowDown');
  expect(await focusedId()).toBe(ids[57]);
  // Back into the list, the focus returns to the job it left.
  await page.keyboard.press('Tab');
  await page.keyboard.press('Shift+Tab');
  expect(await focusedId()).toBe(ids[57]);
  await page.keyboard.press('Home');
  expect(await focusedId()).toBe(ids[59]);
  await page.keyboard.press('End');
  expect(await focusedId()).toBe(ids[0]);
  await page.keyboard.press('ArrowUp');
  await page.keyboard.press('Enter');
  await expect.poll(() => currentItem(page)).toEqual({ view: ids[1], current: ids[1], inView: true });
  // From the search box, Tab reaches the job on screen, far down the list.
  await page.getByTestId('sidebar-search-input').focus();
  await page.keyboard.press('Tab');
  expect(await focusedId()).toBe(ids[1]);
  await page.keyboard.press('Tab');
  expect(await focusedId()).toBe('nav-activity');
  expect(pageErrors(page)).toEqual([]);
});

test('searching all jobs for a list name finds the job of that name, and opens it', async () => {
  const { page, ids } = await appWithJobs(60);
  // "Search all jobs" looked only in what the jobs fetched: a list's name found nothing.
  await page.getByTestId('sidebar-search-input').fill('LIST 17');
  const found = page.getByTestId('search-job');
  await expect.poll(() => found.count()).toBe(1);
  expect(await found.textContent()).toBe('list 17 · 1 URL interrupted');
  expect(await page.getByTestId('search-jobs').innerText()).toMatch(/^The job whose name matches:/);
  // Each word is found in the name (1, 10 to 19, 21, 31, 41, 51); the count it ends with ("1 URL") is no part of it.
  await page.getByTestId('sidebar-search-input').fill('list 1');
  await expect.poll(() => page.getByTestId('search-jobs').innerText()).toMatch(/^Jobs whose names match \(15\):[\s\S]*and 7 more; add a word to narrow them$/);
  expect(await found.count()).toBe(8);
  await page.getByTestId('sidebar-search-input').fill('list 17');
  await expect.poll(() => found.count()).toBe(1);
  await page.screenshot({ path: screenshotPath('jobs-search-name') });
  await found.click();
  await expect.poll(() => currentItem(page)).toEqual({ view: ids[17], current: ids[17], inView: true });
  expect(pageErrors(page)).toEqual([]);
  await expectNoInternalErrorText(page);
});
