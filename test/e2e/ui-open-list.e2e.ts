/**
 * "Open list…" in real Chromium over the real services, the dialog a stand-in that names a file
 * on disk: the file is read as a dropped one is (its progress, a Cancel, a newer drop taking
 * its place, the same plain words for a bad file). Its bytes come a piece at a time, by the
 * dialog's token (services.test.ts pins the pieces and that no path is taken from the window).
 */

// The pieces cross the test bridge's WebSocket (Electron's IPC in the app), which Chromium
// takes in a few KB at a time: reading 50 MB took 26–43 s at load 12–16, so the file read whole
// here is 10 MiB (bench droplist opens the 50 MB one); the Cancel test's 50 MB is never read whole.
const BIG_FILE_MS = 180_000;
import { afterAll, expect, test } from 'vitest';
import { mkdirSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { screenshotPath } from '../helpers/chromium';
import { bookmarksSeed, textSeed, urlListsDir, writeBigList } from '../helpers/big-list';
import { dropFile, expectNoInternalErrorText, tempDir } from '../helpers/ui-app';
import { appForFile } from '../helpers/ui-file';

const corpus = urlListsDir();
const MB50 = 50 * 1000 * 1000;
const MIB10 = 10 * 1024 * 1024;
const dir = tempDir('sift-open-list-');

/** What the stand-in dialog answers next: a path, or null (the user cancelled it). */
let chosen: string | null = null;
/** Run as the dialog closes, before main reads the file (the file deleted meanwhile, say). */
let onChosen: () => void = () => {};

let page: Page;

// After the app has closed (an afterAll before appForFile's runs last).
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

appForFile({
  app: {
    listFile: () => {
      onChosen();
      return chosen;
    },
  },
  ready: async (o) => {
    page = o.page;
    await page.getByTestId('nav-new').click();
  },
});

const notice = (): Promise<string | null> => page.locator('[data-testid="notice"]').last().textContent();

async function openList(file: string | null, before: () => void = () => {}): Promise<void> {
  chosen = file;
  onChosen = before;
  await page.getByTestId('open-list').click();
}

async function clearList(): Promise<void> {
  const clear = page.getByTestId('list-file').getByRole('button', { name: 'Clear and paste instead' });
  if (await clear.count()) await clear.click();
}

test.skipIf(!corpus)('a 10 MB bookmarks export opened with Open list… is read with its progress shown', async () => {
  const file = path.join(dir, 'bookmarks.html');
  writeBigList(file, bookmarksSeed(corpus!), MIB10);
  await openList(file);
  const reading = page.getByTestId('list-reading');
  await expect.poll(() => reading.textContent()).toMatch(/^Reading bookmarks\.html: \d+(\.\d)? (B|kB|MB) of 10\.0 MB/);
  await page.screenshot({ path: screenshotPath('ui-open-list-reading') });
  await page.getByTestId('count-valid').waitFor();
  expect(await reading.count()).toBe(0);
  expect(Number((await page.getByTestId('count-valid').textContent())?.replace(/\D/g, ''))).toBeGreaterThan(10_000);
  expect(await page.getByTestId('read-as').textContent()).toBe('read as html');
  await expect.poll(() => page.getByTestId('list-file').textContent()).toMatch(/^bookmarks\.html 10\.0 MB/);
  await expectNoInternalErrorText(page);
}, BIG_FILE_MS);

test.skipIf(!corpus)('Cancel stops reading an opened list, and a file dropped while one is read takes its place', async () => {
  await clearList();
  const file = path.join(dir, 'links.txt');
  writeBigList(file, textSeed(corpus!), MB50);
  await openList(file);
  const reading = page.getByTestId('list-reading');
  await reading.waitFor();
  await reading.getByRole('button', { name: 'Cancel' }).click();
  await expect.poll(notice).toMatch(/^Stopped reading links\.txt; nothing of it is in the list\.Open it again to read it\./);
  expect(await reading.count()).toBe(0);
  expect(await page.getByTestId('count-valid').count()).toBe(0);
  await openList(file);
  await expect.poll(() => reading.textContent()).toMatch(/^Reading links\.txt/);
  await dropFile(page, 'two.txt', 'https://example.org/a\nhttps://example.org/b\n');
  await expect.poll(() => page.getByTestId('count-valid').textContent()).toBe('2');
  expect(await reading.count()).toBe(0);
  await expect.poll(() => page.getByTestId('list-file').textContent()).toMatch(/^two\.txt/);
  await expectNoInternalErrorText(page);
});

test('an opened file too big, no list, empty, of no URL, vanished or a folder is said as a dropped one is', async () => {
  await clearList();
  const write = (name: string, content: string | Buffer): string => {
    const file = path.join(dir, name);
    writeFileSync(file, content);
    return file;
  };
  // 65 MiB of nothing (a sparse file): refused by its size before a byte is read, as a drop is.
  const huge = write('huge.txt', '');
  truncateSync(huge, 65 * 1024 * 1024);
  await openList(huge);
  await expect.poll(notice).toMatch(/^huge\.txt is 65\.0 MB, too big for a list\.Lists up to 64\.0 MB can be read\./);
  await openList(write('data.bin', Buffer.from([0x01, 0x00, 0x02, 0x00, 0xff, 0x10, 0x00, 0x00, 0x41])));
  await expect.poll(notice).toMatch(/^data\.bin is a binary file, not a list of URLs\.Give a text file of URLs, one a line, or a CSV, bookmarks HTML, JSON, sitemap or OPML file\./);
  await openList(write('report.pdf', '%PDF-1.7\n%\xe2\xe3\n1 0 obj\n<<>>\nendobj\n'));
  await expect.poll(notice).toMatch(/^report\.pdf is a PDF document, not a list of URLs\./);
  const gone = write('gone.txt', 'https://example.org/gone\n');
  await openList(gone, () => rmSync(gone));
  await expect.poll(notice).toMatch(/^Could not read gone\.txt\.Check that the file still exists and that you can open it\./);
  const folder = path.join(dir, 'saved lists');
  mkdirSync(folder);
  await openList(folder);
  await expect.poll(notice).toMatch(/^Could not read saved lists\.Check that the file still exists/);
  // Notepad's "Unicode": UTF-16LE with a byte order mark.
  await openList(write('notepad-unicode.txt', Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('https://example.org/a\r\nhttps://example.org/b\r\n', 'utf16le')])));
  await expect.poll(() => page.getByTestId('count-valid').textContent()).toBe('2');
  await clearList();
  await openList(write('empty.txt', ''));
  await expect.poll(() => page.getByTestId('empty-file').textContent()).toBe('empty.txt is empty: there is no URL in it to read.');
  await openList(write('notes.txt', 'groceries\nmilk\n'));
  await expect.poll(() => page.getByTestId('count-invalid').textContent()).toBe('2');
  await expectNoInternalErrorText(page);
});
