import { randomBytes } from 'node:crypto';
import { copyFileSync } from 'node:fs';
import { open, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { LISTED_JOBS, LIST_PIECE_BYTES, type AppInfo, type EventName, type EventPayload } from '../shared/ipc/contract';
import { SiftError } from '../shared/errors';
import { isTerminal, isUnfinished, targetOfRow, type RowOutcome, type Target, type TargetRow } from '../shared/types';
import type { Settings } from '../shared/settings';
import type { Handlers } from './ipc/dispatch';
import { APP_NAME, VERSION } from './version';
import type { Store } from './store';
import { ErrTooManyTargets, restRunFinder, type FetchFunc, type Runner } from './batch';
import type { BatchMetrics } from './metrics';
import { createLog, silentLog, type Log } from './log';
import { EventBatcher } from './events';
import { loadSettings, mergeSettings, saveSettings } from './settings';
import { defaultLogPath, settingsPath } from './paths';
import { exportJob, exportOptionsFromCli, exportSourceOf } from './export';
import { hitsFileName, writeHits } from './export/hits';
import { askJob, askScope, searchStore } from './search';
import { optionsProblem } from './check-options';
import { openEngine, type Engine } from './engine';
import { expandSitemapIndex } from './sitemap-index';
import { fetchListAt, isListType } from './list-at';
import type { RendererFactory } from './fetch';
import { LIST_EXTENSIONS } from '../shared/urllist/detect';
import { unreadableList } from '../shared/urllist/decode';
import { MAX_LIST_BYTES } from '../shared/urllist';
import { partForPane } from '../shared/shown';
import { hintOn } from '../shared/hints';
import { writeRefusedWhy } from './write-refused';
import { jobLabel, listLabel, rerunLabel } from '../shared/job-label';

/** The system dialogs (Electron's in the app; a stand-in over the bridge). */
export interface Dialogs {
  openFile(filters: { name: string; extensions: string[] }[]): Promise<string | null>;
  chooseFolder(): Promise<string | null>;
  saveFile(defaultPath: string): Promise<string | null>;
}

export type Emit = <E extends EventName>(event: E, payload: EventPayload<E>) => void;

export interface ServicesOptions {
  dbPath: string;
  host: AppInfo['host'];
  /** Where settings.json and sift.log live; the database's folder when not given. */
  dataDir?: string;
  platform?: string;
  /** better-sqlite3's native module built for Electron's ABI (see scripts/start.mjs). */
  nativeBinding?: string;
  dialogs?: Dialogs;
  emit?: Emit;
  /** Settings applied over the saved ones for this session (tests), not persisted. */
  settings?: Partial<Settings>;
  /** Replace the fetch pipeline under the runner (benchmarks of the UI with an instant fetch). */
  fetch?: FetchFunc;
  /** Log to these files instead of the data folder's sift.log ([] for none). */
  logFiles?: string[];
  /** Event coalescing interval (ms); 200 gives ≤ 10 messages a second per job. */
  eventIntervalMs?: number;
  /** The browser that renders pages: Electron's in the app; playwright-core's Chromium otherwise. */
  renderer?: RendererFactory;
}

export interface Services {
  handlers: Handlers;
  store: Store;
  runner: Runner;
  metrics: BatchMetrics;
  log: Log;
  logInternal(method: string, err: unknown): void;
  /** Stops the runner (see Engine.close: graceMs bounds the wait for in-flight targets), then everything. */
  close(opts?: { graceMs?: number }): Promise<void>;
}

/** The app's callers (SPEC §7): a job's fetches run as desktop/batch, a preview as desktop. */
const DESKTOP = { name: 'desktop' } as const;
/** The callers whose jobs may have run an app job's rest: its own button's, and `sift batch --rest`'s. */
const REST_CALLERS = [DESKTOP, { name: 'cli' }] as const;

/** A chosen list file main could not open or read, in the words a dropped one gets. */
function unreadable(name: string): SiftError {
  const { message, hint } = unreadableList(name);
  return new SiftError('unreadable', 404, message, hint);
}

/**
 * A progress callback that passes on at most one call every 100 ms, and always the last one
 * (done === total): an export or a sitemap reading sends the window ~10 events a second.
 */
function everyTenthOfASecond<A extends unknown[]>(send: (done: number, total: number, ...rest: A) => void): (done: number, total: number, ...rest: A) => void {
  let last = 0;
  return (done, total, ...rest) => {
    const now = Date.now();
    if (done === total || now - last >= 100) {
      last = now;
      send(done, total, ...rest);
    }
  };
}

/**
 * A settings.json Sift could not use is copied aside before anything can overwrite it (the
 * next Save writes a new one), and the user is told: the defaults replaced every setting.
 */
function keepDamagedSettings(file: string, problem: string, log: Log): { message: string; hint: string } {
  const message = `Your saved settings were not used: ${problem}. Sift runs with the default settings.`;
  const kept = `${file}.bad`;
  try {
    copyFileSync(file, kept);
    return { message, hint: `The file as it was is kept as ${kept}. Check Settings: saving there writes a new settings.json.` };
  } catch (err) {
    log.warn({ code: (err as NodeJS.ErrnoException).code }, 'damaged settings not copied aside');
    return { message, hint: `Check ${file}, then Settings: saving there writes a new settings.json.` };
  }
}

const notFound = (what: string): SiftError =>
  new SiftError('not_found', 404, `${what} was not found.`, 'It may have expired or been deleted; refresh the job list.');

/**
 * The main-process services behind every IPC channel. Plain Node: the Electron binding
 * and the test bridge both bind these same handlers.
 */
/**
 * The data folder's log: the first thing Sift writes there at start. A folder that takes no
 * writes (a read-only disk, another user's folder, a full disk) stopped the app with Node's
 * own words in its "could not start" box ("EROFS: read-only file system, open '…/sift.log'");
 * this says which folder, why, and what to do.
 */
function openDataLog(dataDir: string): Log {
  try {
    return createLog([defaultLogPath(dataDir)]);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException | undefined)?.code ?? '';
    const full = code === 'ENOSPC' || code === 'EDQUOT';
    throw new SiftError(
      'data_not_writable',
      full ? 507 : 403,
      `Sift cannot write to its data folder ${dataDir}: ${writeRefusedWhy(code) ?? `it refused a new file${code ? ` (${code})` : ''}`}.`,
      full
        ? 'Sift keeps its jobs, results and log there. Free some space on that disk, then start Sift again; nothing stored there is lost.'
        : 'Sift keeps its jobs, results and log there. Make the folder writable for you, then start Sift again; nothing stored there is lost.',
    );
  }
}

/**
 * What to do about a database the app cannot open, in the app's words: the store's hints are
 * the command line's ("pass --db with another path"), and the app has no --db. A damaged or
 * newer database, a full disk or a file it may not write left the "could not start" box
 * pointing at an option the person cannot give. (In use by a `sift` command: index.ts.)
 */
function forTheApp(err: unknown, dbPath: string): unknown {
  if (!(err instanceof SiftError)) return err;
  const file = path.basename(dbPath);
  const hints: Partial<Record<string, string>> = {
    db_damaged: `Quit Sift and move ${file} out of its folder (with ${file}-wal beside it, if there is one), then start Sift again: it starts a new, empty database. \`sqlite3 ${file} .recover\` can often save the rows the old one still holds.`,
    db_not_sift: `Quit Sift and move ${file} out of its folder, then start Sift again: it makes a new database there. Sift changed nothing in that file.`,
    db_too_new: 'Start the newer Sift that wrote it (or update this one to it): its jobs and results are all still there.',
    disk_full: 'Free some space on that disk, then start Sift again; what was stored before is kept.',
    db_not_writable: 'Sift writes to its database and to a journal file beside it: make the file and its folder writable for you, then start Sift again; nothing stored there is lost.',
  };
  const hint = hints[err.code];
  return hint ? new SiftError(err.code, err.status, err.message, hint) : err;
}

/**
 * Readings the composer asks for by the renderer's token (a sitemap index's sitemaps, the list
 * at an address), each with its stop switch: a second ask with a token under way is refused
 * as busy, and a reading stopped ends in `stopped` whatever the fetch under it threw.
 */
function stoppableReadings(): {
  read<T>(token: string, words: { busy: string; stopped: string; stoppedHint: string }, work: (signal: AbortSignal) => Promise<T>): Promise<T>;
  stop(token: string): { stopped: boolean };
  stopAll(): void;
} {
  const underWay = new Map<string, AbortController>();
  return {
    async read(token, words, work) {
      if (underWay.has(token)) throw new SiftError('busy', 409, words.busy, 'Wait for the reading to end, or stop it.');
      const stop = new AbortController();
      underWay.set(token, stop);
      try {
        return await work(stop.signal);
      } catch (err) {
        if (stop.signal.aborted) throw new SiftError('cancelled', 499, words.stopped, words.stoppedHint);
        throw err;
      } finally {
        underWay.delete(token);
      }
    },
    stop(token) {
      const stop = underWay.get(token);
      stop?.abort();
      return { stopped: stop !== undefined };
    },
    stopAll() {
      for (const stop of underWay.values()) stop.abort();
    },
  };
}

const WAS_PENDING: RowOutcome = { status: 'pending', error: '', reason: '' };
const WAS_RUNNING: RowOutcome = { status: 'running', error: '', reason: '' };

export function createServices(opts: ServicesOptions): Services {
  const dataDir = opts.dataDir ?? path.dirname(opts.dbPath);
  const log = opts.logFiles ? (opts.logFiles.length ? createLog(opts.logFiles) : silentLog()) : openDataLog(dataDir);
  const emit: Emit = opts.emit ?? (() => {});

  const settingsFile = settingsPath(dataDir);
  const loaded = loadSettings(settingsFile);
  if (loaded.problem) log.warn({ problem: loaded.problem }, 'settings reset to defaults');
  const settingsNote = loaded.problem ? keepDamagedSettings(settingsFile, loaded.problem, log) : undefined;
  let saved = loaded.settings;
  let settings = opts.settings ? mergeSettings(saved, opts.settings) : saved;

  let engine: Engine;
  try {
    engine = openEngine({ dbPath: opts.dbPath, nativeBinding: opts.nativeBinding, settings, log, fetch: opts.fetch, renderer: opts.renderer });
  } catch (err) {
    throw forTheApp(err, opts.dbPath);
  }
  const { store, fetcher, metrics, runner } = engine;
  const restRunOf = restRunFinder(store, REST_CALLERS);

  const batcher = new EventBatcher(emit, opts.eventIntervalMs ?? 200);
  const offJob = runner.on('job', (job) => {
    batcher.job(job);
    if (isTerminal(job.status)) batcher.flush();
  });
  // A target only moves pending → running → done|failed (rule 4), so each change says what it was.
  const offTarget = runner.on('target', (jobId, row) => batcher.target(jobId, row, row.status === 'running' ? WAS_PENDING : WAS_RUNNING));
  // A target waiting on a busy site travels as its row with `wait` set, so the job view says so.
  const offWaiting = runner.on('waiting', (jobId, row) => batcher.target(jobId, row, WAS_RUNNING));
  // A PDF being read travels as its row with `pagesRead` set: the runner sends one every 100 ms
  // at most, and the batcher keeps the last of them per tick (200 ms), so a 1,000-page PDF
  // costs the window ≤ 5 messages a second, and the store nothing.
  const offPages = runner.on('pages', (jobId, row) => batcher.target(jobId, row, WAS_RUNNING));
  const offRemoved = runner.on('removed', (id) => emit('jobRemoved', { id }));

  // Export destinations the user chose in a dialog, each for one export; exportJob accepts
  // only these tokens, so the renderer can never name a path of its own.
  const exportTargets = new Map<string, string>();
  // The list file last chosen in Open list…, which readListFile reads by its token, and no other.
  let chosenList: { token: string; path: string; name: string; size: number } | null = null;
  // Sitemap indexes, and lists at an address, being read for the composer, by the renderer's token.
  const sitemapReadings = stoppableReadings();
  const listReadings = stoppableReadings();
  // Each chosen destination's stop switch: cancelExport may come before exportJob's request
  // does (the two travel apart), so the switch exists from the moment either asks for it.
  const exportStops = new Map<string, AbortController>();
  const stopOf = (token: string): AbortController => {
    let stop = exportStops.get(token);
    if (!stop) exportStops.set(token, (stop = new AbortController()));
    return stop;
  };

  /**
   * Rows of a job as the runner has them now: the store holds no waits nor pages read, so a
   * view opened while a target waits on a busy site, or while its PDF is read, gets them here.
   */
  const withLiveState = (id: string, targets: TargetRow[]): TargetRow[] => {
    const running = (idx: number, add: Partial<TargetRow>): void => {
      const at = targets.findIndex((r) => r.idx === idx && r.status === 'running');
      if (at >= 0) targets[at] = { ...targets[at]!, ...add };
    };
    const waiting = runner.waitingTarget(id);
    if (waiting) running(waiting.idx, { wait: waiting.wait });
    const reading = runner.readingTarget(id);
    if (reading) running(reading.idx, { pagesRead: reading.pagesRead });
    return targets;
  };
  const handlers: Handlers = {
    appInfo: (): AppInfo => ({
      name: APP_NAME,
      version: VERSION,
      dbPath: opts.dbPath,
      platform: opts.platform ?? process.platform,
      host: opts.host,
      ...(settingsNote ? { settingsNote } : {}),
    }),

    submit: ({ targets, label }) => {
      try {
        // A file's name with what is asked after it (jobLabel): the runner keeps a label as given.
        return runner.submit(DESKTOP, 'desktop', targets as Target[], label ? { label: jobLabel(label, targets as Target[]) } : {});
      } catch (err) {
        // The runner's error is one sentinel, without numbers; splitting the list needs them.
        if (err !== ErrTooManyTargets) throw err;
        const n = (targets as Target[]).length.toLocaleString('en-US');
        const max = settings.targetsPerJob.toLocaleString('en-US');
        throw new SiftError('too_many_targets', 422, `The list has ${n} URLs, and one job holds at most ${max}.`, ErrTooManyTargets.hint);
      }
    },

    listJobs: () => {
      const jobs = store.listJobs(LISTED_JOBS);
      return { jobs, unlisted: jobs.length < LISTED_JOBS ? 0 : store.countJobs() - jobs.length };
    },

    jobDetail: ({ id, from, limit, filter }) => {
      const job = store.getJob(id);
      if (!job) throw notFound('This job');
      if (filter) return { job, targets: withLiveState(id, store.targetRowsMatching(id, filter, from ?? 0, limit ?? -1)) };
      const paged = limit !== undefined || from !== undefined;
      // Every change so far goes out before this answer, so none the page's `rest` counts comes after it.
      batcher.flush();
      const targets = withLiveState(id, paged ? store.targetRowsPage(id, from ?? 0, limit ?? -1) : store.targetRows(id));
      // The rows after this page, read before anything else can write: each row is then
      // counted once, by the renderer in the rows it holds or here.
      const rest = paged ? { rest: store.targetGroups(id, (from ?? 0) + targets.length) } : {};
      // Showing the job is its first page: a later one is the same view, and each touch is a write.
      if (from) return { job: store.getJob(id) ?? job, targets, ...rest };
      runner.touch(id);
      const restRun = restRunOf(job, Date.now());
      return { job: store.getJob(id) ?? job, targets, ...rest, ...(restRun ? { restRun } : {}) };
    },

    targetResult: ({ id, idx, line, needle, whole }) => {
      const t = store.targetResult(id, idx);
      if (!t) throw notFound(`Target ${idx + 1} of this job`);
      if (!t.result || whole) return t;
      const { content, part } = partForPane(t.result, t.options, line === undefined ? undefined : { line, needle });
      return { ...t, result: { ...t.result, content }, ...(part ? { part } : {}) };
    },

    cancelJob: ({ id }) => ({ cancelled: runner.cancel(id) }),

    deleteJob: ({ id }) => {
      const job = store.getJob(id);
      if (!job) return { deleted: false };
      if (!isTerminal(job.status)) {
        throw new SiftError('job_running', 409, 'This job is still running.', 'Cancel it first, then delete it.');
      }
      const deleted = store.deleteJob(id);
      if (deleted) emit('jobRemoved', { id });
      return { deleted };
    },

    runRest: ({ id, which, reason, options }) => {
      const job = store.getJob(id);
      if (!job) throw notFound('This job');
      if (!isTerminal(job.status)) {
        throw new SiftError('job_running', 409, 'This job is still running.', 'Wait for it to finish or cancel it first.');
      }
      // 'all': the whole list again, fetched anew (the same list submitted again is this job).
      const wanted = (r: TargetRow): boolean =>
        reason ? r.status === 'failed' && r.reason === reason : which === 'all' ? true : which === 'failed' ? r.status === 'failed' : isUnfinished(r);
      const rows = store.targetRows(id).filter(wanted);
      if (rows.length === 0) {
        throw new SiftError(
          'nothing_to_run',
          400,
          reason ? `No target of this job failed with the reason ${reason}.` : which === 'failed' ? 'No target of this job failed.' : 'Every target of this job has finished.',
          'There is nothing left to run.',
        );
      }
      // The user's changes for this run (recover on, …) over each target's own options.
      const targets: Target[] = rows.map((r) => targetOfRow(r, options));
      const label = rerunLabel(job.label || listLabel(targets), which, reason);
      const res = runner.submit(DESKTOP, 'desktop', targets, { fresh: true, label });
      return { ...res, targets: targets.length };
    },

    // The pipeline enforces the deadline itself; a preview has nothing else to abort it.
    preview: async ({ target }) => {
      const result = await fetcher.fetchTarget(new AbortController().signal, DESKTOP, target as Target);
      // Counted here, natively: the pane encoded a 40 MB preview again to print its size.
      return { ...result, bytes: Buffer.byteLength(result.content) };
    },

    checkOptions: async ({ options }) => {
      const problem = await optionsProblem(options, fetcher);
      if (!problem) return { ok: true };
      if (problem.error instanceof SiftError) return { ok: false, error: problem.error.toInfo(), fields: problem.fields };
      throw problem.error;
    },

    getSettings: () => settings,

    setSettings: ({ settings: change }) => {
      const next = mergeSettings(settings, change);
      saved = mergeSettings(saved, change);
      saveSettings(settingsFile, saved);
      settings = next;
      engine.configure(settings);
      return settings;
    },

    metrics: () => metrics.snapshot(),

    browserInfo: async () => {
      const info = await fetcher.browser();
      return info.ok ? info : { ...info, why: hintOn('app', info.why), hint: hintOn('app', info.hint) };
    },

    openListFile: async () => {
      const file = await opts.dialogs?.openFile([
        // Every extension the list reader knows a format by (a sitemap's .xml, an .opml …).
        { name: 'Lists of URLs', extensions: [...LIST_EXTENSIONS] },
        { name: 'All files', extensions: ['*'] },
      ]);
      if (!file) return null;
      const name = path.basename(file);
      // Gone since the dialog closed, or a folder (or a pipe, whose read would never end).
      const st = await stat(file).catch(() => null);
      if (!st?.isFile()) throw unreadable(name);
      chosenList = { token: randomBytes(16).toString('hex'), path: file, name, size: st.size };
      return { token: chosenList.token, name, bytes: st.size };
    },

    readListFile: async ({ token, offset }) => {
      const chosen = chosenList;
      if (!chosen || chosen.token !== token) {
        throw new SiftError('not_chosen', 400, 'This file is no longer the one chosen to open.', 'Use Open list… to choose it again.');
      }
      // No more than its size when chosen, nor than a list may be (the renderer refuses a bigger one by its size).
      const want = Math.max(0, Math.min(LIST_PIECE_BYTES, chosen.size - offset, MAX_LIST_BYTES - offset));
      if (want === 0) return { data: '', bytes: 0 };
      const piece = Buffer.alloc(want);
      let read: number;
      try {
        const fh = await open(chosen.path, 'r');
        try {
          read = (await fh.read(piece, 0, want, offset)).bytesRead;
        } finally {
          await fh.close();
        }
      } catch {
        throw unreadable(chosen.name);
      }
      return { data: piece.subarray(0, read).toString('base64'), bytes: read };
    },

    readSitemapIndex: ({ token, sitemaps }) =>
      sitemapReadings.read(
        token,
        {
          busy: 'These sitemaps are being read already.',
          stopped: 'Reading the sitemaps stopped.',
          stoppedHint: 'The list is the index’s sitemaps themselves until they are read.',
        },
        async (signal) => {
          const maxTargets = settings.targetsPerJob;
          const x = await expandSitemapIndex(sitemaps, {
            fetcher,
            caller: DESKTOP,
            defaults: {},
            maxTargets,
            signal,
            progress: everyTenthOfASecond((done, total, pages: number) => emit('sitemapProgress', { token, done, total, pages })),
          });
          return { pages: x.targets, read: x.read, failures: x.failures, skipped: x.skipped, capped: x.targets.length > maxTargets, cap: maxTargets };
        },
      ),

    stopReadingSitemaps: ({ token }) => sitemapReadings.stop(token),

    readListAt: ({ token, url }) =>
      listReadings.read(
        token,
        { busy: 'This list is being read already.', stopped: 'Reading the list stopped.', stoppedHint: 'The list is the address itself until it is read.' },
        async (signal) => {
          const list = await fetchListAt(fetcher, DESKTOP, url, signal);
          if (!isListType(list.mimeType)) {
            throw new SiftError('not_a_list', 415, `The address gives ${list.mimeType}, not a list of URLs.`, 'Fetch it as a page instead: submit the address as it is.');
          }
          const name = list.base.replace(/^https?:\/\//i, '');
          return { ...list, name, bytes: Buffer.byteLength(list.text) };
        },
      ),

    stopReadingList: ({ token }) => listReadings.stop(token),

    chooseExportTarget: async () => {
      const dir = await opts.dialogs?.chooseFolder();
      if (!dir) return null;
      const token = randomBytes(16).toString('hex');
      exportTargets.set(token, dir);
      return { token, path: dir };
    },

    exportJob: async ({ id, token, format, includeFailed, includeMeta }) => {
      const out = exportTargets.get(token);
      if (!out) throw new SiftError('bad_export_target', 400, 'Choose where to export first.', 'Use Export… and pick a folder.');
      const job = store.getJob(id);
      if (!job) throw notFound('This job');
      runner.touch(id);
      return exportJob(exportSourceOf(store, job), {
        ...exportOptionsFromCli(format),
        out,
        surface: 'app',
        includeFailed,
        includeMeta,
        signal: stopOf(token).signal,
        onProgress: everyTenthOfASecond((done, total) => emit('exportProgress', { token, done, total })),
      }).finally(() => {
        // A destination serves one export: Export again asks for a folder again.
        exportTargets.delete(token);
        exportStops.delete(token);
      });
    },

    cancelExport: ({ token }) => {
      if (!exportTargets.has(token)) return { cancelled: false };
      stopOf(token).abort();
      return { cancelled: true };
    },

    search: ({ query, id, limit }) => {
      if (id !== undefined && !store.getJob(id)) throw notFound('This job');
      return searchStore(store, query, { jobId: id, limit });
    },

    askJob: ({ id, question }) => {
      if (!store.getJob(id)) throw notFound('This job');
      return { passages: askJob(store, id, question), scope: askScope(store, id) };
    },

    exportHits: async ({ query, id, format, limit }) => {
      if (id !== undefined && !store.getJob(id)) throw notFound('This job');
      const { hits, more } = searchStore(store, query, { jobId: id, limit });
      const file = await opts.dialogs?.saveFile(hitsFileName(query, format));
      if (!file) return null;
      await writeFile(file, writeHits(format, { query, jobId: id, hits, more, at: Date.now() }), 'utf8');
      return { path: file, hits: hits.length, more };
    },
  };

  return {
    handlers,
    store,
    runner,
    metrics,
    log,
    logInternal: (method, err) => {
      log.error({ method, err: err instanceof Error ? { name: err.name, message: err.message } : String(err) }, 'IPC handler failed');
    },
    async close(closeOpts) {
      sitemapReadings.stopAll();
      listReadings.stopAll();
      // The runner stores the targets it interrupts before the listeners go: the app's last
      // events then say so too (the window may still be up for a moment).
      await engine.runner.close(closeOpts);
      offJob();
      offTarget();
      offWaiting();
      offPages();
      offRemoved();
      batcher.close();
      await engine.close();
      log.flush?.();
    },
  };
}
