/**
 * A limited task's time counts from when its own work begins (the worker's started message),
 * not while its thread starts and loads what it needs: a jq program given 1 s was stopped
 * before it had run, on a machine where loading jq's WebAssembly took longer than that.
 * The clock is faked, so nothing here waits for time.
 */
import path from 'node:path';
import { afterEach, expect, test, vi } from 'vitest';
import { WorkerPool } from '../../src/main/fetch/worker-slot';

const script = path.join(__dirname, '../fixtures/workers/held-task.mjs');
let pool: WorkerPool | undefined;

afterEach(async () => {
  vi.useRealTimers();
  await pool?.close();
});

test('a task held before its work begins is not charged for the wait, and its answer comes', async () => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
  pool = new WorkerPool(script, 1);
  const gate = new SharedArrayBuffer(8);
  const cells = new Int32Array(gate);
  const reply = pool.run<{ answer: number }>({ gate }, new AbortController().signal, 1000);
  const settled = reply.then(
    (r) => r,
    (err: unknown) => err,
  );
  // The worker is at its gate: ten limits' worth of time pass there.
  await vi.waitFor(() => expect(Atomics.load(cells, 1)).toBe(1), { timeout: 60_000, interval: 20 });
  vi.advanceTimersByTime(10_000);
  Atomics.store(cells, 0, 1);
  Atomics.notify(cells, 0);
  expect(await settled).toMatchObject({ answer: 42 });
});

test('a task that runs past its limit once started is stopped with a TimeoutError', async () => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
  pool = new WorkerPool(path.join(__dirname, '../fixtures/workers/endless-task.mjs'), 1);
  const reply = pool.run({}, new AbortController().signal, 1000).then(
    () => 'answered',
    (err: unknown) => err,
  );
  // Started: the endless task says so, and the clock is then running.
  await vi.waitFor(() => expect(vi.getTimerCount()).toBe(1), { timeout: 60_000, interval: 20 });
  vi.advanceTimersByTime(1000);
  expect(await reply).toMatchObject({ name: 'TimeoutError' });
});
