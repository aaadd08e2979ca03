/**
 * The Electron-free core, wired once: the store (owned by this process), the fetch pipeline,
 * the metrics and the batch runner over them, and the control channel for `sift cancel`.
 * The app's services and the CLI's batch commands both run on this.
 */
import { openOwnedStore, type Store } from './store';
import { Runner, type FetchFunc, type Logger } from './batch';
import { createFetcher, type Fetcher, type RendererFactory } from './fetch';
import { BatchMetrics } from './metrics';
import { createBatchRunner } from './batchrun';
import { openMarked, watchControl } from './control';
import { fetchSettingsOf, runnerConfigOf } from './settings';
import type { ExportSource } from './export';
import type { Settings } from '../shared/settings';
import { isTerminal, type Job, type TargetStatus } from '../shared/types';

export interface Engine {
  store: Store;
  fetcher: Fetcher;
  metrics: BatchMetrics;
  runner: Runner;
  /** Applies changed settings to the fetch pipeline and the runner. */
  configure(settings: Settings): void;
  /**
   * Stops draining (in-flight targets finish and are stored; with graceMs, those still
   * running after it are aborted and stored "interrupted"), then closes everything.
   */
  close(opts?: { graceMs?: number }): Promise<void>;
}

export interface EngineOptions {
  dbPath: string;
  settings: Settings;
  log: Logger;
  nativeBinding?: string;
  /** Replace the fetch pipeline under the runner (benchmarks with an instant fetch). */
  fetch?: FetchFunc;
  /** The browser that renders pages (the app passes Electron's). */
  renderer?: RendererFactory;
}

export function openEngine(o: EngineOptions): Engine {
  const { opened: store, unmark } = openMarked(o.dbPath, () => openOwnedStore(o.dbPath, o.log, { nativeBinding: o.nativeBinding }));
  try {
    return wire(o, store, unmark);
  } catch (err) {
    // Set up after the lock (the app's renderer makes its browser session here): a failure left
    // the store open and the mark up until the process exited, and the next command was told
    // "in use by another Sift" by a process that would never answer.
    unmark();
    store.close();
    throw err;
  }
}

/** The engine over a store this process owns and has marked (unmark removes the mark). */
function wire(o: EngineOptions, store: Store, unmark: () => void): Engine {
  let deadlineMs = o.settings.deadlineSeconds * 1000;
  const fetcher = createFetcher(fetchSettingsOf(o.settings), { log: o.log, renderer: o.renderer });
  const metrics = new BatchMetrics();
  const runner = o.fetch
    ? new Runner(store, o.fetch, { ...runnerConfigOf(o.settings), hooks: {} }, o.log)
    : createBatchRunner(store, fetcher, runnerConfigOf(o.settings), metrics, o.log, () => deadlineMs);
  // `sift cancel ID` from another terminal reaches the owner through request files, and so
  // do `sift jobs`, `status`, `search` and `export`, which read a snapshot the owner writes.
  // The ID may be only the start of one (sift cancel 3f2a): the job it alone names.
  const stopControl = watchControl(
    store.path,
    {
      cancel: (given) => {
        const named = store.jobsNamed(given, 2);
        return named.length === 1 && runner.cancel((named[0] as Job).id);
      },
      snapshot: (dest) => store.snapshot(dest),
    },
    o.log,
  );
  return {
    store,
    fetcher,
    metrics,
    runner,
    configure(s) {
      deadlineMs = s.deadlineSeconds * 1000;
      fetcher.updateSettings(fetchSettingsOf(s));
      runner.configure(runnerConfigOf(s));
    },
    async close(opts) {
      stopControl();
      unmark();
      await runner.close(opts);
      await fetcher.close();
      store.close();
    },
  };
}

/**
 * A job as an export reads it while the job runs (`sift batch --out`): each target as soon
 * as it and every target before it are finished, the rest (with what they became) when the
 * job ends. The files are written during the fetches instead of after the last one.
 */
export function liveExportSource(store: Store, runner: Runner, job: Job): ExportSource {
  return { job, count: () => job.targetsTotal, targets: () => finishedInOrder(store, runner, job.id, job.targetsTotal) };
}

async function* finishedInOrder(store: Store, runner: Runner, jobId: string, total: number): AsyncGenerator<TargetStatus> {
  // Set by every event of this job; cleared before each look at the store, so an event that
  // comes while the consumer writes a file is never missed.
  let changed = true;
  let wake: (() => void) | undefined;
  const poke = (): void => {
    changed = true;
    wake?.();
  };
  // Ended as the runner says: when the store failed (a full disk) the job's end may not be in
  // the store, and waiting for it there left `sift batch --out` to exit 0 with no export.
  let endedByRunner = false;
  const offTarget = runner.on('target', (id) => id === jobId && poke());
  const offJob = runner.on('job', (j) => {
    if (j.id !== jobId) return;
    if (isTerminal(j.status)) endedByRunner = true;
    poke();
  });
  try {
    let next = 0;
    while (next < total) {
      changed = false;
      // A cancelled job is terminal while its in-flight target is still being stored (rule
      // 6): the rest is read only once the runner has settled it, so the export says what the
      // store says.
      const ended = endedByRunner || isTerminal(store.getJob(jobId)?.status ?? 'failed');
      if (ended) await runner.settled(jobId);
      for (let t = store.targetResult(jobId, next); t && (ended || t.status === 'done' || t.status === 'failed'); t = store.targetResult(jobId, next)) {
        yield t;
        next++;
        if (next >= total) return;
      }
      if (ended) return;
      if (!changed) await new Promise<void>((resolve) => (wake = resolve));
      wake = undefined;
    }
  } finally {
    offTarget();
    offJob();
  }
}
