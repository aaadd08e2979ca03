/**
 * Large HTML pages are read in a worker thread (src/main/fetch/html-pool.ts): through the
 * real fetcher against a loopback server, the event loop keeps running while one is read, a
 * cancel or the deadline ends the reading at once, a page past the worker's heap fails as too
 * long, and what the worker makes is what the thread makes, on the article benchmark's pages.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { createFetcher, FetchError, type Fetcher } from '../../src/main/fetch';
import type { Options, Result } from '../../src/shared/types';
import { bigArticle } from '../helpers/big-page';
import { fail, fixedResolver, startServer, type TestServer } from '../helpers/fetch-server';
import { articleCorpusDir } from '../helpers/corpora';

/** ~1 MB of HTML: four times the worker's threshold, a few seconds of reading. */
const BIG = bigArticle(1_000_000);
const caller = { name: 'test' };
let srv: TestServer;
const fetchers: Fetcher[] = [];

function fetcher(html?: { workerFrom?: number; heapMb?: number }): Fetcher {
  const f = createFetcher({ allowPrivate: true }, { lookup: fixedResolver({}), ...(html ? { html } : {}) });
  fetchers.push(f);
  return f;
}

/** A result without the one field that differs between two runs of the same extraction. */
const comparable = (r: Result): Result => ({ content: r.content, meta: { ...r.meta, fetched_ms: 0 } });

beforeAll(async () => {
  srv = await startServer({
    '/big': (_q, r) => r.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(BIG),
    '/big-too': (_q, r) => r.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(bigArticle(600_000, 'The next page')),
  });
});
afterAll(async () => {
  await Promise.all(fetchers.map((f) => f.close()));
  await srv.close();
});

describe('a large page is read in the worker', () => {
  test('while it is read the event loop runs, and the result is what the thread makes', async () => {
    const f = fetcher();
    let settled = false;
    const pending = f.fetchTarget(new AbortController().signal, caller, { url: `${srv.origin}/big` }).finally(() => (settled = true));
    // Polled by the event loop: it runs while the worker holds the page.
    await expect.poll(() => f.html.inWorker).toBe(1);
    const ranFirst = await new Promise<boolean>((resolve) => setImmediate(() => resolve(!settled)));
    expect(ranFirst).toBe(true);
    const r = await pending;
    expect(f.html.spawned).toBe(1);
    expect(r.content).toMatch(/^# The long specification\n\n## Section 0\n/);
    expect(r.content).toContain('| Port | High water |');
    const inThread = await fetcher({ workerFrom: Infinity }).fetchTarget(new AbortController().signal, caller, { url: `${srv.origin}/big` });
    expect(comparable(r)).toEqual(comparable(inThread));
  });

  test('a cancel while it is read rejects with the cancel at once; the next large page is read by a fresh worker', async () => {
    const f = fetcher();
    const ac = new AbortController();
    const pending = f.fetchTarget(ac.signal, caller, { url: `${srv.origin}/big` });
    await expect.poll(() => f.html.inWorker).toBe(1);
    const reason = new Error('cancelled by the user');
    ac.abort(reason);
    await expect(pending).rejects.toBe(reason);
    // The worker holding the page was terminated, not left to finish it: the next page starts another.
    expect(f.html.inWorker).toBe(0);
    const next = await f.fetchTarget(new AbortController().signal, caller, { url: `${srv.origin}/big-too` });
    expect(next.content).toMatch(/^# The next page\n/);
    expect(f.html.spawned).toBe(2);
  });

  test("the target's deadline passing while it is read is a timeout of the extraction, not an internal error", async () => {
    const f = fetcher();
    const ac = new AbortController();
    const pending = fail(f.fetchTarget(ac.signal, caller, { url: `${srv.origin}/big` }));
    await expect.poll(() => f.html.inWorker).toBe(1);
    // What the batch wiring's own deadline (an AbortSignal.timeout) aborts with.
    ac.abort(new DOMException('The operation was aborted due to timeout', 'TimeoutError'));
    const err = await pending;
    expect(err).toMatchObject({ status: 504, code: 'timeout' });
    expect(err.message).toMatch(/while extracting/);
  });

  test('a page past the worker heap fails as too long, and the worker reads the next page', async () => {
    // 64 MB: the HTML stack and a page of 150,000 characters fit, a page of 3 million does not.
    const f = fetcher({ heapMb: 64, workerFrom: 100_000 });
    const err = await fail(f.extractBuffer(Buffer.from(bigArticle(3_000_000)), 'text/html', {}));
    expect(err).toBeInstanceOf(FetchError);
    expect(err).toMatchObject({ status: 422, code: 'too_long' });
    expect(err.message).toMatch(/^document too long: reading the page took more than 64 MB of memory/);
    expect(err.hint).toMatch(/--mode raw still returns it/);
    const next = await f.extractBuffer(Buffer.from(bigArticle(150_000, 'Small enough')), 'text/html', {});
    expect(next.content).toMatch(/^# Small enough\n/);
    expect(f.html.spawned).toBe(2);
  });

  test("a page nested too deep fails in the worker with the thread's error", async () => {
    const deep = `<html><body>${'<div>'.repeat(5000)}${'x'.repeat(300_000)}${'</div>'.repeat(5000)}</body></html>`;
    const worker = fetcher({ workerFrom: 0 });
    const inWorker = await fail(worker.extractBuffer(Buffer.from(deep), 'text/html', {}));
    const inThread = await fail(fetcher({ workerFrom: Infinity }).extractBuffer(Buffer.from(deep), 'text/html', {}));
    expect(worker.html.spawned).toBe(1);
    expect(inWorker).toBeInstanceOf(FetchError);
    expect(inWorker.toInfo()).toEqual(inThread.toInfo());
    expect(inWorker.code).toBe('too_long');
  });
});


describe('a large page is judged in the worker', () => {
  // A real challenge page (test/fixtures/outcomes) carrying 400 KB of inline script, as
  // bot-check pages that ship their solver inline do: judged off this thread, the same verdict.
  const challenge = readFileSync(path.join(__dirname, '../fixtures/outcomes/pages/cf_interactive_security_check_2021.html'), 'utf8').replace(
    '</head>',
    `<script>var solver = ${JSON.stringify('x'.repeat(400_000))};</script></head>`,
  );
  test('a challenge with a large inline script is a challenge, judged while the event loop runs', async () => {
    srv.route('/big-challenge-ok', (_q, r) => r.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(challenge));
    const f = fetcher();
    const inThread = fetcher({ workerFrom: Infinity });
    const pending = fail(f.fetchTarget(new AbortController().signal, caller, { url: `${srv.origin}/big-challenge-ok`, options: { render: 'never' } }));
    await expect.poll(() => f.html.inWorker).toBe(1);
    const e = await pending;
    expect(e).toMatchObject({ reason: 'challenge' });
    expect(f.html.spawned).toBe(1);
    const same = await fail(inThread.fetchTarget(new AbortController().signal, caller, { url: `${srv.origin}/big-challenge-ok`, options: { render: 'never' } }));
    expect({ status: e.status, msg: e.msg, reason: e.reason }).toEqual({ status: same.status, msg: same.msg, reason: same.reason });
    expect(inThread.html.spawned).toBe(0);
  });
});

describe("a large page is compared with its host's page for a random path in the worker", () => {
  // A host answering every path with the same large page (a catch-all): the target is no page
  // of its own (SPEC §5.9). Parsing both pages to compare them took 2.3 s of this thread for
  // 15 MB; it is done where the page is read.
  let catchAll: TestServer;
  beforeAll(async () => {
    catchAll = await startServer();
    const page = bigArticle(600_000, 'Welcome to the shop');
    // Every path, the probe's random one included, gets the same page.
    catchAll.fallback((_q, r) => r.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page));
  });
  afterAll(() => catchAll.close());

  test('the target is a soft 404, judged as in the thread', async () => {
    const f = fetcher();
    const e = await fail(f.fetchTarget(new AbortController().signal, caller, { url: `${catchAll.origin}/docs/guide`, options: { render: 'never' } }));
    expect(e).toMatchObject({ reason: 'soft404' });
    expect(f.html.asked.similarity).toBe(1);
    const inThread = fetcher({ workerFrom: Infinity });
    const same = await fail(inThread.fetchTarget(new AbortController().signal, caller, { url: `${catchAll.origin}/docs/guide`, options: { render: 'never' } }));
    expect({ status: e.status, msg: e.msg, reason: e.reason }).toEqual({ status: same.status, msg: same.msg, reason: same.reason });
    expect(inThread.html.spawned).toBe(0);
  });
});

describe('a large feed is read in the worker', () => {
  // A feed's entries become one document read as a page is: a 16 MB feed held this thread
  // 25 s in markdown mode. 250 entries of ~1.5 KB: past the worker's threshold.
  const entry = (i: number): string =>
    `<p>Entry ${i} says <b>something</b> with <a href="/p/${i}">a link</a>.</p>`.repeat(20);
  const rss = `<?xml version="1.0"?><rss version="2.0"><channel><title>The long feed</title><link>https://feeds.example/</link>${Array.from(
    { length: 250 },
    (_, i) => `<item><title>Entry ${i}</title><link>https://feeds.example/p/${i}</link><description><![CDATA[${entry(i)}]]></description></item>`,
  ).join('\n')}</channel></rss>`;
  const json = JSON.stringify({
    version: 'https://jsonfeed.org/version/1.1',
    title: 'The long JSON feed',
    items: Array.from({ length: 250 }, (_, i) => ({ id: String(i), url: `https://feeds.example/j/${i}`, title: `Item ${i}`, content_html: entry(i) })),
  });
  const modes: Options['mode'][] = ['markdown', 'text', 'html', 'links', 'meta'];

  test.each([
    // A JSON Feed is read where its JSON is parsed: the worker's json op.
    ['RSS', rss, 'application/rss+xml', /^# The long feed\n/, 'feed'],
    ['JSON Feed', json, 'application/feed+json', /^# The long JSON feed\n/, 'json'],
  ] as const)('%s: in every mode, what the thread makes', async (_name, body, type, heading, op) => {
    expect(body.length).toBeGreaterThan(256 * 1024);
    const worker = fetcher();
    const thread = fetcher({ workerFrom: Infinity });
    const url = 'https://feeds.example/feed';
    for (const mode of modes) {
      const [a, b] = await Promise.all([worker.extractBuffer(Buffer.from(body), type, { mode }, { url }), thread.extractBuffer(Buffer.from(body), type, { mode }, { url })]);
      expect(comparable(a), mode).toEqual(comparable(b));
      if (mode === 'markdown') expect(a.content).toMatch(heading);
      expect(a.meta?.entries, mode).toBe(250);
    }
    expect(worker.html.asked[op]).toBe(modes.length);
    expect(thread.html.spawned).toBe(0);
  });

  test('past the worker heap it fails as a feed too long, and mode raw still returns it', async () => {
    const f = fetcher({ heapMb: 64, workerFrom: 100_000 });
    const huge = rss.replace('</channel>', `${Array.from({ length: 4000 }, (_, i) => `<item><title>More ${i}</title><description><![CDATA[${entry(i)}]]></description></item>`).join('')}</channel>`);
    const err = await fail(f.extractBuffer(Buffer.from(huge), 'application/rss+xml', {}));
    expect(err).toMatchObject({ status: 422, code: 'too_long' });
    expect(err.message).toMatch(/^document too long: reading the feed took more than 64 MB of memory/);
    expect(err.hint).toMatch(/entries of a feed of \d+\.\d million characters; --mode raw/);
    const raw = await f.extractBuffer(Buffer.from(huge), 'application/rss+xml', { mode: 'raw' });
    expect(raw.content).toBe(huge);
  });
});

describe("a large text's passages are ranked for a question in the worker", () => {
  // Indexing every passage of a 15 MB text for a question held this thread 7.8 s.
  const words = ['harbour', 'tide', 'net', 'boat', 'season', 'rope', 'knot', 'quay', 'lantern', 'storm', 'gull'];
  const text = Array.from({ length: 12_000 }, (_, i) => `${words[i % 11]} ${words[(i * 7) % 11]} ${words[(i * 3) % 11]}, line ${i}.${i % 10 === 9 ? '\n' : ''}`).join('\n');
  const question = 'when does the storm reach the quay lantern?';

  test('the same passages as in the thread, and a cancel while it ranks is the cancel', async () => {
    expect(text.length).toBeGreaterThan(256 * 1024);
    const worker = fetcher();
    const thread = fetcher({ workerFrom: Infinity });
    const opts = { question, context: true };
    const [a, b] = await Promise.all([worker.extractBuffer(Buffer.from(text), 'text/plain', opts), thread.extractBuffer(Buffer.from(text), 'text/plain', opts)]);
    expect(comparable(a)).toEqual(comparable(b));
    expect(a.meta?.passages).toBeGreaterThan(0);
    expect(worker.html.asked.answer).toBe(1);
    expect(thread.html.spawned).toBe(0);

    const ac = new AbortController();
    // Four times as long: ranking it outlasts the poll that sees it in the worker.
    const pending = worker.extractBuffer(Buffer.from(text.repeat(4)), 'text/plain', { question }, { signal: ac.signal });
    await expect.poll(() => worker.html.inWorker).toBe(1);
    const reason = new Error('cancelled by the user');
    ac.abort(reason);
    await expect(pending).rejects.toBe(reason);
  });
});

describe('a large JSON document is read in the worker', () => {
  // Parsing and laying out 38 MB of JSON held this thread for seconds.
  const doc = JSON.stringify({ title: 'The catalogue', items: Array.from({ length: 6000 }, (_, i) => ({ id: i, url: `https://shop.example/p/${i}`, price: 1.1e2, tags: ['a', 'b'] })) });

  test('in every mode, and for jq, what the thread makes; invalid JSON is text, as in the thread', async () => {
    expect(doc.length).toBeGreaterThan(256 * 1024);
    const worker = fetcher();
    const thread = fetcher({ workerFrom: Infinity });
    const url = 'https://shop.example/catalogue.json';
    const cases: [string, Options][] = [
      ...(['markdown', 'text', 'html', 'links', 'meta', 'raw'] as const).map((mode): [string, Options] => [doc, { mode }]),
      [doc, { jq: '.items | length' }],
      [`${doc.slice(0, -1)},]`, { mode: 'markdown' }],
    ];
    for (const [body, options] of cases) {
      const [a, b] = await Promise.all([worker.extractBuffer(Buffer.from(body), 'application/json', options, { url }), thread.extractBuffer(Buffer.from(body), 'application/json', options, { url })]);
      expect(comparable(a), JSON.stringify(options)).toEqual(comparable(b));
    }
    expect(worker.html.asked.json).toBe(cases.length);
    expect(thread.html.spawned).toBe(0);
    const laid = await worker.extractBuffer(Buffer.from(doc), 'application/json', {}, { url });
    expect(laid.content).toMatch(/^\{\n {2}"title": "The catalogue",\n {2}"items": \[\n {4}\{\n {6}"id": 0,/);
    expect(laid.meta).toMatchObject({ title: 'The catalogue', kind: 'json' });
    const jq = await worker.extractBuffer(Buffer.from(doc), 'application/json', { jq: '.items | length' }, { url });
    expect(jq.content).toBe('6000');
    const bad = await fail(worker.extractBuffer(Buffer.from(`${doc}x`), 'application/json', { jq: '.' }, { url }));
    // The document is broken, not the program: its reason is a damaged document's.
    expect(bad).toMatchObject({ status: 422, code: 'bad_document', reason: 'unsupported' });
    // jq's place, as jq reads values one after another: the x after the document.
    expect(bad.message).toMatch(/^jq: the document is not valid JSON: unquoted text or a malformed number at EOF at line 1, column \d+$/);
  });
});

describe('the worker makes what the thread makes', () => {
  const modes: Options['mode'][] = ['markdown', 'text', 'html', 'links', 'meta'];

  test('on a large page, in every mode', async () => {
    const worker = fetcher({ workerFrom: 0 });
    const thread = fetcher({ workerFrom: Infinity });
    const page = Buffer.from(BIG);
    for (const mode of modes) {
      const url = 'https://docs.example/spec';
      const [a, b] = await Promise.all([worker.extractBuffer(page, 'text/html', { mode }, { url }), thread.extractBuffer(page, 'text/html', { mode }, { url })]);
      expect(comparable(a), mode).toEqual(comparable(b));
    }
    expect(worker.html.spawned).toBe(1);
  });

  const dir = articleCorpusDir();
  test.skipIf(!dir)("on the article benchmark's 91 pages, in every mode", async () => {
    const worker = fetcher({ workerFrom: 0 });
    const thread = fetcher({ workerFrom: Infinity });
    const files = readdirSync(dir!).filter((n) => n.endsWith('.html.gz'));
    expect(files).toHaveLength(91);
    for (const name of files) {
      const page = gunzipSync(readFileSync(path.join(dir!, name)));
      const url = `https://corpus.example/${name.slice(0, 12)}`;
      for (const mode of modes) {
        const [a, b] = await Promise.all([worker.extractBuffer(page, 'text/html', { mode }, { url }), thread.extractBuffer(page, 'text/html', { mode }, { url })]);
        expect(comparable(a), `${name} ${mode}`).toEqual(comparable(b));
      }
    }
    // One worker for them all: it is kept between pages.
    expect(worker.html.spawned).toBe(1);
  }, 600_000);
});
