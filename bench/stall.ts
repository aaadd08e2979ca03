/**
 * `npm run bench -- stall`: how long the main thread stops answering while Sift reads a large
 * document, the worker (html-pool.ts) against the same fetcher reading it in this thread
 * (workerFrom: Infinity), in the same run. The event loop's longest delay is what a user
 * feels: `sift batch`'s Ctrl-C and progress line, and the app's main process, wait that long.
 *
 * Documents (made here, each past the worker's threshold many times over): a page of 15 MB
 * whose host answers every path with it (the soft-404 comparison), a feed of 16 MB, a JSON
 * document of 38 MB, a text of 15 MB asked a question.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { createFetcher, type Fetcher } from '../src/main/fetch';
import type { Options } from '../src/shared/types';

interface Case {
  name: string;
  run: (f: Fetcher) => Promise<unknown>;
}

const para = '<p>Lorem ipsum dolor sit amet, <a href="/x">consectetur</a> adipiscing elit, sed do eiusmod tempor incididunt ut labore.</p>\n';
const PAGE = `<html><head><title>The shop</title></head><body>${para.repeat(Math.ceil(15e6 / para.length))}</body></html>`;

function feed(): string {
  const body = '<p>Some <b>rich</b> text with <a href="/x">a link</a> and more words in the body of the entry.</p>'.repeat(12);
  const items = Array.from({ length: 12_000 }, (_, i) => `<item><title>Entry ${i}</title><link>https://feeds.example/p/${i}</link><description><![CDATA[${body}]]></description></item>`);
  return `<?xml version="1.0"?><rss version="2.0"><channel><title>Big</title><link>https://feeds.example/</link>${items.join('\n')}</channel></rss>`;
}

function text(): string {
  const words = 'the harbour tide net boat mending season rope knot quay fisher lantern storm gull'.split(' ');
  const lines: string[] = [];
  let n = 0;
  for (let i = 0; n < 15e6; i++) {
    const line = `${words[i % 14]} ${words[(i * 7) % 14]} ${words[(i * 3) % 14]} line ${i}.${i % 10 === 9 ? '\n' : ''}`;
    lines.push(line);
    n += line.length + 1;
  }
  return lines.join('\n');
}

const JSON_DOC = JSON.stringify({
  title: 'Catalogue',
  items: Array.from({ length: 300_000 }, (_, i) => ({ id: i, name: `item ${i}`, url: `https://shop.example/p/${i}`, tags: ['a', 'b'], nested: { x: i * 2, y: 'zzzzzzzzzzzz' } })),
});

/** The longest the event loop waited while `work` ran, in ms, and how long it took. */
async function stall(work: () => Promise<unknown>): Promise<{ stallMs: number; ms: number }> {
  const h = monitorEventLoopDelay({ resolution: 10 });
  h.enable();
  // Its first ticks: a delay is measured from the tick before it.
  await new Promise((r) => setTimeout(r, 50));
  const t = performance.now();
  await work();
  const ms = performance.now() - t;
  // A turn of the timers, so a delay that ended with the work is recorded too.
  await new Promise((r) => setTimeout(r, 20));
  h.disable();
  return { stallMs: h.max / 1e6, ms };
}

export default async function main(): Promise<void> {
  // A host answering every path with the same page: its random path too.
  const server = http.createServer((_q, r) => r.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(PAGE));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const feedXml = Buffer.from(feed());
  const txt = Buffer.from(text());
  const json = Buffer.from(JSON_DOC);
  const extract = (buf: Buffer, type: string, options: Options) => (f: Fetcher) => f.extractBuffer(buf, type, options, { url: 'https://bench.example/doc' });
  const cases: Case[] = [
    // mode raw: the page is not read, only judged and compared with the host's random path.
    { name: `page ${(PAGE.length / 1e6).toFixed(0)} MB, soft-404 comparison`, run: (f) => f.fetchTarget(new AbortController().signal, { name: 'bench' }, { url: `${origin}/docs/guide`, options: { mode: 'raw', render: 'never' } }).catch(() => undefined) },
    { name: `feed ${(feedXml.length / 1e6).toFixed(0)} MB, markdown`, run: extract(feedXml, 'application/rss+xml', { mode: 'markdown' }) },
    { name: `JSON ${(json.length / 1e6).toFixed(0)} MB, laid out`, run: extract(json, 'application/json', { mode: 'markdown' }) },
    { name: `text ${(txt.length / 1e6).toFixed(0)} MB, question`, run: extract(txt, 'text/plain', { question: 'when does the storm reach the quay lantern?' }) },
  ];
  const out = (s: string): boolean => process.stdout.write(`${s}\n`);
  out('document                              | longest stall: worker   thread   ratio | time: worker   thread');
  for (const c of cases) {
    const worker = createFetcher({ allowPrivate: true });
    const thread = createFetcher({ allowPrivate: true }, { html: { workerFrom: Infinity } });
    try {
      // Warm each (modules, the worker's HTML stack) on a small document first.
      await Promise.all([worker, thread].map((f) => f.extractBuffer(Buffer.from('<p>x</p>'.repeat(40_000)), 'text/html', {})));
      const w = await stall(() => c.run(worker));
      const t = await stall(() => c.run(thread));
      const f = (n: number): string => `${n.toFixed(0)} ms`.padStart(9);
      out(`${c.name.padEnd(37)} | ${f(w.stallMs)} ${f(t.stallMs)} ${(w.stallMs / t.stallMs).toFixed(3).padStart(7)} | ${f(w.ms)} ${f(t.ms)}`);
    } finally {
      await Promise.all([worker.close(), thread.close()]);
    }
  }
  server.close();
}

if (require.main === module) void main();
