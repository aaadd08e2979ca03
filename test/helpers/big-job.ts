import path from 'node:path';
import { openStore, type Store } from '../../src/main/store';
import type { Reason } from '../../src/shared/reasons';
import { tempDir } from './store';

/** What a big finished job holds, as built by bigFinishedJob: the figures the UI must count. */
export interface BigJob {
  id: string;
  total: number;
  failed: number;
  /** Failed targets per reason. */
  reasons: Partial<Record<Reason, number>>;
  thin: number;
}

// Every 10th target failed (a 404, or every 30th a timeout) and every 7th done one is thin:
// enough of each for the filters to have something to count at every size.
const failureOf = (i: number): { reason: Reason; status: number; error: string } | undefined =>
  i % 30 === 9 ? { reason: 'timeout', status: 504, error: 'timed out' } : i % 10 === 9 ? { reason: 'upstream', status: 404, error: 'HTTP 404 Not Found' } : undefined;

/**
 * A finished job of `n` targets written straight into the store, in one transaction, as a
 * batch leaves it: results of about `resultBytes` each, some failed, some thin. Writing it
 * through the runner would fetch n pages; the rows are what opening the job reads. With
 * `unfinished`, its last targets are left as a running job leaves them: the first of them
 * running, the rest pending, and the job running (the counts are of the finished ones).
 */
export function bigFinishedJob(store: Store, n: number, o: { id?: string; resultBytes?: number; unfinished?: number } = {}): BigJob {
  const finished = n - (o.unfinished ?? 0);
  const id = o.id ?? `big${String(n).padStart(13, '0')}`;
  const filler = 'x'.repeat(Math.max(0, (o.resultBytes ?? 0) - 40));
  const now = Date.now();
  const lease = now + 24 * 3600_000;
  const job: BigJob = { id, total: n, failed: 0, reasons: {}, thin: 0 };
  store.immediate(() => {
    store.insertJob({ id, caller: 'desktop', callerClass: 'desktop/batch', idemKey: id, targetsTotal: n, nowMs: now, leaseExpires: lease }, Array.from({ length: n }, (_, i) => ({ url: `https://example.test/page/${i}` })));
    store.transition(id, 'queued', 'running', '', now);
    for (let i = 0; i < n; i++) {
      store.startTarget(id, i, now);
      if (i === finished) break;
      const f = failureOf(i);
      if (f) {
        job.failed++;
        job.reasons[f.reason] = (job.reasons[f.reason] ?? 0) + 1;
        store.finishTarget(id, i, { status: 'failed', error: f.error, hint: 'Check the address.', bytes: 0, title: '', errorStatus: f.status, reason: f.reason }, now + 1, lease);
        continue;
      }
      const thin = i % 7 === 0;
      if (thin) job.thin++;
      const content = `# Page ${i}\n\n${filler}`;
      store.finishTarget(id, i, { status: 'done', result: { content, meta: { title: `Page ${i}`, ...(thin ? { warnings: ['thin'] } : {}) } }, error: '', hint: '', bytes: content.length, title: `Page ${i}`, errorStatus: 0 }, now + 2, lease);
    }
    if (finished === n) store.transition(id, 'running', 'partial', '', now + 3);
  });
  return job;
}

/** A sift home in a temp folder whose database holds one big finished job, for the CLI's tests as a child process. */
export interface JobOnDisk {
  t: { dir: string; remove(): void };
  db: string;
  /** SIFT_HOME and HOME in the temp folder, colour off: the child's environment. */
  env: NodeJS.ProcessEnv;
  id: string;
  /** What the job holds: the figures the UI must count. */
  job: BigJob;
}

export type BigJobOptions = Parameters<typeof bigFinishedJob>[2];

/** bigFinishedJob written to `sift.db` in a new temp folder named from `prefix`, the store closed again. */
export function finishedJobOnDisk(prefix: string, n: number, o: BigJobOptions = {}): JobOnDisk {
  const t = tempDir(prefix);
  const db = path.join(t.dir, 'sift.db');
  const store = openStore(db);
  try {
    const job = bigFinishedJob(store, n, o);
    return { t, db, env: { SIFT_HOME: t.dir, HOME: t.dir, NO_COLOR: '1' }, id: job.id, job };
  } finally {
    store.close();
  }
}

/**
 * `n` one-target jobs written straight into the database at `dbPath`, the oldest first, as a
 * script running `sift batch` in a loop leaves them: more jobs than a list shows at once. Their IDs.
 */
export function manyJobs(dbPath: string, n: number): string[] {
  const store = openStore(dbPath);
  const now = Date.now();
  const ids = Array.from({ length: n }, (_, i) => `job${String(i).padStart(13, '0')}`);
  store.immediate(() => {
    ids.forEach((id, i) => {
      store.insertJob({ id, caller: 'cli', callerClass: 'cli', idemKey: id, targetsTotal: 1, nowMs: now - n + i, leaseExpires: now + 24 * 3600_000 }, [{ url: `https://example.test/${i}` }]);
    });
  });
  store.close();
  return ids;
}
