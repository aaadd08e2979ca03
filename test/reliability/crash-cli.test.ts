import Database from 'better-sqlite3';
import type { ChildProcess } from 'node:child_process';
import { copyFileSync, existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { jsonLines, runSift, startSift } from '../helpers/cli';
import { writeResult } from '../helpers/faults-report';
import { startSite, type Site } from '../helpers/sites';
import { tempDir } from '../helpers/store';

// What the user meets after `sift batch` is killed, through the CLI only: jobs, status,
// search, export and "run the rest again" (`--rest`). One database, one list, killed again
// and again: each kill lands in the rest of the one before, so the chain also covers the
// rest of a rest. Every kill waits for a line on stderr (an event), never for a time.

// 150 targets: long enough (~3 s on a quiet 2-core machine) for kills to land all along it.
const TARGETS = 150;
// Kills of the chain, each at most 21 targets in (6 × 21 < 150, so every kill lands in a
// job); the last `--rest` then runs to its end.
const KILLS = 6;
// The words every kind of target's stored result holds (article, PDF, jq output, text, slow).
const EVERY_RESULT = 'paragraph OR revenue OR item OR alpha OR finally';

let site: Site;
let t: ReturnType<typeof tempDir>;

beforeAll(async () => {
  site = await startSite();
  t = tempDir('sift-crash-cli-');
});
afterAll(async () => {
  await site?.close();
  t?.remove();
});

function listLines(): string[] {
  return Array.from({ length: TARGETS }, (_, i) => {
    switch (i % 6) {
      case 0:
        return `${site.base}/article/${i}`;
      case 1:
        return `${site.base}/doc/${i}.pdf`;
      case 2:
        return `${site.base}/data/${i}.json jq='.items[] | .name'`;
      case 3:
        return `${site.base}/slow/20?k=${i}`;
      case 4:
        return `${site.base}/missing/${i}`;
      default:
        return `${site.base}/text?k=${i}`;
    }
  });
}

interface Killed {
  stderr: string;
  jobId: string | undefined;
}

/** Runs `sift ARGS`, SIGKILLs it as soon as its stderr matches `at`, and waits for it to die. */
async function killAt(args: string[], at: RegExp): Promise<Killed> {
  const child: ChildProcess = startSift(args);
  child.stdin!.end();
  child.stdout!.resume();
  let err = '';
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  child.stderr!.setEncoding('utf8').on('data', (d: string) => {
    err += d;
    if (at.test(err)) child.kill('SIGKILL');
  });
  await exited;
  return { stderr: err, jobId: /^job ([0-9a-f]{16})/m.exec(err)?.[1] };
}

interface Row {
  job_id: string;
  idx: number;
  status: string;
  error: string;
  result: string | null;
}

/**
 * With the killer's child dead, the file as SQLite sees it: whole, and its full-text index
 * (FTS5's own integrity-check, run on a copy since it writes) holding exactly the done targets.
 */
function checkFile(db: string, where: string): Row[] {
  const raw = new Database(db, { readonly: true });
  expect(raw.pragma('integrity_check', { simple: true }), where).toBe('ok');
  const rows = raw.prepare<[], Row>('SELECT job_id, idx, status, error, result FROM targets ORDER BY job_id, idx').all();
  raw.close();
  const copy = path.join(t.dir, 'copy.db');
  copyFileSync(db, copy);
  if (existsSync(`${db}-wal`)) copyFileSync(`${db}-wal`, `${copy}-wal`);
  const c = new Database(copy);
  c.prepare("INSERT INTO search_fts (search_fts, rank) VALUES ('integrity-check', 1)").run();
  const indexed = c.prepare<[], { k: string }>("SELECT d.job_id || '/' || d.idx AS k FROM search_docs d JOIN search_fts f ON f.rowid = d.rowid ORDER BY 1").all().map((r) => r.k);
  const docs = (c.prepare('SELECT count(*) AS n FROM search_docs').get() as { n: number }).n;
  c.close();
  const done = rows.filter((r) => r.status === 'done').map((r) => `${r.job_id}/${r.idx}`).sort();
  expect(indexed, `${where}: indexed = done`).toEqual(done);
  expect(docs, where).toBe(done.length);
  return rows;
}

describe('SIGKILL of `sift batch`, then the rest of the CLI', () => {
  test(`every finished target stays stored, indexed and found; status says what happened; --rest finishes the list (${KILLS} kills)`, async () => {
    const started = Date.now();
    const db = path.join(t.dir, 'chain.db');
    const list = path.join(t.dir, 'list.txt');
    const lines = listLines();
    writeFileSync(list, lines.join('\n'));
    const base = ['--db', db, '--allow-private'];
    const f = { kills: 0, atJobLine: 0, midJob: 0, duringExport: 0, okLinesChecked: 0, searchHits: 0, restRuns: 0 };

    // job/idx of every target done when a kill came; each must stay done.
    const doneBefore = new Set<string>();
    let firstJob: string | undefined;
    for (let k = 0; k < KILLS; k++) {
      // The first run dies as soon as its job is written (nothing fetched yet); one during its
      // --out export (killed at an `ok` line past the middle, the export being written as the
      // job runs); the others at a random progress line of their job.
      const args = ['batch', list, ...base, ...(k === 0 ? [] : ['--rest'])];
      let at: RegExp;
      if (k === 0) {
        at = /^job [0-9a-f]{16}\n/m;
        f.atJobLine++;
      } else if (k === 2) {
        args.push('--out', path.join(t.dir, `killed-${k}.zip`));
        at = new RegExp(`^\\[${5 + Math.floor(Math.random() * 20)}/`, 'm');
        f.duringExport++;
      } else {
        at = new RegExp(`^\\[${1 + Math.floor(Math.random() * 20)}/`, 'm');
        f.midJob++;
      }
      const killed = await killAt(args, at);
      f.kills++;
      const where = `kill ${k} at ${at}`;
      expect(killed.jobId, `${where}: ${killed.stderr}`).toBeDefined();
      firstJob ??= killed.jobId;
      // A hidden partial may stay; nothing that looks like a finished export.
      if (k === 2) expect(existsSync(path.join(t.dir, `killed-${k}.zip`)), where).toBe(false);

      const rows = checkFile(db, where);
      const ofJob = rows.filter((r) => r.job_id === killed.jobId);
      // Every `#N ok` line printed before the kill is a done target with its result.
      const progressTotal = Number(/^\[\d+\/(\d+)\]/m.exec(killed.stderr)?.[1] ?? 0);
      for (const m of killed.stderr.matchAll(/^\[\d+\/\d+\] #(\d+) ok /gm)) {
        const row = ofJob[Number(m[1]) - 1];
        f.okLinesChecked++;
        expect(row?.status, `${where}: #${m[1]}`).toBe('done');
        expect((JSON.parse(row!.result!) as { content: string }).content.length, where).toBeGreaterThan(0);
      }
      if (progressTotal) expect(ofJob.length, where).toBe(progressTotal);
      for (const r of rows) if (r.status === 'done') doneBefore.add(`${r.job_id}/${r.idx}`);

      // Reopened through the CLI: the job failed "restart", and says so in plain words.
      const st = await runSift(['status', killed.jobId!, '--json', '--db', db]);
      expect(st.code, st.stderr).toBe(0);
      const [job, ...targets] = jsonLines(st.stdout);
      expect(targets.filter((r) => r.status === 'running'), where).toEqual([]);
      const left = targets.filter((r) => r.status === 'pending' || r.error === 'restart').length;
      expect([job!.status, job!.error], where).toEqual(['failed', 'restart']);
      const text = await runSift(['status', killed.jobId!, '--db', db]);
      expect(text.stderr, where).toContain(`Sift stopped before it finished (it was killed or crashed, or the computer stopped): ${left} target`);
      expect(text.stderr, where).toContain('run the same `sift batch` again with --rest');
      const jobs = await runSift(['jobs', '--json', '--db', db]);
      expect(jobs.code).toBe(0);
      expect(jsonLines(jobs.stdout).map((j) => j.id)).toContain(killed.jobId);
    }

    // The list again, without --rest: the first job, which says what happened and what to do.
    const again = await runSift(['batch', list, ...base]);
    expect(again.stderr).toMatch(/^job [0-9a-f]{16} reused\n/);
    expect(again.stderr).toMatch(/did not finish\. --rest fetches just those as a new job/);

    // The rest to its end: after it, the list is whole.
    const rest = await runSift(['batch', list, ...base, '--rest', '--json']);
    f.restRuns = KILLS;
    expect(rest.code, rest.stderr).toBe(1); // the 404s
    expect(rest.stderr).toMatch(/^job [0-9a-f]{16}\n {2}the rest of job [0-9a-f]{16}: the \d+ targets? it did not finish\n/);
    const rows = checkFile(db, 'after the rest');
    const finished = new Map<string, string>();
    for (const r of rows) {
      if (r.status === 'done') finished.set(`${r.job_id}/${r.idx}`, r.status);
    }
    // Nothing done before a kill was lost on the way.
    for (const key of doneBefore) expect(finished.get(key), key).toBe('done');
    // Every URL of the list ended done, or failed on its own account (the 404s), in some job.
    const restored = new Database(db, { readonly: true });
    const outcome = restored
      .prepare<[], { url: string; ok: number; missing: number }>(
        `SELECT url, max(status = 'done') AS ok, max(status = 'failed' AND reason = 'upstream') AS missing FROM targets GROUP BY url`,
      )
      .all();
    restored.close();
    expect(outcome).toHaveLength(TARGETS);
    for (const o of outcome) expect(o.ok || o.missing, o.url).toBe(1);
    expect(outcome.filter((o) => o.missing).length).toBe(lines.filter((l) => l.includes('/missing/')).length);

    // Search finds every done target, in whichever job it finished.
    const found = await runSift(['search', EVERY_RESULT, '--limit', '1000', '--json', '--db', db]);
    expect(found.code, found.stderr).toBe(0);
    const hits = jsonLines(found.stdout).map((h) => `${String(h.jobId)}/${String(h.idx)}`).sort();
    f.searchHits = hits.length;
    expect(hits).toEqual([...finished.keys()].sort());

    // The first killed job exports whole: every target listed, its finished ones with content.
    const out = path.join(t.dir, 'first.jsonl');
    const exp = await runSift(['export', firstJob!, '--out', out, '--db', db]);
    expect(exp.code, exp.stderr).toBe(0);
    expect(jsonLines(readFileSync(out, 'utf8'))).toHaveLength(TARGETS);

    console.log(`crash-cli: ${f.kills} SIGKILLs`, f);
    writeResult({
      name: 'crash-cli',
      command: 'npm run test:reliability -- crash-cli',
      figures: { targets: TARGETS, ...f, seconds: Math.round((Date.now() - started) / 1000) },
    });
  }, 240_000);
});

describe('SIGKILL of `sift export`', () => {
  test('leaves no file that looks complete, and the next export of the job is whole', async () => {
    const db = path.join(t.dir, 'export.db');
    const list = path.join(t.dir, 'big.txt');
    // 400 results of 18 KB: long enough to write that a kill lands while it is written.
    writeFileSync(list, Array.from({ length: 400 }, (_, i) => `${site.base}/big?k=${i}`).join('\n'));
    const run = await runSift(['batch', list, '--db', db, '--allow-private']);
    expect(run.code, run.stderr).toBe(0);
    const id = /^job ([0-9a-f]{16})/.exec(run.stderr)![1]!;
    const outcomes: string[] = [];
    for (const format of ['zip', 'jsonl', 'md'] as const) {
      const dir = path.join(t.dir, `exp-${format}`);
      const target = format === 'md' ? dir : path.join(dir, `r.${format}`);
      const final = format === 'md' ? path.join(dir, `sift-${id}`) : target;
      // Killed as soon as the export has made its hidden partial: the first sign it writes.
      const child = startSift(['export', id, '--out', target, '--db', db]);
      child.stdin!.end();
      child.stdout!.resume();
      child.stderr!.resume();
      const exited = new Promise<void>((r) => child.once('exit', () => r()));
      await new Promise<void>((resolve) => {
        const look = (): void => {
          const names = existsSync(dir) ? readdirSync(dir) : [];
          if (names.some((n) => n.includes('.partial-')) || child.exitCode !== null) return resolve();
          setImmediate(look);
        };
        look();
      });
      child.kill('SIGKILL');
      await exited;
      const names = readdirSync(dir);
      // Whatever is left under a name a person sees is the finished export; the rest is hidden.
      for (const n of names) if (!n.startsWith('.')) expect(path.join(dir, n)).toBe(final);
      outcomes.push(existsSync(final) ? 'finished before the kill' : 'killed mid-export');
      if (existsSync(final) && format === 'jsonl') expect(readFileSync(final, 'utf8').trim().split('\n')).toHaveLength(400);
      // Again, to its end: whole.
      const second = await runSift(['export', id, '--out', target, '--db', db]);
      expect(second.code, second.stderr).toBe(0);
      if (format === 'jsonl') expect(readFileSync(target, 'utf8').trim().split('\n')).toHaveLength(400);
      if (format === 'zip') expect(statSync(target).size).toBeGreaterThan(0);
      if (format === 'md') expect(second.stderr).toMatch(/exported 400 targets \(0 failed\)/);
    }
    console.log('export kills:', outcomes);
  }, 120_000);
});
