/**
 * Targets per second through the Runner with an instant fetch function, against a bare loop
 * doing the same SQL writes (insert the job and its targets, then per target: pending →
 * running, running → done with the job's count and lease) on the same kind of database.
 */
import path from 'node:path';
import { Runner } from '../src/main/batch';
import { openStore, type Store } from '../src/main/store';
import { tempDir, terminal } from '../test/helpers/store';

const TARGETS = 2_000;
const ROUNDS = 3;
const CONTENT = 'x'.repeat(2_000);
const TTL = 24 * 60 * 60 * 1000;

const targets = (round: number, kind: string) => Array.from({ length: TARGETS }, (_, i) => ({ url: `https://bench.test/${kind}/${round}/${i}` }));

function bareLoop(store: Store, round: number): number {
  const t0 = performance.now();
  const id = `bare-${round}`;
  const now = Date.now();
  store.insertJob({ id, caller: 'bench', callerClass: 'user', idemKey: id, targetsTotal: TARGETS, nowMs: now, leaseExpires: now + TTL }, targets(round, 'bare'));
  store.transition(id, 'queued', 'running', '', now);
  for (let i = 0; i < TARGETS; i++) {
    store.startTarget(id, i, Date.now());
    const t = Date.now();
    store.finishTarget(id, i, { status: 'done', result: { content: CONTENT }, error: '', hint: '', bytes: CONTENT.length, title: '', errorStatus: 0 }, t, t + TTL);
  }
  store.transition(id, 'running', 'done', '', Date.now());
  return performance.now() - t0;
}

async function throughRunner(store: Store, round: number): Promise<number> {
  const runner = new Runner(store, async () => ({ content: CONTENT }), { targetsPerJob: TARGETS, jobsPerCaller: 100, jobsTotal: 100 });
  const t0 = performance.now();
  const { id } = runner.submit({ name: 'bench' }, 'user', targets(round, 'runner'));
  await terminal(runner, id, 600_000);
  const ms = performance.now() - t0;
  await runner.close();
  return ms;
}

export default async function bench(): Promise<void> {
  const t = tempDir('sift-bench-');
  const store = openStore(path.join(t.dir, 'bench.db'));
  try {
    let bare = Infinity;
    let run = Infinity;
    // Interleaved and best-of: the disk's fsync time drifts more than either loop's cost.
    for (let r = 0; r < ROUNDS; r++) {
      bare = Math.min(bare, bareLoop(store, r));
      run = Math.min(run, await throughRunner(store, r));
    }
    const perS = (ms: number): number => (TARGETS / ms) * 1000;
    const overheadUs = ((run - bare) / TARGETS) * 1000;
    process.stdout.write(
      [
        `targets per round: ${TARGETS} (content ${CONTENT.length} B, each outcome committed to the WAL and synced in the background, best of ${ROUNDS})`,
        `bare loop: ${perS(bare).toFixed(0)} targets/s (${((bare / TARGETS) * 1000).toFixed(1)} us/target)`,
        `runner:    ${perS(run).toFixed(0)} targets/s (${((run / TARGETS) * 1000).toFixed(1)} us/target)`,
        `ratio runner/bare: ${(bare / run).toFixed(2)} (aim >= 0.5)`,
        `runner overhead: ${overheadUs.toFixed(1)} us/target (not profiled: the slot and fetch promise hops between the two commits, the byte count, the job event, the hook calls)`,
        '',
      ].join('\n'),
    );
  } finally {
    store.close();
    t.remove();
  }
}
