/**
 * A Sift stand-in for the multi-process tests: `node --import tsx store-child.ts DB MODE`.
 *   crash: drains jobs forever with an instant-ish fetch; prints `done JOB IDX` after each
 *          target's outcome is committed, so the parent knows what must survive a SIGKILL.
 *   hold:  owns the database with one job whose second target never finishes; prints
 *          `ready JOB` once the first target is stored done and the second running, then
 *          waits to be killed.
 *   hold-marked: hold, marked as a Sift that answers requests (control-owner.ts) without
 *          answering them: an owner killed before it could, whose readers have asked.
 */
import { writeSync } from 'node:fs';
import { Runner, type FetchFunc } from '../../src/main/batch';
import { openStore } from '../../src/main/store';
import { markAnswering } from '../../src/main/control-owner';
import type { Target } from '../../src/shared/types';

const [dbPath, mode] = process.argv.slice(2);
if (!dbPath || (mode !== 'crash' && mode !== 'hold' && mode !== 'hold-marked')) {
  process.stderr.write('usage: store-child.ts DB crash|hold|hold-marked\n');
  process.exit(2);
}
const say = (line: string): void => {
  writeSync(1, `${line}\n`);
};

const store = openStore(dbPath);
store.markInFlightFailed('restart', Date.now());

export const contentOf = (t: Target): string => `content of ${t.url}`;

if (mode === 'hold-marked') markAnswering(dbPath);
if (mode === 'hold' || mode === 'hold-marked') {
  const fetch: FetchFunc = (signal, _c, t) =>
    t.url.endsWith('/0') ? Promise.resolve({ content: contentOf(t) }) : new Promise((_r, reject) => signal.addEventListener('abort', reject));
  const runner = new Runner(store, fetch);
  const { id } = runner.submit({ name: 'holder' }, 'user', [{ url: 'https://x.test/0' }, { url: 'https://x.test/1' }]);
  runner.on('target', (jobId, row) => {
    // Ready once the second target is stored running (the first is done by then): announced at
    // the first one's done, a kill on a busy machine could land before the second started.
    if (jobId === id && row.idx === 1 && row.status === 'running') say(`ready ${id}`);
  });
  setInterval(() => {}, 60_000);
} else {
  // 0–2 ms per fetch: fast enough that a kill lands at every point of a target's life.
  const fetch: FetchFunc = (_s, _c, t) =>
    new Promise((resolve) => setTimeout(() => resolve({ content: contentOf(t), meta: { title: t.url } }), Math.floor(Math.random() * 3)));
  const runner = new Runner(store, fetch, { jobsPerCaller: 4, jobsTotal: 8, workers: 4, targetsPerJob: 40 });
  let seq = 0;
  const submit = (): void => {
    const n = seq++;
    const targets = Array.from({ length: 25 }, (_, i) => ({ url: `https://x.test/${n}/${i}` }));
    const { id } = runner.submit({ name: `caller${n % 2}` }, 'user', targets);
    say(`job ${id}`);
  };
  runner.on('target', (jobId, row) => {
    if (row.status === 'done' || row.status === 'failed') say(`done ${jobId} ${row.idx} ${row.url}`);
  });
  runner.on('job', (job) => {
    if (job.status !== 'running' && job.status !== 'queued') submit();
  });
  for (let i = 0; i < 6; i++) submit();
  say('ready');
}
