/**
 * Addresses and job names at the two widths people use (800 and 1280 px), in real Chromium over
 * the bridge, from loopback sites. The composer's preview wrote "http://" before its address,
 * the last place that did; a search hit's address was cut at its end by CSS, the last path part
 * that tells the pages of one site apart gone; at 800 px two jobs of one host read
 * "…text, grep… · 1 URL" both and a two-host list "127…71 +1"; a cancelled job's header took
 * about 300 of 800 px, the results below it out of sight.
 */
import type http from 'node:http';
import { afterAll, expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import { screenshotPath } from '../helpers/chromium';
import { listenLoopback, type Closable } from '../helpers/loopback';
import { articlePage, expectNoInternalErrorText, expectNothingCutOrOverlapping, pageErrors, pasteList, runListToDone } from '../helpers/ui-app';
import { appForFile } from '../helpers/ui-file';

let page: Page;
const held: http.ServerResponse[] = [];
let base = '';
let other = '';

const site: http.RequestListener = (req, res) => {
  const p = new URL(req.url ?? '/', 'http://x').pathname;
  // Held until the test ends: the target in flight when its job is cancelled.
  if (p.startsWith('/slow/')) return void held.push(res);
  if (p.startsWith('/broken/')) return void res.writeHead(500, { 'content-type': 'text/plain' }).end('server error');
  // A 404 for any other path: a site that answers every address with a page is a soft 404's mark.
  if (!/^\/(?:article|page|report|short|annual-reports)\b/.test(p)) return void res.writeHead(404, { 'content-type': 'text/plain' }).end('no such page');
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(articlePage(`Harbour report ${p.split('/').pop() ?? ''}`));
};

// Longer than the preview's and a hit's line at 1280 px: what tells it from its neighbours is its end.
const LONG_PATH = '/annual-reports/of-the-harbour-board-and-its-committees/2026/quarterly-statement-of-accounts-final';

appForFile({
  serve: async () => {
    const open: Closable[] = [];
    base = await listenLoopback(open, site);
    other = await listenLoopback(open, site, '127.0.0.2');
    return open;
  },
  ready: (o) => {
    page = o.page;
  },
});
// Before the app closes (an afterAll after appForFile's runs first).
afterAll(() => {
  for (const res of held) res.destroy();
});

const host = (url: string): string => new URL(url).host;

/** An element's text and whether CSS cuts it (its text runs past its box). */
const shown = (sel: string): Promise<{ text: string; cut: boolean; title: string }> =>
  page.locator(sel).first().evaluate((e) => ({ text: e.textContent ?? '', cut: e.scrollWidth > e.clientWidth + 1, title: e.getAttribute('title') ?? '' }));

test("the preview writes its address without the scheme, cut in its middle, at 800 and 1280 px", async () => {
  await pasteList(page, `${base}${LONG_PATH}`);
  await page.getByTestId('count-valid').filter({ hasText: /^1$/ }).waitFor();
  for (const width of [1280, 800]) {
    await page.setViewportSize({ width, height: 800 });
    const sel = '[data-testid="preview-panel"] .parsed-url';
    await expect.poll(async () => (await shown(sel)).text).toMatch(/…/);
    const address = await shown(sel);
    // It read "http://127.0.0.1:45903/article/8"; the host first, the last path part kept.
    expect(address.text.slice(0, host(base).length)).toBe(host(base));
    expect(address.text).toMatch(/-final$/);
    expect(address.cut).toBe(false);
    expect(address.title).toBe(`${base}${LONG_PATH}`);
    await page.screenshot({ path: screenshotPath(`ui-narrow-addresses-preview-${width}`) });
    // At 800 px "Read the list at this address", kept on one line, ran 11 px past its grey box.
    expect(await buttonsPastTheirBox('composer')).toEqual([]);
  }
  expect(pageErrors(page)).toEqual([]);
});

/** The composer's buttons whose text runs past their own box, or whose box runs past a box around it. */
const buttonsPastTheirBox = (testId: string): Promise<string[]> =>
  page.getByTestId(testId).evaluate((root) => {
    const out: string[] = [];
    for (const b of root.querySelectorAll('button')) {
      const r = b.getBoundingClientRect();
      if (r.width === 0) continue;
      const name = `"${(b.textContent ?? '').trim()}"`;
      if (b.scrollWidth > b.clientWidth + 1) out.push(`${name}: ${b.scrollWidth} px of text in ${b.clientWidth}`);
      for (let box = b.parentElement; box && box !== root.parentElement; box = box.parentElement) {
        const past = Math.round(r.right - box.getBoundingClientRect().right);
        if (past > 1) out.push(`${name} runs ${past} px past ${box.tagName.toLowerCase()}.${[...box.classList].join('.')}`);
      }
    }
    return out;
  });

test("a search hit's address keeps its host and its last path part at 800 and 1280 px", async () => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await runListToDone(page, [`${base}${LONG_PATH}`, `${base}/short`]);
  await page.getByTestId('job-search-input').fill('harbour');
  await expect.poll(() => page.getByTestId('search-results-job').getAttribute('data-state')).toBe('done');
  const long = page.getByTestId('search-hit').filter({ hasText: 'accounts-final' });
  for (const width of [1280, 800]) {
    await page.setViewportSize({ width, height: 800 });
    await expect.poll(async () => (await long.locator('.hit-url').textContent()) ?? '').toMatch(/…/);
    const url = await long.locator('.hit-url').evaluate((e) => ({ text: e.textContent ?? '', cut: e.scrollWidth > e.clientWidth + 1 }));
    // Cut at its end by CSS it read "127.0.0.1:40123/annual-reports/of-the-harbour-bo…".
    expect(url.text.slice(0, host(base).length)).toBe(host(base));
    expect(url.text).toMatch(/accounts-final$/);
    expect(url.cut).toBe(false);
    await page.screenshot({ path: screenshotPath(`ui-narrow-addresses-hit-${width}`) });
  }
  await page.getByTestId('job-search-input').fill('');
  expect(pageErrors(page)).toEqual([]);
});

test("a job's URL column keeps host:port whole, or cuts the host before its port, in every row at 1280 and 800 px", async () => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await newListWithoutOptions();
  // Names of five lengths, as a real site's pages have: each row is fitted to its own number of characters.
  const paths = ['/page/fetch.html', '/page/inline.html', '/page/static.html', '/page/next.html', '/page/ssrf.html'];
  await runListToDone(page, paths.map((p) => `${base}${p}`));
  const whole = host(base);
  const colon = whole.indexOf(':');
  for (const width of [1280, 800]) {
    await page.setViewportSize({ width, height: 800 });
    const cells = page.getByTestId('row-url');
    // Refitted to the new width: no cell's text runs past it.
    await expect.poll(() => cells.evaluateAll((els) => els.filter((e) => e.scrollWidth > e.clientWidth + 1).length)).toBe(0);
    const urls = await cells.allTextContents();
    await page.getByTestId('target-table').screenshot({ path: screenshotPath(`ui-narrow-addresses-table-${width}`) });
    expect(urls).toHaveLength(paths.length);
    const hosts = new Set<string>();
    for (const [i, url] of urls.entries()) {
      if (!url.includes('…')) {
        expect(url).toBe(`${whole}${paths[i]}`);
        continue;
      }
      const [head = '', tail = ''] = url.split('…');
      // It read "127.0.0.1:39…/fetch.html" and "127.0.0.1:39…7/next.html": a port that names no site.
      expect(head.startsWith(`${whole}/`) || (whole.startsWith(head) && head.length <= colon), url).toBe(true);
      expect(paths[i]!.endsWith(tail) || tail.startsWith(whole.slice(colon)), url).toBe(true);
      hosts.add(head.startsWith(`${whole}/`) ? whole : head);
    }
    // One site, one host as shown: not "127.0.0.1:39" in one row and "127.0.0.1:39197" in the next.
    expect(hosts.size, urls.join(' | ')).toBeLessThanOrEqual(1);
  }
  expect(pageErrors(page)).toEqual([]);
});

/** A new list, without the options the last job's list carried over. */
async function newListWithoutOptions(): Promise<void> {
  await page.getByTestId('nav-new').click();
  if (await page.getByTestId('carried-reset').count()) await page.getByTestId('carried-reset').click();
}

/** Each job's shown name and its whole name (the tooltip). */
const jobNames = (): Promise<{ text: string; title: string }[]> =>
  page.locator('[data-testid="job-item-name"]').evaluateAll((els) => els.map((e) => ({ text: e.querySelector('.job-item-label')?.textContent ?? '', title: e.getAttribute('title') ?? '' })));

test('at 800 px jobs of one host, and lists of two hosts, have names that read apart, no host cut to "127…71"', async () => {
  await page.setViewportSize({ width: 1280, height: 800 });
  // Two runs that differ only at the end of what they ask, as a user adds "context" to the last run.
  await page.getByTestId('nav-new').click();
  await page.getByTestId('opt-mode').selectOption('text');
  await page.getByTestId('opt-grep').fill('Harbour');
  await runListToDone(page, [`${base}/article/5`]);
  await page.getByTestId('nav-new').click();
  await page.getByTestId('opt-context').check();
  await runListToDone(page, [`${base}/article/6`]);
  // Two lists of two hosts each.
  for (const n of [1, 2]) {
    await newListWithoutOptions();
    await runListToDone(page, [`${base}/page/${n}`, `${other}/page/${n}`, `${other}/page/${n + 2}`]);
  }
  await page.setViewportSize({ width: 800, height: 800 });
  await expect.poll(async () => (await jobNames()).every((n) => n.text !== '' && n.text.length < n.title.length)).toBe(true);
  await page.getByTestId('job-list').screenshot({ path: screenshotPath('ui-narrow-addresses-jobs-800') });
  const names = await jobNames();
  // Names that differ in whole differ as shown, except the two-host lists, which differ only in their paths.
  const asked = names.filter((n) => n.title.includes(' · text'));
  expect(asked).toHaveLength(2);
  expect(asked[0]!.text).not.toBe(asked[1]!.text);
  // A list's first host cut in its middle: "127…71 +1", a start and an end of digits that name no site.
  for (const n of names.filter((m) => / \+\d/.test(m.text))) expect(n.text).not.toMatch(/\d…\d/);
  const hosts = names.filter((n) => n.title.startsWith(host(other)));
  expect(hosts).toHaveLength(2);
  for (const n of hosts) expect(n.text).toMatch(/^127\.0/);
  await expect.poll(() => expectNothingCutOrOverlapping(page).then(() => 'ok', (e: Error) => e.message)).toBe('ok');
  expect(pageErrors(page)).toEqual([]);
});

test("at 800 × 800 a cancelled job's header leaves its results in view", async () => {
  await page.setViewportSize({ width: 800, height: 800 });
  await newListWithoutOptions();
  // Failures of two reasons, as a real list has: their summary is a line of the header too.
  const urls = [...[1, 2, 3].map((n) => `${base}/report/${n}`), `${base}/missing/1`, `${base}/broken/1`, ...[1, 2].map((n) => `${base}/slow/${n}`)];
  await pasteList(page, urls.join('\n'));
  await page.getByTestId('count-valid').filter({ hasText: /^7$/ }).waitFor();
  await page.keyboard.press('Control+Enter');
  await expect.poll(() => page.getByTestId('stat-done').textContent()).toBe('5 / 7');
  await page.getByTestId('cancel-job').click();
  await page.locator('[data-testid="job-header"][data-status="cancelled"]').waitFor();
  await page.getByTestId('cancel-notice').waitFor();
  await expect.poll(() => expectNothingCutOrOverlapping(page).then(() => 'ok', (e: Error) => e.message)).toBe('ok');
  await page.screenshot({ path: screenshotPath('ui-narrow-addresses-cancelled-800') });
  const header = await page.getByTestId('job-header').evaluate((e) => e.getBoundingClientRect().height);
  // It was 280 px (300 with more reasons): the table's first row ended below the window's middle.
  expect(header).toBeLessThan(240);
  const firstRow = await page.locator('[data-testid="target-row"][data-idx="0"]').evaluate((e) => e.getBoundingClientRect().bottom);
  expect(firstRow).toBeLessThanOrEqual(400);
  await expectNoInternalErrorText(page);
  expect(pageErrors(page)).toEqual([]);
});
