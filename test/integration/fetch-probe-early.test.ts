/**
 * The soft-404 probe (a random path of the host, once per host per job) is asked beside a
 * host's first target, not after its answer: on a real list of many hosts, each host's first
 * page waited a second round trip. Here the server holds the target's answer until the
 * probe's request has come (or two seconds pass, so that a probe asked only afterwards fails
 * the test instead of hanging it).
 */
import { describe, expect, it } from 'vitest';
import { createFetcher } from '../../src/main/fetch';
import { articleHtml } from '../helpers/sites';
import { fixedResolver } from '../helpers/fetch-server';
import { closedAfterEach, listenLoopback } from '../helpers/loopback';

const RANDOM_PATH = /^\/[0-9a-f]{18}$/;

interface Host {
  origin: string;
  /** Paths asked, in order of arrival. */
  asked: string[];
  /** For each target answered: whether the probe's request had come while it was open. */
  probeWhileOpen: boolean[];
}

const open = closedAfterEach();

async function host(address: string, body: (path: string) => { type: string; text: string }, holdForProbe = true): Promise<Host> {
  const asked: string[] = [];
  const probeWhileOpen: boolean[] = [];
  let probeCame: () => void = () => {};
  const probed = new Promise<void>((r) => (probeCame = r));
  const origin = await listenLoopback(open, (req, res) => {
    const path = req.url ?? '/';
    asked.push(path);
    if (RANDOM_PATH.test(path)) {
      probeCame();
      res.writeHead(404, { 'content-type': 'text/html' });
      res.end('<h1>Not found</h1>');
      return;
    }
    let answered = false;
    const answer = (early: boolean) => {
      if (answered) return;
      answered = true;
      probeWhileOpen.push(early);
      const b = body(path);
      res.writeHead(200, { 'content-type': b.type });
      res.end(b.text);
    };
    const fallback = setTimeout(() => answer(false), 2000);
    void probed.then(() => {
      clearTimeout(fallback);
      answer(true);
    });
    // A target of a host already probed is answered at once.
    if (asked.some((p) => RANDOM_PATH.test(p))) answer(true);
    else if (!holdForProbe) answer(false);
  }, address);
  return { origin, asked, probeWhileOpen };
}

const page = (path: string) => ({ type: 'text/html; charset=utf-8', text: articleHtml(Number(/\d+/.exec(path)?.[0] ?? 0)) });

describe('the soft-404 probe', () => {
  it("is asked while a host's first page is still coming, once per host per job", async () => {
    const a = await host('127.0.0.1', page);
    const b = await host('127.0.0.2', page);
    const fetcher = createFetcher({ allowPrivate: true });
    open.push(fetcher);
    const signal = new AbortController().signal;
    for (const url of [`${a.origin}/article/1`, `${a.origin}/article/2`, `${b.origin}/article/3`]) {
      const r = await fetcher.fetchTarget(signal, { name: 'test', jobId: 'job-1' }, { url, options: { mode: 'markdown' } });
      expect(r.content).toContain('Paragraph 1 of article');
    }
    // Each host's first target was still open when the probe came.
    expect(a.probeWhileOpen).toEqual([true, true]);
    expect(b.probeWhileOpen).toEqual([true]);
    expect(a.asked.filter((p) => RANDOM_PATH.test(p))).toHaveLength(1);
    expect(b.asked.filter((p) => RANDOM_PATH.test(p))).toHaveLength(1);
    // Another job asks again: a host's catch-all page can change between runs.
    await fetcher.fetchTarget(signal, { name: 'test', jobId: 'job-2' }, { url: `${a.origin}/article/4`, options: { mode: 'markdown' } });
    expect(a.asked.filter((p) => RANDOM_PATH.test(p))).toHaveLength(2);
  });

  it('asked of a.test serves a target that lands on www.a.test; one that lands on another site asks that site', async () => {
    // One server for three names: a.test sends every path to www.a.test, go.test (a link
    // shortener) sends /s/N to www.a.test's article N; www.a.test has pages and real 404s.
    const asked: string[] = [];
    let probeCame: () => void = () => {};
    const probed = new Promise<void>((r) => (probeCame = r));
    let port = '';
    const origin = await listenLoopback(open, (req, res) => {
      const where = `${req.headers.host?.replace(/:\d+$/, '')}${req.url}`;
      asked.push(where);
      if (req.headers.host?.startsWith('a.test')) {
        res.writeHead(301, { location: `http://www.a.test:${port}${req.url}` });
        return res.end();
      }
      const short = /^\/s\/(\d+)$/.exec(req.url ?? '');
      if (req.headers.host?.startsWith('go.test')) {
        res.writeHead(short ? 301 : 404, short ? { location: `http://www.a.test:${port}/article/${short[1]}` } : { 'content-type': 'text/html' });
        return res.end(short ? undefined : '<h1>Not found</h1>');
      }
      if (RANDOM_PATH.test(req.url ?? '')) {
        probeCame();
        res.writeHead(404, { 'content-type': 'text/html' });
        return res.end('<h1>Not found</h1>');
      }
      // The first page waits for the probe (at most two seconds), as in the test above.
      const answer = () => {
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        res.end(articleHtml(Number(/\d+/.exec(req.url ?? '')?.[0] ?? 0)));
      };
      const fallback = setTimeout(answer, 2000);
      void probed.then(() => {
        clearTimeout(fallback);
        answer();
      });
    });
    port = new URL(origin).port;
    const names = { 'a.test': ['127.0.0.1'], 'www.a.test': ['127.0.0.1'], 'go.test': ['127.0.0.1'] };
    const fetcher = createFetcher({ allowPrivate: true }, { lookup: fixedResolver(names) });
    open.push(fetcher);
    const signal = new AbortController().signal;
    const caller = { name: 'test', jobId: 'job-1' };
    const first = await fetcher.fetchTarget(signal, caller, { url: `http://a.test:${port}/article/1`, options: { mode: 'markdown' } });
    expect(first.meta?.final_url).toBe(`http://www.a.test:${port}/article/1`);
    const probes = () => asked.filter((p) => RANDOM_PATH.test(p.slice(p.indexOf('/'))));
    // One ask, of a.test, which landed on www.a.test; the target used it, and asked no other.
    expect(probes().map((p) => p.slice(0, p.indexOf('/')))).toEqual(['a.test', 'www.a.test']);
    expect(asked.indexOf(probes()[1]!)).toBeLessThan(asked.lastIndexOf('www.a.test/article/1'));
    // A shortened link: go.test is asked beside it (its own site), then www.a.test, where it
    // landed, is asked for this job only now (a.test's ask served a.test's target only).
    await fetcher.fetchTarget(signal, caller, { url: `http://go.test:${port}/s/2`, options: { mode: 'markdown' } });
    expect(probes().map((p) => p.slice(0, p.indexOf('/')))).toEqual(['a.test', 'www.a.test', 'go.test', 'www.a.test']);
  });

  it('is not asked beside a URL that names a file, the root, or JSON for jq', async () => {
    const h = await host('127.0.0.1', (path) =>
      path.endsWith('.json') || path.startsWith('/api') ? { type: 'application/json', text: '{"a":1}' } : { type: 'text/plain', text: 'plain text' },
      false,
    );
    const fetcher = createFetcher({ allowPrivate: true });
    open.push(fetcher);
    const signal = new AbortController().signal;
    const caller = { name: 'test', jobId: 'job-1' };
    await fetcher.fetchTarget(signal, caller, { url: `${h.origin}/data/items.json`, options: { mode: 'raw' } });
    await fetcher.fetchTarget(signal, caller, { url: `${h.origin}/notes.txt`, options: { mode: 'raw' } });
    await fetcher.fetchTarget(signal, caller, { url: `${h.origin}/`, options: { mode: 'raw' } });
    const r = await fetcher.fetchTarget(signal, caller, { url: `${h.origin}/api/items`, options: { jq: '.a' } });
    expect(r.content.trim()).toBe('1');
    expect(h.asked).toEqual(['/data/items.json', '/notes.txt', '/', '/api/items']);
  });

  it("does not hold a page that came for a host that never answers a path it does not know, nor one that trickles it", async () => {
    // Pages at once; a random path never answered, or answered a byte a second for ever.
    const origins: string[] = [];
    for (const mode of ['stall', 'trickle']) {
      const origin = await listenLoopback(open, (req, res) => {
        if (!RANDOM_PATH.test(req.url ?? '')) return void res.writeHead(200, { 'content-type': 'text/html' }).end(articleHtml(1));
        if (mode === 'stall') return;
        res.writeHead(200, { 'content-type': 'text/html' }).write('<html><body>');
        const t = setInterval(() => (res.destroyed ? clearInterval(t) : res.write(' ')), 50);
      });
      origins.push(origin);
    }
    // Timeouts long enough that only the probe's own budget can end its wait in this test's time.
    const fetcher = createFetcher({ allowPrivate: true, headersTimeoutMs: 60_000, bodyTimeoutMs: 60_000, deadlineMs: 60_000 }, { probeBudgetMs: 300 });
    open.push(fetcher);
    for (const origin of origins) {
      const started = performance.now();
      const r = await fetcher.fetchTarget(new AbortController().signal, { name: 'test', jobId: origin }, { url: `${origin}/article/1`, options: { mode: 'markdown' } });
      expect(r.content, origin).toContain('Paragraph 1 of article');
      expect(performance.now() - started, origin).toBeLessThan(5_000);
    }
  }, 15_000);
});
