/**
 * A rendered app shell whose scripts' server did not answer names that server, through the real
 * `sift batch --render auto` (real Chromium, the guarding proxy, loopback): a user who reads
 * "the server they are on did not answer" can check a firewall for it only if it is named. The
 * name goes into the message stored with the target, never into a log line.
 */
import { beforeAll, describe, expect, test } from 'vitest';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { jsonLines, runSift } from '../helpers/cli';
import { closedAfterAll, listenLoopback } from '../helpers/loopback';

const open = closedAfterAll();
let home: string;
let site: string;
/** Ports nothing listens on: hosts that refuse the browser's connection, over https as a CDN's are. */
const closed: number[] = [];

const shell = (scripts: string[]): string =>
  `<!doctype html><html><head><meta charset="utf-8"><title>Loading</title></head><body><div id="app"></div>${scripts.map((s) => `<script src="${s}"></script>`).join('')}</body></html>`;

const closedPort = (): Promise<number> =>
  new Promise<number>((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as AddressInfo;
      s.close(() => resolve(port));
    });
  });

beforeAll(async () => {
  for (let i = 0; i < 3; i++) closed.push(await closedPort());
  const at = (i: number, file: string): string => `https://127.0.0.1:${closed[i]}/${file}`;
  const pages: Record<string, string> = {
    '/one-host': shell([at(0, 'vendor.js'), at(0, 'app.js')]),
    '/three-hosts': shell([at(0, 'vendor.js'), at(1, 'app.js'), at(2, 'chunk.js')]),
  };
  site = await listenLoopback(open, (req, res) => {
    const page = pages[req.url ?? ''];
    if (!page) return res.writeHead(404, { 'content-type': 'text/plain' }).end('no such page');
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page);
  });
  home = mkdtempSync(path.join(os.tmpdir(), 'sift-render-unreached-'));
  writeFileSync(path.join(home, 'settings.json'), JSON.stringify({ allowHosts: ['127.0.0.1'], deadlineSeconds: 60 }));
});

describe('a rendered app shell whose scripts could not be loaded', () => {
  test('names the server its scripts are on, up to two of them, in the stored message and not in the log', async () => {
    const file = path.join(home, 'list.txt');
    const log = path.join(home, 'sift.log');
    writeFileSync(file, `${site}/one-host\n${site}/three-hosts\n`);
    const run = await runSift(['batch', file, '--json', '--render', 'auto', '--db', path.join(home, 'jobs.db'), '--log', log], { env: { SIFT_HOME: home }, timeoutMs: 150_000 });
    const [one, three] = jsonLines(run.stdout);
    expect(one, run.stderr.slice(-2000)).toMatchObject({ ok: false, reason: 'needs_js' });
    // It read "the server they are on did not answer", and which one it was the user could not tell.
    expect(one!.error).toBe(`needs JavaScript: the page's content did not appear in a browser because 2 of its scripts could not be loaded: the server they are on (127.0.0.1:${closed[0]}) did not answer`);
    expect(one!.hint).toBe(
      "The server that holds the page's scripts did not answer Sift's browser: try again later. If it keeps failing, check this computer's network (a firewall, proxy or blocker may keep that server out), or open the page in a browser to see whether it shows there.",
    );
    expect(three, run.stderr.slice(-2000)).toMatchObject({ ok: false, reason: 'needs_js' });
    // The first two of the three servers in the page's order: it named them in the order the
    // browser's loads failed, which on a busy machine was not the page's (<1st>, <3rd>).
    expect(three!.error).toBe(`needs JavaScript: the page's content did not appear in a browser because 3 of its scripts could not be loaded: the servers they are on (127.0.0.1:${closed[0]}, 127.0.0.1:${closed[1]} and 1 more) did not answer`);
    // Its hint read "The server that holds the page's scripts … keep that server out" below a
    // message naming two servers and 1 more: the user was told to look for one.
    expect(three!.hint).toBe(
      "The servers that hold the page's scripts did not answer Sift's browser: try again later. If it keeps failing, check this computer's network (a firewall, proxy or blocker may keep those servers out), or open the page in a browser to see whether it shows there.",
    );
    const status = await runSift(['status', String(/^job (\S+)/m.exec(run.stderr)?.[1]), '--json', '--db', path.join(home, 'jobs.db')], { env: { SIFT_HOME: home } });
    expect(status.stdout).toContain(`127.0.0.1:${closed[1]}`);
    const logged = readFileSync(log, 'utf8');
    expect(logged.length).toBeGreaterThan(0);
    for (const port of closed) expect(logged).not.toContain(String(port));
  }, 180_000);
});
