import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Runner } from '../../src/main/batch';
import { createBatchRunner } from '../../src/main/batchrun';
import { createFetcher } from '../../src/main/fetch';
import { silentLog } from '../../src/main/log';
import { BatchMetrics } from '../../src/main/metrics';
import { openStore } from '../../src/main/store';
import { isTerminal, type Job } from '../../src/shared/types';

/**
 * The job once it has ended (a terminal status): at once if it already has, else at the
 * runner's job event, not by polling its status.
 */
export function finished(runner: Runner, id: string): Promise<Job> {
  return new Promise((resolve) => {
    const now = runner.status(id)?.job;
    if (now && isTerminal(now.status)) return resolve(now);
    const off = runner.on('job', (j) => {
      if (j.id === id && isTerminal(j.status)) {
        off();
        resolve(j);
      }
    });
  });
}

/** The runner wired to the real fetcher (loopback only) and a store in a temp dir named from `prefix`, as the app wires them; all closed after `use`. */
export async function withLoopbackRig(prefix: string, use: (runner: Runner, store: ReturnType<typeof openStore>) => Promise<void>): Promise<void> {
  const store = openStore(path.join(mkdtempSync(path.join(os.tmpdir(), prefix)), 'sift.db'));
  const fetcher = createFetcher({ allowHosts: ['127.0.0.1'] }, { lookup: async () => [{ address: '127.0.0.1', family: 4 as const }], log: silentLog() });
  const runner = createBatchRunner(store, fetcher, {}, new BatchMetrics(), silentLog());
  try {
    await use(runner, store);
  } finally {
    await runner.close();
    await fetcher.close();
    store.close();
  }
}
