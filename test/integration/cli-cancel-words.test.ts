/**
 * What the user reads after `sift cancel` came while a target's soft-404 probe was out: a link
 * on one loopback site redirecting to a page on another, whose random path (the probe) that
 * site holds until the cancel has been answered. `sift batch`, `sift cancel` and `sift status`
 * run as the user runs them, as subprocesses.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { collect, runSift, startSift, waitForStderr } from '../helpers/cli';
import { closedAfterEach, listenLoopback } from '../helpers/loopback';

const RANDOM_PATH = /^\/[0-9a-f]{18}$/;
const SHOP = `<!doctype html><html><head><title>Harbour Shop</title></head><body><article><h1>Welcome to the Harbour Shop</h1>${'<p>Nets, ropes and boats of every size, shipped from the harbour to your door within two days.</p>'.repeat(8)}</article></body></html>`;

const open = closedAfterEach();

describe('sift cancel while the probe of the site a redirect led to is out', () => {
  it('leaves the target stopped mid-way, in the cancel\'s words, in sift batch and sift status', async () => {
    let probeAsked = (): void => {};
    const probeOut = new Promise<void>((resolve) => (probeAsked = resolve));
    const landing = await listenLoopback(open, (req, res) => {
      if (!RANDOM_PATH.test(req.url ?? '')) return void res.writeHead(200, { 'content-type': 'text/html' }).end(SHOP);
      // Held: answered only when the test ends.
      probeAsked();
    });
    const shortener = await listenLoopback(open, (req, res) => {
      if (req.url?.startsWith('/s/')) return void res.writeHead(302, { location: `${landing}/products${req.url.slice(2)}` }).end();
      res.writeHead(404, { 'content-type': 'text/html' }).end('<!doctype html><title>Not found</title><p>No such link.</p>');
    });
    const home = mkdtempSync(path.join(os.tmpdir(), 'sift-cli-cancel-words-'));
    writeFileSync(path.join(home, 'settings.json'), JSON.stringify({ allowHosts: ['127.0.0.1'] }));
    const env = { SIFT_HOME: home };
    const db = path.join(home, 'sift.db');
    const list = path.join(home, 'links.txt');
    writeFileSync(list, `${shortener}/s/boat-1\n${shortener}/s/boat-2\n`);

    const child = startSift(['batch', list, '--db', db], { env });
    child.stdin!.end();
    const done = collect(child);
    const id = /job ([0-9a-f]+)/.exec(await waitForStderr(child, /job [0-9a-f]+\n/))![1]!;
    await probeOut;
    const cancel = await runSift(['cancel', id, '--db', db], { env });
    expect(cancel.code, cancel.stderr).toBe(0);
    const run = await done;
    const status = await runSift(['status', id, '--db', db], { env });

    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/^cancelled: 0\/2 · ok 0 · failed 0 · stopped mid-way 1 · /m);
    // Before: the first row was "ok", the landing site's catch-all page stored as the link's page.
    // Its row now says stopped, as the counts do ("failed" read beside "failed 0").
    expect(run.stdout).toMatch(/^ {4}1 {2}stopped cancelled {2}.*\/s\/boat-1$/m);
    expect(status.stdout).toMatch(new RegExp(`^job ${id}: cancelled, 0/2 finished, 0 failed, 1 stopped mid-way, `));
    expect(status.stdout).toMatch(/^ {4}1 {2}stopped {2}.*\/s\/boat-1 {2}\[cancelled\]/m);
    for (const said of [run.stdout, run.stderr, status.stdout, status.stderr]) expect(said).not.toMatch(/internal error|bug in Sift/i);
  }, 120_000);
});
