/**
 * `npm run bench -- ui-big-job`: a finished job of 100,000 targets with 1 KB results (the
 * most one list gives the app), opened in Chromium through the bridge. Prints how long the
 * click takes to draw the table's first rows and to have every row read, and the longest
 * main-thread task meanwhile, against a baseline measured in the same run: the job's rows in
 * one answer, as opening a job read them before (its time to arrive and be decoded alone,
 * before any drawing). Then when the reason chips showed, against every row read (they waited
 * for the last page before); and in Node, on the same file, a later page of rows and the
 * counts of the rows after the first page, against the same queries on the table itself
 * (each row read beside its stored result, as they were read before migrations 12 and 13; the
 * rows as better-sqlite3's objects, without the copy into TargetRow that followed: a baseline
 * lower than it was, if anything). Last, a reason chip clicked as the first rows show: when
 * its last match (the job's last row) is listed, against every row read (when it was listed
 * before the filter asked the store for its matches). And in Node, on a job of as many targets
 * cancelled after its first 1,000: which job ran its rest, asked as each open of the job asks
 * it, before any job has and after one has, against its rest read and keyed at each open (before).
 */
import Database from 'better-sqlite3';
import { rmSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { openStore } from '../src/main/store';
import { restRunFinder } from '../src/main/batch';
import { idemKey } from '../src/main/batch/canonical';
import { isUnfinished, targetOfRow, type Job } from '../src/shared/types';
import { ROW_COLUMNS } from '../src/main/store/targets';
import { FIRST_ROWS, MAX_SUBMIT_TARGETS, ROWS_PER_PAGE, type SiftApi } from '../src/shared/ipc/contract';
import { ensureBuilt } from '../test/helpers/build';
import { bigFinishedJob } from '../test/helpers/big-job';
import { launchChromium, openBridgedPage } from '../test/helpers/chromium';
import { startUiApp, tempDir } from '../test/helpers/ui-app';
import { PROBE, readProbe, resetProbe } from '../test/helpers/longtask';

const RESULT_BYTES = 1024;

const longest = async (page: Page): Promise<number> => (await readProbe(page)).longtask;

const median = (xs: number[]): number => xs.sort((a, b) => a - b)[xs.length >> 1] ?? 0;

/**
 * Medians over alternated rounds, ms: every later page and the counts after the first page,
 * now and on the table (before). Each round opens the file twice in turn, as the store holds
 * it locked while open.
 */
function sqlFigures(file: string, id: string): { page: number; pageBefore: number; counts: number; countsBefore: number } {
  const froms = Array.from({ length: Math.ceil((MAX_SUBMIT_TARGETS - FIRST_ROWS) / ROWS_PER_PAGE) }, (_, i) => FIRST_ROWS + i * ROWS_PER_PAGE);
  const time = (f: () => unknown): number => {
    const t = performance.now();
    f();
    return performance.now() - t;
  };
  const t = { page: [] as number[], pageBefore: [] as number[], counts: [] as number[], countsBefore: [] as number[] };
  for (let round = 0; round < 3; round++) {
    const raw = new Database(file, { readonly: true });
    const pageBefore = raw.prepare(`SELECT ${ROW_COLUMNS} FROM targets INDEXED BY sqlite_autoindex_targets_1 WHERE job_id = ? AND idx >= ? ORDER BY idx LIMIT ?`);
    const countsBefore = raw.prepare(`SELECT status, reason, warnings, count(*) FROM targets INDEXED BY sqlite_autoindex_targets_1 WHERE job_id = ? AND idx >= ? GROUP BY 1, 2, 3`);
    for (const from of froms) t.pageBefore.push(time(() => pageBefore.all(id, from, ROWS_PER_PAGE)));
    t.countsBefore.push(time(() => countsBefore.all(id, FIRST_ROWS)));
    raw.close();
    const store = openStore(file);
    for (const from of froms) t.page.push(time(() => store.targetRowsPage(id, from, ROWS_PER_PAGE)));
    t.counts.push(time(() => store.targetGroups(id, FIRST_ROWS)));
    store.close();
  }
  return { page: median(t.page), pageBefore: median(t.pageBefore), counts: median(t.counts), countsBefore: median(t.countsBefore) };
}

/**
 * Medians of 3, ms: which job ran the rest of a job cancelled after its first 1,000 targets, as
 * each open asks it (the finder of one app: a first open, then the later ones), before a job
 * has run it and after; and the rest read and keyed, as every open did before.
 */
function restFigures(): { none: number; first: number; later: number; before: number } {
  const dir = tempDir('sift-bench-rest-');
  const store = openStore(path.join(dir, 'sift.db'));
  const callers = [{ name: 'desktop' }, { name: 'cli' }];
  const time = (f: () => unknown): number => {
    const t = performance.now();
    f();
    return performance.now() - t;
  };
  try {
    const { id } = bigFinishedJob(store, MAX_SUBMIT_TARGETS, { id: 'cancelled', unfinished: MAX_SUBMIT_TARGETS - 1000 });
    store.transition(id, 'running', 'cancelled', '', Date.now());
    // Its target in flight at the cancel, stored cut short as the runner stores it.
    store.finishTarget(id, 1000, { status: 'failed', error: 'cancelled', hint: '', bytes: 0, title: '', errorStatus: 499, reason: 'cancelled' }, Date.now(), Date.now() + 3600_000);
    const job: Job = store.getJob(id)!;
    const before = (): unknown => {
      const rest = store.targetRowsMatching(id, { status: 'pending', reason: '', warning: '' }, 0, -1).map((r) => targetOfRow(r));
      return callers.map((c) => store.jobByIdem(c.name, idemKey(c, rest), Date.now()));
    };
    const t = { none: [] as number[], first: [] as number[], later: [] as number[], before: [] as number[] };
    for (let round = 0; round < 3; round++) t.none.push(time(() => restRunFinder(store, callers)(job, Date.now())));
    const rest = store.targetRows(id).filter(isUnfinished).map((r) => targetOfRow(r));
    store.insertJob({ id: 'rest', caller: 'desktop', callerClass: 'desktop/batch', idemKey: idemKey(callers[0]!, rest), targetsTotal: rest.length, nowMs: job.createdAt + 1, leaseExpires: Date.now() + 3600_000 }, rest);
    for (let round = 0; round < 3; round++) {
      const finder = restRunFinder(store, callers);
      t.first.push(time(() => finder(job, Date.now())));
      t.later.push(time(() => finder(job, Date.now())));
      t.before.push(time(before));
    }
    if (restRunFinder(store, callers)(job, Date.now()) !== 'rest') throw new Error('the rest run was not found');
    return { none: median(t.none), first: median(t.first), later: median(t.later), before: median(t.before) };
  } finally {
    store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

export default async function bench(): Promise<void> {
  ensureBuilt();
  const dataDir = tempDir('sift-bench-big-');
  const file = path.join(dataDir, 'sift.db');
  const store = openStore(file);
  const { id } = bigFinishedJob(store, MAX_SUBMIT_TARGETS, { resultBytes: RESULT_BYTES });
  store.close();
  const sql = sqlFigures(file, id);
  const rest = restFigures();
  const app = await startUiApp({ dataDir });
  const browser = await launchChromium();
  try {
    const page = await openBridgedPage(browser, app.bridge.url, app.bridge.wsUrl, 'light', async (context) => {
      await context.addInitScript({ content: PROBE });
    });
    await page.getByTestId('job-item').first().waitFor();
    await resetProbe(page);
    // Timed in the page, on the DOM's own changes: the click, the first row drawn, the last page read.
    const opened = await page.evaluate(
      () =>
        new Promise<{ firstRows: number; firstTask: number; chips: number; allRows: number }>((resolve) => {
          const w = window as unknown as { __probe: { longtask: number } };
          const start = performance.now();
          let first: { firstRows: number; firstTask: number } | undefined;
          let chips: number | undefined;
          const seen = new MutationObserver(() => {
            if (!first && document.querySelector('[data-testid="target-row"][data-idx="0"]')) first = { firstRows: performance.now() - start, firstTask: w.__probe.longtask };
            if (chips === undefined && document.querySelector('[data-testid="reason-chip"]')) chips = performance.now() - start;
            if (first && chips !== undefined && document.querySelector('[data-testid="target-grid"][data-rows-read="all"]')) {
              seen.disconnect();
              resolve({ ...first, chips, allRows: performance.now() - start });
            }
          });
          seen.observe(document.body, { subtree: true, childList: true, attributes: true, attributeFilter: ['data-rows-read'] });
          document.querySelector<HTMLElement>('[data-testid="job-item"]')!.click();
        }),
    );
    const { firstRows, firstTask, chips, allRows } = opened;
    const allTask = await longest(page);

    // The job opened again, its "timed out" chip clicked as soon as it shows: until its last match is listed.
    const filtered = await page.evaluate(
      (last) =>
        new Promise<{ lastMatch: number; allRows: number }>((resolve) => {
          let clicked: number | undefined;
          let lastMatch: number | undefined;
          const seen = new MutationObserver(() => {
            const chip = document.querySelector<HTMLElement>('[data-testid="reason-chip"][data-reason="timeout"]');
            if (clicked === undefined && chip) {
              clicked = performance.now();
              chip.click();
            }
            if (clicked === undefined) return;
            // End in the filtered list selects its last row: listed once it is read.
            document.querySelector<HTMLElement>('[data-testid="target-grid"]')?.dispatchEvent(new KeyboardEvent('keydown', { key: 'End', bubbles: true }));
            if (lastMatch === undefined && document.querySelector(`[data-testid="target-row"][data-idx="${last}"]`)) lastMatch = performance.now() - clicked;
            if (lastMatch !== undefined && document.querySelector('[data-testid="target-grid"][data-rows-read="all"]')) {
              seen.disconnect();
              resolve({ lastMatch, allRows: performance.now() - clicked });
            }
          });
          seen.observe(document.body, { subtree: true, childList: true, attributes: true });
          document.querySelector<HTMLElement>('[data-testid="job-item"]')!.click();
        }),
      MAX_SUBMIT_TARGETS - 1,
    );

    // Baseline: every row in one answer, in the same page, as the app asked before.
    await resetProbe(page);
    const whole = await page.evaluate(async (jobId) => {
      const t = performance.now();
      const { targets } = await (window as unknown as { sift: SiftApi }).sift.jobDetail({ id: jobId });
      return { ms: performance.now() - t, rows: targets.length };
    }, id);
    const wholeTask = await longest(page);

    const ms = (n: number): string => `${n.toFixed(0)} ms`;
    const ratio = (a: number, b: number): string => (b > 0 ? `${(a / b).toFixed(2)}×` : 'n/a');
    process.stdout.write(
      [
        `job: ${MAX_SUBMIT_TARGETS.toLocaleString()} targets, ${RESULT_BYTES} B results, finished`,
        `click to the first rows drawn: ${ms(firstRows)} (longest task ${ms(firstTask)}); to every row read: ${ms(allRows)} (longest task ${ms(allTask)})`,
        `baseline, the ${whole.rows.toLocaleString()} rows in one answer (before): ${ms(whole.ms)} to arrive, longest task ${ms(wholeTask)}`,
        `  ratio (first rows / one answer): ${ratio(firstRows, whole.ms)}; longest task while the rest are read / one answer's: ${ratio(allTask, wholeTask)}`,
        `click to the reason chips drawn: ${ms(chips)}; against every row read (when they showed before): ${ratio(chips, allRows)}`,
        `"timed out" chip clicked with the first rows to its last match listed: ${ms(filtered.lastMatch)}; against every row read, ${ms(filtered.allRows)} (when it was listed before): ${ratio(filtered.lastMatch, filtered.allRows)}`,
        `SQL, median of ${ROWS_PER_PAGE.toLocaleString()}-row later pages: ${sql.page.toFixed(1)} ms against ${sql.pageBefore.toFixed(1)} ms on the table: ${ratio(sql.page, sql.pageBefore)}`,
        `SQL, the rows after the first page counted: ${sql.counts.toFixed(1)} ms against ${sql.countsBefore.toFixed(1)} ms on the table: ${ratio(sql.counts, sql.countsBefore)}`,
        `the job that ran the rest of a job cancelled after 1,000 targets, as an open asks it: none has, ${rest.none.toFixed(1)} ms; one has, ${rest.first.toFixed(0)} ms at the first open, ${rest.later.toFixed(1)} ms at a later one`,
        `  against its rest read and keyed at each open (before), ${rest.before.toFixed(0)} ms: ${ratio(rest.none, rest.before)} before a job ran it, ${ratio(rest.later, rest.before)} at a later open once one has`,
        '',
      ].join('\n'),
    );
  } finally {
    await browser.close();
    await app.close();
  }
}
