/**
 * What a keyboard or screen-reader user meets around the job view, the result pane and
 * Settings: notices each dismissed by its own name, a failed search said once with its next
 * step, a Delete that says why it cannot be pressed yet, the table's filter and the open
 * result agreeing, an allowed host read as it was typed. Real services over the bridge, real
 * Chromium, a loopback site whose one held page keeps a job running until the test lets it go.
 */
import type http from 'node:http';
import { afterAll, expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import { axOf, focused, nestedLiveRegions } from '../helpers/a11y';
import { screenshotPath } from '../helpers/chromium';
import { held, listenLoopback, type Closable } from '../helpers/loopback';
import { dropFile, pageErrors, pasteList } from '../helpers/ui-app';
import { appForFile } from '../helpers/ui-file';

// An IDN host as a user types it, and one of Cyrillic letters that pass for Latin ones.
const IDN_HOST = 'bücher.example';
const LOOKALIKE_HOST = new URL('http://аррӏе.com').hostname;

let page: Page;
let base: string;
const held1 = held();
// A second hold, for a job that has failed a target while it still runs.
const held2 = held();

// 40 paragraphs: a result longer than the pane at 1024 × 768, so it scrolls.
const article = (n: number): string =>
  `<!doctype html><html><head><meta charset="utf-8"><title>Harbour notes ${n}</title></head><body><article><h1>Harbour notes ${n}</h1>${'<p>The ferry leaves the harbour at nine and comes back before the evening tide turns.</p>'.repeat(40)}</article></body></html>`;

/** Answers /a/N, /held/N and /held2/N with an article (the held ones once let go), and 404 otherwise. */
const site: http.RequestListener = (req, res) => {
  const p = new URL(req.url ?? '/', 'http://x').pathname;
  const send = (): void => {
    const m = /^\/(?:held2?|a)\/(\d+)$/.exec(p);
    res.writeHead(m ? 200 : 404, { 'content-type': 'text/html; charset=utf-8' });
    res.end(m ? article(Number(m[1])) : '<h1>Not here</h1>');
  };
  if (p.startsWith('/held/')) held1.hold(send);
  else if (p.startsWith('/held2/')) held2.hold(send);
  else send();
};

const o = appForFile({
  serve: async () => {
    const open: Closable[] = [];
    base = await listenLoopback(open, site);
    return open;
  },
  app: { settings: { allowHosts: [new URL(`http://${IDN_HOST}`).hostname, LOOKALIKE_HOST] } },
  ready: (opened) => {
    page = opened.page;
  },
});
// Before the app closes (an afterAll after appForFile's runs first).
afterAll(() => {
  held1.release();
  held2.release();
});

const text = (testId: string) => () => page.getByTestId(testId).first().textContent();
const jobStatus = () => page.getByTestId('job-header').getAttribute('data-status');

test('two notices are dismissed by their own names, not "Dismiss, Dismiss"', async () => {
  const notices = page.locator('[data-testid="notice"][data-code="not_a_list"]');
  // A drop while one is still being read replaces it (one list at a time): the second file
  // is dropped once the first has been told.
  await dropFile(page, 'report.pdf', Buffer.from('%PDF-1.7\n1 0 obj\n<<>>\nendobj\n', 'latin1'), 'application/pdf');
  await expect.poll(() => notices.count()).toBe(1);
  await dropFile(page, 'scan.pdf', Buffer.from('%PDF-1.4\n1 0 obj\n<<>>\nendobj\n', 'latin1'), 'application/pdf');
  await expect.poll(() => notices.count()).toBe(2);
  const names = [];
  for (const n of [1, 2]) names.push((await axOf(page, `[data-testid="notices-errors"] [data-testid="notice"]:nth-child(${n}) button`)).name);
  expect(names).toEqual([expect.stringMatching(/^Dismiss: report\.pdf is a PDF document/), expect.stringMatching(/^Dismiss: scan\.pdf is a PDF document/)]);
  await page.screenshot({ path: screenshotPath('ui-notices-two') });
  await page.getByRole('button', { name: /^Dismiss: report\.pdf/ }).click();
  await expect.poll(() => notices.allTextContents()).toEqual([expect.stringMatching(/^scan\.pdf/)]);
  await page.getByRole('button', { name: /^Dismiss: scan\.pdf/ }).click();
  await expect.poll(() => notices.count()).toBe(0);
});

test('while the job runs, Delete and Export are Tab stops that say why they cannot be pressed yet', async () => {
  await pasteList(page, [`${base}/held/1`, `${base}/a/2`, `${base}/missing`].join('\n'));
  await expect.poll(text('count-valid')).toBe('3');
  await page.getByTestId('paste-box').press('Control+Enter');
  await held1.arrived;
  expect(await jobStatus()).toBe('running');
  await page.getByTestId('cancel-job').focus();
  await page.keyboard.press('Tab');
  expect((await focused(page)).id).toBe('export-job');
  expect(await axOf(page, '[data-testid="export-job"]')).toMatchObject({ name: 'Export…', description: 'Nothing has finished yet: export once a target is done.' });
  await page.keyboard.press('Tab');
  expect((await focused(page)).id).toBe('delete-job');
  expect(await axOf(page, '[data-testid="delete-job"]')).toMatchObject({ name: 'Delete', description: 'A running job cannot be deleted: cancel it first, or wait for it to finish.' });
  await page.screenshot({ path: screenshotPath('ui-notices-delete-running') });
  // Pressed, it does nothing: no "Really delete?" for a job that cannot go.
  await page.keyboard.press('Enter');
  expect(await text('delete-job')()).toBe('Delete');
  expect(await page.getByTestId('export-dialog').count()).toBe(0);
  held1.release();
  await expect.poll(jobStatus, { timeout: 60_000 }).toBe('partial');
  expect(await axOf(page, '[data-testid="delete-job"]')).toMatchObject({ name: 'Delete', description: '' });
  expect(await page.getByTestId('delete-job').getAttribute('aria-disabled')).toBeNull();
});

test('the header reads its job id as one and a reason chip by what it counts, not "HTTP error 1"', async () => {
  const id = await page.getByTestId('job-view').getAttribute('data-job-id');
  expect(await page.getByTestId('job-header').ariaSnapshot()).toContain(`text: partly failed Job id ${id}`);
  expect(await axOf(page, '[data-testid="reason-chip"]')).toMatchObject({ name: 'HTTP error: 1 target' });
});

test('a row the filter hides stays open in the pane, which says so and offers the whole table back', async () => {
  await page.getByTestId('target-row').first().click();
  await expect.poll(() => page.getByTestId('result-pane').getAttribute('data-idx')).toBe('0');
  // The note's live region is in the pane before the note, empty: one inserted with its text is often not read.
  expect(await page.getByTestId('result-filtered-status').evaluate((e) => [e.getAttribute('role'), e.textContent])).toEqual(['status', '']);
  // Read down to its end, as a user reads a result before filtering the table.
  await page.keyboard.press('Enter');
  await page.getByTestId('result-markdown').waitFor();
  const pane = page.getByTestId('result-pane');
  expect(await pane.evaluate((e) => e.scrollHeight > e.clientHeight * 2)).toBe(true);
  await pane.evaluate((e) => e.scrollTo(0, e.scrollHeight));
  await page.getByTestId('filter-status').selectOption('failed');
  await expect.poll(() => page.getByTestId('target-row').count()).toBe(1);
  // The pane keeps the result being read; a note says why the table has no row for it.
  expect(await pane.getAttribute('data-idx')).toBe('0');
  await expect.poll(() => page.getByTestId('result-filtered').allTextContents()).toEqual(['Target 1 is hidden by the table’s filter (Failed). Show all']);
  // In sight where the reader is: it was at the content's top, scrolled away above the pinned header.
  const [note, box] = [await page.getByTestId('result-filtered').boundingBox(), await pane.boundingBox()];
  expect(note!.y).toBeGreaterThanOrEqual(box!.y);
  expect(note!.y + note!.height).toBeLessThanOrEqual(box!.y + box!.height);
  expect(await page.getByTestId('result-filtered').evaluate((e) => document.elementFromPoint(e.getBoundingClientRect().left + 4, e.getBoundingClientRect().top + e.getBoundingClientRect().height / 2)?.closest('[data-testid="result-filtered"]') !== null)).toBe(true);
  // Said to a screen reader once: by the note, not by the filter's count too ("1 of 3" changes at each row a running job finishes).
  expect(await spoken('result-pane')()).toEqual(['Target 1 is hidden by the table’s filter (Failed). Show all']);
  expect(await spoken('target-filter')()).toEqual([]);
  expect(await nestedLiveRegions(page)).toEqual([]);
  await page.screenshot({ path: screenshotPath('ui-notices-filtered-out') });
  await page.getByTestId('result-filtered').getByRole('button', { name: 'Show all' }).click();
  await expect.poll(() => page.getByTestId('target-row').count()).toBe(3);
  expect(await page.getByTestId('result-filtered').count()).toBe(0);
  expect(await page.getByTestId('result-pane').getAttribute('data-idx')).toBe('0');
  // A row the filter keeps has no such note.
  await page.getByTestId('filter-status').selectOption('done');
  await expect.poll(() => page.getByTestId('target-row').count()).toBe(2);
  expect(await page.getByTestId('result-filtered').count()).toBe(0);
  await page.getByTestId('filter-status').selectOption('all');
});

/** The text of every live region inside `testId` that says something. */
const spoken = (testId: string) => () =>
  page
    .getByTestId(testId)
    .evaluate((root) =>
      Array.from(root.querySelectorAll('[role="alert"], [role="status"], [aria-live]:not([aria-live="off"])'))
        .map((e) => e.textContent?.trim() ?? '')
        .filter(Boolean),
    );

test('a search or a question Sift will not run is said once, with what to do, not "Not searched" then the reason', async () => {
  await page.getByTestId('job-search-input').fill(Array.from({ length: 80 }, (_, i) => `word${i}`).join(' '));
  await expect.poll(() => page.getByTestId('search-results-job').getAttribute('data-state')).toBe('done');
  await expect.poll(spoken('search-results-job')).toEqual([expect.stringMatching(/at most 64 words and phrases; this one has 80\..*exact phrase/)]);
  expect(await page.getByTestId('search-results-job').textContent()).not.toMatch(/Not searched|Search failed/);
  // The silent status draws no empty bar above the alert (it was a 1 px line over 16 px of padding).
  expect((await page.getByTestId('search-results-job').locator('.search-head').boundingBox())?.height).toBe(0);
  await page.screenshot({ path: screenshotPath('ui-notices-search-error') });
  await page.getByTestId('job-search-input').fill('');
  await page.getByTestId('search-mode-ask').click();
  await page.getByTestId('ask-input').fill('???');
  await page.getByTestId('ask-submit').click();
  await expect.poll(() => page.getByTestId('ask-results').getAttribute('data-state')).toBe('done');
  await expect.poll(spoken('ask-results')).toEqual([expect.stringMatching(/"\?\?\?" has none of them\..*Ask in words/)]);
  expect(await page.getByTestId('ask-results').textContent()).not.toMatch(/Not asked|Ask failed/);
  expect((await page.getByTestId('ask-results').locator('.search-head').boundingBox())?.height).toBe(0);
  // A question answered is still counted in the status. (Before a rare word had to be in a
  // passage, "does", in none, was all this was asked on, and it answered "No passages".)
  await page.getByTestId('ask-input').fill('when does the ferry leave?');
  await page.getByTestId('ask-submit').click();
  await expect.poll(spoken('ask-results')).toEqual([expect.stringMatching(/^[1-9]\d* passages? answering: when does the ferry leave\?$/)]);
  await page.getByTestId('search-mode-find').click();
  expect(pageErrors(page)).toEqual([]);
});

test('Ask with no question yet is a Tab stop that says to type one, and asks nothing when pressed', async () => {
  await page.getByTestId('search-mode-ask').click();
  await page.getByTestId('ask-input').fill('');
  await page.getByTestId('ask-input').press('Escape');
  // No question asked: the table is back in the results' place.
  await expect.poll(() => page.getByTestId('ask-results').count()).toBe(0);
  await page.keyboard.press('Tab');
  expect((await focused(page)).id).toBe('ask-submit');
  expect(await axOf(page, '[data-testid="ask-submit"]')).toMatchObject({ name: 'Ask', description: 'Type a question first, then press Ask.' });
  await page.screenshot({ path: screenshotPath('ui-notices-ask-empty') });
  await page.keyboard.press('Enter');
  expect(await page.getByTestId('ask-results').count()).toBe(0);
  await page.getByTestId('ask-input').fill('ferry');
  await expect.poll(async () => (await axOf(page, '[data-testid="ask-submit"]')).description).toBe('');
  expect(await page.getByTestId('ask-submit').getAttribute('aria-disabled')).toBeNull();
  await page.getByTestId('ask-input').fill('');
  await page.getByTestId('search-mode-find').click();
});

test('Settings shows an allowed IDN host as typed, a look-alike one encoded, and saving changes neither', async () => {
  await page.getByTestId('nav-settings').click();
  const hosts = page.getByTestId('setting-allowHosts');
  await expect.poll(() => hosts.inputValue()).toBe(`${IDN_HOST}\n${LOOKALIKE_HOST}`);
  expect(LOOKALIKE_HOST).toMatch(/^xn--/);
  // Read back as it was stored: nothing to save, and Save and Undo say so to whoever Tabs to them.
  expect(await page.getByTestId('settings-save').getAttribute('aria-disabled')).toBe('true');
  expect(await axOf(page, '[data-testid="settings-save"]')).toMatchObject({ name: 'Save', description: 'Nothing to save: no setting has changed.' });
  expect(await axOf(page, '[data-testid="settings-undo"]')).toMatchObject({ name: 'Undo changes', description: 'Nothing to undo: no setting has changed.' });
  // A field in error: Save names the field to fix.
  await page.getByTestId('setting-userAgent').fill('x'.repeat(600));
  await expect.poll(async () => (await axOf(page, '[data-testid="settings-save"]')).description).toMatch(/^Fix “User agent” to save\.$/);
  await page.getByTestId('settings-undo').click();
  await expect.poll(() => hosts.inputValue()).toBe(`${IDN_HOST}\n${LOOKALIKE_HOST}`);
  await page.screenshot({ path: screenshotPath('ui-notices-settings-idn') });
  await hosts.fill(`${IDN_HOST}\nwiki.bücher.example`);
  await page.getByTestId('settings-save').click();
  await expect.poll(async () => (await o.app.services.handlers.getSettings(undefined as never)).allowHosts).toEqual(['xn--bcher-kva.example', 'wiki.xn--bcher-kva.example']);
  await expect.poll(() => hosts.inputValue()).toBe(`${IDN_HOST}\nwiki.${IDN_HOST}`);
});

test('"Retry these…" of a job still running is a Tab stop that says to wait for the job to finish', async () => {
  await page.getByTestId('nav-new').click();
  await pasteList(page, [`${base}/missing`, `${base}/held2/1`].join('\n'));
  await expect.poll(text('count-valid')).toBe('2');
  await page.getByTestId('paste-box').press('Control+Enter');
  await held2.arrived;
  await expect.poll(() => page.getByTestId('reason-chip').count()).toBe(1);
  await page.getByTestId('reason-chip').click();
  await page.getByTestId('reason-chip').press('Tab');
  expect((await focused(page)).id).toBe('retry-reason');
  expect(await axOf(page, '[data-testid="retry-reason"]')).toMatchObject({ name: 'Retry these…', description: 'Wait for the job to finish: its failed targets can be retried once it ends.' });
  await page.keyboard.press('Enter');
  expect(await page.getByTestId('retry-dialog').count()).toBe(0);
  held2.release();
  await expect.poll(jobStatus, { timeout: 60_000 }).toBe('partial');
  expect(await axOf(page, '[data-testid="retry-reason"]')).toMatchObject({ description: '' });
});
