/**
 * A big job's header counts its rows not read yet from the store's groups (targetGroups):
 * jobs run through the wiring the app runs (batch runner, fetcher, compute workers) against a
 * loopback server, their groups handed to the renderer's detail store with no row read, as
 * main hands them with the first page. The header's chips must say then what they say once
 * every row is read.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createStore } from 'zustand/vanilla';
import type { ServerResponse } from 'node:http';
import path from 'node:path';
import { openStore, type Store } from '../../src/main/store';
import { createFetcher, type Fetcher } from '../../src/main/fetch';
import { BatchMetrics } from '../../src/main/metrics';
import { silentLog } from '../../src/main/log';
import { createBatchRunner } from '../../src/main/batchrun';
import type { Runner } from '../../src/main/batch';
import type { State } from '../../src/renderer/src/store';
import { createDetailSlice, jobReasonCounts, jobStepCounts, type DetailSlice } from '../../src/renderer/src/store/detail';
import { reasonCountLabel } from '../../src/shared/reasons';
import type { Target } from '../../src/shared/types';
import { finished } from '../helpers/runner';
import { startSite, type Site } from '../helpers/sites';
import { tempDir } from '../helpers/store';

let site: Site;
let store: Store;
let fetcher: Fetcher;
let runner: Runner;
let remove: () => void;
beforeAll(async () => {
  site = await startSite({ '/items.json': (_q: unknown, res: ServerResponse) => res.writeHead(200, { 'content-type': 'application/json' }).end('{"items":[{"name":"a"}]}') });
  const t = tempDir('sift-header-steps-');
  remove = t.remove;
  store = openStore(path.join(t.dir, 'sift.db'));
  fetcher = createFetcher({ allowHosts: ['127.0.0.1'], deadlineMs: 60_000 }, { log: silentLog() });
  runner = createBatchRunner(store, fetcher, { jobsPerCaller: 4 }, new BatchMetrics(), silentLog());
});
afterAll(async () => {
  await runner.close();
  await fetcher.close();
  store.close();
  await site.close();
  remove();
});

async function run(targets: Target[]): Promise<string> {
  const { id } = runner.submit({ name: 'header-user' }, 'test', targets);
  await finished(runner, id);
  return id;
}

/** The header's chips with the first `read` rows of the job read (a first page holds one at least) and the rest counted by the store's groups. */
function chips(id: string, read: number): string[] {
  const detail = createStore<DetailSlice>()((set, get, api) => createDetailSlice(set as never, get as () => State, api as never));
  const rows = store.targetRowsPage(id, 0, read);
  detail.getState().beginDetail(id);
  detail.getState().setDetail(id, rows, store.targetRows(id).length, store.targetGroups(id, read));
  const steps = jobStepCounts(detail.getState());
  return jobReasonCounts(detail.getState()).map(([reason, n]) => `${reasonCountLabel(reason, n, steps)} ${n}`);
}

describe("a big job's header before its rows are read", () => {
  test('says "jq program failed" of jq failures at once, as it does once every row is read', async () => {
    const jq = (n: number): Target => ({ url: `${site.base}/items.json?${n}`, options: { jq: '.items.name' } });
    const id = await run([jq(0), jq(1), jq(2), { url: `${site.base}/missing/1` }]);
    const whole = chips(id, 4);
    expect(whole).toEqual(['jq program failed 3', 'HTTP error 1']);
    // It said "bad URL, option or program 3" until the rows were read.
    expect(chips(id, 1)).toEqual(whole);
  });

  test('says the words that cover both of a jq failure and a refused grep expression, read or not', async () => {
    const id = await run([
      { url: `${site.base}/items.json?a`, options: { jq: '.items.name' } },
      { url: `${site.base}/text`, options: { grep: '(?<=a' } },
      { url: `${site.base}/text?b`, options: { grep: '(?<=a' } },
    ]);
    const rows = store.targetRows(id);
    expect(rows.map((r) => r.error.split(' ')[0])).toEqual(['jq:', 'invalid', 'invalid']);
    expect(chips(id, 3)).toEqual(['bad URL, option or program 3']);
    expect(chips(id, 1)).toEqual(['bad URL, option or program 3']);
  });
});
