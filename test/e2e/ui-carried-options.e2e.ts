import { expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import { screenshotPath } from '../helpers/chromium';
import { dropFile, expectNoInternalErrorText, expectNothingCutOrOverlapping, pageErrors, runListToDone, pasteList } from '../helpers/ui-app';
import { appForFile } from '../helpers/ui-file';
import { startSite, type Site } from '../helpers/sites';

/**
 * A new list starts with the options of the job before it (a user fetching page after page
 * with the same grep keeps it), but says so beside Fetch, where the eye is when the list is
 * sent: a list pasted after a grep job came back as matching lines, the grep sitting in a
 * field below the fold of a 1024×768 window.
 */
let site: Site;
let page: Page;

const opened = appForFile({
  serve: async () => (site = await startSite()),
  viewport: { width: 1024, height: 768 },
  ready: (o) => {
    page = o.page;
  },
});

const carried = () => page.getByTestId('carried-options');
const jobOptions = (id: string) => opened.app.services.store.targetRows(id).map((r) => r.options);
const shownJobId = async () => (await page.getByTestId('job-header').locator('.job-id').innerText()).replace(/^Job id\s*/, '').trim();

test('the last job’s options are said beside Fetch, and Reset starts the new list from none', async () => {
  await page.getByTestId('opt-grep').fill('Paragraph 2');
  expect(await carried().count()).toBe(0);
  await runListToDone(page, [`${site.base}/article/1`, `${site.base}/article/2`]);

  await page.getByTestId('nav-new').click();
  await expect.poll(() => carried().textContent()).toBe('Options from your last job: grep="Paragraph 2"Reset');
  expect(await carried().isVisible()).toBe(true);
  await pasteList(page, `${site.base}/article/3\n${site.base}/article/4`);
  await page.getByTestId('count-valid').filter({ hasText: /^2$/ }).waitFor();
  await page.screenshot({ path: screenshotPath('ui-carried-options') });

  await page.getByTestId('carried-reset').click();
  expect(await carried().count()).toBe(0);
  expect(await page.getByTestId('opt-grep').inputValue()).toBe('');
  // The focus Reset held goes to the next control there, not to the page's body.
  await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('submit');
  await page.keyboard.press('Control+Enter');
  await page.locator('[data-testid="job-header"][data-status="done"]').waitFor();
  expect(jobOptions(await shownJobId())).toEqual([undefined, undefined]);
  await expectNoInternalErrorText(page);
  expect(pageErrors(page)).toEqual([]);
});

test('an option changed by hand makes the options this list’s own: the line goes, the others stay', async () => {
  await page.getByTestId('nav-new').click();
  await page.getByTestId('opt-mode').selectOption('text');
  await page.getByTestId('opt-grep').fill('Article');
  await runListToDone(page, [`${site.base}/article/5`]);

  await page.getByTestId('nav-new').click();
  await expect.poll(() => carried().textContent()).toBe('Options from your last job: mode=text grep=ArticleReset');
  await page.getByTestId('opt-context').check();
  expect(await carried().count()).toBe(0);
  await runListToDone(page, [`${site.base}/article/6`]);
  expect(jobOptions(await shownJobId())).toEqual([{ mode: 'text', grep: 'Article', context: true }]);
  // Options set for a list that was never sent are not the last job's: nothing to say yet.
  await page.getByTestId('nav-new').click();
  await expect.poll(() => carried().textContent()).toContain('context');
  await page.getByTestId('carried-reset').click();
  await page.getByTestId('opt-grep').fill('x');
  await page.getByTestId('nav-activity').click();
  await page.getByTestId('nav-new').click();
  expect(await carried().count()).toBe(0);
  expect(pageErrors(page)).toEqual([]);
});

test('at 800 px a dropped list says the question and grep it keeps beside Fetch, its words and Reset whole', async () => {
  await page.setViewportSize({ width: 800, height: 600 });
  await page.getByTestId('nav-new').click();
  await page.getByTestId('opt-question').fill('what changed in the harbour this quarter?');
  await page.getByTestId('opt-grep').fill('harbour');
  await runListToDone(page, [`${site.base}/article/7`]);

  await page.getByTestId('nav-new').click();
  await dropFile(page, 'next-week.txt', `${site.base}/article/8\n${site.base}/article/9\n`);
  await page.getByTestId('count-valid').filter({ hasText: /^2$/ }).waitFor();
  await expect.poll(() => carried().textContent()).toBe('Options from your last job: question="what changed in the harbour this quarter?" grep=harbourReset');
  // Cut to the room beside Fetch, the options still show enough to recognise (at least "question=\"what").
  expect(await carried().locator('code').evaluate((e) => e.getBoundingClientRect().width)).toBeGreaterThan(90);
  await expect.poll(() => expectNothingCutOrOverlapping(page).then(() => 'ok', (e: Error) => e.message)).toBe('ok');
  // No line of this list has options of its own: "Own options" stood over an empty column.
  expect(await page.locator('.parsed-head > span').allTextContents()).toEqual(['Line', 'URL']);
  // Clear, wrapped under the file's name, starts where the name does: its padding put it 4 px right.
  const lefts = await page.getByTestId('list-file').evaluate((chip) => {
    const textLeft = (el: Element | null): number => {
      const r = document.createRange();
      r.selectNodeContents(el!);
      return r.getClientRects()[0]!.left;
    };
    return { name: textLeft(chip.querySelector('strong')), clear: textLeft(chip.querySelector('button')) };
  });
  expect(lefts.clear).toBeCloseTo(lefts.name, 0);
  await page.screenshot({ path: screenshotPath('ui-carried-options-drop-800') });
  await expectNoInternalErrorText(page);
  expect(pageErrors(page)).toEqual([]);
});
