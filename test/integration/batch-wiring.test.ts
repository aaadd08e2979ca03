/**
 * Task 06's given test, in TypeScript: the runner wired to the real fetch pipeline against
 * loopback servers; every fetch error kind stored and labelled; retries; the gate; metrics.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import { gzipSync } from 'node:zlib';
import path from 'node:path';
import { createServer as createNetServer, type AddressInfo } from 'node:net';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { openStore, type Store } from '../../src/main/store';
import { createFetcher, FetchError, Gate, pageError, type Fetcher } from '../../src/main/fetch';
import { BatchMetrics } from '../../src/main/metrics';
import { createLog, silentLog } from '../../src/main/log';
import { openEngine } from '../../src/main/engine';
import { DEFAULT_SETTINGS } from '../../src/shared/settings';
import { batchOutcome, createBatchRunner, describe as describeErr, mapFetchError } from '../../src/main/batchrun';
import { RetryLaterError, type TargetError, isRetryLater, type Runner } from '../../src/main/batch';
import { busyWhy } from '../../src/main/batch/errors';
import { upstreamError } from '../../src/main/fetch/client';
import type { Target, TargetWait } from '../../src/shared/types';
import { finished } from '../helpers/runner';
import { articleHtml, startSite, type Site } from '../helpers/sites';
import { numberedPdf } from '../helpers/fetch-pdf';
import { closedAfterEach } from '../helpers/loopback';

let site: Site;
beforeAll(async () => {
  site = await startSite();
});
afterAll(async () => {
  await site.close();
});

interface Rig {
  store: Store;
  fetcher: Fetcher;
  runner: Runner;
  metrics: BatchMetrics;
  close(): Promise<void>;
}
const rigs = closedAfterEach();

/** The names tests use: internal.test resolves to a private address (never contacted). */
const lookup = async (host: string) => {
  if (host === 'internal.test') return [{ address: '10.0.0.5', family: 4 as const }];
  if (host === 'canary-reading-list.test') return [{ address: '127.0.0.1', family: 4 as const }];
  return [{ address: '127.0.0.1', family: 4 as const }];
};

function rig(opts: { fetch?: Parameters<typeof createFetcher>[0]; runner?: Parameters<typeof createBatchRunner>[2]; logFile?: string; lookup?: typeof lookup } = {}): Rig {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'sift-wiring-'));
  const store = openStore(path.join(dir, 'sift.db'));
  const log = opts.logFile ? createLog([opts.logFile]) : silentLog();
  // Loopback is allowed by host name only, so internal.test (10.0.0.5) is still blocked.
  const fetcher = createFetcher({ allowHosts: ['127.0.0.1', 'canary-reading-list.test'], ...opts.fetch }, { lookup: opts.lookup ?? lookup, log });
  const metrics = new BatchMetrics();
  const runner = createBatchRunner(store, fetcher, { retryWaitMs: 20, retryForMs: 300, jobsPerCaller: 4, ...opts.runner }, metrics, log);
  const r: Rig = {
    store,
    fetcher,
    runner,
    metrics,
    async close() {
      await runner.close();
      await fetcher.close();
      store.close();
    },
  };
  rigs.push(r);
  return r;
}

async function metricValue(m: BatchMetrics, name: string, labels: Record<string, string> = {}): Promise<number> {
  const all = await m.registry.getMetricsAsJSON();
  const metric = all.find((x) => x.name === name);
  const v = (metric?.values ?? []).find((x) => Object.entries(labels).every(([k, val]) => String((x.labels as Record<string, unknown>)[k]) === val) && !('le' in x.labels));
  return v?.value ?? 0;
}

describe('batchFetch error mapping and outcomes', () => {
  test('each fetch error kind yields the stored TargetError and outcome label of task 06', async () => {
    // The slow page fails on its header timeout; the target deadline stays wide, so the
    // other targets (PDF, jq) finish on a busy machine too.
    const r = rig({ fetch: { deadlineMs: 60_000, headersTimeoutMs: 1000 }, runner: { maxBytes: 4000 } });
    const targets: Target[] = [
      { url: `${site.base}/article/1` },
      { url: `${site.base}/missing/1` },
      { url: `${site.base}/broken` },
      { url: `${site.base}/binary` },
      { url: 'http://internal.test/admin' },
      { url: `${site.base}/slow/5000` },
      { url: `${site.base}/big` },
      { url: `${site.base}/data/1.json`, options: { jq: '.items[' } },
      { url: 'ftp://example.org/file' },
    ];
    const { id } = r.runner.submit({ name: 'test' }, 'test', targets);
    const job = await finished(r.runner, id);
    const rows = r.store.targetRows(id);
    const summary = rows.map((t) => [t.status, t.error.split(':')[0]]);
    expect(summary[0]).toEqual(['done', '']);
    expect(rows[1]).toMatchObject({ status: 'failed' });
    expect(rows[1]!.error).toMatch(/404/);
    expect(rows[2]!.error).toMatch(/500/);
    expect(rows[3]!.error).toMatch(/^unsupported: application\/octet-stream/);
    expect(rows[4]!.error).toBe('blocked');
    expect(rows[5]!.error).toMatch(/^timeout/);
    expect(rows[6]!.error).toMatch(/^document too long/);
    expect(rows[7]!.error).toMatch(/^jq: /);
    expect(rows[8]!.error).toMatch(/^invalid URL: scheme ftp/);
    expect(rows[8]!.hint).toMatch(/http/);
    expect(job.status).toBe('partial');
    // Every failure carries its reason (SPEC §5.9).
    expect(rows.map((t) => t.reason)).toEqual(['', 'upstream', 'upstream', 'unsupported', 'blocked', 'timeout', 'too_long', 'bad_option', 'bad_option']);
    // The outcome labels, read back from the metrics the hooks fed: the seed's, extended with the reasons.
    for (const [label, n] of Object.entries({ ok: 1, upstream_4xx: 1, upstream_5xx: 1, unsupported: 1, blocked: 1, timeout: 1, too_long: 1, bad_option: 2 })) {
      expect(await metricValue(r.metrics, 'sift_batch_targets_total', { outcome: label }), label).toBe(n);
    }
  });

  test('a body that does not decompress is stored as a fault of the site\'s (reason upstream, its headers misdescribe its body), saying so, not as "internal error" of the network', async () => {
    const gz = gzipSync(articleHtml(5));
    const damaged = await startSite({
      '/plain-said-gzip': (_req, res) => res.writeHead(200, { 'content-type': 'text/html', 'content-encoding': 'gzip' }).end(articleHtml(5)),
      '/gzip-cut': (_req, res) => res.writeHead(200, { 'content-type': 'text/html', 'content-encoding': 'gzip' }).end(gz.subarray(0, gz.length >> 1)),
      '/gzip-said-br': (_req, res) => res.writeHead(200, { 'content-type': 'text/html', 'content-encoding': 'br' }).end(gz),
    });
    try {
      const r = rig();
      const { id } = r.runner.submit({ name: 'test' }, 'test', ['/plain-said-gzip', '/gzip-cut', '/gzip-said-br'].map((p) => ({ url: `${damaged.base}${p}` })));
      expect((await finished(r.runner, id)).status).toBe('failed');
      const rows = r.store.targetRows(id);
      for (const t of rows) expect(t).toMatchObject({ status: 'failed', error: 'corrupt compressed body', errorStatus: 422, reason: 'upstream' });
      expect(rows[0]!.hint).toMatch(/^The server says the body is compressed as gzip, but it does not decompress as that/);
      expect(rows[1]!.hint).toMatch(/^The server's gzip-compressed body stops part way/);
      expect(rows[2]!.hint).toMatch(/compressed as br/);
      for (const t of rows) expect(t.hint).toMatch(/report it to the site\. The recover option looks for an archived copy\.$/);
      expect(await metricValue(r.metrics, 'sift_batch_targets_total', { outcome: 'upstream_4xx' })).toBe(3);
    } finally {
      await damaged.close();
    }
  });

  test('a redirect loop, a chain with no end and a redirect Sift cannot follow are the site\'s HTTP errors, each said as what it is, not network errors', async () => {
    let step = 0;
    const redirecting = await startSite({
      '/loop': (_req, res) => res.writeHead(302, { location: '/loop' }).end(),
      '/ping': (_req, res) => res.writeHead(301, { location: '/pong' }).end(),
      '/pong': (_req, res) => res.writeHead(301, { location: '/ping' }).end(),
      // A new address every time: no loop, only a chain that never reaches a page.
      '/onward': (_req, res) => res.writeHead(302, { location: `/onward?step=${++step}` }).end(),
      '/to-ftp': (_req, res) => res.writeHead(302, { location: 'ftp://127.0.0.1/report.pdf' }).end(),
      // The same address again, but with the cookie it set: a handshake that ends on the page.
      '/handshake': (req, res) => {
        if (/seen=1/.test(req.headers.cookie ?? '')) return void res.writeHead(200, { 'content-type': 'text/html' }).end(articleHtml(7));
        res.writeHead(302, { location: '/handshake', 'set-cookie': 'seen=1; Path=/' }).end();
      },
    });
    try {
      const r = rig();
      const { id } = r.runner.submit({ name: 'test' }, 'test', ['/loop', '/ping', '/onward', '/to-ftp', '/handshake'].map((p) => ({ url: `${redirecting.base}${p}` })));
      expect((await finished(r.runner, id)).status).toBe('partial');
      const rows = r.store.targetRows(id);
      expect(rows.map((t) => [t.status, t.reason])).toEqual([
        ['failed', 'upstream'],
        ['failed', 'upstream'],
        ['failed', 'upstream'],
        ['failed', 'upstream'],
        ['done', ''],
      ]);
      expect(rows[0]!.hint).toMatch(/^redirect loop: the site sent Sift back to an address it had already asked \(after 1 redirect\)\. The site redirects in a circle/);
      expect(rows[1]!.hint).toMatch(/^redirect loop: .*\(after 2 redirects\)/);
      expect(rows[2]!.hint).toMatch(/^too many redirects \(more than 10\)\. The site sends Sift on through more than 10 redirects without reaching a page/);
      expect(rows[3]!.hint).toMatch(/^redirect to an invalid URL \(scheme ftp is not supported\)/);
      // A loop is seen when it closes: asked once more, not ten times more.
      expect([redirecting.hits.get('/loop'), redirecting.hits.get('/ping'), redirecting.hits.get('/pong')]).toEqual([1, 1, 1]);
      expect(redirecting.hits.get('/onward')).toBe(11);
      expect(await metricValue(r.metrics, 'sift_batch_targets_total', { outcome: 'network' })).toBe(0);
      expect(await metricValue(r.metrics, 'sift_batch_targets_total', { outcome: 'upstream_5xx' })).toBe(4);
    } finally {
      await redirecting.close();
    }
  });

  test('a body the connection ends early (shorter than its Content-Length, chunked without its last chunk, reset) says how much came and who ended it, not "connection reset" for a server that closed', async () => {
    const body = 'x'.repeat(3000);
    const raw = createNetServer((sock) => {
      sock.on('error', () => {});
      sock.once('data', (d: Buffer) => {
        const path = d.toString('latin1').split(' ')[1];
        if (path === '/short') return void sock.end(`HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 5000\r\n\r\n${body}`);
        if (path === '/chunked') return void sock.end(`HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nTransfer-Encoding: chunked\r\n\r\n${(3000).toString(16)}\r\n${body}\r\n`);
        sock.write(`HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 12000\r\n\r\n${body}`, () => sock.resetAndDestroy());
      });
    });
    await new Promise<void>((resolve) => raw.listen(0, '127.0.0.1', resolve));
    try {
      const base = `http://127.0.0.1:${(raw.address() as AddressInfo).port}`;
      const r = rig();
      const { id } = r.runner.submit({ name: 'test' }, 'test', ['/short', '/chunked', '/reset'].map((p) => ({ url: `${base}${p}` })));
      expect((await finished(r.runner, id)).status).toBe('failed');
      const rows = r.store.targetRows(id);
      for (const t of rows) expect(t).toMatchObject({ status: 'failed', reason: 'network' });
      expect(rows[0]!.hint).toBe(
        'body cut short: 2.9 kB of the 4.9 kB announced came, then the server closed the connection. Only part of the document came. Try again later; if it keeps stopping at the same point, the site’s server is at fault.',
      );
      expect(rows[1]!.hint).toMatch(/^body cut short: the server closed the connection after 2\.9 kB, before the end of the document\. Only part of the document came/);
      // Whether the reset or the end of the stream reaches the client first is the kernel's call.
      expect(rows[2]!.hint).toMatch(/^body cut short: 2\.9 kB of the 11\.7 kB announced came, then (the connection was reset|the server closed the connection)\. Only part of the document came/);
    } finally {
      await new Promise((resolve) => raw.close(resolve));
    }
  });

  test('a URL too long for its server (414) is said to be too long, with what to shorten, not malformed or "cut short"', async () => {
    // Servers cap the request line (Apache 8,190 bytes, many APIs 2,000): this one at 2,000.
    const strict = await startSite({ '/search': (req, res) => res.writeHead((req.url ?? '').length > 2000 ? 414 : 200, { 'content-type': 'text/plain' }).end('ok') });
    try {
      const r = rig();
      const long = `${strict.base}/search?q=${'word+'.repeat(600)}&utm_source=newsletter`;
      const { id } = r.runner.submit({ name: 'test' }, 'test', [{ url: long }]);
      expect((await finished(r.runner, id)).status).toBe('failed');
      const [row] = r.store.targetRows(id);
      expect(row).toMatchObject({ errorStatus: 414, reason: 'upstream', error: 'HTTP 414 URI Too Long' });
      expect(row!.hint).toMatch(/^The server refuses addresses this long: shorten the URL/);
      expect(row!.hint).not.toMatch(/cut short|malformed/);
    } finally {
      await strict.close();
    }
  });

  test('a DNS server that gives no answer (offline) is said so, not as a host name that does not exist, whose hint is to check for typos', async () => {
    // What dns.lookup (getaddrinfo) gives: EAI_AGAIN when no DNS server answers, ENOTFOUND for a name that does not exist.
    const r = rig({
      lookup: async (host: string) => {
        const code = host === 'offline.test' ? 'EAI_AGAIN' : 'ENOTFOUND';
        throw Object.assign(new Error(`getaddrinfo ${code} ${host}`), { code });
      },
    });
    const { id } = r.runner.submit({ name: 'test' }, 'test', [{ url: 'https://offline.test/report' }, { url: 'https://no-such-name.test/report' }]);
    expect((await finished(r.runner, id)).status).toBe('failed');
    const [offline, missing] = r.store.targetRows(id);
    for (const t of [offline, missing]) expect(t).toMatchObject({ status: 'failed', reason: 'network' });
    expect(offline!.hint).toMatch(/^DNS lookup failed: no answer from the DNS server\. Sift could not get an answer about this host name: this computer may be offline/);
    expect(offline!.hint).not.toMatch(/typos/);
    expect(missing!.hint).toMatch(/^DNS lookup failed\. The host name does not resolve: check the URL for typos/);
  });

  test('a page that redirects to a host that is gone or does not answer says the redirect leads there, not to check the URL the user gave for typos', async () => {
    const closedPort = await new Promise<number>((resolve) => {
      const probe = createNetServer().listen(0, '127.0.0.1', () => {
        const { port } = probe.address() as AddressInfo;
        probe.close(() => resolve(port));
      });
    });
    const moved = await startSite({
      '/to-gone': (_req, res) => res.writeHead(301, { location: 'https://old-cdn.test/report.pdf' }).end(),
      '/to-closed': (_req, res) => res.writeHead(302, { location: `http://127.0.0.1:${closedPort}/report.pdf` }).end(),
    });
    try {
      const r = rig({
        lookup: async (host: string) => {
          if (host === 'old-cdn.test') throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
          return [{ address: '127.0.0.1', family: 4 as const }];
        },
      });
      const { id } = r.runner.submit({ name: 'test' }, 'test', [{ url: `${moved.base}/to-gone` }, { url: `${moved.base}/to-closed` }, { url: 'https://old-cdn.test/report.pdf' }]);
      expect((await finished(r.runner, id)).status).toBe('failed');
      const [gone, closed, direct] = r.store.targetRows(id);
      for (const t of [gone, closed, direct]) expect(t).toMatchObject({ status: 'failed', reason: 'network' });
      expect(gone!.hint).toBe(
        'DNS lookup failed after a redirect. The URL answered, with a redirect to old-cdn.test, a host name that does not resolve: the site’s redirect points to a host that is gone or misspelt. Open the URL in a browser to see where it goes, or report it to the site. The recover option looks for an archived copy.',
      );
      expect(closed!.hint).toMatch(new RegExp(`^connection refused after a redirect\\. The URL answered, with a redirect to 127\\.0\\.0\\.1:${closedPort}, and that fails\\.`));
      // Asked directly, the name is the user's own: check it for typos.
      expect(direct!.hint).toMatch(/^DNS lookup failed\. The host name does not resolve: check the URL for typos/);
    } finally {
      await moved.close();
    }
  });

  test('a 503 and a 429 are retried, then the target fails busy', async () => {
    let calls = 0;
    const busySite = await startSite({
      '/busy429': (_req, res) => {
        calls++;
        res.writeHead(429, { 'retry-after': '0' }).end('slow down');
      },
    });
    try {
      // A window of 1.5 s: on a busy machine one fetch can take a few hundred ms, and the test
      // needs at least one retry inside it, not a count that depends on the machine's speed.
      const r = rig({ runner: { retryWaitMs: 30, retryForMs: 1500 } });
      const { id } = r.runner.submit({ name: 'test' }, 'test', [{ url: `${busySite.base}/busy` }, { url: `${busySite.base}/busy429` }]);
      const job = await finished(r.runner, id);
      expect(job.status).toBe('failed');
      expect(busySite.hits.get('/busy')!).toBeGreaterThanOrEqual(2);
      expect(calls).toBeGreaterThanOrEqual(2);
      expect(await metricValue(r.metrics, 'sift_batch_targets_total', { outcome: 'busy' })).toBe(2);
      const rows = r.store.targetRows(id);
      expect(rows[0]!.error).toMatch(/busy/);
      // Each is stored with the status the site gave: a 429 stays a 429 (the CLI prints it so).
      expect(rows.map((t) => t.errorStatus)).toEqual([503, 429]);
      // Stored once the retries ran out: it says so, not that Sift will retry.
      for (const t of rows) expect(t.hint).toBe('The site stayed busy; retry the failed ones later.');
    } finally {
      await busySite.close();
    }
  });

  test('a "Too Many Requests" page served with 200 (or a firewall\'s 403) is the busy answer it stands for: retried as a 429, then failed saying the site limits requests and what to do', async () => {
    const page = readFileSync(path.join(__dirname, '../fixtures/outcomes-written/challenge_rate_limit_200.html'));
    let calls = 0;
    let open = false;
    const limiting = await startSite({
      '/limited-403': (_req, res) => res.writeHead(403, { 'content-type': 'text/html; charset=utf-8' }).end(page),
      '/limited': (_req, res) => {
        calls++;
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page);
      },
      // Limits the first two asks only: a target the runner asks again comes back.
      '/limited-then-open': (_req, res) => {
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(open ? articleHtml(7) : page);
        open = true;
      },
    });
    try {
      const r = rig({ runner: { retryWaitMs: 30, retryForMs: 1500 } });
      // Asked once (a preview, `sift fetch`): what the site said and what to do, not an anti-bot check.
      const once = await r.fetcher.fetchTarget(AbortSignal.timeout(20_000), { name: 't' }, { url: `${limiting.base}/limited` }).catch((e: unknown) => e);
      expect(once).toMatchObject({ status: 429, reason: 'busy', msg: expect.stringMatching(/^rate limited: the site answered with a page saying it gets too many requests/) });
      expect((once as FetchError).msg).not.toMatch(/anti-bot/);
      expect((once as FetchError).hint).toMatch(/wait a few minutes and try again/);
      // It gives no Retry-After: a batch asks again after 15 s, not every 2 s of the runner's minute.
      expect(mapFetchError(once, { caller: { name: 'c' }, log: silentLog(), onBlocked: () => {} })).toMatchObject({ retryAfterMs: 15_000 });
      // A firewall answers a rate limit with 403 too: not "the page may need a login".
      const refused = await r.fetcher.fetchTarget(AbortSignal.timeout(20_000), { name: 't' }, { url: `${limiting.base}/limited-403` }).catch((e: unknown) => e);
      expect(refused).toMatchObject({ status: 429, reason: 'busy', msg: (once as FetchError).msg });
      calls = 0;
      const { id } = r.runner.submit({ name: 'test' }, 'test', [{ url: `${limiting.base}/limited` }, { url: `${limiting.base}/limited-then-open` }]);
      const job = await finished(r.runner, id);
      expect(job.status).toBe('partial');
      expect(calls).toBeGreaterThanOrEqual(2);
      const rows = r.store.targetRows(id);
      expect(rows[0]).toMatchObject({ status: 'failed', errorStatus: 429, reason: 'busy' });
      expect(rows[0]!.error).toMatch(/^rate limited: /);
      expect(rows[0]!.hint).toMatch(/^The site kept saying it gets too many requests: retry the failed ones in a few minutes/);
      expect(rows[1]).toMatchObject({ status: 'done' });
      expect(r.store.targetResult(id, 1)!.result!.content).toContain('Paragraph 1 of article 7');
      expect(await metricValue(r.metrics, 'sift_batch_targets_total', { outcome: 'busy' })).toBe(1);
    } finally {
      await limiting.close();
    }
  });

  test('a 429 without Retry-After is asked again further apart each time, the row saying why, not every retryWait for the whole window', async () => {
    let calls = 0;
    const limiting = await startSite({
      '/no-retry-after': (_req, res) => {
        calls++;
        res.writeHead(429, { 'content-type': 'text/plain' }).end('slow down');
      },
    });
    try {
      // A window of 50 retryWaits: at a fixed wait that is up to 50 asks; doubling from 20 ms
      // (20, 40, 80, 160, 320, then the window's end) it is at most 7.
      const r = rig({ runner: { retryWaitMs: 20, retryForMs: 1000 } });
      const waits: TargetWait[] = [];
      r.runner.on('waiting', (_jobId, row) => {
        if (row.wait) waits.push(row.wait);
      });
      const { id } = r.runner.submit({ name: 'test' }, 'test', [{ url: `${limiting.base}/no-retry-after` }]);
      expect((await finished(r.runner, id)).status).toBe('failed');
      expect(calls).toBeLessThanOrEqual(7);
      expect(waits.length).toBeGreaterThanOrEqual(1);
      for (const w of waits) expect(w.why).toBe('the site answered HTTP 429 Too Many Requests without saying when to ask again, so Sift waits longer after each such answer');
      // Each wait (but one cut to the window's end) at least 1.6 times the one before: doubled, with up to a quarter of jitter.
      const grown = waits.filter((w) => !w.last).map((w) => w.waitMs);
      expect(grown[0]).toBeGreaterThanOrEqual(20);
      for (let i = 1; i < grown.length; i++) expect(grown[i]!, `wait ${i}: ${grown.join(', ')}`).toBeGreaterThanOrEqual(Math.floor(grown[i - 1]! * 1.6));
      const [row] = r.store.targetRows(id);
      expect(row).toMatchObject({ errorStatus: 429, reason: 'busy' });
      expect(row!.hint).toMatch(/^The site kept saying it gets too many requests: retry the failed ones in a few minutes/);
    } finally {
      await limiting.close();
    }
  });

  test('a target whose site asked for hours fails busy saying how long it asked for, not just "later"', async () => {
    const busySite = await startSite({ '/closed-for-the-day': (_req, res) => res.writeHead(503, { 'retry-after': String(6 * 3600) }).end('back tomorrow') });
    try {
      const r = rig({ runner: { retryWaitMs: 20, retryForMs: 200 } });
      const { id } = r.runner.submit({ name: 'test' }, 'test', [{ url: `${busySite.base}/closed-for-the-day` }]);
      expect((await finished(r.runner, id)).status).toBe('failed');
      const [row] = r.store.targetRows(id);
      expect(row).toMatchObject({ errorStatus: 503, hint: 'The site is busy; its last answer asked Sift to wait 6 h before asking again. Retry the failed ones after that.' });
    } finally {
      await busySite.close();
    }
  });

  test('a site that asks for longer than the retry window (Retry-After in seconds or as a date) is not waited for: each target fails busy at once and the list goes on', async () => {
    const tomorrow = new Date(Date.now() + 86_400_000).toUTCString();
    const closed = await startSite({
      '/seconds': (_req, res) => res.writeHead(429, { 'retry-after': '86400' }).end('come back tomorrow'),
      '/date': (_req, res) => res.writeHead(503, { 'retry-after': tomorrow }).end('closed for the day'),
      '/never': (_req, res) => res.writeHead(503, { 'retry-after': '999999999' }).end('closed'),
    });
    try {
      // A window wide enough that waiting it out would ask each URL again inside it.
      const r = rig({ runner: { retryWaitMs: 20, retryForMs: 5_000 } });
      const waits: number[] = [];
      r.runner.on('waiting', (_id, row) => {
        if (row.wait) waits.push(row.wait.waitMs);
      });
      const { id } = r.runner.submit({ name: 'test' }, 'test', ['/seconds', '/date', '/never', '/article/2'].map((p) => ({ url: `${p.startsWith('/article') ? site.base : closed.base}${p}` })));
      expect((await finished(r.runner, id)).status).toBe('partial');
      // Asked once each: nothing waited, nothing asked again before the server said.
      expect(waits).toEqual([]);
      expect([closed.hits.get('/seconds'), closed.hits.get('/date'), closed.hits.get('/never')]).toEqual([1, 1, 1]);
      const rows = r.store.targetRows(id);
      expect(rows.map((t) => [t.status, t.reason, t.errorStatus])).toEqual([
        ['failed', 'busy', 429],
        ['failed', 'busy', 503],
        ['failed', 'busy', 503],
        ['done', '', 0],
      ]);
      expect(rows[0]!.hint).toBe('The site is busy; its last answer asked Sift to wait 24 h before asking again. Retry the failed ones after that.');
      expect(rows[1]!.hint).toMatch(/^The site is busy; its last answer asked Sift to wait (24|23) h before asking again/);
      expect(rows[2]!.hint).toMatch(/wait more than a year before asking again/);
    } finally {
      await closed.close();
    }
  });

  test('a busy site that recovers is retried until success', async () => {
    let n = 0;
    const flaky = await startSite({
      '/flaky': (_req, res) => {
        n++;
        if (n < 3) return void res.writeHead(503, { 'retry-after': '0' }).end('busy');
        res.writeHead(200, { 'content-type': 'text/plain' }).end('here now');
      },
    });
    try {
      const r = rig({ runner: { retryWaitMs: 20, retryForMs: 5000 } });
      const { id } = r.runner.submit({ name: 'test' }, 'test', [{ url: `${flaky.base}/flaky` }]);
      const job = await finished(r.runner, id);
      expect(job.status).toBe('done');
      expect(n).toBe(3);
      expect(r.store.targetResult(id, 0)!.result!.content).toBe('here now');
    } finally {
      await flaky.close();
    }
  });

  test('with the gate full, a fetch is refused busy after its wait and the runner gives up busy', async () => {
    const r = rig({ fetch: { gateWaitMs: 100 }, runner: { retryWaitMs: 20, retryForMs: 200 } });
    const releases: (() => void)[] = [];
    for (let i = 0; i < 8; i++) releases.push(await r.fetcher.gate.acquire(AbortSignal.timeout(1000)));
    try {
      await expect(r.fetcher.fetchTarget(AbortSignal.timeout(5000), { name: 't' }, { url: `${site.base}/article/3` })).rejects.toMatchObject({ status: 503 });
      const { id } = r.runner.submit({ name: 'test' }, 'test', [{ url: `${site.base}/article/3` }]);
      const job = await finished(r.runner, id);
      expect(job.status).toBe('failed');
      expect(await metricValue(r.metrics, 'sift_batch_targets_total', { outcome: 'busy' })).toBe(1);
    } finally {
      for (const rel of releases) rel();
    }
  });

  test("with the gate full and a time per URL shorter than the gate's wait, a target that never got its turn ends busy, not timed out", async () => {
    const r = rig({ fetch: { gateWaitMs: 300, deadlineMs: 100 }, runner: { retryWaitMs: 20, retryForMs: 200 } });
    const releases: (() => void)[] = [];
    for (let i = 0; i < 8; i++) releases.push(await r.fetcher.gate.acquire(AbortSignal.timeout(1000)));
    try {
      const { id } = r.runner.submit({ name: 'test' }, 'test', [{ url: `${site.base}/article/4` }]);
      expect((await finished(r.runner, id)).status).toBe('failed');
      expect(await metricValue(r.metrics, 'sift_batch_targets_total', { outcome: 'busy' })).toBe(1);
      expect(await metricValue(r.metrics, 'sift_batch_targets_total', { outcome: 'timeout' })).toBe(0);
    } finally {
      for (const rel of releases) rel();
    }
  });

  test("through the app's engine, a target waiting for a fetch slot longer than its time per URL is not timed out: it gets its turn and is fetched", async () => {
    // Time per URL 0.2 s, the gate's wait 1 s: the batch wiring's own deadline started before
    // the gate, so the target failed "the target's deadline passed" without ever being fetched.
    const dir = mkdtempSync(path.join(os.tmpdir(), 'sift-engine-gate-'));
    const settings = { ...DEFAULT_SETTINGS, allowHosts: ['127.0.0.1'], deadlineSeconds: 0.2 };
    const engine = openEngine({ dbPath: path.join(dir, 'sift.db'), settings, log: silentLog() });
    engine.fetcher.updateSettings({ gateWaitMs: 1000 });
    engine.runner.configure({ retryWaitMs: 20 });
    const releases: (() => void)[] = [];
    try {
      for (let i = 0; i < 8; i++) releases.push(await engine.fetcher.gate.acquire(new AbortController().signal));
      const { id } = engine.runner.submit({ name: 'test' }, 'test', [{ url: `${site.base}/article/4` }]);
      // The gate's wait ran out (busy, retried): the target outlived its time per URL at the gate.
      const retried = new Promise<void>((resolve) => engine.runner.on('waiting', (jobId) => jobId === id && resolve()));
      const ended = finished(engine.runner, id);
      await Promise.race([retried, ended]);
      // Its turn comes with room to fetch on a busy machine.
      engine.configure({ ...settings, deadlineSeconds: 60 });
      for (const rel of releases.splice(0)) rel();
      await ended;
      expect(engine.store.targetRows(id)[0]).toMatchObject({ status: 'done', error: '' });
    } finally {
      for (const rel of releases) rel();
      await engine.close();
    }
  });

  test('a 403 increments the block counter', async () => {
    const r = rig();
    const { id } = r.runner.submit({ name: 'test' }, 'test', [{ url: 'http://internal.test/' }, { url: 'http://10.1.2.3/' }, { url: 'http://[::ffff:192.168.0.1]/' }]);
    await finished(r.runner, id);
    expect(await metricValue(r.metrics, 'sift_batch_blocked_total')).toBe(3);
    expect(await metricValue(r.metrics, 'sift_batch_targets_total', { outcome: 'blocked' })).toBe(3);
  });

  test("a site's own 403 Forbidden is an HTTP error, not an address the guard refused: the block counter (the Activity panel's \"Refused: private address\") counts only the guard's", async () => {
    const forbidding = await startSite({
      '/forbidden': (_req, res) => res.writeHead(403, { 'content-type': 'text/plain' }).end('Forbidden'),
    });
    try {
      const r = rig();
      const { id } = r.runner.submit({ name: 'test' }, 'test', [{ url: `${forbidding.base}/forbidden` }, { url: 'http://internal.test/' }, { url: `${site.base}/article/7` }]);
      await finished(r.runner, id);
      const rows = r.store.targetRows(id);
      expect(rows.map((t) => t.reason)).toEqual(['upstream', 'blocked', '']);
      expect(await metricValue(r.metrics, 'sift_batch_targets_total', { outcome: 'upstream_4xx' })).toBe(1);
      expect(await metricValue(r.metrics, 'sift_batch_targets_total', { outcome: 'blocked' })).toBe(1);
      expect(await metricValue(r.metrics, 'sift_batch_blocked_total')).toBe(1);
    } finally {
      await forbidding.close();
    }
  });

  test('an ok target with a warning (a thin page, a grep with no match) is counted as ok and as warned, by warning, as sift batch says "ok 3 (2 with warnings)"', async () => {
    const r = rig();
    const { id } = r.runner.submit({ name: 'test' }, 'test', [
      { url: `${site.base}/article/5` },
      { url: `${site.base}/text`, options: { grep: 'zzz' } },
      { url: `${site.base}/text`, options: { grep: 'nothing here either' } },
      { url: `${site.base}/missing/5` },
    ]);
    await finished(r.runner, id);
    expect(r.store.targetRows(id).map((t) => t.warnings ?? [])).toEqual([[], ['no_match'], ['no_match'], []]);
    const snap = await r.metrics.snapshot();
    expect(snap.targets.ok).toBe(3);
    expect(snap.warned).toBe(2);
    expect(snap.warnings).toEqual({ no_match: 2 });
    expect(await r.metrics.text()).toContain('sift_batch_target_warnings_total{warning="no_match"} 2');
  });

  test('each hook moves its metric', async () => {
    const r = rig();
    const { id } = r.runner.submit({ name: 'test' }, 'test', [{ url: `${site.base}/article/4` }, { url: `${site.base}/text` }, { url: `${site.base}/missing/2` }]);
    await finished(r.runner, id);
    const snap = await r.metrics.snapshot();
    expect(snap.jobs.partial).toBe(1);
    expect(snap.targets.ok).toBe(2);
    expect(snap.targets.upstream_4xx).toBe(1);
    expect(snap.targetSeconds.count).toBe(3);
    expect(snap.resultBytes.count).toBe(2);
    expect(snap.resultBytes.sum).toBeGreaterThan(0);
    expect(snap.jobSeconds.count).toBe(1);
    expect(snap.queueDepth).toBe(0);
    expect(snap.inflight).toBe(0);
    const text = await r.metrics.text();
    for (const name of ['sift_batch_jobs_total', 'sift_batch_targets_total', 'sift_batch_queue_depth', 'sift_batch_targets_inflight', 'sift_batch_job_seconds', 'sift_batch_target_seconds', 'sift_batch_result_bytes']) {
      expect(text).toContain(`# TYPE ${name} `);
    }
  });

  test('while a job runs, queue depth and in-flight gauges show it', async () => {
    const r = rig();
    const { id } = r.runner.submit({ name: 'test' }, 'test', [{ url: `${site.base}/slow/400` }]);
    // The target's running event; the in-flight hook fires right after it, in the same turn.
    await new Promise<void>((resolve) => {
      const off = r.runner.on('target', (jobId, row) => {
        if (jobId !== id || row.status !== 'running') return;
        off();
        setImmediate(resolve);
      });
    });
    expect(await metricValue(r.metrics, 'sift_batch_queue_depth')).toBe(1);
    expect(await metricValue(r.metrics, 'sift_batch_targets_inflight')).toBe(1);
    await finished(r.runner, id);
    expect(await metricValue(r.metrics, 'sift_batch_queue_depth')).toBe(0);
  });
});

describe('batchOutcome and mapFetchError (rule 1 and 2, table)', () => {
  const log = { info() {}, warn() {}, error() {} };
  test.each([
    [new FetchError(403, 'blocked'), 'blocked'],
    [new FetchError(404, 'upstream 404 Not Found'), 'upstream_4xx'],
    [new FetchError(410, 'upstream 410 Gone'), 'upstream_4xx'],
    [new FetchError(504, 'timeout: fetching'), 'timeout'],
    [new FetchError(415, 'unsupported: image/png'), 'unsupported'],
    [new FetchError(422, 'document too long: 900 pages'), 'too_long'],
    [new FetchError(422, 'invalid pages "x"'), 'bad_option'],
    [new FetchError(500, 'upstream 500'), 'upstream_5xx'],
    [new FetchError(502, 'connection refused'), 'network'],
    [new FetchError(429, 'upstream 429'), 'busy'],
    [new FetchError(503, 'busy'), 'busy'],
    [pageError('challenge', 503), 'challenge'],
    [pageError('challenge', 429), 'challenge'],
    [pageError('challenge', 200), 'challenge'],
    [pageError('login', 200), 'login'],
    [pageError('consent', 200), 'consent'],
    [pageError('soft404', 200), 'soft404'],
    [pageError('needs_js', 200), 'needs_js'],
    [new TypeError('x is not a function'), 'internal'],
  ])('%s → %s', (err, label) => {
    let blocked = 0;
    const mapped = mapFetchError(err, { caller: { name: 'c' }, log, onBlocked: () => blocked++ });
    expect(batchOutcome(mapped)).toBe(label);
    expect(blocked).toBe(err instanceof FetchError && err.status === 403 && err.reason === 'blocked' ? 1 : 0);
    // A challenge answered with 429/503 will not clear in the retry window: never retried.
    if (err instanceof FetchError && err.reason === 'challenge') expect(isRetryLater(mapped)).toBe(false);
  });

  test('429/503 become retry-later errors carrying Retry-After', () => {
    const mapped = mapFetchError(new FetchError(503, 'upstream 503', '', 'busy', 7000), { caller: { name: 'c' }, log, onBlocked: () => {} });
    expect(mapped).toBeInstanceOf(RetryLaterError);
    expect(isRetryLater(mapped)).toBe(true);
    expect((mapped as RetryLaterError).retryAfterMs).toBe(7000);
  });

  test("a wait says whose busy it is: the site's HTTP answer, or Sift's own limit on fetches at once", () => {
    const ctx = { caller: { name: 'c' }, log, onBlocked: () => {} };
    expect(busyWhy(mapFetchError(upstreamError(429, { 'retry-after': '0' }), ctx))).toBe('the site answered HTTP 429 Too Many Requests');
    // With no Retry-After the wait grows, and says why.
    expect(busyWhy(mapFetchError(upstreamError(429, {}), ctx))).toBe(
      'the site answered HTTP 429 Too Many Requests without saying when to ask again, so Sift waits longer after each such answer',
    );
    expect(busyWhy(mapFetchError(upstreamError(503, { 'retry-after': '5' }), ctx))).toBe('the site answered HTTP 503 Service Unavailable');
    expect(busyWhy(mapFetchError(new Gate(1, 0).busy(), ctx))).toBe('Sift is already fetching as many pages as it may at once');
  });

  test('502 is rewritten to 500 internal error, and an unknown error is 500 internal error', () => {
    const a = mapFetchError(new FetchError(502, 'connection refused'), { caller: { name: 'c' }, log, onBlocked: () => {} }) as TargetError;
    expect([a.status, a.msg]).toEqual([500, 'internal error']);
    expect(a.hint).toContain('connection refused');
    const b = mapFetchError(new RangeError('boom'), { caller: { name: 'c' }, log, onBlocked: () => {} }) as TargetError;
    expect([b.status, b.msg]).toEqual([500, 'internal error']);
    expect(batchOutcome(undefined)).toBe('ok');
  });

  test("once the job's signal has aborted, whatever the fetch ended with is the cancel, unlogged: a 502 was stored 'internal error' of a cancelled job", () => {
    const errors: unknown[] = [];
    const quiet = { info() {}, warn() {}, error: (o: unknown) => errors.push(o) };
    const job = new AbortController();
    job.abort(new Error('cancelled'));
    for (const err of [new FetchError(502, 'redirect loop: the site sent Sift back'), new FetchError(403, 'blocked'), new FetchError(404, 'upstream 404 Not Found'), new RangeError('boom')]) {
      let blocked = 0;
      const mapped = mapFetchError(err, { caller: { name: 'c' }, log: quiet, onBlocked: () => blocked++, signal: job.signal });
      expect(batchOutcome(mapped)).toBe('cancelled');
      expect(blocked).toBe(0);
    }
    expect(errors).toEqual([]);
  });

  test('an unexpected error is logged without the URL or host it mentions', () => {
    const d = describeErr(new Error('getaddrinfo ENOTFOUND secret.example.org for https://secret.example.org/path'), 'secret.example.org');
    expect(JSON.stringify(d)).not.toMatch(/secret|\/path/);
  });
});

describe('log privacy', () => {
  test('no log line of a batch names a target host or path', async () => {
    const logFile = path.join(mkdtempSync(path.join(os.tmpdir(), 'sift-log-')), 'sift.log');
    const canarySite = await startSite({
      '/private-reading-canary-path': (_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<title>t</title><p>hello</p>'),
    });
    try {
      const r = rig({ logFile, fetch: { deadlineMs: 800, headersTimeoutMs: 500 } });
      const host = `canary-reading-list.test:${canarySite.port}`;
      const targets: Target[] = [
        { url: `http://${host}/private-reading-canary-path` },
        { url: `http://${host}/missing/private-reading-canary-path` },
        { url: `http://${host}/slow/3000?private-reading-canary-path` },
        { url: `http://${host}/busy#private-reading-canary-path` },
        { url: 'http://internal.test/private-reading-canary-path' },
      ];
      const { id } = r.runner.submit({ name: 'privacy' }, 'privacy', targets);
      await finished(r.runner, id);
      r.runner.cancel(id);
      await r.close();
      rigs.splice(rigs.indexOf(r), 1);
      const lines = readFileSync(logFile, 'utf8').trim().split('\n');
      expect(lines.length).toBeGreaterThan(3);
      for (const line of lines) {
        expect(line).not.toMatch(/canary|internal\.test|private-reading/);
        const obj = JSON.parse(line) as Record<string, unknown>;
        if ('jobId' in obj) expect(obj.jobId).toBe(id);
      }
      expect(lines.some((l) => l.includes(id) && l.includes('"caller":"privacy"'))).toBe(true);
    } finally {
      await canarySite.close();
    }
  });
});

describe("a long PDF's reading, through the real wiring", () => {
  /** The 352-page book of the fixtures: a second or more of reading, in 16-page chunks after the first 4. */
  const book = readFileSync(path.join(__dirname, '../fixtures/pdfs/freeculture.pdf'));
  let bookSite: Site;
  beforeAll(async () => {
    const pdf = (data: Buffer) => (_req: IncomingMessage, res: ServerResponse) => res.writeHead(200, { 'content-type': 'application/pdf' }).end(data);
    bookSite = await startSite({ '/book.pdf': pdf(book), '/forty.pdf': pdf(numberedPdf(40, 'Forty')) });
  });
  afterAll(async () => {
    await bookSite.close();
  });

  /** Every event of the job's one target, in the order the runner sent them. */
  function listen(runner: Runner, now: () => number = Date.now): { seen: { kind: string; at: number; status: string; done?: number; total?: number; error?: string }[]; off(): void } {
    const seen: { kind: string; at: number; status: string; done?: number; total?: number; error?: string }[] = [];
    const offs = [
      runner.on('pages', (_id, row) => seen.push({ kind: 'pages', at: now(), status: row.status, done: row.pagesRead?.done, total: row.pagesRead?.total })),
      runner.on('target', (_id, row) => seen.push({ kind: 'target', at: now(), status: row.status, error: row.error })),
    ];
    return { seen, off: () => offs.forEach((off) => off()) };
  }

  test('says how many pages are read as it goes: in order, at most one event per 100 ms, between the running and the done row', async () => {
    // The runner's own clock, as it last read it: the throttle reads it just before it emits,
    // so an event's time is the one the throttle judged, not the listener's later Date.now,
    // which a pause between two emits on a busy machine could bring under 100 ms apart.
    let clock = 0;
    const r = rig({ fetch: { deadlineMs: 120_000 }, runner: { now: () => (clock = Date.now()) } });
    const heard = listen(r.runner, () => clock);
    const { id } = r.runner.submit({ name: 'reader' }, 'reader', [{ url: `${bookSite.base}/book.pdf` }]);
    const job = await finished(r.runner, id);
    heard.off();
    expect(job.status).toBe('done');
    expect(r.store.targetRows(id)[0]).toMatchObject({ status: 'done' });
    const kinds = heard.seen.map((e) => (e.kind === 'target' ? e.status : 'pages'));
    expect(kinds[0]).toBe('running');
    expect(kinds[kinds.length - 1]).toBe('done');
    const pages = heard.seen.filter((e) => e.kind === 'pages');
    // The first 4 pages as the book opens always pass; then at most one a tenth of a second,
    // and the whole once every page is read, whenever that comes.
    expect(pages.length).toBeGreaterThanOrEqual(2);
    expect(pages[0]).toMatchObject({ status: 'running', done: 4, total: 352 });
    expect(pages.at(-1)).toMatchObject({ status: 'running', done: 352, total: 352 });
    for (let i = 1; i < pages.length; i++) {
      expect(pages[i]!.done!).toBeGreaterThan(pages[i - 1]!.done!);
      if (i < pages.length - 1) expect(pages[i]!.at - pages[i - 1]!.at).toBeGreaterThanOrEqual(100);
    }
    expect(pages.every((e) => e.total === 352)).toBe(true);
    // The row a view opened now gets: no reading left behind.
    expect(r.runner.readingTarget(id)).toBeUndefined();
  });

  test("reads the book's two-column index without its running foot, on the even pages too ('334 INDEX' under the left column)", async () => {
    const r = rig({ fetch: { deadlineMs: 120_000 } });
    const { id } = r.runner.submit({ name: 'indexer' }, 'indexer', [{ url: `${bookSite.base}/book.pdf`, options: { pages: '339-350' } }]);
    const job = await finished(r.runner, id);
    expect(job.status).toBe('done');
    const content = r.store.targetResult(id, 0)!.result!.content;
    expect(content).not.toMatch(/\d+ INDEX|INDEX \d+/);
    expect(content).toContain('Barlow, Joel, 8');
    expect(content).toContain('Bunyan, John, 93');
  });

  test('a short PDF ends its count at its last page: 40 of 40 before the done row, not the last 16-page chunk', async () => {
    const r = rig();
    const heard = listen(r.runner);
    const { id } = r.runner.submit({ name: 'reader' }, 'reader', [{ url: `${bookSite.base}/forty.pdf` }]);
    expect((await finished(r.runner, id)).status).toBe('done');
    heard.off();
    const kinds = heard.seen.map((e) => (e.kind === 'target' ? e.status : `${e.done} of ${e.total}`));
    expect(kinds[0]).toBe('running');
    expect(kinds.slice(-2)).toEqual(['40 of 40', 'done']);
  });

  test('a cancel while it reads stops the reading at once: the target is stored cancelled, not read to its end, and no page count follows', async () => {
    const r = rig({ fetch: { deadlineMs: 120_000 } });
    const heard = listen(r.runner);
    let cancelledAt = -1;
    const offCancel = r.runner.on('pages', (jobId) => {
      if (cancelledAt >= 0) return;
      cancelledAt = heard.seen.length;
      expect(r.runner.cancel(jobId)).toBe(true);
    });
    const { id } = r.runner.submit({ name: 'reader' }, 'reader', [{ url: `${bookSite.base}/book.pdf` }]);
    const job = await finished(r.runner, id);
    await r.runner.settled(id);
    offCancel();
    heard.off();
    expect(job.status).toBe('cancelled');
    // Read to its end, the book would have been stored done, with its 352 pages.
    expect(r.store.targetRows(id)[0]).toMatchObject({ status: 'failed', error: 'cancelled', reason: 'cancelled' });
    const after = heard.seen.slice(cancelledAt);
    expect(after.map((e) => e.kind)).toEqual(['target']);
    expect(after[0]).toMatchObject({ status: 'failed', error: 'cancelled' });
    expect(r.runner.readingTarget(id)).toBeUndefined();
  });
});
