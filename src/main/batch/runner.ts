import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { stoppedJobError, type Store } from '../store';
import { isTerminal, resultWarnings, type Job, type JobStatus, type PagesRead, type Result, type Target, type TargetRow, type TargetStatus, type TargetWait } from '../../shared/types';
import { listLabel } from '../../shared/job-label';
import { canonicalTargets, idemKey } from './canonical';
import {
  backoffWaitMs,
  backsOff,
  isServerWait,
  busyWhy,
  cancelledTargetError,
  ErrBusy,
  ErrCallerBusy,
  ErrNoTargets,
  ErrRunnerClosed,
  ErrTooManyTargets,
  interruptedTargetError,
  isInterruption,
  isRetryLater,
  reasonOfError,
  retryAfterOf,
  TargetError,
  thrownTargetError,
  tooLongTargetError,
} from './errors';
import { Slots } from './slots';
import type { Caller, FetchFunc, Hooks, Logger, RunnerConfig } from './types';

const DEFAULTS = {
  ttlMs: 24 * 60 * 60 * 1000,
  targetsPerJob: 32,
  jobsPerCaller: 1,
  jobsTotal: 8,
  workers: 4,
  maxBytes: 8 * 1024 * 1024,
  retryWaitMs: 2_000,
  retryForMs: 60_000,
  sweepEveryMs: 60_000,
} as const;

const NOOP_LOGGER: Logger = { info() {}, warn() {}, error() {} };

/**
 * The least time between two `pages` events of one target. The CLI's progress line redraws
 * at most every 100 ms and the app's events go out every 200 ms, so nothing shown is lost;
 * a 1,000-page PDF read in 2 s makes at most 21 events, not one per page as the PDF pool
 * reports them. The count of every page read always passes, so a line never stops short of it.
 */
const PAGES_EVERY_MS = 100;

/** Events the runner emits; `on` returns the function that unsubscribes. */
export interface RunnerEvents {
  /** Every job change: created (running), a target counted, terminal. */
  job: (job: Job) => void;
  /** Every target change: running, done, failed. */
  target: (jobId: string, row: TargetRow) => void;
  /** A job the expiry sweep deleted (rule 11), so a job list can drop it. */
  removed: (jobId: string) => void;
  /**
   * A running target's site answered busy and the runner waits to try it again (rule 10):
   * its row, still running, with `wait` set. Once per wait; the next `target` or `waiting`
   * event of that target supersedes it.
   */
  waiting: (jobId: string, row: TargetRow) => void;
  /**
   * A running target's PDF is being read: its row, still running, with `pagesRead` set. At
   * most one every PAGES_EVERY_MS per target but the one of every page read, in order, and none once the target is written
   * or its job cancelled; the next `target` event of that target supersedes it.
   */
  pages: (jobId: string, row: TargetRow) => void;
}

/** A job this process is draining. */
interface Active {
  id: string;
  caller: Caller;
  /** The caller as the fetch function sees it: with the job id, for its log lines. */
  fetchCaller: Caller & { jobId: string };
  targets: Target[];
  /**
   * Passed to the fetch function; aborted by cancel, and by close once its grace is over.
   * Its reason is the TargetError to store (cancelled or interrupted), so every layer that
   * rejects with `signal.reason` hands the runner the truth.
   */
  cancel: AbortController;
  /** Ends slot and retry waits at once: aborted by cancel and by close, with the same kind of reason. */
  stop: AbortController;
  drained: Promise<void>;
  /** The target waiting to try again, while it waits (a job has one target in flight). */
  waiting?: { idx: number; wait: TargetWait };
  /** The target whose PDF is being read, with how far, while it is read. */
  reading?: { idx: number; pagesRead: PagesRead };
}

function resolveConfig(cfg: Partial<RunnerConfig>): RunnerConfig {
  const pos = (v: number | undefined, d: number): number => (v !== undefined && v > 0 ? v : d);
  return {
    ttlMs: pos(cfg.ttlMs, DEFAULTS.ttlMs),
    targetsPerJob: pos(cfg.targetsPerJob, DEFAULTS.targetsPerJob),
    jobsPerCaller: pos(cfg.jobsPerCaller, DEFAULTS.jobsPerCaller),
    jobsTotal: pos(cfg.jobsTotal, DEFAULTS.jobsTotal),
    workers: pos(cfg.workers, DEFAULTS.workers),
    maxBytes: pos(cfg.maxBytes, DEFAULTS.maxBytes),
    retryWaitMs: pos(cfg.retryWaitMs, DEFAULTS.retryWaitMs),
    retryForMs: pos(cfg.retryForMs, DEFAULTS.retryForMs),
    sweepEveryMs: pos(cfg.sweepEveryMs, DEFAULTS.sweepEveryMs),
    hooks: cfg.hooks ?? {},
    now: cfg.now ?? Date.now,
  };
}

const errName = (err: unknown): string => (err instanceof Error ? err.name : typeof err);

/**
 * The serial batch runner (seed 02-runner + task 06): a job's targets run one at a time in
 * idx order, each outcome written to the store before the next starts; at most `workers`
 * jobs have a target in flight. The store is the state; this object only drives it.
 */
export class Runner {
  private cfg: RunnerConfig;
  private readonly slots: Slots;
  private readonly active = new Map<string, Active>();
  private readonly listeners: { [E in keyof RunnerEvents]: Set<RunnerEvents[E]> } = { job: new Set(), target: new Set(), removed: new Set(), waiting: new Set(), pages: new Set() };
  private readonly sweepTimer: NodeJS.Timeout;
  private inflight = 0;
  private closing = false;
  /** Jobs whose drain stopped because the store failed (a full disk), with the store's error. */
  private readonly storeFailures = new Map<string, unknown>();

  constructor(
    private readonly db: Store,
    private readonly fetch: FetchFunc,
    cfg: Partial<RunnerConfig> = {},
    private readonly log: Logger = NOOP_LOGGER,
  ) {
    this.cfg = resolveConfig(cfg);
    this.slots = new Slots(this.cfg.workers);
    this.sweep();
    this.sweepTimer = setInterval(() => this.sweep(), this.cfg.sweepEveryMs);
    this.sweepTimer.unref();
  }

  /**
   * Applies changed settings (caps, ttl, workers, maxBytes, retry timing) to what runs from
   * now on; a target in flight keeps the limits it started with. Zero keeps the default.
   */
  configure(change: Partial<Omit<RunnerConfig, 'hooks' | 'now'>>): void {
    const next = resolveConfig({ ...this.cfg, ...change });
    if (next.workers !== this.cfg.workers) this.slots.resize(next.workers);
    this.cfg = next;
  }

  /** Subscribes to change events; returns the unsubscribe function. */
  on<E extends keyof RunnerEvents>(event: E, fn: RunnerEvents[E]): () => void {
    const set = this.listeners[event] as Set<RunnerEvents[E]>;
    set.add(fn);
    return () => set.delete(fn);
  }

  /**
   * Creates the job and starts draining it, or returns the same caller's live-leased job for
   * the same list (`reused`). Throws ErrNoTargets, ErrTooManyTargets, ErrCallerBusy, ErrBusy.
   *
   * `fresh` is for a person's explicit "run it again": idempotency (rule 1) is there so a
   * retried submit does not start a second job, but the rest of an interrupted job is often
   * its whole list, and reusing would hand back the dead job. A job of that list still live is
   * reused all the same: "Run the rest again" clicked twice started two jobs fetching the
   * same URLs. The caps still apply, and the new job is the one later identical submits
   * reuse (the newest wins).
   */
  submit(caller: Caller, callerClass: string, targets: Target[], opts: { fresh?: boolean; label?: string } = {}): { id: string; reused: boolean } {
    if (this.closing) throw ErrRunnerClosed;
    const canon = canonicalTargets(targets);
    const key = idemKey(caller, canon);
    const now = this.cfg.now();
    // Read-then-write in one immediate transaction: the caps read what no one can change
    // before the insert lands.
    const created = this.db.immediate(() => {
      const hit = this.db.jobByIdem(caller.name, key, now);
      if (hit && (!opts.fresh || !isTerminal(hit.status))) return { job: hit, reused: true };
      if (canon.length === 0) throw ErrNoTargets;
      if (canon.length > this.cfg.targetsPerJob) throw ErrTooManyTargets;
      if (this.db.liveJobsOfCaller(caller.name) >= this.cfg.jobsPerCaller) throw ErrCallerBusy;
      if (this.db.liveJobsTotal() >= this.cfg.jobsTotal) throw ErrBusy;
      const job = this.db.insertJob(
        {
          id: randomBytes(8).toString('hex'),
          caller: caller.name,
          callerClass,
          idemKey: key,
          targetsTotal: canon.length,
          nowMs: now,
          leaseExpires: now + this.cfg.ttlMs,
          label: (opts.label ?? '').trim().slice(0, 200) || listLabel(canon),
        },
        canon,
      );
      return { job, reused: false };
    });
    const { id } = created.job;
    if (created.reused) {
      this.log.info({ caller: caller.name, jobId: id }, 'job reused');
      return { id, reused: true };
    }
    // Committed on its own: `queued` is on disk only in this window, which
    // markInFlightFailed reaps after a crash.
    const running = this.db.transition(id, 'queued', 'running', '', now);
    if (!running) throw new Error(`job ${id} left queued`);
    this.log.info({ caller: caller.name, jobId: id, targets: canon.length }, 'job submitted');
    this.emitJob(running);
    this.hook('depth', this.db.liveJobsTotal());
    const a: Active = {
      id,
      caller,
      fetchCaller: { ...caller, jobId: id },
      targets: canon,
      cancel: new AbortController(),
      stop: new AbortController(),
      drained: Promise.resolve(),
    };
    this.active.set(id, a);
    a.drained = this.drain(a);
    return { id, reused: false };
  }

  /** Cancels a live job: false for an unknown or terminal one. Never throws. */
  cancel(id: string): boolean {
    try {
      const now = this.cfg.now();
      const job = this.db.transition(id, 'running', 'cancelled', '', now) ?? this.db.transition(id, 'queued', 'cancelled', '', now);
      if (!job) return false;
      const a = this.active.get(id);
      const why = cancelledTargetError();
      a?.stop.abort(why);
      a?.cancel.abort(why);
      this.log.info({ caller: job.caller, jobId: id }, 'job cancelled');
      this.terminal(job, 'cancelled');
      return true;
    } catch (err) {
      this.log.error({ jobId: id, err: errName(err) }, 'cancel failed');
      return false;
    }
  }

  /** The job and its targets with results; undefined for an unknown id. Never throws. */
  status(id: string): { job: Job; targets: TargetStatus[] } | undefined {
    try {
      const job = this.db.getJob(id);
      return job && { job, targets: this.db.targetStatuses(id) };
    } catch (err) {
      this.log.error({ jobId: id, err: errName(err) }, 'status failed');
      return undefined;
    }
  }

  /** Bumps the job's lease to now + ttl (the UI touches a job it shows). Never throws. */
  touch(id: string): void {
    try {
      this.db.setLease(id, this.cfg.now() + this.cfg.ttlMs);
    } catch (err) {
      this.log.error({ jobId: id, err: errName(err) }, 'touch failed');
    }
  }

  /**
   * Stops draining: no target starts after this; a target waiting to retry is stored failed
   * "interrupted" at once; in-flight fetches finish and are stored. With `graceMs`, a fetch
   * still running after that long is aborted and stored "interrupted" too (the app quitting
   * cannot wait out a 210 s deadline). Either way "run the rest again" takes those targets
   * along. Jobs cut short stay `running` in the store until the next start-up's
   * markInFlightFailed.
   */
  async close(opts: { graceMs?: number } = {}): Promise<void> {
    this.closing = true;
    clearInterval(this.sweepTimer);
    const why = interruptedTargetError();
    for (const a of this.active.values()) a.stop.abort(why);
    const abortInFlight = (): void => {
      for (const a of this.active.values()) a.cancel.abort(why);
    };
    let timer: NodeJS.Timeout | undefined;
    if (opts.graceMs !== undefined) {
      if (opts.graceMs <= 0) abortInFlight();
      else timer = setTimeout(abortInFlight, opts.graceMs);
    }
    try {
      await Promise.all([...this.active.values()].map((a) => a.drained));
    } finally {
      clearTimeout(timer);
    }
  }

  /**
   * Resolves once this process has nothing of the job in flight: its last target is stored.
   * A cancelled job is terminal before its in-flight target is written (rule 6), so whoever
   * prints or exports it after a cancel waits for this first.
   */
  settled(id: string): Promise<void> {
    return this.active.get(id)?.drained ?? Promise.resolve();
  }

  /** The job's target waiting to try again after a busy answer, if one is (a view opened mid-wait shows it). */
  waitingTarget(id: string): { idx: number; wait: TargetWait } | undefined {
    return this.active.get(id)?.waiting;
  }

  /** The job's target whose PDF is being read, with how far, if one is (a view opened mid-read shows it). */
  readingTarget(id: string): { idx: number; pagesRead: PagesRead } | undefined {
    return this.active.get(id)?.reading;
  }

  /**
   * The store's error that stopped the job (a full disk, a damaged database), or undefined.
   * Its failed status may not have reached the store either, so whoever waits for the job
   * (`sift batch`) asks this to say why the job stopped instead of showing it "running".
   */
  storeFailure(id: string): unknown {
    return this.storeFailures.get(id);
  }

  private async drain(a: Active): Promise<void> {
    try {
      for (let idx = 0; idx < a.targets.length; idx++) {
        const release = await this.slots.acquire(a.stop.signal);
        if (!release) return;
        try {
          if (a.stop.signal.aborted) return;
          if (!(await this.runTarget(a, idx))) return;
        } finally {
          release();
        }
      }
      this.finish(a);
    } catch (err) {
      // Only the store can throw here (disk full, I/O error): fail the job rather than leave it running.
      this.log.error({ caller: a.caller.name, jobId: a.id, err: errName(err) }, 'drain failed');
      this.storeFailures.set(a.id, err);
      // "disk full", not "internal error": the job list and the app say why and what to do.
      const error = stoppedJobError(err);
      let job: Job | undefined;
      try {
        job = this.db.transition(a.id, 'running', 'failed', error, this.cfg.now());
      } catch {}
      if (!job) {
        // The store could not take that write either (the disk is still full): the job has
        // ended all the same, so those waiting for it (sift batch, an export written as the
        // job runs) stop waiting; the next start marks it failed "restart" in the store.
        try {
          const last = this.db.getJob(a.id);
          if (last && !isTerminal(last.status)) job = { ...last, status: 'failed', error };
        } catch {}
      }
      if (job) this.terminal(job, 'failed');
    } finally {
      this.active.delete(a.id);
    }
  }

  /** Runs and stores target idx; false when the job is gone from the store. */
  private async runTarget(a: Active, idx: number): Promise<boolean> {
    const target = a.targets[idx]!;
    const started = this.cfg.now();
    if (!this.db.startTarget(a.id, idx, started)) return false;
    this.emitTarget(a.id, idx, target, { status: 'running', startedAt: started });

    this.hook('inflight', ++this.inflight);
    const t0 = performance.now();
    let result: Result | undefined;
    let err: unknown;
    const reading = this.pagesReporter(a, idx, started);
    try {
      result = await this.fetchWithRetry(a, idx, started, reading.onPages);
    } catch (e) {
      err = e;
    } finally {
      reading.stop();
    }
    const ms = performance.now() - t0;
    this.hook('inflight', --this.inflight);

    let bytes = 0;
    if (err === undefined) {
      if (typeof result?.content !== 'string') {
        err = new TypeError('fetch function returned no content');
      } else {
        bytes = Buffer.byteLength(result.content);
        if (bytes > this.cfg.maxBytes) err = tooLongTargetError(bytes, this.cfg.maxBytes, target.options);
      }
    }
    if (err !== undefined) err = this.targetFailure(a, idx, err);
    this.hook('target', err, ms, err === undefined ? bytes : 0);

    const finished = this.cfg.now();
    const title = err === undefined && typeof result?.meta?.title === 'string' ? result.meta.title : '';
    const outcome =
      err === undefined
        ? { status: 'done' as const, result, error: '', hint: '', bytes, title, errorStatus: 0, reason: '' as const }
        : { status: 'failed' as const, error: messageOf(err), hint: hintOf(err), bytes: 0, title: '', errorStatus: statusOf(err), reason: reasonOfError(err) };
    const job = this.db.finishTarget(a.id, idx, outcome, finished, finished + this.cfg.ttlMs);
    if (!job) return false;
    this.emitTarget(a.id, idx, target, { ...outcome, warnings: err === undefined ? resultWarnings(result) : [], startedAt: started, finishedAt: finished });
    this.emitJob(job);
    return true;
  }

  /**
   * The error stored for a failed fetch (rule 9: whatever was thrown, the job goes on).
   * A fetch cut short by cancel or close is stored as that, whatever the fetch function made
   * of the abort, unless it failed for a reason of its own first (a 404 stays a 404).
   */
  private targetFailure(a: Active, idx: number, err: unknown): unknown {
    if (isInterruption(err)) return err;
    const cut = a.cancel.signal.aborted ? a.cancel.signal.reason : a.stop.signal.aborted && isRetryLater(err) ? a.stop.signal.reason : undefined;
    if (isInterruption(cut) && !(err instanceof TargetError && err.code !== 'internal')) return cut;
    if (err instanceof TargetError || isRetryLater(err)) return err;
    // The thrown value's message may name the host (DNS errors do): the log gets its name
    // only; the stored target, which only the user sees, keeps the message (seed 02 rule 4).
    this.log.error({ caller: a.caller.name, jobId: a.id, idx, err: errName(err) }, 'fetch function failed');
    return thrownTargetError(err);
  }

  /**
   * Calls the fetch function, retrying an error that wraps ErrRetryLater every retryWaitMs
   * (or the server's Retry-After when longer) until retryForMs has passed. A wait of Sift's own
   * never runs past the window, so the last try lands at its end; a Retry-After longer than
   * what is left ends the retries at once. A site that
   * asked to slow down without a Retry-After is asked again further apart each time
   * (backoffWaitMs), never sooner than retryWaitMs.
   */
  private async fetchWithRetry(a: Active, idx: number, started: number, onPages: (done: number, total: number) => void): Promise<Result> {
    const t = a.targets[idx]!;
    const deadline = performance.now() + this.cfg.retryForMs;
    // Set once a wait is cut to the window's end: the try after it is the last. Timers fire up
    // to a millisecond early, so without it a sliver of window could buy a burst of tries.
    let last = false;
    // The busy answers so far that asked for a growing wait (backsOff).
    let unnamed = 0;
    for (;;) {
      try {
        // Inside an async arrow so a synchronous throw becomes a rejection.
        return await (async () => this.fetch(a.cancel.signal, a.fetchCaller, t, onPages))();
      } catch (err) {
        if (!isRetryLater(err)) throw err;
        // A retry cut short by cancel or close is that, not "busy": run the rest again takes it.
        if (a.stop.signal.aborted) throw a.stop.signal.reason;
        const left = deadline - performance.now();
        if (left <= 0 || last) throw err;
        const asked = retryAfterOf(err);
        // The server asked for longer than the window has left (Retry-After: 3600, or a date
        // tomorrow): any try in it comes before the server said, and waiting the window out for
        // it held the job a minute per URL, 1,000 URLs of a site closed for the day 17 hours.
        // It fails busy now, its hint naming the wait the server asked for.
        if (asked !== undefined && asked > left && isServerWait(err)) throw err;
        const wanted = Math.max(this.cfg.retryWaitMs, asked ?? (backsOff(err) ? backoffWaitMs(this.cfg.retryWaitMs, ++unnamed) : 0));
        last = wanted >= left;
        const wait = Math.min(left, wanted);
        // Said, so a target that waits up to a minute does not look hung: the row (app, CLI)
        // and a log line, which names the job and the index, never the URL or host.
        const status = statusOf(err);
        a.waiting = { idx, wait: { until: this.cfg.now() + wait, waitMs: Math.round(wait), why: busyWhy(err), last } };
        this.log.info({ caller: a.caller.name, jobId: a.id, idx, status, waitMs: Math.round(wait), last }, 'target waiting to try again');
        this.emitWaiting(a.id, idx, t, started, a.waiting.wait);
        try {
          await sleep(wait, undefined, { signal: a.stop.signal });
        } catch {
          throw a.stop.signal.reason;
        } finally {
          a.waiting = undefined;
        }
      }
    }
  }

  /**
   * The fetch function's `onPages` for one target: passes on how far its PDF's reading is as
   * `pages` events, at most one every PAGES_EVERY_MS but the one of the whole (once), and
   * nothing once the job is cancelled
   * or the target's fetch has ended (`stop`), so no late report follows its stored outcome.
   * A count that cannot be (a fetch function's fault) is dropped.
   */
  private pagesReporter(a: Active, idx: number, startedAt: number): { onPages: (done: number, total: number) => void; stop: () => void } {
    let live = true;
    let last = -Infinity;
    const onPages = (done: number, total: number): void => {
      if (!live || a.cancel.signal.aborted || a.stop.signal.aborted) return;
      if (!Number.isInteger(done) || !Number.isInteger(total) || done < 0 || done > total || total < 1) return;
      const now = this.cfg.now();
      const whole = done === total && a.reading?.pagesRead.done !== total;
      if (now - last < PAGES_EVERY_MS && !whole) return;
      last = now;
      a.reading = { idx, pagesRead: { done, total } };
      this.emitRunning('pages', a.id, rowOf(idx, a.targets[idx]!, { status: 'running', startedAt, pagesRead: a.reading.pagesRead }));
    };
    const stop = (): void => {
      live = false;
      if (a.reading?.idx === idx) a.reading = undefined;
    };
    return { onPages, stop };
  }

  /** Sets the terminal status once, when every target is written. */
  private finish(a: Active): void {
    const job = this.db.getJob(a.id);
    if (!job || job.status !== 'running') return;
    const outcome: JobStatus =
      job.targetsFailed === 0 ? 'done' : job.targetsFailed === job.targetsTotal ? 'failed' : 'partial';
    const done = this.db.transition(a.id, 'running', outcome, '', this.cfg.now());
    if (!done) return;
    this.log.info({ caller: a.caller.name, jobId: a.id, outcome, failed: job.targetsFailed }, 'job finished');
    this.terminal(done, outcome);
  }

  private terminal(job: Job, outcome: JobStatus): void {
    this.emitJob(job);
    this.hook('job', outcome);
    this.hook('jobSeconds', Math.max(0, job.updatedAt - job.createdAt) / 1000);
    this.hook('depth', this.db.liveJobsTotal());
  }

  private sweep(): void {
    try {
      const ids = this.db.sweepExpired(this.cfg.now());
      if (ids.length) this.log.info({ swept: ids.length }, 'expired jobs deleted');
      for (const id of ids) {
        for (const fn of this.listeners.removed) {
          try {
            fn(id);
          } catch (err) {
            this.log.warn({ jobId: id, err: errName(err) }, 'removed listener failed');
          }
        }
      }
    } catch (err) {
      this.log.warn({ err: errName(err) }, 'sweep failed');
    }
  }

  private hook<K extends keyof Hooks>(name: K, ...args: Parameters<NonNullable<Hooks[K]>>): void {
    const fn = this.cfg.hooks[name] as ((...a: unknown[]) => void) | undefined;
    if (!fn) return;
    try {
      fn(...args);
    } catch (err) {
      this.log.warn({ hook: name, err: errName(err) }, 'hook failed');
    }
  }

  private emitJob(job: Job): void {
    for (const fn of this.listeners.job) {
      try {
        fn(job);
      } catch (err) {
        this.log.warn({ jobId: job.id, err: errName(err) }, 'job listener failed');
      }
    }
  }

  private emitWaiting(jobId: string, idx: number, t: Target, startedAt: number, wait: TargetWait): void {
    if (this.listeners.waiting.size === 0) return;
    this.emitRunning('waiting', jobId, rowOf(idx, t, { status: 'running', startedAt, wait }));
  }

  /** A running target's row, to the listeners of one of the events that say how it is going. */
  private emitRunning(event: 'waiting' | 'pages', jobId: string, row: TargetRow): void {
    for (const fn of this.listeners[event]) {
      try {
        fn(jobId, row);
      } catch (err) {
        this.log.warn({ jobId, err: errName(err) }, `${event} listener failed`);
      }
    }
  }

  private emitTarget(
    jobId: string,
    idx: number,
    t: Target,
    s: Partial<Omit<TargetRow, 'idx' | 'url' | 'options'>> & Pick<TargetRow, 'status'>,
  ): void {
    if (this.listeners.target.size === 0) return;
    const row = rowOf(idx, t, s);
    for (const fn of this.listeners.target) {
      try {
        fn(jobId, row);
      } catch (err) {
        this.log.warn({ jobId, err: errName(err) }, 'target listener failed');
      }
    }
  }
}

/** A target's row as the events carry it. */
function rowOf(idx: number, t: Target, s: Partial<Omit<TargetRow, 'idx' | 'url' | 'options'>> & Pick<TargetRow, 'status'>): TargetRow {
  const row: TargetRow = {
    idx,
    url: t.url,
    status: s.status,
    error: s.error ?? '',
    hint: s.hint ?? '',
    bytes: s.bytes ?? 0,
    errorStatus: s.errorStatus ?? 0,
    reason: s.reason ?? '',
    title: s.title ?? '',
    startedAt: s.startedAt ?? null,
    finishedAt: s.finishedAt ?? null,
  };
  if (t.options) row.options = t.options;
  if (s.warnings?.length) row.warnings = s.warnings;
  if (s.wait) row.wait = s.wait;
  if (s.pagesRead) row.pagesRead = s.pagesRead;
  return row;
}

function messageOf(err: unknown): string {
  if (err instanceof TargetError) return err.msg;
  return err instanceof Error ? err.message : 'internal error';
}

/** The stored HTTP-like status: a TargetError's, the 429/503 of a busy site given up on, else 500. */
function statusOf(err: unknown): number {
  if (err instanceof TargetError) return err.status;
  if (isRetryLater(err)) return (err as { status?: unknown }).status === 429 ? 429 : 503;
  const s = (err as { status?: unknown } | null)?.status;
  return typeof s === 'number' && Number.isInteger(s) && s >= 400 && s <= 599 ? s : 500;
}

function hintOf(err: unknown): string {
  const hint = (err as { hint?: unknown } | null)?.hint;
  return typeof hint === 'string' ? hint : '';
}
