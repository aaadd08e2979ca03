/**
 * `npm run bench -- ui-big-job`: a finished job of 100,000 targets with 1 KB results (the
 * most one list gives the app), opened in Chromium through the bridge. Prints how long the
 * click takes to draw the table's first rows and to have every row read, and the longest
 * main-thread task meanwhile, against a baseline measured in the same run: the job's rows in
 * one answer, as opening a job read them before (its time to arrive and be decoded alone,
 * before any drawing).
 */
import path from 'node:path';
import type { Page } from 'playwright-core';
import { openStore } from '../src/main/store';
import { MAX_SUBMIT_TARGETS, type SiftApi } from '../src/shared/ipc/contract';
import { ensureBuilt } from '../test/helpers/build';
import { bigFinishedJob } from '../test/helpers/big-job';
import { launchChromium, openBridgedPage } from '../test/helpers/chromium';
import { startUiApp, tempDir } from '../test/helpers/ui-app';
import { PROBE, readProbe, resetProbe } from '../test/helpers/longtask';

const RESULT_BYTES = 1024;

const longest = async (page: Page): Promise<number> => (await readProbe(page)).longtask;

export default async function bench(): Promise<void> {
  ensureBuilt();
  const dataDir = tempDir('sift-bench-big-');
  const store = openStore(path.join(dataDir, 'sift.db'));
  const { id } = bigFinishedJob(store, MAX_SUBMIT_TARGETS, { resultBytes: RESULT_BYTES });
  store.close();
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
        new Promise<{ firstRows: number; firstTask: number; allRows: number }>((resolve) => {
          const w = window as unknown as { __probe: { longtask: number } };
          const start = performance.now();
          let first: { firstRows: number; firstTask: number } | undefined;
          const seen = new MutationObserver(() => {
            if (!first && document.querySelector('[data-testid="target-row"][data-idx="0"]')) first = { firstRows: performance.now() - start, firstTask: w.__probe.longtask };
            if (first && document.querySelector('[data-testid="target-grid"][data-rows-read="all"]')) {
              seen.disconnect();
              resolve({ ...first, allRows: performance.now() - start });
            }
          });
          seen.observe(document.body, { subtree: true, childList: true, attributes: true, attributeFilter: ['data-rows-read'] });
          document.querySelector<HTMLElement>('[data-testid="job-item"]')!.click();
        }),
    );
    const { firstRows, firstTask, allRows } = opened;
    const allTask = await longest(page);

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
        '',
      ].join('\n'),
    );
  } finally {
    await browser.close();
    await app.close();
  }
}
