/**
 * `--recover` through the built `sift` against a loopback Wayback Machine: what a user of
 * `sift fetch` and `sift batch` gets back for dead links.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { jsonLines, runSift } from '../helpers/cli';
import { startServer, type TestServer } from '../helpers/fetch-server';
import { startFakeWayback, type FakeWayback } from '../helpers/fake-wayback';

const ARTICLE = `<!doctype html><html lang="en"><head><title>Harbour lights</title></head><body>
<article><h1>Harbour lights</h1>
<p>${'The old lighthouse keeper climbed the stairs every evening to light the lamp above the harbour. '.repeat(5)}</p>
<p>Read <a href="/keepers">the keepers' log</a>.</p>
<p>${'Ships coming home in the fog counted the flashes to know which harbour they had found. '.repeat(5)}</p>
</article></body></html>`;

let site: TestServer;
let wb: FakeWayback;
let home: string;

beforeAll(async () => {
  site = await startServer();
  wb = await startFakeWayback();
  home = mkdtempSync(path.join(os.tmpdir(), 'sift-cli-recover-'));
  writeFileSync(path.join(home, 'settings.json'), JSON.stringify({ allowHosts: ['127.0.0.1'], archiveService: wb.service }));
});
afterAll(async () => {
  await wb.close();
  await site.close();
});

const sift = (args: string[]) => runSift([...args, '--db', path.join(home, 'db.sqlite')], { env: { SIFT_HOME: home }, timeoutMs: 90_000 });

describe('sift --recover', () => {
  test('fetch: a dead page comes back from its archived copy, with links to the site and the capture in meta', async () => {
    wb.captures.set(`${site.origin}/lost`, [{ timestamp: '20230102030405', body: ARTICLE }]);
    const run = await sift(['fetch', `${site.origin}/lost`, '--recover', '--json']);
    expect(run.code).toBe(0);
    const [r] = jsonLines(run.stdout);
    expect(r).toMatchObject({ ok: true, meta: { recovered: true, recovered_from: 404, snapshot_time: '2023-01-02T03:04:05Z', final_url: `${site.origin}/lost` } });
    expect(String(r!.content)).toContain(`(${site.origin}/keepers)`);
    expect(String(r!.content)).not.toContain('/web/2023');
  }, 120_000);

  test('fetch: a recovered page says on stderr that it is the archive\'s copy, from when, and which snapshot', async () => {
    wb.captures.set(`${site.origin}/lost-plain`, [{ timestamp: '20230102030405', body: ARTICLE }]);
    const run = await sift(['fetch', `${site.origin}/lost-plain`, '--recover']);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('lighthouse keeper');
    expect(run.stderr).toContain(
      `sift fetch: ${site.origin}/lost-plain: archived copy: the live page failed, so this is the archive's copy, captured 2023-01-02 03:04:05 UTC, which may be out of date: ${wb.server.origin}/web/20230102030405/${site.origin}/lost-plain\n`,
    );
  }, 120_000);

  test('batch: each recovered target and the summary say how many came from an archive', async () => {
    wb.captures.set(`${site.origin}/gone-a`, [{ timestamp: '20230102030405', body: ARTICLE }]);
    wb.captures.set(`${site.origin}/gone-b`, [{ timestamp: '20230102030405', body: ARTICLE }]);
    const file = path.join(home, 'gone.txt');
    writeFileSync(file, `${site.origin}/gone-a\n${site.origin}/gone-b\n${site.origin}/gone-c\n`);
    const run = await sift(['batch', file, '--recover']);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/\] #1 ok [\d.]+ k?B \(archived copy\) /);
    expect(run.stderr).toMatch(/\npartial: 3\/3 · ok 2 \(2 from an archive\) · failed 1 · /);
    const id = /^job (\S+)/.exec(run.stderr)?.[1] ?? '';
    const status = await sift(['status', id]);
    expect(status.stdout).toContain(': partial, 3/3 finished, 1 failed, 2 from an archive, created ');
  }, 120_000);

  test('fetch: with the archive service left empty in Settings, a dead page fails as itself and says recovery is off', async () => {
    const off = mkdtempSync(path.join(os.tmpdir(), 'sift-cli-recover-off-'));
    writeFileSync(path.join(off, 'settings.json'), JSON.stringify({ allowHosts: ['127.0.0.1'], archiveService: '' }));
    const run = await runSift(['fetch', `${site.origin}/lost-too`, '--recover', '--json', '--db', path.join(off, 'db.sqlite')], { env: { SIFT_HOME: off }, timeoutMs: 90_000 });
    expect(run.code).toBe(1);
    const [r] = jsonLines(run.stdout);
    expect(r).toMatchObject({ ok: false, status: 404, reason: 'upstream', error: 'HTTP 404 Not Found' });
    expect(String(r!.hint)).toMatch(/No archived copy: no archive service is set in the app’s Settings, under Network\.$/);
  }, 120_000);

  test('fetch --help names the failures --recover acts on', async () => {
    const run = await runSift(['fetch', '--help']);
    const help = run.stdout + run.stderr;
    expect(help).toMatch(/--recover {9}on 404\/410\/5xx, a timeout, a dead host, an anti-bot check, a sign-in\n {20}wall or a soft 404/);
  });

  test("batch: an archive that answers 429 is asked at most once per worker, not once per dead link", async () => {
    let asked = 0;
    let inFlight = 0;
    let most = 0;
    wb.available = (_req, res) => {
      asked++;
      most = Math.max(most, ++inFlight);
      res.on('finish', () => inFlight--);
      res.writeHead(429, { 'content-type': 'text/html', 'retry-after': '60' }).end('<html><body>Too many requests</body></html>');
      return true;
    };
    try {
      const file = path.join(home, 'dead.txt');
      writeFileSync(file, Array.from({ length: 16 }, (_, i) => `${site.origin}/dead-${i}`).join('\n'));
      const run = await sift(['batch', file, '--recover', '--json']);
      const lines = jsonLines(run.stdout);
      expect(lines).toHaveLength(16);
      // The CLI runs 4 targets at once: those may all be in flight before the first 429 comes.
      expect(asked, `${asked} lookups, at most ${most} at once`).toBeLessThanOrEqual(4);
      for (const l of lines) {
        expect(l).toMatchObject({ ok: false, status: 404, reason: 'upstream' });
        expect(String(l.hint)).toMatch(/No archived copy: the archive service (is busy \(HTTP 429 Too Many Requests\); retry these later|asked Sift to wait \d+ s before asking again; retry these then)\.$/);
      }
    } finally {
      wb.available = undefined;
    }
  }, 120_000);
});
