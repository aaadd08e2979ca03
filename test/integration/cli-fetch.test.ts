import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gzipSync } from 'node:zlib';
import { closeSync, copyFileSync, createWriteStream, existsSync, mkdtempSync, openSync, readFileSync, writeFileSync } from 'node:fs';
import { execFileSync, spawn } from 'node:child_process';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createServer as createTlsServer } from 'node:tls';
import type { AddressInfo } from 'node:net';
import { siftInProcess } from '../helpers/cli-main';
import { SIFT_BIN, runSift } from '../helpers/cli';
import { startServer, type TestServer } from '../helpers/fetch-server';
import { makePdf, numberedPdf } from '../helpers/fetch-pdf';

let srv: TestServer;
const dir = mkdtempSync(path.join(tmpdir(), 'sift-cli-fetch-'));

const sift = siftInProcess(dir, { HOME: dir, XDG_DATA_HOME: dir, APPDATA: dir });

beforeAll(async () => {
  srv = await startServer({
    '/page': (_q, r) => r.writeHead(200, { 'content-type': 'text/html' }).end('<html><head><title>CLI page</title></head><body><article><p>Hello from the command line. It has words.</p></article></body></html>'),
    '/data': (_q, r) => r.writeHead(200, { 'content-type': 'application/json' }).end('{"a":[1,2,3]}'),
    // A paywall's teaser with no schema.org markup: two paragraphs, then the box asking to subscribe.
    '/teaser': (_q, r) =>
      r
        .writeHead(200, { 'content-type': 'text/html' })
        .end(
          '<html><head><title>Night buses</title></head><body><article><h1>Council extends night buses</h1><p>The city council voted on Tuesday to extend the night bus network to the eastern suburbs, ending a two-year campaign by residents.</p><p>Four new routes will run every twenty minutes between midnight and five in the morning from September.</p><div class="paywall"><h2>Subscribe to continue reading</h2><p>Already a subscriber? <a href="/login">Sign in</a></p></div></article></body></html>',
        ),
    // A news story: its title holds the names a question asks about, its first paragraph the answer.
    '/signing': (_q, r) =>
      r
        .writeHead(200, { 'content-type': 'text/html' })
        .end(
          '<html><head><title>Chelsea sign Kepa Arrizabalaga from Athletic Bilbao</title></head><body><article><h1>Chelsea sign Kepa Arrizabalaga from Athletic Bilbao</h1><p>The club paid the £71.6 million release clause this morning, a world record fee for a goalkeeper.</p><p>The manager said the squad was ready for the new season, and that the first match would be played in August.</p></article></body></html>',
        ),
    '/tokyo': (_q, r) =>
      r
        .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
        .end('<html lang="ja"><head><title>東京</title></head><body><article><p>東京は日本の首都です。</p><p>富士山は日本で一番高い山です。</p><p>大阪には城があります。</p></article></body></html>'),
    // An article's opening with a sign-in form where the rest was (real corpus material: test/fixtures/outcomes/README.md).
    '/signin-teaser': (_q, r) =>
      r
        .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
        .end(readFileSync(path.resolve(__dirname, '../fixtures/outcomes/pages/ok_teaser_trade_news_opening_then_signin_form.html'))),
    // A gzip file that is the document, as data portals and archives serve them.
    '/export/items.json.gz': (_q, r) => r.writeHead(200, { 'content-type': 'application/gzip' }).end(gzipSync('{"items":[{"name":"alpha"},{"name":"beta"}]}')),
  });
  writeFileSync(path.join(dir, 'doc.pdf'), numberedPdf(3, 'Local'));
  writeFileSync(path.join(dir, 'data.json'), '{"k":"v"}');
  writeFileSync(path.join(dir, 'notes.txt'), 'one\ntwo\nthree\n');
});
afterAll(() => srv.close());

describe('sift fetch', () => {
  it('prints the content and exits 0', async () => {
    const r = await sift('fetch', `${srv.origin}/page`, '--allow-private', '--mode', 'text');
    expect(r.code).toBe(0);
    expect(r.out).toBe('Hello from the command line. It has words.\n');
    // Ok, but a page of one sentence: stderr says so, stdout stays the content.
    expect(r.err).toBe(`sift fetch: ${srv.origin}/page: thin page: Little text came back: a short page, or a teaser in front of a paywall or a sign-in.\n`);
  });
  // /dev/full fails every write with ENOSPC, as a full disk does under `sift fetch URL > out.md`.
  it.skipIf(!existsSync('/dev/full'))('says so when stdout cannot be written (a full disk) and exits 1, not 0 with the result lost', async () => {
    const full = openSync('/dev/full', 'w');
    const child = spawn(process.execPath, [SIFT_BIN, 'fetch', `${srv.origin}/page`, '--allow-private'], {
      env: { ...process.env, HOME: dir, XDG_DATA_HOME: dir },
      stdio: ['ignore', full, 'pipe'],
    });
    closeSync(full);
    let stderr = '';
    child.stderr!.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(code, stderr).toBe(1);
    expect(stderr).toMatch(/^sift fetch: could not write the output: no space left on device; what was written is incomplete$/m);
    expect(stderr).not.toMatch(/Error:| {4}at /);
  });

  it("says a paywall's teaser is one, in words true of a page without the markup", async () => {
    const r = await sift('fetch', `${srv.origin}/teaser`, '--allow-private');
    expect(r.code, r.err).toBe(0);
    expect(r.out).toContain('The city council voted on Tuesday');
    expect(r.err).toBe(
      `sift fetch: ${srv.origin}/teaser: paywalled: The page says its article is for subscribers (in its markup, or in a box asking to subscribe to read on), and only a short part of it came back: likely its opening.\n`,
    );
  });
  it("says an article's opening over a sign-in form is a teaser, and what to do to read the rest", async () => {
    const r = await sift('fetch', `${srv.origin}/signin-teaser`, '--allow-private');
    expect(r.code, r.err).toBe(0);
    expect(r.out).toContain('Breaking with decades of United States policy');
    expect(r.err).toBe(
      `sift fetch: ${srv.origin}/signin-teaser: teaser: Only the opening of the article came back: the page has a sign-in form where the rest of its text would be. Open the page in a browser and sign in to read all of it.\n`,
    );
    const json = await sift('fetch', `${srv.origin}/signin-teaser`, '--allow-private', '--json');
    expect((JSON.parse(json.out) as { warnings?: string[] }).warnings).toEqual(['teaser']);
  });
  it("answers a question with the passage under the page's title, not with the title alone", async () => {
    const r = await sift('fetch', `${srv.origin}/signing`, '--allow-private', '--question', 'what did Chelsea pay for Arrizabalaga?', '--json');
    expect(r.code, r.err).toBe(0);
    const line = JSON.parse(r.out) as { content: string; meta: Record<string, unknown> };
    expect(line.content).toBe('# Chelsea sign Kepa Arrizabalaga from Athletic Bilbao\n\nThe club paid the £71.6 million release clause this morning, a world record fee for a goalkeeper.');
    expect(line.meta).toMatchObject({ passages: 1, source_lines: expect.anything() });
  });
  it('says a Japanese question the page cannot answer has no answer, rather than giving every passage in the polite form', async () => {
    const r = await sift('fetch', `${srv.origin}/tokyo`, '--allow-private', '--question', 'パリの天気はどうですか');
    expect(r.code, r.err).toBe(0);
    expect(r.out).toBe('');
    expect(r.err).toMatch(/no answer: No passage shares a word with the question/);
  });
  it('unpacks a .json.gz served as application/gzip and runs jq on what it holds', async () => {
    const r = await sift('fetch', `${srv.origin}/export/items.json.gz`, '--allow-private', '--jq', '[.items[].name] | join(",")', '--json');
    expect(r.code, r.err).toBe(0);
    const line = JSON.parse(r.out) as { content: string; meta: Record<string, unknown> };
    expect(line.content).toBe('"alpha,beta"');
    expect(line.meta).toMatchObject({ content_type: 'application/json', compressed: 'gzip', status: 200 });
  });
  it('says a jq program that does not compile before fetching, as a usage error (exit 2)', async () => {
    const before = srv.hits.length;
    const r = await sift('fetch', `${srv.origin}/data`, '--allow-private', '--jq', '.a | lenght');
    expect(r.code).toBe(2);
    expect(r.err).toBe(`sift fetch: ${srv.origin}/data: jq: lenght/0 is not defined at column 6 ("lenght")\n  Check the jq program; https://jqlang.org/manual/ has the syntax.\n`);
    expect(srv.hits.length).toBe(before);
    const json = await sift('fetch', `${srv.origin}/data`, '--allow-private', '--jq', '.a[', '--json');
    expect(json.code).toBe(2);
    expect(JSON.parse(json.out)).toMatchObject({ url: `${srv.origin}/data`, ok: false, status: 422, reason: 'bad_option', error: 'jq: syntax error, unexpected end of the program at column 3 ("[")' });
    expect(srv.hits.length).toBe(before);
  });
  it('prints one JSON line with url, ok, content and meta under --json', async () => {
    const r = await sift('fetch', `${srv.origin}/data`, '--allow-private', '--jq', '.a | length', '--json');
    expect(r.code).toBe(0);
    const lines = r.out.trim().split('\n');
    expect(lines).toHaveLength(1);
    const line = JSON.parse(lines[0] ?? '') as Record<string, unknown>;
    expect(Object.keys(line)).toEqual(['url', 'ok', 'content', 'meta']);
    expect(line).toMatchObject({ url: `${srv.origin}/data`, ok: true, content: '3', meta: { status: 200, content_type: 'application/json' } });
  });
  it('blocks loopback without --allow-private: a failed target, exit 1, JSON error line', async () => {
    const r = await sift('fetch', `${srv.origin}/page`, '--json');
    expect(r.code).toBe(1);
    const line = JSON.parse(r.out) as Record<string, unknown>;
    expect(Object.keys(line)).toEqual(['url', 'ok', 'status', 'error', 'hint', 'reason']);
    expect(line).toMatchObject({ ok: false, status: 403, error: 'blocked', reason: 'blocked' });
  });
  it('reports an upstream error on stderr with its hint and exits 1', async () => {
    const r = await sift('fetch', `${srv.origin}/nope`, '--allow-private');
    expect(r.code).toBe(1);
    expect(r.out).toBe('');
    expect(r.err).toMatch(/HTTP 404 Not Found\n {2}.*recover/);
  });
  it('exits 2 on bad usage: no URL, two URLs, unknown flag, unknown mode, an invalid URL', async () => {
    const none = await sift('fetch');
    expect(none.code).toBe(2);
    // What to type, as every other command's missing argument says it (not "missing URL").
    expect(none.err).toMatch(/^sift fetch: give one URL, e.g\. sift fetch https:\/\/example\.org\/report\.pdf\n/);
    const two = await sift('fetch', 'http://a.example/', 'http://b.example/');
    expect(two.code).toBe(2);
    expect(two.err).toMatch(/takes exactly one URL \(use sift batch for a list\)/);
    expect((await sift('fetch', 'http://a.example/', '--frobnicate')).code).toBe(2);
    expect((await sift('fetch', 'http://a.example/', '--mode', 'pdf')).code).toBe(2);
    // Two options that ask for different results: said before any request, with what to do.
    const clash = await sift('fetch', 'http://a.example/', '--mode', 'raw', '--jq', '.a');
    expect(clash.code).toBe(2);
    expect(clash.err).toMatch(/^sift fetch: --jq and --mode raw do not go together: with jq, the result is jq's output\. Leave the mode out for jq's output as JSON/);
    const bad = await sift('fetch', 'ftp://a.example/');
    expect(bad.code).toBe(2);
    expect(bad.err).toMatch(/scheme ftp/);
  });
  it('says which part of a URL it cannot read: a port past 65535, a host with a space; and quotes one over 8 KiB cut short', async () => {
    const port = await sift('fetch', 'http://127.0.0.1:99999/x', '--json');
    expect(port.code).toBe(2);
    expect(JSON.parse(port.out)).toMatchObject({ ok: false, status: 400, error: 'invalid URL: port 99999 is over 65535' });
    const long = `https://a.example/${'a'.repeat(9000)}`;
    const tooLong = await sift('fetch', long);
    expect(tooLong.code).toBe(2);
    expect(tooLong.err).toBe(`sift fetch: ${long.slice(0, 199)}…: invalid URL: longer than 8192 bytes\n  Shorten the URL; a URL this long is usually pasted data.\n`);
    const host = await sift('fetch', 'https://exa mple.org/x', '--json');
    expect(JSON.parse(host.out)).toMatchObject({ ok: false, status: 400, error: 'invalid URL: "exa mple.org" is not a host name or address' });
  });
  it('given the name of a file here (saved.html, notes:2026), says which command reads it, not to use an http:// address; through the built CLI', async () => {
    const here = mkdtempSync(path.join(dir, 'files-'));
    writeFileSync(path.join(here, 'saved.html'), '<html><body><p>Saved.</p></body></html>');
    writeFileSync(path.join(here, 'notes:2026'), `${srv.origin}/page\n`);
    for (const name of ['saved.html', 'notes:2026']) {
      const r = await runSift(['fetch', name], { cwd: here, env: { HOME: dir, XDG_DATA_HOME: dir, APPDATA: dir } });
      expect(r.code, name).toBe(2);
      expect(r.stderr, name).toBe(`sift fetch: ${name}: a local file, not a URL\n  sift extract ${name} reads a saved page or document; sift batch ${name} runs the list of URLs in it.\n`);
      const json = await runSift(['fetch', name, '--json'], { cwd: here, env: { HOME: dir, XDG_DATA_HOME: dir, APPDATA: dir } });
      expect(json.code, name).toBe(2);
      expect(JSON.parse(json.stdout), name).toMatchObject({ url: name, ok: false, status: 400, error: 'a local file, not a URL' });
    }
    // A name that is no file here is still told what a URL looks like.
    const none = await runSift(['fetch', 'nothing.html'], { cwd: here, env: { HOME: dir, XDG_DATA_HOME: dir, APPDATA: dir } });
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('Use an absolute http:// or https:// address');
  });
});

describe('sift fetch of a body its Content-Encoding misdescribes', () => {
  const article = `<!doctype html><html><head><title>Encoded</title></head><body><article>${'<p>Words a reader came for, in a page of some length.</p>'.repeat(40)}</article></body></html>`;
  const gz = gzipSync(article);
  const routes: Record<string, [string, Buffer]> = {
    '/enc/gzip-is-plain': ['gzip', Buffer.from(article)],
    '/enc/br-is-gzip': ['br', gz],
    '/enc/gzip-and-br-is-gzip': ['gzip, br', gz],
    '/enc/gzip-no-trailer': ['gzip', gz.subarray(0, gz.length - 8)],
    '/enc/gzip-half': ['gzip', gz.subarray(0, gz.length >> 1)],
    '/enc/zstd': ['zstd', Buffer.from(article)],
  };
  beforeAll(() => {
    for (const [route, [encoding, body]] of Object.entries(routes)) {
      srv.route(route, (_q, r) => r.writeHead(200, { 'content-type': 'text/html', 'content-encoding': encoding }).end(body));
    }
  });
  const fetchJson = async (route: string) => {
    const r = await sift('fetch', `${srv.origin}${route}`, '--allow-private', '--json');
    expect(r.code, r.err).toBe(1);
    return JSON.parse(r.out) as { status: number; error: string; hint: string; reason: string };
  };
  it('fails saying the headers misdescribe the body, and what to do: retry later or report it to the site', async () => {
    for (const [route, declared] of [['/enc/gzip-is-plain', 'gzip'], ['/enc/br-is-gzip', 'br'], ['/enc/gzip-and-br-is-gzip', 'gzip, br']]) {
      expect(await fetchJson(route as string), route).toEqual({
        url: `${srv.origin}${route}`,
        ok: false,
        status: 422,
        error: 'corrupt compressed body',
        hint: `The server says the body is compressed as ${declared}, but it does not decompress as that: the server's headers misdescribe the body it sent. Try again later; if it keeps happening, report it to the site. The recover option looks for an archived copy.`,
        reason: 'upstream',
      });
    }
  });
  it('fails a gzip stream that stops part way, even one missing only its trailer, saying only part came', async () => {
    for (const route of ['/enc/gzip-no-trailer', '/enc/gzip-half']) {
      expect(await fetchJson(route), route).toMatchObject({
        status: 422,
        error: 'corrupt compressed body',
        hint: "The server's gzip-compressed body stops part way, so only part of the document came. Try again later; if it keeps happening, the site's server is at fault: report it to the site. The recover option looks for an archived copy.",
        reason: 'upstream',
      });
    }
  });
  it('fails a compression Sift did not ask for with what to do', async () => {
    expect(await fetchJson('/enc/zstd')).toMatchObject({
      status: 415,
      error: 'unsupported: content-encoding zstd',
      hint: 'The server compressed the body as zstd, which Sift cannot read and did not ask for (it asks for gzip, deflate or br): try again later, or report it to the site.',
      reason: 'unsupported',
    });
  });
});

describe('sift extract', () => {
  it('extracts local files of each kind in order, one JSON line each', async () => {
    // "Page N of 3" heads every page of doc.pdf: furniture, dropped from text; grep its body line.
    const r = await sift('extract', 'doc.pdf', 'data.json', 'notes.txt', '--json', '--grep', 'page 2 is|"k"|^t');
    expect(r.code).toBe(0);
    const lines = r.out.trim().split('\n').map((l) => JSON.parse(l) as { url: string; ok: boolean; content: string; meta: Record<string, unknown> });
    expect(lines.map((l) => l.url)).toEqual(['doc.pdf', 'data.json', 'notes.txt']);
    expect(lines[0]?.content).toBe('The word for page 2 is item2.');
    expect(lines[0]?.meta).toMatchObject({ pages_total: 3, matches: 1 });
    expect(lines[1]?.content).toBe('  "k": "v"');
    expect(lines[2]?.content).toBe('two\nthree');
  });
  it('says a jq program that does not compile once for each file, as a usage error (exit 2)', async () => {
    const r = await sift('extract', 'data.json', 'notes.txt', '--jq', '$k', '--json');
    expect(r.code).toBe(2);
    const lines = r.out.trim().split('\n').map((l) => JSON.parse(l) as { url: string; ok: boolean; error: string });
    expect(lines.map((l) => [l.url, l.ok, l.error])).toEqual([
      ['data.json', false, 'jq: $k is not defined at column 1 ("$k")'],
      ['notes.txt', false, 'jq: $k is not defined at column 1 ("$k")'],
    ]);
  });
  it('applies --pages and --jq', async () => {
    expect((await sift('extract', 'doc.pdf', '--pages', '3')).out).toBe('Page 3 of 3\nThe word for page 3 is item3.\n');
    expect((await sift('extract', 'data.json', '--jq', '.k')).out).toBe('"v"\n');
  });
  it("says on stderr which pages a PDF's grep matched and its question's passages come from", async () => {
    const grep = await sift('extract', 'doc.pdf', '--grep', 'item[13]');
    expect(grep.out).toBe('The word for page 1 is item1.\nThe word for page 3 is item3.\n');
    expect(grep.err).toMatch(/^sift extract: .*doc\.pdf: 2 matches, on pages 1 and 3\n$/);
    // A match on each of 30 pages names the first dozen and counts the rest, not a screenful of numbers.
    writeFileSync(path.join(dir, 'long.pdf'), numberedPdf(30, 'Long'));
    const many = await sift('extract', 'long.pdf', '--grep', 'item');
    expect(many.err).toMatch(/long\.pdf: 30 matches, on pages 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12 and 18 more\n$/);
    // Each page answers as well: the three come back, one a page here.
    const all = await sift('extract', 'doc.pdf', '--question', 'what is the word for a page?');
    expect(all.err).toMatch(/doc\.pdf: passages from pages 1, 2 and 3\n$/);
    // One page answers; the others share only "word" with the question.
    const one = await sift('extract', 'doc.pdf', '--question', 'which word is item2?');
    expect(one).toMatchObject({ out: 'The word for page 2 is item2.\n' });
    expect(one.err).toMatch(/doc\.pdf: passages from page 2\n$/);
    // Not for a document without pages.
    expect((await sift('extract', 'notes.txt', '--grep', 'two')).err).toBe('');
  });
  it('says on stderr why a grep or a question kept nothing, instead of an empty stdout alone', async () => {
    const grep = await sift('extract', 'notes.txt', '--grep', 'TWO');
    expect(grep).toMatchObject({ code: 0, out: '' });
    expect(grep.err).toBe(
      'sift extract: notes.txt: no match: No line matches the grep expression: the page was read, and nothing in it matched. The expression tells capitals from small letters; (?i) at its start ignores case.\n',
    );
    // As the note says: the same expression ignoring case finds the line.
    expect(await sift('extract', 'notes.txt', '--grep', '(?i)TWO')).toMatchObject({ code: 0, out: 'two\n', err: '' });
    const asked = await sift('extract', 'doc.pdf', '--question', 'harbour tides?');
    expect(asked).toMatchObject({ code: 0, out: '' });
    expect(asked.err).toMatch(/doc\.pdf: no answer: No passage shares a word with the question: the page was read, and nothing in it answers it\. Ask with words the document would use\.\n$/);
    // A question of blanks asks nothing, and is refused as an empty one is: it gave the whole text, as if not asked.
    expect(await sift('extract', 'notes.txt', '--question', '   ')).toMatchObject({ code: 2, out: '', err: 'sift extract: --question is empty: give it a value, or leave --question out\n' });
    expect(JSON.parse((await sift('extract', 'notes.txt', '--grep', 'TWO', '--json')).out)).toMatchObject({ meta: { matches: 0 }, warnings: ['no_match'] });
  });
  it('says a jq program ran out of stack in its own words, with no line of the WebAssembly runtime', async () => {
    writeFileSync(path.join(dir, 'deep.json'), '['.repeat(10_000) + ']'.repeat(10_000));
    const r = await sift('extract', 'deep.json', '--jq', '.');
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/^sift extract: deep\.json: jq: out of memory or stack: the document is nested 10000 levels deep.*\n {2}Select a part nested less deeply/);
    expect(r.err).not.toMatch(/Aborted|ASSERTIONS/);
  });
  it('stops a jq program that never ends at the jq time limit, naming it and what to do, and runs the next program', async () => {
    const home = mkdtempSync(path.join(tmpdir(), 'sift-cli-jq-limit-'));
    writeFileSync(path.join(home, 'settings.json'), JSON.stringify({ jqSeconds: 1 }));
    const limited = siftInProcess(dir, { SIFT_HOME: home });
    const said =
      'jq: the program was still running after 1 s, the time Sift gives a jq program\n' +
      '  Look for a part that never ends (repeat, range with no end, recurse or until with no stop); on a large document, select what you need before the costly step. The limit is in the app’s Settings, "Time a jq program or grep pattern may run".\n';
    const r = await limited('extract', 'data.json', 'data.json', '--jq', 'repeat(1)');
    expect(r.code).toBe(1);
    expect(r.err).toBe(`sift extract: data.json: ${said}sift extract: data.json: ${said}`);
    const f = await limited('fetch', `${srv.origin}/data`, '--allow-private', '--jq', 'last(range(1e12))', '--json');
    expect(f.code).toBe(1);
    expect(JSON.parse(f.out)).toMatchObject({ ok: false, status: 422, error: 'jq: the program was still running after 1 s, the time Sift gives a jq program', reason: 'bad_option' });
    // The stopped thread is replaced: the next program runs.
    expect(await limited('extract', 'data.json', '--jq', '.k')).toMatchObject({ code: 0, out: '"v"\n' });
  });
  it('stops a grep pattern that backtracks without end at the same limit, naming it and what to do, and runs the next target', async () => {
    const home = mkdtempSync(path.join(tmpdir(), 'sift-cli-grep-limit-'));
    writeFileSync(path.join(home, 'settings.json'), JSON.stringify({ jqSeconds: 1 }));
    const limited = siftInProcess(dir, { SIFT_HOME: home });
    // 2^40 ways to split 40 a's between the repeats, each tried before the "!" fails them; with
    // the backreference, V8's linear-time engine cannot take over.
    writeFileSync(path.join(dir, 'almost.txt'), `${'a'.repeat(40)}!\nbbb\n`);
    const said =
      'grep: the pattern was still running after 1 s on this document, the time Sift gives a pattern\n' +
      '  A backreference (\\1) with repeats inside repeats ((a+)+) tries every way to split a line; make the repeated part match less, or do without the backreference. The limit is in the app’s Settings, "Time a jq program or grep pattern may run".\n';
    const r = await limited('extract', 'almost.txt', 'almost.txt', '--grep', '^(a+)+\\1$');
    expect(r.code).toBe(1);
    expect(r.err).toBe(`sift extract: almost.txt: ${said}sift extract: almost.txt: ${said}`);
    // The stopped thread is replaced: the next pattern runs.
    expect(await limited('extract', 'almost.txt', '--grep', '^b+$')).toMatchObject({ code: 0, out: 'bbb\n' });
  });
  it('says of a local .pdf that is not one what it is, with no server in the hint', async () => {
    writeFileSync(path.join(dir, 'empty.pdf'), '');
    writeFileSync(path.join(dir, 'words.pdf'), 'plain words, not a PDF');
    const empty = await sift('extract', 'empty.pdf');
    expect(empty.code).toBe(1);
    expect(empty.err).toBe(
      'sift extract: empty.pdf: malformed PDF: it is empty (0 bytes)\n  It is named or sent as a PDF but is not one (an error page, a download cut short): download it again, or open it in a PDF reader to check.\n',
    );
    const words = await sift('extract', 'words.pdf');
    expect(words.err).toMatch(/^sift extract: words\.pdf: malformed PDF: no %PDF- header\n {2}It is named or sent as a PDF/);
    expect(words.err).not.toMatch(/server|\(\d{3}\)/);
  });
  it('says on stderr when a PDF has no text layer, and exits 0 with what there is (nothing)', async () => {
    writeFileSync(path.join(dir, 'scan.pdf'), makePdf({ pages: [[], []], noText: true }));
    const r = await sift('extract', 'scan.pdf');
    expect(r).toMatchObject({ code: 0, out: '' });
    expect(r.err).toMatch(/^sift extract: .*scan\.pdf: no text layer: The PDF has no text \(scanned pages are images\); run it through OCR first\.\n$/);
    const json = JSON.parse((await sift('extract', 'scan.pdf', '--json')).out) as Record<string, unknown>;
    expect(json).toMatchObject({ ok: true, warnings: ['no_text'], meta: { text_layer: false } });
  });
  it('names the pages of a PDF that have no text among pages that have some (a scanned page in a typed report)', async () => {
    const typed = (line: string) => `BT /F1 12 Tf 72 700 Td (${line}) Tj ET`;
    writeFileSync(path.join(dir, 'mixed.pdf'), makePdf({ pages: [], ops: [typed('The typed first page.'), '0.9 g 72 72 400 600 re f', typed('The typed third page.'), '0.9 g 72 72 400 600 re f'] }));
    const r = await sift('extract', 'mixed.pdf');
    expect(r).toMatchObject({ code: 0, out: 'The typed first page.\n\n\n\nThe typed third page.\n' });
    expect(r.err).toBe('sift extract: mixed.pdf: no text on pages 2 and 4 (blank, or a scanned image: OCR, e.g. ocrmypdf, reads those)\n');
    const json = JSON.parse((await sift('extract', 'mixed.pdf', '--json')).out) as { meta: Record<string, unknown> };
    expect(json.meta).toMatchObject({ pages_total: 4, pages_no_text: [2, 4] });
    expect(json.meta.text_layer).toBeUndefined();
  });
  it('names on stderr the pages chosen past the end of a PDF, with the pages it has on stdout', async () => {
    const r = await sift('extract', 'doc.pdf', '--pages', '2,7-9');
    expect(r.code).toBe(0);
    expect(r.out).toContain('item2');
    // "the missing ones are named" named none.
    expect(r.err).toBe('sift extract: doc.pdf: pages past the end: the PDF has 3 pages: pages 7-9 are past its end; the pages it has came back\n');
    expect(JSON.parse((await sift('extract', 'doc.pdf', '--pages', '2,40', '--json')).out)).toMatchObject({ warnings: ['pages_missing'], meta: { pages_missing: '40' } });
  });
  it('says of a PDF of no pages that it holds none, not that the file was empty', async () => {
    copyFileSync(path.join(__dirname, '../fixtures/pdfs/zero-pages.pdf'), path.join(dir, 'zero-pages.pdf'));
    const r = await sift('extract', 'zero-pages.pdf');
    // It said "Nothing came back: the answer (or the file) was empty. Check the URL or the file, or try again later." of a 405-byte file.
    expect(r).toMatchObject({ code: 0, out: '', err: 'sift extract: zero-pages.pdf: empty: The PDF holds no pages.\n' });
  });
  it('reads a PDF around a damaged page and says on stderr which page it left out', async () => {
    const whole = makePdf({ pages: [['The first page reads.'], ['The second page.']] }).toString('latin1');
    // Page 2's entry in the page tree points at a content stream, not a page; the xref stays right.
    const kids = /\/Kids \[(\d+) 0 R (\d+) 0 R/.exec(whole)!;
    writeFileSync(path.join(dir, 'damaged.pdf'), Buffer.from(whole.replace(kids[0], `/Kids [${kids[1]} 0 R ${Number(kids[2]) - 1} 0 R`), 'latin1'));
    const r = await sift('extract', 'damaged.pdf');
    // It failed whole: "malformed PDF: Page dictionary kid reference points to wrong type of object."
    expect(r).toMatchObject({ code: 0, out: 'The first page reads.\n' });
    expect(r.err).toMatch(/: damaged pages: Some pages of the PDF are damaged/);
    expect(r.err).toMatch(/damaged\.pdf: page 2 could not be read \(damaged\) and is left out\n$/);
  });
  it('names the files attached to a PDF, which it does not read', async () => {
    copyFileSync(path.join(__dirname, '../fixtures/pdfs/attachment.pdf'), path.join(dir, 'attachment.pdf'));
    const r = await sift('extract', 'attachment.pdf');
    expect(r).toMatchObject({ code: 0, out: 'See the attached spreadsheet.\n' });
    expect(r.err).toBe('sift extract: attachment.pdf: a file attached to it was not read (data.csv); save it from a PDF reader to read it\n');
    expect((JSON.parse((await sift('extract', 'attachment.pdf', '--json')).out) as { meta: Record<string, unknown> }).meta.attachments).toEqual(['data.csv']);
  });
  it('reads stdin for -, as sift parse and sift batch do, beside files', async () => {
    const r = await runSift(['extract', '-', 'notes.txt', '--json'], { cwd: dir, env: { HOME: dir, XDG_DATA_HOME: dir }, input: '<html><head><title>Piped</title></head><body><p>From a pipe, with <a href="/x">a link</a>.</p></body></html>' });
    expect(r.code, r.stderr).toBe(0);
    const [piped, file] = r.stdout.trim().split('\n').map((l) => JSON.parse(l) as { url: string; ok: boolean; content: string; meta: Record<string, unknown> });
    expect(piped).toMatchObject({ url: '-', ok: true, content: '# Piped\n\nFrom a pipe, with [a link](/x).', meta: { kind: 'html', title: 'Piped' } });
    expect(piped?.meta.url).toBeUndefined();
    expect(file).toMatchObject({ url: 'notes.txt', ok: true, content: 'one\ntwo\nthree\n' });
  });
  it('says an empty stdin or file is empty, with what to do about it, and no word of a URL there is none of', async () => {
    writeFileSync(path.join(dir, 'blank.html'), '');
    const r = await runSift(['extract', '-', 'blank.html'], { cwd: dir, env: { HOME: dir, XDG_DATA_HOME: dir }, input: '' });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toBe(
      'sift extract: -: empty: Nothing came in on stdin (0 bytes): pipe the document in, as in `cat page.html | sift extract -`.\n' +
        'sift extract: blank.html: empty: The file is empty (0 bytes): check that it is the one you meant, or that it was saved whole.\n',
    );
  });
  it('exits 1 when a file fails to extract and 2 when a file cannot be read', async () => {
    const jqOnText = await sift('extract', 'notes.txt', '--jq', '.', '--json');
    expect(jqOnText.code).toBe(1);
    expect(JSON.parse(jqOnText.out)).toMatchObject({ url: 'notes.txt', ok: false, status: 422 });
    // A file has no URL to drop the option for, nor a JSON API behind it.
    expect(JSON.parse(jqOnText.out).hint).toBe('Drop the jq option for this file, or give it a JSON file (a .json or .jsonl).');
    const missing = await sift('extract', 'notes.txt', 'missing.pdf');
    expect(missing.code).toBe(2);
    expect(missing.out).toBe('one\ntwo\nthree\n');
    expect(missing.err).toMatch(/missing\.pdf: cannot read missing\.pdf: no such file/);
    expect((await sift('extract')).code).toBe(2);
  });
  it('reads a pipe to its end and stops a device at the download limit, never filling memory', async () => {
    const fifo = path.join(dir, 'page.fifo');
    execFileSync('mkfifo', [fifo]);
    // The writer opens the pipe when sift opens it to read, as a shell's <(…) does.
    const writer = createWriteStream(fifo);
    writer.end('<html><head><title>Piped</title></head><body><p>Read from a pipe.</p></body></html>');
    const piped = await sift('extract', 'page.fifo', '--mode', 'text');
    expect(piped.code, piped.err).toBe(0);
    expect(piped.out).toBe('Read from a pipe.\n');
    // /dev/zero never ends: it fails as a body over the limit would.
    const zero = await sift('extract', '/dev/zero', '--json');
    expect(zero.code).toBe(1);
    expect(JSON.parse(zero.out)).toMatchObject({ ok: false, status: 422, reason: 'too_long', error: expect.stringMatching(/^document too long: body over 50 MiB/) });
    const empty = path.join(dir, 'empty.html');
    writeFileSync(empty, '');
    expect((await sift('extract', 'empty.html')).err).toMatch(/empty: The file is empty \(0 bytes\)/);
  });
  it('appends JSON log lines without the URL to --log', async () => {
    const log = path.join(dir, 'fetch.log');
    await sift('fetch', `${srv.origin}/page`, '--allow-private', '--log', log);
    const text = readFileSync(log, 'utf8');
    expect(text).toMatch(/"msg":"fetch"/);
    // Each line is JSON with each key once (JSON.parse would keep the last of two silently).
    for (const line of text.trim().split('\n')) {
      expect(JSON.parse(line)).toHaveProperty('msg');
      expect(line.match(/"msg":/g)).toHaveLength(1);
    }
    expect(text).not.toContain(String(srv.port));
    expect(text).not.toContain('127.0.0.1');
  });
  it('reads an https answer in loose HTTP (bare LF): the lenient try makes its own TLS connection', async () => {
    // The test's self-signed certificate for 127.0.0.1, trusted the way a user's own CA is.
    const tlsDir = path.join(__dirname, '../fixtures/tls');
    const page = '<html><head><title>Loose TLS</title></head><body><article><h1>Loose over TLS</h1><p>A page from a server whose HTTP is loose, as old embedded devices send it.</p></article></body></html>';
    const loose = createTlsServer({ key: readFileSync(path.join(tlsDir, 'self-signed.key')), cert: readFileSync(path.join(tlsDir, 'self-signed.crt')) }, (s) => {
      s.on('error', () => {});
      s.once('data', () => s.end(`HTTP/1.1 200 OK\nContent-Type: text/html\nContent-Length: ${page.length}\n\n${page}`));
    });
    await new Promise<void>((resolve) => loose.listen(0, '127.0.0.1', resolve));
    const url = `https://127.0.0.1:${(loose.address() as AddressInfo).port}/`;
    try {
      const trusted = await runSift(['fetch', url, '--allow-private', '--mode', 'text', '--json'], { env: { HOME: dir, XDG_DATA_HOME: dir, NODE_EXTRA_CA_CERTS: path.join(tlsDir, 'self-signed.crt') } });
      expect(trusted.code, trusted.stderr).toBe(0);
      expect(JSON.parse(trusted.stdout)).toMatchObject({ ok: true, content: expect.stringContaining('server whose HTTP is loose'), meta: { http_lenient: true } });
    } finally {
      await new Promise((resolve) => loose.close(resolve));
    }
  });
});
