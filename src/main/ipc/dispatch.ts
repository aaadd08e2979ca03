import { toErrorInfo } from '../../shared/errors';
import { hintOn } from '../../shared/hints';
import {
  invokeContract,
  type Envelope,
  type Method,
  type ParsedReq,
  type Res,
} from '../../shared/ipc/contract';

/** The main-process implementation of every invoke channel. */
export type Handlers = { [M in Method]: (req: ParsedReq<M>) => Promise<Res<M>> | Res<M> };

export interface DispatchOptions {
  /** Also validate responses (tests turn this on; the app trusts its own handlers). */
  checkResponses?: boolean;
  /** Called with any error that is not a typed SiftError-like one, for the log. */
  onInternalError?: (method: string, err: unknown) => void;
}

const hasOwn = (o: object, k: string): boolean => Object.prototype.hasOwnProperty.call(o, k);

/**
 * Validates one request against the contract and runs its handler. Never throws: a bad
 * method or payload is answered with a typed validation error and no handler runs.
 */
export async function dispatch(
  handlers: Handlers,
  method: unknown,
  rawReq: unknown,
  opts: DispatchOptions = {},
): Promise<Envelope> {
  if (typeof method !== 'string' || !hasOwn(invokeContract, method)) {
    // Not String(method): an array holding { toString: 0 } throws when turned into a string.
    const name = typeof method === 'string' ? method.slice(0, 80) : `a value of type ${method === null ? 'null' : Array.isArray(method) ? 'array' : typeof method}`;
    return fail('unknown_channel', 404, `unknown channel: ${name}`, '');
  }
  const m = method as Method;
  const spec = invokeContract[m];
  const parsed = spec.req.safeParse(rawReq ?? {});
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue && issue.path.length ? ` at ${issue.path.join('.')}` : '';
    return fail(
      'invalid_request',
      400,
      `invalid request for ${m}${where}: ${issue?.message ?? 'malformed'}`,
      'The app sent a request main could not accept; restart the window, and report it if it happens again.',
    );
  }
  try {
    const handler = handlers[m] as (req: unknown) => unknown;
    const value = await handler(parsed.data);
    if (opts.checkResponses) {
      const res = spec.res.safeParse(value);
      if (!res.success) throw new Error(`response of ${m} does not match the contract: ${res.error.message}`);
    }
    return { ok: true, value };
  } catch (err) {
    const info = toErrorInfo(err);
    if (info.code === 'internal') opts.onInternalError?.(m, err);
    // The IPC is the app's: a hint made for no caller in particular (the guard's) is said in its words.
    return { ok: false, error: { ...info, hint: hintOn('app', info.hint) } };
  }
}

function fail(code: string, status: number, message: string, hint: string): Envelope {
  return { ok: false, error: { code, status, message, hint } };
}
