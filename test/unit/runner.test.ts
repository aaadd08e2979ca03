import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  ErrBusy,
  ErrCallerBusy,
  ErrNoTargets,
  ErrRetryLater,
  ErrTooManyTargets,
  idemKey,
  isRetryLater,
  RetryLaterError,
  Runner,
  TargetError,
  type FetchFunc,
  type RunnerConfig,
} from '../../src/main/batch';
import { BACKOFF_CAP_MS, backoffWaitMs, tooLongTargetError } from '../../src/main/batch/errors';
import { batchOutcome } from '../../src/main/batchrun';
import type { Store } from '../../src/main/store';
import type { Result, Target, TargetRow, TargetWait } from '../../src/shared/types';
import { cancelLive, deferred, hang, memoryLogger, tempStore, terminal, until } from '../helpers/store';

const HOST = 'example.test';
const list = (n: number, prefix = 'a'): Target[] => Array.from({ length: n }, (_, i) => ({ url: `https://${HOST}/${prefix}/${i}` }));
const idxOf = (t: Target): number => Number(t.url.split('/').pop());
const ok = (t: Target): Result => ({ content: `content of ${t.url}`, meta: { title: `title ${idxOf(t)}` } });
const tick = (ms = 1): Promise<void> => new Promise((r) => setTimeout(r, ms));

let db: ReturnType<typeof tempStore>;
let store: Store;
let runners: Runner[];
let log: ReturnType<typeof memoryLogger>;

function runner(fetch: FetchFunc, cfg: Partial<RunnerConfig> = {}): Runner {
  const r = new Runner(store, fetch, cfg, log);
  runners.push(r);
  return r;
}

beforeEach(() => {
  db = tempStore();
  store = db.store;
  runners = [];
  log = memoryLogger();
});

afterEach(async () => {
  for (const r of runners) cancelLive(r, store);
  await Promise.all(runners.map((r) => r.close()));
  // Rule: log lines carry the caller and the job id, never a target URL or host name.
  expect(JSON.stringify(log.lines)).not.toContain(HOST);
  db.close();
});

describe('serial drain (rule 4)', () => {
  it('runs one target at a time in idx order and starts i+1 only after i is stored', async () => {
    const order: number[] = [];
    const seenBefore: string[] = [];
    let inFlight = 0;
    let peak = 0;
    const r = runner(async (_s, _c, t) => {
      const i = idxOf(t);
      order.push(i);
      if (i > 0) seenBefore.push(store.targetResult(store.listJobs(1)[0]!.id, i - 1)!.status);
      peak = Math.max(peak, ++inFlight);
      await tick(2);
      inFlight--;
      return ok(t);
    });
    const { id, reused } = r.submit({ name: 'alice' }, 'user', list(6));
    expect(reused).toBe(false);
    const job = await terminal(r, id);
    expect(job.status).toBe('done');
    expect(order).toEqual([0, 1, 2, 3, 4, 5]);
    expect(peak).toBe(1);
    expect(seenBefore).toEqual(['done', 'done', 'done', 'done', 'done']);
    const s = r.status(id)!;
    expect(s.targets.map((t) => t.result?.content)).toEqual(list(6).map((t) => `content of ${t.url}`));
    expect(s.job.targetsDone).toBe(6);
  });

  it('persists the job running before submit returns (rule 3)', () => {
    const r = runner(hang);
    const { id } = r.submit({ name: 'alice' }, 'user', list(2));
    expect(store.getJob(id)?.status).toBe('running');
  });
});

describe('failure isolation and terminal status (rule 7)', () => {
  it('stores a failed target with its status message and hint and goes on: partial', async () => {
    const r = runner(async (_s, _c, t) => {
      if (idxOf(t) === 1) throw new TargetError(404, 'not found', 'Check the address.');
      return ok(t);
    });
    const { id } = r.submit({ name: 'alice' }, 'user', list(3));
    const job = await terminal(r, id);
    expect(job).toMatchObject({ status: 'partial', targetsDone: 3, targetsFailed: 1 });
    const rows = store.targetRows(id);
    expect(rows.map((t) => t.status)).toEqual(['done', 'failed', 'done']);
    expect(rows[1]).toMatchObject({ error: 'not found', hint: 'Check the address.', bytes: 0, title: '' });
    expect(rows[2]?.title).toBe('title 2');
  });

  it('marks a job whose targets all failed failed, and one whose targets all succeeded done', async () => {
    const r = runner(async (_s, _c, t) => {
      if (t.url.includes('/bad/')) throw new TargetError(415, 'unsupported');
      return ok(t);
    }, { jobsPerCaller: 2 });
    const bad = r.submit({ name: 'alice' }, 'user', list(2, 'bad'));
    const good = r.submit({ name: 'alice' }, 'user', list(2, 'good'));
    expect((await terminal(r, bad.id)).status).toBe('failed');
    expect((await terminal(r, good.id)).status).toBe('done');
  });

  it('sets the terminal status exactly once', async () => {
    const outcomes: string[] = [];
    const terminalEvents: string[] = [];
    const r = runner(async (_s, _c, t) => ok(t), { hooks: { job: (o) => outcomes.push(o) } });
    r.on('job', (j) => {
      if (j.status !== 'running' && j.status !== 'queued') terminalEvents.push(j.status);
    });
    const { id } = r.submit({ name: 'alice' }, 'user', list(3));
    await terminal(r, id);
    expect(r.cancel(id)).toBe(false);
    await r.settled(id);
    expect(outcomes).toEqual(['done']);
    expect(terminalEvents).toEqual(['done']);
    expect(store.getJob(id)?.status).toBe('done');
  });
});

describe('idempotent submit (rule 1)', () => {
  it('returns the same job reused and does not drain it twice', async () => {
    let calls = 0;
    const r = runner(async (_s, _c, t) => {
      calls++;
      return ok(t);
    });
    const a = r.submit({ name: 'alice' }, 'user', list(3));
    const b = r.submit({ name: 'alice' }, 'user', list(3));
    expect(b).toEqual({ id: a.id, reused: true });
    await terminal(r, a.id);
    const c = r.submit({ name: 'alice' }, 'user', list(3));
    expect(c).toEqual({ id: a.id, reused: true });
    await r.settled(a.id);
    expect(calls).toBe(3);
    expect(store.listJobs()).toHaveLength(1);
  });

  it('a fresh submit (an explicit run-again) starts a new job once the job of the list has ended, and later submits reuse it', async () => {
    const r = runner(async (_s, _c, t) => ok(t));
    const a = r.submit({ name: 'alice' }, 'user', list(2));
    await terminal(r, a.id);
    const b = r.submit({ name: 'alice' }, 'user', list(2), { fresh: true });
    expect(b.reused).toBe(false);
    expect(b.id).not.toBe(a.id);
    await terminal(r, b.id);
    expect(r.submit({ name: 'alice' }, 'user', list(2))).toEqual({ id: b.id, reused: true });
    // Under the caps too: a fresh submit is not a way round them.
    r.submit({ name: 'alice' }, 'user', list(3));
    expect(() => r.submit({ name: 'alice' }, 'user', list(2), { fresh: true })).toThrow(ErrCallerBusy);
  });

  it('a fresh submit while the same list still runs is that job: a run-again clicked twice starts one job', async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const r = runner(
      async (_s, _c, t) => {
        await held;
        return ok(t);
      },
      { jobsPerCaller: 4 },
    );
    const a = r.submit({ name: 'alice' }, 'user', list(2), { fresh: true });
    try {
      expect(a.reused).toBe(false);
      expect(r.submit({ name: 'alice' }, 'user', list(2), { fresh: true })).toEqual({ id: a.id, reused: true });
      expect(store.listJobs()).toHaveLength(1);
    } finally {
      release();
    }
    await terminal(r, a.id);
  });

  it('keys the list the same whatever its key order and whitespace', () => {
    const alice = { name: 'alice' };
    const a: Target[] = [{ url: 'https://x.test/1', options: { mode: 'text', grep: 'net', recover: false, question: '' } }];
    const b = JSON.parse('[ { "options" : { "grep":"net",  "mode":"text" },\n "url": "  https://x.test/1\\n" } ]') as Target[];
    expect(idemKey(alice, b)).toBe(idemKey(alice, a));
    expect(idemKey(alice, [{ url: 'https://x.test/1', options: {} }])).toBe(idemKey(alice, [{ url: 'https://x.test/1' }]));
    // context is a *bool: false (no context) is a choice, unlike undefined (the mode's default).
    expect(idemKey(alice, [{ url: 'https://x.test/1', options: { context: false } }])).not.toBe(
      idemKey(alice, [{ url: 'https://x.test/1' }]),
    );
    expect(idemKey({ name: 'bob' }, a)).not.toBe(idemKey(alice, a));
    expect(idemKey(alice, a)).toMatch(/^[0-9a-f]{64}$/);
  });

  it('reuses a live job without checking the caps', () => {
    const r = runner(hang, { jobsTotal: 1 });
    const a = r.submit({ name: 'alice' }, 'user', list(2));
    expect(r.submit({ name: 'alice' }, 'user', [...list(2)].map((t) => ({ url: ` ${t.url} ` })))).toEqual({ id: a.id, reused: true });
  });

  it('creates a fresh job once the lease has lapsed', async () => {
    let now = 1_000_000;
    const r = runner(async (_s, _c, t) => ok(t), { ttlMs: 60_000, now: () => now });
    const a = r.submit({ name: 'alice' }, 'user', list(2));
    await terminal(r, a.id);
    now += 59_999;
    expect(r.submit({ name: 'alice' }, 'user', list(2))).toEqual({ id: a.id, reused: true });
    now += 1;
    const b = r.submit({ name: 'alice' }, 'user', list(2));
    expect(b.reused).toBe(false);
    expect(b.id).not.toBe(a.id);
    await terminal(r, b.id);
  });
});

describe('caps (rule 2)', () => {
  it('refuses an empty list with ErrNoTargets (400)', () => {
    const r = runner(async (_s, _c, t) => ok(t));
    let err: unknown;
    try {
      r.submit({ name: 'alice' }, 'user', []);
    } catch (e) {
      err = e;
    }
    expect(err).toBe(ErrNoTargets);
    expect(err instanceof ErrNoTargets).toBe(true);
    expect(err instanceof ErrBusy).toBe(false);
    expect(ErrNoTargets).toMatchObject({ code: 'no_targets', status: 400 });
    expect(store.listJobs()).toHaveLength(0);
  });

  it('refuses more than targetsPerJob targets with ErrTooManyTargets (422), default 32', () => {
    const r = runner(async (_s, _c, t) => ok(t));
    expect(() => r.submit({ name: 'alice' }, 'user', list(33))).toThrow(ErrTooManyTargets);
    expect(ErrTooManyTargets.status).toBe(422);
    expect(r.submit({ name: 'alice' }, 'user', list(32)).reused).toBe(false);
  });

  it('refuses a second live job of the caller with ErrCallerBusy (429) until the first ends', async () => {
    const gate = deferred();
    const r = runner(async (_s, _c, t) => {
      await gate.promise;
      return ok(t);
    });
    const a = r.submit({ name: 'alice' }, 'user', list(1));
    expect(() => r.submit({ name: 'alice' }, 'user', list(1, 'b'))).toThrow(ErrCallerBusy);
    expect(ErrCallerBusy.status).toBe(429);
    expect(r.submit({ name: 'bob' }, 'user', list(1, 'b')).reused).toBe(false);
    gate.resolve();
    await terminal(r, a.id);
    expect(r.submit({ name: 'alice' }, 'user', list(1, 'c')).reused).toBe(false);
  });

  it('refuses a job when live jobs in total reach jobsTotal with ErrBusy (429)', () => {
    const r = runner(hang, { jobsTotal: 2 });
    r.submit({ name: 'a' }, 'user', list(1));
    r.submit({ name: 'b' }, 'user', list(1));
    expect(() => r.submit({ name: 'c' }, 'user', list(1))).toThrow(ErrBusy);
    expect(ErrBusy.status).toBe(429);
    expect(store.liveJobsTotal()).toBe(2);
  });
});

describe('cancel (rule 6)', () => {
  it('stores the in-flight target, leaves the rest pending, and keeps finished targets readable', async () => {
    const inTarget1 = deferred();
    const release = deferred();
    const r = runner(async (_s, _c, t) => {
      if (idxOf(t) === 1) {
        inTarget1.resolve();
        await release.promise;
      }
      return ok(t);
    });
    const { id } = r.submit({ name: 'alice' }, 'user', list(4));
    await inTarget1.promise;
    expect(r.cancel(id)).toBe(true);
    expect(store.getJob(id)?.status).toBe('cancelled');
    release.resolve();
    // The drain has ended: nothing after the in-flight target can start any more.
    await r.settled(id);
    const s = r.status(id)!;
    expect(s.job.status).toBe('cancelled');
    expect(s.targets.map((t) => t.status)).toEqual(['done', 'done', 'pending', 'pending']);
    expect(s.targets[0]?.result?.content).toBe(`content of https://${HOST}/a/0`);
    expect(r.cancel(id)).toBe(false);
  });

  it('aborts the fetch signal; a fetch that rejects on abort is stored failed as cancelled', async () => {
    const r = runner(
      (signal) =>
        new Promise((_resolve, reject) => {
          signal.addEventListener('abort', () => reject(new Error('aborted')));
        }),
    );
    const { id } = r.submit({ name: 'alice' }, 'user', list(3));
    await until(() => store.targetResult(id, 0)?.status === 'running');
    expect(r.cancel(id)).toBe(true);
    await until(() => store.targetResult(id, 0)?.status === 'failed');
    expect(store.targetResult(id, 0)).toMatchObject({ error: 'cancelled' });
    expect(store.targetRows(id).map((t) => t.status)).toEqual(['failed', 'pending', 'pending']);
  });

  it('returns false for an unknown id and for a terminal job', async () => {
    const r = runner(async (_s, _c, t) => ok(t));
    expect(r.cancel('nope')).toBe(false);
    const { id } = r.submit({ name: 'alice' }, 'user', list(1));
    await terminal(r, id);
    expect(r.cancel(id)).toBe(false);
  });
});

describe('fetch functions that misbehave (rule 9)', () => {
  it('stores a synchronous throw, a rejection and a thrown non-Error as they came (500) and goes on; the log has names only', async () => {
    const hookErrs: unknown[] = [];
    const fetch = ((_s: AbortSignal, _c: unknown, t: Target) => {
      const i = idxOf(t);
      if (i === 0) throw new Error(`getaddrinfo ENOTFOUND ${HOST}`);
      if (i === 1) return Promise.reject(new Error(`connect ECONNREFUSED ${HOST}`));
      if (i === 2) return (async () => { throw 'a string'; })();
      if (i === 3) return Promise.resolve(undefined);
      return Promise.resolve(ok(t));
    }) as FetchFunc;
    const r = runner(fetch, { hooks: { target: (err) => hookErrs.push(err) } });
    const { id } = r.submit({ name: 'alice' }, 'user', list(5));
    const job = await terminal(r, id);
    expect(job).toMatchObject({ status: 'partial', targetsFailed: 4 });
    const rows = store.targetRows(id);
    // Seed 02 rule 4: the error as it came (`boom` stays `boom`); only the user sees the row.
    expect(rows.map((t) => [t.status, t.error, t.errorStatus])).toEqual([
      ['failed', `getaddrinfo ENOTFOUND ${HOST}`, 500],
      ['failed', `connect ECONNREFUSED ${HOST}`, 500],
      ['failed', 'a string', 500],
      ['failed', 'fetch function returned no content', 500],
      ['done', '', 0],
    ]);
    expect(rows.some((t) => /bug in Sift/.test(t.hint))).toBe(false);
    expect(hookErrs.slice(0, 4).map((e) => (e as TargetError).status)).toEqual([500, 500, 500, 500]);
    const logged = log.lines.filter((l) => l.msg === 'fetch function failed');
    expect(logged).toHaveLength(4);
    // The log line carries the error's name only: the message names the host.
    expect(logged.map((l) => (l.obj as { err?: unknown }).err)).toEqual(['Error', 'Error', 'string', 'TypeError']);
    expect(JSON.stringify(log.lines)).not.toContain(HOST);
  });

  it('answers bad ids without throwing', () => {
    const r = runner(async (_s, _c, t) => ok(t));
    expect(r.status('missing')).toBeUndefined();
    expect(() => r.touch('missing')).not.toThrow();
  });
});

describe('retry on ErrRetryLater (task 06 rule 10)', () => {
  it('retries until the fetch succeeds', async () => {
    let calls = 0;
    const r = runner(async (_s, _c, t) => {
      if (++calls < 3) throw new RetryLaterError('503 from the site');
      return ok(t);
    }, { retryWaitMs: 5 });
    const { id } = r.submit({ name: 'alice' }, 'user', list(1));
    expect((await terminal(r, id)).status).toBe('done');
    expect(calls).toBe(3);
  });

  it('recognises any error whose cause chain reaches ErrRetryLater', async () => {
    let calls = 0;
    const r = runner(async (_s, _c, t) => {
      if (++calls < 2) throw new Error('gate full', { cause: new Error('wrapped', { cause: ErrRetryLater }) });
      return ok(t);
    }, { retryWaitMs: 5 });
    const { id } = r.submit({ name: 'alice' }, 'user', list(1));
    expect((await terminal(r, id)).status).toBe('done');
    expect(calls).toBe(2);
  });

  it('gives up after retryFor with the error that wraps ErrRetryLater', async () => {
    let calls = 0;
    const hookErrs: unknown[] = [];
    const r = runner(
      async () => {
        calls++;
        throw new RetryLaterError('429 from the site');
      },
      { retryWaitMs: 10, retryForMs: 60, hooks: { target: (err) => hookErrs.push(err) } },
    );
    const t0 = performance.now();
    const { id } = r.submit({ name: 'alice' }, 'user', list(1));
    expect((await terminal(r, id)).status).toBe('failed');
    expect(performance.now() - t0).toBeGreaterThanOrEqual(55);
    // At least one retry, and no more than the window allows: a busy machine's timers fire
    // late, so fewer tries than 60/10 is normal, more never is.
    expect(calls).toBeGreaterThanOrEqual(2);
    expect(calls).toBeLessThanOrEqual(8);
    expect(isRetryLater(hookErrs[0])).toBe(true);
    expect(store.targetResult(id, 0)).toMatchObject({ status: 'failed', error: '429 from the site: busy, retry later' });
  });

  it('a wait cut to the end of the retry window is followed by one last try, not a burst', async () => {
    let calls = 0;
    const r = runner(
      async () => {
        calls++;
        throw new RetryLaterError('busy');
      },
      { retryWaitMs: 10_000, retryForMs: 40 },
    );
    const { id } = r.submit({ name: 'alice' }, 'user', list(1));
    expect((await terminal(r, id)).status).toBe('failed');
    expect(calls).toBe(2);
  });

  it('a Retry-After longer than the retry window has left is not waited out: the target fails busy at once', async () => {
    let calls = 0;
    const waits: TargetWait[] = [];
    const r = runner(
      async () => {
        calls++;
        throw new RetryLaterError('503', { retryAfterMs: 10_000, serverWait: true });
      },
      { retryWaitMs: 10, retryForMs: 5_000 },
    );
    r.on('waiting', (_id, row) => {
      if (row.wait) waits.push(row.wait);
    });
    const { id } = r.submit({ name: 'alice' }, 'user', list(1));
    expect((await terminal(r, id)).status).toBe('failed');
    expect(calls).toBe(1);
    expect(waits).toEqual([]);
  });

  it("waits the server's Retry-After when it is longer than retryWait", async () => {
    const at: number[] = [];
    const r = runner(async (_s, _c, t) => {
      at.push(performance.now());
      if (at.length === 1) throw new RetryLaterError('429', { retryAfterMs: 80 });
      return ok(t);
    }, { retryWaitMs: 5, retryForMs: 5_000 });
    const { id } = r.submit({ name: 'alice' }, 'user', list(1));
    await terminal(r, id);
    expect(at[1]! - at[0]!).toBeGreaterThanOrEqual(75);
  });

  it('a site that asked to slow down without saying for how long is asked again at doubling waits, capped, jittered, never sooner than retryWait', async () => {
    const waits: TargetWait[] = [];
    let calls = 0;
    const r = runner(async () => {
      calls++;
      throw new RetryLaterError('HTTP 429 Too Many Requests', { status: 429, backoff: true });
    }, { retryWaitMs: 10, retryForMs: 700 });
    r.on('waiting', (_id, row) => {
      if (row.wait) waits.push(row.wait);
    });
    const { id } = r.submit({ name: 'alice' }, 'user', list(1));
    expect((await terminal(r, id)).status).toBe('failed');
    // Tries at 0, 10, 30, 70, 150, 310 and 630 ms at the soonest (each wait doubles; the jitter
    // only adds); the next wait, 640, is cut to the window's end, where the last try lands: at
    // most 8 tries, where a fixed 10 ms would ask up to 70 times. A late timer only means fewer.
    expect(calls).toBeLessThanOrEqual(8);
    const grown = waits.filter((w) => !w.last).map((w) => w.waitMs);
    expect(grown[0]).toBeGreaterThanOrEqual(10);
    for (let i = 1; i < grown.length; i++) expect(grown[i]!, grown.join(', ')).toBeGreaterThanOrEqual(Math.floor(grown[i - 1]! * 1.6));
  });

  it('a backoff wait doubles from retryWait, stops growing at its cap, and its jitter only adds, up to a quarter', () => {
    expect([1, 2, 3, 4, 5, 6, 7].map((n) => backoffWaitMs(2_000, n, () => 0))).toEqual([2_000, 4_000, 8_000, 16_000, 30_000, 30_000, 30_000]);
    expect(backoffWaitMs(2_000, 1, () => 0.999)).toBe(2_500);
    expect(backoffWaitMs(2_000, 1_000, () => 0.999)).toBeLessThanOrEqual(BACKOFF_CAP_MS * 1.25);
    // A retryWait set longer than the cap is kept: the backoff never waits less than it.
    expect(backoffWaitMs(45_000, 3, () => 0)).toBe(45_000);
  });

  it('a busy answer without backoff is still asked again every retryWait (the gate, a Retry-After of 0)', async () => {
    const waits: number[] = [];
    const r = runner(async () => {
      throw new RetryLaterError('busy');
    }, { retryWaitMs: 10, retryForMs: 60 });
    r.on('waiting', (_id, row) => {
      if (row.wait && !row.wait.last) waits.push(row.wait.waitMs);
    });
    const { id } = r.submit({ name: 'alice' }, 'user', list(1));
    await terminal(r, id);
    expect(waits.length).toBeGreaterThanOrEqual(1);
    for (const w of waits) expect(w).toBe(10);
  });

  it('ends a retry wait at once when the job is cancelled', async () => {
    let calls = 0;
    const r = runner(async () => {
      calls++;
      throw new RetryLaterError('503');
    }, { retryWaitMs: 30_000 });
    const { id } = r.submit({ name: 'alice' }, 'user', list(2));
    await until(() => calls === 1);
    const t0 = performance.now();
    r.cancel(id);
    await r.settled(id);
    // The wait was 30 s: ending well before it is "at once", with room for a busy machine.
    expect(performance.now() - t0).toBeLessThan(15_000);
    expect(store.targetResult(id, 0)?.error).toBe('cancelled');
    expect(store.targetResult(id, 1)?.status).toBe('pending');
    expect(calls).toBe(1);
  });
});

describe('maxBytes (task 06)', () => {
  it('fails a result over maxBytes with 422 "document too long: …" counting UTF-8 bytes', async () => {
    const hookErrs: unknown[] = [];
    const r = runner(async (_s, _c, t) => ({ content: idxOf(t) === 0 ? 'é'.repeat(5) : 'é'.repeat(6) }), {
      maxBytes: 10,
      hooks: { target: (err) => hookErrs.push(err) },
    });
    const { id } = r.submit({ name: 'alice' }, 'user', list(2));
    await terminal(r, id);
    expect(store.targetResult(id, 0)).toMatchObject({ status: 'done', bytes: 10 });
    const t1 = store.targetResult(id, 1)!;
    expect(t1.status).toBe('failed');
    expect(t1.error).toBe('document too long: 12 bytes of content, the limit is 10 bytes');
    expect(t1.hint).not.toBe('');
    expect(hookErrs[1]).toBeInstanceOf(TargetError);
    expect((hookErrs[1] as TargetError).status).toBe(422);
  });
});

describe('the too-long message', () => {
  it('says sizes in the units Settings uses, telling a result just over its limit apart from it', () => {
    expect(tooLongTargetError(31_239_206, 8 * 1024 * 1024).msg).toBe('document too long: 29.8 MiB of content, the limit is 8 MiB');
    expect(tooLongTargetError(8 * 1024 * 1024 + 9_000, 8 * 1024 * 1024).msg).toBe('document too long: 8.01 MiB of content, the limit is 8 MiB');
    expect(tooLongTargetError(8 * 1024 * 1024 + 1, 8 * 1024 * 1024).msg).toBe('document too long: 8,388,609 bytes of content, the limit is 8,388,608 bytes');
    expect(tooLongTargetError(9 * 1024 * 1024, 8.0625 * 1024 * 1024).msg).toBe('document too long: 9 MiB of content, the limit is 8.0625 MiB');
    expect(tooLongTargetError(600_000, 512 * 1024).msg).toBe('document too long: 585.9 KiB of content, the limit is 512 KiB');
    // The outcome label and the stored reason key on its start (task 06 rule 2, migrations).
    expect(batchOutcome(tooLongTargetError(31_239_206, 8 * 1024 * 1024))).toBe('too_long');
  });
});

describe('hooks (task 06)', () => {
  it('calls each hook with the right values', async () => {
    let now = 5_000_000;
    const calls: { job: string[]; target: [unknown, number, number][]; jobSeconds: number[]; depth: number[]; inflight: number[] } = {
      job: [],
      target: [],
      jobSeconds: [],
      depth: [],
      inflight: [],
    };
    const r = runner(
      async (_s, _c, t) => {
        now += 1_500;
        if (idxOf(t) === 1) throw new TargetError(404, 'not found');
        return { content: 'x'.repeat(idxOf(t) + 1) };
      },
      {
        now: () => now,
        hooks: {
          job: (o) => calls.job.push(o),
          target: (e, ms, b) => calls.target.push([e, ms, b]),
          jobSeconds: (s) => calls.jobSeconds.push(s),
          depth: (n) => calls.depth.push(n),
          inflight: (n) => calls.inflight.push(n),
        },
      },
    );
    const { id } = r.submit({ name: 'alice' }, 'user', list(3));
    await terminal(r, id);
    expect(calls.job).toEqual(['partial']);
    expect(calls.jobSeconds).toEqual([4.5]);
    expect(calls.depth).toEqual([1, 0]);
    expect(calls.inflight).toEqual([1, 0, 1, 0, 1, 0]);
    expect(calls.target.map(([e, , b]) => [e === undefined ? 'ok' : (e as TargetError).status, b])).toEqual([
      ['ok', 1],
      [404, 0],
      ['ok', 3],
    ]);
    for (const [, ms] of calls.target) expect(ms).toBeGreaterThanOrEqual(0);
  });

  it('reports cancelled to the job hook once', async () => {
    const outcomes: string[] = [];
    const r = runner(hang, { hooks: { job: (o) => outcomes.push(o) } });
    const { id } = r.submit({ name: 'alice' }, 'user', list(2));
    r.cancel(id);
    r.cancel(id);
    expect(outcomes).toEqual(['cancelled']);
  });
});

describe('workers (task 06)', () => {
  it('keeps at most `workers` targets in flight across jobs, and reaches that many', async () => {
    let inFlight = 0;
    let peak = 0;
    const perJob = new Map<string, number>();
    let perJobPeak = 0;
    const r = runner(
      async (_s, _c, t) => {
        const job = t.url.split('/')[3]!;
        peak = Math.max(peak, ++inFlight);
        perJob.set(job, (perJob.get(job) ?? 0) + 1);
        perJobPeak = Math.max(perJobPeak, perJob.get(job)!);
        await tick(3);
        perJob.set(job, perJob.get(job)! - 1);
        inFlight--;
        return ok(t);
      },
      { workers: 2, jobsPerCaller: 5 },
    );
    const ids = ['j0', 'j1', 'j2', 'j3', 'j4'].map((p) => r.submit({ name: 'alice' }, 'user', list(4, p)).id);
    const jobs = await Promise.all(ids.map((id) => terminal(r, id)));
    expect(jobs.map((j) => j.status)).toEqual(['done', 'done', 'done', 'done', 'done']);
    expect(peak).toBe(2);
    expect(perJobPeak).toBe(1);
  });
});

describe('leases (rule 5) and the sweep (rule 11)', () => {
  it('bumps the lease on every target write and on touch', async () => {
    let now = 10_000_000;
    const r = runner(async (_s, _c, t) => {
      now += 1_000;
      return ok(t);
    }, { ttlMs: 60_000, now: () => now });
    const { id } = r.submit({ name: 'alice' }, 'user', list(3));
    expect(store.getJob(id)?.leaseExpires).toBe(10_060_000);
    const job = await terminal(r, id);
    expect(job.leaseExpires).toBe(10_003_000 + 60_000);
    now += 30_000;
    r.touch(id);
    expect(store.getJob(id)?.leaseExpires).toBe(now + 60_000);
  });

  it('deletes terminal jobs whose lease lapsed, with their targets, and keeps live ones', async () => {
    let now = 20_000_000;
    const first = runner((signal, _c, t) => (t.url.includes('/b/') ? hang(signal) : Promise.resolve(ok(t))), {
      ttlMs: 1_000,
      now: () => now,
      jobsPerCaller: 3,
    });
    const done = first.submit({ name: 'alice' }, 'user', list(2));
    await terminal(first, done.id);
    const running = first.submit({ name: 'alice' }, 'user', list(2, 'b'));
    now += 5_000;
    const second = runner(async (_s, _c, t) => ok(t), { ttlMs: 1_000, now: () => now, sweepEveryMs: 5 });
    expect(store.getJob(done.id)).toBeUndefined();
    // The sweep at construction ran before anyone could listen; the periodic one is heard.
    const removed: string[] = [];
    second.on('removed', (id) => removed.push(id));
    const again = second.submit({ name: 'bob' }, 'user', list(1, 'c'));
    await terminal(second, again.id);
    now += 5_000;
    await expect.poll(() => removed).toEqual([again.id]);
    expect(store.targetRows(done.id)).toEqual([]);
    expect(store.getJob(running.id)?.status).toBe('running');
  });
});

describe('events', () => {
  it('emits every target change and every job change, until unsubscribed', async () => {
    const targetEvents: [number, TargetRow['status']][] = [];
    const doneCounts: number[] = [];
    const r = runner(async (_s, _c, t) => ok(t));
    const offT = r.on('target', (_id, row) => targetEvents.push([row.idx, row.status]));
    r.on('job', (j) => doneCounts.push(j.targetsDone));
    const { id } = r.submit({ name: 'alice' }, 'user', list(2));
    await terminal(r, id);
    expect(targetEvents).toEqual([
      [0, 'running'],
      [0, 'done'],
      [1, 'running'],
      [1, 'done'],
    ]);
    expect(doneCounts).toEqual([0, 1, 2, 2]);
    offT();
    const b = r.submit({ name: 'alice' }, 'user', list(1, 'b'));
    await terminal(r, b.id);
    expect(targetEvents).toHaveLength(4);
  });
});

describe('close', () => {
  it('lets the in-flight target finish and be stored, and starts no other', async () => {
    const inFlight = deferred();
    const release = deferred();
    const started: number[] = [];
    const r = runner(async (_s, _c, t) => {
      started.push(idxOf(t));
      inFlight.resolve();
      await release.promise;
      return ok(t);
    });
    const { id } = r.submit({ name: 'alice' }, 'user', list(3));
    await inFlight.promise;
    const closed = r.close();
    release.resolve();
    await closed;
    expect(started).toEqual([0]);
    expect(store.targetRows(id).map((t) => t.status)).toEqual(['done', 'pending', 'pending']);
    expect(store.getJob(id)?.status).toBe('running');
  });
});

describe('malformed submit input never throws an untyped error (seed 02 rule 9)', () => {
  it('null and undefined are no targets: ErrNoTargets', () => {
    const r = runner(async (_s, _c, t) => ok(t));
    for (const bad of [null, undefined, 'https://x.test/', 42, {}]) {
      expect(() => r.submit({ name: 'alice' }, 'user', bad as unknown as Target[])).toThrow(ErrNoTargets);
    }
  });

  it('[null] and [{}] become targets with no URL, which fail on their own row; the job goes on', async () => {
    const seen: string[] = [];
    const r = runner(async (_s, _c, t) => {
      seen.push(t.url);
      if (!t.url) throw new TargetError(400, 'invalid URL: empty', 'Give an http or https URL.');
      return ok(t);
    });
    const { id } = r.submit({ name: 'alice' }, 'user', [null, {}, { url: 7 }, { url: `https://${HOST}/a/3`, options: 'x' }] as unknown as Target[]);
    const job = await terminal(r, id);
    expect(job.status).toBe('partial');
    const rows = store.targetRows(id);
    expect(rows.map((t) => t.url)).toEqual(['', '', '', `https://${HOST}/a/3`]);
    expect(rows.some((t) => t.url === 'undefined')).toBe(false);
    expect(rows.map((t) => t.status)).toEqual(['failed', 'failed', 'failed', 'done']);
    expect(seen).toEqual(['', '', '', `https://${HOST}/a/3`]);
  });
});

describe('cancel and close are told truthfully (issue 11)', () => {
  it('a retry wait cut short by close is stored "interrupted", not busy, and nothing is logged at error level', async () => {
    let calls = 0;
    const outcomes: unknown[] = [];
    const r = runner(
      async () => {
        calls++;
        throw new RetryLaterError('503');
      },
      { retryWaitMs: 30_000, hooks: { target: (err) => outcomes.push(err) } },
    );
    const { id } = r.submit({ name: 'alice' }, 'user', list(2));
    await until(() => calls === 1);
    await r.close();
    const row = store.targetResult(id, 0)!;
    expect(row).toMatchObject({ status: 'failed', error: 'interrupted' });
    expect(row.hint).toMatch(/run the rest again/);
    expect(store.targetResult(id, 1)?.status).toBe('pending');
    expect((outcomes[0] as TargetError).code).toBe('restart');
    expect(isRetryLater(outcomes[0])).toBe(false);
    expect(log.lines.filter((l) => l.level === 'error')).toEqual([]);
  });

  it('a retry wait cut short by cancel is stored "cancelled" with its hint to run the rest again', async () => {
    let calls = 0;
    const r = runner(async () => {
      calls++;
      throw new RetryLaterError('429', { status: 429 });
    }, { retryWaitMs: 30_000 });
    const { id } = r.submit({ name: 'alice' }, 'user', list(1));
    await until(() => calls === 1);
    r.cancel(id);
    await r.settled(id);
    expect(store.targetResult(id, 0)).toMatchObject({ status: 'failed', error: 'cancelled', errorStatus: 499 });
    expect(store.targetResult(id, 0)!.hint).toMatch(/run the rest again/);
    expect(log.lines.filter((l) => l.level === 'error')).toEqual([]);
  });

  it('a 429 that runs out of retries is stored as 429, a 503 as 503', async () => {
    const r = runner(async (_s, _c, t) => {
      throw new RetryLaterError(idxOf(t) === 0 ? 'upstream 429' : 'upstream 503', { status: idxOf(t) === 0 ? 429 : 503 });
    }, { retryWaitMs: 5, retryForMs: 20 });
    const { id } = r.submit({ name: 'alice' }, 'user', list(2));
    await terminal(r, id);
    expect(store.targetResult(id, 0)).toMatchObject({ status: 'failed', errorStatus: 429 });
    expect(store.targetResult(id, 1)).toMatchObject({ status: 'failed', errorStatus: 503 });
  });

  it('close with a grace aborts a fetch still running after it and stores it "interrupted"', async () => {
    let started = 0;
    const r = runner(async (signal) => {
      started++;
      return hang(signal);
    });
    const { id } = r.submit({ name: 'alice' }, 'user', list(3));
    await until(() => started === 1);
    await r.close({ graceMs: 0 });
    expect(store.targetResult(id, 0)).toMatchObject({ status: 'failed', error: 'interrupted' });
    expect(store.targetResult(id, 1)?.status).toBe('pending');
    expect(started).toBe(1);
    expect(log.lines.filter((l) => l.level === 'error')).toEqual([]);
  });

  it('a fetch that ignores the abort and fails "internal" is still stored cancelled; a real 404 stays a 404', async () => {
    const gate = deferred();
    const r = runner(async (signal, _c, t) => {
      await gate.promise;
      if (idxOf(t) === 0) throw new TargetError(500, 'internal error', 'This is a bug in Sift', { code: 'internal' });
      return hang(signal);
    });
    const a = r.submit({ name: 'alice' }, 'user', list(1));
    const b = r.submit({ name: 'bob' }, 'user', [{ url: `https://${HOST}/b/1` }]);
    await until(() => store.targetResult(a.id, 0)?.status === 'running');
    r.cancel(a.id);
    gate.resolve();
    await r.settled(a.id);
    expect(store.targetResult(a.id, 0)).toMatchObject({ status: 'failed', error: 'cancelled' });
    r.cancel(b.id);
    await r.settled(b.id);
    expect(store.targetResult(b.id, 0)).toMatchObject({ status: 'failed', error: 'cancelled' });
    const r404 = runner(async () => {
      throw new TargetError(404, 'upstream 404 Not Found');
    });
    const c = r404.submit({ name: 'carol' }, 'user', list(2, 'c'));
    r404.cancel(c.id);
    await r404.settled(c.id);
    const row = store.targetResult(c.id, 0)!;
    expect(row.status === 'pending' || row.error === 'upstream 404 Not Found').toBe(true);
  });
});

describe("a target's pages as they are read", () => {
  it("passes on at most one count per 100 ms of the runner's clock, in order, drops counts that cannot be, and none after the target is written", async () => {
    let clock = 1_000_000;
    let late: ((done: number, total: number) => void) | undefined;
    const r = runner(async (_s, _c, t, onPages) => {
      late = onPages;
      onPages?.(4, 100); // passes: the first
      onPages?.(20, 100); // dropped: the clock has not moved
      clock += 99;
      onPages?.(36, 100); // dropped: 99 ms
      clock += 1;
      onPages?.(52, 100); // passes: 100 ms
      clock += 500;
      onPages?.(120, 100); // dropped: more than there are
      onPages?.(1.5, 100); // dropped: not a count
      onPages?.(68, 100); // passes
      return ok(t);
    }, { now: () => clock });
    const heard: string[] = [];
    r.on('pages', (_id, row) => heard.push(`${row.status} ${row.pagesRead?.done}/${row.pagesRead?.total}`));
    r.on('target', (_id, row) => heard.push(row.status));
    const { id } = r.submit({ name: 'alice' }, 'user', list(1));
    await terminal(r, id);
    clock += 1000;
    late?.(80, 100);
    expect(heard).toEqual(['running', 'running 4/100', 'running 52/100', 'running 68/100', 'done']);
    expect(r.readingTarget(id)).toBeUndefined();
  });

  it('passes on the count that ends the reading whatever the clock, once, so a line never stops short of the whole', async () => {
    const clock = 1_000_000;
    const r = runner(async (_s, _c, t, onPages) => {
      onPages?.(4, 40); // passes: the first
      onPages?.(32, 40); // dropped: the clock has not moved
      onPages?.(40, 40); // passes: every page is read
      onPages?.(40, 40); // dropped: said already
      return ok(t);
    }, { now: () => clock });
    const heard: string[] = [];
    r.on('pages', (_id, row) => heard.push(`${row.status} ${row.pagesRead?.done}/${row.pagesRead?.total}`));
    r.on('target', (_id, row) => heard.push(row.status));
    const { id } = r.submit({ name: 'alice' }, 'user', list(1));
    await terminal(r, id);
    expect(heard).toEqual(['running', 'running 4/40', 'running 40/40', 'done']);
  });

  it('keeps the count of the target being read for a view opened while it reads', async () => {
    const reading = deferred<void>();
    const release = deferred<void>();
    const r = runner(async (_s, _c, t, onPages) => {
      onPages?.(16, 352);
      reading.resolve();
      await release.promise;
      return ok(t);
    });
    const { id } = r.submit({ name: 'alice' }, 'user', list(1));
    await reading.promise;
    expect(r.readingTarget(id)).toEqual({ idx: 0, pagesRead: { done: 16, total: 352 } });
    release.resolve();
    await terminal(r, id);
    expect(r.readingTarget(id)).toBeUndefined();
  });
});
