/**
 * Legacy pages that name no charset, through `sift fetch`: a loopback server serves real prose
 * (test/fixtures/charset/prose.json) in the charsets such pages were written in, as plain
 * "text/html", in the ASCII markup of a real page (inline styles and scripts, a menu) that
 * outweighs its text.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import iconv from 'iconv-lite';
import { siftInProcess } from '../helpers/cli-main';
import { startServer, type Handler, type TestServer } from '../helpers/fetch-server';
import { runSift } from '../helpers/cli';
import { makePdf } from '../helpers/fetch-pdf';

interface Prose {
  lang: string;
  charset: string;
  title: string;
  paragraphs: string[];
}
const PAGES = (JSON.parse(readFileSync(path.join(__dirname, '../fixtures/charset/prose.json'), 'utf8')) as { pages: Prose[] }).pages;
const LEGACY = PAGES.filter((p) => p.charset !== 'windows-1252');
// Of the legacy ones, pl-en is a bilingual page: Polish paragraphs each followed by English.
const WESTERN = PAGES.filter((p) => p.charset === 'windows-1252');
const RUSSIAN = PAGES.find((p) => p.lang === 'ru')!;
const JAPANESE = PAGES.find((p) => p.charset === 'shift_jis')!;
const FRENCH = PAGES.find((p) => p.lang === 'fr')!;
const PDF_TITLE = 'Café déçu — résumé 2024';
/** 「日本語の本文」 as Japanese mail is written: ISO-2022-JP's escapes into JIS X 0208 and back to ASCII. */
const ISO_2022_JP = 'Subject: test\n\n\x1b$B!VF|K\\8l$NK\\J8!W\x1b(B\n';

const HEAD = `<style>${'.nav a { color: #336; padding: 0 4px } .post p { margin: 0 0 1em } '.repeat(40)}</style>
<script>window.dataLayer = window.dataLayer || []; function gtag(){ dataLayer.push(arguments); } gtag('js', new Date()); gtag('config', 'UA-000000-1');</script>`;
const MENU = `<nav class="nav"><ul>${Array.from({ length: 30 }, (_, i) => `<li class="nav-item"><a class="nav-link" href="/section/${i}/index.html?ref=top">${i + 1}</a></li>`).join('')}</ul></nav>`;
const page = (p: Prose, head = ''): string =>
  `<!DOCTYPE html><html><head>${head}<title>${p.title}</title>${HEAD}</head><body>${MENU}<main><article class="post"><h1>${p.title}</h1>${p.paragraphs.map((t) => `<p>${t}</p>`).join('')}</article></main><footer><a href="/about">&copy; 2004</a></footer></body></html>`;

let srv: TestServer;
const dir = mkdtempSync(path.join(tmpdir(), 'sift-cli-charset-'));

beforeAll(async () => {
  const routes: Record<string, Handler> = {};
  const serve =
    (body: Buffer, type = 'text/html'): Handler =>
    (_q, r) =>
      r.writeHead(200, { 'content-type': type }).end(body);
  for (const p of PAGES) routes[`/${p.lang}-${p.charset}.html`] = serve(iconv.encode(page(p), p.charset));
  routes['/ru.txt'] = serve(iconv.encode(RUSSIAN.paragraphs.join('\n\n'), 'windows-1251'), 'text/plain');
  // Labelled, in a header or the page: the label is taken, whatever the bytes look like.
  routes['/labelled-header.html'] = serve(iconv.encode(page(RUSSIAN), 'windows-1251'), 'text/html; charset=windows-1252');
  routes['/labelled-meta.html'] = serve(iconv.encode(page(JAPANESE, '<meta charset="windows-1252">'), 'shift_jis'));
  // Too little to tell a charset by, or bytes that are no text at all.
  routes['/one-byte.html'] = serve(Buffer.from([0xe9]));
  routes['/quotes.html'] = serve(iconv.encode('<p>“OK”</p>', 'windows-1252'));
  routes['/noise.html'] = serve(Buffer.from(Array.from({ length: 4096 }, (_, i) => 0x80 + ((i * 151 + 7) % 128))));
  // Declarations as the HTML spec's prescan reads them.
  routes['/meta-in-comment.html'] = serve(iconv.encode(page(RUSSIAN, '<!-- <meta charset="shift_jis"> --><meta charset="windows-1251">'), 'windows-1251'));
  routes['/meta-description.html'] = serve(iconv.encode(page(RUSSIAN, '<meta name="description" content="Set charset=utf-8 in every page"><meta http-equiv="Content-Type" content="text/html; charset=windows-1251">'), 'windows-1251'));
  // Labels the Encoding Standard names and iconv-lite does not know, or knows by another name.
  routes['/x-sjis.html'] = serve(iconv.encode(page(JAPANESE), 'shift_jis'), 'text/html; charset=x-sjis');
  routes['/mac-cyrillic.html'] = serve(iconv.encode(page(RUSSIAN), 'maccyrillic'), 'text/html; charset=x-mac-cyrillic');
  routes['/iso-2022-jp.txt'] = serve(Buffer.from(ISO_2022_JP, 'latin1'), 'text/plain; charset=ISO-2022-JP');
  // Said to be UTF-8, in the header or the page, and written in windows-1252.
  routes['/utf8-header-1252.html'] = serve(iconv.encode(page(FRENCH), 'windows-1252'), 'text/html; charset=utf-8');
  routes['/utf8-meta-1252.html'] = serve(iconv.encode(page(FRENCH, '<meta charset="utf-8">'), 'windows-1252'));
  routes['/utf8-stray-byte.html'] = serve(Buffer.concat([Buffer.from(page(RUSSIAN, '<meta charset="utf-8">')), Buffer.from([0xe9])]));
  // A PDF's info title as its writer put it: UTF-8 bytes (against the PDF standard, as many
  // writers do), or PDFDocEncoding's own Latin-1 (makePdf writes the title's chars as bytes).
  const pdfTitled = (bytes: Buffer): Buffer => makePdf({ title: bytes.toString('latin1'), pages: [['The report itself, on its first page.']] });
  routes['/utf8-title.pdf'] = serve(pdfTitled(Buffer.from(PDF_TITLE, 'utf8')), 'application/pdf');
  routes['/latin1-title.pdf'] = serve(pdfTitled(Buffer.from('Café déçu', 'latin1')), 'application/pdf');
  // JSON labelled in a legacy charset: its bytes UTF-8 (a service's default label), or the label's.
  routes['/json-utf8-latin1-label.json'] = serve(Buffer.from(JSON.stringify({ name: 'Café déçu — 日本' })), 'application/json; charset=ISO-8859-1');
  routes['/json-1251.json'] = serve(iconv.encode(JSON.stringify({ name: RUSSIAN.title }), 'windows-1251'), 'application/json; charset=windows-1251');
  // Said to be Latin-1 (an old server's default) and written in UTF-8.
  routes['/latin1-header-utf8.html'] = serve(Buffer.from(page(JAPANESE, '<meta charset="utf-8">')), 'text/html; charset=ISO-8859-1');
  routes['/latin1-header-utf8.txt'] = serve(Buffer.from(`${FRENCH.title}\n\n${FRENCH.paragraphs.join('\n\n')}\n`), 'text/plain; charset=iso-8859-1');
  srv = await startServer(routes);
});
afterAll(async () => {
  await srv.close();
  rmSync(dir, { recursive: true, force: true });
});

const sift = siftInProcess(dir, { HOME: dir, XDG_DATA_HOME: dir, APPDATA: dir, SIFT_HOME: dir });

async function fetchJson(p: string): Promise<{ ok: boolean; content: string; meta: Record<string, unknown> }> {
  const r = await sift('fetch', `${srv.origin}${p}`, '--allow-private', '--json');
  expect(r.out, r.err).not.toBe('');
  return JSON.parse(r.out) as { ok: boolean; content: string; meta: Record<string, unknown> };
}

describe('a legacy page that names no charset and is not UTF-8', () => {
  it.each(LEGACY.map((p) => [`${p.lang} in ${p.charset}`, p] as const))('%s is read in the charset a detector reads in its text, and meta says so', async (_name, p) => {
    const r = await fetchJson(`/${p.lang}-${p.charset}.html`);
    expect(r.ok).toBe(true);
    expect(r.meta).toMatchObject({ title: p.title, charset_detected: true });
    // GBK pages are read with GB18030, its superset, as browsers do.
    expect(r.meta.charset).toBe(p.charset === 'gbk' ? 'gb18030' : p.charset);
    for (const t of p.paragraphs) expect(r.content).toContain(t);
  });

  it('a plain-text file is read the same way', async () => {
    const r = await sift('fetch', `${srv.origin}/ru.txt`, '--allow-private');
    expect(r.out).toBe(`${RUSSIAN.paragraphs.join('\n\n')}\n`);
  });

  // Italian's accented words alone ("è", "più") read as windows-1251 to the detector: such a
  // page came out Cyrillic until the words asked alone had to be written outside ASCII.
  it.each(WESTERN.map((p) => [p.lang, p] as const))('a Western (Latin-1) page stays windows-1252, not detected: %s', async (_name, p) => {
    const r = await fetchJson(`/${p.lang}-windows-1252.html`);
    expect(r.meta).toMatchObject({ title: p.title, charset: 'windows-1252' });
    expect(r.meta).not.toHaveProperty('charset_detected');
    for (const t of p.paragraphs) expect(r.content).toContain(t);
  });

  it('the installed command reads it too (bin/sift, a separate process)', async () => {
    const r = await runSift(['fetch', `${srv.origin}/ja-shift_jis.html`, '--allow-private', '--mode', 'text'], { env: { SIFT_HOME: dir, HOME: dir } });
    expect(r.code, r.stderr).toBe(0);
    for (const t of JAPANESE.paragraphs) expect(r.stdout).toContain(t);
  }, 120_000);

  it('is found in search by its words once a batch has stored it', async () => {
    const list = path.join(dir, 'list.txt');
    writeFileSync(list, `${srv.origin}/ru-windows-1251.html\n${srv.origin}/ko-euc-kr.html\n`);
    const db = path.join(dir, 'jobs.db');
    expect((await sift('batch', list, '--allow-private', '--db', db, '--json')).code).toBe(0);
    const hits = (await sift('search', 'поисковая', '--db', db, '--json')).out.trim().split('\n');
    expect(hits).toHaveLength(1);
    expect(JSON.parse(hits[0]!)).toMatchObject({ title: RUSSIAN.title });
  });
});

describe('what the detector is never asked about', () => {
  it('a charset the header names is taken, even when the bytes look like another', async () => {
    const r = await fetchJson('/labelled-header.html');
    expect(r.meta.charset).toBe('windows-1252');
    expect(r.meta).not.toHaveProperty('charset_detected');
    expect(r.meta.title).toBe(iconv.decode(iconv.encode(RUSSIAN.title, 'windows-1251'), 'windows-1252'));
  });

  it('a charset the page names is taken, even when the bytes look like another', async () => {
    const r = await fetchJson('/labelled-meta.html');
    expect(r.meta.charset).toBe('windows-1252');
    expect(r.meta).not.toHaveProperty('charset_detected');
  });

  it.each([
    ['one byte', '/one-byte.html'],
    ['an English page of curly quotes (“T is a Shift_JIS character)', '/quotes.html'],
  ])('%s stays windows-1252', async (_name, p) => {
    const r = await fetchJson(p);
    expect(r.meta.charset).toBe('windows-1252');
    expect(r.meta).not.toHaveProperty('charset_detected');
  });

  it('4 KB of bytes over 0x7f that are no text are answered, not a crash', async () => {
    const r = await sift('fetch', `${srv.origin}/noise.html`, '--allow-private', '--json');
    const line = JSON.parse(r.out) as { ok: boolean; reason?: string };
    expect(line.reason).not.toBe('internal');
  });
});

describe('declarations as the HTML spec reads them', () => {
  it('a <meta> inside a comment names nothing: the page is read in the charset its real <meta> names', async () => {
    const r = await fetchJson('/meta-in-comment.html');
    expect(r.meta).toMatchObject({ title: RUSSIAN.title, charset: 'windows-1251' });
    for (const t of RUSSIAN.paragraphs) expect(r.content).toContain(t);
  });

  it('a description that mentions charset=utf-8 names nothing; the http-equiv after it does', async () => {
    const r = await fetchJson('/meta-description.html');
    expect(r.meta).toMatchObject({ title: RUSSIAN.title, charset: 'windows-1251' });
    for (const t of RUSSIAN.paragraphs) expect(r.content).toContain(t);
  });
});

describe('labels as the Encoding Standard reads them', () => {
  it.each([
    ['x-sjis', '/x-sjis.html', JAPANESE, 'shift_jis'],
    ['x-mac-cyrillic', '/mac-cyrillic.html', RUSSIAN, 'x-mac-cyrillic'],
  ] as const)('a page labelled %s is read in the encoding the label names, and meta gives its standard name', async (_label, p, prose, name) => {
    const r = await fetchJson(p);
    expect(r.meta).toMatchObject({ title: prose.title, charset: name });
    expect(r.meta).not.toHaveProperty('charset_detected');
    for (const t of prose.paragraphs) expect(r.content).toContain(t);
  });

  it('a text in ISO-2022-JP (Japanese mail, its archives) is read as Japanese', async () => {
    const r = await fetchJson('/iso-2022-jp.txt');
    expect(r.meta.charset).toBe('iso-2022-jp');
    expect(r.content).toBe('Subject: test\n\n「日本語の本文」\n');
  });
});

describe('a page said to be UTF-8 whose bytes are windows-1252', () => {
  it.each([
    ['in its header', '/utf8-header-1252.html'],
    ['in its <meta>', '/utf8-meta-1252.html'],
  ])('labelled %s, it is read as its bytes are written, and meta names the label it belies', async (_name, p) => {
    const r = await fetchJson(p);
    expect(r.meta).toMatchObject({ title: FRENCH.title, charset: 'windows-1252', charset_declared: 'utf-8' });
    expect(r.content).not.toContain('\uFFFD');
    for (const t of FRENCH.paragraphs) expect(r.content).toContain(t);
  });

  it('is found in search by its accented words once a batch has stored it, under its title', async () => {
    const list = path.join(dir, 'mislabelled.txt');
    writeFileSync(list, `${srv.origin}/utf8-header-1252.html\n`);
    const db = path.join(dir, 'mislabelled.db');
    expect((await sift('batch', list, '--allow-private', '--db', db, '--json')).code).toBe(0);
    const word = FRENCH.paragraphs.join(' ').split(/\s+/).find((w) => /^[a-zà-ÿ]*[à-ÿ][a-zà-ÿ]*$/.test(w))!;
    const hits = (await sift('search', word, '--db', db, '--json')).out.trim().split('\n');
    expect(hits).toHaveLength(1);
    expect(JSON.parse(hits[0]!)).toMatchObject({ title: FRENCH.title });
  });

  it('a UTF-8 page with one stray legacy byte stays UTF-8', async () => {
    const r = await fetchJson('/utf8-stray-byte.html');
    expect(r.meta).toMatchObject({ title: RUSSIAN.title, charset: 'utf-8' });
    expect(r.meta).not.toHaveProperty('charset_declared');
  });
});

describe("a PDF's info title", () => {
  it('written in UTF-8 bytes is read as UTF-8, in the result and the exported file\'s name', async () => {
    const r = await fetchJson('/utf8-title.pdf');
    expect(r.meta.title).toBe(PDF_TITLE);
    const list = path.join(dir, 'pdf-title.txt');
    writeFileSync(list, `${srv.origin}/utf8-title.pdf\n`);
    const out = path.join(dir, 'pdf-title-out');
    expect((await sift('batch', list, '--allow-private', '--db', path.join(dir, 'pdf-title.db'), '--out', out, '--format', 'md')).code).toBe(0);
    expect(readdirSync(out, { recursive: true, encoding: 'utf8' }).some((f) => path.basename(f).startsWith('Café déçu — résumé'))).toBe(true);
  });

  it('in PDFDocEncoding (Latin-1) stays as written', async () => {
    expect((await fetchJson('/latin1-title.pdf')).meta.title).toBe('Café déçu');
  });
});

describe('JSON labelled in a legacy charset', () => {
  it('whose bytes are UTF-8 is read as UTF-8, as its RFC says, and jq gets the words', async () => {
    const r = await sift('fetch', `${srv.origin}/json-utf8-latin1-label.json`, '--allow-private', '--jq', '.name');
    expect(r.out).toBe('"Café déçu — 日本"\n');
  });

  it('whose bytes are not UTF-8 is read in the charset it names', async () => {
    const r = await fetchJson('/json-1251.json');
    expect(r.meta.charset).toBe('windows-1251');
    expect(r.content).toContain(RUSSIAN.title);
  });
});

describe('a page said to be in a legacy charset whose bytes are UTF-8', () => {
  it.each([
    ['a page', '/latin1-header-utf8.html', JAPANESE],
    ['a text', '/latin1-header-utf8.txt', FRENCH],
  ])('%s is read as UTF-8, and meta names the label it belies', async (_name, p, prose) => {
    const r = await fetchJson(p);
    expect(r.meta).toMatchObject({ title: prose.title, charset: 'utf-8', charset_declared: 'windows-1252' });
    for (const t of prose.paragraphs) expect(r.content).toContain(t);
  });

  it('JSON is too, as its RFC says, and meta names the label', async () => {
    const r = await fetchJson('/json-utf8-latin1-label.json');
    expect(r.meta).toMatchObject({ charset: 'utf-8', charset_declared: 'windows-1252' });
  });
});
