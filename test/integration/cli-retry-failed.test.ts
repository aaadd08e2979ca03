/**
 * `sift batch --retry-failed`: the app's "Retry the failed ones" from a shell. A busy site's
 * hint says to retry the failed ones later; `--rest` takes only the targets a job did not
 * finish, and said of a job whose targets had all run that there was no rest to run.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { ServerResponse } from 'node:http';
import { articleHtml, startSite, type Site } from '../helpers/sites';
import { collect, jsonLines, runSift, startSift } from '../helpers/cli';

let site: Site;
let home: string;
let env: NodeJS.ProcessEnv;
/** While true, /flaky drops the connection without an answer: a network failure that passes. */
let down = true;
/** /hold answers nothing the first time (the target in flight at Ctrl-C), a page after that. */
let held: ServerResponse | undefined;
let holdArrived: () => void = () => {};

beforeAll(async () => {
  site = await startSite({
    '/flaky': (req, res) => {
      if (down) req.socket.destroy();
      else res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' }).end('The flaky page answered this time, with a line of text that is the document.\n');
    },
    '/hold': (_req, res) => {
      if (held) return void res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(articleHtml(7));
      held = res;
      holdArrived();
    },
  });
  home = mkdtempSync(path.join(os.tmpdir(), 'sift-retry-'));
  writeFileSync(path.join(home, 'settings.json'), JSON.stringify({ allowHosts: ['127.0.0.1'], deadlineSeconds: 20 }));
  env = { SIFT_HOME: home };
});
afterAll(async () => {
  held?.destroy();
  await site.close();
});

describe('sift batch --retry-failed', () => {
  test('says how to fetch the failed ones again, fetches only those as a new job, and a second time finds that job', async () => {
    const list = path.join(home, 'list.txt');
    writeFileSync(list, `${site.base}/article/1\n${site.base}/flaky\n${site.base}/article/2\n`);
    const db = path.join(home, 'retry.db');
    const first = await runSift(['batch', list, '--db', db], { env });
    expect(first.code, first.stderr).toBe(1);
    const firstId = /^job ([0-9a-f]+)\n/.exec(first.stderr)![1]!;
    expect(first.stderr).toContain(
      'Some failures may pass with time (a busy site, a timeout, the network): to fetch the 1 target that failed again, run the same `sift batch` later with --retry-failed.\n',
    );
    // --rest has nothing to take: every target ran.
    const rest = await runSift(['batch', list, '--db', db, '--rest'], { env });
    expect(rest.stderr).toContain('Every target of it finished: there is no rest to run.');

    down = false;
    const hitsBefore = { flaky: site.hits.get('/flaky') ?? 0, a1: site.hits.get('/article/1') ?? 0 };
    const out = path.join(home, 'retried.jsonl');
    const retry = await runSift(['batch', list, '--db', db, '--retry-failed', '--json', '--out', out], { env });
    expect(retry.code, retry.stderr).toBe(0);
    const retryId = /^job ([0-9a-f]+)\n/.exec(retry.stderr)![1]!;
    expect(retryId).not.toBe(firstId);
    expect(retry.stderr).toContain(`\n  the failed ones of job ${firstId}: the 1 target that failed there, fetched again\n`);
    expect(jsonLines(retry.stdout)).toEqual([expect.objectContaining({ url: `${site.base}/flaky`, ok: true })]);
    expect(site.hits.get('/flaky')).toBe(hitsBefore.flaky + 1);
    expect(site.hits.get('/article/1') ?? 0).toBe(hitsBefore.a1);
    // The export holds this job's one target; the list's first job fetched the other two.
    expect(retry.stderr).toContain(`  the 2 targets of this list that job ${firstId} fetched before are not in this export: \`sift export ${firstId} --out ${out}\` writes them\n`);

    // Again: that job is found, nothing failed in it, and nothing is fetched.
    const again = await runSift(['batch', list, '--db', db, '--retry-failed'], { env });
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toMatch(new RegExp(`^job ${retryId} reused\\n  the failed ones of job ${firstId}: the 1 target that failed there, fetched again, run as this job on `));
    expect(site.hits.get('/flaky')).toBe(hitsBefore.flaky + 1);
  }, 300_000);

  test('after Ctrl-C, says which targets it leaves (those the job never started) and that --rest fetches them', async () => {
    const list = path.join(home, 'cancelled.txt');
    writeFileSync(list, [`${site.base}/article/3`, `${site.base}/hold`, `${site.base}/article/4`, `${site.base}/article/5`].join('\n'));
    const db = path.join(home, 'cancelled.db');
    const inFlight = new Promise<void>((resolve) => (holdArrived = resolve));
    const child = startSift(['batch', list, '--db', db], { env });
    child.stdin!.end();
    const done = collect(child);
    await inFlight;
    child.kill('SIGINT');
    const first = await done;
    expect(first.code, first.stderr).toBe(130);
    const firstId = /^job ([0-9a-f]+)\n/.exec(first.stderr)![1]!;

    // The target cut short is fetched again; the two the job never started are not, and a user
    // who asked for "the failed ones" after a cancel was told nothing of them.
    const retry = await runSift(['batch', list, '--db', db, '--retry-failed', '--json'], { env });
    expect(retry.code, retry.stderr).toBe(0);
    expect(jsonLines(retry.stdout).map((l) => l.url)).toEqual([`${site.base}/hold`]);
    expect(retry.stderr).toContain(`\n  the failed ones of job ${firstId}: the 1 target that failed there, fetched again\n  It was cancelled: 2 targets of 4 never started. --retry-failed leaves them; --rest fetches them\n`);
    expect(site.hits.get('/article/4') ?? 0).toBe(0);

    // Again: nothing failed in that job now, and the two are still to fetch.
    const again = await runSift(['batch', list, '--db', db, '--retry-failed'], { env });
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toContain('  It was cancelled: 2 targets of 4 never started. --retry-failed leaves them; --rest fetches them\n');

    const rest = await runSift(['batch', list, '--db', db, '--rest', '--json'], { env });
    expect(rest.code, rest.stderr).toBe(0);
    expect(jsonLines(rest.stdout).map((l) => l.url)).toEqual([`${site.base}/hold`, `${site.base}/article/4`, `${site.base}/article/5`]);
  }, 300_000);

  test('is one of --rest, --retry-failed and --again', async () => {
    const r = await runSift(['batch', path.join(home, 'list.txt'), '--retry-failed', '--again', '--db', path.join(home, 'both.db')], { env });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe('sift batch: --retry-failed and --again: --rest fetches what the job did not finish, --retry-failed what failed, --again the whole list; give one of them\n');
  });
});
