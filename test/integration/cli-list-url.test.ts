/**
 * `sift batch URL`: a list at an http(s) address, fetched through the guarded fetcher and
 * read as a file would be, from a loopback site: a text list behind a redirect, a web page's
 * links (relative ones resolved against where the page came from), a sitemap index, and the
 * lists that cannot be had (gone, refused by the guard, not a list).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { siftInProcess } from '../helpers/cli-main';
import { startServer, type TestServer } from '../helpers/fetch-server';
import { makePdf } from '../helpers/fetch-pdf';

let srv: TestServer;
const dir = mkdtempSync(path.join(tmpdir(), 'sift-cli-list-url-'));
const sift = siftInProcess(dir, { HOME: dir, XDG_DATA_HOME: dir, APPDATA: dir });
const db = (name: string): string[] => ['--db', path.join(dir, `${name}.db`)];
const okUrls = (out: string): string[] =>
  out
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as { url: string; ok: boolean })
    .map((l) => `${l.url.slice(srv.origin.length)} ${l.ok}`);

beforeAll(async () => {
  srv = await startServer();
  const html = (body: string) => `<!doctype html><html><head><title>Blog</title></head><body>${body}</body></html>`;
  srv.route('/list', (_q, r) => r.writeHead(302, { location: '/lists/reading.txt' }).end());
  srv.route('/lists/reading.txt', (_q, r) => r.writeHead(200, { 'content-type': 'text/plain' }).end(`${srv.origin}/post/1\n${srv.origin}/post/2 mode=text\n`));
  srv.route('/blog/', (_q, r) =>
    r.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(html(`<ul><li><a href="/post/1">One</a></li><li><a href="post-2">Two</a></li><li><a href="#top">Top</a></li></ul>`)),
  );
  srv.route('/sitemap_index.xml', (_q, r) =>
    r
      .writeHead(200, { 'content-type': 'application/xml' })
      .end(`<?xml version="1.0"?><sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><sitemap><loc>${srv.origin}/sitemap-posts.xml</loc></sitemap></sitemapindex>`),
  );
  srv.route('/sitemap-posts.xml', (_q, r) =>
    r
      .writeHead(200, { 'content-type': 'application/xml' })
      .end(`<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>${srv.origin}/post/3</loc></url></urlset>`),
  );
  srv.route('/report.pdf', (_q, r) => r.writeHead(200, { 'content-type': 'application/pdf' }).end(makePdf({ pages: [['Links', 'https://example.org/a']] })));
  srv.fallback((q, r) => {
    if (/^\/(post|blog\/post)/.test(q.url ?? '')) {
      r.writeHead(200, { 'content-type': 'text/html' }).end(html(`<article><h1>${q.url}</h1><p>${'Words of a real page, long enough to be one. '.repeat(12)}</p></article>`));
    } else r.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
  });
});
afterAll(() => srv.close());

describe('sift batch of a list at a URL', () => {
  it('fetches a text list (after its redirect) and runs its URLs with their own options', async () => {
    const r = await sift('batch', `${srv.origin}/list`, '--allow-private', '--json', ...db('text'));
    expect(r.code, r.err).toBe(0);
    expect(okUrls(r.out)).toEqual(['/post/1 true', '/post/2 true']);
    expect(r.err.split('\n')[0]).toMatch(/^job [0-9a-f]+$/);
  });

  it("reads a web page's links, relative ones against the page's address", async () => {
    const r = await sift('batch', `${srv.origin}/blog/`, '--allow-private', '--json', ...db('html'));
    expect(r.code, r.err).toBe(0);
    expect(okUrls(r.out)).toEqual(['/post/1 true', '/blog/post-2 true']);
  });

  it("reads a sitemap index's sitemaps for their pages", async () => {
    const r = await sift('batch', `${srv.origin}/sitemap_index.xml`, '--allow-private', '--json', ...db('index'));
    expect(r.code, r.err).toBe(0);
    expect(okUrls(r.out)).toEqual(['/post/3 true']);
    expect(r.err).toContain(`${srv.origin}/sitemap_index.xml is a sitemap index of 1 child sitemap`);
  });

  it('says why a list cannot be had, and fetches nothing else', async () => {
    const gone = await sift('batch', `${srv.origin}/gone.txt`, '--allow-private', ...db('gone'));
    expect(gone.code).toBe(2);
    expect(gone.err).toMatch(new RegExp(`^sift batch: cannot fetch the list at ${srv.origin}/gone.txt: HTTP 404 Not Found\\n`));
    // Loopback is private: the guard refuses it unless allowed, and says how to allow it.
    const refused = await sift('batch', `${srv.origin}/list`, ...db('refused'));
    expect(refused.code).toBe(2);
    expect(refused.err).toMatch(new RegExp(`^sift batch: cannot fetch the list at ${srv.origin}/list: blocked\\n  The address is a loopback address .*--allow-host HOST`));
    const pdf = await sift('batch', `${srv.origin}/report.pdf`, '--allow-private', ...db('pdf'));
    expect(pdf.code).toBe(2);
    expect(pdf.err).toBe(
      `sift batch: ${srv.origin}/report.pdf is not a list of URLs (it is application/pdf): sift fetch ${srv.origin}/report.pdf reads it; a list is text with one URL a line, a sitemap, a feed or a web page of links\n`,
    );
    // Only the two runs that fetched a list went on to its pages.
    // sift parse fetches nothing, and says where an address is read.
    const parsed = await sift('parse', `${srv.origin}/list`);
    expect(parsed.code).toBe(2);
    expect(parsed.err).toBe(
      `sift parse: ${srv.origin}/list is an address: sift parse reads a list from a file or stdin and fetches nothing (curl -s ${srv.origin}/list | sift parse - reads it; sift batch ${srv.origin}/list fetches and runs it)\n`,
    );
    expect(srv.hits.filter((h) => h === '/post/1')).toHaveLength(2);
  });
});

describe('a list at a URL that is over a limit the command line has no flag for', () => {
  it("names the app's Settings, whose limits sift reads, not a Settings of its own", async () => {
    // "Largest download" at its floor (1 MiB), and a list of 2 MiB: the fetcher's hint says
    // "in Settings", as the app reads it, and the command line has no Settings of its own.
    const home = mkdtempSync(path.join(tmpdir(), 'sift-cli-list-url-limit-'));
    writeFileSync(path.join(home, 'settings.json'), JSON.stringify({ maxBodyMiB: 1 }));
    const run = siftInProcess(home, { SIFT_HOME: home });
    const line = `${srv.origin}/post/1\n`;
    srv.route('/long.txt', (_q, r) => r.writeHead(200, { 'content-type': 'text/plain' }).end(line.repeat(Math.ceil((2 * 1024 * 1024) / line.length))));
    const r = await run('batch', `${srv.origin}/long.txt`, '--allow-private', '--db', path.join(home, 'sift.db'));
    expect(r.code).toBe(2);
    expect(r.err).toContain(`sift batch: cannot fetch the list at ${srv.origin}/long.txt: document too long: body over 1 MiB`);
    expect(r.err).toContain('Raise "Largest download" in the app’s Settings');
    expect(r.err).not.toMatch(/\bin Settings\b/);
  });
});
