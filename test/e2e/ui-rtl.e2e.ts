/**
 * Right-to-left results in the app: an Arabic article and a real Arabic PDF (pdf.js's
 * ArabicCIDTrueType.pdf) fetched through the real services, then read in the result view.
 * Each Arabic paragraph, and each line of a PDF's text, must read from the right: with a
 * left-to-right base, its full stop lands at its start and the line hangs from the left.
 */
import { afterAll, beforeAll, expect, test } from 'vitest';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { screenshotPath } from '../helpers/chromium';
import { startServer, type TestServer } from '../helpers/fetch-server';
import { openApp, pageErrors, pasteList, type OpenedApp } from '../helpers/ui-app';

let opened: OpenedApp;
let page: Page;
let site: TestServer;

const ARABIC_PDF = readFileSync(path.resolve(__dirname, '../fixtures/pdfs/ArabicCIDTrueType.pdf'));
const PARAGRAPHS = [
  'القاهرة هي عاصمة مصر وأكبر مدنها، وتقع على ضفتي نهر النيل في شمال البلاد، ويعيش فيها أكثر من عشرين مليون إنسان.',
  'تأسست المدينة قبل أكثر من ألف عام، وما زالت أسواقها القديمة ومساجدها شاهدة على تاريخها الطويل.',
  'يزور الأهرامات في الجيزة كل عام ملايين السياح من أنحاء العالم، وهي على مسافة قصيرة من وسط المدينة.',
  'وفي المدينة جامعات ومتاحف ومكتبات كثيرة، أشهرها المتحف المصري الذي يضم كنوز الفراعنة.',
];
const ENGLISH = 'Figures from the 2023 census of the Cairo Governorate, in English as the source gives them.';
const LIST = ['الأهرامات', 'المتحف المصري', 'خان الخليلي'];
const ARTICLE = `<!doctype html><html lang="ar" dir="rtl"><head><meta charset="utf-8"><title>مدينة القاهرة</title></head><body><article><h1>مدينة القاهرة</h1>${PARAGRAPHS.map((p) => `<p>${p}</p>`).join('')}<ul>${LIST.map((l) => `<li>${l}</li>`).join('')}</ul><p>${ENGLISH}</p></article></body></html>`;

beforeAll(async () => {
  site = await startServer({
    '/arabic.pdf': (_q, r) => r.writeHead(200, { 'content-type': 'application/pdf' }).end(ARABIC_PDF),
    '/cairo': (_q, r) => r.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(ARTICLE),
  });
  opened = await openApp();
  page = opened.page;
});

afterAll(async () => {
  await opened?.close();
  await site?.close();
});

/**
 * Where a text's last line sits in its block, in px: the gaps between the block's content
 * box and that line, on the left and on the right. A right-to-left line is flush right.
 */
async function gaps(selector: string, needle: string): Promise<{ left: number; right: number } | null> {
  return page.evaluate(
    ({ selector, needle }) => {
      const root = document.querySelector(selector);
      if (!root) return null;
      const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
      for (let n = walker.nextNode(); n; n = walker.nextNode()) {
        const at = (n as Text).data.indexOf(needle);
        if (at < 0) continue;
        const range = document.createRange();
        range.setStart(n, at);
        range.setEnd(n, at + needle.length);
        const rects = range.getClientRects();
        const line = rects[rects.length - 1];
        const block = (n.parentElement as HTMLElement).closest('p, pre') as HTMLElement;
        const box = block.getBoundingClientRect();
        const style = getComputedStyle(block);
        if (!line) return null;
        return { left: line.left - (box.left + parseFloat(style.paddingLeft)), right: box.right - parseFloat(style.paddingRight) - line.right };
      }
      return null;
    },
    { selector, needle },
  );
}

test('a list in Japanese, Russian and Arabic shows its URLs in their own letters, not as Punycode and percent escapes', async () => {
  // Stored as WHATWG URL writes them (xn--r8jz45g.jp/%E3%83%91%E3%82%B9); shown as the address bar shows them.
  await pasteList(page, 'https://例え.jp/パス\nhttps://президент.рф/новости?q=москва\nhttps://موقع.وزارة-الاتصالات.مصر/\nhttps://аррӏе.com/');
  await expect.poll(() => page.getByTestId('count-valid').textContent()).toBe('4');
  expect(await page.getByTestId('parsed-row').locator('.parsed-url').allTextContents()).toEqual([
    'https://例え.jp/パス',
    'https://президент.рф/новости?q=москва',
    'https://موقع.وزارة-الاتصالات.مصر/',
    // All Cyrillic letters that pass for Latin ones: left as Punycode, as browsers leave it.
    'https://xn--80ak6aa92e.com/',
  ]);
  expect(await page.getByTestId('parsed-row').first().locator('.parsed-url').getAttribute('title')).toBe('https://xn--r8jz45g.jp/%E3%83%91%E3%82%B9');
  await pasteList(page, '');
});

test('an Arabic article and an Arabic PDF read from the right, each paragraph and line flush right', async () => {
  await pasteList(page, `${site.origin}/cairo\n${site.origin}/arabic.pdf`);
  await expect.poll(() => page.getByTestId('count-valid').textContent()).toBe('2');
  await page.keyboard.press('Control+Enter');
  await expect.poll(() => page.getByTestId('job-header').getAttribute('data-status'), { timeout: 60_000 }).toBe('done');

  await page.locator('[data-testid="target-row"][data-idx="0"]').click();
  await page.keyboard.press('Enter');
  await expect.poll(() => page.getByTestId('result-markdown').textContent()).toContain(PARAGRAPHS[0]!.slice(0, 20));
  // A paragraph's short last line sits at the right (left to right, it hung from the left).
  const para = await gaps('[data-testid="result-markdown"]', PARAGRAPHS[1]!);
  expect(para, 'the second paragraph is on screen').not.toBeNull();
  expect(para!.right).toBeLessThan(2);
  expect(para!.left).toBeGreaterThan(para!.right + 50);
  // Each block has its own direction: the Arabic ones and the list read right to left (the
  // list's markers on the right), the English paragraph left to right.
  const directions = await page.getByTestId('result-markdown').evaluate((root, english) =>
    Array.from(root.querySelectorAll('p, ul')).map((el) => [el.tagName, (el.textContent ?? '').includes(english) ? 'en' : 'ar', getComputedStyle(el).direction]),
  ENGLISH);
  expect(directions).toEqual([...PARAGRAPHS.map(() => ['P', 'ar', 'rtl']), ['UL', 'ar', 'rtl'], ['P', 'en', 'ltr']]);
  await page.screenshot({ path: screenshotPath('ui-rtl-article') });

  await page.locator('[data-testid="target-row"][data-idx="1"]').click();
  await page.keyboard.press('Enter');
  await expect.poll(() => page.getByTestId('result-text').textContent()).toContain('انواع الخطوط العربية');
  const line = await gaps('[data-testid="result-text"]', 'انواع الخطوط العربية');
  expect(line, 'the PDF line is on screen').not.toBeNull();
  expect(line!.right).toBeLessThan(2);
  expect(line!.left).toBeGreaterThan(line!.right + 50);
  await page.screenshot({ path: screenshotPath('ui-rtl-pdf') });
  expect(pageErrors(page)).toEqual([]);
});
