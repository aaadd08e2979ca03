/**
 * `sift jobs` names each job by its list, as the app's job list does: it printed the caller,
 * "cli", on every row, so ten runs of a shell's lists were ten IDs and dates to tell apart.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startSite, type Site } from '../helpers/sites';
import { runSift } from '../helpers/cli';

let site: Site;
let home: string;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  site = await startSite();
  home = mkdtempSync(path.join(os.tmpdir(), 'sift-jobs-names-'));
  writeFileSync(path.join(home, 'settings.json'), JSON.stringify({ allowHosts: ['127.0.0.1'] }));
  env = { SIFT_HOME: home, NO_COLOR: '1' };
});
afterAll(async () => {
  await site.close();
  rmSync(home, { recursive: true, force: true });
});

describe('sift jobs', () => {
  test('names a job by its list file and what was asked of it, and a retry by the job it retries', async () => {
    const db = path.join(home, 'names.db');
    const reading = path.join(home, 'reading.txt');
    writeFileSync(reading, `${site.base}/article/1\n${site.base}/missing/2\n`);
    const papers = path.join(home, 'papers.txt');
    writeFileSync(papers, `${site.base}/article/3\n`);
    const ids: string[] = [];
    for (const args of [[reading], [reading, '--grep', 'Paragraph 2'], [papers], [reading, '--retry-failed']]) {
      const run = await runSift(['batch', ...args, '--db', db], { env });
      ids.push(/^job ([0-9a-f]+)/.exec(run.stderr)![1]!);
    }
    const jobs = await runSift(['jobs', '--db', db], { env });
    expect(jobs.code, jobs.stderr).toBe(0);
    const named = (id: string): string => jobs.stdout.split('\n').find((l) => l.startsWith(id))!.replace(/^.*\d\d:\d\d:\d\d {2}cli {2}/, '');
    expect(ids.map(named)).toEqual(['reading.txt', 'reading.txt · grep “Paragraph 2”', 'papers.txt', 'retry of reading.txt']);
  }, 120_000);
});
