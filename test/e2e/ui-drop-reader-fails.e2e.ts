/**
 * A dropped file's reader (the list worker) failing, in real Chromium over the real services:
 * its script answering with an error stands in for a worker that ran out of memory or broke.
 * The notice must not send the user to check a file that is fine.
 */
import { expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import { dropFile, expectNoInternalErrorText } from '../helpers/ui-app';
import { appForFile } from '../helpers/ui-file';

let page: Page;

appForFile({
  app: {
    prepare: async (context) => {
      await context.route(/parse\.worker[^/]*\.js(\?.*)?$/, (route) => route.fulfill({ contentType: 'text/javascript', body: 'throw new Error("the reader broke");' }));
    },
  },
  ready: (o) => {
    page = o.page;
  },
});

test('a reader that fails says reading stopped and what to try, not that the file may be missing', async () => {
  await dropFile(page, 'links.txt', 'https://example.org/a\nhttps://example.org/b\n');
  const notice = page.locator('[data-testid="notice"]').last();
  await expect.poll(() => notice.textContent()).toMatch(/^Sift could not finish reading links\.txt\./);
  expect(await notice.textContent()).not.toMatch(/still exists/);
  expect(await page.getByTestId('list-reading').count()).toBe(0);
  await expectNoInternalErrorText(page);
});
