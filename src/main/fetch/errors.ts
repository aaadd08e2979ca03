import { SiftError } from '../../shared/errors';

/**
 * A failure of one target, with the HTTP-like status task 06 maps (403 blocked, 429/503 busy,
 * 504 timeout, 415 unsupported, 422 too long or bad option, upstream 4xx/5xx as they came,
 * 502 for connection failures). It is a SiftError, so it crosses IPC as {code, status,
 * message, hint}; `msg` is the seed's name for the message.
 */
export class FetchError extends SiftError {
  /** From a 429/503's Retry-After, so the runner can wait as long as the server asked. */
  retryAfterMs?: number;
  /** Why the target failed, in SPEC §5.9's words (needs_js, blocked, …), when it is known. */
  reason?: string;
  constructor(status: number, msg: string, hint = '', code = codeFor(status, msg), retryAfterMs?: number) {
    super(code, status, msg, hint);
    this.name = 'FetchError';
    if (retryAfterMs !== undefined) this.retryAfterMs = retryAfterMs;
  }
  get msg(): string {
    return this.message;
  }
}

/** The stable code for a status, matching the outcome names of task 06 rule 2. */
export function codeFor(status: number, msg = ''): string {
  switch (status) {
    case 400:
      return 'bad_url';
    case 403:
      return 'blocked';
    case 429:
    case 503:
      return msg.startsWith('upstream') ? 'upstream_busy' : 'busy';
    case 504:
      return 'timeout';
    case 415:
      return 'unsupported';
    case 422:
      return msg.startsWith('document too long') ? 'too_long' : 'bad_option';
    case 502:
      return 'unreachable';
    default:
      return status >= 400 && status < 500 ? 'upstream_4xx' : 'upstream_5xx';
  }
}

/** Sets the §5.9 reason on an error and returns it. */
export function withReason(err: FetchError, reason: string): FetchError {
  err.reason = reason;
  return err;
}

export const blocked = (why: string): FetchError =>
  new FetchError(
    403,
    'blocked',
    `${why}. Sift does not fetch private, loopback or reserved addresses unless private networks are allowed in the settings (or --allow-private).`,
  );

export const timeoutError = (what: string, hint = 'The server was too slow; try again later, or with a smaller document.'): FetchError =>
  new FetchError(504, `timeout: ${what}`, hint);

/** Extraction (PDF text, jq, grep, readability) ran into the deadline: the server was fine. */
export const EXTRACT_TIMEOUT_HINT =
  'Extracting took longer than the deadline: choose fewer pages, a simpler grep expression or jq program, or raise the deadline in Settings.';

export const badOption = (msg: string, hint: string): FetchError => new FetchError(422, msg, hint, 'bad_option');
