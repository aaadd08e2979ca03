import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Runner } from '../../src/main/batch';
import { openStore, type Store } from '../../src/main/store';
import type { Job } from '../../src/shared/types';

/** A fresh temp folder; remove() deletes it. */
export function tempDir(prefix = 'sift-store-'): { dir: string; remove(): void } {
  const dir = mkdtempSync(path.join(os.tmpdir(), prefix));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** A real store on a real file in a temp folder; close() closes it and deletes the folder. */
export function tempStore(): { store: Store; path: string; close(): void } {
  const t = tempDir();
  const p = path.join(t.dir, 'sift.db');
  const store = openStore(p);
  return {
    store,
    path: p,
    close: () => {
      store.close();
      t.remove();
    },
  };
}

/** Resolves with the job once the runner reports it terminal. */
export function terminal(runner: Runner, id: string, timeoutMs = 10_000): Promise<Job> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      off();
      reject(new Error(`job ${id} not terminal after ${timeoutMs} ms`));
    }, timeoutMs);
    const settle = (job: Job | undefined): void => {
      if (!job || job.id !== id || job.status === 'queued' || job.status === 'running') return;
      clearTimeout(timer);
      off();
      resolve(job);
    };
    const off = runner.on('job', settle);
    settle(runner.status(id)?.job);
  });
}

/** A fetch function that never answers until its signal aborts (then rejects). */
export function hang(signal: AbortSignal): Promise<never> {
  return new Promise((_resolve, reject) => signal.addEventListener('abort', () => reject(new Error('aborted')), { once: true }));
}

/** Cancels every live job in the store, so close() has no in-flight fetch to wait for. */
export function cancelLive(runner: Runner, store: Store): void {
  for (const j of store.listJobs()) if (j.status === 'running' || j.status === 'queued') runner.cancel(j.id);
}

/** Polls cond every 2 ms until it holds. */
export async function until(cond: () => boolean, timeoutMs = 10_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!cond()) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 2));
  }
}

/** A promise with its resolve function outside. */
export function deferred<T = void>(): { promise: Promise<T>; resolve(v: T): void } {
  let resolve!: (v: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

/** A logger that keeps every line, to assert what was (and was not) logged. */
export function memoryLogger(): { lines: { level: string; obj: object; msg: string }[]; info(o: object, m: string): void; warn(o: object, m: string): void; error(o: object, m: string): void } {
  const lines: { level: string; obj: object; msg: string }[] = [];
  return {
    lines,
    info: (obj, msg) => lines.push({ level: 'info', obj, msg }),
    warn: (obj, msg) => lines.push({ level: 'warn', obj, msg }),
    error: (obj, msg) => lines.push({ level: 'error', obj, msg }),
  };
}
