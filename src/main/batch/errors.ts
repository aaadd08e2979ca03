import { SiftError } from '../../shared/errors';
import { reasonOf, type Reason } from '../../shared/reasons';
import type { Options } from '../../shared/types';
import { REST_AGAIN } from '../../shared/hints';

/**
 * A runner error that callers test by identity (`err === ErrBusy`, as the seed's Go
 * sentinels) or with `err instanceof ErrBusy`: each is one instance whose
 * Symbol.hasInstance matches itself. Being SiftErrors they cross IPC as {code, status,
 * message, hint}.
 */
export class RunnerError extends SiftError {
  constructor(code: string, status: number, message: string, hint: string) {
    super(code, status, message, hint);
    this.name = 'RunnerError';
  }
  [Symbol.hasInstance](value: unknown): boolean {
    return value === this;
  }
}

export const ErrNoTargets = new RunnerError('no_targets', 400, 'The list has no URLs.', 'Add at least one http or https URL.');
export const ErrTooManyTargets = new RunnerError(
  'too_many_targets',
  422,
  'The list has more URLs than one job may hold.',
  'Split the list into smaller ones, or raise "URLs per job" in Settings.',
);
export const ErrCallerBusy = new RunnerError(
  'caller_busy',
  429,
  'You already have as many jobs running as allowed.',
  'Wait for a running job to finish or cancel one, or raise "Live jobs at once (this app)" in Settings.',
);
export const ErrBusy = new RunnerError(
  'busy',
  429,
  'Sift is already running as many jobs as it allows.',
  'Wait for a running job to finish, then submit again.',
);
export const ErrRunnerClosed = new RunnerError('closed', 503, 'Sift is shutting down.', 'Start Sift again and resubmit the list.');

/**
 * The cause a fetch function wraps to ask for a retry (the site or the fetch gate answered
 * busy): `throw new RetryLaterError(msg)`, or any error whose `.cause` chain reaches it.
 */
export const ErrRetryLater = new RunnerError('busy', 503, 'busy, retry later', 'The site stayed busy; retry the failed ones later.');

/** A fetch error that asks the runner to retry, optionally after the server's Retry-After. */
export class RetryLaterError extends Error {
  override readonly cause = ErrRetryLater;
  readonly code = 'busy';
  /** 503, or the 429 the site answered: what is stored if the retries run out. */
  readonly status: number;
  readonly hint: string;
  readonly retryAfterMs: number | undefined;
  /** What was busy, in a person's words, said while the runner waits to try again. */
  readonly why: string | undefined;
  /**
   * The site asked to slow down and did not say for how long (a 429 or 503 without
   * Retry-After): each wait doubles from retryWait (backoffWaitMs), instead of asking a site
   * that just said it is asked too often again every 2 s, 30 times in the minute.
   */
  readonly backoff: boolean;
  /**
   * retryAfterMs is the server's own Retry-After, not a wait Sift chose (a rate-limit page's):
   * no try before it is any use, so one longer than the retry window has left ends the retries.
   */
  readonly serverWait: boolean;
  constructor(message: string, opts: { retryAfterMs?: number; hint?: string; status?: 429 | 503; why?: string; backoff?: boolean; serverWait?: boolean } = {}) {
    super(`${message}: ${ErrRetryLater.message}`);
    this.name = 'RetryLaterError';
    this.status = opts.status ?? 503;
    this.retryAfterMs = opts.retryAfterMs;
    this.hint = opts.hint ?? ErrRetryLater.hint;
    this.why = opts.why;
    this.backoff = opts.backoff === true;
    this.serverWait = opts.serverWait === true;
  }
}

/** Whether err's cause chain carries a wait the server asked for (RetryLaterError's serverWait). */
export function isServerWait(err: unknown): boolean {
  for (const e of causes(err)) if ((e as { serverWait?: unknown }).serverWait === true) return true;
  return false;
}

/** Whether err's cause chain asks for a growing wait (RetryLaterError's backoff). */
export function backsOff(err: unknown): boolean {
  for (const e of causes(err)) if ((e as { backoff?: unknown }).backoff === true) return true;
  return false;
}

/**
 * The longest wait a backoff grows to before its jitter: 30 s, so a minute's retry window
 * (the default) asks at about 0, 2, 6, 14, 30 and 60 s, six times where it asked thirty, and
 * a longer window (Settings) asks twice a minute, not once in its whole length.
 */
export const BACKOFF_CAP_MS = 30_000;

/**
 * The wait before try n + 1 of a site that keeps asking to slow down without a Retry-After:
 * retryWait doubled per answer (n = 1 for the first), at most BACKOFF_CAP_MS (or retryWait, if
 * that is longer), and up to a quarter more at random, so that jobs held by the same site
 * spread their tries instead of asking again all at once. Never less than retryWait.
 */
export function backoffWaitMs(retryWaitMs: number, n: number, random: () => number = Math.random): number {
  const base = Math.min(Math.max(retryWaitMs, BACKOFF_CAP_MS), retryWaitMs * 2 ** Math.min(Math.max(n - 1, 0), 30));
  return Math.round(base * (1 + random() / 4));
}

/**
 * What was busy, for a target waiting to try again: the `why` along err's cause chain, else
 * the status a RetryLaterError carries ("the site answered 429"), else "the site was busy".
 */
export function busyWhy(err: unknown): string {
  for (const e of causes(err)) {
    const why = (e as { why?: unknown }).why;
    if (typeof why === 'string' && why) return why;
  }
  const status = (err as { status?: unknown } | null)?.status;
  return status === 429 || status === 503 ? `the site answered ${status}` : 'the site was busy';
}

// Deep enough for any wrapping we do (fetch error → adapter error → cause); a cycle stops here.
const MAX_CAUSE_DEPTH = 8;

function* causes(err: unknown): Generator<unknown> {
  let e = err;
  for (let i = 0; i < MAX_CAUSE_DEPTH && e !== undefined && e !== null; i++) {
    yield e;
    e = (e as { cause?: unknown }).cause;
  }
}

/** Whether err wraps ErrRetryLater (the Go `errors.Is(err, ErrRetryLater)`). */
export function isRetryLater(err: unknown): boolean {
  for (const e of causes(err)) if (e === ErrRetryLater) return true;
  return false;
}

/** The first retryAfterMs (a server's Retry-After) along err's cause chain. */
export function retryAfterOf(err: unknown): number | undefined {
  for (const e of causes(err)) {
    const ms = (e as { retryAfterMs?: unknown }).retryAfterMs;
    if (typeof ms === 'number' && Number.isFinite(ms) && ms > 0) return ms;
  }
  return undefined;
}

/**
 * How one target failed, as stored on its row: `msg` and `hint` are user-facing, `status`
 * is HTTP-like (the seeds' TargetError{Status, Msg, Hint}).
 */
export class TargetError extends SiftError {
  readonly msg: string;
  constructor(status: number, msg: string, hint = '', opts: { code?: string; cause?: unknown } = {}) {
    super(opts.code ?? 'target_failed', status, msg, hint);
    this.name = 'TargetError';
    this.msg = msg;
    if (opts.cause !== undefined) this.cause = opts.cause;
  }
  /** Why it failed, in SPEC §5.9's words (from the code). */
  get reason(): Reason {
    return reasonOf(this.code, this.status);
  }
}

/**
 * The reason stored with a failed target, whatever was thrown: a TargetError's own, busy for
 * a site given up on, cancelled for an abort, internal for anything else.
 */
export function reasonOfError(err: unknown): Reason {
  if (err instanceof TargetError) return err.reason;
  if (isRetryLater(err)) return 'busy';
  if (err instanceof Error && err.name === 'AbortError') return 'cancelled';
  if (err instanceof SiftError) return reasonOf(err.code, err.status);
  return 'internal';
}

export const internalTargetError = (cause: unknown): TargetError =>
  new TargetError(500, 'internal error', 'This is a bug in Sift; the log file has the details.', { code: 'internal', cause });

/**
 * The one meaning of "cancelled" (SPEC §5.9 reason `cancelled`): the user cancelled the job
 * (the app's Cancel, `sift cancel`, Ctrl-C of `sift batch`) while this target was in flight
 * or waiting to retry. 499: nginx's "client closed request", the nearest HTTP-like status.
 * The runner aborts the fetch with this error as the signal's reason, so every layer that
 * rejects with `signal.reason` (gate, HTTP client, PDF pool, compute workers) hands it back.
 */
export const cancelledTargetError = (cause?: unknown): TargetError =>
  new TargetError(499, 'cancelled', `The job was cancelled while this target was being fetched; run ${REST_AGAIN.app}.`, {
    code: 'cancelled',
    cause,
  });

/**
 * Sift was closing (the app quit) while this target was in flight or waiting to retry: SPEC
 * §5.9 reason `restart`, as markInFlightFailed("restart") says of targets a dead process left.
 */
export const interruptedTargetError = (cause?: unknown): TargetError =>
  new TargetError(499, 'interrupted', `Sift was closing while this target was being fetched; run ${REST_AGAIN.app}.`, {
    code: 'restart',
    cause,
  });

/** Whether err is the runner's own cancel or close, not a failure of the target. */
export function isInterruption(err: unknown): err is TargetError {
  return err instanceof TargetError && (err.code === 'cancelled' || err.code === 'restart');
}

/** What a fetch function threw that is not a TargetError, stored as it came (seed 02 rule 4). */
export const thrownTargetError = (err: unknown): TargetError => {
  const message = err instanceof Error ? err.message : typeof err === 'string' ? err : '';
  return new TargetError(500, message.trim() ? message.slice(0, 2000) : 'internal error', '', { code: 'internal', cause: err });
};

/**
 * A size as a person reads it, in the binary units Settings uses for "Largest result" (MiB):
 * "29.8 MiB", "512 KiB", "12 bytes", with up to `digits` decimals.
 */
function binarySize(n: number, digits = 1): string {
  if (n < 1024) return exactBytes(n);
  const [unit, div] = n < 1024 ** 2 ? ['KiB', 1024] : n < 1024 ** 3 ? ['MiB', 1024 ** 2] : ['GiB', 1024 ** 3];
  return `${(n / div).toLocaleString('en-US', { maximumFractionDigits: digits })} ${unit}`;
}

const exactBytes = (n: number): string => `${n.toLocaleString('en-US')} ${n === 1 ? 'byte' : 'bytes'}`;

/**
 * SPEC §3: the message starts "document too long" (the outcome too_long and the stored
 * reason key on it). A result just over its limit gets the decimals that tell the two apart
 * ("8.001 MiB", not "8 MiB" beside "8 MiB"), or both in bytes.
 */
export function tooLongTargetError(bytes: number, max: number, options?: Options): TargetError {
  // Settings takes the limit in steps of 1/16 MiB: four decimals say any of them exactly.
  const limit = binarySize(max, 4);
  let size = binarySize(bytes);
  for (let digits = 2; size === limit && digits <= 3; digits++) size = binarySize(bytes, digits);
  const [said, saidLimit] = size === limit ? [exactBytes(bytes), exactBytes(max)] : [size, limit];
  return new TargetError(
    422,
    `document too long: ${said} of content, the limit is ${saidLimit}`,
    // A jq program's output is what the program made it: pages, grep and a question do not
    // apply to it, and the program is what to narrow.
    options?.jq
      ? 'The jq program gave this much: have it give less (select the records or fields you need, or limit(100; …) for the first ones), or raise "Largest result" in Settings.'
      : 'Narrow it with pages, grep or a question, or raise "Largest result" in Settings.',
    { code: 'too_long' },
  );
}
