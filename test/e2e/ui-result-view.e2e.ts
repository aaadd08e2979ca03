/**
 * Stored results as the user reads them in the result pane: Markdown with tables, code, lists,
 * quotes, images and raw HTML from the page; a big PDF; a 5 MB Markdown file; fetched through
 * the real services from a loopback site.
 */
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import { screenshotPath } from '../helpers/chromium';
import { numberedPdf } from '../helpers/fetch-pdf';
import { startServer, type TestServer } from '../helpers/fetch-server';
import { pageErrors, runListToDone } from '../helpers/ui-app';
import { appForFile } from '../helpers/ui-file';

let page: Page;
let site: TestServer;

const LONG_URL = `https://example.org/${'segment-without-breaks-'.repeat(20)}end`;
const MD = [
  '# Reading a result',
  '',
  '| Name | Price | Notes |',
  '| --- | ---: | --- |',
  '| Widget | 25 € | light |',
  `| Gadget | 80 € | ${'wide '.repeat(60)}|`,
  `| Link | 0 € | ${LONG_URL} |`,
  '',
  '```js',
  `const aVeryLongLine = ${JSON.stringify('x'.repeat(400))};`,
  '```',
  '',
  '- one',
  '  - one.a',
  '    - one.a.i',
  '- two',
  '',
  '> A quoted passage.',
  '',
  `A link: [site](https://example.org/) and a long one: ${LONG_URL}`,
  '',
  '![A chart of sales](https://example.org/chart.png)',
].join('\n');

const BIG = `# Big\n\n${`A paragraph of the big result, said again and again. ${'word '.repeat(40)}\n\n`.repeat(20_000)}The last line, past all the pane shows.`;

// What a page's own HTML may leave in a Markdown result: none of it may run, load or restyle the app.
const HOSTILE = [
  '# Hostile',
  '',
  'Raw HTML: <script>window.__ran = 1</script><img src="x" onerror="window.__ran = 2"> <a href="javascript:window.__ran=3">js link</a>',
  '',
  '<iframe src="https://example.org/"></iframe>',
  '',
  '<style>body { display: none !important; }</style>',
  '',
  'Text after the style.',
].join('\n');

// A note a reader follows down the page: the link is a fragment of the result, as footnotes are.
const NOTES = ['# Notes', '', 'A claim that needs a source.[1](#fn-1)', '', ...Array.from({ length: 80 }, (_, i) => `Filler paragraph ${i + 1}.\n`), '<p id="fn-1">1. The source of the claim.</p>'].join('\n');

// Footnotes as the extractor writes them: a mark early, its note past many screens.
const FOOTNOTES = ['# Footnotes', '', 'The water rose at the weir.[^1]', '', ...Array.from({ length: 80 }, (_, i) => `Filler paragraph ${i + 1}.\n`), '[^1]: Measured at the weir in May.'].join('\n');

// A blog's feed of two posts, each with its note "1" past many screens, kramdown's ids the same in both.
const feedPost = (n: number): string =>
  `<item><title>Post ${n}</title><link>https://blog.example/p${n}</link><description><![CDATA[<p>Claim ${n}<sup id="fnref:1"><a href="#fn:1">1</a></sup> here.</p>` +
  Array.from({ length: 40 }, (_, i) => `<p>Filler ${i + 1} of post ${n}.</p>`).join('') +
  `<ol><li id="fn:1"><p>Note of post ${n}. <a href="#fnref:1">↩</a></p></li></ol>]]></description></item>`;
const FEED = `<?xml version="1.0"?><rss version="2.0"><channel><title>Blog</title><link>https://blog.example/</link>${feedPost(1)}${feedPost(2)}</channel></rss>`;

beforeAll(async () => {
  site = await startServer({
    '/article.md': (_q, r) => r.writeHead(200, { 'content-type': 'text/markdown; charset=utf-8' }).end(MD),
    '/big.md': (_q, r) => r.writeHead(200, { 'content-type': 'text/markdown; charset=utf-8' }).end(BIG),
    '/hostile.md': (_q, r) => r.writeHead(200, { 'content-type': 'text/markdown; charset=utf-8' }).end(HOSTILE),
    '/notes.md': (_q, r) => r.writeHead(200, { 'content-type': 'text/markdown; charset=utf-8' }).end(NOTES),
    '/footnotes.md': (_q, r) => r.writeHead(200, { 'content-type': 'text/markdown; charset=utf-8' }).end(FOOTNOTES),
    '/feed.xml': (_q, r) => r.writeHead(200, { 'content-type': 'application/rss+xml; charset=utf-8' }).end(FEED),
    '/book.pdf': (_q, r) => r.writeHead(200, { 'content-type': 'application/pdf' }).end(numberedPdf(300, 'Book')),
  });
});
afterAll(() => site?.close());
appForFile({
  ready: (o) => {
    page = o.page;
  },
});

const runJob = (lines: string[]): Promise<string> => runListToDone(page, lines, { fromNew: true });

async function open(idx: number): Promise<void> {
  await page.locator(`[data-testid="target-row"][data-idx="${idx}"]`).click();
  await page.keyboard.press('Enter');
}

test('a table in a Markdown result keeps its words whole and scrolls inside the pane when it is wider', async () => {
  await runJob([`${site.origin}/article.md`]);
  await open(0);
  const table = page.getByTestId('result-markdown').locator('table');
  await expect.poll(() => table.count()).toBe(1);
  // Each short cell on one line: with the pane's overflow-wrap: anywhere, a wide column took
  // all the room and "Name" stood one letter a line, "25 €" over three.
  const lines = await table.evaluate((t) =>
    [...t.querySelectorAll('th, td')]
      .filter((c) => (c.textContent ?? '').length < 10)
      .map((c) => {
        const r = document.createRange();
        r.selectNodeContents(c);
        return [c.textContent, new Set([...r.getClientRects()].map((x) => Math.round(x.top))).size];
      }),
  );
  expect(lines).toEqual([
    ['Name', 1],
    ['Price', 1],
    ['Notes', 1],
    ['Widget', 1],
    ['25 €', 1],
    ['light', 1],
    ['Gadget', 1],
    ['80 €', 1],
    ['Link', 1],
    ['0 €', 1],
  ]);
  // Nothing of the result runs the page wider than its pane.
  const pane = await page.getByTestId('result-pane').evaluate((e) => e.scrollWidth - e.clientWidth);
  expect(pane).toBe(0);
  await table.scrollIntoViewIfNeeded();
  await page.screenshot({ path: screenshotPath('ui-result-table') });
});

test('"Show source" is one toggle that says whether it is pressed, not a button whose name flips', async () => {
  // A list of its own: article.md alone is the job of the first test, which the run helper refuses.
  await runJob([`${site.origin}/article.md?toggle`]);
  await open(0);
  await expect.poll(() => page.getByTestId('result-markdown').count()).toBe(1);
  const toggle = page.getByTestId('result-view').getByRole('button', { name: 'Show source' });
  expect(await toggle.getAttribute('aria-pressed')).toBe('false');
  await toggle.click();
  await expect.poll(() => page.getByTestId('result-text').count()).toBe(1);
  expect(await toggle.getAttribute('aria-pressed')).toBe('true');
  expect(await page.getByTestId('result-view').locator('.result-toolbar').ariaSnapshot()).toContain('button "Show source" [pressed]');
  await page.screenshot({ path: screenshotPath('ui-result-source-pressed') });
  await toggle.click();
  await expect.poll(() => page.getByTestId('result-markdown').count()).toBe(1);
  expect(await toggle.getAttribute('aria-pressed')).toBe('false');
});

test("following a link to a place in the result scrolls to it and leaves the app's screen in the address", async () => {
  await runJob([`${site.origin}/notes.md`]);
  const hash = await page.evaluate(() => location.hash);
  expect(hash).toMatch(/^#job\//);
  await open(0);
  const note = page.getByTestId('result-markdown').locator('#fn-1');
  await expect.poll(() => note.count()).toBe(1);
  const inView = () => note.evaluate((n) => {
    const pane = n.closest('[data-testid="result-pane"]')!.getBoundingClientRect();
    const r = n.getBoundingClientRect();
    return r.top >= pane.top && r.bottom <= pane.bottom;
  });
  expect(await inView()).toBe(false);
  await page.getByTestId('result-markdown').getByRole('link', { name: '1' }).click();
  await expect.poll(inView).toBe(true);
  // The screen lives in the hash (store/view.ts): "#fn-1" there made a reload open the composer.
  expect(await page.evaluate(() => location.hash)).toBe(hash);
  await page.reload();
  await expect.poll(() => page.getByTestId('job-view').getAttribute('data-job-id')).toBe(decodeURIComponent(hash.slice('#job/'.length)));
});

type Link = ReturnType<Page['getByRole']>;
const inView = (link: Link) => () =>
  link.evaluate((n) => {
    const pane = n.closest('[data-testid="result-pane"]')!.getBoundingClientRect();
    const r = n.getBoundingClientRect();
    // A raised mark scrolled to the pane's top lies a fraction of a pixel above it (204.89 against 205).
    return r.top >= pane.top - 1 && r.bottom <= pane.bottom + 1;
  });
const focused = (link: Link) => () => link.evaluate((n) => n === document.activeElement);

test("a footnote's mark leads to its note and the note back, from the keyboard, without leaving the job's screen", async () => {
  await runJob([`${site.origin}/footnotes.md`]);
  const hash = await page.evaluate(() => location.hash);
  await open(0);
  const md = page.getByTestId('result-markdown');
  const mark = md.getByRole('link', { name: 'Note 1', exact: true });
  const back = md.getByRole('link', { name: 'Back to where note 1 is cited' });
  await expect.poll(() => back.count()).toBe(1);
  expect(await inView(back)()).toBe(false);
  // Reached with Tab as any link is, and followed with Enter.
  expect(await mark.evaluate((n) => (n as HTMLElement).tabIndex)).toBe(0);
  await mark.focus();
  await page.keyboard.press('Enter');
  await expect.poll(inView(back)).toBe(true);
  await expect.poll(focused(back)).toBe(true);
  await page.screenshot({ path: screenshotPath('ui-result-footnote-note') });
  expect(await inView(mark)()).toBe(false);
  await page.keyboard.press('Enter');
  await expect.poll(inView(mark)).toBe(true);
  await expect.poll(focused(mark)).toBe(true);
  expect(await page.evaluate(() => location.hash)).toBe(hash);
});

test("a feed's notes show each post's own number, and a second post's mark leads to its own note and back", async () => {
  await runJob([`${site.origin}/feed.xml`]);
  await open(0);
  const md = page.getByTestId('result-markdown');
  const mark = md.getByRole('link', { name: 'Note 1 of post 2', exact: true });
  const back = md.getByRole('link', { name: 'Back to where note 1 of post 2 is cited' });
  await expect.poll(() => back.count()).toBe(1);
  // "1", as the post's page shows it: the preview showed "2-1".
  expect(await md.locator('sup').allInnerTexts()).toEqual(['1', '1', '1', '1']);
  await mark.focus();
  expect(await inView(back)()).toBe(false);
  await page.keyboard.press('Enter');
  await expect.poll(focused(back)).toBe(true);
  await expect.poll(inView(back)).toBe(true);
  expect(await back.evaluate((n) => n.closest('p')!.textContent)).toBe('1 Note of post 2.');
  await page.screenshot({ path: screenshotPath('ui-result-feed-footnote-note') });
  await page.keyboard.press('Enter');
  await expect.poll(focused(mark)).toBe(true);
  await expect.poll(inView(mark)).toBe(true);
  expect(await mark.evaluate((n) => n.closest('p')!.textContent)).toBe('Claim 21 here.');
});

test('a Markdown result too big to render says it is shown as its source', async () => {
  await runJob([`${site.origin}/big.md`]);
  await open(0);
  await expect.poll(() => page.getByTestId('result-text').count()).toBe(1);
  // "Markdown · 4.9 MB" over "# Big" and no way to render it read as a broken renderer.
  expect(await page.getByTestId('result-view').locator('.result-toolbar').innerText()).toMatch(/Markdown result · 4\.\d MB\s+Shown as source: too big to render/);
  await page.screenshot({ path: screenshotPath('ui-result-big-markdown') });
});

test('Copy puts the whole result on the clipboard, past the part the pane shows, and says so', async () => {
  // A list of its own: big.md alone is the job of the test before, which the run helper refuses.
  await runJob([`${site.origin}/big.md?copy`]);
  await open(0);
  await expect.poll(() => page.getByTestId('result-cut').count()).toBe(1);
  expect(await page.getByTestId('result-text').innerText()).not.toContain('The last line');
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(page.url()).origin });
  await page.getByTestId('result-copy').click();
  await expect.poll(() => page.getByTestId('result-copy-status').textContent()).toMatch(/^Copied 4\.\d MB$/);
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  // As stored: the served Markdown, trimmed at its end as every result is.
  expect(copied.length).toBeGreaterThan(4_000_000);
  expect(copied).toBe(BIG.trim());
  await page.screenshot({ path: screenshotPath('ui-result-copied') });

  // A clipboard that refuses: the reason and what to do instead, not a silent nothing.
  await page.evaluate(() => {
    navigator.clipboard.writeText = () => Promise.reject(new DOMException('Write permission denied.', 'NotAllowedError'));
  });
  await page.getByTestId('result-copy').click();
  await expect
    .poll(() => page.getByTestId('result-copy-status').textContent())
    .toBe('Could not copy: Write permission denied. Select the text and press Ctrl+C, or export the job.');
});

test("a result's own scripts, handlers, frames and styles neither run nor show", async () => {
  await runJob([`${site.origin}/hostile.md`]);
  const before = pageErrors(page).length;
  await open(0);
  const md = page.getByTestId('result-markdown');
  await expect.poll(() => md.innerText()).toContain('Text after the style.');
  expect(await md.locator('script, iframe, style, [onerror], a[href^="javascript:"]').count()).toBe(0);
  expect(await page.evaluate(() => (window as unknown as { __ran?: number }).__ran)).toBeUndefined();
  expect(await md.isVisible()).toBe(true);
  // DOMPurify parses the HTML in an inert document, and Chromium reports the CSP refusing its
  // handler and style there; nothing else may be logged. These are taken out of the page's log.
  const logged = pageErrors(page).splice(before);
  expect(logged.filter((m) => !/violates the following Content Security Policy directive '(script|style)-src 'self''.*has been blocked/.test(m))).toEqual([]);
});

test('no errors were logged in the page', () => {
  expect(pageErrors(page)).toEqual([]);
});
