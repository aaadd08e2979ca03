/**
 * A grep that matched no line says what to try for the pattern it was: every one was told
 * "(?i) at its start ignores case", (?i)error and 404 included, and /error/i (a pattern as
 * JavaScript code writes it) was not told that grep had looked for its slashes. Through the CLI,
 * the pipeline and a real database, against a loopback site.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { loopbackSift, type LoopbackSift, type siftInProcess } from '../helpers/cli-main';
import { startSite, type Site } from '../helpers/sites';

let site: Site;
let tmp: LoopbackSift;
let sift: ReturnType<typeof siftInProcess>;
let db: string;

const LOG = 'ERROR disk full on /var\nwarning: retrying upload\nERROR upload failed\n';
const CASE_ADVICE = /\(\?i\) at its start ignores case\.$/m;

beforeAll(async () => {
  site = await startSite({
    '/app.log': (_req, res) => res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' }).end(LOG),
  });
  tmp = loopbackSift('sift-grep-no-match-');
  ({ sift, db } = tmp);
}, 120_000);
afterAll(async () => {
  await site.close();
  tmp.remove();
});

describe('sift fetch with a grep that matches no line', () => {
  test('a pattern between slashes, as JavaScript writes it, is told to drop them, with (?i) for its i', async () => {
    const r = await sift('fetch', `${site.base}/app.log`, '--grep', '/error.*full/i', '--db', db);
    expect(r.code, r.err).toBe(0);
    expect(r.out).toBe('');
    expect(r.err).toContain(
      "no match: No line matches /error.*full/i, slashes included: if they wrap the pattern, as JavaScript code writes one, write (?i)error.*full instead (Sift's grep takes the pattern alone, as grep does, and (?i) at its start ignores case).",
    );
    // The pattern it suggests is the one that matches.
    const fixed = await sift('fetch', `${site.base}/app.log`, '--grep', '(?i)error.*full', '--db', db);
    expect(fixed.out).toBe('ERROR disk full on /var\n');
  });

  test('a pattern that ignores case already, or has no letters, is not told to ignore case', async () => {
    const ignoring = await sift('fetch', `${site.base}/app.log`, '--grep', '(?i)timeout', '--db', db);
    expect(ignoring.err).toContain('no match: No line matches the grep expression, with capitals and small letters alike');
    expect(ignoring.err).not.toMatch(CASE_ADVICE);
    const digits = await sift('fetch', `${site.base}/app.log`, '--grep', '\\b50[0-9]\\b', '--db', db);
    expect(digits.err).toContain('no match: No line matches the grep expression: the page was read, and nothing in it matched.');
    expect(digits.err).not.toMatch(CASE_ADVICE);
    // A pattern with letters keeps the advice on capitals: it may be the reason.
    const cased = await sift('fetch', `${site.base}/app.log`, '--grep', 'Warning', '--db', db);
    expect(cased.err).toMatch(CASE_ADVICE);
  });
});

test("sift batch's exported file for the target says the same", async () => {
  writeFileSync(path.join(tmp.dir, 'list.txt'), `${site.base}/app.log grep="/upload/"\n`);
  const out = path.join(tmp.dir, 'out');
  const r = await sift('batch', 'list.txt', '--db', db, '--out', out, '--format', 'txt');
  expect(r.code, r.err).toBe(0);
  const dir = /^exported .+? to (.+) \([\d.,]+ [kMG]?B\): /m.exec(r.err)![1]!;
  const file = readdirSync(dir).find((f) => f.endsWith('(no match).txt'));
  expect(file).toBeDefined();
  expect(readFileSync(path.join(dir, file!), 'utf8')).toContain('No line matches /upload/, slashes included: if they wrap the pattern, as JavaScript code writes one, write upload instead');
});

test('sift batch whose grep matched no line on any target says how many had no match, in its last line and in sift status, not "with warnings"', async () => {
  writeFileSync(path.join(tmp.dir, 'none.txt'), `${site.base}/app.log grep=timeout\n${site.base}/app.log grep="disk [0-9]{2}"\n`);
  const r = await sift('batch', 'none.txt', '--db', db);
  expect(r.code, r.err).toBe(0);
  // Before: "done: 2/2 · ok 2 (2 with warnings) · failed 0", which read as something gone wrong.
  expect(r.err).toMatch(/^done: 2\/2 · ok 2 \(2 with no match\) · failed 0 · /m);
  expect(r.err).not.toContain('with warnings');
  const id = /^job ([0-9a-f]+)/.exec(r.err)![1]!;
  const status = await sift('status', id, '--db', db);
  expect(status.out).toMatch(/, 2\/2 finished, 0 failed, 2 with no match, created /);
});
