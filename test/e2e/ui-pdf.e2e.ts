/**
 * PDF results as the user reads them in the result pane: a scanned PDF, a PDF of no pages and
 * a grep that keeps nothing, fetched through the real services from a loopback site.
 */
import type { ServerResponse } from 'node:http';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import { screenshotPath } from '../helpers/chromium';
import { makePdf, numberedPdf, twoColumnPaper } from '../helpers/fetch-pdf';
import { startServer, type TestServer } from '../helpers/fetch-server';
import { openApp, pageErrors, pasteList, runListToDone, tempDir } from '../helpers/ui-app';
import { runSift } from '../helpers/cli';
import { appForFile } from '../helpers/ui-file';

let page: Page;
let site: TestServer;

const pdf = (body: Buffer) => (_q: unknown, r: ServerResponse) => void r.writeHead(200, { 'content-type': 'application/pdf' }).end(body);

beforeAll(async () => {
  site = await startServer({
    '/scan.pdf': pdf(makePdf({ pages: [[], [], []], noText: true })),
    '/none.pdf': pdf(readFileSync(path.join(__dirname, '../fixtures/pdfs/zero-pages.pdf'))),
    '/report.pdf': pdf(makePdf({ pages: [['Quarterly report'], ['Net revenue rose.']] })),
    '/manual.pdf': pdf(makePdf({ pages: [['Run ssh <hostname> as root (&copy; 2009).']] })),
    '/locked.pdf': pdf(makePdf({ pages: [['Secret']], encrypted: true })),
    '/cut.pdf': pdf(numberedPdf(10).subarray(0, 1500)),
    '/paper.pdf': pdf(twoColumnPaper()),
    // A real paper (test/fixtures/pdfs): a title, sections in larger type, bulleted lines.
    '/tracemonkey.pdf': pdf(readFileSync(path.join(__dirname, '../fixtures/pdfs/tracemonkey.pdf'))),
    // 352 pages: read for a second or more, in 16-page chunks after the first 4.
    '/book.pdf': pdf(readFileSync(path.join(__dirname, '../fixtures/pdfs/freeculture.pdf'))),
  });
});
afterAll(() => site?.close());
appForFile({
  ready: (o) => {
    page = o.page;
  },
});

const runJob = (lines: string[]): Promise<string> => runListToDone(page, lines, { fromNew: true });

async function emptyText(idx: number): Promise<string> {
  await page.locator(`[data-testid="target-row"][data-idx="${idx}"]`).click();
  await page.keyboard.press('Enter');
  const empty = page.getByTestId('result-empty');
  await expect.poll(() => empty.count()).toBe(1);
  return empty.innerText();
}

test('an empty PDF result says why: no text layer (OCR it), no pages, or a grep that matched nothing', async () => {
  await runJob([`${site.origin}/scan.pdf`, `${site.origin}/none.pdf`, `${site.origin}/report.pdf grep=profit`]);
  // Each read "the page had nothing that matched", with no grep asked for the first two.
  const scan = await emptyText(0);
  expect(scan).toMatch(/no text layer.*OCR/);
  await page.screenshot({ path: screenshotPath('ui-pdf-scanned') });
  expect(await emptyText(1)).toMatch(/holds no pages/);
  expect(await emptyText(2)).toMatch(/^No line matches the grep expression: /);
});

test("a PDF's meta says in words how its pages were put in reading order", async () => {
  await runJob([`${site.origin}/report.pdf`]);
  await page.locator('[data-testid="target-row"][data-idx="0"]').click();
  await page.keyboard.press('Enter');
  const reading = page.locator('[data-testid="result-meta"] [data-key="pdf"] dd');
  // It printed the stored object: "bidi: false, bidi_lines: 0, columns: 1, multi_column_pages: 0, dehyphenated: 0, …".
  await expect.poll(() => reading.textContent()).toBe('as laid out: one column, nothing joined or left out');
});

test('a PDF that cannot be opened fails with what to do, and its chip does not call PDF an unsupported type', async () => {
  await page.getByTestId('nav-new').click();
  await pasteList(page, [`${site.origin}/locked.pdf`, `${site.origin}/cut.pdf`].join('\n'));
  await expect.poll(() => page.getByTestId('count-valid').textContent()).toBe('2');
  await page.keyboard.press('Control+Enter');
  await expect.poll(() => page.getByTestId('job-header').getAttribute('data-status'), { timeout: 60_000 }).toBe('failed');
  const rows = page.getByTestId('target-row');
  // "unsupported type · encrypted PDF: it needs a password" told the user Sift does not read PDFs.
  expect(await rows.getByTestId('row-reason').allInnerTexts()).toEqual(['unreadable file', 'unreadable file']);
  expect(await rows.getByTestId('row-error').allInnerTexts()).toEqual([
    // Without the command line's "run sift extract", which the app has no way to do.
    expect.stringMatching(/encrypted PDF: it needs a password — (?!.*sift extract).*open it in a PDF reader with its password/),
    expect.stringMatching(/malformed PDF: cut short after 1,500 bytes .* — A download or a copy stopped early/),
  ]);
  await page.screenshot({ path: screenshotPath('ui-pdf-unreadable') });
});

test("a password-protected PDF that sift batch read shows the app's words in the app: a PDF reader, not a command to run", async () => {
  const dataDir = tempDir('sift-ui-pdf-cli-');
  const list = path.join(dataDir, 'list.txt');
  writeFileSync(list, `${site.origin}/locked.pdf\n`);
  const cli = await runSift(['batch', list, '--db', path.join(dataDir, 'sift.db'), '--allow-host', '127.0.0.1'], { env: { SIFT_HOME: dataDir } });
  expect(cli.code, cli.stderr).toBe(1);
  expect(cli.stderr).toMatch(/run sift extract on that copy/);
  const other = await openApp({ dataDir });
  try {
    const p = other.page;
    await expect.poll(() => p.getByTestId('job-item').count()).toBe(1);
    await p.getByTestId('job-item').click();
    const row = p.locator('[data-testid="target-row"][data-idx="0"]');
    const appWords = /encrypted PDF: it needs a password — (?!.*sift extract).*open it in a PDF reader with its password/;
    await expect.poll(() => row.getByTestId('row-error').innerText()).toMatch(appWords);
    await row.click();
    await p.keyboard.press('Enter');
    const pane = p.getByTestId('result-error');
    await expect.poll(() => pane.innerText()).toMatch(/open it in a PDF reader with its password/);
    expect(await pane.innerText()).not.toMatch(/sift extract/);
    expect(pageErrors(p)).toEqual([]);
  } finally {
    await other.close();
  }
});

test("a two-column paper asked for pages past its end: the row warns, the Meta table names them and counts the paper's columns, not its table's", async () => {
  await runJob([`${site.origin}/paper.pdf pages=1,9-12`]);
  const row = page.locator('[data-testid="target-row"][data-idx="0"]');
  // It came back ok with page 1, and nothing said pages 9 to 12 were not there.
  expect(await row.getByTestId('row-warning').allInnerTexts()).toEqual(['pages past the end']);
  await row.click();
  await page.keyboard.press('Enter');
  const meta = page.getByTestId('result-meta');
  await expect.poll(() => meta.locator('[data-key="pages_missing"] dd').textContent()).toBe('9-12');
  expect(await meta.locator('[data-key="pages_missing"] dt').textContent()).toBe('Pages chosen past the end');
  // It said "1 page read column by column (up to 7)": the table's seven narrow columns.
  expect(await meta.locator('[data-key="pdf"] dd').textContent()).toBe(
    '1 page in 2 columns read column by column; 1 page with narrow columns side by side (tables, figure labels) read one column after the other',
  );
  await meta.locator('[data-key="pdf"]').scrollIntoViewIfNeeded();
  await page.screenshot({ path: screenshotPath('ui-pdf-pages-past-end') });
});

test("a long PDF's row says how many of its pages are read while it reads, then its size once done", async () => {
  await page.getByTestId('nav-new').click();
  await pasteList(page, `${site.origin}/book.pdf`);
  await expect.poll(() => page.getByTestId('count-valid').textContent()).toBe('1');
  await page.keyboard.press('Control+Enter');
  // Read in the page at each frame it draws, so the text is the row's own at that moment,
  // not a later one after the book was read.
  const shown = await page.waitForFunction(
    () => {
      const row = document.querySelector('[data-testid="target-row"][data-idx="0"]');
      const pages = row?.querySelector('[data-testid="row-pages"]');
      return pages && row?.getAttribute('data-status') === 'running' ? { text: pages.textContent, size: row.querySelector('.c-size') !== null } : null;
    },
    null,
    { polling: 'raf', timeout: 60_000 },
  );
  const { text, size } = (await shown.jsonValue()) as { text: string; size: boolean };
  const read = /^reading the PDF: (\d+) of 352 pages$/.exec(text);
  expect(read, text).not.toBeNull();
  expect(Number(read![1])).toBeLessThan(352);
  // The pages take the size column, which a running row leaves empty.
  expect(size).toBe(false);
  await expect.poll(() => page.getByTestId('job-header').getAttribute('data-status'), { timeout: 60_000 }).toBe('done');
  const row = page.locator('[data-testid="target-row"][data-idx="0"]');
  expect(await row.getByTestId('row-pages').count()).toBe(0);
  expect(await row.locator('.c-size').innerText()).toMatch(/^[\d.]+ [kM]B$/);
});

test('no errors were logged in the page', () => {
  expect(pageErrors(page)).toEqual([]);
});

test("a PDF's Markdown shows the document's own < and & as written", async () => {
  await runJob([`${site.origin}/manual.pdf`]);
  await page.locator('[data-testid="target-row"][data-idx="0"]').click();
  await page.keyboard.press('Enter');
  const md = page.getByTestId('result-markdown');
  await expect.poll(() => md.count()).toBe(1);
  // "<hostname>" was taken as a tag and went ("Run ssh as root"), and "&copy;" showed "©".
  expect(await md.textContent()).toContain('Run ssh <hostname> as root (&copy; 2009).');
  expect(pageErrors(page)).toEqual([]);
});

test("a PDF's Markdown reads as Markdown, its headings headings and its pages marked; its text stays laid out", async () => {
  await runJob([`${site.origin}/tracemonkey.pdf pages=1-2`, `${site.origin}/tracemonkey.pdf pages=1-2 mode=text`]);
  await page.locator('[data-testid="target-row"][data-idx="0"]').click();
  await page.keyboard.press('Enter');
  const view = page.getByTestId('result-view');
  const md = page.getByTestId('result-markdown');
  // It was laid out text: "## Abstract" and "- We explain an algorithm" written out.
  await expect.poll(() => md.count()).toBe(1);
  expect(await view.getAttribute('data-shape')).toBe('markdown');
  expect(await md.locator('h1').allTextContents()).toEqual(['Trace-based Just-in-Time Type Specialization for Dynamic Languages']);
  expect(await md.locator('h2').allTextContents()).toEqual(['Abstract', '1. Introduction', '2. Overview: Example Tracing Run']);
  expect(await md.locator('li').first().textContent()).toMatch(/^We explain an algorithm for dynamically forming trace trees/);
  expect(await md.textContent()).not.toMatch(/## |^- /m);
  // Each page marked where it starts, as in the text; the mark has no text of its own.
  const marks = md.getByTestId('page-mark');
  expect(await marks.evaluateAll((els) => els.map((e) => [e.getAttribute('data-page'), e.getAttribute('aria-label'), e.textContent]))).toEqual([
    ['1', 'Page 1', ''],
    ['2', 'Page 2', ''],
  ]);
  expect(await marks.nth(1).evaluate((el) => getComputedStyle(el, '::before').content)).toBe('"Page 2"');
  expect(await marks.nth(0).evaluate((el) => el.nextElementSibling?.querySelector('h1')?.textContent)).toBe('Trace-based Just-in-Time Type Specialization for Dynamic Languages');
  await page.screenshot({ path: screenshotPath('ui-pdf-markdown') });
  await marks.nth(1).scrollIntoViewIfNeeded();
  await page.screenshot({ path: screenshotPath('ui-pdf-markdown-page-2') });
  // Its meta says what was marked.
  expect(await page.getByTestId('result-meta').locator('[data-key="pdf"] dd').textContent()).toMatch(/4 headings and 3 list items marked in Markdown, by type size and bullets/);
  // Shown as its source, the Markdown as written, its pages still marked.
  await page.getByRole('button', { name: 'Show source' }).click();
  await expect.poll(() => page.getByTestId('result-text').textContent()).toContain('## Abstract');
  expect(await page.getByTestId('result-text').getByTestId('page-mark').count()).toBe(2);

  await page.locator('[data-testid="target-row"][data-idx="1"]').click();
  await page.keyboard.press('Enter');
  await expect.poll(() => view.getAttribute('data-shape')).toBe('text');
  expect(await page.getByTestId('result-text').getByTestId('page-mark').count()).toBe(2);
  expect(await page.getByTestId('result-text').textContent()).toContain('Abstract\nDynamic languages such as JavaScript');
  await page.screenshot({ path: screenshotPath('ui-pdf-text') });
  expect(pageErrors(page)).toEqual([]);
});
