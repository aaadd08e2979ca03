/**
 * The CLI bundle's HTML worker (out/cli/html-worker.mjs): `sift extract` of a large page reads
 * it there, and Ctrl-C during `sift batch` while a large page is read stops at once, the page
 * stored as cancelled, where the process used to finish reading it first.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { createFetcher } from '../../src/main/fetch';
import { bigArticle } from '../helpers/big-page';
import { collect, jsonLines, runSift, startSift, waitForStderr } from '../helpers/cli';
import { startSite, type Site } from '../helpers/sites';

/** Preloaded into each child: a line on stderr when a worker thread starts. */
const HOOK = `--import=${pathToFileURL(path.join(__dirname, '../helpers/worker-hook.mjs')).href}`;
const STARTED = /\[worker-hook\] html-worker\.mjs\n/;
/** ~1 MB: four times the worker's threshold, seconds of reading. */
const BIG = bigArticle(1_000_000);

let site: Site;
let home: string;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  site = await startSite({ '/big': (_req, res) => res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(BIG) });
  home = mkdtempSync(path.join(os.tmpdir(), 'sift-html-worker-'));
  writeFileSync(path.join(home, 'settings.json'), JSON.stringify({ allowHosts: ['127.0.0.1'] }));
  env = { SIFT_HOME: home, NODE_OPTIONS: [process.env.NODE_OPTIONS, HOOK].filter(Boolean).join(' ') };
});
afterAll(async () => {
  await site.close();
  rmSync(home, { recursive: true, force: true });
});

describe('the CLI reads a large page in its HTML worker', () => {
  test('sift extract of a large file: the bundled worker reads it, and it comes out as the thread makes it', async () => {
    const file = path.join(home, 'big.html');
    writeFileSync(file, BIG);
    const run = await runSift(['extract', file], { env });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toMatch(STARTED);
    expect(run.stderr).not.toMatch(/tsx/);
    const thread = createFetcher({}, { html: { workerFrom: Infinity } });
    const expected = await thread.extractBuffer(Buffer.from(BIG), 'text/html', {}, { url: pathToFileURL(file).href });
    await thread.close();
    expect(run.stdout).toBe(`${expected.content}\n`);
  });

  test('Ctrl-C during sift batch while a large page is read: exit 130 at once, the page cancelled, not read to its end', async () => {
    const db = path.join(home, 'ctrlc.db');
    const list = path.join(home, 'list.txt');
    writeFileSync(list, [`${site.base}/article/1`, `${site.base}/big`, `${site.base}/article/3`].join('\n'));
    const child = startSift(['batch', list, '--json', '--db', db], { env });
    child.stdin!.end();
    const done = collect(child);
    // The worker starts with the first large page, and reads it from then on.
    await waitForStderr(child, STARTED);
    child.kill('SIGINT');
    const run = await done;
    expect(run.code, run.stderr).toBe(130);
    expect(run.stderr).not.toMatch(/internal error|bug in Sift/);
    const printed = jsonLines(run.stdout);
    expect(printed.map((l) => l.ok)).toEqual([true, false, false]);
    // Cancelled: the worker was terminated with the page half read, where the main thread
    // read it to the end before it could see the Ctrl-C, and stored it as done.
    expect(printed[1]).toMatchObject({ ok: false, status: 499, error: 'cancelled' });
    expect(printed[2]).toMatchObject({ ok: false, error: 'not run' });
  });
});
