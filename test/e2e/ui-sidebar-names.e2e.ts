/**
 * Jobs of one host told apart in the narrow job list: a list's name is its host and the folder
 * its URLs share ("127.0.0.1:41234/quarterly-reports"), and the list's 250 px cut every such
 * name at its end, so two jobs of one site showed as "127.0.0.1:4123…" both; cut in its middle,
 * "…/quarterly-minutes" and "…/annual-board-meeting-minutes" both read "127.0.0.…-minutes". The
 * folder has the room now, cut in its middle when it must be.
 * The job header's name is one line, and the target table's titles keep their ends.
 * A job's status in its header stays on one line beside a long name: at 1024 px a job named
 * "rest of 127.0.0.1:43101 · options per URL · 23 URLs" left its badge one word wide, and
 * "partly failed" read "partly" over "failed".
 * Real services over the bridge, real Chromium, a loopback site.
 */
import { expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import { screenshotPath } from '../helpers/chromium';
import { dropFile, pageErrors, pasteList, runListToDone } from '../helpers/ui-app';
import { appForFile } from '../helpers/ui-file';
import { startReportSite, type TestSite } from '../helpers/ui-servers';

let page: Page;
let site: TestSite;

appForFile({
  serve: async () => (site = await startReportSite()),
  ready: async (opened) => {
    page = opened.page;
    for (const folder of ['quarterly-reports', 'quarterly-minutes']) {
      await page.getByTestId('nav-new').click();
      await runListToDone(page, [1, 2].map((n) => `${site.url}/${folder}/report-${n}`));
    }
  },
});

/** Each job's name as the list shows it, and whether any of it runs past its box. */
const shownNames = (): Promise<{ text: string; cut: boolean }[]> =>
  page.locator('.job-item-label').evaluateAll((els) => els.map((e) => ({ text: e.textContent ?? '', cut: e.scrollWidth > e.clientWidth + 1 })));

for (const [width, height] of [
  [1024, 768],
  [1440, 900],
] as const) {
  test(`at ${width} × ${height} two jobs of one host show the folders that tell them apart`, async () => {
    await page.setViewportSize({ width, height });
    const host = new URL(site.url).host;
    // Measured and cut: whole until the list's width is read.
    await expect.poll(async () => (await shownNames()).map((n) => n.text.includes('…'))).toEqual([true, true]);
    const names = await shownNames();
    expect(names.map((n) => n.cut)).toEqual([false, false]);
    // Shortened: the folder's start and end, the host they share left to the name on hover.
    expect(names.map((n) => n.text)).toEqual([expect.stringMatching(/^…\/quarte.*….*utes$/), expect.stringMatching(/^…\/quarte.*….*orts$/)]);
    expect(await page.locator('[data-testid="job-item-name"]').first().getAttribute('title')).toBe(`${host}/quarterly-minutes · 2 URLs`);
    await page.screenshot({ path: screenshotPath(`ui-sidebar-names-${width}`) });
    expect(pageErrors(page)).toEqual([]);
  });
}

test('at 1024 × 768 a job run again keeps its folder, not "again: … per URL"', async () => {
  await page.setViewportSize({ width: 1024, height: 768 });
  const folder = 'annual-board-meeting-minutes';
  await page.getByTestId('nav-new').click();
  // Options that differ from URL to URL: the name ends "· options per URL".
  await runListToDone(page, [`${site.url}/${folder}/report-1 grep=Harbour`, `${site.url}/${folder}/report-2 mode=text`]);
  await page.getByTestId('run-all').click();
  const host = new URL(site.url).host;
  const again = page.locator('[data-testid="job-item-name"]').filter({ has: page.locator('.job-item-label', { hasText: /^again: / }) });
  await expect.poll(() => again.getAttribute('title')).toBe(`again: ${host}/${folder} · options per URL · 2 URLs`);
  await page.locator('[data-testid="job-header"][data-status="done"]').waitFor();
  const shown = await again.locator('.job-item-label').evaluate((e) => ({ text: e.textContent ?? '', cut: e.scrollWidth > e.clientWidth + 1 }));
  // Cut in its middle whole, it read "again: 127.0…ns per URL": the folder, what tells this
  // job from the others of the host, gone.
  expect(shown.cut).toBe(false);
  expect(shown.text).toMatch(/^again: …\/an.*…/);
  expect(shown.text).toMatch(/tes$/);
  await page.screenshot({ path: screenshotPath('ui-sidebar-names-again') });
  expect(pageErrors(page)).toEqual([]);
});

test('at 1024 × 768 "partly failed" beside a long job name is one line', async () => {
  await page.setViewportSize({ width: 1024, height: 768 });
  // A folder long enough that the job's name takes the header's width; one URL is not there.
  const folder = `${site.url}/quarterly-reports-and-statements-of-the-harbour-board`;
  await page.getByTestId('nav-new').click();
  await pasteList(page, [`${folder}/report-1`, `${folder}/report-2`, `${folder}/missing`].join('\n'));
  await page.getByTestId('count-valid').filter({ hasText: /^3$/ }).waitFor();
  await page.keyboard.press('Control+Enter');
  await page.locator('[data-testid="job-header"][data-status="partial"]').waitFor();
  const badge = page.locator('[data-testid="job-header"] .badge').first();
  await expect.poll(() => badge.textContent()).toBe('partly failed');
  const { height, lineHeight } = await badge.evaluate((e) => ({ height: e.getBoundingClientRect().height, lineHeight: parseFloat(getComputedStyle(e).lineHeight) || 1.4 * parseFloat(getComputedStyle(e).fontSize) }));
  // One line is its line height and 2 px of padding; two lines are twice that.
  expect(height).toBeLessThan(1.5 * lineHeight);
  await page.screenshot({ path: screenshotPath('ui-header-badge-1024') });
  expect(pageErrors(page)).toEqual([]);
});

/** A locator's box: whether its text runs past it, and its height against its line's. */
const oneLine = (sel: string): Promise<{ cut: boolean; lines: number; text: string; title: string }> =>
  page.locator(sel).first().evaluate((e) => {
    const lineHeight = parseFloat(getComputedStyle(e).lineHeight) || 1.4 * parseFloat(getComputedStyle(e).fontSize);
    return { cut: e.scrollWidth > e.clientWidth + 1, lines: e.getBoundingClientRect().height / lineHeight, text: e.textContent ?? '', title: e.getAttribute('title') ?? '' };
  });

test('at 1024 × 768 jobs of one host whose folders end alike ("quarterly-minutes", "annual-board-meeting-minutes") look different, and the header names one on one line', async () => {
  await page.setViewportSize({ width: 1024, height: 768 });
  const host = new URL(site.url).host;
  const folder = 'annual-board-meeting-minutes';
  await page.getByTestId('nav-new').click();
  await runListToDone(page, [1, 2, 3].map((n) => `${site.url}/${folder}/report-${n}`));
  const item = (f: string) => page.locator('[data-testid="job-item-name"]').filter({ has: page.locator('.job-item-label') }).and(page.locator(`[title="${host}/${f} · ${f === folder ? 3 : 2} URLs"]`));
  await expect.poll(() => item(folder).count()).toBe(1);
  const annual = (await item(folder).locator('.job-item-label').textContent()) ?? '';
  const quarterly = (await item('quarterly-minutes').locator('.job-item-label').textContent()) ?? '';
  // Cut in the middle of host and folder both read "127.0.0.…-minutes": the host and the
  // shared tail kept, the folder's own start gone. Each shows the start of its folder now.
  expect(annual).not.toBe(quarterly);
  expect(annual).toMatch(/annual/);
  expect(quarterly).toMatch(/quarter/);
  // Every job's name that differs before " · " (what the list is of, not what is asked of it) differs as shown.
  const labels = await page.locator('.job-item-label').evaluateAll((els) => els.map((e) => ({ text: e.textContent ?? '', title: e.parentElement?.getAttribute('title')?.split(' · ')[0] ?? '' })));
  for (const a of labels) for (const b of labels) if (a.title !== b.title) expect(a.text).not.toBe(b.text);
  await page.getByTestId('job-list').screenshot({ path: screenshotPath('ui-sidebar-names-alike') });

  // The header: one line, however long the name; the whole name on hover. It broke at the
  // folder's hyphen, "…annual-board-meeting-" over "minutes · 3 URLs".
  await page.setViewportSize({ width: 800, height: 768 });
  const header = await oneLine('[data-testid="job-name"]');
  expect(header.lines).toBeLessThan(1.5);
  expect(header.title).toBe(`${host}/${folder} · 3 URLs`);
  expect(await page.locator('[data-testid="job-name"]').evaluate((e) => e.textContent?.endsWith('· 3 URLs'))).toBe(true);
  const countVisible = await page.locator('[data-testid="job-name"] .job-name-count').evaluate((e) => {
    const r = e.getBoundingClientRect();
    const h = e.closest('h2')!.getBoundingClientRect();
    return r.width > 0 && r.right <= h.right + 1;
  });
  expect(countVisible).toBe(true);
  // Cut as the job list cuts it, the folder's end kept: cut at its end by CSS, the header read
  // "127.0.0.1:41234/annual-board-mee…", the end that tells it from "…/quarterly-minutes" gone.
  const headerLabel = page.locator('[data-testid="job-name"] .job-name-label');
  await expect.poll(() => headerLabel.textContent()).toMatch(/…/);
  const label = await headerLabel.evaluate((e) => ({ text: e.textContent ?? '', cut: e.scrollWidth > e.clientWidth + 1 }));
  expect(label.cut).toBe(false);
  expect(label.text).toMatch(/annual.*minutes$/);
  // Its badge and id within the window: an auto grid column took the header past its edge.
  const idRight = await page.locator('[data-testid="job-header"] .job-id').evaluate((e) => e.getBoundingClientRect().right);
  expect(idRight).toBeLessThanOrEqual(800);
  await page.getByTestId('job-header').screenshot({ path: screenshotPath('ui-header-name-800') });

  // The table: the rows' titles share "Harbour report /annual-board-meeting-minutes/report-";
  // cut at the end, every row read "Harbour report /annual-board-meeting-m…". Each row's own end shows.
  await page.setViewportSize({ width: 1024, height: 768 });
  const cells = page.locator('[data-testid="target-row"] .c-detail');
  // The titles are cut again once the table has measured its wider column (a resize observer's
  // callback, after the viewport changed): waited for, as CI read the 800 px cut once.
  await expect.poll(() => cells.evaluateAll((els) => els.map((e) => e.scrollWidth > e.clientWidth + 1))).toEqual([false, false, false]);
  const titles = await cells.evaluateAll((els) => els.map((e) => ({ text: e.textContent ?? '', title: e.getAttribute('title') ?? '', cut: e.scrollWidth > e.clientWidth + 1 })));
  expect(titles.map((t) => t.title)).toEqual([1, 2, 3].map((n) => `Harbour report /${folder}/report-${n}`));
  expect(titles.map((t) => t.text.at(-1))).toEqual(['1', '2', '3']);
  expect(titles.map((t) => t.cut)).toEqual([false, false, false]);
  expect(titles.every((t) => t.text.startsWith('Harbour'))).toBe(true);
  await page.getByTestId('target-grid').screenshot({ path: screenshotPath('ui-table-titles-1024') });
  expect(pageErrors(page)).toEqual([]);
});

test('at 1024 × 768 lists of Arabic, Chinese and emoji folders are named in their own letters, whole characters, each apart', async () => {
  await page.setViewportSize({ width: 1024, height: 768 });
  const folders = ['تقارير-مجلس-الإدارة-السنوية', '年度董事会会议纪要与报告汇编', '🦀-crab-harbour-minutes-🦀🦀', 'board-minutes-2024-final-a', 'board-minutes-2024-final-b'];
  for (const folder of folders) {
    await page.getByTestId('nav-new').click();
    await runListToDone(page, [1, 2].map((n) => `${site.url}/${folder}/report-${n}`));
  }
  const host = new URL(site.url).host;
  // Named as the rows show the URLs: "127.0.0.1:…/%D8%AA%D9%82…" was the Arabic list's name.
  await expect.poll(() => page.getByTestId('job-name').getAttribute('title')).toBe(`${host}/${folders.at(-1)} · 2 URLs`);
  const items = await page.locator('[data-testid="job-item-name"]').evaluateAll((els) =>
    els.slice(0, 5).map((e) => ({ title: e.getAttribute('title') ?? '', text: e.querySelector('.job-item-label')?.textContent ?? '', cut: e.scrollWidth > e.clientWidth + 1 })),
  );
  expect(items.map((i) => i.title)).toEqual([...folders].reverse().map((f) => `${host}/${f} · 2 URLs`));
  for (const i of items) {
    expect(i.text).not.toMatch(/%[0-9A-F]{2}|\uFFFD|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/);
    expect(i.cut).toBe(false);
  }
  expect(new Set(items.map((i) => i.text)).size).toBe(items.length);
  await page.getByTestId('job-list').screenshot({ path: screenshotPath('ui-sidebar-names-scripts') });
  // The Arabic list's header and rows, in its letters.
  await page.locator('[data-testid="job-item"]').nth(4).click();
  await expect.poll(() => page.getByTestId('job-name').textContent()).toBe(`${host}/${folders[0]} · 2 URLs`);
  await page.getByTestId('job-view').screenshot({ path: screenshotPath('ui-sidebar-names-arabic-view') });
  expect(pageErrors(page)).toEqual([]);
});

test('at 800 × 768 two runs of one file, one with a grep, read apart in the job list and the header', async () => {
  await page.setViewportSize({ width: 800, height: 768 });
  const urls = [1, 2].map((n) => `${site.url}/harbour-letters/report-${n}`).join('\n');
  for (const grep of ['', 'Harbour']) {
    await page.getByTestId('nav-new').click();
    if (grep) await page.getByTestId('opt-grep').fill(grep);
    await dropFile(page, 'links.txt', urls);
    await page.getByTestId('count-valid').filter({ hasText: /^2$/ }).waitFor();
    await page.getByTestId('submit').click();
    await expect.poll(() => page.getByTestId('job-name').getAttribute('title')).toBe(grep ? 'links.txt · grep “Harbour” · 2 URLs' : 'links.txt · 2 URLs');
    await page.locator('[data-testid="job-header"][data-status="done"]').waitFor();
  }
  // Both read "links.txt · 2 URLs" before: the file's name said nothing of the grep.
  const items = page.locator('[data-testid="job-item-name"][title^="links.txt"]');
  await expect.poll(() => items.evaluateAll((els) => els.map((e) => e.textContent))).toEqual([expect.stringMatching(/^…grep “H.* · 2 URLs$/), 'links.txt · 2 URLs']);
  expect(await items.evaluateAll((els) => els.map((e) => e.scrollWidth > e.clientWidth + 1))).toEqual([false, false]);
  expect(await page.getByTestId('job-name').textContent()).toBe('links.txt · grep “Harbour” · 2 URLs');
  await page.screenshot({ path: screenshotPath('ui-sidebar-names-options-800') });
  expect(pageErrors(page)).toEqual([]);
});

test('at 800 × 768 a list of two sites is named by its first site and how many more, in the job list', async () => {
  await page.setViewportSize({ width: 800, height: 768 });
  const other = await startReportSite();
  try {
    const [first, second] = [new URL(site.url).host, new URL(other.url).host];
    await page.getByTestId('nav-new').click();
    await runListToDone(page, [`${site.url}/two-sites/report-1`, `${site.url}/two-sites/report-2`, `${other.url}/two-sites/report-3`]);
    // By the start of its name: the options of the list before it (a grep) stay in the composer.
    const item = page.locator(`[data-testid="job-item-name"][title^="${first}, ${second} · "]`);
    await item.waitFor();
    const label = item.locator('.job-item-label');
    await expect.poll(() => label.textContent()).toMatch(/…/);
    const shown = await label.evaluate((e) => ({ text: e.textContent ?? '', cut: e.scrollWidth > e.clientWidth + 1 }));
    expect(shown.cut).toBe(false);
    // Cut in the middle of both, it read "127.…1901": the first site's start, the second's port.
    const [, start, end] = /^(.*)…(.*) \+1$/.exec(shown.text) ?? [];
    expect(start !== undefined && end !== undefined && first.startsWith(start) && first.endsWith(end), shown.text).toBe(true);
    await page.getByTestId('job-list').screenshot({ path: screenshotPath('ui-sidebar-names-two-sites-800') });
    // Wider, more of the first site, still with the count: both sites whole take 32 characters.
    await page.setViewportSize({ width: 1280, height: 800 });
    await expect.poll(async () => ((await label.textContent()) ?? '').length).toBeGreaterThan(shown.text.length);
    const wide = (await label.textContent()) ?? '';
    const [, wideStart, wideEnd] = /^(.*)…(.*) \+1$/.exec(wide) ?? /^(.*)()\+1$/.exec(wide) ?? [];
    expect(wideStart !== undefined && wideEnd !== undefined && first.startsWith(wideStart.trim()) && first.endsWith(wideEnd), wide).toBe(true);
    await page.screenshot({ path: screenshotPath('ui-sidebar-names-two-sites-1280') });
    expect(pageErrors(page)).toEqual([]);
  } finally {
    await other.close();
  }
});
