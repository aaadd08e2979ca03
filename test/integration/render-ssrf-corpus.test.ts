import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createServer, type Server } from 'node:http';
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { createFetcher, type Fetcher, type ProxyEvent } from '../../src/main/fetch';
import path from 'node:path';

/**
 * A rendered page asks for this computer in every spelling the shared SSRF corpus holds
 * (PayloadsAllTheThings and the rest: 127.1, 0x7f.1, 2130706433, [::ffff:127.0.0.1], 0.0.0.0,
 * localhost., a.b.localhost. …), through the real pipeline and the system Chromium.
 *
 * The other render tests allow 127.0.0.1 itself (--allow-host 127.0.0.1) so their fixtures
 * count as public, and so cannot show that a page is kept from 127.0.0.1, the address a
 * machine's own services listen on. Here the fixture's origin is allowed by a name only
 * (fixture.test, which the injected resolver maps to 127.0.0.1): every spelling of a loopback
 * address must then be refused by the guard, none connect. Only the corpus's loopback payloads
 * are used, so that even a guard that let one through would send nothing off this machine.
 */
// A browser start on a loaded 2-core machine alone can take 10 s.
vi.setConfig({ testTimeout: 120_000 });

// A copy of the shared corpus's table (test/fixtures/ssrf/README.md), so the test runs wherever the code goes.
const table = path.resolve(__dirname, '../fixtures/ssrf/all.tsv');
const LOOPBACK = /^(127\.\d+\.\d+\.\d+|0\.0\.0\.0|\[::1?\]|\[::ffff:7f[0-9a-f]{2}:[0-9a-f]{1,4}\]|(?:.+\.)?localhost\.?)$/i;

/** The must-block payloads whose host (as Node's WHATWG parser reads it) is this computer. */
function loopbackPayloads(): string[] {
  return readFileSync(table, 'utf8')
    .trim()
    .split('\n')
    .slice(1)
    .map((l) => l.split('\t'))
    .filter((r) => r[1] === 'must' && LOOPBACK.test(r[3] ?? ''))
    .map((r) => r[0] as string);
}

/** The payload's host as written (its spelling), without scheme, userinfo, port or path. */
function writtenHost(url: string): string | undefined {
  const authority = /^[a-z]+:\/\/([^/?#\\]*)/i.exec(url)?.[1];
  if (authority === undefined) return undefined;
  const host = authority.slice(authority.lastIndexOf('@') + 1);
  return host.startsWith('[') ? host.slice(0, host.indexOf(']') + 1) : host.replace(/:[^:]*$/, '');
}

describe('a rendered page that asks for this computer in every spelling of the SSRF corpus', () => {
  const payloads = loopbackPayloads();
  let page: Server;
  let target: Server;
  let target6: Server;
  let targetConnections = 0;
  let fetcher: Fetcher;
  const events: ProxyEvent[] = [];
  let origin = '';

  beforeAll(async () => {
    // What the payloads would reach: a server on 127.0.0.1 and ::1, on a port of its own.
    target = createServer((_req, res) => res.end('this computer'));
    target.on('connection', () => targetConnections++);
    await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
    const port = (target.address() as AddressInfo).port;
    target6 = createServer((_req, res) => res.end('this computer'));
    target6.on('connection', () => targetConnections++);
    await new Promise<void>((resolve) => target6.listen(port, '::1', resolve));
    // Each payload's spelling of the host, on the target's port, with a path naming it.
    const asks = payloads.flatMap((u, i) => {
      const host = writtenHost(u);
      return host ? [{ i, url: `http://${host}:${port}/payload-${i}` }] : [];
    });
    const html = `<!doctype html><html><head><meta charset="utf-8"><title>Payloads</title></head><body><div id="root"></div><script>
      var asked = [];
      ${JSON.stringify(asks)}.forEach(function (a) {
        try { new URL(a.url); } catch (e) { return; }
        asked.push(a.i);
        fetch(a.url, { mode: 'no-cors' }).catch(function () {});
        new Image().src = a.url + '.png';
      });
      document.getElementById('root').innerHTML = '<article><h1>Payloads</h1>' + '<p>Every spelling of this computer was asked for by the page, and the guard refused each one of them.</p>'.repeat(8) + '<p>asked: ' + asked.join(' ') + '</p></article>';
    </script></body></html>`;
    page = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(html));
    await new Promise<void>((resolve) => page.listen(0, '127.0.0.1', resolve));
    origin = `http://fixture.test:${(page.address() as AddressInfo).port}`;
    // No real DNS: the fixture's name is 127.0.0.1; any other name fails to resolve.
    const lookup = async (h: string) => {
      if (h === 'fixture.test') return [{ address: '127.0.0.1', family: 4 }];
      throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${h}`), { code: 'ENOTFOUND' });
    };
    fetcher = createFetcher({ allowHosts: ['fixture.test'], renderBudgetMs: 15_000 }, { lookup });
    fetcher.proxy.on((e) => events.push(e));
  });
  afterAll(async () => {
    await fetcher?.close();
    await Promise.all([page, target, target6].map((s) => new Promise((resolve) => (s ? s.close(resolve) : resolve(undefined)))));
  });

  it('refuses each one in the proxy and none reaches the server it names', async () => {
    expect(payloads.length).toBeGreaterThan(50);
    const r = await fetcher.fetchTarget(new AbortController().signal, { name: 'test' }, { url: `${origin}/payloads.html`, options: { mode: 'text', render: 'always' } });
    const asked = (/asked: ([\d ]*)/.exec(r.content)?.[1] ?? '').trim().split(' ').filter(Boolean).map(Number);
    // Chromium's URL parser takes most spellings (it rejects a few the corpus marks invalid).
    expect(asked.length).toBeGreaterThan(payloads.length / 2);
    const refusedPaths = new Set(events.filter((e) => e.kind === 'refused').map((e) => e.path));
    const missing = asked.filter((i) => !refusedPaths.has(`/payload-${i}`)).map((i) => payloads[i]);
    expect(missing, 'asked for, but not refused by the guard').toEqual([]);
    expect(events.filter((e) => e.host !== 'fixture.test' && e.kind !== 'refused')).toEqual([]);
    expect(targetConnections).toBe(0);
    expect(r.meta).toMatchObject({ rendered: true });
    expect(Number(r.meta?.render_refused)).toBeGreaterThanOrEqual(asked.length);
  });
});
