/**
 * Ctrl-C during `sift batch`, as a user in a shell meets it: the real command as a child
 * process against a loopback server, on a real database.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { articleHtml, startSite, type Site } from '../helpers/sites';
import { collect, runSift, startSift } from '../helpers/cli';

let site: Site;
const home = mkdtempSync(path.join(tmpdir(), 'sift-cli-interrupt-'));
const env = { SIFT_HOME: home, HOME: home, NO_COLOR: '1' };
/** /hang answers nothing the first time (the target in flight at Ctrl-C), a page after that. */
let held: ServerResponse | undefined;
let arrived: () => void = () => {};

beforeAll(async () => {
  site = await startSite({
    '/hang': (_req, res) => {
      if (held) return void res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(articleHtml(9));
      held = res;
      arrived();
    },
  });
});
afterAll(async () => {
  held?.destroy();
  await site.close();
  rmSync(home, { recursive: true, force: true });
});

describe('sift batch stopped by Ctrl-C', () => {
  test('says how to fetch the rest (--rest), not only the app’s "run the rest again"; --rest then fetches just those', async () => {
    const db = path.join(home, 'rest.db');
    const file = path.join(home, 'list.txt');
    writeFileSync(file, [`${site.base}/article/1`, `${site.base}/hang`, `${site.base}/article/2`, `${site.base}/article/3`].join('\n'));
    const inFlight = new Promise<void>((resolve) => (arrived = resolve));
    const child = startSift(['batch', file, '--db', db, '--allow-private'], { env });
    child.stdin!.end();
    const done = collect(child);
    await inFlight;
    child.kill('SIGINT');
    const run = await done;
    expect(run.code, run.stderr).toBe(130);
    expect(run.stderr).toMatch(/^cancelled: 2\/4 /m);
    expect(run.stderr).toContain('It was cancelled: 3 targets of 4 did not finish; the finished ones are kept.\n  To fetch just those, run the same `sift batch` again with --rest.\n');

    const rest = await runSift(['batch', file, '--db', db, '--allow-private', '--rest'], { env });
    expect(rest.code, rest.stderr).toBe(0);
    expect(rest.stderr).toMatch(/the 3 targets it did not finish/);
    expect(rest.stdout.trim().split('\n').map((l) => l.trim().split(/\s+/).at(-1))).toEqual([`${site.base}/hang`, `${site.base}/article/2`, `${site.base}/article/3`]);
    expect(site.hits.get('/article/1')).toBe(1);
  }, 120_000);
});
