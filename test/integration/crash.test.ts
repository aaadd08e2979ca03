import Database from 'better-sqlite3';
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { Runner } from '../../src/main/batch';
import { openStore } from '../../src/main/store';
import { tempDir } from '../helpers/store';

const CHILD = path.join(__dirname, '..', 'helpers', 'store-child.ts');

/** Starts the child; resolves once it printed a line matching `ready`. */
export function startChild(db: string, mode: 'crash' | 'hold'): Promise<{ child: ChildProcess; lines: string[]; ready: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', CHILD, db, mode], { stdio: ['ignore', 'pipe', 'pipe'] });
  const lines: string[] = [];
  let buf = '';
  let stderr = '';
  return new Promise((resolve, reject) => {
    child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
    child.stdout!.on('data', (d: Buffer) => {
      buf += d.toString();
      const parts = buf.split('\n');
      buf = parts.pop()!;
      for (const l of parts) {
        lines.push(l);
        if (l.startsWith('ready')) resolve({ child, lines, ready: l });
      }
    });
    child.on('exit', (code) => reject(new Error(`child exited ${code} before ready: ${stderr}`)));
  });
}

/** Resolves once the child has printed a `done` line (or has exited). */
function firstDone(child: ChildProcess, lines: string[]): Promise<void> {
  return new Promise((resolve) => {
    const check = (): void => {
      if (lines.some((l) => l.startsWith('done ')) || child.exitCode !== null) {
        child.stdout!.off('data', onData);
        resolve();
      }
    };
    // After the collecting listener of startChild, so `lines` already holds this chunk.
    const onData = (): void => {
      setImmediate(check);
    };
    child.stdout!.on('data', onData);
    child.once('exit', () => resolve());
    check();
  });
}

export function kill9(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGKILL');
  });
}

const RUNS = 20;

describe('crash safety', () => {
  it(`keeps every reported target and leaves nothing running after SIGKILL at random points (${RUNS} runs)`, async () => {
    const t = tempDir('sift-crash-');
    let reportedTotal = 0;
    try {
      for (let run = 0; run < RUNS; run++) {
        const db = path.join(t.dir, `run${run}.db`);
        const { child, lines } = await startChild(db, 'crash');
        // Odd runs are killed only after the child reported its first target (an event), so
        // a busy machine whose child has written nothing within the random delay still
        // checks reported targets; even runs may die before the first write.
        if (run % 2 === 1) await firstDone(child, lines);
        // 0–400 ms after that: a random point of the work, which is what this test is about.
        const delay = Math.floor(Math.random() * 400);
        await new Promise((r) => setTimeout(r, delay));
        await kill9(child);
        // Lines printed before the kill; a partial last line is dropped by the split above.
        const reported = lines.filter((l) => l.startsWith('done ')).map((l) => l.split(' '));
        reportedTotal += reported.length;

        const raw = new Database(db);
        expect(raw.pragma('integrity_check', { simple: true }), `run ${run}, kill after ${delay} ms`).toBe('ok');
        raw.close();

        const store = openStore(db);
        try {
          for (const [, jobId, idx, url] of reported) {
            const target = store.targetResult(jobId!, Number(idx));
            expect(target?.status, `run ${run}: ${jobId}/${idx}`).toBe('done');
            expect(target?.result?.content).toBe(`content of ${url}`);
          }
          store.markInFlightFailed('restart', Date.now());
          const jobs = store.listJobs(10_000);
          expect(jobs.filter((j) => j.status === 'queued' || j.status === 'running')).toEqual([]);
          for (const j of jobs) {
            const rows = store.targetRows(j.id);
            expect(rows.filter((r) => r.status === 'running')).toEqual([]);
            expect(j.targetsDone).toBe(rows.filter((r) => r.status === 'done' || r.status === 'failed').length);
          }
          const pendingBefore = jobs.map((j) => store.targetRows(j.id).filter((r) => r.status === 'pending').length);

          // Nothing is resumed: a new runner on the reopened store fetches nothing by itself.
          let calls = 0;
          const runner = new Runner(store, async () => {
            calls++;
            return { content: '' };
          });
          await new Promise((r) => setTimeout(r, 20));
          await runner.close();
          expect(calls).toBe(0);
          expect(jobs.map((j) => store.targetRows(j.id).filter((r) => r.status === 'pending').length)).toEqual(pendingBefore);
        } finally {
          store.close();
        }
      }
      expect(reportedTotal).toBeGreaterThan(0);
      console.log(`crash: ${RUNS} SIGKILLs, ${reportedTotal} reported targets all found`);
    } finally {
      t.remove();
    }
    // A cap, not a wait: 20 child processes on a busy 2-core machine take minutes.
  }, 600_000);
});

describe('two processes on one database', () => {
  it('refuses the second with db_locked naming the database, and leaves the first one’s jobs untouched', async () => {
    const t = tempDir('sift-two-');
    const db = path.join(t.dir, 'sift.db');
    const { child, ready } = await startChild(db, 'hold');
    try {
      const jobId = ready.split(' ')[1]!;
      let err: unknown;
      try {
        openStore(db).close();
      } catch (e) {
        err = e;
      }
      expect(err).toMatchObject({ code: 'db_locked', status: 409 });
      expect((err as Error).message).toContain(db);
      await kill9(child);
      const store = openStore(db);
      // The failed open did not run markInFlightFailed: the owner's job is exactly as it left it.
      expect(store.getJob(jobId)).toMatchObject({ status: 'running', error: '', targetsDone: 1 });
      expect(store.targetRows(jobId).map((r) => r.status)).toEqual(['done', 'running']);
      store.close();
    } finally {
      await kill9(child);
      t.remove();
    }
  });

  it('opens a database whose owner was killed: a dead owner leaves no lock', async () => {
    const t = tempDir('sift-dead-');
    const db = path.join(t.dir, 'sift.db');
    const { child } = await startChild(db, 'hold');
    await kill9(child);
    const store = openStore(db);
    expect(store.markInFlightFailed('restart', Date.now())).toBe(1);
    store.close();
    t.remove();
  });
});
