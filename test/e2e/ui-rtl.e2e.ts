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
import { dropFile, pageErrors, pasteList } from '../helpers/ui-app';
import { appForFile } from '../helpers/ui-file';

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

// A Hebrew page whose title ends in a question mark, and a list file named in Hebrew (no
// extension, as a file saved from a phone's notes often is), long enough to be cut in the jobs list.
const HEBREW_TITLE = 'מה חדש בירושלים?';
const HEBREW_PAGE = `<!doctype html><html lang="he" dir="rtl"><head><meta charset="utf-8"><title>${HEBREW_TITLE}</title></head><body><article><h1>${HEBREW_TITLE}</h1><p>ירושלים היא בירת ישראל והעיר הגדולה ביותר בה. בעיר מתגוררים כמיליון תושבים, והיא מרכז דתי חשוב לשלוש הדתות.</p><p>העיר העתיקה מוקפת חומה שנבנתה במאה השש עשרה, ובתוכה ארבעה רובעים. תיירים רבים מגיעים לבקר בה בכל שנה.</p><p>בשנת 2023 ביקרו בעיר יותר משלושה מיליון תיירים, לפי נתוני משרד התיירות, והמספר עולה משנה לשנה.</p></article></body></html>`;
const HEBREW_LIST = 'קישורים לחדשות ירושלים ותל אביב מהשבוע האחרון';

beforeAll(async () => {
  site = await startServer({
    '/jerusalem': (_q, r) => r.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(HEBREW_PAGE),
    '/arabic.pdf': (_q, r) => r.writeHead(200, { 'content-type': 'application/pdf' }).end(ARABIC_PDF),
    '/cairo': (_q, r) => r.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(ARTICLE),
  });
});
afterAll(async () => {
  await site?.close();
});

appForFile({
  ready: (o) => {
    page = o.page;
  },
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
  // Its Markdown (the default mode) is rendered, as the article's is: its paragraph reads from the right.
  await expect.poll(() => page.getByTestId('result-markdown').textContent()).toContain('انواع الخطوط العربية');
  expect(await page.getByTestId('result-markdown').locator('p').first().evaluate((el) => getComputedStyle(el).direction)).toBe('rtl');
  const line = await gaps('[data-testid="result-markdown"]', 'انواع الخطوط العربية');
  expect(line, 'the PDF line is on screen').not.toBeNull();
  expect(line!.right).toBeLessThan(2);
  expect(line!.left).toBeGreaterThan(line!.right + 50);
  await page.screenshot({ path: screenshotPath('ui-rtl-pdf') });
  expect(pageErrors(page)).toEqual([]);
});

/**
 * The left edge (px) of each character of `needle` where it is shown under `selector` (the
 * first text node holding it); a right-to-left run shows its first character rightmost.
 */
async function charLefts(selector: string, needle: string): Promise<number[] | null> {
  return page.evaluate(
    ({ selector, needle }) => {
      const root = document.querySelector(selector);
      if (!root) return null;
      const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
      for (let n = walker.nextNode(); n; n = walker.nextNode()) {
        const at = (n as Text).data.indexOf(needle);
        if (at < 0) continue;
        const range = document.createRange();
        return Array.from(needle, (_, i) => {
          range.setStart(n!, at + i);
          range.setEnd(n!, at + i + 1);
          return range.getBoundingClientRect().left;
        });
      }
      return null;
    },
    { selector, needle },
  );
}

test("a Hebrew title and list name read from the right beside the app's English: the '?' at the title's end, the count after the name", async () => {
  await page.getByTestId('nav-new').click();
  await dropFile(page, HEBREW_LIST, `${site.origin}/jerusalem\n`);
  await expect.poll(() => page.getByTestId('count-valid').textContent()).toBe('1');
  await page.keyboard.press('Control+Enter');
  await expect.poll(() => page.getByTestId('job-header').getAttribute('data-status'), { timeout: 60_000 }).toBe('done');

  // The job's name: "קישורים … · 1 URL", the count to the right of the whole name. As one
  // left-to-right string, "1" joined the Hebrew run and showed at its left.
  expect(await page.getByTestId('job-name').textContent()).toBe(`${HEBREW_LIST} · 1 URL`);
  const name = await charLefts('[data-testid="job-name"]', HEBREW_LIST);
  const count = await charLefts('[data-testid="job-name"]', '1 URL');
  expect(name && count, 'the name and its count are on screen').toBeTruthy();
  expect(count![0]).toBeGreaterThan(Math.max(...name!));

  // In the narrow jobs list the name is cut: its first words stay, an ellipsis in its middle
  // takes what does not fit, and nothing runs past its box (left to right, the cut took the
  // start of a right-to-left name).
  const item = page.locator(`[data-testid="job-item"][data-job-id="${await page.getByTestId('job-view').getAttribute('data-job-id')}"] .job-item-label`);
  const cut = await item.evaluate((el, first) => {
    const box = el.getBoundingClientRect();
    const range = document.createRange();
    range.setStart(el.firstChild!, 0);
    range.setEnd(el.firstChild!, first.length);
    const r = range.getBoundingClientRect();
    return { overflows: el.scrollWidth > el.clientWidth, firstWordInside: r.left >= box.left - 1 && r.right <= box.right + 1 };
  }, HEBREW_LIST.split(' ')[0]!);
  expect(cut).toEqual({ overflows: false, firstWordInside: true });
  expect(await item.textContent()).toContain('…');

  // The title ends in '?': shown right to left, the '?' is the leftmost character, in the
  // target table, the result's heading and its Meta row alike.
  await page.locator('[data-testid="target-row"][data-idx="0"]').click();
  await page.keyboard.press('Enter');
  await expect.poll(() => page.getByTestId('result-meta').textContent()).toContain(HEBREW_TITLE);
  for (const where of ['[data-testid="target-row"] .c-detail', '.result-title', '[data-testid="result-meta"] [data-key="title"] dd']) {
    const xs = await charLefts(where, HEBREW_TITLE);
    expect(xs, `${where} shows the title`).not.toBeNull();
    expect(Math.min(...xs!), `the '?' is leftmost in ${where}`).toBe(xs!.at(-1));
    expect(Math.max(...xs!), `the first letter is rightmost in ${where}`).toBe(xs![0]);
  }
  await page.screenshot({ path: screenshotPath('ui-rtl-title') });

  // A search hit's title, and the job named in the search's list of matching names.
  await page.getByTestId('sidebar-search-input').fill('ירושלים');
  await expect.poll(() => page.getByTestId('search-results-all').getAttribute('data-state')).toBe('done');
  const hit = await charLefts('[data-testid="search-hit"] .hit-title', HEBREW_TITLE);
  expect(hit, 'the hit shows the title').not.toBeNull();
  expect(Math.min(...hit!)).toBe(hit!.at(-1));
  const matched = await charLefts('[data-testid="search-job"]', HEBREW_LIST);
  const matchedCount = await charLefts('[data-testid="search-job"]', '1 URL');
  expect(matchedCount![0]).toBeGreaterThan(Math.max(...matched!));
  await page.screenshot({ path: screenshotPath('ui-rtl-search') });
  expect(pageErrors(page)).toEqual([]);
});
