import { describe, expect, test } from 'vitest';
import { createStore } from 'zustand/vanilla';
import type { TargetRow } from '../../src/shared/types';
import type { State } from '../../src/renderer/src/store';
import { createDetailSlice, reasonCounts, shownIndices, shownPositions, warningCounts, type DetailSlice } from '../../src/renderer/src/store/detail';

const detailStore = () => createStore<DetailSlice>()((set, get, api) => createDetailSlice(set as never, get as () => State, api as never));

/** Reads of any row's status, the first thing every count and the filter look at: the work done over the rows. */
let reads = 0;
function counted(r: TargetRow): TargetRow {
  const { status, ...rest } = r;
  return Object.defineProperty({ ...rest }, 'status', { enumerable: true, get: () => (reads++, status) }) as TargetRow;
}
const target = (idx: number, status: TargetRow['status'], extra: Partial<TargetRow> = {}): TargetRow =>
  counted({ idx, url: `https://example.org/${idx}`, status, error: '', hint: '', bytes: 0, errorStatus: 0, title: '', startedAt: 1, finishedAt: status === 'pending' ? null : 2, ...extra });

/** What the table and the reason summary select at each store change. */
const selectAll = (s: DetailSlice): string =>
  [reasonCounts(s.rows).join(';'), warningCounts(s.rows).join(';'), (shownIndices(s) ?? []).length].join('|');

// A live job of 10,000 targets, a fifth of them failed with an HTTP error, some ok but thin.
const N = 10_000;
const job = (): TargetRow[] =>
  Array.from({ length: N }, (_, i) =>
    i % 5 === 0 ? target(i, 'failed', { reason: 'upstream', error: 'HTTP 404' }) : i % 7 === 0 ? target(i, 'done', { warnings: ['thin'] }) : target(i, 'pending'),
  );

describe('counts over the rows of a big job', () => {
  test('a store change that leaves the rows alone reads no row again', () => {
    const store = detailStore();
    store.getState().beginDetail('j');
    store.getState().setDetail('j', job(), N);
    store.getState().setFilter({ status: 'failed' });
    const first = selectAll(store.getState());
    expect(first).toBe(`upstream,${N / 5}|thin,${Math.floor(N / 7) - Math.floor(N / 35)}|${N / 5}`);
    reads = 0;
    for (let i = 0; i < 50; i++) {
      store.getState().selectRow(i);
      store.getState().setResultLoading(i % 2 === 0);
      expect(selectAll(store.getState())).toBe(first);
    }
    expect(reads).toBe(0);
  });

  test("a live target's change costs the rows it changes, not the job's 10,000", () => {
    const store = detailStore();
    store.getState().beginDetail('j');
    store.getState().setDetail('j', job(), N);
    selectAll(store.getState());
    // 100 events of one target each, as a live job sends them: one fails, one ends thin.
    reads = 0;
    for (let i = 1; i <= 100; i++) {
      const idx = i * 5 + 1;
      store.getState().applyRows('j', [i % 2 ? target(idx, 'failed', { reason: 'timeout', error: 'timed out' }) : target(idx, 'done', { warnings: ['thin'] })]);
      selectAll(store.getState());
    }
    // A pass over the rows per event was 100 × 10,000 reads; the changed rows alone are a few per event.
    expect(reads).toBeLessThan(100 * 20);
    const s = store.getState();
    expect(Object.fromEntries(reasonCounts(s.rows))).toEqual({ upstream: N / 5, timeout: 50 });
    // The counts kept along agree with counting the rows afresh.
    expect(reasonCounts([...s.rows])).toEqual(reasonCounts(s.rows));
    expect(warningCounts([...s.rows])).toEqual(warningCounts(s.rows));
  });

  test('a page read after the first adds its own rows to the counts', () => {
    const store = detailStore();
    const rows = job();
    store.getState().beginDetail('j');
    store.getState().setDetail('j', rows.slice(0, 500), N);
    selectAll(store.getState());
    reads = 0;
    store.getState().addRows('j', rows.slice(500, 5500));
    selectAll(store.getState());
    // Each new row is read a few times (the reasons, the warnings); the 500 before it are not read again.
    expect(reads).toBeLessThan(5000 * 4);
    store.getState().addRows('j', rows.slice(5500));
    expect(reasonCounts(store.getState().rows)).toEqual(reasonCounts([...store.getState().rows]));
  });

  test("a key press in a filtered table finds the selected row's place without a walk of the rows shown", () => {
    const store = detailStore();
    store.getState().beginDetail('j');
    store.getState().setDetail('j', job(), N);
    store.getState().setFilter({ status: 'failed' });
    const shown = shownIndices(store.getState())!;
    const positions = shownPositions(shown);
    expect(positions.get(N - 5)).toBe(N / 5 - 1);
    expect(positions.get(1)).toBeUndefined();
    // The same list gives the same index: a key press builds nothing.
    expect(shownPositions(shown)).toBe(positions);
    // Unfiltered, the table shows every row in its place.
    store.getState().setFilter({ status: 'all' });
    expect(shownIndices(store.getState())).toBeNull();
  });
});
