import Database from 'better-sqlite3';
import type { ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createServices } from '../../src/main/services';
import { isTerminal } from '../../src/shared/types';
import { runSift, startSift } from '../helpers/cli';
import { writeResult } from '../helpers/faults-report';
import { startSite, type Site } from '../helpers/sites';
import { tempDir } from '../helpers/store';

// The issue asks for at least 50 SIGKILLs of the full pipeline.
const RUNS = 50;
// 40 targets of every kind, with a few slow ones, so a job lasts long enough (~1–2 s) for
// kills to land before, during and after target writes.
const TARGETS = 40;
// Every 10th run finishes the rest with a second `sift batch` instead of runRest.
const CLI_REST_EVERY = 10;

let site: Site;
let t: ReturnType<typeof tempDir>;

beforeAll(async () => {
  site = await startSite();
  t = tempDir('sift-crash-rel-');
});
afterAll(async () => {
  await site?.close();
  t?.remove();
});

function urls(run: number): string[] {
  return Array.from({ length: TARGETS }, (_, i) => {
    const k = run * 1000 + i;
    switch (i % 5) {
      case 0:
        return `${site.base}/article/${k}`;
      case 1:
        return `${site.base}/doc/${k}.pdf`;
      case 2:
        return `${site.base}/data/${k}.json`;
      case 3:
        return `${site.base}/slow/40?k=${k}`;
      default:
        return `${site.base}/text?k=${k}`;
    }
  });
}

interface Child {
  child: ChildProcess;
  stderr: () => string;
  jobLineAt: Promise<number>;
  exited: Promise<void>;
}

function spawnBatch(list: string, db: string): Child {
  const child = startSift(['batch', list, '--db', db, '--allow-private']);
  child.stdin!.end();
  let err = '';
  let resolveJob: (ms: number) => void = () => {};
  const jobLineAt = new Promise<number>((r) => (resolveJob = r));
  const t0 = Date.now();
  child.stderr!.setEncoding('utf8').on('data', (d: string) => {
    err += d;
    if (/^job \S+/m.test(err)) resolveJob(Date.now() - t0);
  });
  child.stdout!.resume();
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  return { child, stderr: () => err, jobLineAt, exited };
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

describe('SIGKILL at random points of `sift batch`', () => {
  test(`loses no finished target, resumes nothing, and "run the rest again" finishes the job (${RUNS} runs)`, async () => {
    const started = Date.now();
    // Calibrate: one run to the end gives the start-up and job times the kills are drawn from.
    const calList = path.join(t.dir, 'cal.txt');
    writeFileSync(calList, urls(999).join('\n'));
    const cal = spawnBatch(calList, path.join(t.dir, 'cal.db'));
    const startupMs = await cal.jobLineAt;
    const calStart = Date.now();
    await cal.exited;
    const jobMs = Date.now() - calStart;
    expect(cal.child.exitCode).toBe(0);

    const f = { killedBeforeSubmit: 0, killedMidJob: 0, finishedBeforeKill: 0, okLinesChecked: 0, lost: 0, resumed: 0, integrityFailures: 0, restJobs: 0, restTargets: 0, restViaCli: 0 };
    for (let run = 0; run < RUNS; run++) {
      const dir = path.join(t.dir, `run${run}`);
      const db = `${dir}.db`;
      const list = `${dir}.txt`;
      const all = urls(run);
      writeFileSync(list, all.join('\n'));
      const c = spawnBatch(list, db);
      // 1 run in 10 dies during start-up (before or while the job is written); the rest at a
      // uniform point of the job, up to 10% past its calibrated end.
      const early = run % 10 === 0;
      const delay = early ? Math.floor(Math.random() * startupMs) : Math.floor(Math.random() * jobMs * 1.1);
      if (early) await sleep(delay);
      else await Promise.race([c.jobLineAt.then(() => sleep(delay)), c.exited]);
      c.child.kill('SIGKILL');
      await c.exited;
      const where = `run ${run}, ${early ? 'start-up' : 'job'} +${delay} ms`;

      // Only now, with the child dead: the file is whole.
      const raw = new Database(db, { fileMustExist: false });
      const integrity = raw.pragma('integrity_check', { simple: true });
      if (integrity !== 'ok') f.integrityFailures++;
      expect(integrity, where).toBe('ok');
      const hasJobs = (raw.prepare("SELECT count(*) AS n FROM sqlite_master WHERE name = 'jobs'").get() as { n: number }).n > 0;
      const jobId = hasJobs ? (raw.prepare('SELECT id FROM jobs').get() as { id: string } | undefined)?.id : undefined;
      // Every `#N ok` line the child printed names a target that is done with a result.
      const okIdx = [...c.stderr().matchAll(/^\[\d+\/\d+\] #(\d+) ok /gm)].map((m) => Number(m[1]) - 1);
      for (const idx of okIdx) {
        const row = raw.prepare('SELECT status, result FROM targets WHERE job_id = ? AND idx = ?').get(jobId, idx) as { status: string; result: string | null } | undefined;
        f.okLinesChecked++;
        if (row?.status !== 'done' || !row.result) f.lost++;
        expect(row?.status, `${where}: #${idx + 1}`).toBe('done');
        expect(JSON.parse(row!.result!).content.length, `${where}: #${idx + 1}`).toBeGreaterThan(0);
      }
      raw.close();

      if (!jobId) {
        f.killedBeforeSubmit++;
        continue;
      }
      // Reopened through the CLI: the job is interrupted (failed: restart), nothing running.
      const st = await runSift(['status', jobId, '--json', '--db', db]);
      const [jobLine, ...rowLines] = st.stdout.trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
      const rows = rowLines as { idx: number; status: string; error: string }[];
      expect(rows.filter((r) => r.status === 'running'), where).toEqual([]);
      if (jobLine!.status === 'done') {
        f.finishedBeforeKill++;
        continue;
      }
      f.killedMidJob++;
      expect([jobLine!.status, jobLine!.error], where).toEqual(['failed', 'restart']);

      // Nothing is resumed: a second look a moment later finds the same rows.
      await sleep(50);
      const again = await runSift(['status', jobId, '--json', '--db', db]);
      if (again.stdout !== st.stdout) f.resumed++;
      expect(again.stdout, where).toBe(st.stdout);

      const unfinished = rows.filter((r) => r.status === 'pending' || r.error === 'restart').map((r) => r.idx);
      f.restJobs++;
      f.restTargets += unfinished.length;
      // Through the CLI only when the rest is not the whole list: resubmitting the very list
      // of a live-leased job is an idempotent hit on it (rule 1), so that case is the app's
      // "run the rest again", which asks for a fresh job.
      if (run % CLI_REST_EVERY === 5 && unfinished.length < all.length) {
        f.restViaCli++;
        const restList = `${dir}-rest.txt`;
        writeFileSync(restList, unfinished.map((i) => all[i]).join('\n'));
        const rest = await runSift(['batch', restList, '--db', db, '--allow-private', '--json']);
        expect(rest.code, `${where}: ${rest.stderr}`).toBe(0);
        expect(rest.stdout.trim().split('\n').map((l) => (JSON.parse(l) as { ok: boolean }).ok), where).toEqual(unfinished.map(() => true));
      } else {
        const services = createServices({ dbPath: db, host: 'bridge', dataDir: t.dir, logFiles: [], settings: { allowPrivate: true } });
        try {
          const res = await services.handlers.runRest({ id: jobId, which: 'unfinished' });
          expect(res.targets, where).toBe(unfinished.length);
          for (let i = 0; i < 600 && !isTerminal(services.store.getJob(res.id)!.status); i++) await sleep(25);
          expect(services.store.getJob(res.id)!.status, where).toBe('done');
          expect(services.store.targetRows(res.id).map((r) => r.url), where).toEqual(unfinished.map((i) => all[i]));
        } finally {
          await services.close();
        }
      }
    }
    console.log(`crash: ${RUNS} SIGKILLs`, f);
    expect(f.killedMidJob).toBeGreaterThan(RUNS / 3);
    expect(f.okLinesChecked).toBeGreaterThan(0);
    writeResult({
      name: 'crash',
      command: 'npm run test:reliability -- crash',
      figures: { runs: RUNS, targetsPerRun: TARGETS, calibratedStartupMs: startupMs, calibratedJobMs: jobMs, ...f, seconds: Math.round((Date.now() - started) / 1000) },
    });
  }, 900_000);
});
