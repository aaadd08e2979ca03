/**
 * A user's whole path with the keyboard only, and what a screen reader hears of it, in real
 * Chromium against the real services: a list typed in, options chosen, a URL previewed, the
 * job started, watched, cancelled, a result opened, searched, exported, settings saved, a job
 * deleted. Then the same app at 320 px wide and at 200% zoom, and its text's contrast.
 * The tests run in order on one page: each starts where the one before left off.
 */
import { expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import { axOf, focused, lowContrast, tabWalk } from '../helpers/a11y';
import { openBridgedPage, screenshotPath } from '../helpers/chromium';
import { appForFile } from '../helpers/ui-file';
import { startTestSite, type TestSite } from '../helpers/ui-servers';

let site: TestSite;
let page: Page;
const o = appForFile({
  serve: async () => (site = await startTestSite()),
  ready: (opened) => {
    page = opened.page;
  },
});

const text = (testId: string) => () => page.getByTestId(testId).first().textContent();
const jobStatus = () => page.getByTestId('job-header').getAttribute('data-status');
const ids = (walk: { id: string }[]) => walk.map((f) => f.id);

/** Every control of a walk has a name a screen reader can say and an outline a sighted user can see. */
function expectNamedAndOutlined(walk: Awaited<ReturnType<typeof tabWalk>>): void {
  // A <summary> is read by its text (the snapshot's "text: …"); every other control by its name.
  expect(walk.filter((f) => !/^\S+ "[^"]+"/.test(f.aria) && !(f.id === 'summary' && /^text: \S/.test(f.aria))).map((f) => `${f.id}: ${f.aria}`), 'controls without a name').toEqual([]);
  expect(walk.filter((f) => !f.outlined).map((f) => f.id), 'controls focused without a visible outline').toEqual([]);
}

/** What the job's live region said, each change once, since recordAnnouncements. */
async function recordAnnouncements(): Promise<void> {
  await page.evaluate(() => {
    const said: string[] = [];
    (window as unknown as { said: string[] }).said = said;
    const read = (): void => {
      const t = document.querySelector('[data-testid="job-announce"]')?.textContent ?? '';
      if (t && said.at(-1) !== t) said.push(t);
    };
    new MutationObserver(read).observe(document.body, { subtree: true, childList: true, characterData: true });
  });
}
const announcements = () => page.evaluate(() => (window as unknown as { said: string[] }).said);

test('Tab goes through the empty composer in reading order, each control named and outlined', async () => {
  await page.getByTestId('jobs-empty').waitFor();
  const walk = await tabWalk(page);
  expect(ids(walk)).toEqual([
    'nav-new',
    'sidebar-search-input',
    'nav-activity',
    'nav-settings',
    'summary',
    'open-list',
    'paste-box',
    'opt-mode',
    'opt-render',
    'opt-question',
    'opt-pages',
    'opt-grep',
    'opt-jq',
    'opt-context',
    'opt-recover',
    'submit',
  ]);
  expectNamedAndOutlined(walk);
});

test('a list typed in, options set with the keys, a URL picked with the arrows and previewed with Enter', async () => {
  await page.getByTestId('paste-box').focus();
  await page.keyboard.insertText([1, 2, 3].map((i) => `${site.url}/article/${i}`).join('\n') + `\n${site.url}/missing`);
  await expect.poll(text('count-valid')).toBe('4');
  // The mode's select answers the arrows; Space ticks a checkbox and ticks it off again.
  await page.keyboard.press('Tab');
  expect((await focused(page)).id).toBe('opt-mode');
  await page.keyboard.press('ArrowDown');
  expect(await page.getByTestId('opt-mode').inputValue()).toBe('text');
  await page.keyboard.press('ArrowUp');
  expect(await page.getByTestId('opt-mode').inputValue()).toBe('markdown');
  await page.getByTestId('opt-context').focus();
  await page.keyboard.press('Space');
  expect(await page.getByTestId('opt-context').isChecked()).toBe(true);
  await page.keyboard.press('Space');
  expect(await page.getByTestId('opt-context').isChecked()).toBe(false);
  // A bad grep is said as an alert when the user leaves the field.
  await page.getByTestId('opt-grep').focus();
  await page.keyboard.type('(unclosed');
  await page.keyboard.press('Tab');
  await expect.poll(() => page.getByTestId('options-error').getAttribute('role')).toBe('alert');
  // The error is the Grep box's: back on it, a screen reader hears it invalid and why; no other field is marked.
  expect(await axOf(page, '[data-testid="opt-grep"]')).toEqual({ name: 'Grep', description: expect.stringMatching(/^Invalid grep expression "\(unclosed": .+ grep takes a JavaScript regular expression/), invalid: true });
  expect(await axOf(page, '[data-testid="opt-pages"]')).toEqual({ name: 'PDF pages', description: '', invalid: false });
  expect(await axOf(page, '[data-testid="opt-mode"]')).toMatchObject({ name: 'Extract', invalid: false });
  await page.getByTestId('opt-grep').focus();
  await page.keyboard.press('Control+a');
  await page.keyboard.press('Delete');
  await page.keyboard.press('Tab');
  await expect.poll(() => page.getByTestId('options-error').count()).toBe(0);
  expect(await axOf(page, '[data-testid="opt-grep"]')).toEqual({ name: 'Grep', description: '', invalid: false });
  // Ctrl+Enter from the list with a bad page range: the submit stops and the focus goes to the field to fix.
  await page.getByTestId('opt-pages').focus();
  await page.keyboard.type('5-2');
  await page.getByTestId('paste-box').focus();
  await page.keyboard.press('Control+Enter');
  await expect.poll(async () => (await focused(page)).id).toBe('opt-pages');
  expect(await axOf(page, '[data-testid="opt-pages"]')).toMatchObject({ name: 'PDF pages', invalid: true });
  expect(await page.getByTestId('job-view').count()).toBe(0);
  await page.keyboard.press('Control+a');
  await page.keyboard.press('Delete');
  await expect.poll(() => page.getByTestId('options-error').count()).toBe(0);
  // Two options that do not go together: both fields are marked, the error tied to each.
  await page.getByTestId('opt-jq').focus();
  await page.keyboard.type('.items');
  await page.getByTestId('opt-mode').selectOption('raw');
  await expect.poll(() => page.getByTestId('options-error').count()).toBe(1);
  for (const id of ['opt-jq', 'opt-mode']) expect(await axOf(page, `[data-testid="${id}"]`), id).toMatchObject({ description: expect.stringMatching(/^A jq program does not go with Extract set to raw/), invalid: true });
  await page.getByTestId('opt-mode').selectOption('markdown');
  await page.getByTestId('opt-jq').fill('');
  await expect.poll(() => page.getByTestId('options-error').count()).toBe(0);

  // After the options, the list Sift read: a list box the arrows move in.
  await page.getByTestId('opt-recover').focus();
  const walk = await tabWalk(page, 4);
  expect(ids(walk)).toEqual(['parsed-scroll', 'preview-button', 'preview-render-button', 'submit']);
  expectNamedAndOutlined(walk);
  expect(walk[0]?.aria).toMatch(/^listbox "URLs in the list"/);
  await page.getByTestId('parsed-scroll').focus();
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowDown');
  expect(await page.getByTestId('preview-panel').locator('.parsed-url').textContent()).toBe(`${new URL(site.url).host}/article/3`);
  const active = await page.getByTestId('parsed-scroll').getAttribute('aria-activedescendant');
  expect(await page.locator(`#${active}`).getAttribute('aria-selected')).toBe('true');
  await page.keyboard.press('Enter');
  await expect.poll(text('result-markdown')).toMatch(/topic 3/);
  await page.keyboard.press('Home');
  expect(await page.getByTestId('preview-panel').locator('.parsed-url').textContent()).toBe(`${new URL(site.url).host}/article/1`);
  await page.screenshot({ path: screenshotPath('keys-composer') });
});

test('Ctrl+Enter starts the job; focus lands on its heading; the live region says how it went, a few times only', async () => {
  await recordAnnouncements();
  await page.keyboard.press('Control+Enter');
  await expect.poll(jobStatus, { timeout: 60_000 }).toBe('partial');
  expect(await focused(page)).toMatchObject({ id: 'job-name' });
  const said = await announcements();
  expect(said.at(-1)).toBe('Done, some failed: 3 OK, 1 failed.');
  expect(said.length).toBeLessThanOrEqual(5);
  expect(await page.getByTestId('job-announce').getAttribute('role')).toBe('status');
});

test('Tab goes through the job view in reading order; arrows and Enter open a result in the table', async () => {
  const walk = await tabWalk(page, 10);
  // Find's Clear is passed over while the box is empty: it is disabled then (appqa24).
  expect(ids(walk)).toEqual([
    'reason-chip',
    'run-failed',
    'run-all',
    'export-job',
    'delete-job',
    'search-mode-find',
    'job-search-input',
    'filter-status',
    'filter-reason',
    'target-grid',
  ]);
  // The focus is on the grid itself, named: it sat on a nameless scrolling part inside it.
  expectNamedAndOutlined(walk);
  expect(walk.at(-1)?.aria).toMatch(/^grid "Targets"/);
  await page.keyboard.press('ArrowDown');
  // The row the grid points at is its own; the filter's selects are no cells of the grid.
  const activeRow = await page.evaluate(() => {
    const grid = document.activeElement!;
    const row = document.getElementById(grid.getAttribute('aria-activedescendant') ?? '');
    return { role: grid.getAttribute('role'), rowIn: !!row && grid.contains(row) && row.getAttribute('role') === 'row', selects: grid.querySelectorAll('select').length };
  });
  expect(activeRow).toEqual({ role: 'grid', rowIn: true, selects: 0 });
  await page.keyboard.press('Enter');
  await expect.poll(text('result-markdown')).toMatch(/topic 1/);
  await page.keyboard.press('End');
  await page.keyboard.press('Enter');
  // The failed row's error is in the pane, but not said again: the row in focus has said it, and
  // an alert in the pane repeated it, interrupting, at each failed row the arrows passed.
  await expect.poll(text('result-error')).toMatch(/^HTTP 404/);
  const rowName = (await page.locator('[data-testid="target-row"][aria-selected="true"]').ariaSnapshot()).split('\n')[0]!;
  expect(rowName).toMatch(/HTTP 404/);
  const livePane = await page
    .getByTestId('result-pane')
    .locator('[role="alert"], [role="status"], [aria-live]:not([aria-live="off"])')
    .evaluateAll((els) => els.map((e) => e.textContent ?? ''));
  expect(livePane.filter((t) => /404/.test(t))).toEqual([]);
  // The screenshot shows the pane as the user reads it, not while its result is still loading.
  await expect.poll(() => page.getByText('Loading the result…').count()).toBe(0);
  await page.screenshot({ path: screenshotPath('keys-job') });
  // The whole view as a screen reader has it: named regions and controls, roles where they belong.
  const tree = await page.locator('main').ariaSnapshot();
  expect(tree).toMatch(/- heading ".+" \[level=2\]/);
  expect(tree).toMatch(/- progressbar "Job progress"/);
  expect(tree).toMatch(/- radiogroup "Search mode":\n\s+- radio "Find" \[checked\]\n\s+- radio "Ask this job"/);
  expect(tree).toMatch(/- grid "Targets":/);
  expect(tree).toMatch(/- complementary "Result":/);
  expect(tree).toMatch(/- row "4 failed .*" \[selected\]/);
  expect(tree.split('\n').filter((l) => /- (button|searchbox|combobox|textbox|checkbox|radio|link)\b(?! ")/.test(l))).toEqual([]);
});

test('the search mode is one Tab stop whose arrows switch between Find and Ask', async () => {
  await page.getByTestId('delete-job').focus();
  await page.keyboard.press('Tab');
  expect((await focused(page)).id).toBe('search-mode-find');
  await page.keyboard.press('ArrowRight');
  expect(await focused(page)).toMatchObject({ id: 'search-mode-ask', aria: 'radio "Ask this job" [checked]' });
  await page.keyboard.press('Tab');
  expect((await focused(page)).id).toBe('ask-input');
  await page.keyboard.press('Shift+Tab');
  await page.keyboard.press('ArrowLeft');
  expect(await focused(page)).toMatchObject({ id: 'search-mode-find', aria: 'radio "Find" [checked]' });
});

test('find in this job by keyboard: type, Tab to a hit, Enter opens it at the match; Esc empties the box', async () => {
  await page.keyboard.press('Tab');
  expect((await focused(page)).id).toBe('job-search-input');
  await page.keyboard.type('topic 2');
  await page.keyboard.press('Enter');
  await expect.poll(() => page.getByTestId('search-hit').count()).toBe(1);
  const walk = await tabWalk(page, 4);
  expect(ids(walk)).toContain('search-hit');
  await page.getByTestId('search-hit').focus();
  await page.keyboard.press('Enter');
  await expect.poll(text('result-markdown')).toMatch(/topic 2/);
  await page.getByTestId('job-search-input').focus();
  await page.keyboard.press('Escape');
  expect(await page.getByTestId('job-search-input').inputValue()).toBe('');
  // Esc in the box empties it; it does not reach "Esc cancels the job".
  expect(await jobStatus()).toBe('partial');
});

test('the sidebar search by keyboard: typing shows hits across jobs, Enter on one opens its job', async () => {
  await page.getByTestId('sidebar-search-input').focus();
  await page.keyboard.type('topic 3');
  await page.getByTestId('search-view').waitFor();
  await expect.poll(() => page.getByTestId('search-hit').count()).toBe(1);
  expect((await focused(page)).id).toBe('sidebar-search-input');
  await page.getByTestId('search-hit').focus();
  await page.keyboard.press('Enter');
  await page.getByTestId('job-view').waitFor();
  await expect.poll(text('result-markdown')).toMatch(/topic 3/);
  await page.getByTestId('sidebar-search-input').focus();
  await page.keyboard.press('Escape');
  expect(await page.getByTestId('sidebar-search-input').inputValue()).toBe('');
});

test('the export dialog: Enter opens it, focus stays in it, Esc closes it and gives focus back to Export…', async () => {
  await page.getByTestId('export-job').focus();
  await page.keyboard.press('Enter');
  await page.getByTestId('export-dialog').waitFor();
  expect((await focused(page)).id).toBe('export-format');
  expect(await page.getByTestId('export-dialog').ariaSnapshot()).toMatch(/^- dialog "Export results"/);
  // Ten Tabs never reach the page behind the modal (the body is the window's own stop).
  const stops: string[] = [];
  for (let i = 0; i < 10; i++) {
    await page.keyboard.press('Tab');
    stops.push(await page.evaluate(() => (document.activeElement === document.body ? 'body' : document.activeElement?.closest('dialog') ? 'dialog' : 'page')));
  }
  expect(stops).not.toContain('page');
  await page.getByTestId('export-format').focus();
  const walk = await tabWalk(page, 6);
  expect(ids(walk)).toEqual(['export-include-failed', 'export-include-meta', 'export-close', 'export-start']);
  expectNamedAndOutlined(walk);
  await page.getByTestId('export-format').focus();
  await page.keyboard.press('ArrowDown');
  expect(await page.getByTestId('export-format').inputValue()).toBe('txt');
  await page.screenshot({ path: screenshotPath('keys-export') });
  await page.keyboard.press('Escape');
  await expect.poll(() => page.getByTestId('export-dialog').count()).toBe(0);
  expect((await focused(page)).id).toBe('export-job');
  // Space opens it too; its Cancel button closes it and gives focus back the same way.
  await page.keyboard.press('Space');
  await page.getByTestId('export-dialog').waitFor();
  await page.getByTestId('export-close').focus();
  await page.keyboard.press('Enter');
  await expect.poll(() => page.getByTestId('export-dialog').count()).toBe(0);
  expect((await focused(page)).id).toBe('export-job');
  expect(await jobStatus()).toBe('partial');
});

test('Esc cancels a running job started from the keyboard; the live region says it was cancelled', async () => {
  await page.getByTestId('nav-new').focus();
  await page.keyboard.press('Enter');
  await page.getByTestId('paste-box').focus();
  await page.keyboard.insertText([`${site.url}/article/5`, ...[1, 2, 3].map((i) => `${site.url}/slow/${i}?ms=4000`)].join('\n'));
  await expect.poll(text('count-valid')).toBe('4');
  await recordAnnouncements();
  await page.keyboard.press('Control+Enter');
  await expect.poll(() => page.locator('[data-testid="target-row"][data-status="running"]').count(), { timeout: 60_000 }).toBe(1);
  expect(await page.getByTestId('cancel-job').ariaSnapshot()).toMatch(/button "Cancel Esc"/);
  // Esc in the status filter is the select's own (its list closing): the job runs on. The
  // handler that cancels marks the key as handled, so the event says which way it went.
  const handled = await page.getByTestId('filter-status').evaluate((el) => {
    const esc = new KeyboardEvent('keydown', { key: 'Escape', bubbles: true, cancelable: true });
    el.dispatchEvent(esc);
    return esc.defaultPrevented;
  });
  expect(handled).toBe(false);
  expect(await jobStatus()).toBe('running');
  // From the view itself (its heading holds focus since the submit), Esc cancels.
  await page.keyboard.press('Escape');
  await expect.poll(jobStatus, { timeout: 60_000 }).toBe('cancelled');
  await expect.poll(async () => (await announcements()).at(-1)).toMatch(/^Cancelled: \d OK, \d failed, \d not fetched\.$/);
  expect((await announcements()).length).toBeLessThanOrEqual(5);
});

test('settings by keyboard: a number changed, Enter saves, the status says so', async () => {
  await page.getByTestId('nav-settings').focus();
  await page.keyboard.press('Enter');
  await page.getByTestId('settings-panel').waitFor();
  const walk = await tabWalk(page, 40);
  expect(ids(walk).slice(0, 3)).toEqual(['summary', 'setting-targetsPerJob', 'setting-jobsPerCaller']);
  expect(ids(walk)).toContain('setting-render');
  expectNamedAndOutlined(walk.filter((f) => !f.aria.startsWith('button') || !/disabled/.test(f.aria)));
  await page.getByTestId('setting-ttlHours').focus();
  await page.keyboard.press('Control+a');
  await page.keyboard.type('48');
  await page.keyboard.press('Enter');
  await expect.poll(text('settings-status')).toBe('Saved. New jobs use these settings.');
  expect(await page.getByTestId('settings-status').getAttribute('role')).toBe('status');
});

test('Activity by keyboard: each chart is a table a screen reader reads, a row per bar with what the bar shows', async () => {
  await page.getByTestId('nav-activity').focus();
  await page.keyboard.press('Enter');
  await page.getByTestId('chart-targets').waitFor();
  for (const [id, title, head] of [
    ['chart-targets', 'URLs by outcome', 'Outcome URLs'],
    ['chart-reasons', 'Why URLs failed', 'Reason URLs'],
    ['chart-jobs', 'Jobs by outcome', 'Outcome Jobs'],
    ['chart-durations', 'Time per URL', 'Time URLs'],
  ] as const) {
    const chart = page.getByTestId(id);
    // What a sighted user reads off the bars: each label and the count beside it.
    const labels = await chart.locator('text.chart-label').allTextContents();
    const values = await chart.locator('text.chart-value').allTextContents();
    const tree = await chart.ariaSnapshot();
    // It was an image named by its title: "URLs by outcome, image", no bar and no count.
    expect(tree, id).not.toMatch(/- img/);
    expect(tree, id).toMatch(new RegExp(`^- table "${title}":`));
    expect(tree, id).toContain(`- row "${head}"`);
    const rows = [...tree.matchAll(/- row "(.+)":\n\s+- rowheader "(.+)"\n\s+- cell "(.+)"/g)].map((m) => [m[2], m[3]]);
    expect(rows, id).toEqual(labels.map((l, i) => [l, values[i]]));
    expect(rows.length, id).toBeGreaterThan(0);
  }
});

test('delete by keyboard: Enter asks, Enter again deletes, focus lands on the next view', async () => {
  await page.getByTestId('job-item').first().focus();
  await page.keyboard.press('Enter');
  await page.getByTestId('job-view').waitFor();
  const id = await page.getByTestId('job-view').getAttribute('data-job-id');
  await page.getByTestId('delete-job').focus();
  await page.keyboard.press('Enter');
  expect(await page.getByTestId('delete-job').textContent()).toBe('Really delete?');
  // The question stays until answered (it lasted 4 s), and is taken back by Escape or by leaving it.
  await page.keyboard.press('Escape');
  expect(await page.getByTestId('delete-job').textContent()).toBe('Delete');
  await page.keyboard.press('Enter');
  await page.keyboard.press('Tab');
  await page.keyboard.press('Shift+Tab');
  expect(await focused(page)).toMatchObject({ id: 'delete-job' });
  expect(await page.getByTestId('delete-job').textContent()).toBe('Delete');
  await page.keyboard.press('Enter');
  // Past the 4 s the question used to last: nothing is awaited here but the absence of that timer.
  await page.waitForTimeout(4500);
  expect(await page.getByTestId('delete-job').textContent()).toBe('Really delete?');
  await page.keyboard.press('Enter');
  await expect.poll(() => page.locator(`[data-testid="job-item"][data-job-id="${id}"]`).count()).toBe(0);
  // The next view takes focus in an effect after it renders, not with the row's removal.
  await expect.poll(async () => (await focused(page)).id).toBe('job-name');
  const f = await focused(page);
  expect(f.aria).toMatch(/^heading /);
});

test('main text and buttons have a contrast of 4.5:1 at least, light and dark, on every view', async () => {
  const dark = await openBridgedPage(o.browser, o.app.bridge.url, o.app.bridge.wsUrl, 'dark');
  try {
    const found: string[] = [];
    for (const p of [page, dark]) {
      const scheme = p === page ? 'light' : 'dark';
      await p.getByTestId('job-item').first().click();
      await p.getByTestId('job-view').waitFor();
      await p.locator('[data-testid="target-row"]').first().waitFor();
      await p.getByTestId('target-grid').focus();
      await p.keyboard.press('Home');
      found.push(...(await lowContrast(p)).map((s) => `${scheme} job: ${s}`));
      await p.getByTestId('export-job').click();
      await p.getByTestId('export-dialog').waitFor();
      found.push(...(await lowContrast(p, '[data-testid="export-dialog"]')).map((s) => `${scheme} export: ${s}`));
      await p.keyboard.press('Escape');
      await p.getByTestId('nav-new').click();
      await p.getByTestId('paste-box').fill(`${site.url}/article/1\n${site.url}/article/1\nnot a url`);
      await p.getByTestId('parse-summary').waitFor();
      found.push(...(await lowContrast(p)).map((s) => `${scheme} composer: ${s}`));
      await p.getByTestId('nav-settings').click();
      await p.getByTestId('setting-render').waitFor();
      found.push(...(await lowContrast(p)).map((s) => `${scheme} settings: ${s}`));
    }
    await dark.screenshot({ path: screenshotPath('keys-dark-settings') });
    expect(found.join('\n')).toBe('');
  } finally {
    await dark.context().close();
  }
});

test('at 320 px wide and at 200% zoom nothing is cut off and every control of the path is reachable', async () => {
  // 200% zoom of a 1280 × 820 window lays out as a 640 × 410 one.
  for (const [w, h, name] of [
    [320, 640, 'keys-320'],
    [640, 410, 'keys-zoom200'],
  ] as const) {
    await page.setViewportSize({ width: w, height: h });
    try {
      for (const view of ['job', 'composer', 'settings'] as const) {
        if (view === 'job') await page.getByTestId('job-item').first().click();
        if (view === 'composer') await page.getByTestId('nav-new').click();
        if (view === 'settings') await page.getByTestId('nav-settings').click();
        const must = { job: ['export-job', 'delete-job', 'job-search-input', 'target-grid'], composer: ['paste-box', 'opt-mode', 'submit'], settings: ['setting-ttlHours', 'settings-save'] }[view];
        await page.getByTestId(must[0]!).waitFor();
        await page.screenshot({ path: screenshotPath(`${name}-${view}`) });
        // Nothing runs past the window's right edge, so nothing needs a sideways scroll.
        expect(await page.evaluate(() => document.documentElement.scrollWidth), `${name} ${view}`).toBeLessThanOrEqual(w);
        for (const id of must) {
          const el = page.getByTestId(id);
          await el.focus();
          const box = await el.evaluate((e) => {
            e.scrollIntoView({ block: 'nearest' });
            const r = e.getBoundingClientRect();
            return { left: r.left, right: r.right, top: r.top, bottom: r.bottom, width: r.width };
          });
          expect(box.left, `${name} ${view} ${id}`).toBeGreaterThanOrEqual(0);
          expect(box.right, `${name} ${view} ${id}`).toBeLessThanOrEqual(w);
          expect(box.width, `${name} ${view} ${id}`).toBeGreaterThan(40);
          expect(box.bottom, `${name} ${view} ${id}`).toBeGreaterThan(0);
          expect(box.top, `${name} ${view} ${id}`).toBeLessThan(h);
        }
      }
    } finally {
      await page.setViewportSize({ width: 1280, height: 820 });
    }
  }
});

test('with reduced motion set, nothing on screen moves', async () => {
  await page.getByTestId('job-item').first().click();
  await page.getByTestId('job-view').waitFor();
  expect(await page.evaluate(() => matchMedia('(prefers-reduced-motion: reduce)').matches)).toBe(true);
  const moving = await page.evaluate(() =>
    Array.from(document.querySelectorAll('*'))
      .filter((e) => {
        const cs = getComputedStyle(e);
        return cs.transitionDuration.split(',').some((d) => parseFloat(d) > 0) || (cs.animationName !== 'none' && parseFloat(cs.animationDuration) > 0);
      })
      .map((e) => `${e.tagName}.${e.className}`),
  );
  expect(moving).toEqual([]);
});
