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
import type { TargetRow } from '../../src/shared/types';
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
const calls: { req: { id: string; from?: number; limit?: number }; rows: number }[] = [];
/** Runs once before a jobDetail answer is handed to the renderer; a test's hook into the stream. */
let beforeAnswer: ((req: { id: string; from?: number }) => void | Promise<void>) | undefined;

// What the preload exposes, over the same dispatch (and contract checks) the app uses.
const sift = new Proxy({} as SiftApi, {
  get: (_t, method: string) => async (req?: unknown) => {
    const env = await dispatch(services.handlers, method, req ?? {}, { checkResponses: true });
    if (!env.ok) throw Object.assign(new Error(env.error.message), env.error);
    if (method === 'jobDetail') {
      const r = req as { id: string; from?: number; limit?: number };
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
