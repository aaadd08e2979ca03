/**
 * The batch wiring (task 06): the runner's FetchFunc over fetchTarget, the error mapping,
 * the outcome labels, and the hooks that feed the sift_batch_* metrics.
 */
import { isRetryLater, RetryLaterError, Runner, TargetError, type Caller, type FetchFunc, type Logger, type RunnerConfig } from './batch';
import { FetchError, type Fetcher } from './fetch';
import type { BatchMetrics } from './metrics';
import type { Store } from './store';

/** The job a fetch belongs to, when the runner passes it along with the caller (for logs). */
type BatchCaller = Caller & { jobId?: string };

/**
 * Rule 1: fetchTarget with the batch mark (the PDF pool then uses caller + "/batch"), its
 * errors mapped: 429/503 → retry later (with the server's Retry-After); other FetchErrors →
 * TargetError, 502 rewritten to 500 "internal error"; 403 counted as a block; anything else
 * → 500 "internal error", logged with the caller and job id (never the URL or host).
 */
export function makeBatchFetch(fetcher: Pick<Fetcher, 'fetchTarget'> & Partial<Pick<Fetcher, 'ready'>>, metrics: Pick<BatchMetrics, 'countBlocked'>, log: Logger, deadlineMs: () => number): FetchFunc {
  return async (signal, caller, target) => {
    // Loading the HTTP client (once, at the first target) is not the target's time.
    await fetcher.ready?.();
    const deadline = AbortSignal.any([signal, AbortSignal.timeout(deadlineMs())]);
    try {
      return await fetcher.fetchTarget(deadline, caller, target, { batch: true });
    } catch (err) {
      throw mapFetchError(err, { caller: caller as BatchCaller, log, onBlocked: () => metrics.countBlocked(), scrub: hostOf(target.url) });
    }
  };
}

export function mapFetchError(
  err: unknown,
  ctx: { caller: BatchCaller; log: Logger; onBlocked: () => void; scrub?: string },
): Error {
  if (err instanceof FetchError) {
    if (err.status === 429 || err.status === 503) {
      return new RetryLaterError(err.msg, { retryAfterMs: err.retryAfterMs, hint: err.hint || undefined });
    }
    if (err.status === 403) ctx.onBlocked();
    if (err.status === 502) {
      // As the seed's writeFetchErr: a bad gateway is reported as our internal error, but the
      // user still sees what happened in the hint.
      return new TargetError(500, 'internal error', err.hint ? `${err.msg}. ${err.hint}` : err.msg, { code: err.code, cause: err });
    }
    return new TargetError(err.status, err.msg, err.hint, { code: err.code, cause: err });
  }
  if (err instanceof TargetError) return err;
  ctx.log.error({ caller: ctx.caller.name, jobId: ctx.caller.jobId, err: describe(err, ctx.scrub) }, 'batch fetch failed with an unexpected error');
  return new TargetError(500, 'internal error', 'This is a bug in Sift; the log file has the details.', { code: 'internal', cause: err });
}

/** Rule 2: the outcome label of a finished target. */
export function batchOutcome(err: unknown): string {
  if (err === undefined || err === null) return 'ok';
  if (isRetryLater(err)) return 'busy';
  if (err instanceof TargetError) {
    const s = err.status;
    if (s === 403) return 'blocked';
    if (s === 429) return 'busy';
    if (s === 504) return 'timeout';
    if (s === 415) return 'unsupported';
    if (s === 422 && err.msg.startsWith('document too long')) return 'too_long';
    if (s >= 400 && s < 500) return 'upstream_4xx';
    return 'upstream_5xx';
  }
  return 'upstream_5xx';
}

/** NewBatchRunner: the runner whose FetchFunc is batchFetch and whose hooks feed the metrics. */
export function createBatchRunner(
  store: Store,
  fetcher: Pick<Fetcher, 'fetchTarget'>,
  cfg: Partial<RunnerConfig>,
  metrics: BatchMetrics,
  log: Logger,
  deadlineMs: () => number = () => 210_000,
): Runner {
  const fetch = makeBatchFetch(fetcher, metrics, log, deadlineMs);
  return new Runner(
    store,
    fetch,
    {
      ...cfg,
      hooks: {
        job: (outcome) => metrics.observeJob(outcome),
        target: (err, ms, bytes) => {
          metrics.observeTarget(batchOutcome(err));
          metrics.observeTargetSeconds(ms / 1000);
          if (err === undefined || err === null) metrics.observeResultBytes(bytes);
        },
        jobSeconds: (s) => metrics.observeJobSeconds(s),
        depth: (n) => metrics.setQueueDepth(n),
        inflight: (n) => metrics.setInflight(n),
      },
    },
    log,
  );
}

/**
 * An unexpected error for the log, without the target: URLs and the target's host name are
 * cut out of the message (undici's and Node's messages quote them, e.g. ENOTFOUND host).
 */
export function describe(err: unknown, host?: string): { name: string; code?: string; message: string } {
  const name = err instanceof Error ? err.name : typeof err;
  const code = err && typeof err === 'object' && typeof (err as { code?: unknown }).code === 'string' ? (err as { code: string }).code : undefined;
  let message = (err instanceof Error ? err.message : String(err)).slice(0, 300);
  message = message.replace(/\b[a-z][a-z0-9+.-]*:\/\/[^\s'"<>]*/gi, '<url>');
  if (host) message = message.split(host).join('<host>');
  return code ? { name, code, message } : { name, message };
}

function hostOf(url: string): string | undefined {
  try {
    return new URL(url).hostname || undefined;
  } catch {
    return undefined;
  }
}
