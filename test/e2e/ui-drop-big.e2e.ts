/**
 * A big list file dropped on the composer, in real Chromium over the real services: a 50 MB
 * bookmarks export or list of URLs (the url-lists corpus repeated) is read and parsed off the
 * window's thread, with its progress shown and a Cancel, and bad input still said plainly.
 */
import { expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import { screenshotPath } from '../helpers/chromium';
import { bookmarksSeed, dropBigList, makeBigList, textSeed, urlListsDir } from '../helpers/big-list';
import { dropFile, expectNoInternalErrorText } from '../helpers/ui-app';
import { appForFile } from '../helpers/ui-file';

const corpus = urlListsDir();
const MB50 = 50 * 1000 * 1000;

let page: Page;

appForFile({
  ready: (o) => {
    page = o.page;
  },
});

const frames = (): Promise<unknown> => page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));

test.skipIf(!corpus)('a 50 MB bookmarks export is read with its progress shown, off the window thread', async () => {
  await page.getByTestId('nav-new').click();
  await makeBigList(page, bookmarksSeed(corpus!), MB50);
  await dropBigList(page);
  const reading = page.getByTestId('list-reading');
  await expect.poll(() => reading.textContent()).toMatch(/^Reading bookmarks\.html: \d+(\.\d)? (B|kB|MB) of 47\.7 MB/);
  await page.screenshot({ path: screenshotPath('ui-drop-big-reading') });
  await page.getByTestId('count-valid').waitFor();
  await frames();
  // How long the window's longest task is, against decoding on its thread, is bench droplist's
  // to measure (a ratio of two timings, no test's): here, that the work is in the worker shows
  // as the progress drawn above while it reads.
  expect(await reading.count()).toBe(0);
  expect(Number((await page.getByTestId('count-valid').textContent())?.replace(/\D/g, ''))).toBeGreaterThan(50_000);
  expect(await page.getByTestId('read-as').textContent()).toBe('read as html');
  await expect.poll(() => page.getByTestId('list-file').textContent()).toMatch(/^bookmarks\.html 47\.7 MB/);
  await expectNoInternalErrorText(page);
});

test.skipIf(!corpus)('Cancel stops reading a 50 MB list and leaves the composer as it was; the next drop is read', async () => {
  await page.getByTestId('list-file').getByRole('button', { name: 'Clear and paste instead' }).click();
  await makeBigList(page, textSeed(corpus!), MB50);
  await dropBigList(page);
  const reading = page.getByTestId('list-reading');
  await reading.waitFor();
  await reading.getByRole('button', { name: 'Cancel' }).click();
  await expect.poll(() => page.locator('[data-testid="notice"]').last().textContent()).toMatch(/^Stopped reading links\.txt; nothing of it is in the list\.Drop it again to read it\./);
  expect(await reading.count()).toBe(0);
  expect(await page.getByTestId('count-valid').count()).toBe(0);
  await page.getByTestId('paste-box').waitFor();
  await dropFile(page, 'two.txt', 'https://example.org/a\nhttps://example.org/b\n');
  await expect.poll(() => page.getByTestId('count-valid').textContent()).toBe('2');
  await expectNoInternalErrorText(page);
});

test('bad files read in the worker are still said plainly: 2 GB, binary, windows-1252, no URL', async () => {
  const notice = page.locator('[data-testid="notice"]').last();
  // 2 GB of parts that are one 64 MiB blob: the size is refused before a byte is read.
  await page.getByTestId('drop-zone').evaluate((el) => {
    const part = new Blob([new Uint8Array(64 * 1024 * 1024)]);
    const dt = new DataTransfer();
    dt.items.add(new File(Array.from({ length: 32 }, () => part), 'huge.txt', { type: 'text/plain' }));
    el.dispatchEvent(new DragEvent('drop', { bubbles: true, cancelable: true, dataTransfer: dt }));
  });
  await expect.poll(() => notice.textContent()).toMatch(/^huge\.txt is 2\.0 GB, too big for a list\.Lists up to 64\.0 MB can be read\./);
  await dropFile(page, 'data.bin', Buffer.from([0x01, 0x00, 0x02, 0x00, 0xff, 0x10, 0x00, 0x00, 0x41]), 'application/octet-stream');
  await expect.poll(() => notice.textContent()).toMatch(/^data\.bin is a binary file, not a list of URLs\.Give a text file of URLs, one a line, or a CSV, bookmarks HTML, JSON, sitemap or OPML file\./);
  // Excel's "CSV" on Windows: é is the one byte 0xE9.
  await dropFile(page, 'cafes.csv', Buffer.from('name,url\nCaf\xe9,https://example.org/caf\xe9\n', 'latin1'), 'text/csv');
  await expect.poll(() => page.getByTestId('count-valid').textContent()).toBe('1');
  expect(await page.getByTestId('parsed-row').first().textContent()).toMatch(/café/);
  await page.getByTestId('list-file').getByRole('button', { name: 'Clear and paste instead' }).click();
  await dropFile(page, 'notes.txt', 'groceries\nmilk\n');
  await expect.poll(() => page.getByTestId('count-invalid').textContent()).toBe('2');
  await expectNoInternalErrorText(page);
});
