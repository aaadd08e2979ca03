/**
 * Which job ran an ended job's rest (the header's "The rest was run again as …"), asked each
 * time the job is opened: on a real store, the rest run by the real runner as the app's "Run
 * the rest again" and `sift batch --rest` submit it.
 */
import { expect, test } from 'vitest';
import { restRunFinder, type Runner } from '../../src/main/batch';
import type { Store } from '../../src/main/store';
import { isUnfinished, targetOfRow, type Job } from '../../src/shared/types';
import { bigFinishedJob } from '../helpers/big-job';
import { withLoopbackRig } from '../helpers/runner';

const DESKTOP = { name: 'desktop' };
const CLI = { name: 'cli' };

/** The store, with how many times a job's rows were read through the filter the rest is read with. */
function watched(store: Store): { store: Store; reads: () => number } {
  let reads = 0;
  const proxy = new Proxy(store, {
    get: (s, key) =>
      key === 'targetRowsMatching'
        ? (...args: Parameters<Store['targetRowsMatching']>) => {
            reads++;
            return s.targetRowsMatching(...args);
          }
        : (Reflect.get(s, key) as unknown),
  });
  return { store: proxy, reads: () => reads };
}

/** A job of `n` targets cancelled with `left` not fetched, the first of them still in flight (running), as a cancel leaves it. */
function cancelledJob(store: Store, n: number, left: number): Job {
  const { id } = bigFinishedJob(store, n, { id: `cancelled${n}`, unfinished: left });
  return store.transition(id, 'running', 'cancelled', '', Date.now())!;
}

/** The in-flight target of a cancelled job stored as cut short, as the runner stores it once it ends. */
function cutShort(store: Store, job: Job): Job {
  const idx = store.targetRows(job.id).find((r) => r.status === 'running')!.idx;
  store.finishTarget(job.id, idx, { status: 'failed', error: 'cancelled', hint: 'Run the rest again to fetch it.', bytes: 0, title: '', errorStatus: 499, reason: 'cancelled' }, job.updatedAt + 1, Date.now() + 3600_000);
  return store.getJob(job.id)!;
}

/** "Run the rest again" as main submits it: the unfinished targets, a fresh job of `caller`. */
function runRest(runner: Runner, store: Store, job: Job, caller: { name: string }): string {
  const rest = store.targetRows(job.id).filter(isUnfinished).map((r) => targetOfRow(r));
  const { id } = runner.submit(caller, caller.name, rest, { fresh: true });
  // Nothing of it needs fetching here: the job is what is looked for.
  runner.cancel(id);
  return id;
}

test('an ended job whose rest no job has run is answered without reading its rows', async () => {
  await withLoopbackRig('sift-rest-none-', async (runner, store) => {
    // Kept jobs around it, none the run of its rest: one as big made before it, one of another size after it.
    const before = runner.submit(DESKTOP, 'desktop', [1, 2, 3].map((i) => ({ url: `https://example.test/before/${i}` })));
    runner.cancel(before.id);
    const job = cutShort(store, cancelledJob(store, 200, 3));
    const other = runner.submit(CLI, 'cli', [1, 2, 3, 4].map((i) => ({ url: `https://example.test/other/${i}` })));
    runner.cancel(other.id);
    const w = watched(store);
    const restRunOf = restRunFinder(w.store, [DESKTOP, CLI]);
    // Each open of a cancelled job of 100,000 targets read and keyed its rest: 1.2-2.4 s of main.
    expect(restRunOf(job, Date.now())).toBeUndefined();
    expect(w.reads()).toBe(0);
  });
});

test("the app's and the CLI's run of the rest are found, the rest read once for each state of the job", async () => {
  await withLoopbackRig('sift-rest-run-', async (runner, store) => {
    const cancelled = cancelledJob(store, 200, 3);
    const w = watched(store);
    const restRunOf = restRunFinder(w.store, [DESKTOP, CLI]);
    // Run again while the target in flight at the cancel is not yet stored: the rest read then
    // lacks it, so the job of the three is not its run.
    const early = runRest(runner, store, cancelled, DESKTOP);
    expect(restRunOf(cancelled, Date.now())).toBeUndefined();
    expect(w.reads()).toBe(1);
    expect(store.deleteJob(early)).toBe(true);

    // Stored, the job changed: its rest is read again, and its run is found, then known.
    const job = cutShort(store, cancelled);
    const app = runRest(runner, store, job, DESKTOP);
    expect(restRunOf(job, Date.now())).toBe(app);
    expect(restRunOf(job, Date.now())).toBe(app);
    expect(w.reads()).toBe(2);

    // Deleted, the rest is the job's to run again; `sift batch --rest` ran it as the CLI.
    expect(store.deleteJob(app)).toBe(true);
    expect(restRunOf(job, Date.now())).toBeUndefined();
    const cli = runRest(runner, store, job, CLI);
    expect(restRunOf(job, Date.now())).toBe(cli);
    expect(w.reads()).toBe(2);
  });
});
