/**
 * A search hit opened from the sidebar's search, at a 1024 × 768 window, in real Chromium over
 * the bridge: the keyboard lands in the result it opened, at its match, and the result's title
 * stays on screen above it (s28 appqa3: focus went to the job's heading, twelve Tabs from the
 * match, and the result pane scrolled the match to its middle with the title cut off above).
 */
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import { screenshotPath } from '../helpers/chromium';
import { startServer, type TestServer } from '../helpers/fetch-server';
import { pageErrors, runListToDone } from '../helpers/ui-app';
import { appForFile } from '../helpers/ui-file';

let page: Page;
let site: TestServer;

const TITLE = 'Harbour report for the second quarter';
// The match well below the pane's first screen: forty paragraphs before it.
const body = `<article><h1>${TITLE}</h1>${'<p>The harbour handled more ships this quarter than in any quarter before, and the new crane made the difference in every week.</p>'.repeat(40)}<p>The quokka ferry ran on time all summer.</p>${'<p>Later paragraphs say more about the cranes, the weather and the ships that came in.</p>'.repeat(10)}</article>`;

beforeAll(async () => {
  site = await startServer({
    '/report': (_q, r) => r.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(`<!doctype html><html lang="en"><head><title>${TITLE}</title></head><body>${body}</body></html>`),
  });
});
afterAll(async () => {
  await site?.close();
});

appForFile({
  viewport: { width: 1024, height: 768 },
  ready: async (o) => {
    page = o.page;
    await runListToDone(page, [`${site.origin}/report`]);
  },
});

async function openHitFromSidebar(): Promise<void> {
  // Emptied first: the same words typed again change nothing, and the search view would not come back.
  await page.getByTestId('sidebar-search-input').fill('');
  await page.getByTestId('sidebar-search-input').fill('quokka');
  await page.getByTestId('search-view').waitFor();
  await expect.poll(() => page.getByTestId('search-hit').count()).toBe(1);
  await page.getByTestId('search-hit').focus();
  await page.keyboard.press('Enter');
  await page.locator('[data-testid="result-view"][data-highlight]').waitFor();
}

/** Where the focus is: inside the result view (its content), the pane, or elsewhere (its test id or tag). */
const focusIsIn = (): Promise<string> =>
  page.evaluate(() => {
    const e = document.activeElement;
    if (e?.closest('[data-testid="result-view"]')) return 'result-view';
    if (e?.closest('[data-testid="result-pane"]')) return 'result-pane';
    return (e as HTMLElement | null)?.dataset.testid ?? e?.tagName.toLowerCase() ?? 'none';
  });

test('Enter on a sidebar hit puts the focus in the result it opened, at its match', async () => {
  await openHitFromSidebar();
  expect(await page.locator('[data-testid="result-view"]').getAttribute('data-highlight')).toBe('quokka');
  expect(await focusIsIn()).toBe('result-view');
  expect(pageErrors(page)).toEqual([]);
});

test("at 1024 × 768 the opened match leaves the result's title on screen", async () => {
  await openHitFromSidebar();
  await page.screenshot({ path: screenshotPath('ui-hit-open-1024') });
  const visible = await page.evaluate(() => {
    const title = document.querySelector('.result-title')!.getBoundingClientRect();
    let box: HTMLElement | null = document.querySelector('.result-title');
    while (box && !(box.scrollHeight > box.clientHeight && /auto|scroll/.test(getComputedStyle(box).overflowY))) box = box.parentElement;
    const clip = box ? box.getBoundingClientRect() : { top: 0, bottom: innerHeight };
    return { titleTop: title.top, clipTop: clip.top, titleBottom: title.bottom, clipBottom: clip.bottom };
  });
  expect(visible.titleTop).toBeGreaterThanOrEqual(visible.clipTop);
  expect(visible.titleBottom).toBeLessThanOrEqual(visible.clipBottom);
  // And the match is on screen too.
  const match = await page.evaluate(() => {
    const h = (CSS as unknown as { highlights: Map<string, { values(): IterableIterator<Range> }> }).highlights.get('sift-hit');
    const r = h ? [...h.values()][0]!.getBoundingClientRect() : null;
    return r ? { top: r.top, bottom: r.bottom } : null;
  });
  expect(match).not.toBeNull();
  expect(match!.bottom).toBeLessThanOrEqual(768);
  expect(match!.top).toBeGreaterThan(0);
});
