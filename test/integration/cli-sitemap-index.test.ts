/**
 * `sift batch` of a sitemap index: its child sitemaps are fetched (through the guarded
 * fetcher, gzipped ones too) and their pages are the job's targets, from a loopback site.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { PassThrough } from 'node:stream';
import { siftInProcess } from '../helpers/cli-main';
import { main } from '../../src/cli/main';
import { startServer, type TestServer } from '../helpers/fetch-server';

let srv: TestServer;
const dir = mkdtempSync(path.join(tmpdir(), 'sift-cli-sitemap-index-'));
const sift = siftInProcess(dir, { HOME: dir, XDG_DATA_HOME: dir, APPDATA: dir });

const urlset = (...paths: string[]) =>
  `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${paths.map((p) => `  <url><loc>${srv.origin}${p}</loc></url>\n`).join('')}</urlset>\n`;
const index = (...paths: string[]) =>
  `<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${paths.map((p) => `  <sitemap><loc>${srv.origin}${p}</loc></sitemap>\n`).join('')}</sitemapindex>\n`;

beforeAll(async () => {
  srv = await startServer();
  srv.route('/sitemap-posts.xml', (_q, r) => r.writeHead(200, { 'content-type': 'application/xml' }).end(urlset('/post/1', '/post/2')));
  srv.route('/sitemap-pages.xml.gz', (_q, r) => r.writeHead(200, { 'content-type': 'application/x-gzip' }).end(gzipSync(urlset('/page/about', '/post/1'))));
  // An index inside the index, naming a sitemap and the top index again: read once each.
  srv.route('/sitemap-more.xml', (_q, r) => r.writeHead(200, { 'content-type': 'text/xml' }).end(index('/sitemap-extra.xml', '/sitemap-more.xml', '/sitemap_index.xml')));
  srv.route('/sitemap-extra.xml', (_q, r) => r.writeHead(200, { 'content-type': 'text/xml' }).end(urlset('/page/extra')));
  srv.route('/sitemap_index.xml', (_q, r) => r.writeHead(200, { 'content-type': 'text/xml' }).end(index('/sitemap-posts.xml')));
  srv.fallback((q, r) => {
    if (/^\/(post|page)\//.test(q.url ?? '')) {
      r.writeHead(200, { 'content-type': 'text/html' }).end(`<html><head><title>${q.url}</title></head><body><article><h1>${q.url}</h1><p>${'Words of a real page, long enough to be one. '.repeat(12)}</p></article></body></html>`);
    } else r.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
  });
  for (let i = 1; i <= 12; i++) {
    srv.route(`/many/sitemap-${i}.xml`, (_q, r) => r.writeHead(200, { 'content-type': 'application/xml' }).end(urlset(`/post/many-${i}`)));
  }
  writeFileSync(path.join(dir, 'many.xml'), index(...Array.from({ length: 12 }, (_, i) => `/many/sitemap-${i + 1}.xml`)));
  writeFileSync(path.join(dir, 'index.xml'), index('/sitemap-posts.xml', '/sitemap-pages.xml.gz', '/sitemap-gone.xml', '/sitemap-more.xml'));
});
afterAll(() => srv.close());

describe('sift batch of a sitemap index from a file', () => {
  it("fetches its child sitemaps over HTTP, says so, and runs their pages; a failed child is named and the others count", async () => {
    const r = await sift('batch', 'index.xml', '--allow-private', '--mode', 'text', '--json', '--db', path.join(dir, 'a.db'));
    expect(r.code, r.err).toBe(0);
    const lines = r.out.trim().split('\n').map((l) => JSON.parse(l) as { url: string; ok: boolean });
    expect(lines.map((l) => [l.url.slice(srv.origin.length), l.ok])).toEqual([
      ['/post/1', true],
      ['/post/2', true],
      ['/page/about', true],
      ['/page/extra', true],
    ]);
    const err = r.err.split('\n');
    expect(err[0]).toMatch(/^job [0-9a-f]+$/);
    expect(err[1]).toBe('sift batch: index.xml is a sitemap index of 4 child sitemaps; Sift fetched them over HTTP and reads their 4 pages (5 sitemaps read, 1 failed)');
    expect(err[2]).toBe(`  child sitemap failed: ${srv.origin}/sitemap-gone.xml: HTTP 404 Not Found`);
    // Each sitemap was fetched once, the loop back to the top index included.
    const sitemaps = srv.hits.filter((h) => h.includes('sitemap'));
    expect(new Set(sitemaps).size).toBe(sitemaps.length);
  });
  it('fetches the child sitemaps through the guard: without --allow-private none is read, and nothing is submitted', async () => {
    const before = srv.hits.length;
    const r = await sift('batch', 'index.xml', '--db', path.join(dir, 'b.db'));
    expect(r.code).toBe(2);
    expect(srv.hits.length).toBe(before);
    expect(r.err).toMatch(/^sift batch: index\.xml is a sitemap index of 4 child sitemaps; Sift fetched them over HTTP and reads their 0 pages \(0 sitemaps read, 4 failed\)\n {2}child sitemap failed: http:\/\/127\.0\.0\.1:\d+\/sitemap-posts\.xml: blocked/);
    expect(r.err).toMatch(/\nsift batch: no child sitemap of the index gave a page to fetch; nothing was submitted\n$/);
  });
  it('reads at most 1,000 child sitemaps, names the rest as not read, and lists the first 20 failures', async () => {
    writeFileSync(path.join(dir, 'huge.xml'), index(...Array.from({ length: 1003 }, (_, i) => `/huge/sitemap-${i}.xml`)));
    // Without --allow-private each child fails at the guard, before any request.
    const r = await sift('batch', 'huge.xml', '--db', path.join(dir, 'd.db'));
    expect(r.code).toBe(2);
    const err = r.err.split('\n');
    expect(err[0]).toBe('sift batch: huge.xml is a sitemap index of 1,003 child sitemaps; Sift fetched them over HTTP and reads their 0 pages (0 sitemaps read, 1,000 failed)');
    expect(err.slice(1, 21).every((l) => /^ {2}child sitemap failed: http:\/\/127\.0\.0\.1:\d+\/huge\/sitemap-\d+\.xml: blocked/.test(l))).toBe(true);
    expect(err.slice(21, 23)).toEqual([
      '  … and 980 more child sitemaps failed',
      '  3 more child sitemaps not read: Sift reads at most 1,000, nested at most 3 deep; give the rest as a list of their own',
    ]);
  });
  it('sift parse lists the child sitemaps, which it does not fetch, and says sift batch reads their pages', async () => {
    const before = srv.hits.length;
    const r = await sift('parse', 'index.xml');
    expect(r.code).toBe(0);
    expect(r.out.trim().split('\n').map((l) => (JSON.parse(l) as { url: string }).url.slice(srv.origin.length))).toEqual(['/sitemap-posts.xml', '/sitemap-pages.xml.gz', '/sitemap-gone.xml', '/sitemap-more.xml']);
    expect(r.err).toBe('4 targets, 0 invalid, 0 duplicates (read as xml)\nthese are the child sitemaps of a sitemap index: sift batch fetches them and runs the pages they list\n');
    expect(srv.hits.length).toBe(before);
  });
  it('on a terminal, counts the child sitemaps read on a live line, cleared before the job line', async () => {
    const stderr = new PassThrough();
    let err = '';
    stderr.on('data', (d: Buffer) => (err += d.toString()));
    const io = { stdout: new PassThrough().resume(), stderr, stdin: new PassThrough(), isTTY: true, env: { ...process.env, HOME: dir, XDG_DATA_HOME: dir, APPDATA: dir }, cwd: dir };
    const code = await main(['batch', 'many.xml', '--allow-private', '--mode', 'text', '--db', path.join(dir, 'c.db')], io);
    expect(code, err).toBe(0);
    const [live, rest] = [err.slice(0, err.indexOf('job ')), err.slice(err.indexOf('job '))];
    expect(live).toContain('\r\x1b[Kreading child sitemaps: 1 of 12, 1 page');
    expect(live.endsWith('\r\x1b[Kreading child sitemaps: 12 of 12, 12 pages\r\x1b[K')).toBe(true);
    expect(rest).toMatch(/^job [0-9a-f]+\nsift batch: many\.xml is a sitemap index of 12 child sitemaps; Sift fetched them over HTTP and reads their 12 pages \(12 sitemaps read\)\n/);
  });
});

describe('sift batch of a sitemap index whose pages are more than a job holds', () => {
  it('says how many pages the child sitemaps it read list, and what to do, not to split the index by lines', async () => {
    // 3 child sitemaps of 4,000 pages: 12,000, past the 10,000 a job holds by default.
    for (let i = 1; i <= 3; i++) {
      srv.route(`/big/sitemap-${i}.xml`, (_q, r) => r.writeHead(200, { 'content-type': 'application/xml' }).end(urlset(...Array.from({ length: 4_000 }, (_, k) => `/post/big-${i}-${k}`))));
    }
    writeFileSync(path.join(dir, 'big.xml'), index('/big/sitemap-1.xml', '/big/sitemap-2.xml', '/big/sitemap-3.xml'));
    const r = await sift('batch', 'big.xml', '--allow-private', '--db', path.join(dir, 'e.db'));
    expect(r.code).toBe(2);
    // It read "the list has 12,000 URLs", of a file of 3, and told to `split -l 10000 big.xml`:
    // an index cut into lines is no sitemap at all.
    expect(r.err).toBe(
      'sift batch: the child sitemaps of big.xml list 12,000 pages (3 of its 3 child sitemaps read), and one job holds at most 10,000; nothing was submitted.\n' +
        '  Raise "URLs per job" in the app’s Settings, or give Sift a few of the child sitemaps at a time, each as a list of its own (`sift parse big.xml` lists them).\n',
    );
  });
});
