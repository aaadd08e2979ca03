/**
 * `npm run bench -- hosts`: a list spread over many hosts, as real lists are (bookmarks,
 * a search's results), each host answering after a round trip. Sift asks each host once per
 * job for a random path (the soft-404 probe); asked after the host's first page, it cost a
 * second round trip per host, asked beside it, none. Served on HOSTS loopback addresses
 * (127.0.0.2…), every answer after DELAY_MS; the same list fetched by sift (mode raw and
 * markdown), the bare Node loop, wget -i and curl in alternated rounds (_batch-tools.ts).
 * The least any tool can take is one round trip per URL: wget's time.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { articleHtml } from '../test/helpers/sites';
import { compareBatch, requireBundle } from './_batch-tools';

const HOSTS = 20;
const PAGES_PER_HOST = 2;
const DELAY_MS = 40;

async function serve(address: string, hits: { pages: number; probes: number }): Promise<{ origin: string; close: () => Promise<void> }> {
  const server = http.createServer((req, res) => {
    const m = /^\/article\/(\d+)$/.exec(req.url ?? '');
    if (m) hits.pages++;
    else hits.probes++;
    setTimeout(() => {
      if (!m) {
        res.writeHead(404, { 'content-type': 'text/html' });
        res.end('<h1>Not found</h1>');
        return;
      }
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(articleHtml(Number(m[1])));
    }, DELAY_MS);
  });
  await new Promise<void>((r) => server.listen(0, address, r));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://${address}:${port}`,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

export default async function run(): Promise<void> {
  requireBundle();
  const hits = { pages: 0, probes: 0 };
  const servers = await Promise.all(Array.from({ length: HOSTS }, (_, i) => serve(`127.0.0.${i + 2}`, hits)));
  const work = mkdtempSync(path.join(os.tmpdir(), 'sift-bench-hosts-'));
  try {
    // Hosts in turn, as a list sorted by anything but host has them.
    const urls = Array.from({ length: PAGES_PER_HOST }, (_, k) => servers.map((s, i) => `${s.origin}/article/${k * HOSTS + i}`)).flat();
    process.stdout.write(`${urls.length} URLs over ${HOSTS} hosts, each answer after ${DELAY_MS} ms: the least a serial fetch can take is ${((urls.length * DELAY_MS) / 1000).toFixed(2)} s\n`);
    const before = { ...hits };
    const results = await compareBatch(urls, work, ['--allow-private', '--render', 'never']);
    const ideal = urls.length * DELAY_MS;
    process.stdout.write(`round trips: sift raw ${((results.raw ?? 0) / ideal).toFixed(2)}x, markdown ${((results.sift ?? 0) / ideal).toFixed(2)}x the list's (one per URL)\n`);
    process.stdout.write(`(all tools, all rounds: ${hits.pages - before.pages} page requests, ${hits.probes - before.probes} random-path probes)\n`);
  } finally {
    await Promise.all(servers.map((s) => s.close()));
    rmSync(work, { recursive: true, force: true });
  }
}
