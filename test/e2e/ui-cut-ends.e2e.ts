/**
 * The ends a user needs of what is cut, at 800 and 1280 px, in real Chromium over the bridge,
 * from a loopback site. The composer's list and the result pane cut an address in its middle
 * ("127.0.0.1:…nts-final", a colon and no port); a title was cut in its middle too ("The
 * Lightho…nnoch Point", halves of words); a job of one host, in no shared folder, was named
 * "127.0…3403" in the 800 px job list.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import { screenshotPath } from '../helpers/chromium';
import { articlePage, composeList, pageErrors, pasteList, submitToDone } from '../helpers/ui-app';
import { appForFile } from '../helpers/ui-file';

let page: Page;
let base = '';
// A second site, for a job of two hosts.
let otherBase = '';
const TITLE = 'The Lighthouse Keepers of Rannoch Point and the Logbooks of the County Archive';
// Longer than a row of the composer's list and than the result pane's line at 1280 px.
const PATHS = ['/annual-reports/of-the-harbour-board-and-its-committees/2026/quarterly-statement-of-accounts-final', '/lighthouse/keepers-of-rannoch-point-and-their-logbooks-in-the-county-archive'];

appForFile({
  serve: async () => {
    // A 404 for any other path: a site that answers every address with a page is a soft 404's mark.
    const server = http.createServer((req, res) =>
      PATHS.includes(req.url ?? '') ? res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(articlePage(TITLE)) : res.writeHead(404, { 'content-type': 'text/plain' }).end('no such page'),
    );
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const other = http.createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(articlePage(TITLE)));
    await new Promise<void>((r) => other.listen(0, '127.0.0.2', r));
    otherBase = `http://127.0.0.2:${(other.address() as AddressInfo).port}`;
    const close = (s: http.Server): Promise<void> => new Promise<void>((r) => s.close(() => r()));
    return { close: async () => void (await Promise.all([close(server), close(other)])) };
  },
  ready: (opened) => {
    page = opened.page;
  },
});

/**
 * Why `text`, an address shown for `url`, reads wrong, or '' when it reads right: whole (no
 * scheme), or host:port whole with its path's end, or the host cut just before its port's
 * colon; never a colon without its port, nor a port's last digits.
 */
function addressWrong(text: string, url: string): string {
  const host = new URL(url).host;
  const path = url.slice(url.indexOf(host) + host.length);
  const colon = host.indexOf(':');
  if (!text.includes('…')) return text === `${host}${path}` ? '' : `${text} is not ${host}${path}`;
  const [head = '', tail = ''] = text.split('…');
  if (!(head.startsWith(`${host}/`) || (host.startsWith(head) && head.length <= colon))) return `${text}: its start is part of ${host}`;
  if (!path.endsWith(tail)) return `${text}: its end is not the path's`;
  return '';
}

test("the composer's list and the result pane show an address's host and its path's end, never a part of its port, at 1280 and 800 px", async () => {
  const urls = PATHS.map((p) => `${base}${p}`);
  await pasteList(page, urls.join('\n'));
  await page.getByTestId('count-valid').filter({ hasText: /^2$/ }).waitFor();
  const cells = page.locator('[data-testid="parsed-row"] .parsed-url');
  for (const width of [1280, 800]) {
    await page.setViewportSize({ width, height: 800 });
    await expect.poll(async () => (await cells.allTextContents()).every((t) => t.includes('…'))).toBe(true);
    const texts = await cells.allTextContents();
    await page.getByTestId('parsed-list').screenshot({ path: screenshotPath(`ui-cut-ends-parsed-${width}`) });
    expect(texts.map((t, i) => addressWrong(t, urls[i]!))).toEqual(['', '']);
  }
  await page.setViewportSize({ width: 1280, height: 800 });
  await submitToDone(page);
  const pane = page.locator('.result-url');
  for (const width of [1280, 800]) {
    await page.setViewportSize({ width, height: 800 });
    await page.locator('[data-testid="target-row"][data-idx="0"]').click();
    await expect.poll(async () => (await pane.textContent()) ?? '').toMatch(/…/);
    const text = (await pane.textContent()) ?? '';
    await page.screenshot({ path: screenshotPath(`ui-cut-ends-pane-${width}`) });
    expect(addressWrong(text, urls[0]!)).toBe('');
  }
  expect(pageErrors(page)).toEqual([]);
});

test("a title shows its start, cut after a whole word, at 1280 and 800 px", async () => {
  const cells = page.locator('[data-testid="target-row"] .c-detail');
  for (const width of [1280, 800]) {
    await page.setViewportSize({ width, height: 800 });
    await expect.poll(async () => (await cells.allTextContents()).every((t) => t.endsWith('…'))).toBe(true);
    const texts = await cells.allTextContents();
    await page.getByTestId('target-grid').screenshot({ path: screenshotPath(`ui-cut-ends-titles-${width}`) });
    for (const t of texts) {
      const kept = t.slice(0, -1);
      // It read "The Lightho…nnoch Point".
      expect(TITLE.startsWith(kept), t).toBe(true);
      expect(TITLE.charAt(kept.length), t).toBe(' ');
    }
  }
  expect(pageErrors(page)).toEqual([]);
});

test('at 800 px a job of one host in no shared folder is named by its host, without its port', async () => {
  await page.setViewportSize({ width: 800, height: 800 });
  const host = new URL(base).host;
  const name = page.locator('[data-testid="job-item-name"]').first();
  await expect.poll(() => name.getAttribute('title')).toBe(`${host} · 2 URLs`);
  // Measured and cut: whole until the list's width is read.
  await expect.poll(async () => (await name.locator('.job-item-label').textContent()) ?? '').not.toBe(host);
  const label = (await name.locator('.job-item-label').textContent()) ?? '';
  await page.getByTestId('job-list').screenshot({ path: screenshotPath('ui-cut-ends-job-800') });
  // It read "127.0…3403": an address's start beside a port's end.
  expect(label).not.toMatch(/:|\d…\d/);
  expect(host.startsWith(label.replace(/…$/, ''))).toBe(true);
  // The header beside it, with the room for the port, read "127.0.0.1:40965 · 2 URLs": a second
  // name for the job the list names "127.0.0.1"; the port is in both tooltips.
  const header = page.getByTestId('job-name');
  await expect(header.getAttribute('title')).resolves.toBe(`${host} · 2 URLs`);
  await page.getByTestId('job-header').screenshot({ path: screenshotPath('ui-cut-ends-header-800') });
  expect(await header.textContent()).toBe(`${host.replace(/:\d+$/, '')} · 2 URLs`);
  expect(pageErrors(page)).toEqual([]);
});

test("at 1280 px a short last path part is shown with the part before it, the port dropped first", async () => {
  await page.setViewportSize({ width: 1280, height: 800 });
  const urls = [1, 2, 3].map((n) => `${base}/missing/${n}`);
  await composeList(page, [...urls, `${base}${PATHS[1]}`], { fromNew: true });
  await page.keyboard.press('Control+Enter');
  await page.locator('[data-testid="job-header"][data-status="partial"]').waitFor();
  const cells = page.locator('[data-testid="target-row"] .c-url');
  await expect.poll(async () => (await cells.allTextContents()).slice(0, 3).every((t) => t.includes('…'))).toBe(true);
  const texts = (await cells.allTextContents()).slice(0, 3);
  await page.getByTestId('target-grid').screenshot({ path: screenshotPath('ui-cut-ends-short-part-1280') });
  // It read "127.0.0.1:40221/mis…g/3": half a word before a part that names nothing alone.
  expect(texts.map((t, i) => addressWrong(t, urls[i]!) || (t.endsWith(`/missing/${i + 1}`) ? '' : `${t}: "missing" is cut`))).toEqual(['', '', '']);
  expect(pageErrors(page)).toEqual([]);
});

test('a job of two hosts has one name in the job list and the header, never a port cut in its middle, at 1280 and 800 px', async () => {
  await page.setViewportSize({ width: 1280, height: 800 });
  const [first, second] = [new URL(base).host, new URL(otherBase).host];
  await composeList(page, [`${base}${PATHS[0]}`, `${base}${PATHS[1]}`, `${otherBase}/a-post`], { fromNew: true });
  await page.keyboard.press('Control+Enter');
  const item = page.locator(`[data-testid="job-item-name"][title="${first}, ${second} · 3 URLs"]`);
  await item.waitFor();
  const label = item.locator('.job-item-label');
  const header = page.getByTestId('job-name');
  for (const width of [1280, 800]) {
    await page.setViewportSize({ width, height: 800 });
    await expect.poll(async () => ((await label.textContent()) ?? '').includes('+1')).toBe(true);
    const shown = (await label.textContent()) ?? '';
    const head = (await header.textContent()) ?? '';
    await page.screenshot({ path: screenshotPath(`ui-cut-ends-two-hosts-${width}`) });
    // At 1280 px the list read "127.0.0.1:4… +1", a port's first digit; at 800 px the header read
    // "127.0.0.1:43645 +1 · 3 URLs" beside the list's "127.0… +1", two names for one job.
    expect(shown, 'list').not.toMatch(/:/);
    expect(first.startsWith(shown.replace(/ \+1$/, '').replace(/…$/, '')), shown).toBe(true);
    expect(head, 'header').not.toMatch(/:\d/);
    expect(await header.getAttribute('title')).toBe(`${first}, ${second} · 3 URLs`);
  }
  expect(pageErrors(page)).toEqual([]);
});

/** Why `text`, a cut of `bare`, reads wrong at its "…", or '': a word cut there, its letters on the cut's side. */
function wordCut(text: string, bare: string): string {
  const [head = '', tail = ''] = text.split('…');
  const letter = (c: string): boolean => c !== '' && !/[-_./:?=&]/.test(c);
  if (letter(head.slice(-1)) && letter(bare.charAt(head.length))) return `${text}: a word cut before its "…"`;
  if (letter(tail.charAt(0)) && letter(bare.charAt(bare.length - tail.length - 1))) return `${text}: a word cut after its "…"`;
  return '';
}

test('at 1280 px a long last path part is cut between its words where that shows no less of it', async () => {
  await page.setViewportSize({ width: 1280, height: 800 });
  const urls = [`${otherBase}/blog/2019/a-post-that-moved-1`, `${base}/news/challenge-page`, `${base}/reports/harbour-annual.html`];
  await composeList(page, urls, { fromNew: true });
  await page.keyboard.press('Control+Enter');
  // Each page's outcome is beside the point: the addresses are what is read.
  await page.locator('[data-testid="job-header"]:is([data-status="partial"], [data-status="failed"], [data-status="done"])').waitFor();
  const cells = page.locator('[data-testid="target-row"] .c-url');
  await expect.poll(async () => (await cells.allTextContents()).every((t) => t.includes('…'))).toBe(true);
  const texts = await cells.allTextContents();
  await page.getByTestId('target-grid').screenshot({ path: screenshotPath('ui-cut-ends-long-part-1280') });
  const bare = urls.map((u) => u.replace(/^http:\/\//, ''));
  expect(texts.map((t, i) => addressWrong(t, urls[i]!))).toEqual(['', '', '']);
  // It read "127.0.0.2:37857/blo…d-1": half a word on each side of the cut, neither naming the page.
  expect(wordCut(texts[0]!, bare[0]!)).toBe('');
  // Where only "page" fits whole after the host, the middle cut's "…lenge-page" shows more of it.
  expect(texts[1]!.endsWith('-page'), texts[1]).toBe(true);
  // "127.0.0.1:40465/rep…html": a file's type names no page alone.
  expect(wordCut(texts[2]!, bare[2]!) || (texts[2]!.endsWith('annual.html') ? '' : `${texts[2]}: "annual" is cut`)).toBe('');
  expect(pageErrors(page)).toEqual([]);
});
