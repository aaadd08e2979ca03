import type { ErrorInfo } from '../../../shared/errors';

/** What the user sees of a failure: what happened, and what to do next. */
export interface UserError {
  code: string;
  message: string;
  hint: string;
}

// Codes main answers with, said the way a user would want to hear them when main's own
// hint is empty. Main's message always comes first; these only fill in the next step.
const FALLBACK_HINTS: Record<string, string> = {
  too_many_targets: 'Split the list into smaller ones, or raise "URLs per job" in Settings.',
  caller_busy: 'Wait for one of your running jobs to finish, cancel one, or raise "Live jobs at once (this app)" in Settings.',
  busy: 'Sift is running as many jobs as it allows; wait for one to finish or cancel one.',
  no_targets: 'The list has no valid URL; each line needs an http:// or https:// address.',
  invalid_request: 'Check the values you entered.',
};

/**
 * Any rejection from window.sift as a UserError. window.sift rejects with a plain
 * {code, status, message, hint} (src/shared/ipc/client.ts); a bare Error is read too.
 */
export function toUserError(err: unknown): UserError {
  if (err && typeof err === 'object') {
    const e = err as Partial<ErrorInfo>;
    const message = typeof e.message === 'string' && e.message ? e.message : 'Something went wrong.';
    const code = typeof e.code === 'string' ? e.code : 'error';
    const hint = typeof e.hint === 'string' && e.hint ? e.hint : (FALLBACK_HINTS[code] ?? '');
    return { code, message, hint };
  }
  return { code: 'error', message: String(err), hint: '' };
}
