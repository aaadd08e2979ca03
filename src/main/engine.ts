/**
 * The Electron-free core, wired once: the store (owned by this process), the fetch pipeline,
 * the metrics and the batch runner over them, and the control channel for `sift cancel`.
 * The app's services and the CLI's batch commands both run on this.
 */
import { openStore, type Store } from './store';
import { Runner, type FetchFunc, type Logger } from './batch';
import { createFetcher, type Fetcher, type RendererFactory } from './fetch';
import { BatchMetrics } from './metrics';
import { createBatchRunner } from './batchrun';
import { watchControl } from './control';
import { fetchSettingsOf, runnerConfigOf } from './settings';
import type { ExportSource } from './export';
import type { Settings } from '../shared/settings';
import type { Job } from '../shared/types';

/**
 * Opens the database as its owner. Owning it means the previous owner is gone, so whatever
 * it left queued or running failed with reason "restart" (rule 8: nothing is resumed).
 */
export function openOwnedStore(dbPath: string, log: Logger, opts: { nativeBinding?: string } = {}): Store {
  const store = openStore(dbPath, opts);
  const n = store.markInFlightFailed('restart', Date.now());
  if (n) log.info({ jobs: n }, 'marked jobs interrupted by a restart as failed');
  return store;
}

export interface Engine {
  store: Store;
  fetcher: Fetcher;
  metrics: BatchMetrics;
  runner: Runner;
  /** Applies changed settings to the fetch pipeline and the runner. */
  configure(settings: Settings): void;
  /** Stops draining (in-flight targets finish and are stored), then closes everything. */
  close(): Promise<void>;
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
  const store = openOwnedStore(o.dbPath, o.log, { nativeBinding: o.nativeBinding });
  let deadlineMs = o.settings.deadlineSeconds * 1000;
  const fetcher = createFetcher(fetchSettingsOf(o.settings), { log: o.log, renderer: o.renderer });
  const metrics = new BatchMetrics();
  const runner = o.fetch
    ? new Runner(store, o.fetch, { ...runnerConfigOf(o.settings), hooks: {} }, o.log)
    : createBatchRunner(store, fetcher, runnerConfigOf(o.settings), metrics, o.log, () => deadlineMs);
  // `sift cancel ID` from another terminal reaches the owner through request files.
  const stopControl = watchControl(store.path, (id) => runner.cancel(id), o.log);
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
    async close() {
      stopControl();
      await runner.close();
      await fetcher.close();
      store.close();
    },
  };
}

/** A stored job as the exporters read it: one target at a time, in idx order. */
export function exportSourceOf(store: Store, job: Job): ExportSource {
  return { job, count: () => job.targetsTotal, targets: () => store.iterateTargets(job.id) };
}
