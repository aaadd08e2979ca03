/**
 * `recover` through the app's wiring (fetcher, batch runner, SQLite store) against a loopback
 * Wayback Machine: what the job's rows hold when a target comes back from an archived copy,
 * and when the user cancels while the archive is being asked.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { ServerResponse } from 'node:http';
import { openStore, type Store } from '../../src/main/store';
import { createFetcher, type Fetcher } from '../../src/main/fetch';
import { BatchMetrics } from '../../src/main/metrics';
import { silentLog } from '../../src/main/log';
import { createBatchRunner } from '../../src/main/batchrun';
import type { Runner } from '../../src/main/batch';
import { finished } from '../helpers/runner';
import { fixedResolver, startServer, type TestServer } from '../helpers/fetch-server';
import { startFakeWayback, type FakeWayback } from '../helpers/fake-wayback';

const ARTICLE = `<!doctype html><html lang="en"><head><title>Harbour lights</title></head><body>
<article><h1>Harbour lights</h1>
<p>${'The old lighthouse keeper climbed the stairs every evening to light the lamp above the harbour. '.repeat(5)}</p>
<p>${'Ships coming home in the fog counted the flashes to know which harbour they had found. '.repeat(5)}</p>
</article></body></html>`;

let site: TestServer;
let wb: FakeWayback;
let store: Store;
let fetcher: Fetcher;
let runner: Runner;
const logged: Record<string, unknown>[] = [];

beforeAll(async () => {
  site = await startServer();
  wb = await startFakeWayback();
  store = openStore(path.join(mkdtempSync(path.join(os.tmpdir(), 'sift-recover-batch-')), 'sift.db'));
  fetcher = createFetcher({ allowPrivate: true, archiveService: wb.service }, { lookup: fixedResolver({}), log: (l) => logged.push(l) });
  runner = createBatchRunner(store, fetcher, { jobsPerCaller: 4 }, new BatchMetrics(), silentLog());
});
afterAll(async () => {
  await runner.close();
  await fetcher.close();
  store.close();
  await wb.close();
  await site.close();
});

describe('recover in a batch', () => {
  test("a recovered target's row says it is an archived copy, where the table, the summary and the export read it", async () => {
    wb.captures.set(`${site.origin}/row-lost`, [{ timestamp: '20230102030405', body: ARTICLE }]);
    const { id } = runner.submit({ name: 'rows' }, 'rows', [{ url: `${site.origin}/row-lost`, options: { recover: true } }, { url: `${site.origin}/row-missing` }]);
    await finished(runner, id);
    const rows = store.targetRows(id);
    expect(rows[0]).toMatchObject({ status: 'done', warnings: ['recovered'] });
    // A target fetched without recover is not marked.
    expect(rows[1]).toMatchObject({ status: 'failed', errorStatus: 404 });
    expect(rows[1]?.warnings).toBeUndefined();
  });

  test('a cancel while the archive is being asked stores the target as cancelled, not as a failure of the site or of Sift', async () => {
    let held: ServerResponse | undefined;
    const asked = new Promise<void>((resolve) => {
      wb.available = (_req, res) => {
        held = res;
        resolve();
        return true;
      };
    });
    try {
      const { id } = runner.submit({ name: 'cancel' }, 'cancel', [{ url: `${site.origin}/cancel-lost`, options: { recover: true } }]);
      await asked;
      // The job ends at the cancel; its target in flight is stored when its fetch stops.
      const stored = new Promise<void>((resolve) => {
        const off = runner.on('target', (jobId, row) => {
          if (jobId === id && row.status !== 'running' && row.status !== 'pending') {
            off();
            resolve();
          }
        });
      });
      runner.cancel(id);
      expect((await finished(runner, id)).status).toBe('cancelled');
      await stored;
      const [row] = store.targetRows(id);
      expect(row).toMatchObject({ status: 'failed', error: 'cancelled', reason: 'cancelled' });
      expect(logged.filter((l) => l.caller === 'cancel').map((l) => l.outcome)).toEqual(['cancelled']);
    } finally {
      wb.available = undefined;
      held?.end();
    }
  });
});
