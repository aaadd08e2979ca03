import { expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import { expectNoInternalErrorText, pageErrors, runListToDone } from '../helpers/ui-app';
import { appForFile } from '../helpers/ui-file';
import { startSite, type Site } from '../helpers/sites';

/**
 * The e2e files' run helpers wait for the job they started, by its id: they waited for any
 * job header that read done, and a list submitted again is the earlier job (the runner's rule
 * 1), shown done at once with the results of its first run, so a test went on with nothing run.
 */
let site: Site;
let page: Page;
const opened = appForFile({
  serve: async () => (site = await startSite()),
  ready: (o) => {
    page = o.page;
  },
});

const shownJob = () => page.getByTestId('job-view').getAttribute('data-job-id');

test('a run helper gives the id of the job it started and waited for, and refuses an earlier job shown again', async () => {
  const list = [`${site.base}/article/1`, `${site.base}/article/2`];
  const first = await runListToDone(page, list);
  expect(first).toMatch(/^[0-9a-f]{8,}$/);
  expect(await shownJob()).toBe(first);
  expect(opened.app.services.store.targetRows(first).map((r) => r.status)).toEqual(['done', 'done']);

  await page.getByTestId('nav-new').click();
  await expect(runListToDone(page, list)).rejects.toThrow(`already job ${first}`);
  await expect(runListToDone(page, list, { fromNew: true })).rejects.toThrow(`already job ${first}`);

  const second = await runListToDone(page, [`${site.base}/article/3`], { fromNew: true });
  expect(second).not.toBe(first);
  expect(await shownJob()).toBe(second);
  expect(opened.app.services.store.targetRows(second).map((r) => r.status)).toEqual(['done']);
  await expectNoInternalErrorText(page);
  expect(pageErrors(page)).toEqual([]);
});
