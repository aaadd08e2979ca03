import { OptionsSchema, type Options, type Result, type Target } from '../../shared/types';
import { HttpClient, mapError, type HttpResponse } from './client';
import { ComputePool } from './compute';
import { badOption, EXTRACT_TIMEOUT_HINT, FetchError, timeoutError } from './errors';
import { extractBody, type Extracted } from './extract';
import { Gate } from './gate';
import { systemResolver, type ResolvedAddress } from './guard';
import { PdfPool } from './pdf-pool';
import { defaultFetchSettings, type FetchSettings } from './settings';
import { validateUrl } from './url';

export interface Caller {
  name: string;
}

export interface FetcherDeps {
  /** Name resolution; tests inject one so no test asks a real DNS server. */
  lookup?: (hostname: string) => Promise<ResolvedAddress[]>;
  now?: () => number;
  /** One structured line per target; never carries a URL or host name. A function or a pino logger. */
  log?: ((line: Record<string, unknown>) => void) | { info(obj: object, msg?: string): void };
  /** Worker threads for PDFs (default 2: the machines Sift targets have 2+ cores). */
  pdfWorkers?: number;
}

export interface Fetcher {
  fetchTarget(signal: AbortSignal, caller: Caller, target: Target, ctx?: { batch?: boolean }): Promise<Result>;
  extractBuffer(buf: Buffer | Uint8Array, contentType: string, options: Options, ctx?: { caller?: Caller; url?: string; signal?: AbortSignal }): Promise<Result>;
  updateSettings(s: Partial<FetchSettings>): void;
  settings(): FetchSettings;
  gate: { acquire(signal: AbortSignal): Promise<() => void>; inFlight(): number };
  pdf: PdfPool;
  close(): Promise<void>;
}

/** After these failures an archived snapshot may still have the page (SPEC §5.6). */
export function recoverable(err: unknown): boolean {
  return err instanceof FetchError && (err.status === 404 || err.status === 410 || (err.status >= 500 && err.status !== 503) || err.code === 'dns');
}

function checkOptions(options: unknown): Options {
  const r = OptionsSchema.safeParse(options ?? {});
  if (!r.success) {
    const issue = r.error.issues[0];
    throw badOption(`invalid option ${issue?.path.join('.') || ''}: ${issue?.message ?? 'bad value'}`.replace(/ :/, ':'), 'Options are mode, question, pages, grep, jq, context, recover and render.');
  }
  return r.data;
}

const isTimeoutAbort = (signal: AbortSignal): boolean =>
  signal.aborted && (signal.reason as { name?: unknown } | undefined)?.name === 'TimeoutError';

/** The fetch pipeline of SPEC §5: URL check, gate, guarded HTTP, extraction, recovery. */
export function createFetcher(initial: Partial<FetchSettings> = {}, deps: FetcherDeps = {}): Fetcher {
  let settings: FetchSettings = { ...defaultFetchSettings(), ...initial };
  const now = deps.now ?? Date.now;
  const sink = deps.log;
  const log = (line: Record<string, unknown>): void => {
    if (typeof sink === 'function') sink(line);
    else if (sink) sink.info(line, 'fetch');
  };
  const client = new HttpClient(() => settings, deps.lookup ?? systemResolver);
  const gate = new Gate(settings.gateSize, settings.gateWaitMs);
  const pdf = new PdfPool(deps.pdfWorkers ?? 2);
  const compute = new ComputePool(2);

  /** Runs work under the target's deadline: its expiry is a 504, not a hang. */
  async function underDeadline<T>(signal: AbortSignal, deadline: AbortSignal, work: (combined: AbortSignal) => Promise<T>): Promise<T> {
    const combined = AbortSignal.any([signal, deadline]);
    try {
      return await work(combined);
    } catch (err) {
      if (err instanceof FetchError) throw err;
      if (deadline.aborted) throw timeoutError("the target's deadline passed while extracting", EXTRACT_TIMEOUT_HINT);
      throw err;
    }
  }

  async function download(url: string, signal: AbortSignal, deadline: AbortSignal): Promise<HttpResponse> {
    try {
      return await client.get(url, signal, deadline);
    } catch (err) {
      throw mapError(err, signal, deadline, 'fetching');
    }
  }

  async function recover(url: string, original: FetchError, signal: AbortSignal, deadline: AbortSignal): Promise<{ res: HttpResponse; snapshot: Record<string, unknown> }> {
    const noCopy = (why: string): FetchError => new FetchError(original.status, original.msg, `${original.hint ? `${original.hint} ` : ''}No archived copy: ${why}.`, original.code, original.retryAfterMs);
    const lookup = new URL(settings.archiveService);
    lookup.searchParams.set('url', url);
    let found: { url?: unknown; timestamp?: unknown; available?: unknown; status?: unknown } | undefined;
    try {
      const res = await download(lookup.toString(), signal, deadline);
      const body = JSON.parse(res.body.toString('utf8')) as { archived_snapshots?: { closest?: typeof found } };
      found = body.archived_snapshots?.closest;
    } catch (err) {
      if (signal.aborted) throw err;
      throw noCopy('the archive service did not answer');
    }
    if (!found || found.available === false || typeof found.url !== 'string') throw noCopy('the archive has no snapshot of this URL');
    const res = await download(found.url, signal, deadline).catch((err: unknown) => {
      throw err instanceof FetchError ? noCopy(`the snapshot failed too (${err.msg})`) : err;
    });
    const ts = typeof found.timestamp === 'string' ? found.timestamp : '';
    const m = /^(\d{4})(\d{2})(\d{2})(\d{2})?(\d{2})?(\d{2})?/.exec(ts);
    const time = m ? `${m[1]}-${m[2]}-${m[3]}T${m[4] ?? '00'}:${m[5] ?? '00'}:${m[6] ?? '00'}Z` : ts;
    return { res, snapshot: { recovered: true, snapshot_url: found.url, snapshot_time: time, recovered_from: original.status } };
  }

  async function fetchTarget(signal: AbortSignal, caller: Caller, target: Target, ctx: { batch?: boolean } = {}): Promise<Result> {
    const started = now();
    const deadline = AbortSignal.timeout(settings.deadlineMs);
    const poolCaller = ctx.batch ? `${caller.name}/batch` : caller.name;
    let outcome = 'ok';
    let status = 200;
    try {
      const options = checkOptions(target.options);
      const url = validateUrl(target.url).toString();
      const release = await gate.acquire(AbortSignal.any([signal, deadline])).catch((err: unknown) => {
        throw deadline.aborted ? timeoutError('waiting for a fetch slot') : err;
      });
      let res: HttpResponse;
      let recovered: Record<string, unknown> = {};
      try {
        try {
          res = await download(url, signal, deadline);
        } catch (err) {
          if (!options.recover || !recoverable(err)) throw err;
          const r = await recover(url, err as FetchError, signal, deadline);
          res = r.res;
          recovered = r.snapshot;
        }
      } finally {
        release();
      }
      status = res.status;
      const out: Extracted = await underDeadline(signal, deadline, (s) =>
        extractBody(res.body, res.contentType, options, { url: res.finalUrl, poolCaller, maxPdfPages: settings.maxPdfPages, signal: s, pdf, compute }),
      );
      const meta: Record<string, unknown> = {
        url,
        final_url: res.finalUrl,
        status: res.status,
        ...out.meta,
        recovered: recovered.recovered === true,
        ...recovered,
        fetched_ms: Math.round(now() - started),
      };
      if (res.redirects) meta.redirects = res.redirects;
      return { content: out.content, meta };
    } catch (caught) {
      // A caller's own deadline (an AbortSignal.timeout, as the batch wiring sets with the
      // same length as ours and a moment earlier) is a timeout too, not a cancel or a bug.
      const err = !(caught instanceof FetchError) && isTimeoutAbort(signal) ? timeoutError("the target's deadline passed") : caught;
      if (err instanceof FetchError) {
        outcome = err.code;
        status = err.status;
      } else {
        outcome = signal.aborted ? 'cancelled' : 'internal';
        status = 500;
      }
      throw err;
    } finally {
      log({ msg: 'fetch', caller: caller.name, batch: ctx.batch === true, outcome, status, ms: Math.round(now() - started) });
    }
  }

  async function extractBuffer(buf: Buffer | Uint8Array, contentType: string, options: Options, ctx: { caller?: Caller; url?: string; signal?: AbortSignal } = {}): Promise<Result> {
    const started = now();
    const opts = checkOptions(options);
    const deadline = AbortSignal.timeout(settings.deadlineMs);
    const signal = ctx.signal ?? new AbortController().signal;
    const bytes = buf instanceof Uint8Array ? buf : new Uint8Array(buf);
    const out = await underDeadline(signal, deadline, (s) =>
      extractBody(bytes, contentType, opts, { url: ctx.url ?? '', poolCaller: ctx.caller?.name ?? 'cli', maxPdfPages: settings.maxPdfPages, signal: s, pdf, compute }),
    );
    return { content: out.content, meta: { ...(ctx.url ? { url: ctx.url } : {}), ...out.meta, fetched_ms: Math.round(now() - started) } };
  }

  return {
    fetchTarget,
    extractBuffer,
    updateSettings(s) {
      const before = settings;
      settings = { ...settings, ...s };
      gate.resize(settings.gateSize, settings.gateWaitMs);
      if (before.connectTimeoutMs !== settings.connectTimeoutMs || before.headersTimeoutMs !== settings.headersTimeoutMs || before.bodyTimeoutMs !== settings.bodyTimeoutMs) {
        client.rebuild();
      }
    },
    settings: () => ({ ...settings }),
    gate: { acquire: (signal) => gate.acquire(signal), inFlight: () => gate.inFlight() },
    pdf,
    async close() {
      await Promise.all([pdf.close(), compute.close(), client.close()]);
    },
  };
}
