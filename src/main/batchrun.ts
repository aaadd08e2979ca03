/**
 * The batch wiring (task 06): the runner's FetchFunc over fetchTarget, the error mapping,
 * the outcome labels, and the hooks that feed the sift_batch_* metrics.
 */
import {
  cancelledTargetError,
  isInterruption,
  reasonOfError,
  RetryLaterError,
  Runner,
  TargetError,
  type Caller,
  type FetchFunc,
  type Logger,
  type RunnerConfig,
} from './batch';
import { FETCHING_BUSY, FetchError, GateBusyError, RATE_LIMITED, waitWords, type Fetcher } from './fetch';
import type { BatchMetrics } from './metrics';
import type { Store } from './store';
import { hintOn, surfaceOf } from '../shared/hints';

/** The job a fetch belongs to, when the runner passes it along with the caller (for logs). */
type BatchCaller = Caller & { jobId?: string };

/**
 * Rule 1: fetchTarget with the batch mark (the PDF pool then uses caller + "/batch"), its
 * errors mapped: busy (a 429/503, or the fetch gate) → retry later (with the server's
 * Retry-After), but not a challenge page that came with a 429/503; other FetchErrors →
 * TargetError, 502 rewritten to 500 "internal error"; the guard's 403 counted as a block; anything else
 * → 500 "internal error", logged with the caller and job id (never the URL or host).
 * A fetch the runner aborted (cancel, Ctrl-C, quit) is not a failure of the pipeline: whatever
 * error it ends with, it comes back as the runner's own reason (cancelled / interrupted), unlogged.
 */
export function makeBatchFetch(fetcher: Pick<Fetcher, 'fetchTarget'> & Partial<Pick<Fetcher, 'ready'>>, metrics: Pick<BatchMetrics, 'countBlocked'>, log: Logger, deadlineMs: () => number): FetchFunc {
  return async (signal, caller, target, onPages) => {
    // Loading the HTTP client (once, at the first target) is not the target's time.
    await fetcher.ready?.();
    // The time per URL is the pipeline's to start, when the target gets its fetch slot: a timer
    // of ours started before the gate, whose wait (5 s) outlasts a short "Time per URL", and a
    // target that never got its turn failed "the target's deadline passed".
    try {
      return await fetcher.fetchTarget(signal, caller, target, { batch: true, deadlineMs: deadlineMs(), ...(onPages ? { onPages } : {}) });
    } catch (err) {
      throw mapFetchError(err, { caller: caller as BatchCaller, log, onBlocked: () => metrics.countBlocked(), scrub: hostOf(target.url), signal });
    }
  };
}

export function mapFetchError(
  err: unknown,
  ctx: { caller: BatchCaller; log: Logger; onBlocked: () => void; scrub?: string; signal?: AbortSignal },
): Error {
  if (isInterruption(err)) return err;
  // The runner's signal (not the deadline, which is a timeout): once it has aborted, whatever
  // the fetch ended with (undici's AbortError, a terminated worker, or a FetchError of a step
  // that went on without the page the cancel cut short), the target was cancelled. The runner
  // keeps any TargetError but 'internal' after a cancel, so this is the one net: four places
  // so far each turned a cancel into another verdict, the last a redirect whose page the
  // cancel cut short, then judged a redirect loop (502) and stored "internal error".
  if (ctx.signal?.aborted) {
    const why: unknown = ctx.signal.reason;
    return isInterruption(why) ? why : cancelledTargetError(err);
  }
  if (err instanceof FetchError) {
    if (err.reason === 'busy') {
      const status = err.status === 429 ? 429 : 503;
      // Its hint is stored only once the retries ran out, so it says that ("stayed busy; retry the
      // failed ones later"), not the fetch's "Sift retries batch targets later". An HTTP answer
      // is the site's ("HTTP 429 Too Many Requests"); a bare "busy" is Sift's own limit (the
      // fetch gate, the render slots), which the wait must not blame on the site.
      const site = /^HTTP \d{3}\b/.test(err.msg);
      // The site's 429/503 without a Retry-After (Retry-After: 0 says "now"): asked again at
      // growing waits, and the row says why they grow.
      const backoff = site && err.retryAfterMs === undefined;
      const why = site
        ? `the site answered ${err.msg}${backoff ? ' without saying when to ask again, so Sift waits longer after each such answer' : ''}`
        : err.msg === RATE_LIMITED
          ? 'the site answered with a page saying it gets too many requests'
          : err instanceof GateBusyError
            ? err.why
            : FETCHING_BUSY;
      // Stored once the retries ran out: a site that asked for an hour said so, and "later" is then that hour.
      // (A rate-limit page asked for no wait: the one it carries is Sift's own.)
      const hint =
        err.msg === RATE_LIMITED || (backoff && status === 429)
          ? 'The site kept saying it gets too many requests: retry the failed ones in a few minutes; a list with many of its pages may need running in parts, a while apart.'
          : err.retryAfterMs && err.retryAfterMs >= 1000
            ? `The site is busy; its last answer asked Sift to wait ${waitWords(err.retryAfterMs)} before asking again. Retry the failed ones after that.`
            : undefined;
      // A site's Retry-After is the server's word; a rate-limit page's wait is Sift's own guess.
      const serverWait = site && err.retryAfterMs !== undefined;
      return new RetryLaterError(err.msg, { retryAfterMs: err.retryAfterMs, status, why, backoff, serverWait, ...(hint ? { hint } : {}) });
    }
    // The seed's 403 is the guard's: a site's own 403 Forbidden is an HTTP error, and counted
    // as a block it read as 'Refused: private address' in the Activity panel.
    if (err.reason === 'blocked') ctx.onBlocked();
    // Stored in the words of the surface that ran the job: the guard and the renderer do not know it.
    const hint = hintOn(surfaceOf(ctx.caller.name), err.hint);
    if (err.status === 502) {
      // As the seed's writeFetchErr: a bad gateway is reported as our internal error, but the
      // user still sees what happened in the hint.
      return new TargetError(500, 'internal error', hint ? `${err.msg}. ${hint}` : err.msg, { code: err.code, cause: err });
    }
    return new TargetError(err.status, err.msg, hint, { code: err.code, cause: err });
  }
  if (err instanceof TargetError) return err;
  ctx.log.error({ caller: ctx.caller.name, jobId: ctx.caller.jobId, err: describe(err, ctx.scrub) }, 'batch fetch failed with an unexpected error');
  return new TargetError(500, 'internal error', 'This is a bug in Sift; the log file has the details.', { code: 'internal', cause: err });
}

/**
 * Rule 2: the outcome label of a finished target. The seed's labels (ok, busy, blocked,
 * timeout, unsupported, too_long, upstream_4xx, upstream_5xx), extended with every other
 * reason of SPEC §5.9 (challenge, login, consent, soft404, needs_js, bad_option, network,
 * restart, internal) and `cancelled`: a target cut short by the user's cancel, Ctrl-C or the
 * app quitting. Nothing went wrong upstream then, so it is never upstream_5xx. An upstream
 * error keeps its 4xx/5xx split.
 */
export function batchOutcome(err: unknown): string {
  if (err === undefined || err === null) return 'ok';
  if (isInterruption(err)) return 'cancelled';
  const reason = reasonOfError(err);
  if (reason !== 'upstream') return reason;
  const s = err instanceof TargetError ? err.status : 500;
  return s >= 400 && s < 500 ? 'upstream_4xx' : 'upstream_5xx';
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
  const runner = new Runner(
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
  // The target hook (SPEC §3) carries no result: a done target's warnings come with its event.
  runner.on('target', (_jobId, row) => {
    if (row.status === 'done' && row.warnings) metrics.observeWarnings(row.warnings);
  });
  return runner;
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
