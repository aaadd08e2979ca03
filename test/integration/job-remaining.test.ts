/**
 * The running job's "Remaining" while one URL hangs: the app's real services (engine, batch
 * runner, fetcher) fetch a list from a loopback site that holds one answer until the test lets
 * it go. The estimate reads the job as the app receives it and the clock it is given, so "a
 * minute later" is a number, not a wait.
 */
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { startSite, type Site } from '../helpers/sites';
import { startUiApp, type UiApp } from '../helpers/ui-app';
import type { TargetRow } from '../../src/shared/types';
import { finished } from '../helpers/runner';
import { estimateRemaining, fetchingSince } from '../../src/shared/remaining';
import { formatRemaining } from '../../src/renderer/src/lib/format';

let site: Site;
let app: UiApp;
/** The held answer, once its request came in. */
let held: ServerResponse | undefined;
let onHeld: () => void = () => {};
/** The answers held by the worker-slot test, by path, once their requests came in. */
const slotHeld = new Map<string, ServerResponse>();
let onSlotHeld: (path: string) => void = () => {};

function holdForSlot(req: IncomingMessage, res: ServerResponse): void {
  slotHeld.set(req.url!, res);
  onSlotHeld(req.url!);
}

beforeAll(async () => {
  site = await startSite({
    '/held': (_req, res) => {
      held = res;
      onHeld();
    },
    '/slot-held/one': holdForSlot,
    '/slot-held/two': holdForSlot,
  });
  // One worker slot: a second job's URL waits for it, as it does when the app runs more jobs
  // than workers (4) or a CLI batch shares them.
  app = await startUiApp({ settings: { workers: 1 } });
}, 60_000);
afterAll(async () => {
  held?.end();
  for (const res of slotHeld.values()) res.end();
  await app?.close();
  await site?.close();
});

/** A job's target row as the app shows it. */
function heldRow(id: string, idx: number): TargetRow | undefined {
  return app.services.runner.status(id)?.targets.find((t) => t.idx === idx);
}

function slotRequest(path: string): Promise<void> {
  return new Promise((resolve) => {
    if (slotHeld.has(path)) return resolve();
    onSlotHeld = (p) => p === path && resolve();
  });
}

test('a URL in flight for a minute is said, and the estimate stops promising a few seconds', async () => {
  const heldIn = new Promise<void>((resolve) => (onHeld = resolve));
  const urls = [...Array.from({ length: 9 }, (_, i) => `${site.base}/article/${i + 1}`), `${site.base}/held`, `${site.base}/article/20`];
  const { id } = app.services.runner.submit({ name: 'desktop' }, 'desktop', urls.map((url) => ({ url })));
  const ended = finished(app.services.runner, id);
  await heldIn;
  const job = app.services.runner.status(id)!.job;
  // Serial drain: the held URL starts only once the 9 before it are written.
  expect(job.targetsDone).toBe(9);
  const started = heldRow(id, 9)!.startedAt!;

  // Just started: 2 targets left at the pace so far, a number.
  expect(formatRemaining(estimateRemaining(job, started, fetchingSince(heldRow(id, 9))))).toMatch(/^(a few seconds|about \d+s)$/);
  // A minute on the held URL: the old estimate (the pace of all, this minute spread over 9
  // targets) said "about 13s" and went on shrinking; now the minute is said, and what is
  // left after it (the one target, at the 9's pace) is a floor.
  const late = estimateRemaining(job, started + 60_000, fetchingSince(heldRow(id, 9)));
  expect(late?.slowMs).toBe(60_000);
  expect(formatRemaining(late)).toMatch(/^(unknown|over \d+s): one URL has taken 1m 00s so far$/);

  held!.writeHead(200, { 'content-type': 'text/plain' }).end('at last');
  const done = await ended;
  expect(done.status).toBe('done');
  // A job that has ended has nothing left to estimate.
  expect(estimateRemaining(done, done.updatedAt + 60_000, null)).toBeNull();
});

test('a URL waiting for a worker slot has not started: its wait is not said as its own time', async () => {
  // Job one's first URL holds the only slot; job two, submitted meanwhile, waits for it.
  const one = app.services.runner.submit({ name: 'desktop' }, 'desktop', [{ url: `${site.base}/slot-held/one` }, { url: `${site.base}/article/31` }, { url: `${site.base}/article/32` }]);
  await slotRequest('/slot-held/one');
  const two = app.services.runner.submit({ name: 'cli' }, 'cli', [{ url: `${site.base}/slot-held/two` }]);
  const endedOne = finished(app.services.runner, one.id);
  const endedTwo = finished(app.services.runner, two.id);
  // Job one's first URL written, the slot goes to job two (first in line), and job one's
  // second URL waits for it with 1 of 3 done.
  slotHeld.get('/slot-held/one')!.writeHead(200, { 'content-type': 'text/plain' }).end('first');
  await slotRequest('/slot-held/two');
  const waiting = app.services.runner.status(one.id)!.job;
  expect(waiting.targetsDone).toBe(1);
  expect(heldRow(one.id, 1)?.status).toBe('pending');

  // A minute on, job one's URL has still not started: the old estimate (now − the job's last
  // write) said "one URL has taken 1m 00s so far" of it. What is left is the pace's guess:
  // the 2 targets at the first one's time each.
  const late = estimateRemaining(waiting, waiting.updatedAt + 60_000, fetchingSince(heldRow(one.id, 1)));
  expect(late).toEqual({ ms: 2 * (waiting.updatedAt - waiting.createdAt) });
  expect(formatRemaining(late)).not.toContain('so far');
  // Job two's URL, which holds the slot, has really been fetching: its minute is said.
  const inFlight = heldRow(two.id, 0)!;
  const twoJob = app.services.runner.status(two.id)!.job;
  expect(formatRemaining(estimateRemaining(twoJob, inFlight.startedAt! + 60_000, fetchingSince(inFlight)))).toBe('unknown: one URL has taken 1m 00s so far');

  slotHeld.get('/slot-held/two')!.writeHead(200, { 'content-type': 'text/plain' }).end('second');
  expect((await endedTwo).status).toBe('done');
  expect((await endedOne).status).toBe('done');
});
