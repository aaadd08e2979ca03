/**
 * The running job's "Remaining" while one URL hangs: the app's real services (engine, batch
 * runner, fetcher) fetch a list from a loopback site that holds one answer until the test lets
 * it go. The estimate reads the job as the app receives it and the clock it is given, so "a
 * minute later" is a number, not a wait.
 */
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { ServerResponse } from 'node:http';
import { startSite, type Site } from '../helpers/sites';
import { startUiApp, type UiApp } from '../helpers/ui-app';
import { isTerminal, type Job } from '../../src/shared/types';
import { estimateRemaining } from '../../src/shared/remaining';
import { formatRemaining } from '../../src/renderer/src/lib/format';

let site: Site;
let app: UiApp;
/** The held answer, once its request came in. */
let held: ServerResponse | undefined;
let onHeld: () => void = () => {};

beforeAll(async () => {
  site = await startSite({
    '/held': (_req, res) => {
      held = res;
      onHeld();
    },
  });
  app = await startUiApp();
}, 60_000);
afterAll(async () => {
  held?.end();
  await app?.close();
  await site?.close();
});

function jobEnded(id: string): Promise<Job> {
  return new Promise((resolve) => {
    const off = app.services.runner.on('job', (j) => {
      if (j.id === id && isTerminal(j.status)) {
        off();
        resolve(j);
      }
    });
  });
}

test('a URL in flight for a minute is said, and the estimate stops promising a few seconds', async () => {
  const heldIn = new Promise<void>((resolve) => (onHeld = resolve));
  const urls = [...Array.from({ length: 9 }, (_, i) => `${site.base}/article/${i + 1}`), `${site.base}/held`, `${site.base}/article/20`];
  const { id } = app.services.runner.submit({ name: 'desktop' }, 'desktop', urls.map((url) => ({ url })));
  const ended = jobEnded(id);
  await heldIn;
  const job = app.services.runner.status(id)!.job;
  // Serial drain: the held URL starts only once the 9 before it are written.
  expect(job.targetsDone).toBe(9);

  // Just started: 2 targets left at the pace so far, a number.
  expect(formatRemaining(estimateRemaining(job, job.updatedAt))).toMatch(/^(a few seconds|about \d+s)$/);
  // A minute on the held URL: the old estimate (the pace of all, this minute spread over 9
  // targets) said "about 13s" and went on shrinking; now the minute is said, and what is
  // left after it (the one target, at the 9's pace) is a floor.
  const late = estimateRemaining(job, job.updatedAt + 60_000);
  expect(late?.slowMs).toBe(60_000);
  expect(formatRemaining(late)).toMatch(/^(unknown|over \d+s): one URL has taken 1m 00s so far$/);

  held!.writeHead(200, { 'content-type': 'text/plain' }).end('at last');
  const done = await ended;
  expect(done.status).toBe('done');
  // A job that has ended has nothing left to estimate.
  expect(estimateRemaining(done, done.updatedAt + 60_000)).toBeNull();
});
