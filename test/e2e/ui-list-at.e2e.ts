import { afterAll, expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import { whenSaying } from '../helpers/a11y';
import { screenshotPath } from '../helpers/chromium';
import { expectNoInternalErrorText, pageErrors, type UiApp } from '../helpers/ui-app';
import { appForFile } from '../helpers/ui-file';
import { held } from '../helpers/loopback';
import { startSite, type Site } from '../helpers/sites';

/**
 * One pasted address that is a list (a blog's feed, a page of links): the composer offers to
 * read the URLs in it, main fetches it through the guarded fetcher from a loopback site, and
 * they become the list, as `sift batch URL` makes them. A reading can be stopped; an address
 * that is no list, or holds no URL, leaves the address as the list and says why.
 */
let site: Site;
let app: UiApp;
let page: Page;
/** The held list: the test waits for its request, and its answer waits for the test. */
const list = held();

appForFile({
  serve: async () =>
    (site = await startSite({
      '/blog/feed': (_req, res) =>
        res.writeHead(200, { 'content-type': 'application/rss+xml' }).end(
          `<?xml version="1.0"?><rss version="2.0"><channel><title>A blog</title><link>${site.base}/blog/</link>
<item><title>One</title><link>${site.base}/article/1</link></item>
<item><title>Two</title><link>${site.base}/article/2</link></item></channel></rss>`,
        ),
      '/blog/': (_req, res) =>
        res
          .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
          .end(`<!doctype html><title>Archive</title><ul><li><a href="/article/3">Three</a></li><li><a href="../article/4">Four</a></li></ul>`),
      '/held-list.txt': (_req, res) => {
        list.hold(() => res.writeHead(200, { 'content-type': 'text/plain' }).end(`${site.base}/article/5\n`));
      },
      '/download': (_req, res) => res.writeHead(302, { location: '/doc/1.pdf' }).end(),
      '/no-links': (_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>Quiet</title><p>Nothing to follow here.</p>'),
    })),
  ready: (o) => {
    ({ app, page } = o);
  },
});
// Before the app closes (an afterAll after appForFile's runs first).
afterAll(() => {
  list.release();
});

const text = (testId: string) => () => page.getByTestId(testId).first().textContent();
const rowUrls = (): Promise<string[]> => page.getByTestId('parsed-row').locator('.parsed-url').allTextContents();
const state = (): Promise<string | null> => page.getByTestId('list-at-note').getAttribute('data-state');

test("a pasted feed's address is offered to be read, and its entries become the list", async () => {
  await page.getByTestId('paste-box').fill(`${site.base}/blog/feed`);
  await expect.poll(state).toBe('offered');
  expect(await text('list-at-note')()).toBe(
    'One address: Sift fetches the page itself. If it is a list instead (a page of links, a feed, a list file), Sift can fetch the URLs in it.Read it as a list',
  );
  await page.screenshot({ path: screenshotPath('ui-list-at-offered') });
  await page.getByTestId('list-at-read').click();
  await expect.poll(rowUrls, { timeout: 60_000 }).toEqual([1, 2].map((n) => `${site.base}/article/${n}`));
  expect(await text('count-valid')()).toBe('2');
  // The list is now the fetched one, shown as a file named by its address; no offer is left.
  expect(await text('list-file')()).toContain(`${site.base.replace('http://', '')}/blog/feed`);
  expect(await page.getByTestId('list-at-note').count()).toBe(0);
  await page.screenshot({ path: screenshotPath('ui-list-at-feed') });
  await expectNoInternalErrorText(page);
  await page.keyboard.press('Control+Enter');
  await expect.poll(() => page.getByTestId('job-header').getAttribute('data-status'), { timeout: 60_000 }).toBe('done');
  const id = (await page.getByTestId('job-view').getAttribute('data-job-id')) ?? '';
  expect(app.services.store.targetRows(id).map((r) => r.url)).toEqual([1, 2].map((n) => `${site.base}/article/${n}`));
});

test("a web page's links become the list, relative ones resolved against the page", async () => {
  // A submitted list leaves an empty composer.
  await page.getByTestId('nav-new').click();
  await page.getByTestId('paste-box').fill(`${site.base}/blog/`);
  await expect.poll(state).toBe('offered');
  await page.getByTestId('list-at-read').click();
  await expect.poll(rowUrls, { timeout: 60_000 }).toEqual([3, 4].map((n) => `${site.base}/article/${n}`));
  expect(await text('read-as')()).toBe('read as html');
});

test('reading can be stopped, and the address stays the list; reading again gets it', async () => {
  await page.getByTestId('list-file').getByRole('button', { name: 'Clear and paste instead' }).click();
  await page.getByTestId('paste-box').fill(`${site.base}/held-list.txt`);
  await expect.poll(state).toBe('offered');
  await page.getByTestId('list-at-read').click();
  await list.arrived;
  await expect.poll(state).toBe('reading');
  expect(await text('list-at-note')()).toBe('Fetching the list at this address…Stop');
  await expect.poll(text('submit')).toContain('Reading the list…');
  // Stopping, it stays a Tab stop that says why it cannot be pressed again (disabled, a
  // keyboard user never reached it to hear that).
  const stopping = await whenSaying(page, 'list-at-stop', 'Stopping…');
  await page.getByTestId('list-at-stop').click();
  expect(await stopping.seen()).toEqual({ disabled: false, ariaDisabled: 'true', description: 'Already stopping: in a moment the reading ends and the list stays this address.' });
  await expect.poll(state).toBe('stopped');
  expect(await text('list-at-note')()).toBe('Reading stopped. The list is the address itself: fetching it gets the page.Read it as a list');
  expect(await rowUrls()).toEqual([`${site.base}/held-list.txt`]);
  await page.screenshot({ path: screenshotPath('ui-list-at-stopped') });
  await expectNoInternalErrorText(page);
  list.release();
  await page.getByTestId('list-at-read').click();
  await expect.poll(rowUrls, { timeout: 60_000 }).toEqual([`${site.base}/article/5`]);
});

test('an address that is no list, or holds no URL, stays the list and says why', async () => {
  await page.getByTestId('list-file').getByRole('button', { name: 'Clear and paste instead' }).click();
  await page.getByTestId('paste-box').fill(`${site.base}/download`);
  await expect.poll(state).toBe('offered');
  await page.getByTestId('list-at-read').click();
  await expect.poll(state, { timeout: 60_000 }).toBe('failed');
  // No "Try again": what is no list stays so.
  expect(await text('list-at-note')()).toBe('The address gives application/pdf, not a list of URLs.Fetch it as a page instead: submit the address as it is.');
  expect(await rowUrls()).toEqual([`${site.base}/download`]);
  await page.screenshot({ path: screenshotPath('ui-list-at-not-a-list') });
  await page.getByTestId('paste-box').fill(`${site.base}/no-links`);
  await expect.poll(state).toBe('offered');
  await page.getByTestId('list-at-read').click();
  await expect.poll(state, { timeout: 60_000 }).toBe('empty');
  expect(await text('list-at-note')()).toBe(
    'Sift found no URL to fetch in what this address gave (read as html). The list is the address itself: fetching it gets the page.Read it again',
  );
  expect(await rowUrls()).toEqual([`${site.base}/no-links`]);
  await expectNoInternalErrorText(page);
});

test("two addresses, or a document's address, get no offer", async () => {
  await page.getByTestId('paste-box').fill(`${site.base}/article/1\n${site.base}/article/2`);
  await expect.poll(text('count-valid')).toBe('2');
  expect(await page.getByTestId('list-at-note').count()).toBe(0);
  await page.getByTestId('paste-box').fill(`${site.base}/doc/1.pdf`);
  await expect.poll(rowUrls).toEqual([`${site.base}/doc/1.pdf`]);
  expect(await page.getByTestId('list-at-note').count()).toBe(0);
});

test('no errors were logged in the page', () => {
  expect(pageErrors(page)).toEqual([]);
});
