/**
 * A filter's matching rows read straight from the store (keyset paging by filter), on a real
 * SQLite file: the same rows the renderer's rowMatches keeps of every row, for every status,
 * reason and warning the table offers, page by page.
 */
import Database from 'better-sqlite3';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { openStore, type Store } from '../../src/main/store';
import { matchingRows } from '../../src/main/store/targets';
import { rowMatches } from '../../src/renderer/src/store/detail';
import { REASONS } from '../../src/shared/reasons';
import type { RowFilter, TargetState } from '../../src/shared/types';
import { bigFinishedJob } from '../helpers/big-job';
import { tempDir } from '../helpers/store';

const N = 600;
const ID = 'filter0000000600';
let store: Store;
let file: string;
let remove: () => void;

beforeAll(() => {
  const t = tempDir('sift-filter-');
  remove = t.remove;
  file = path.join(t.dir, 'sift.db');
  const first = openStore(file);
  // The last 100 left unfinished: the first of them running when the process died.
  bigFinishedJob(first, N, { id: ID, unfinished: 100 });
  first.close();
  store = openStore(file);
  // As the app's start-up leaves them: the running one cut short ('restart'), the rest pending.
  store.markInFlightFailed('restart', Date.now());
  // A live job beside it, with a target running, and a done one with two warnings.
  store.insertJob({ id: 'live000000000003', caller: 'a', callerClass: 'u', idemKey: 'k', targetsTotal: 3, nowMs: 1, leaseExpires: 9e15 }, [{ url: 'https://x.test/0' }, { url: 'https://x.test/1' }, { url: 'https://x.test/2' }]);
  store.transition('live000000000003', 'queued', 'running', '', 1);
  store.startTarget('live000000000003', 0, 2);
  store.finishTarget('live000000000003', 0, { status: 'done', result: { content: 'a', meta: { warnings: ['thin', 'no_text'] } }, error: '', hint: '', bytes: 1, title: '', errorStatus: 0 }, 3, 9e15);
  store.startTarget('live000000000003', 1, 4);
});

afterAll(() => {
  store.close();
  remove();
});

const STATUSES: (TargetState | 'all')[] = ['all', 'pending', 'running', 'done', 'failed'];
const FILTERS: RowFilter[] = [
  ...STATUSES.map((status) => ({ status, reason: '' as const, warning: '' })),
  ...(['timeout', 'upstream', 'restart', 'blocked'] as const).map((reason) => ({ status: 'failed' as const, reason, warning: '' })),
  { status: 'all', reason: 'restart', warning: '' },
  { status: 'pending', reason: 'restart', warning: '' },
  ...['thin', 'no_text', 'thi'].map((warning) => ({ status: 'done' as const, reason: '' as const, warning })),
];

/** Every row the filter shows, read `limit` at a time, each page from the idx after the last. */
function pagedMatches(jobId: string, f: RowFilter, limit: number): number[] {
  const out: number[] = [];
  for (let from = 0; ; ) {
    const page = store.targetRowsMatching(jobId, f, from, limit);
    out.push(...page.map((r) => r.idx));
    if (page.length < limit) return out;
    from = page.at(-1)!.idx + 1;
  }
}

describe("a filter's rows from the store", () => {
  test('are the rows rowMatches keeps, for every status, reason and warning, paged or whole', () => {
    expect(REASONS).toContain('restart');
    for (const jobId of [ID, 'live000000000003']) {
      const every = store.targetRows(jobId);
      for (const f of FILTERS) {
        const want = every.filter((r) => rowMatches(r, f.status, f.reason, f.warning));
        expect(store.targetRowsMatching(jobId, f, 0, -1), `${jobId} ${JSON.stringify(f)}`).toEqual(want);
        expect(pagedMatches(jobId, f, 7), `${jobId} ${JSON.stringify(f)} paged`).toEqual(want.map((r) => r.idx));
      }
    }
    // Something of each kind is there to be matched.
    const counts = FILTERS.slice(0, 5).map((f) => store.targetRowsMatching(ID, f, 0, -1).length);
    expect(counts).toEqual([N, 99 + 1, 0, expect.any(Number), expect.any(Number)]);
    expect(store.targetRowsMatching('live000000000003', { status: 'done', reason: '', warning: 'no_text' }, 0, -1)).toHaveLength(1);
    expect(store.targetRowsMatching('live000000000003', { status: 'running', reason: '', warning: '' }, 0, -1).map((r) => r.idx)).toEqual([1]);
  });

  test('starts where asked: the matches from idx `from` on, none before', () => {
    const f: RowFilter = { status: 'failed', reason: 'timeout', warning: '' };
    const from = 301;
    expect(store.targetRowsMatching(ID, f, from, 3).map((r) => r.idx)).toEqual([309, 339, 369]);
  });

  test('reads the rows from their own index, never the table whose pages hold the results', () => {
    store.close();
    const raw = new Database(file, { readonly: true });
    const plan = (raw.prepare(`EXPLAIN QUERY PLAN ${matchingRows()}`).all({ job: ID, from: 0, limit: 10, status: 'failed', reason: 'timeout', warning: '' }) as { detail: string }[]).map((r) => r.detail);
    raw.close();
    store = openStore(file);
    expect(plan).toEqual(['SEARCH targets USING COVERING INDEX targets_rows (job_id=? AND idx>?)']);
  });
});
