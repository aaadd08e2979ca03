import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { createServer as createNetServer, type AddressInfo, type Socket } from 'node:net';
import { createFetcher, type Fetcher, type FetchSettings } from '../../src/main/fetch';
import type { Target } from '../../src/shared/types';
import { fail, fixedResolver, startServer, type TestServer } from '../helpers/fetch-server';
import { startFakeWayback, type FakeWayback } from '../helpers/fake-wayback';
import { numberedPdf } from '../helpers/fetch-pdf';

const ARTICLE = `<!doctype html><html lang="en"><head><title>Harbour lights</title></head><body>
<nav><a href="/">Home</a></nav>
<article><h1>Harbour lights</h1>
<p>${'The old lighthouse keeper climbed the stairs every evening to light the lamp above the harbour. '.repeat(5)}</p>
<p>Read <a href="/keepers">the keepers' log</a> and <a href="https://coast.example/map">the coast map</a>.</p>
<p>${'Ships coming home in the fog counted the flashes to know which harbour they had found. '.repeat(5)}</p>
</article></body></html>`;

const page = (name: string): string => readFileSync(path.join(__dirname, '../fixtures/outcomes/batch', name), 'utf8');

let site: TestServer;
let wb: FakeWayback;
let f: Fetcher;
const caller = { name: 'test' };
const target = (p: string, options: Target['options'] = { recover: true }): Target => ({ url: p.startsWith('http') ? p : `${site.origin}${p}`, options });
const fetcher = (s: Partial<FetchSettings> = {}): Fetcher => createFetcher({ allowPrivate: true, archiveService: wb.service, ...s }, { lookup: fixedResolver({}) });
const get = (p: string, fx = f, options?: Target['options']) => fx.fetchTarget(new AbortController().signal, caller, target(p, options));
/** The availability lookups the archive was asked, for one page. */
const lookups = (p: string): number => wb.server.hits.filter((h) => h.startsWith('/wayback/available') && decodeURIComponent(h).endsWith(`url=${site.origin}${p}`)).length;
const capture = (p: string, body: string | Buffer, more: { timestamp?: string; status?: number; contentType?: string } = {}): void => {
  wb.captures.set(`${site.origin}${p}`, [{ timestamp: '20230102030405', body, ...more }]);
};

beforeAll(async () => {
  site = await startServer({
    '/gone': (_q, r) => r.writeHead(410, { 'content-type': 'text/html' }).end('<html><body><h1>Gone</h1></body></html>'),
    '/broken': (_q, r) => r.writeHead(500, { 'content-type': 'text/plain' }).end('oops'),
    '/forbidden': (_q, r) => r.writeHead(403, { 'content-type': 'text/plain' }).end('no'),
  });
  wb = await startFakeWayback();
  f = fetcher();
});
afterAll(async () => {
  await f.close();
  await wb.close();
  await site.close();
});

describe('recover through a Wayback-shaped archive', () => {
  it("extracts the page as the site sent it: no archive toolbar, links to the site's own addresses", async () => {
    capture('/lost', ARTICLE);
    for (const mode of ['markdown', 'text', 'links'] as const) {
      const r = await get('/lost', f, { recover: true, mode });
      if (mode !== 'links') expect(r.content).toContain('lighthouse keeper');
      expect(r.content).not.toMatch(/Wayback|\/web\/2023/);
      if (mode !== 'text') {
        expect(r.content).toContain(`${site.origin}/keepers`);
        expect(r.content).toContain('https://coast.example/map');
      }
      expect(r.meta).toMatchObject({
        url: `${site.origin}/lost`,
        final_url: `${site.origin}/lost`,
        title: 'Harbour lights',
        recovered: true,
        snapshot_url: `${wb.server.origin}/web/20230102030405/${site.origin}/lost`,
        snapshot_time: '2023-01-02T03:04:05Z',
        recovered_from: 404,
        // Where the row, the summary and the export look: an archived copy is not the live page.
        warnings: ['recovered'],
      });
    }
    expect(wb.server.hits).toContain(`/web/20230102030405id_/${site.origin}/lost`);
  });

  it('says which capture it took when the archive redirects to the nearest one', async () => {
    wb.captures.set(`${site.origin}/moved-capture`, [{ timestamp: '20190606060606', body: ARTICLE }]);
    // The availability API names a moment; the replay sends the reader on to the capture nearest it.
    wb.available = (req, res) => {
      if (!req.url?.includes('moved-capture')) return false;
      const closest = { status: '200', available: true, url: `${wb.server.origin}/web/2019/${site.origin}/moved-capture`, timestamp: '2019' };
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ archived_snapshots: { closest } }));
      return true;
    };
    try {
      const r = await get('/moved-capture');
      expect(r.content).toContain('lighthouse keeper');
      expect(r.meta).toMatchObject({ recovered: true, snapshot_time: '2019-06-06T06:06:06Z', snapshot_url: `${wb.server.origin}/web/20190606060606/${site.origin}/moved-capture` });
    } finally {
      wb.available = undefined;
    }
  });

  it('recovers a 410, a 5xx and a host that does not resolve, and never asks the archive about a 403', async () => {
    capture('/gone', ARTICLE);
    capture('/broken', ARTICLE);
    wb.captures.set('http://no-such-host.test/page', [{ timestamp: '20230102030405', body: ARTICLE }]);
    expect((await get('/gone')).meta).toMatchObject({ recovered: true, recovered_from: 410 });
    expect((await get('/broken')).meta).toMatchObject({ recovered: true, recovered_from: 500 });
    expect((await get('http://no-such-host.test/page')).meta).toMatchObject({ recovered: true, recovered_from: 502 });
    capture('/forbidden', ARTICLE);
    const e = await fail(get('/forbidden'));
    expect(e).toMatchObject({ status: 403 });
    expect(lookups('/forbidden')).toBe(0);
  });

  it('recovers a 503 of a fetch of one (sift fetch, the preview), which nothing asks again; leaves a batch\'s to the runner\'s retries', async () => {
    const down = '<html><head><title>503 Service Unavailable</title></head><body><h1>Service Unavailable</h1><p>The server is temporarily unable to service your request.</p></body></html>';
    site.route('/suspended', (_q, r) => r.writeHead(503, { 'content-type': 'text/html' }).end(down));
    capture('/suspended', ARTICLE);
    const one = await get('/suspended');
    expect(one.content).toContain('lighthouse keeper');
    expect(one.meta).toMatchObject({ recovered: true, recovered_from: 503, warnings: ['recovered'] });
    expect(lookups('/suspended')).toBe(1);
    const batch = await fail(f.fetchTarget(new AbortController().signal, caller, target('/suspended'), { batch: true }));
    expect(batch).toMatchObject({ status: 503, reason: 'busy' });
    expect(lookups('/suspended')).toBe(1);
  });

  it('recovers a page whose body does not decompress, as its hint says: the archived copy is whole', async () => {
    site.route('/garbled', (_q, r) => r.writeHead(200, { 'content-type': 'text/html', 'content-encoding': 'gzip' }).end(ARTICLE));
    const plain = await fail(get('/garbled', f, {}));
    expect(plain).toMatchObject({ status: 422, reason: 'upstream', msg: 'corrupt compressed body' });
    expect(plain.hint).toMatch(/recover option/);
    capture('/garbled', ARTICLE);
    expect((await get('/garbled')).meta).toMatchObject({ recovered: true, recovered_from: 422 });
  });

  it('recovers a soft 404 (a "not found" page served with 200), as its hint says', async () => {
    site.route('/moved-away', (_q, r) => r.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(readFileSync(path.join(__dirname, '../fixtures/outcomes/batch/soft404_harvest.html'))));
    const plain = await fail(get('/moved-away', f, {}));
    expect(plain).toMatchObject({ reason: 'soft404' });
    expect(plain.hint).toMatch(/recover option/);
    capture('/moved-away', ARTICLE);
    expect((await get('/moved-away')).meta).toMatchObject({ recovered: true });
  });

  it("keeps a snapshot's warnings: an archived page with a line of text is thin, as it would be live", async () => {
    const thin = '<!doctype html><html lang="en"><head><title>Lights</title></head><body><article><h1>Lights</h1><p>The lamp is lit at dusk.</p></article></body></html>';
    site.route('/thin-live', (_q, r) => r.writeHead(200, { 'content-type': 'text/html' }).end(thin));
    expect((await get('/thin-live', f, {})).meta?.warnings).toEqual(['thin']);
    capture('/thin-lost', thin);
    expect((await get('/thin-lost')).meta).toMatchObject({ recovered: true, warnings: ['recovered', 'thin'] });
  });

  it('a host that does not resolve says the recover option may have its archived copy', async () => {
    const e = await fail(get('http://gone-for-good.test/page', f, {}));
    expect(e).toMatchObject({ status: 502, code: 'dns' });
    expect(e.hint).toMatch(/if the site is gone, the recover option looks for an archived copy/);
  });

  it('takes an archived PDF or JSON document as the document', async () => {
    capture('/report.pdf', numberedPdf(2, 'Archived Report'), { contentType: 'application/pdf' });
    capture('/data.json', '{"items":[{"name":"a"},{"name":"b"}]}', { contentType: 'application/json' });
    const pdf = await get('/report.pdf');
    expect(pdf.meta).toMatchObject({ recovered: true, pages_total: 2, warnings: ['recovered'] });
    const json = await get('/data.json', f, { recover: true, jq: '.items[].name' });
    expect(json.content).toBe('"a"\n"b"');
    expect(json.meta).toMatchObject({ recovered: true, warnings: ['recovered'] });
  });
});

describe('recovery that finds nothing says why, on the original error', () => {
  it('no snapshot', async () => {
    const e = await fail(get('/never-archived'));
    expect(e).toMatchObject({ status: 404, reason: 'upstream' });
    expect(e.hint).toMatch(/No archived copy: the archive has no snapshot of this URL\.$/);
  });

  it('does not advise the recover option it has just tried: each failure keeps its own advice and says why no copy came', async () => {
    // Paths of their own: the tests above capture /gone and /broken.
    site.route('/gone-uncaptured', (_q, r) => r.writeHead(410, { 'content-type': 'text/html' }).end('<html><body><h1>Gone</h1></body></html>'));
    site.route('/broken-uncaptured', (_q, r) => r.writeHead(500, { 'content-type': 'text/plain' }).end('oops'));
    site.route('/live-check', (_q, r) => r.writeHead(403, { 'content-type': 'text/html' }).end(page('cf_uam_just_a_moment_2021.html')));
    const none = 'No archived copy: the archive has no snapshot of this URL.';
    const hints = await Promise.all(['/never-archived-too', '/gone-uncaptured', '/broken-uncaptured', '/live-check', 'http://never-was.test/lost'].map(async (p) => (await fail(get(p))).hint));
    expect(hints.slice(0, 3)).toEqual([`The page is gone. ${none}`, `The page is gone. ${none}`, `The server failed; try again later. ${none}`]);
    expect(hints[3]).toBe(`Open the URL in a browser to pass the check, or try again later. ${none}`);
    expect(hints[4]).toBe(`The host name does not resolve: check the URL for typos. ${none}`);
    for (const h of hints) expect(h).not.toMatch(/recover option/);
  });

  it('a snapshot that is the archive\'s "not archived" page, served as a success', async () => {
    wb.snapshot = (req, res) => {
      if (!req.url?.includes('/archive-soft404')) return false;
      res.writeHead(200, { 'content-type': 'text/html' }).end('<!DOCTYPE html><html><head><title>Wayback Machine</title></head><body><h2>Hrm.</h2><p>The Wayback Machine has not archived that URL.</p><p>This page is not available on the web because page does not exist</p></body></html>');
      return true;
    };
    try {
      capture('/archive-soft404', ARTICLE);
      const e = await fail(get('/archive-soft404'));
      expect(e).toMatchObject({ status: 404, reason: 'upstream' });
      expect(e.hint).toMatch(/No archived copy: the snapshot is not the page either \(soft 404/);
    } finally {
      wb.snapshot = undefined;
    }
  });

  it('a snapshot that is a plain-text "404 page not found" sent as a success is not the page', async () => {
    capture('/captured-plain-404', '404 page not found\n', { contentType: 'text/plain; charset=utf-8' });
    const e = await fail(get('/captured-plain-404'));
    expect(e).toMatchObject({ status: 404, reason: 'upstream' });
    expect(e.hint).toMatch(/No archived copy: the snapshot is not the page either \(soft 404/);
  });

  it('a snapshot that is itself a 404, or an anti-bot check the archive captured', async () => {
    capture('/captured-404', '<html><body><h1>Not Found</h1></body></html>', { status: 404 });
    const missing = await fail(get('/captured-404'));
    expect(missing.hint).toMatch(/No archived copy: the snapshot failed too \(HTTP 404 Not Found\)\.$/);
    capture('/captured-check', page('cf_uam_just_a_moment_2021.html'));
    const check = await fail(get('/captured-check'));
    expect(check).toMatchObject({ status: 404, reason: 'upstream' });
    expect(check.hint).toMatch(/No archived copy: the snapshot is not the page either \(challenge/);
  });

  it('an archive that fails says it failed, not that it did not answer', async () => {
    wb.available = (req, res) => {
      if (!req.url?.includes('archive-down')) return false;
      res.writeHead(502, { 'content-type': 'text/html' }).end('<html><body>Bad gateway</body></html>');
      return true;
    };
    try {
      const e = await fail(get('/archive-down'));
      expect(e).toMatchObject({ status: 404, reason: 'upstream' });
      expect(e.hint).toMatch(/No archived copy: the archive service answered HTTP 502 Bad Gateway\.$/);
    } finally {
      wb.available = undefined;
    }
  });

  it('an archive service whose JSON is not an availability lookup says the setting is wrong, not that there is no snapshot', async () => {
    const answers: Record<string, unknown> = {
      'cdx-rows': [['urlkey', 'timestamp', 'original'], ['x', '20230102030405', 'http://x/']],
      'error-object': { error: 'the service is in maintenance' },
      'url-not-text': { archived_snapshots: { closest: { available: true, url: 42, timestamp: '20230102030405' } } },
    };
    wb.available = (req, res) => {
      const key = Object.keys(answers).find((k) => req.url?.includes(k));
      if (!key) return false;
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answers[key]));
      return true;
    };
    try {
      for (const key of Object.keys(answers)) {
        const e = await fail(get(`/${key}`));
        expect(e).toMatchObject({ status: 404, reason: 'upstream' });
        expect(e.hint, key).toMatch(/No archived copy: the archive service's answer is not an availability lookup's; check the archive service in Settings\.$/);
      }
      // The real "none": {"url": …, "archived_snapshots": {}}.
      expect((await fail(get('/never-archived-either'))).hint).toMatch(/No archived copy: the archive has no snapshot of this URL\.$/);
    } finally {
      wb.available = undefined;
    }
  });

  it("an archive that answers 429 is not asked again before its Retry-After", async () => {
    const rl = fetcher();
    let asked = 0;
    wb.available = (req, res) => {
      if (!req.url?.includes('limited-')) return false;
      asked++;
      res.writeHead(429, { 'content-type': 'text/html', 'retry-after': '120' }).end('<html><body>Too many requests</body></html>');
      return true;
    };
    try {
      const first = await fail(get('/limited-1', rl));
      expect(first).toMatchObject({ status: 404, reason: 'upstream' });
      expect(first.hint).toMatch(/No archived copy: the archive service is busy \(HTTP 429 Too Many Requests\); retry these later\.$/);
      const second = await fail(get('/limited-2', rl));
      expect(second).toMatchObject({ status: 404, reason: 'upstream' });
      expect(second.hint).toMatch(/No archived copy: the archive service asked Sift to wait (2 min|1\d\d s) before asking again; retry these then\.$/);
      expect(asked).toBe(1);
      // A capture of the site's own 429, replayed as it came, is the page's failure, not the archive's refusal.
      const capturedLimit = fetcher();
      try {
        capture('/captured-429', '<html><body>Too many requests</body></html>', { status: 429 });
        const e = await fail(get('/captured-429', capturedLimit));
        expect(e.hint).toMatch(/No archived copy: the snapshot failed too \(HTTP 429 Too Many Requests\)\.$/);
        capture('/after-captured-429', ARTICLE);
        expect((await get('/after-captured-429', capturedLimit)).meta).toMatchObject({ recovered: true });
      } finally {
        await capturedLimit.close();
      }
      // Another archive, set in Settings meanwhile, is asked at once.
      const other = await startFakeWayback();
      try {
        other.captures.set(`${site.origin}/limited-3`, [{ timestamp: '20230102030405', body: ARTICLE }]);
        rl.updateSettings({ archiveService: other.service });
        expect((await get('/limited-3', rl)).meta).toMatchObject({ recovered: true });
      } finally {
        await other.close();
      }
    } finally {
      wb.available = undefined;
      await rl.close();
    }
  });

  it('an archive that never answers fails the lookup at the headers timeout, well inside the deadline', async () => {
    const held = new Set<Socket>();
    const mute = createNetServer((s) => void held.add(s));
    await new Promise<void>((resolve) => mute.listen(0, '127.0.0.1', resolve));
    const hung = fetcher({ archiveService: `http://127.0.0.1:${(mute.address() as AddressInfo).port}/wayback/available`, headersTimeoutMs: 300 });
    try {
      const e = await fail(get('/lost-while-hung', hung));
      expect(e).toMatchObject({ status: 404, reason: 'upstream' });
      expect(e.hint).toMatch(/No archived copy: the archive service did not answer\.$/);
      expect(held.size).toBe(1);
      // The next dead link is not held up by it again: the archive is down for it too.
      const next = await fail(get('/lost-after-hung', hung));
      expect(next).toMatchObject({ status: 404, reason: 'upstream' });
      expect(next.hint).toMatch(/No archived copy: the archive service did not answer a moment ago, so Sift waits (1 min|\d\d s) before asking it again; retry these then\.$/);
      expect(held.size).toBe(1);
    } finally {
      await hung.close();
      for (const s of held) s.destroy();
      await new Promise((resolve) => mute.close(resolve));
    }
  });

  it("a target whose deadline has passed says the archive was not asked", async () => {
    // A site that never answers: the target's own deadline ends it, and there is no time left.
    const held = new Set<Socket>();
    const silent = createNetServer((s) => void held.add(s));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(silent.address() as AddressInfo).port}/slow`;
    const short = fetcher({ deadlineMs: 1_000 });
    try {
      const e = await fail(short.fetchTarget(new AbortController().signal, caller, { url, options: { recover: true } }));
      expect(e).toMatchObject({ status: 504, reason: 'timeout' });
      expect(e.hint).toMatch(/No archived copy: the target's deadline had passed before the archive could be asked\.$/);
      expect(wb.server.hits.some((h) => h.includes('slow'))).toBe(false);
    } finally {
      await short.close();
      for (const s of held) s.destroy();
      await new Promise((resolve) => silent.close(resolve));
    }
  });
});

describe('the archive is fetched through the guard', () => {
  it('a snapshot that redirects to an address Sift does not fetch is refused, and never connected to', async () => {
    let connections = 0;
    const inside = createNetServer((s) => {
      connections++;
      s.destroy();
    });
    await new Promise<void>((resolve) => inside.listen(0, '127.0.0.3', resolve));
    const guarded = fetcher({ allowPrivate: false, allowHosts: ['127.0.0.1'] });
    wb.snapshot = (req, res) => {
      if (!req.url?.includes('/to-inside')) return false;
      res.writeHead(302, { location: `http://127.0.0.3:${(inside.address() as AddressInfo).port}/admin` }).end();
      return true;
    };
    try {
      capture('/to-inside', ARTICLE);
      const e = await fail(get('/to-inside', guarded));
      expect(e).toMatchObject({ status: 404, reason: 'upstream' });
      expect(e.hint).toMatch(/No archived copy: the snapshot is at \(or redirects to\) an address Sift does not fetch\.$/);
      expect(connections).toBe(0);
    } finally {
      wb.snapshot = undefined;
      await guarded.close();
      await new Promise((resolve) => inside.close(resolve));
    }
  });
});
