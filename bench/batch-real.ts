/**
 * `npm run bench -- batch-real`: bench batch's comparison (_batch-tools.ts) on real pages:
 * the article benchmark's 91 pages (shared/corpora/article-extraction, 182 KB on average),
 * each fetched 4 times in a list of 364 URLs from a loopback server. bench batch's pages are
 * 1.2 KB each, where the runner's and store's fixed costs weigh most; here reading the page
 * (judging it, extracting its article) does. No target: issue 15's are set on bench batch.
 *
 * With --render never: under the default (auto) one of the 91 pages is rendered, and its
 * renders (2.5 to 9.5 s each, the page's scripts waiting on hosts the guard refuses) would
 * be most of the time measured; rendering has its own bench (bench render). Under auto, mode
 * raw also runs Readability on each page that carries scripts, to tell whether it is thin.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { articlePages } from './_corpus';
import { compareBatch, requireBundle } from './_batch-tools';

const REPEATS = 4;

export default async function run(): Promise<void> {
  requireBundle();
  const pages = articlePages().map((p) => Buffer.from(p.html, 'utf8'));
  const server = http.createServer((req, res) => {
    const page = /^\/page\/(\d+)(?:\?|$)/.exec(req.url ?? '');
    const body = page ? pages[Number(page[1])] : undefined;
    if (!body) {
      res.writeHead(404, { 'content-type': 'text/html' });
      res.end('<h1>Not found</h1>');
      return;
    }
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'content-length': body.length });
    res.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const work = mkdtempSync(path.join(os.tmpdir(), 'sift-bench-batch-real-'));
  try {
    process.stdout.write(`${pages.length} real pages (${Math.round(pages.reduce((n, b) => n + b.length, 0) / pages.length / 1024)} KB on average), each ${REPEATS} times\n`);
    // A query string keeps each repeat its own URL (a list's duplicates are one target).
    const urls = Array.from({ length: REPEATS }, (_, r) => pages.map((_, i) => `${base}/page/${i}?r=${r}`)).flat();
    process.stdout.write('sift runs with --render never (see the top of bench/batch-real.ts)\n');
    await compareBatch(urls, work, ['--render', 'never']);
  } finally {
    await new Promise<void>((resolve) => server.close(() => resolve()));
    rmSync(work, { recursive: true, force: true });
  }
}
