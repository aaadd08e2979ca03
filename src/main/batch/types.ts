import type { Result, Target } from '../../shared/types';

/** Who submitted a job: 'desktop' for the app, 'cli' for the command line. */
export interface Caller {
  name: string;
}

/**
 * The per-target work. It may throw a TargetError (stored with its status, msg and hint),
 * an error wrapping ErrRetryLater (retried), or anything else (stored as 500 internal error).
 * `onPages`, when it reads a PDF, says how many of its pages are read so far, of how many.
 */
export type FetchFunc = (signal: AbortSignal, caller: Caller, t: Target, onPages?: (done: number, total: number) => void) => Promise<Result>;

/** Where the runner reports, for metrics. Each is optional; a throwing hook is logged and ignored. */
export interface Hooks {
  /** Once per terminal job: done | failed | partial | cancelled. */
  job?(outcome: string): void;
  /** Once per finished target: its error (undefined when done), duration with retries, content bytes. */
  target?(err: unknown, ms: number, resultBytes: number): void;
  /** Once per terminal job: seconds from submit. */
  jobSeconds?(s: number): void;
  /** Live (queued + running) jobs, after every change. */
  depth?(live: number): void;
  /** Targets being fetched right now, after every change. */
  inflight?(n: number): void;
}

export interface RunnerConfig {
  ttlMs: number; // 0 → 24 h
  targetsPerJob: number; // 0 → 32
  jobsPerCaller: number; // 0 → 1
  jobsTotal: number; // 0 → 8
  workers: number; // jobs whose next target may be in flight at once; 0 → 4
  maxBytes: number; // 0 → 8 MiB
  retryWaitMs: number; // 0 → 2 s
  retryForMs: number; // 0 → 60 s
  hooks: Hooks;
  /** The wall clock for leases and timestamps (ms epoch); tests move it instead of sleeping. */
  now: () => number;
  /** How often expired jobs are swept; 0 → 60 s. */
  sweepEveryMs: number;
}

/** pino-compatible: `log.info({ jobId }, 'msg')`. */
export interface Logger {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}
