/**
 * What an export says it wrote, in the CLI and in the app, for jobs fetched from a loopback
 * site through the real pipeline: the results apart from the side files (manifest.jsonl,
 * failed.txt), the targets without a result counted and told what became of them, and a
 * job with no result at all said so instead of an export that looks like one.
 */
import { writeFileSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { CliIO } from '../../src/cli/io';
import { main } from '../../src/cli/main';
import { exportJob, exportOptionsFromCli, exportSourceOf } from '../../src/main/export';
import { openStore } from '../../src/main/store';
import { exportSummaryText } from '../../src/renderer/src/lib/exports';
import { loopbackSift, type LoopbackSift } from '../helpers/cli-main';
import { startSite, type Site } from '../helpers/sites';
import { deferred } from '../helpers/store';

let site: Site;
let tmp: LoopbackSift;
const hanging = new Set<ServerResponse>();
const hangArrived = deferred();
const jobs: Record<'one' | 'mixed' | 'none', string> = { one: '', mixed: '', none: '' };

async function batch(name: string, urls: string[]): Promise<string> {
  writeFileSync(path.join(tmp.dir, `${name}.txt`), urls.map((u) => `${site.base}${u}\n`).join(''));
  const r = await tmp.sift('batch', `${name}.txt`, '--db', tmp.db, '--render', 'never');
  return /^job ([0-9a-f]+)/.exec(r.err)![1]!;
}

beforeAll(async () => {
  site = await startSite({
    // A real page, but short: ok with the `thin` warning.
    '/thin': (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end('<!doctype html><html><head><title>Thin</title></head><body><p>Closed today.</p></body></html>');
    },
    '/hang': (_req, res) => {
      hanging.add(res);
      hangArrived.resolve();
    },
  });
  tmp = loopbackSift('sift-export-words-');
  jobs.one = await batch('one', ['/article/1']);
  jobs.none = await batch('none', ['/missing/1', '/broken']);
  // ok, thin, 404, 500, then one in flight at a cancel and one never reached.
  writeFileSync(path.join(tmp.dir, 'mixed.txt'), ['/article/2', '/thin', '/missing/2', '/broken?2', '/hang', '/article/3'].map((u) => `${site.base}${u}\n`).join(''));
  const stderr = new PassThrough();
  let said = '';
  stderr.on('data', (d: Buffer) => (said += d.toString()));
  const io: CliIO = { stdout: new PassThrough().resume(), stderr, stdin: new PassThrough(), isTTY: false, env: { ...process.env, SIFT_HOME: tmp.dir }, cwd: tmp.dir };
  const running = main(['batch', 'mixed.txt', '--db', tmp.db, '--render', 'never'], io);
  await hangArrived.promise;
  jobs.mixed = /^job ([0-9a-f]{16})/.exec(said)![1]!;
  expect((await tmp.sift('cancel', jobs.mixed, '--db', tmp.db)).code).toBe(0);
  expect(await running).toBe(1);
}, 120_000);
afterAll(async () => {
  for (const res of hanging) res.destroy();
  await site.close();
  tmp.remove();
});

let outs = 0;
async function cliExport(job: string, format: string, ...more: string[]): Promise<string> {
  const r = await tmp.sift('export', job, '--db', tmp.db, '--out', path.join(tmp.dir, `cli-${++outs}`), '--format', format, ...more);
  expect(r.code, r.err).toBe(0);
  return r.err;
}

/** The app's words for the same export: main's exportJob as the export pane calls it, then the dialog's sentence. */
async function appExport(job: string, format: string, includeFailed = false): Promise<string> {
  const store = openStore(tmp.db);
  try {
    const summary = await exportJob(exportSourceOf(store, store.getJob(job)!), { ...exportOptionsFromCli(format), out: path.join(tmp.dir, `app-${++outs}`), surface: 'app', includeFailed });
    return exportSummaryText(summary);
  } finally {
    store.close();
  }
}

describe('what an export says it wrote', () => {
  test.each(['md', 'txt', 'json', 'zip'])('a %s export of one page says one result file, and names manifest.jsonl and failed.txt apart', async (format) => {
    const cli = await cliExport(jobs.one, format);
    const app = await appExport(jobs.one, format);
    for (const said of [cli, app]) {
      // It read "3 files" (and "a zip of 3 files"): the page, plus the two listings.
      expect(said).not.toMatch(/\b3 files\b/);
      expect(said).toContain('1 result file, with manifest.jsonl and failed.txt');
    }
  });

  test.each([
    ['md', '2 result files (1 with warnings), with manifest.jsonl and failed.txt; the 4 without a result have no file: manifest.jsonl says why, failed.txt lists them to run again'],
    ['zip', 'a zip of 2 result files (1 with warnings), with manifest.jsonl and failed.txt; the 4 without a result have no file: manifest.jsonl says why, failed.txt lists them to run again'],
    ['jsonl', '1 file, a line for each of the 6 targets: 2 results (1 with warnings), and the 4 without one with why'],
    ['csv', '1 file, a row for each of the 6 targets: 2 results (1 with warnings), and the 4 without one with why'],
    ['combined', '1 file of 2 results (1 with warnings); the 4 without a result are not in it, its first lines count them'],
  ])('a %s export of a job with failed, cancelled and unreached targets counts them and says where they went', async (format, contents) => {
    const cli = await cliExport(jobs.mixed, format);
    expect(cli).toContain(`exported 6 targets (2 failed, 1 stopped mid-way, 1 not run) to `);
    expect(cli).toContain(contents);
    const app = await appExport(jobs.mixed, format);
    expect(app).toContain('6 targets (2 failed, 2 not fetched)');
    expect(app).toContain(contents);
  });

  test.each([
    ['md', '2 result files (1 with warnings), 4 files saying why a target has no result, with manifest.jsonl and failed.txt'],
    ['combined', '1 file of 2 results (1 with warnings) and 4 sections saying why a target has none'],
  ])('with the failed included, a %s export counts their files apart from the results', async (format, contents) => {
    expect(await cliExport(jobs.mixed, format, '--include-failed')).toContain(contents);
    expect(await appExport(jobs.mixed, format, true)).toContain(contents);
  });

  test.each(['md', 'zip', 'combined'])('a %s export of a job with no result says so and what to do, not "2 files"', async (format) => {
    const cli = await cliExport(jobs.none, format);
    expect(cli).toContain('exported 2 targets (2 failed) to ');
    const contents = format === 'combined' ? '1 file that counts them' : `${format === 'zip' ? 'a zip of ' : ''}only manifest.jsonl, which says why, and failed.txt, which lists them to run again`;
    expect(cli).toContain(`: no results: none of the 2 targets has one; ${contents}\n  sift status ${jobs.none} shows what became of each target; --include-failed writes what each says\n`);
    const app = await appExport(jobs.none, format);
    expect(app).toContain(`: no results: none of the 2 targets has one; ${contents}.`);
    expect(app).toContain('Tick “Include failed');
  });
});

describe('what an export says when it cannot write', () => {
  test('an --out under a file names that file, not the path asked for, as what is in the way', async () => {
    writeFileSync(path.join(tmp.dir, 'notes'), 'a file of the user\'s\n');
    // A named file's folder is what is made, and named.
    for (const [out, format, made] of [
      ['notes/exports', 'md', 'notes/exports'],
      ['notes/exports/hits.csv', 'csv', 'notes/exports'],
    ] as const) {
      const r = await tmp.sift('export', jobs.one, '--db', tmp.db, '--out', out, '--format', format);
      expect(r.code).toBe(2);
      // It read "cannot write to …/notes/exports: a file is in the way of the export folder", and
      // notes/exports is no file: the user had to find which part of the path was.
      expect(r.err).toBe(`sift export: cannot write to ${path.join(tmp.dir, made)}: ${path.join(tmp.dir, 'notes')} is a file, in the way of the export folder\n  Choose a folder, not a file, as the export destination.\n`);
    }
  });
});
