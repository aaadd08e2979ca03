import path from 'node:path';
import { openStore, type Store } from '../main/store';
import type { Runner } from '../main/batch';
import { createFetcher, type Fetcher } from '../main/fetch';
import { BatchMetrics } from '../main/metrics';
import { createLog, type Log } from '../main/log';
import { createBatchRunner } from '../main/batchrun';
import { watchControl } from '../main/control';
import { dataDir, defaultDbPath, defaultLogPath, settingsPath } from '../main/paths';
import { fetchSettingsOf, loadSettings, runnerConfigOf } from '../main/settings';
import type { Settings } from '../shared/settings';
import type { CliIO } from './io';

/** The CLI's caller (SPEC §7): its jobs' fetches run as cli/batch. */
export const CLI_CALLER = { name: 'cli' } as const;

export interface CliFlags {
  db?: string;
  log?: string;
  allowPrivate?: boolean;
}

/** The data folder of the --db in use: the app's own folder, or the database's. */
function dirFor(flags: CliFlags, io: CliIO): string {
  return flags.db ? path.dirname(path.resolve(io.cwd, flags.db)) : dataDir(io.env);
}

export function cliSettings(flags: CliFlags, io: CliIO): Settings {
  // The app's saved settings (size limits, user agent, allow list) apply to the CLI too.
  const { settings } = loadSettings(settingsPath(dataDir(io.env)));
  return flags.allowPrivate ? { ...settings, allowPrivate: true } : settings;
}

export function cliLog(flags: CliFlags, io: CliIO): Log {
  const files = [defaultLogPath(dirFor(flags, io))];
  if (flags.log) files.push(path.resolve(io.cwd, flags.log));
  return createLog(files);
}

/**
 * Opens the database (the app's by default) as its owner. Owning it means the previous
 * owner is gone, so whatever it left queued or running failed with reason "restart" (rule 8).
 */
export const cliDbPath = (flags: CliFlags, io: CliIO): string => (flags.db ? path.resolve(io.cwd, flags.db) : defaultDbPath(dataDir(io.env)));

export function openCliStore(flags: CliFlags, io: CliIO, log: Log): Store {
  const store = openStore(cliDbPath(flags, io));
  const n = store.markInFlightFailed('restart', Date.now());
  if (n) log.info({ caller: CLI_CALLER.name, jobs: n }, 'marked jobs interrupted by a restart as failed');
  return store;
}

export interface BatchContext {
  store: Store;
  fetcher: Fetcher;
  runner: Runner;
  metrics: BatchMetrics;
  log: Log;
  settings: Settings;
  close(): Promise<void>;
}

export function openBatchContext(flags: CliFlags, io: CliIO): BatchContext {
  const log = cliLog(flags, io);
  const settings = cliSettings(flags, io);
  const store = openCliStore(flags, io, log);
  const fetcher = createFetcher(fetchSettingsOf(settings), { log });
  const metrics = new BatchMetrics();
  const runner = createBatchRunner(store, fetcher, runnerConfigOf(settings), metrics, log, () => settings.deadlineSeconds * 1000);
  // `sift cancel ID` from another terminal reaches this process through request files.
  const stopControl = watchControl(store.path, (id) => runner.cancel(id), log);
  return {
    store,
    fetcher,
    runner,
    metrics,
    log,
    settings,
    async close() {
      stopControl();
      await runner.close();
      await fetcher.close();
      store.close();
    },
  };
}
