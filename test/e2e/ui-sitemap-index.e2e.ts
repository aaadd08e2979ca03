import { afterAll, beforeAll, expect, test } from 'vitest';
import type http from 'node:http';
import type { Page } from 'playwright-core';
import { whenSaying } from '../helpers/a11y';
import { screenshotPath } from '../helpers/chromium';
import { dropFile, expectNoInternalErrorText, pageErrors, type UiApp } from '../helpers/ui-app';
import { appForFile } from '../helpers/ui-file';
import { held } from '../helpers/loopback';
import { startSite, type Site } from '../helpers/sites';

/**
 * A sitemap index dropped on the composer: its sitemaps are fetched by main (through the
 * guarded fetcher, from a loopback site) and the pages they list become the list, with
 * progress, a stop, and the sitemaps that failed. Without it the job fetched each sitemap's XML.
 */
let site: Site;
let app: UiApp;
let page: Page;
/** The held sitemap: the test waits for its request, and its answer waits for the test. */
const sitemap = held();

const xml = (root: 'urlset' | 'sitemapindex', paths: string[]): string =>
  `<?xml version="1.0" encoding="UTF-8"?>\n<${root} xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${paths
    .map((p) => (root === 'urlset' ? `  <url><loc>${site.base}${p}</loc></url>` : `  <sitemap><loc>${site.base}${p}</loc></sitemap>`))
    .join('\n')}\n</${root}>\n`;
const send = (paths: string[]) => (_req: http.IncomingMessage, res: http.ServerResponse) =>
  res.writeHead(200, { 'content-type': 'application/xml' }).end(xml('urlset', paths));

beforeAll(async () => {
  site = await startSite({
    '/sitemap-posts.xml': send(['/article/1', '/article/2']),
    '/sitemap-pages.xml': send(['/article/2', '/article/3']),
    '/feeds/rss': (_req, res) =>
      res
        .writeHead(200, { 'content-type': 'application/rss+xml' })
        .end(`<?xml version="1.0"?><rss version="2.0"><channel><title>A</title><item><link>${site.base}/article/11</link></item><item><link>${site.base}/article/12</link></item></channel></rss>`),
    '/feeds/atom': (_req, res) =>
      res
        .writeHead(200, { 'content-type': 'application/atom+xml' })
        .end(`<?xml version="1.0"?><feed xmlns="http://www.w3.org/2005/Atom"><title>B</title><entry><link href="${site.base}/article/12"/></entry><entry><link rel="alternate" href="${site.base}/article/13"/></entry></feed>`),
    '/sitemap-held.xml': (_req, res) => {
      sitemap.hold(() => res.writeHead(200, { 'content-type': 'application/xml' }).end(xml('urlset', ['/article/7'])));
    },
  });
});
afterAll(async () => {
  await site?.close();
});

appForFile({
  ready: (o) => {
    ({ app, page } = o);
  },
});
// Before the app closes (an afterAll after appForFile's runs first).
afterAll(() => {
  sitemap.release();
});

const text = (testId: string) => () => page.getByTestId(testId).first().textContent();
const rowUrls = (): Promise<string[]> => page.getByTestId('parsed-row').locator('.parsed-url').allTextContents();

test("a dropped sitemap index becomes the pages its sitemaps list, and says which sitemap failed", async () => {
  await dropFile(page, 'sitemap_index.xml', xml('sitemapindex', ['/sitemap-posts.xml', '/sitemap-gone.xml', '/sitemap-pages.xml']), 'application/xml');
  await expect.poll(() => page.getByTestId('sitemap-note').getAttribute('data-state'), { timeout: 60_000 }).toBe('read');
  expect(await text('count-valid')()).toBe('3');
  expect(await rowUrls()).toEqual([1, 2, 3].map((n) => `${site.base}/article/${n}`));
  // The Line column is the index's line naming each page's sitemap.
  expect(await page.getByTestId('parsed-row').locator('.line-no').allTextContents()).toEqual(['3', '3', '5']);
  expect(await text('sitemap-note')()).toContain(
    "This list was a sitemap index of 3 sitemaps; the list below is the 3 pages they list (2 sitemaps read). Its Line column is the line naming each page's sitemap.",
  );
  expect(await text('sitemap-failures')()).toMatch(new RegExp(`Sitemaps that gave no page: 1\\s*line 4 ${site.base}/sitemap-gone.xml HTTP 404`));
  expect(await text('submit')()).toContain('Fetch 3 URLs');
  expect(await text('read-as')()).toBe('read from sitemaps');
  await page.screenshot({ path: screenshotPath('ui-sitemap-index-read') });
  await expectNoInternalErrorText(page);
  await page.keyboard.press('Control+Enter');
  await expect.poll(() => page.getByTestId('job-header').getAttribute('data-status'), { timeout: 60_000 }).toBe('done');
  const id = (await page.getByTestId('job-view').getAttribute('data-job-id')) ?? '';
  expect(app.services.store.targetRows(id).map((r) => r.url)).toEqual([1, 2, 3].map((n) => `${site.base}/article/${n}`));
});

test('reading the sitemaps can be stopped; the list is then the sitemaps, and reading again gets the pages', async () => {
  await page.getByTestId('nav-new').click();
  await dropFile(page, 'big_index.xml', xml('sitemapindex', ['/sitemap-held.xml']), 'application/xml');
  await sitemap.arrived;
  await expect.poll(() => page.getByTestId('sitemap-note').getAttribute('data-state')).toBe('reading');
  await expect.poll(text('sitemap-note')).toContain('This list is a sitemap index: it names 1 sitemap, not pages. Sift is reading it for the pages they list: 0 of 1 sitemap read, 0 pages so far.');
  await expect.poll(text('submit')).toContain('Reading the list…');
  const stopping = await whenSaying(page, 'sitemap-stop', 'Stopping…');
  await page.getByTestId('sitemap-stop').click();
  // Not disabled: a keyboard user reaches it and hears why it cannot be pressed again.
  expect(await stopping.seen()).toEqual({ disabled: false, ariaDisabled: 'true', description: 'Already stopping: in a moment the reading ends and the list stays as it was given.' });
  await expect.poll(() => page.getByTestId('sitemap-note').getAttribute('data-state')).toBe('stopped');
  expect(await text('sitemap-note')()).toBe("Reading stopped. The list below holds the index's own entries (1 sitemap): fetched as they are, they give XML, not pages.Read their pages");
  expect(await rowUrls()).toEqual([`${site.base}/sitemap-held.xml`]);
  expect(await text('read-as')()).toBe('read as xml');
  await page.screenshot({ path: screenshotPath('ui-sitemap-index-stopped') });
  await expectNoInternalErrorText(page);
  sitemap.release();
  await page.getByTestId('sitemap-read').click();
  await expect.poll(() => page.getByTestId('sitemap-note').getAttribute('data-state'), { timeout: 60_000 }).toBe('read');
  expect(await rowUrls()).toEqual([`${site.base}/article/7`]);
});

test("pasted sitemaps' addresses are offered to be read for their pages; a page's address is not", async () => {
  await page.getByTestId('list-file').getByRole('button', { name: 'Clear and paste instead' }).click();
  await page.getByTestId('paste-box').fill(`${site.base}/article/1\n${site.base}/sitemap-posts.xml`);
  await expect.poll(text('count-valid')).toBe('2');
  expect(await page.getByTestId('sitemap-note').count()).toBe(0);
  await page.getByTestId('paste-box').fill(`${site.base}/sitemap-posts.xml\n${site.base}/sitemap-pages.xml`);
  await expect.poll(() => page.getByTestId('sitemap-note').getAttribute('data-state')).toBe('offered');
  expect(await text('sitemap-note')()).toBe('These addresses look like sitemaps: fetched as they are, they give XML, not pages.Read the pages they list');
  await page.screenshot({ path: screenshotPath('ui-sitemaps-offered') });
  await page.getByTestId('sitemap-read').click();
  await expect.poll(() => page.getByTestId('sitemap-note').getAttribute('data-state'), { timeout: 60_000 }).toBe('read');
  expect(await rowUrls()).toEqual([1, 2, 3].map((n) => `${site.base}/article/${n}`));
  expect(await text('sitemap-note')()).toContain('This list was 2 sitemaps; the list below is the 3 pages they list (2 sitemaps read).');
  await page.screenshot({ path: screenshotPath('ui-sitemaps-read') });
  await expectNoInternalErrorText(page);
});

test("an OPML outline's feeds are offered to be read for their entries' pages", async () => {
  await page.getByTestId('nav-new').click();
  const outline = (paths: string[]): string =>
    `<?xml version="1.0"?>\n<opml version="2.0"><head><title>Subscriptions</title></head><body>\n${paths
      .map((p) => `  <outline text="${p}" type="rss" xmlUrl="${site.base}${p}"/>`)
      .join('\n')}\n</body></opml>\n`;
  await dropFile(page, 'subscriptions.opml', outline(['/feeds/rss', '/feeds/gone', '/feeds/atom']), 'text/x-opml');
  await expect.poll(() => page.getByTestId('sitemap-note').getAttribute('data-state')).toBe('offered');
  expect(await text('sitemap-note')()).toBe(
    "These are the feeds of a feed reader's subscriptions: fetched as they are, each gives its entries' text in one result.Read the pages their entries link to",
  );
  expect(await rowUrls()).toEqual(['/feeds/rss', '/feeds/gone', '/feeds/atom'].map((p) => `${site.base}${p}`));
  await page.getByTestId('sitemap-read').click();
  await expect.poll(() => page.getByTestId('sitemap-note').getAttribute('data-state'), { timeout: 60_000 }).toBe('read');
  expect(await rowUrls()).toEqual([11, 12, 13].map((n) => `${site.base}/article/${n}`));
  expect(await text('sitemap-note')()).toContain(
    "This list was 3 feeds; the list below is the 3 pages their entries link to (2 feeds read). Its Line column is the line naming each page's feed.",
  );
  expect(await text('sitemap-failures')()).toMatch(new RegExp(`Feeds that gave no page: 1\\s*line 4 ${site.base}/feeds/gone HTTP 404`));
  expect(await text('read-as')()).toBe('read from feeds');
  await page.screenshot({ path: screenshotPath('ui-opml-feeds-read') });
  await expectNoInternalErrorText(page);
});

test('no errors were logged in the page', () => {
  expect(pageErrors(page)).toEqual([]);
});
