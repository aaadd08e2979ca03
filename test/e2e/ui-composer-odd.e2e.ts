/**
 * The composer fed what is not a list of URLs, in real Chromium over the real services: what
 * the user reads beside the counts and when Fetch has nothing to send.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { expect, test } from 'vitest';
import { zipOf } from '../helpers/zip';
import type { Page } from 'playwright-core';
import { screenshotPath } from '../helpers/chromium';
import { dropFile, expectNoInternalErrorText, pasteList } from '../helpers/ui-app';
import { appForFile } from '../helpers/ui-file';

let page: Page;

appForFile({
  ready: (o) => {
    page = o.page;
  },
});

test('a saved page with no links says there is no URL in it and why, not that problems are listed', async () => {
  await page.getByTestId('nav-new').click();
  await dropFile(page, 'article.html', '<!doctype html><html><body><h1>Notes</h1><p>Nothing to follow here.</p></body></html>', 'text/html');
  await expect.poll(() => page.getByTestId('parse-nothing').textContent()).toBe('Sift found no URL in this list. The page has no links in it.');
  await page.getByTestId('submit').click();
  const error = page.getByTestId('submit-error');
  await expect.poll(() => error.textContent()).toMatch(/^Sift found no URL in this list\./);
  expect(await error.textContent()).not.toMatch(/listed/);
  await page.screenshot({ path: screenshotPath('ui-composer-no-links') });
  await expectNoInternalErrorText(page);
});

test('a list of only bad lines sends the user to the lines marked invalid, where they are', async () => {
  await page.getByTestId('list-file').getByRole('button', { name: 'Clear and paste instead' }).click();
  await pasteList(page, 'not a url\nftp://files.example/a\njavascript:alert(1)\n');
  await expect.poll(() => page.getByTestId('count-invalid').textContent()).toBe('3');
  expect(await page.getByTestId('parse-nothing').count()).toBe(0);
  await page.getByTestId('submit').click();
  await expect.poll(() => page.getByTestId('submit-error').textContent()).toMatch(/the 3 lines Sift could not read are listed under “Invalid”, with why\.$/);
  expect(await page.getByTestId('invalid-list').isVisible()).toBe(true);
  await page.screenshot({ path: screenshotPath('ui-composer-only-bad') });
  await expectNoInternalErrorText(page);
});

test('in an 800 px window the list keeps the end of each URL in view, so the rows of one site read apart', async () => {
  await page.setViewportSize({ width: 800, height: 700 });
  try {
    await page.getByTestId('paste-box').fill('');
    const base = 'https://reports.example.org/archive/2024/quarterly-results/regional-breakdown';
    const urls = Array.from({ length: 12 }, (_, i) => `${base}/section-${i + 1}.html`);
    urls[3] += ' grep="net revenue" pages=1-5';
    await pasteList(page, urls.join('\n'));
    await expect.poll(() => page.getByTestId('count-valid').textContent()).toBe('12');
    const rows = page.getByTestId('parsed-row').locator('.parsed-url');
    await expect.poll(() => rows.count()).toBe(12);
    const shown = await rows.evaluateAll((els) => els.map((e) => ({ text: e.textContent ?? '', cut: e.scrollWidth > e.clientWidth + 1 })));
    await page.screenshot({ path: screenshotPath('ui-composer-urls-800') });
    // Cut in the middle by Sift, not at the end by CSS: each row ends with what tells it apart.
    expect(shown.filter((r) => r.cut).map((r) => r.text)).toEqual([]);
    const plain = shown.filter((_, i) => i !== 3);
    expect(plain.map((r) => /-\d+\.html$/.exec(r.text)?.[0])).toEqual(urls.filter((_, i) => i !== 3).map((u) => /-\d+\.html$/.exec(u.split(' ')[0]!)?.[0]));
    expect(shown[0]?.text).toMatch(/^reports\..*…/);
    expect(await rows.first().getAttribute('title')).toBe(`${base}/section-1.html`);
    // The row with options of its own shows both, and the preview's buttons stay inside the pane.
    expect(shown[3]?.text).toMatch(/^re.*….*4\.html$/);
    expect(await page.locator('.parsed-head > span').allTextContents()).toEqual(['Line', 'URL', 'Own options']);
    const pane = await page.getByTestId('composer').locator('.composer-review').evaluate((e) => e.getBoundingClientRect().right);
    for (const id of ['preview-button', 'preview-render-button']) {
      expect(await page.getByTestId(id).evaluate((e) => e.getBoundingClientRect().right), id).toBeLessThanOrEqual(pane);
    }
  } finally {
    await page.setViewportSize({ width: 1280, height: 820 });
  }
});

test('the URL about to be previewed shows its options as a list line writes them, not as JSON', async () => {
  await page.getByTestId('paste-box').fill('');
  await pasteList(page, 'https://example.org/q3.pdf pages=1-5 grep="net revenue"');
  await expect.poll(() => page.getByTestId('count-valid').textContent()).toBe('1');
  await page.getByTestId('opt-mode').selectOption('text');
  await expect.poll(() => page.getByTestId('preview-options').textContent()).toBe('mode=text pages=1-5 grep="net revenue"');
  // Where both fit, the row's own options are shown whole beside its URL.
  expect(await page.getByTestId('own-options').evaluate((e) => e.scrollWidth <= e.clientWidth)).toBe(true);
  await expectNoInternalErrorText(page);
});

test('a row whose own options its cell cuts says them whole on hover, not only that they are its own', async () => {
  await page.setViewportSize({ width: 1024, height: 768 });
  try {
    await page.getByTestId('paste-box').fill('');
    await pasteList(page, 'http://127.0.0.1:44823/reports/2026/book.pdf pages=1-3');
    // Its row, not the last test's (the count reads 1 for both).
    await expect.poll(() => page.locator('[data-testid="parsed-row"] .parsed-url').getAttribute('title')).toBe('http://127.0.0.1:44823/reports/2026/book.pdf');
    const chip = page.getByTestId('own-options');
    // At 1024 × 768 the URL leaves the chip a quarter of its cell, and "pages=1-3" read "pages=1…".
    await expect.poll(() => chip.evaluate((e) => e.scrollWidth > e.clientWidth)).toBe(true);
    expect(await chip.getAttribute('title')).toBe("This URL's own options, which win over the options for every URL: pages=1-3");
  } finally {
    await page.setViewportSize({ width: 1280, height: 820 });
  }
});

test('a dropped spreadsheet, document or damaged gzip file says how to give its URLs to Sift', async () => {
  const notice = page.locator('[data-testid="notice"][data-code="not_a_list"]').last();
  const workbook = await zipOf({ '[Content_Types].xml': '<Types/>', 'xl/workbook.xml': '<workbook/>', 'xl/sharedStrings.xml': '<sst><si><t>https://example.org/a</t></si></sst>' });
  await dropFile(page, 'links.xlsx', workbook, 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
  await expect.poll(() => notice.textContent()).toMatch(/^links\.xlsx is a spreadsheet workbook, which Sift cannot read as a list\.Save the sheet that holds the URLs as CSV/);
  await page.screenshot({ path: screenshotPath('ui-composer-drop-xlsx') });
  // An Excel 97 workbook: an OLE compound file, binary.
  await dropFile(page, 'old.xls', Buffer.concat([Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]), Buffer.alloc(504)]), 'application/vnd.ms-excel');
  await expect.poll(() => notice.textContent()).toMatch(/^old\.xls is a spreadsheet workbook/);
  await dropFile(page, 'notes.docx', await zipOf({ 'word/document.xml': '<document/>' }));
  await expect.poll(() => notice.textContent()).toMatch(/^notes\.docx is a word-processor document, which Sift cannot read as a list\.Save it as a web page/);
  const packed = gzipSync('<urlset><url><loc>https://example.org/a</loc></url></urlset>');
  await dropFile(page, 'cut.xml.gz', packed.subarray(0, packed.length - 12), 'application/gzip');
  await expect.poll(() => notice.textContent()).toMatch(/^cut\.xml\.gz is a damaged gzip file: it ends early or is no gzip inside\.Download it again/);
  await expectNoInternalErrorText(page);
});

test('a dropped sitemap.xml.gz, as sites publish their sitemaps, is read as the sitemap inside', async () => {
  await page.getByTestId('nav-new').click();
  await dropFile(page, 'sitemap.xml.gz', readFileSync(path.join(__dirname, '..', 'fixtures', 'lists', 'sitemap.xml.gz')), 'application/gzip');
  await expect.poll(() => page.getByTestId('count-valid').textContent()).toBe('3');
  expect(await page.getByTestId('count-invalid').textContent()).toBe('1');
  await page.screenshot({ path: screenshotPath('ui-composer-drop-sitemap-gz') });
  await expectNoInternalErrorText(page);
});

test('an e-mail pasted whole gives the URLs in its sentences, and counts none of its words as invalid lines', async () => {
  // The sitemap dropped before is the list: back to the paste box.
  const loaded = page.getByTestId('list-file');
  if ((await loaded.count()) > 0) await loaded.getByRole('button', { name: 'Clear and paste instead' }).click();
  await pasteList(page, readFileSync(path.join(__dirname, '..', 'fixtures', 'lists', 'prose-email.txt'), 'utf8'));
  await expect.poll(() => page.getByTestId('count-valid').textContent()).toBe('4');
  expect(await page.getByTestId('count-invalid').textContent()).toBe('0');
  expect(await page.getByTestId('count-duplicates').textContent()).toBe('1');
  const rows = page.getByTestId('parsed-row').locator('.parsed-url');
  expect(await rows.first().getAttribute('title')).toBe('https://example.org/reports/2024-q3.pdf');
  await page.screenshot({ path: screenshotPath('ui-composer-pasted-email') });
  await expectNoInternalErrorText(page);
});
