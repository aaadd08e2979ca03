/**
 * A search hit as it reads at 1024 × 768, in real Chromium over the bridge: a snippet with a
 * long unbroken run (a JSON document's source id, a hash) stays inside its hit, and a result
 * with no title (JSON has none) names its address once (s27 appqa2: the snippet ran under the
 * result pane, "…cloudinary.com@67a0517e1d17b440e45" cut at its edge, and the address was said
 * twice, as the title and again under it). An untitled result's passage in Ask this job is
 * headed by its address as its hit is, a path in its own letters rather than percent-escapes.
 */
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { screenshotPath } from '../helpers/chromium';
import { startServer, type TestServer } from '../helpers/fetch-server';
import { pageErrors, runListToDone } from '../helpers/ui-app';
import { appForFile } from '../helpers/ui-file';

let page: Page;
let site: TestServer;
/** The server's address as the app writes it, without the scheme. */
const host = (): string => new URL(site.origin).host;

// 120 characters with no space or break opportunity: wider than the hit list at 1024 px.
const SOURCE = `bugbounty-data:cloudinary/ajm.san.cloudinary.com@${'67a0517e1d17b440e453407633c42f1317019b5f'.repeat(2)}`;

beforeAll(async () => {
  const doc = JSON.stringify([{ file: 'pages/akamai.html', class: 'challenge', source: SOURCE, note: 'An edge block page of the quokka cloud.' }]);
  const report = JSON.stringify({ city: 'Kyiv', note: 'The harbour cranes were repaired in March, and the harbour reopened.' });
  site = await startServer({
    '/outcomes.json': (_q, r) => r.writeHead(200, { 'content-type': 'application/json' }).end(doc),
    [`/${encodeURIComponent('звіт')}.json`]: (_q, r) => r.writeHead(200, { 'content-type': 'application/json' }).end(report),
    '/tugboat.html': (_q, r) =>
      r
        .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
        .end('<html><head><title>Tugboat log</title></head><body><article><p>The tugboat crews logged every crossing of the bay that winter.</p></article></body></html>'),
  });
});
afterAll(async () => {
  await site?.close();
});

appForFile({
  viewport: { width: 1024, height: 768 },
  ready: async (o) => {
    page = o.page;
    await runListToDone(page, [`${site.origin}/outcomes.json`, `${site.origin}/${encodeURIComponent('звіт')}.json`, `${site.origin}/tugboat.html`]);
  },
});

/** The hits whose snippet runs past the hit list's right edge, under the result pane (its text's boxes, not the snippet's own: a grid item keeps its box and lets its text overflow). */
const snippetsPastTheirHit = (): Promise<string[]> =>
  page.getByTestId('search-hit').evaluateAll((hits) =>
    hits
      .filter((hit) => {
        const right = hit.closest('.search-results')?.getBoundingClientRect().right ?? 0;
        const text = document.createRange();
        text.selectNodeContents(hit.querySelector('.snippet') ?? hit);
        return [...text.getClientRects()].some((r) => r.right > right + 1);
      })
      .map((hit) => hit.querySelector('.snippet')?.textContent ?? ''),
  );

test("a snippet's long unbroken run wraps inside its hit, and an untitled result's address is said once", async () => {
  await page.getByTestId('job-search-input').fill('cloudinary');
  await expect.poll(() => page.getByTestId('search-results-job').getAttribute('data-state')).toBe('done');
  const hit = page.getByTestId('search-hit');
  expect(await hit.count()).toBe(1);
  expect(await hit.locator('mark').first().textContent()).toBe('cloudinary');
  await page.screenshot({ path: screenshotPath('ui-search-hits-long-run') });
  expect(await snippetsPastTheirHit()).toEqual([]);
  const text = (await hit.textContent()) ?? '';
  // Without its scheme, as the job list, the header and the result pane write addresses.
  const address = `${host()}/outcomes.json`;
  expect(text.split(address).length - 1).toBe(1);
  expect(text).not.toContain('http://');
  expect(pageErrors(page)).toEqual([]);
});

test("a passage of an untitled result is headed by its address as the hits' are, in its own letters", async () => {
  await page.getByTestId('search-mode-ask').click();
  await page.getByTestId('ask-input').fill('when were the harbour cranes repaired?');
  await page.getByTestId('ask-submit').click();
  await expect.poll(() => page.getByTestId('ask-results').getAttribute('data-state')).toBe('done');
  // It read "…/%D0%B7%D0%B2%D1%96%D1%82.json", where a hit of the same result says "…/звіт.json".
  expect(await page.getByTestId('ask-passage').locator('.hit-title').allTextContents()).toEqual([`${host()}/звіт.json`]);
  expect(await page.getByTestId('ask-passage').locator('.hit-title').getAttribute('title')).toBe(`${site.origin}/звіт.json`);
  expect(pageErrors(page)).toEqual([]);
});

/** What a copy of the whole of `el`'s text puts on the clipboard: a real copy event, as Ctrl+C sends it. */
const copyOf = (el: Locator): Promise<string> =>
  el.evaluate((node) => {
    let data = '';
    document.addEventListener('copy', (e) => void (data = e.clipboardData?.getData('text/plain') ?? ''), { once: true });
    getSelection()?.selectAllChildren(node);
    document.execCommand('copy');
    getSelection()?.removeAllRanges();
    return data;
  });

test('Search all jobs writes an address as the job list does, whole in its tooltip and when copied', async () => {
  await page.getByTestId('sidebar-search-input').fill('tugboat OR cloudinary');
  await expect.poll(() => page.getByTestId('search-results-all').getAttribute('data-state')).toBe('done');
  const hits = page.getByTestId('search-results-all').getByTestId('search-hit');
  expect(await hits.count()).toBe(2);
  await page.screenshot({ path: screenshotPath('ui-search-hits-all') });
  // A titled page: its address under the title. It read "http://127.0.0.1:…/tugboat.html".
  const titled = hits.filter({ hasText: 'Tugboat log' });
  const under = titled.locator('.hit-url');
  expect(await under.textContent()).toBe(`${host()}/tugboat.html`);
  expect(await under.getAttribute('title')).toBe(`${site.origin}/tugboat.html`);
  expect(await copyOf(under)).toBe(`${site.origin}/tugboat.html`);
  // An untitled result is headed by its address, in the same form.
  const untitled = hits.filter({ hasText: 'cloudinary' }).locator('.hit-title');
  expect(await untitled.textContent()).toBe(`${host()}/outcomes.json`);
  expect(await untitled.getAttribute('title')).toBe(`${site.origin}/outcomes.json`);
  expect(await copyOf(untitled)).toBe(`${site.origin}/outcomes.json`);
  expect(pageErrors(page)).toEqual([]);
});
