/**
 * A list's URLs in Japanese or Russian as `sift` prints them for a person: the summary after
 * `sift batch`, `sift status` and `sift search` name a target as its progress lines do, in
 * its own letters (/記事/東京?q=москва), not as the stored percent escapes. --json keeps the
 * stored URL; --allow-host takes such a host name as typed. A real `sift` against a loopback
 * site, in a temp SIFT_HOME.
 */
import { afterAll, beforeAll, expect, test } from 'vitest';
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startSite, type Site } from '../helpers/sites';
import { jsonLines, runSift } from '../helpers/cli';

let site: Site;
let env: NodeJS.ProcessEnv;
let db: string;
let job: string;
let batchOut: string;

const PATH = '/記事/東京';
const ENCODED = '/%E8%A8%98%E4%BA%8B/%E6%9D%B1%E4%BA%AC?q=%D0%BC%D0%BE%D1%81%D0%BA%D0%B2%D0%B0';

beforeAll(async () => {
  site = await startSite({
    [encodeURI(PATH)]: (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(
        '<!doctype html><html lang="ja"><head><meta charset="utf-8"><title>東京の紹介</title></head><body><main><article><h1>東京の紹介</h1><p>東京都は日本の首都です。人口は約一千四百万人で、世界でも有数の大都市として知られています。</p><p>交通機関が発達しており、電車で多くの場所に行くことができます。観光客も一年中訪れます。</p></article></main></body></html>',
      );
    },
  });
  const home = mkdtempSync(path.join(os.tmpdir(), 'sift-cli-readable-'));
  writeFileSync(path.join(home, 'settings.json'), JSON.stringify({ allowHosts: ['127.0.0.1'] }));
  env = { SIFT_HOME: home };
  db = path.join(home, 'sift.db');
  const r = await runSift(['batch', '-', '--db', db], { env, input: `${site.base}${PATH}?q=москва\n` });
  if (!/^job /.test(r.stderr)) throw new Error(r.stderr);
  job = /^job (\S+)/.exec(r.stderr)![1]!;
  batchOut = r.stdout;
}, 120_000);
afterAll(async () => {
  await site?.close();
});

test('sift batch, status and search name a target by its readable URL; --json keeps the stored one', { timeout: 120_000 }, async () => {
  const readable = `${site.base}${PATH}?q=москва`;
  expect(batchOut).toContain(`  ${readable}`);
  expect(batchOut).not.toContain('%E8');

  const status = await runSift(['status', job, '--db', db], { env });
  expect(status.code).toBe(0);
  expect(status.stdout).toMatch(new RegExp(`^ +1 +done +${readable.replace(/[.?]/g, '\\$&')}`, 'm'));

  const search = await runSift(['search', '首都', '--db', db], { env });
  expect(search.code).toBe(0);
  expect(search.stdout).toContain(`1. 東京の紹介  ${readable}\n`);

  const json = await runSift(['status', job, '--json', '--db', db], { env });
  expect(jsonLines(json.stdout)[1]).toMatchObject({ url: `${site.base}${ENCODED}` });
  const hits = jsonLines((await runSift(['search', '首都', '--json', '--db', db], { env })).stdout);
  expect(hits[0]).toMatchObject({ url: `${site.base}${ENCODED}` });
});

test('--allow-host takes a host name in its own letters, as a person types it', { timeout: 120_000 }, async () => {
  // Refused before as "not a host name or address", so an intranet named so could not be let through.
  const r = await runSift(['fetch', `${site.base}${PATH}`, '--allow-host', 'wiki.例え.test', '--allow-host', '.пример.рф', '--mode', 'text', '--db', db], { env });
  expect(r.stderr).not.toMatch(/not a host name/);
  expect(r.code).toBe(0);
  expect(r.stdout).toContain('東京都は日本の首都です。');
  const bad = await runSift(['fetch', `${site.base}${PATH}`, '--allow-host', 'wiki.例え.test/path', '--db', db], { env });
  expect(bad.code).toBe(2);
  expect(bad.stderr).toMatch(/--allow-host "wiki\.例え\.test\/path" is not a host name or address/);
});
