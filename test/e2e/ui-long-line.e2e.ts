/**
 * Results of one line of 2 MB (a minified script, the Markdown of a page that is one paragraph,
 * a JSON document with a long string) opened in the app, through the real services and the
 * bridge in Chromium. The pane was sent the line's first MiB, which Chromium took 11–17 s to
 * lay out while the window froze, and a grep's match or a search hit further on was not in it.
 */
import { expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import { screenshotPath } from '../helpers/chromium';
import { startServer, type TestServer } from '../helpers/fetch-server';
import { expectNoInternalErrorText, pageErrors, pasteList } from '../helpers/ui-app';
import { appForFile } from '../helpers/ui-file';
import { LINE_WINDOW, MAX_SHOWN_LINE } from '../../src/shared/shown';

let page: Page;
let site: TestServer;

// One line of a minified script, 2,000,012 characters, its match 1.5 MB in.
const MINIFIED = `${'var a=1;'.repeat(187_500)}NEEDLE_HERE;${'var b=2;'.repeat(62_500)}`;
// One paragraph of 2 MB of words, "lighthouse keeper" 1.5 MB in and nowhere else.
const WORDS = Array.from({ length: 400_000 }, (_, i) => (i === 300_000 ? 'lighthouse keeper' : 'word')).join(' ');

// The longest gap between two frames since it was last read: a long task, layout included.
const FRAME_GAPS = `
  window.__gap = 0;
  let last = performance.now();
  const tick = (t) => { window.__gap = Math.max(window.__gap, t - last); last = t; requestAnimationFrame(tick); };
  requestAnimationFrame(tick);
`;

appForFile({
  serve: async () =>
    (site = await startServer({
      '/min.js': (_q, r) => r.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' }).end(`first line\n${MINIFIED}\nlast line\n`),
      '/page': (_q, r) =>
        r.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(`<!doctype html><html lang="en"><head><title>One paragraph</title></head><body><article><h1>One paragraph</h1><p>${WORDS}</p></article></body></html>`),
      '/words.txt': (_q, r) => r.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' }).end(WORDS),
      '/data.json': (_q, r) => r.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ name: 'bundle', data: MINIFIED })),
    })),
  app: {
    prepare: async (context) => {
      await context.addInitScript({ content: FRAME_GAPS });
    },
  },
  ready: (o) => {
    page = o.page;
  },
});

// Reading a page that is one paragraph of 2 MB takes its seconds (5 s with `sift extract` on a
// loaded 2-core machine), not a sign of anything stuck: the job is waited for by its status.
async function runList(lines: string[]): Promise<void> {
  await page.getByTestId('nav-new').click();
  await pasteList(page, lines.join('\n'));
  await expect.poll(() => page.getByTestId('count-valid').textContent()).toBe(String(lines.length));
  await page.keyboard.press('Control+Enter');
  await expect.poll(() => page.getByTestId('job-header').getAttribute('data-status'), { timeout: 180_000 }).toBe('done');
}

/** Opens row `idx`'s result and waits for the frame after it is drawn; the longest frame gap meanwhile. */
async function openRow(idx: number): Promise<number> {
  await page.locator(`[data-testid="target-row"][data-idx="${idx}"]`).click();
  await page.evaluate(() => {
    (window as unknown as { __gap: number }).__gap = 0;
  });
  await page.keyboard.press('Enter');
  await page.locator(`[data-testid="result-pane"][data-idx="${idx}"] [data-testid="result-text"]`).waitFor();
  return page.evaluate(() => new Promise<number>((done) => requestAnimationFrame(() => requestAnimationFrame(() => done((window as unknown as { __gap: number }).__gap)))));
}

/** The pane's text: its longest line, whether it wraps inside the pane, and the whole. */
const shownText = (): Promise<{ text: string; longest: number; wraps: boolean }> =>
  page.getByTestId('result-text').evaluate((pre) => ({
    text: pre.textContent ?? '',
    longest: Math.max(...(pre.textContent ?? '').split('\n').map((l) => l.length)),
    wraps: pre.scrollWidth <= pre.clientWidth,
  }));

test("a grep's match 1.5 MB into a line of 2 MB is shown, in a window of the line the pane lays out at once, with the line's length said", async () => {
  await runList([`${site.origin}/min.js grep="NEEDLE_HERE"`]);
  const gap = await openRow(0);
  const shown = await shownText();
  expect(shown.text).toContain('NEEDLE_HERE');
  expect(shown.longest).toBeLessThanOrEqual(LINE_WINDOW + 2);
  expect(shown.wraps).toBe(true);
  const from = MINIFIED.indexOf('NEEDLE_HERE') - LINE_WINDOW / 2 + 1;
  expect(await page.getByTestId('result-long-lines').textContent()).toBe(
    `Line 1 is ${MINIFIED.length.toLocaleString('en-US')} characters long, too long to show whole: showing ${LINE_WINDOW.toLocaleString('en-US')} of them, around the match (from character ${from.toLocaleString('en-US')}). Copy takes all of the result, as does exporting the job.`,
  );
  // No "first 1.0 MB" said of a result whose lines all show.
  expect(await page.getByTestId('result-cut').count()).toBe(0);
  // Before: 11–17 s of one frame on a quiet machine; the window lays out 16 KiB in milliseconds.
  expect(gap).toBeLessThan(5_000);
  await page.screenshot({ path: screenshotPath('ui-long-line-grep') });
  // Copy takes the whole line, as stored.
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(page.url()).origin });
  await page.getByTestId('result-copy').click();
  await expect.poll(() => page.getByTestId('result-copy-status').textContent()).toMatch(/^Copied /);
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(MINIFIED);
});

test('a line of 2 MB as text, as the Markdown of a one-paragraph page and in JSON opens without freezing the window, and wraps', async () => {
  await runList([`${site.origin}/min.js mode=text`, `${site.origin}/page`, `${site.origin}/data.json mode=raw`]);
  for (const idx of [0, 1, 2]) {
    const gap = await openRow(idx);
    const shown = await shownText();
    expect(shown.longest).toBeLessThanOrEqual(LINE_WINDOW + 2);
    expect(shown.longest).toBeGreaterThan(MAX_SHOWN_LINE / 8);
    expect(shown.wraps).toBe(true);
    expect(await page.getByTestId('result-long-lines').textContent()).toMatch(/^Line \d+ is [\d,]+ characters long, too long to show whole: showing 16,384 of them, from its start\. Copy takes all/);
    expect(gap).toBeLessThan(5_000);
  }
  expect(pageErrors(page)).toEqual([]);
}, 300_000);

test("a preview of a line of 2 MB is cut as a job's result is, and Copy still takes all of it", async () => {
  await page.getByTestId('nav-new').click();
  await pasteList(page, `${site.origin}/min.js mode=text`);
  await expect.poll(() => page.getByTestId('count-valid').textContent()).toBe('1');
  await page.evaluate(() => {
    (window as unknown as { __gap: number }).__gap = 0;
  });
  await page.getByTestId('preview-button').click();
  await page.locator('[data-testid="preview-panel"] [data-testid="result-text"]').waitFor();
  const gap = await page.evaluate(() => new Promise<number>((done) => requestAnimationFrame(() => requestAnimationFrame(() => done((window as unknown as { __gap: number }).__gap)))));
  const shown = await shownText();
  expect(shown.longest).toBeLessThanOrEqual(LINE_WINDOW + 2);
  expect(shown.wraps).toBe(true);
  expect(await page.getByTestId('result-long-lines').textContent()).toMatch(/^Line 2 is 2,000,012 characters long, too long to show whole: showing 16,384 of them, from its start\./);
  expect(gap).toBeLessThan(5_000);
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(page.url()).origin });
  await page.getByTestId('result-copy').click();
  await expect.poll(() => page.getByTestId('result-copy-status').textContent()).toMatch(/^Copied /);
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(`first line\n${MINIFIED}\nlast line\n`);
});

test('a search hit 1.5 MB into a line of 2 MB opens at the match, highlighted and in view', async () => {
  await runList([`${site.origin}/words.txt`]);
  await page.getByTestId('job-search-input').fill('"lighthouse keeper"');
  await expect.poll(() => page.getByTestId('search-results-job').getAttribute('data-state'), { timeout: 60_000 }).toBe('done');
  await page.getByTestId('search-hit').first().click();
  await expect.poll(() => page.getByTestId('result-view').getAttribute('data-highlight'), { timeout: 30_000 }).toMatch(/^lighthouse keeper$/i);
  const inView = await page.evaluate(() => {
    const range = [...(CSS.highlights.get('sift-hit') ?? [])][0] as Range | undefined;
    const pane = document.querySelector('[data-testid="result-pane"]');
    if (!range || !pane) return false;
    const r = range.getBoundingClientRect();
    const p = pane.getBoundingClientRect();
    return r.height > 0 && r.top >= p.top && r.bottom <= p.bottom;
  });
  expect(inView).toBe(true);
  expect(await page.getByTestId('result-long-lines').textContent()).toMatch(/^Line 1 is [\d,]+ characters long, too long to show whole: showing 16,384 of them, around the match \(from character [\d,]+\)\./);
  await page.screenshot({ path: screenshotPath('ui-long-line-hit') });
  await expectNoInternalErrorText(page);
  expect(pageErrors(page)).toEqual([]);
});
