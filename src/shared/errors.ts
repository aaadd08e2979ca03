import * as z from 'zod';

/** How an error crosses a process boundary (IPC, the bridge, CLI --json). */
export const ErrorInfoSchema = z.object({
  code: z.string(),
  status: z.number().int(),
  message: z.string(),
  hint: z.string(),
});
export type ErrorInfo = z.infer<typeof ErrorInfoSchema>;

/**
 * An error with a stable code and an HTTP-like status, as the seeds use them.
 * `message` says what happened; `hint` says what to do next.
 */
export class SiftError extends Error {
  readonly code: string;
  readonly status: number;
  readonly hint: string;
  constructor(code: string, status: number, message: string, hint = '') {
    super(message);
    this.name = 'SiftError';
    this.code = code;
    this.status = status;
    this.hint = hint;
  }
  toInfo(): ErrorInfo {
    return { code: this.code, status: this.status, message: this.message, hint: this.hint };
  }
  static fromInfo(info: ErrorInfo): SiftError {
    return new SiftError(info.code, info.status, info.message, info.hint);
  }
}

/** Any thrown value as an ErrorInfo, without leaking internals of unknown errors. */
export function toErrorInfo(err: unknown): ErrorInfo {
  if (err instanceof SiftError) return err.toInfo();
  if (err && typeof err === 'object') {
    const e = err as Partial<ErrorInfo> & { msg?: unknown };
    if (typeof e.code === 'string' && typeof e.status === 'number') {
      const message = typeof e.message === 'string' && e.message ? e.message : typeof e.msg === 'string' ? e.msg : e.code;
      return { code: e.code, status: e.status, message, hint: typeof e.hint === 'string' ? e.hint : '' };
    }
  }
  return { code: 'internal', status: 500, message: 'internal error', hint: 'This is a bug in Sift; the log file has the details.' };
}
