/**
 * Opening a big job: the renderer's store fed by the real services over the contract, on a
 * real SQLite file. The rows come in pages, so the table has its first screen before the
 * rest are read; the pages, the live changes and a job opened meanwhile never mix.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import path from 'node:path';
import { createServices, type Services } from '../../src/main/services';
import { dispatch } from '../../src/main/ipc/dispatch';
import { FIRST_ROWS, ROWS_PER_PAGE, type SiftApi } from '../../src/shared/ipc/contract';
import type { RowFilter, TargetRow } from '../../src/shared/types';
import { bigFinishedJob, type BigJob } from '../helpers/big-job';
import { tempDir } from '../helpers/store';
// The window.sift the renderer's actions call, declared as the renderer declares it.
import type {} from '../../src/renderer/src/env';

const N = 12_345;

let services: Services;
let big: BigJob;
let small: BigJob;
let remove: () => void;
/** Each jobDetail call the renderer made: what it asked, how many rows came back. */
const calls: { req: { id: string; from?: number; limit?: number; filter?: RowFilter }; rows: number }[] = [];
/** Runs before a jobDetail call reaches main, as a live change made between two pages does. */
let beforeCall: ((req: { id: string; from?: number; filter?: RowFilter }) => void) | undefined;
/** Runs once before a jobDetail answer is handed to the renderer; a test's hook into the stream. */
let beforeAnswer: ((req: { id: string; from?: number; filter?: RowFilter }) => void | Promise<void>) | undefined;

// What the preload exposes, over the same dispatch (and contract checks) the app uses.
const sift = new Proxy({} as SiftApi, {
  get: (_t, method: string) => async (req?: unknown) => {
    if (method === 'jobDetail') beforeCall?.(req as { id: string; from?: number });
    const env = await dispatch(services.handlers, method, req ?? {}, { checkResponses: true });
    if (!env.ok) throw Object.assign(new Error(env.error.message), env.error);
    if (method === 'jobDetail') {
      const r = req as { id: string; from?: number; limit?: number; filter?: RowFilter };
      calls.push({ req: r, rows: (env.value as { targets: TargetRow[] }).targets.length });
      await beforeAnswer?.(r);
    }
    return env.value;
  },
});

beforeAll(() => {
  const t = tempDir('sift-paging-');
  remove = t.remove;
  services = createServices({
    dbPath: path.join(t.dir, 'sift.db'),
    host: 'bridge',
    logFiles: [],
    emit: () => {},
    dialogs: { openFile: async () => null, chooseFolder: async () => null, saveFile: async () => null },
  });
  big = bigFinishedJob(services.store, N);
  small = bigFinishedJob(services.store, 40, { id: 'small00000000040' });
  (globalThis as unknown as { window: Pick<Window, 'sift'> }).window = { sift };
});

afterAll(async () => {
  await services.close();
  remove();
});

// Imported after window exists: the actions read window.sift when called.
const load = async () => ({ ...(await import('../../src/renderer/src/store/actions')), ...(await import('../../src/renderer/src/store/detail')), store: (await import('../../src/renderer/src/store')).useStore });

describe('opening a big job', () => {
  test('the first page is small and counted against the job; every row is in after the pages that follow, as the store holds them', async () => {
    const { openJob, store, rowsComplete, reasonCounts, warningCounts } = await load();
    calls.length = 0;
    let atFirstPage: { rows: number; total: number } | undefined;
    beforeAnswer = (req) => {
      // The state the table drew from when the second page was asked for: the first page alone.
      if (req.from === FIRST_ROWS) atFirstPage ??= { rows: store.getState().rows.length, total: store.getState().rowsTotal };
    };
    await openJob(big.id);
    beforeAnswer = undefined;
    // Before: one answer of every row (21 MB of JSON for 100,000), the table blank until then.
    expect(calls[0]).toEqual({ req: { id: big.id, limit: FIRST_ROWS }, rows: FIRST_ROWS });
    expect(atFirstPage).toEqual({ rows: FIRST_ROWS, total: N });
    expect(calls.slice(1).map((c) => c.req.from)).toEqual(Array.from({ length: Math.ceil((N - FIRST_ROWS) / ROWS_PER_PAGE) }, (_, i) => FIRST_ROWS + i * ROWS_PER_PAGE));
    const s = store.getState();
    expect(rowsComplete(s)).toBe(true);
    expect(s.rows).toEqual(services.store.targetRows(big.id));
    expect(reasonCounts(s.rows)).toEqual([
      ['upstream', big.reasons.upstream],
      ['timeout', big.reasons.timeout],
    ]);
    expect(warningCounts(s.rows)).toEqual([['thin', big.thin]]);
  });

  test("the reason and warning chips and the filter's count are the job's from the first page on, with a filter chosen before any row came", async () => {
    const { openJob, store, jobReasonCounts, jobWarningCounts, restShown, shownIndices } = await load();
    const counted = () => {
      const s = store.getState();
      return { reasons: jobReasonCounts(s), warnings: jobWarningCounts(s), filtered: (shownIndices(s)?.length ?? 0) + restShown(s), rows: s.rows.length };
    };
    const job = { reasons: [['upstream', big.reasons.upstream], ['timeout', big.reasons.timeout]], warnings: [['thin', big.thin]], filtered: big.reasons.timeout };
    let atFirstPage: ReturnType<typeof counted> | undefined;
    beforeAnswer = (req) => {
      // The user picks "Failed, timed out" while the table still reads "Loading targets…".
      if (req.from === undefined) store.getState().setFilter({ status: 'failed', reason: 'timeout' });
      if (req.from === FIRST_ROWS) atFirstPage ??= counted();
    };
    await openJob(big.id);
    beforeAnswer = undefined;
    // Before: no chips, and "37 of 12,345, counting…", until the last page was in.
    expect(atFirstPage).toEqual({ ...job, rows: FIRST_ROWS });
    expect(counted()).toEqual({ ...job, rows: N });
    expect(store.getState().filterReason).toBe('timeout');
  });

  test("a filter's matches in rows not read yet are listed at once, read from the store, while the pages are still held; then the pages take them over", async () => {
    const { openJob, readMatches, store, shownIndices, shownRead, restShown } = await load();
    const timeouts = services.store.targetRows(big.id).filter((r) => r.reason === 'timeout');
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    let listedWhileHeld: { shown: number[] | null; rows: number; matching: number; ahead: number } | undefined;
    beforeAnswer = async (req) => {
      if (req.id !== big.id || req.filter || req.from !== FIRST_ROWS) return;
      try {
        // The second page waits: the filter is chosen with the first page alone read.
        store.getState().setFilter({ status: 'failed', reason: 'timeout' });
        // What the app's followFilter starts at the change, awaited here.
        await readMatches();
      } finally {
        const s = store.getState();
        const shown = shownIndices(s);
        listedWhileHeld = { shown, rows: s.rows.length, matching: shownRead(shown ?? [], s.rows.length) + restShown(s), ahead: s.ahead.size };
        release();
      }
    };
    const opened = openJob(big.id);
    await held;
    await opened;
    beforeAnswer = undefined;
    // Before: only the matches among the 500 rows read (17 of 412), the rest when their pages came.
    expect(listedWhileHeld).toEqual({ shown: timeouts.map((r) => r.idx), rows: FIRST_ROWS, matching: timeouts.length, ahead: timeouts.length - shownRead(timeouts.map((r) => r.idx), FIRST_ROWS) });
    expect(calls.find((c) => c.req.filter)?.req).toEqual({ id: big.id, from: FIRST_ROWS, limit: ROWS_PER_PAGE, filter: { status: 'failed', reason: 'timeout', warning: '' } });
    const s = store.getState();
    expect(s.rows).toEqual(services.store.targetRows(big.id));
    expect(s.ahead.size).toBe(0);
    expect(shownIndices(s)).toEqual(timeouts.map((r) => r.idx));
  });

  test('a target of a running job that fails while the pages come is counted once, in the counts of the rows to come, then in its row', async () => {
    const { openJob, store, jobReasonCounts, reasonCounts } = await load();
    const live = bigFinishedJob(services.store, N, { id: 'live0000000012345', unfinished: 2 });
    const running = N - 2;
    const timeouts = (): number => jobReasonCounts(store.getState()).find(([r]) => r === 'timeout')?.[1] ?? 0;
    const seen: number[] = [];
    beforeAnswer = (req) => {
      if (req.id !== live.id) return;
      if (req.from !== undefined) seen.push(timeouts());
      if (req.from !== FIRST_ROWS) return;
      // Its first page and its second are read with the target running; it fails now, and its
      // event comes before either answer, as the runner's batched events do.
      expect(services.store.finishTarget(live.id, running, { status: 'failed', error: 'timed out', hint: '', bytes: 0, title: '', errorStatus: 504, reason: 'timeout' }, Date.now(), Date.now() + 3600_000)).toBeDefined();
      store.getState().applyRows(live.id, services.store.targetRowsPage(live.id, running, 1));
    };
    await openJob(live.id);
    beforeAnswer = undefined;
    const before = live.reasons.timeout!;
    // Counted by main from the third page on, and by the row once its page is in: never both.
    expect(seen[0]).toBe(before);
    expect(seen.slice(2)).toEqual(seen.slice(2).map(() => before + 1));
    expect(store.getState().rows[running]?.reason).toBe('timeout');
    expect(timeouts()).toBe(before + 1);
    expect(jobReasonCounts(store.getState())).toEqual(reasonCounts(services.store.targetRows(live.id)));
  });

  test('a target not read yet that fails between two pages moves in the counts at once, by what its event says it was, and is counted once after', async () => {
    const { openJob, store, jobReasonCounts, reasonCounts } = await load();
    const live = bigFinishedJob(services.store, N, { id: 'live0000000012346', unfinished: 2 });
    const running = N - 2;
    const timeouts = (): number => jobReasonCounts(store.getState()).find(([r]) => r === 'timeout')?.[1] ?? 0;
    const before = live.reasons.timeout!;
    let atEvent: number | undefined;
    const third = FIRST_ROWS + ROWS_PER_PAGE;
    const seen: number[] = [];
    beforeCall = (req) => {
      if (req.id !== live.id || req.from === undefined) return;
      seen.push(timeouts());
      if (req.from !== third) return;
      // Between the second answer and the third call: the change is made and its event comes,
      // as main sends it (its row as it was: running).
      services.store.finishTarget(live.id, running, { status: 'failed', error: 'timed out', hint: '', bytes: 0, title: '', errorStatus: 504, reason: 'timeout' }, Date.now(), Date.now() + 3600_000);
      store.getState().applyRows(live.id, services.store.targetRowsPage(live.id, running, 1), [{ status: 'running', error: '', reason: '' }]);
      atEvent = timeouts();
    };
    await openJob(live.id);
    beforeCall = undefined;
    // Before: still `before` here, counted only by the third page's `rest`.
    expect(atEvent).toBe(before + 1);
    expect(seen.slice(2)).toEqual(seen.slice(2).map(() => before + 1));
    expect(timeouts()).toBe(before + 1);
    expect(jobReasonCounts(store.getState())).toEqual(reasonCounts(services.store.targetRows(live.id)));
  });

  test("opening a job bumps its lease once, not at each of its later pages (a write each)", async () => {
    const { openJob } = await load();
    const lease = (): number | undefined => services.store.getJob(big.id)?.leaseExpires;
    const set = 4_000_000_000_000;
    let touched: number | undefined;
    beforeAnswer = (req) => {
      if (req.from !== FIRST_ROWS) return;
      touched = lease();
      services.store.setLease(big.id, set);
    };
    await openJob(big.id);
    beforeAnswer = undefined;
    expect(touched).toBeGreaterThan(Date.now());
    expect(touched).not.toBe(set);
    expect(lease()).toBe(set);
  });

  test('a change to a row not read yet waits for its page, and an older copy in that page does not roll it back', async () => {
    const { openJob, store } = await load();
    const far = N - 3;
    const stored = services.store.targetRows(big.id)[far]!;
    // As a live job's event brings it: newer than the copy the page will read.
    const newer: TargetRow = { ...stored, title: 'Changed live', finishedAt: (stored.finishedAt ?? 0) + 1_000 };
    const older: TargetRow = { ...stored, status: 'running', finishedAt: null };
    beforeAnswer = (req) => {
      if (req.from !== FIRST_ROWS) return;
      store.getState().applyRows(big.id, [newer, older]);
      // Not a hole in the rows: the change is kept until its page is in.
      expect(store.getState().rows.length).toBe(FIRST_ROWS);
      expect(store.getState().pendingRows).toHaveLength(2);
    };
    await openJob(big.id);
    beforeAnswer = undefined;
    expect(store.getState().rows[far]).toEqual(newer);
    expect(store.getState().pendingRows).toEqual([]);
    expect(store.getState().rows.length).toBe(N);
  });

  test('a job opened while the pages of another still come shows its own rows only', async () => {
    const { openJob, store } = await load();
    let second: Promise<void> | undefined;
    beforeAnswer = (req) => {
      if (req.id === big.id && req.from === FIRST_ROWS) second ??= openJob(small.id);
    };
    await openJob(big.id);
    await second;
    beforeAnswer = undefined;
    const s = store.getState();
    expect(s.detailJobId).toBe(small.id);
    expect(s.rows).toEqual(services.store.targetRows(small.id));
    expect(s.rowsTotal).toBe(40);
  });
});
