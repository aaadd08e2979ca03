/**
 * Find in a job with nothing to search: its targets failed (a sign-in wall, an anti-bot check,
 * not found, a server error) and one was cut short by a cancel. It said "Nothing stored matches.
 * Try fewer words, or a prefix like revenu*.", as if other words could find something there, in
 * a line flush against the pane's edge. Real services over the bridge, real Chromium.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import { screenshotPath } from '../helpers/chromium';
import { closedAfterAll, held, listenLoopback, type Held } from '../helpers/loopback';
import { articlePage, expectNoInternalErrorText, expectNothingCutOrOverlapping, pageErrors, pasteList } from '../helpers/ui-app';
import { appForFile } from '../helpers/ui-file';

const outcome = (name: string): string => readFileSync(path.resolve(__dirname, '../fixtures/outcomes/batch', name), 'utf8');
let page: Page;
const servers = closedAfterAll();
/** Each run's hold on /slow; all are let go before the app closes, so no answer hangs. */
const holds: Held[] = [];
let base = '';

beforeAll(async () => {
  const login = outcome('login_bank_of_ireland_365.html');
  const challenge = outcome('cf_uam_just_a_moment_2021.html');
  base = await listenLoopback(servers, (req, res) => {
    const p = new URL(req.url ?? '/', 'http://x').pathname;
    const html = (status: number, body: string) => res.writeHead(status, { 'content-type': 'text/html; charset=utf-8' }).end(body);
    if (p.startsWith('/article/')) return html(200, articlePage(`Harbour report ${p.slice(9)}`));
    if (p === '/account') return html(200, login);
    if (p === '/challenge') return html(503, challenge);
    if (p === '/broken') return res.writeHead(500, { 'content-type': 'text/plain' }).end('server error');
    if (p === '/slow') return holds.at(-1)?.hold(() => res.destroy());
    res.writeHead(404, { 'content-type': 'text/plain' }).end('no such page');
  });
});

appForFile({
  ready: (o) => {
    page = o.page;
  },
});
// Before the app closes (an afterAll after appForFile's runs first).
afterAll(() => holds.forEach((h) => h.release()));

/** Runs until the held target is on the wire, then cancels the job. */
async function cancelWhenHeld(start: () => Promise<void>): Promise<void> {
  const slow = held();
  holds.push(slow);
  await start();
  await slow.arrived;
  await page.getByTestId('cancel-job').click();
  await page.locator('[data-testid="job-header"][data-status="cancelled"]').waitFor();
}

/** The note under "No hits for …": its words, and that it starts where the count above it does, not at the pane's edge. */
async function noHitsNote(query: string): Promise<string> {
  await page.getByTestId('job-search-input').fill(query);
  await expect.poll(() => page.getByTestId('search-results-job').getAttribute('data-state')).toBe('done');
  const note = page.getByTestId('search-none');
  // Where the words start (a box's own left is its edge, padding or not).
  const textLeft = (e: Element): number => {
    const r = document.createRange();
    r.selectNodeContents(e);
    return r.getBoundingClientRect().left;
  };
  const [noteLeft, countLeft] = await Promise.all([note.evaluate(textLeft), page.getByTestId('search-count').evaluate(textLeft)]);
  expect(noteLeft).toBeGreaterThanOrEqual(countLeft);
  return (await note.textContent()) ?? '';
}

test('Find in a job with no result to search says why and what to do, in from the edge, at 1280 and 900 px', async () => {
  await page.setViewportSize({ width: 1280, height: 800 });
  const list = [`${base}/article/1`, `${base}/article/2`, `${base}/account`, `${base}/challenge`, `${base}/missing`, `${base}/broken`, `${base}/slow`, `${base}/article/3`];
  await pasteList(page, list.join('\n'));
  await page.getByTestId('count-valid').filter({ hasText: /^8$/ }).waitFor();
  await cancelWhenHeld(() => page.keyboard.press('Control+Enter'));

  // A job with results: other words may find something, as before.
  expect(await noHitsNote('zebra')).toBe('Nothing stored matches. Try fewer words, or a prefix like revenu*.');

  // Its failed ones and the one cut short, run again and cancelled on the held one: nothing in it has text.
  await page.getByTestId('job-search-input').fill('');
  await cancelWhenHeld(() => page.getByTestId('run-failed').click());
  await expect.poll(() => page.getByTestId('job-header').textContent()).toMatch(/^retry of /);
  for (const width of [1280, 900]) {
    await page.setViewportSize({ width, height: 800 });
    expect(await noHitsNote('harbour')).toBe(
      'Nothing to search yet: no target of this job has a result with text. Not read: 4 failed, 1 was not fetched, as the job ended first. Run the rest again to fetch them, then search.',
    );
    await expect.poll(() => expectNothingCutOrOverlapping(page).then(() => 'ok', (e: Error) => e.message)).toBe('ok');
    await expectNoInternalErrorText(page);
    await page.screenshot({ path: screenshotPath(`ui-find-nothing-read-${width}`) });
  }
  expect(pageErrors(page)).toEqual([]);
});
