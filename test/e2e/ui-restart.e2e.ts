import { expect, test } from 'vitest';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import type { FetchFunc } from '../../src/main/batch';
import { openStore, stoppedJobError } from '../../src/main/store';
import { isUnfinished, type StoreStop } from '../../src/shared/types';
import { screenshotPath } from '../helpers/chromium';
import { cutInCells, dropLinks, pageErrors, pasteList, tempDir } from '../helpers/ui-app';
import { appsForFile } from '../helpers/ui-file';
import { startTestSite, type TestSite } from '../helpers/ui-servers';
import { formatBytes } from '../../src/shared/bytes';

let site: TestSite;
// Every page a test opens is read after it for the marks of a bug; none is expected here.
const apps = appsForFile({ serve: async () => (site = await startTestSite()) });

const jobStatus = (page: Page) => () => page.getByTestId('job-header').getAttribute('data-status');
const rowStatus = (page: Page, idx: number) => () => page.locator(`[data-testid="target-row"][data-idx="${idx}"]`).getAttribute('data-status');

test('a job interrupted by a restart says so plainly and runs the rest again', async () => {
  const dataDir = tempDir('sift-ui-restart-');
  const { app: first, page } = await apps.open({ dataDir });
  await dropLinks(page, [`${site.url}/article/1`, ...[1, 2, 3, 4, 5].map((i) => `${site.url}/slow/${i}?ms=1000`)]);
  await expect.poll(() => page.getByTestId('count-valid').textContent()).toBe('6');
  await page.getByTestId('submit').click();
  await expect.poll(rowStatus(page, 0), { timeout: 60_000 }).toBe('done');
  await page.close();
  // The app quits mid-job: in-flight work is stored, the job stays "running" on disk.
  await first.close();

  const { app: second, page: again } = await apps.open({ dataDir });
  await again.getByTestId('job-item').first().click();
  await expect.poll(() => again.getByTestId('restart-notice').textContent()).toMatch(/closed while this job ran/);
  expect(await again.getByTestId('job-item').first().textContent()).toMatch(/interrupted/);
  expect(await again.getByTestId('delete-job').isEnabled()).toBe(true);

  const oldId = await again.getByTestId('job-view').getAttribute('data-job-id');
  // The notice says how many finished and how many "run the rest again" will fetch (those
  // never reached and the one stopped mid-way), as the store holds them.
  const left = second.services.store.targetRows(oldId ?? '').filter(isUnfinished).length;
  expect(left).toBeGreaterThanOrEqual(1);
  await expect
    .poll(() => again.getByTestId('restart-notice').textContent())
    .toMatch(new RegExp(`stopped after ${6 - left} targets?\\. (?:Their results are|Its result is) kept\\. Run the rest again to fetch the other ${left}\\.`));
  await again.screenshot({ path: screenshotPath('ui-interrupted') });
  await again.getByTestId('run-rest').click();
  await expect.poll(() => again.getByTestId('job-view').getAttribute('data-job-id')).not.toBe(oldId);
  await expect.poll(jobStatus(again), { timeout: 60_000 }).toBe('done');
  // The new job holds exactly what the first did not finish; how many of the 1 s pages
  // finished before the quit depends on the machine's speed (3 did on a loaded CI core).
  const unfinished = second.services.store.targetRows(oldId ?? '').filter((r) => r.status !== 'done').length;
  expect(unfinished).toBeGreaterThanOrEqual(1);
  expect(unfinished).toBeLessThanOrEqual(5);
  expect(await again.getByTestId('target-row').count()).toBe(unfinished);
  expect(pageErrors(again)).toEqual([]);
});

test('a job cut short by a crash counts the same in its header, the job list and its notice; run the rest again clicked twice starts one job', async () => {
  const dataDir = tempDir('sift-ui-crash-');
  const { app: first, page } = await apps.open({ dataDir });
  const urls = [`${site.url}/article/1`, `${site.url}/article/2`, `${site.url}/slow/3?ms=120000`, `${site.url}/article/4`];
  await dropLinks(page, urls);
  await expect.poll(() => page.getByTestId('count-valid').textContent()).toBe('4');
  await page.getByTestId('submit').click();
  await expect.poll(rowStatus(page, 2), { timeout: 60_000 }).toBe('running');
  await page.close();
  // The process dies mid-target: nothing more reaches the database, the slow page stays "running".
  first.services.store.close();
  apps.forget(first);
  await first.bridge.close();
  await first.services.close({ graceMs: 0 }).catch(() => {});

  const { app: second, page: again } = await apps.open({ dataDir });
  await again.getByTestId('job-item').first().click();
  await expect.poll(() => again.getByTestId('restart-notice').textContent()).toBe(
    'Sift was closed while this job ran, so it stopped after 2 targets. Their results are kept. Run the rest again to fetch the other 2.',
  );
  // The slow page was neither done nor failed: every count says 2 finished, none failed.
  expect(await again.getByTestId('stat-done').textContent()).toBe('2 / 4');
  expect(await again.getByTestId('stat-ok').textContent()).toBe('2');
  expect(await again.getByTestId('stat-failed').textContent()).toBe('0');
  expect(await again.getByTestId('job-item').first().textContent()).toContain('2 / 4 done');
  expect(await again.getByTestId('job-announce').textContent()).toBe('Interrupted: 2 OK, 0 failed, 2 not fetched.');
  const cut = again.locator('[data-testid="target-row"][data-idx="2"]');
  expect(await cut.getByTestId('status-badge').textContent()).toBe('stopped');
  expect(await cut.getByTestId('row-error').textContent()).toBe('interruptedSift stopped while this target was being fetched; run the rest again to fetch it.');
  expect(await cutInCells(again, 'status-badge')).toEqual([]);
  // Its result pane says the same sentence, not the code word "restart" stored as its error.
  await cut.click();
  await expect.poll(() => again.getByTestId('result-error').textContent()).toMatch(/^Sift stopped while this target was being fetched; run the rest again to fetch it\.?$/);
  // Its pane's badge reads as its row's: it read "failed" beside the row's "stopped".
  const pane = again.getByTestId('result-pane');
  expect(await pane.getAttribute('data-idx')).toBe('2');
  expect(await pane.getByTestId('status-badge').textContent()).toBe('stopped');
  // The target never reached: "not fetched" in its row and its pane, where the pane said "pending" and "Not fetched yet."
  const never = again.locator('[data-testid="target-row"][data-idx="3"]');
  expect(await never.getByTestId('status-badge').textContent()).toBe('not fetched');
  await never.click();
  await expect.poll(() => pane.getAttribute('data-idx')).toBe('3');
  expect(await pane.getByTestId('status-badge').textContent()).toBe('not fetched');
  expect(await pane.textContent()).toContain('Not fetched: the job ended before it. Run the rest again to fetch it.');
  await cut.click();
  await expect.poll(() => pane.getAttribute('data-idx')).toBe('2');
  // The status filter of the ended job shows what "run the rest again" takes, as its header counts
  // it: "Waiting" showed the one never reached, not the one stopped mid-way.
  const filter = again.getByTestId('filter-status');
  expect(await filter.locator('option[value="pending"]').textContent()).toBe('Not fetched');
  await filter.selectOption('pending');
  await expect.poll(() => again.getByTestId('target-row').evaluateAll((els) => els.map((e) => e.getAttribute('data-idx')))).toEqual(['2', '3']);
  expect(await again.getByTestId('filter-count').textContent()).toBe('2 of 4');
  await again.getByTestId('filter-clear').click();
  await expect.poll(() => again.getByTestId('target-row').count()).toBe(4);
  // The combined Markdown export says of them what the dialog counts, "2 not fetched", none failed:
  // the one the crash stopped in flight "stopped mid-way" as its row says "stopped".
  // The stopped one was "(failed)" in its contents and "**failed** (restart): restart" in its section.
  await again.getByTestId('export-job').click();
  await again.getByTestId('export-format').selectOption('combined');
  await again.getByTestId('export-include-failed').check();
  await again.getByTestId('export-start').click();
  await expect.poll(() => again.getByTestId('export-status').getAttribute('data-state')).toBe('done');
  expect(await again.getByTestId('export-status').textContent()).toMatch(/Exported 4 targets \(2 not fetched\) to .*: 1 file of 2 results and 2 sections saying why a target has none\.$/);
  const exported = readFileSync(path.join(second.exportDir, readdirSync(second.exportDir)[0] ?? ''), 'utf8');
  expect(exported.match(/^- \[.*\]\(#target-\d\)( \(.*\))?$/gm)?.map((l) => /\((failed|not fetched|stopped mid-way)\)$/.exec(l)?.[1] ?? 'ok')).toEqual(['ok', 'ok', 'stopped mid-way', 'not fetched']);
  expect(exported).toContain(`> **stopped mid-way** (restart): Sift stopped while this target was being fetched; run the rest again to fetch it.`);
  expect(exported).not.toMatch(/\*\*failed\*\*/);
  await again.getByTestId('export-close').click();
  expect(await again.getByTestId('reason-summary').count()).toBe(0);
  expect(await again.getByTestId('run-failed').count()).toBe(0);
  await again.screenshot({ path: screenshotPath('ui-crashed-counts') });

  const oldId = await again.getByTestId('job-view').getAttribute('data-job-id');
  await again.getByTestId('run-rest').dblclick();
  await expect.poll(() => again.getByTestId('job-view').getAttribute('data-job-id')).not.toBe(oldId);
  const newId = await again.getByTestId('job-view').getAttribute('data-job-id');
  await expect.poll(() => again.getByTestId('job-item').count()).toBe(2);
  expect(second.services.store.listJobs().map((j) => j.id)).toEqual([newId, oldId]);
  expect(second.services.store.targetRows(newId ?? '').map((r) => r.url)).toEqual(urls.slice(2));
  expect(await again.getByTestId('job-item').first().getAttribute('aria-current')).toBe('page');
  second.services.runner.cancel(newId ?? '');
  expect(pageErrors(again)).toEqual([]);
});

test('settings.json damaged while the app was closed: the window says the defaults run and where the file went', async () => {
  const dataDir = tempDir('sift-ui-settings-');
  writeFileSync(path.join(dataDir, 'settings.json'), '{ "workers": 4, "userAgent": "Kept/1", }\n');
  const { page } = await apps.open({ dataDir });
  const notice = page.locator('[data-testid="notice"][data-code="settings_reset"]');
  await expect.poll(() => notice.textContent()).toMatch(/^Your saved settings were not used: settings\.json is not valid JSON \(line 1, column 40\)\. Sift runs with the default settings\./);
  expect(await notice.textContent()).toContain('settings.json.bad');
  await page.screenshot({ path: screenshotPath('ui-settings-damaged') });
});

test('Activity counts what a real job did in plain words, and after a restart says its counts start again', async () => {
  const dataDir = tempDir('sift-ui-activity-');
  const { app: first, page } = await apps.open({ dataDir });
  await page.getByTestId('nav-activity').click();
  await expect.poll(() => page.getByTestId('activity-empty').textContent()).toBe('Nothing fetched yet. Submit a list and its outcomes show up here.');
  // No URL has been timed: no average to show (it read "0 ms").
  expect(await page.getByTestId('metric-average').textContent()).toBe('—');
  await page.getByTestId('nav-new').click();
  // The last is ok with a warning (its grep matches no line): ok, and counted as warned too.
  await pasteList(page, `${site.url}/article/1\n${site.url}/article/2\n${site.url}/no-such-page\n${site.url}/prices.csv grep=nowhere\n`);
  await expect.poll(() => page.getByTestId('count-valid').textContent()).toBe('4');
  await page.getByTestId('submit').click();
  await expect.poll(() => page.getByTestId('job-header').getAttribute('data-status')).toBe('partial');
  const jobId = first.services.store.listJobs(1)[0]!.id;
  const bytes = first.services.store.targetRows(jobId).reduce((a, r) => a + (r.bytes ?? 0), 0);
  await page.getByTestId('nav-activity').click();
  const text = (id: string) => () => page.getByTestId(id).textContent();
  await expect.poll(text('metric-targets')).toBe('4');
  expect(await text('metric-jobs')()).toBe('1');
  expect(await text('metric-bytes')()).toBe(formatBytes(bytes));
  expect(await text('metric-warned')()).toBe('1');
  expect(await text('metric-average')()).toMatch(/^\d+(\.\d)? m?s$/);
  expect(await page.getByTestId('chart-reasons').locator('text.chart-label').allTextContents()).toEqual(['HTTP error']);
  expect(await page.getByTestId('chart-warnings').locator('text.chart-label').allTextContents()).toEqual(['no match']);
  const panel = (await page.getByTestId('activity-panel').textContent()) ?? '';
  expect(panel).not.toMatch(/sift_|_total|targets?\b/i);
  await page.screenshot({ path: screenshotPath('ui-activity-counted') });
  await page.close();
  await first.close();

  // The counters live in memory; the job list comes from the database: the panel says which.
  const { page: again } = await apps.open({ dataDir });
  await expect.poll(() => again.getByTestId('job-item').count()).toBe(1);
  await again.getByTestId('nav-activity').click();
  await expect.poll(() => again.getByTestId('activity-empty').textContent()).toMatch(/^Nothing fetched since Sift started\. The jobs in the list on the left ran before/);
  expect(await again.getByTestId('activity-panel').textContent()).toContain('the counts start at zero each time');
  await again.screenshot({ path: screenshotPath('ui-activity-restarted') });
});

test('a job the store stopped says why in the job list and in its header', async () => {
  // A database as the runner leaves it when SQLite answers a write with each of these codes:
  // 3 of 10 targets stored, the job failed with stoppedJobError's few words.
  const dataDir = tempDir('sift-ui-stopped-');
  const store = openStore(path.join(dataDir, 'sift.db'));
  const codes = { SQLITE_CORRUPT: 'database damaged', SQLITE_READONLY: 'database could not be written', SQLITE_FULL: 'disk full' } as const;
  const ids: Record<string, StoreStop> = {};
  let now = Date.now();
  for (const [code, stop] of Object.entries(codes)) {
    const id = (++now).toString(16).padStart(16, '0');
    const targets = Array.from({ length: 10 }, (_, i) => ({ url: `https://example.org/${code.toLowerCase()}/${i}` }));
    store.insertJob({ id, caller: 'app', callerClass: 'user', idemKey: `k-${id}`, targetsTotal: 10, nowMs: now, leaseExpires: now + 86_400_000, label: 'reading-list.txt' }, targets);
    store.transition(id, 'queued', 'running', '', now);
    for (let idx = 0; idx < 3; idx++) {
      store.startTarget(id, idx, now);
      const content = `# Page ${idx}\n\nKept before the store stopped.`;
      store.finishTarget(id, idx, { status: 'done', result: { content, meta: { title: `Page ${idx}` } }, error: '', hint: '', bytes: content.length, title: `Page ${idx}`, errorStatus: 0, reason: '' }, now, now + 86_400_000);
    }
    const error = stoppedJobError(Object.assign(new Error('SQLite said no'), { code }));
    expect(error).toBe(stop);
    expect(store.transition(id, 'running', 'failed', error, now)).toBeDefined();
    ids[id] = stop;
  }
  store.close();

  const { page } = await apps.open({ dataDir });
  await expect.poll(() => page.getByTestId('job-item').count()).toBe(3);
  const words = { 'disk full': 'disk full', 'database damaged': 'database damaged', 'database could not be written': 'database not writable' };
  for (const [id, stop] of Object.entries(ids)) {
    const badge = page.locator(`[data-testid="job-item"][data-job-id="${id}"] [data-testid="status-badge"]`);
    expect(await badge.textContent()).toBe(`stopped: ${words[stop]}`);
    expect(await badge.getAttribute('title')).toMatch(/^Stopped because .+\. Its finished results are kept; .+, then run the rest again\.$/);
  }
  // Each badge is shown whole on one line, and neither it nor the job's time runs past the
  // 250 px sidebar (buttons do not wrap: "database damaged" pushed the time out of sight).
  const cut = await page.getByTestId('job-item').evaluateAll((items) =>
    items
      .filter((item) => {
        const edge = item.closest('.job-list')!.getBoundingClientRect().right;
        const badge = item.querySelector('.badge')!;
        const oneLine = badge.getBoundingClientRect().height < 2 * parseFloat(getComputedStyle(badge).fontSize);
        return !oneLine || [...item.querySelectorAll('.job-item-top > *')].some((e) => e.getBoundingClientRect().right > edge);
      })
      .map((item) => item.textContent),
  );
  expect(cut).toEqual([]);

  const full = Object.keys(ids).find((id) => ids[id] === 'disk full')!;
  await page.locator(`[data-testid="job-item"][data-job-id="${full}"]`).click();
  await expect.poll(() => page.getByTestId('store-stop-notice').textContent()).toBe(
    "This job stopped after 3 targets because the disk that holds Sift's database was full. Their results are kept. Free some space on that disk, then run the rest again to fetch the other 7.",
  );
  expect(await page.getByTestId('job-header').getByTestId('status-badge').textContent()).toBe('stopped: disk full');
  expect(await page.getByTestId('run-rest').isEnabled()).toBe(true);
  await page.screenshot({ path: screenshotPath('ui-store-stopped') });
  expect(pageErrors(page)).toEqual([]);
});

test('a long export shows its progress, then the files it wrote', async () => {
  // Instant fetch with 2 KB results: a job of thousands finishes at once, so the export is
  // the slow part, and long enough for several progress events.
  const body = 'Lorem ipsum dolor sit amet. '.repeat(70);
  const instant: FetchFunc = async (_signal, _caller, t) => ({ content: `# ${t.url}\n\n${body}`, meta: { title: `Page ${t.url.slice(-5)}` } });
  const { app, page } = await apps.open({ fetch: instant, settings: { targetsPerJob: 20_000 } });
  const urls = Array.from({ length: 4000 }, (_, i) => `https://example.org/p/${i}`);
  await pasteList(page, urls.join('\n'));
  await expect.poll(() => page.getByTestId('count-valid').textContent()).toBe('4,000');
  await page.getByTestId('submit').click();
  await expect.poll(jobStatus(page), { timeout: 60_000 }).toBe('done');

  await page.getByTestId('export-job').click();
  await page.getByTestId('export-format').selectOption('md');
  // Nothing failed and nothing was left: no choice about failed targets to make.
  expect(await page.getByTestId('export-include-failed').count()).toBe(0);
  // Record every progress value the dialog showed, from inside the page.
  await page.evaluate(() => {
    const seen: number[] = [];
    (window as unknown as { __progress: number[] }).__progress = seen;
    new MutationObserver(() => {
      const p = document.querySelector<HTMLProgressElement>('[data-testid="export-progress"]');
      if (p) seen.push(p.value);
    }).observe(document.body, { subtree: true, childList: true, attributes: true, characterData: true });
  });
  await page.getByTestId('export-start').click();
  await expect.poll(() => page.getByTestId('export-result').textContent(), { timeout: 60_000 }).toMatch(/: 4,000 result files, with manifest\.jsonl and failed\.txt\.$/);
  const seen = await page.evaluate(() => (window as unknown as { __progress: number[] }).__progress);
  expect(seen.some((v) => v > 0 && v < 4000)).toBe(true);
  expect(app.events.filter((e) => e === 'exportProgress').length).toBeGreaterThan(1);
  await page.screenshot({ path: screenshotPath('ui-export-done') });
  expect(pageErrors(page)).toEqual([]);
});

test('a list not submitted yet is back in the composer, with its options, after the window goes; once submitted it is not', async () => {
  const { page } = await apps.open({});
  await page.getByTestId('nav-new').click();
  await pasteList(page, `${site.url}/article/1\n${site.url}/article/2`);
  await expect.poll(() => page.getByTestId('count-valid').textContent()).toBe('2');
  await page.getByTestId('opt-mode').selectOption('text');
  // A line typed just before the window goes, not parsed yet, is kept too.
  await page.getByTestId('paste-box').focus();
  await page.keyboard.press('Control+End');
  await page.keyboard.type(`\n${site.url}/article/3`);
  await page.reload();
  await expect.poll(() => page.getByTestId('paste-box').inputValue()).toBe(`${site.url}/article/1\n${site.url}/article/2\n${site.url}/article/3`);
  await expect.poll(() => page.getByTestId('count-valid').textContent()).toBe('3');
  expect(await page.getByTestId('opt-mode').inputValue()).toBe('text');
  await expect.poll(() => page.getByTestId('notice').locator('strong').allTextContents()).toContain('The list you had not submitted is back in the composer (3 lines). Clear it there if you no longer need it.');
  await page.screenshot({ path: screenshotPath('ui-draft-restored') });

  await page.keyboard.press('Control+Enter');
  await expect.poll(jobStatus(page), { timeout: 60_000 }).toBe('done');
  await page.reload();
  await page.getByTestId('nav-new').click();
  expect(await page.getByTestId('paste-box').inputValue()).toBe('');
  expect((await page.getByTestId('notice').allTextContents()).filter((t) => t.includes('back in the composer'))).toEqual([]);

  // A kept draft that cannot be read (another version, damaged storage) is dropped, not shown.
  const KEY = 'sift.composer-draft.v1';
  const kept = () => page.evaluate((k) => localStorage.getItem(k), KEY);
  await page.evaluate((k) => localStorage.setItem(k, '{"source":{"kind":"paste","name":"pasted","text":42}}'), KEY);
  await page.reload();
  await expect.poll(kept).toBeNull();
  await page.getByTestId('nav-new').click();
  expect(await page.getByTestId('paste-box').inputValue()).toBe('');

  // A list too long to keep (past 1,000,000 characters) is not kept; the file or the paste's source still has it.
  await pasteList(page, `${site.url}/article/9`);
  await expect.poll(kept).toContain('/article/9');
  await pasteList(page, Array.from({ length: 25_000 }, (_, i) => `${site.url}/article/${i}?padding=${'x'.repeat(10)}`).join('\n'));
  await expect.poll(() => page.getByTestId('count-valid').textContent(), { timeout: 60_000 }).toBe('25,000');
  await expect.poll(kept).toBeNull();
});

test('a 50,000-line pasted list is read without freezing the window', async () => {
  const { page } = await apps.open();
  await page.getByTestId('paste-box').waitFor();
  await page.evaluate(() => {
    const w = window as unknown as { __longest: number; __posted: number[] };
    w.__longest = 0;
    w.__posted = [];
    new PerformanceObserver((l) => {
      for (const e of l.getEntries()) w.__longest = Math.max(w.__longest, e.duration);
    }).observe({ type: 'longtask' });
    // What reaches a worker: the proof that the list is parsed off the window's thread.
    const post = Worker.prototype.postMessage;
    Worker.prototype.postMessage = function (this: Worker, msg: unknown, ...rest: unknown[]) {
      const text = (msg as { text?: unknown } | null)?.text;
      if (typeof text === 'string') w.__posted.push(text.length);
      (post as (...a: unknown[]) => void).apply(this, [msg, ...rest]);
    } as typeof post;
  });
  const lines = Array.from({ length: 50_000 }, (_, i) => (i % 1000 === 999 ? 'not a url' : `https://example.org/a/${i} mode=text`));
  const text = lines.join('\n');
  // The unavoidable part, measured on this machine now: a textarea on the page taking the
  // same 2 MB and laying it out.
  const baseline = await page.evaluate((t) => {
    const area = document.createElement('textarea');
    area.style.cssText = 'width: 600px; height: 300px';
    document.body.append(area);
    const t0 = performance.now();
    area.value = t;
    void area.scrollHeight;
    const ms = performance.now() - t0;
    area.remove();
    return ms;
  }, text);
  await pasteList(page, text);
  await expect.poll(() => page.getByTestId('count-valid').textContent(), { timeout: 60_000 }).toBe('49,950');
  expect(await page.getByTestId('count-invalid').textContent()).toBe('50');
  const { longest, posted } = await page.evaluate(() => {
    const w = window as unknown as { __longest: number; __posted: number[] };
    return { longest: w.__longest, posted: w.__posted };
  });
  // The whole list went to the parse worker (an event, not a clock): the window never parsed it.
  expect(posted).toContain(text.length);
  // And the window was not frozen: its longest task stays within a few times what the
  // textarea alone costs on this machine right now (167 ms quiet; a busy CI core is slower
  // for both). Parsing 50,000 lines here instead would add about a second on a quiet machine.
  expect(longest).toBeLessThan(Math.max(500, baseline * 4 + 300));
  await page.screenshot({ path: screenshotPath('ui-composer-50k') });
  expect(pageErrors(page)).toEqual([]);
});
