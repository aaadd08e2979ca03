/**
 * Pasting into the composer, in real Chromium over the real services: a paste too long for the
 * box is held as a summary (never put in the textarea, whose own editing froze the window for
 * 13.5 s at 200,000 lines), and a short one is left to the browser as before.
 */
import { expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import { MAX_SUBMIT_TARGETS, type SiftApi } from '../../src/shared/ipc/contract';
import { dropLinks, expectNoInternalErrorText, pageErrors } from '../helpers/ui-app';
import { appForFile } from '../helpers/ui-file';

let page: Page;

appForFile({
  ready: (o) => {
    page = o.page;
  },
});

/**
 * Pastes `n` lines into the paste box as Ctrl+V does: a paste event carrying the clipboard's
 * text (built in the page: 8.7 MB need not cross the bridge). Says whether the browser's own
 * insertion was stopped, and the longest text the box held meanwhile.
 */
/** The focused element: its test id, else its text (a button's name). */
function focusedName(p: Page): Promise<string> {
  return p.evaluate(() => {
    const e = document.activeElement as HTMLElement | null;
    return !e || e === document.body ? 'body' : (e.dataset.testid ?? e.textContent ?? '');
  });
}

function pasteLines(p: Page, n: number): Promise<{ prevented: boolean; longestInBox: number }> {
  return p.getByTestId('paste-box').evaluate((box, count) => {
    const area = box as HTMLTextAreaElement;
    let longest = area.value.length;
    const watch = (): void => void (longest = Math.max(longest, area.value.length));
    area.addEventListener('input', watch);
    const dt = new DataTransfer();
    dt.setData('text/plain', Array.from({ length: count }, (_, i) => `http://127.0.0.1:9/page/${i}`).join('\n'));
    const event = new ClipboardEvent('paste', { clipboardData: dt, bubbles: true, cancelable: true });
    area.focus();
    area.dispatchEvent(event);
    watch();
    area.removeEventListener('input', watch);
    return { prevented: event.defaultPrevented, longestInBox: longest };
  }, n);
}

test('a paste of 200,000 URLs is held as a summary, never put in the box, and Fetch says it is longer than one job', async () => {
  const pasted = await pasteLines(page, 200_000);
  expect(pasted).toEqual({ prevented: true, longestInBox: 0 });
  const held = page.getByTestId('list-held');
  await expect.poll(() => held.getByTestId('held-lines').textContent()).toBe('200,000 lines');
  expect(await held.getByTestId('held-first').textContent()).toBe('http://127.0.0.1:9/page/0\nhttp://127.0.0.1:9/page/1\nhttp://127.0.0.1:9/page/2');
  expect(await page.getByTestId('paste-box').count()).toBe(0);
  // The box that had the focus is gone: a keyboard user lands on the summary, not the page's start.
  expect(await focusedName(page)).toBe('Clear');
  // Too long to edit in the box: only clearing is offered.
  expect(await held.getByRole('button', { name: 'Edit in the box' }).count()).toBe(0);
  await expect.poll(() => page.getByTestId('parse-truncated').count(), { timeout: 120_000 }).toBe(1);
  expect(await page.getByTestId('count-valid').textContent()).toBe(MAX_SUBMIT_TARGETS.toLocaleString('en-US'));
  await page.getByTestId('submit').click();
  await expect.poll(() => page.getByTestId('submit-error').getAttribute('data-code')).toBe('list_too_long');
  await held.getByRole('button', { name: 'Clear' }).click();
  expect(await page.getByTestId('paste-box').inputValue()).toBe('');
  expect(await focusedName(page)).toBe('paste-box');
  await expectNoInternalErrorText(page);
  expect(pageErrors(page)).toEqual([]);
});

test('a held paste takes dragged links, opens in the box when asked, and makes a job of every URL in it', async () => {
  // 5,000 lines of 26 characters: past the hold size, under the default 10,000 URLs a job holds.
  expect((await pasteLines(page, 5_000)).prevented).toBe(true);
  const held = page.getByTestId('list-held');
  await expect.poll(() => page.getByTestId('count-valid').textContent()).toBe('5,000');
  await dropLinks(page, ['http://127.0.0.1:9/dragged/a', 'http://127.0.0.1:9/dragged/b']);
  await expect.poll(() => page.getByTestId('count-valid').textContent()).toBe('5,002');
  expect(await held.getByTestId('held-lines').textContent()).toBe('5,002 lines');
  await held.getByRole('button', { name: 'Edit in the box' }).click();
  const box = page.getByTestId('paste-box');
  expect((await box.inputValue()).split('\n')).toHaveLength(5_002);
  expect(await focusedName(page)).toBe('paste-box');
  expect(await page.getByTestId('list-held').count()).toBe(0);
  await page.getByTestId('submit').click();
  await page.waitForFunction(() => location.hash.startsWith('#job/'));
  const jobs = await page.evaluate(async () => (await (window as unknown as { sift: SiftApi }).sift.listJobs()).jobs);
  expect(jobs.map((j) => j.targetsTotal)).toEqual([5_002]);
  await expectNoInternalErrorText(page);
  expect(pageErrors(page)).toEqual([]);
});

test('a short paste is left to the browser, into the box as before', async () => {
  await page.getByTestId('nav-new').click();
  expect(await pasteLines(page, 3)).toEqual({ prevented: false, longestInBox: 0 });
  expect(await page.getByTestId('list-held').count()).toBe(0);
  expect(await page.getByTestId('paste-box').count()).toBe(1);
});
