/**
 * Binary bytes with no NUL among their first 1024 (a short random file, a raw deflate or
 * brotli stream, which has no magic) through the CLI: `sift extract FILE --mode text` and
 * `sift batch` against a loopback server that sends them as application/octet-stream and as
 * text/plain. They came back as text (mojibake, exit 0).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { brotliCompressSync, deflateRawSync } from 'node:zlib';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { jsonLines, runSift } from '../helpers/cli';
import { startServer, type TestServer } from '../helpers/fetch-server';

const dir = mkdtempSync(path.join(tmpdir(), 'sift-cli-binary-'));
const env = { HOME: dir, XDG_DATA_HOME: dir, APPDATA: dir };
const sift = (...args: string[]) => runSift(args, { env, cwd: dir });

/** Bytes whose first 1024 hold no NUL: NULs taken out of random bytes, or a stream cut before its first. */
const withoutNul = (b: Buffer): Buffer => {
  const nul = b.indexOf(0);
  return nul < 0 ? b : nul >= 200 ? b.subarray(0, nul) : Buffer.from(b.filter((x) => x !== 0));
};
const readme = readFileSync(path.join(__dirname, '../../README.md'));
const samples: Record<string, Buffer> = {
  'random.bin': withoutNul(randomBytes(600)).subarray(0, 300),
  'readme.deflate': withoutNul(deflateRawSync(readme)),
  'readme.br': withoutNul(brotliCompressSync(readme)),
  // A stream of 64 KB to 1 MB opens with '[' (its header's size), as JSON does.
  'readme2.br': withoutNul(brotliCompressSync(Buffer.concat([readme, readme]))),
};
const text = 'Plain notes, with a tab\tand a form feed\f between pages.\n';

/** Text in UTF-16 without a byte-order mark, as Windows tools write it: NULs on every other byte. */
const u16Text = 'Notes in UTF-16, café and naïve,\nwith no byte-order mark.\n';
const u16Csv = 'name,price\nTea,3.50\nCoffee,4.20\n';
const le = (s: string): Buffer => Buffer.from(s, 'utf16le');
const be = (s: string): Buffer => le(s).swap16();
const u16: Record<string, [Buffer, string, string | undefined]> = {
  'notes-le.txt': [le(u16Text), u16Text, 'text/plain'],
  'prices-be.csv': [be(u16Csv), u16Csv, 'text/csv'],
  'notes-le.md': [le(`# Notes\n\n${u16Text}`), `# Notes\n\n${u16Text}`, 'text/markdown'],
  'notes-be': [be(u16Text), u16Text, undefined],
};
/** Real text in five scripts (test/fixtures/charset/utf16-prose.json), in UTF-16 without a mark both ways. */
const scripts = (JSON.parse(readFileSync(path.join(__dirname, '../fixtures/charset/utf16-prose.json'), 'utf8')) as { texts: { lang: string; text: string }[] }).texts;
const u16Scripts = scripts.flatMap(({ lang, text }): [string, Buffer, string][] => [
  [`${lang}-le.txt`, le(text), text],
  [`${lang}-be.txt`, be(text), text],
]);
/**
 * Short Chinese, Japanese and Korean in UTF-16 without a mark, a title or a line of a note: none holds two
 * ASCII characters, and each a NUL or a control ('。' is 02 30), so they were refused as binary (or the
 * Japanese, whose one control goes, read as windows-1252: 'qg¬Ný').
 */
const u16Short = ['你好，世界。这是一个测试。', '東京都の天気予報', '안녕하세요 세계'].flatMap((text, i): [string, Buffer, string][] => [
  [`short${i}-le.txt`, le(text), text],
  [`short${i}-be.txt`, be(text), text],
]);
/** A page in Russian saved as UTF-16 without a mark, its charset in no header or meta. */
const ruText = scripts.find((s) => s.lang === 'ru')?.text ?? '';
const ruPage = `<!DOCTYPE html><html><head><title>${ruText.split('\n')[0] ?? ''}</title></head><body><article><p>${ruText.split('\n').slice(1).join('</p><p>')}</p></article></body></html>`;
/** A table of 16-bit numbers: a NUL on every other byte, as in UTF-16, but the bytes beside them are controls, no text. */
const table16 = Buffer.from(Uint16Array.from({ length: 300 }, (_, i) => 1 + (i % 250)).buffer);

/** A page whose server wrote 4 stray control bytes ahead of it and into its text. */
const page = '\b\b\b\b<!DOCTYPE html><html><head><title>Stray\x02 bytes</title></head><body><article><h1>Heading</h1><p>One\x01 two\x07 three four five six seven eight nine ten.</p><p>Another paragraph\x1f with words in it.</p></article></body></html>';
const pageText = 'Heading\n\nOne two three four five six seven eight nine ten.\n\nAnother paragraph with words in it.';
/** The same junk ahead of a fragment (no doctype, <html> or <body>) and of text with no markup at all, as PHP's echo sends them: text/html. */
const fragment = '\b\b\b\b<h1>Heading</h1><p>One\x01 two\x07 three four five six seven eight nine ten.</p><p>Another paragraph\x1f with words in it, café.</p>';
// Its one <h1> is its title (no <title> names one), which text mode leaves out of the text as
// it does any page's title.
const fragmentText = 'One two three four five six seven eight nine ten.\n\nAnother paragraph with words in it, café.';
const bare = '\b\b\b\bOne two three four five six seven eight nine ten, eleven twelve thirteen.\x07';
const bareText = 'One two three four five six seven eight nine ten, eleven twelve thirteen.';

let srv: TestServer;
beforeAll(async () => {
  for (const [name, bytes] of Object.entries(samples)) writeFileSync(path.join(dir, name), bytes);
  for (const [name, [bytes]] of Object.entries(u16)) writeFileSync(path.join(dir, name), bytes);
  writeFileSync(path.join(dir, 'table.bin'), table16);
  for (const [name, bytes] of [...u16Scripts, ...u16Short]) writeFileSync(path.join(dir, name), bytes);
  writeFileSync(path.join(dir, 'page.html'), page, 'latin1');
  writeFileSync(path.join(dir, 'fragment.html'), fragment);
  writeFileSync(path.join(dir, 'bare.html'), bare);
  writeFileSync(path.join(dir, 'notes.txt'), text);
  const routes: Parameters<typeof startServer>[0] = {};
  for (const [name, bytes] of Object.entries(samples)) {
    routes[`/octet/${name}`] = (_q, r) => r.writeHead(200, { 'content-type': 'application/octet-stream' }).end(bytes);
    routes[`/text/${name}`] = (_q, r) => r.writeHead(200, { 'content-type': 'text/plain' }).end(bytes);
  }
  for (const [name, bytes] of Object.entries(samples)) routes[`/html/${name}`] = (_q, r) => r.writeHead(200, { 'content-type': 'text/html' }).end(bytes);
  for (const [name, [bytes, , type]] of Object.entries(u16)) routes[`/u16/${name}`] = (_q, r) => r.writeHead(200, type ? { 'content-type': type } : {}).end(bytes);
  for (const [name, bytes] of u16Scripts) routes[`/scripts/${name}`] = (_q, r) => r.writeHead(200, name.includes('-be') ? {} : { 'content-type': 'text/plain' }).end(bytes);
  for (const [name, bytes] of u16Short) routes[`/short/${name}`] = (_q, r) => r.writeHead(200, name.endsWith('-be.txt') ? {} : { 'content-type': 'text/plain' }).end(bytes);
  routes['/ru.html'] = (_q, r) => r.writeHead(200, { 'content-type': 'text/html' }).end(le(ruPage));
  routes['/table.bin'] = (_q, r) => r.writeHead(200, { 'content-type': 'text/plain' }).end(table16);
  routes['/fragment.html'] = (_q, r) => r.writeHead(200, { 'content-type': 'text/html' }).end(fragment);
  routes['/bare.html'] = (_q, r) => r.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(bare);
  routes['/page.html'] = (_q, r) => r.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(Buffer.from(page, 'latin1'));
  routes['/text/notes.txt'] = (_q, r) => r.writeHead(200, { 'content-type': 'text/plain' }).end(text);
  srv = await startServer(routes);
});
afterAll(async () => {
  await srv.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('binary bytes without a NUL', () => {
  it('holds no NUL in the first 1024 bytes of each sample', () => {
    for (const [name, bytes] of Object.entries(samples)) expect(bytes.subarray(0, 1024).includes(0), name).toBe(false);
    expect(samples['readme2.br']?.subarray(0, 1).toString()).toBe('[');
  });
  it('sift extract FILE --mode text says the file is binary, not text, and fails', async () => {
    for (const name of Object.keys(samples)) {
      const r = await sift('extract', name, '--mode', 'text');
      expect(r.code, name).toBe(1);
      expect(r.stdout, name).toBe('');
      expect(r.stderr, name).toBe(`sift extract: ${name}: unsupported: application/octet-stream\n  Sift extracts HTML, PDF, JSON and text; this document is none of them.\n`);
    }
    // A text file with a tab and a form feed is text still.
    expect(await sift('extract', 'notes.txt', '--mode', 'text')).toMatchObject({ code: 0, stdout: text });
  });
  it('sift batch fails them as binary, sent as application/octet-stream or as text/plain', async () => {
    const names = Object.keys(samples);
    const urls = [...names.map((n) => `${srv.origin}/octet/${n}`), ...names.map((n) => `${srv.origin}/text/${n}`), `${srv.origin}/text/notes.txt`];
    writeFileSync(path.join(dir, 'list.txt'), urls.map((u) => `${u} mode=text`).join('\n'));
    const r = await sift('batch', 'list.txt', '--json', '--allow-private', '--db', path.join(dir, 'sift.db'));
    expect(r.code, r.stderr).toBe(1);
    const lines = jsonLines(r.stdout);
    expect(lines.map((l) => l.url)).toEqual(urls);
    for (const l of lines.slice(0, names.length)) expect(l, String(l.url)).toMatchObject({ ok: false, status: 415, reason: 'unsupported', error: 'unsupported: application/octet-stream' });
    for (const l of lines.slice(names.length, 2 * names.length)) {
      expect(l, String(l.url)).toMatchObject({ ok: false, status: 415, reason: 'unsupported', error: 'unsupported: binary data (control bytes) labelled text/plain' });
    }
    expect(lines[2 * names.length]).toMatchObject({ ok: true, content: text });
  }, 120_000);
});

describe('UTF-16 text without a byte-order mark', () => {
  it('sift extract FILE --mode text gives its text', async () => {
    for (const [name, [, want]] of Object.entries(u16)) expect(await sift('extract', name, '--mode', 'text'), name).toMatchObject({ code: 0, stdout: want, stderr: '' });
    // NULs on every other byte beside controls, not letters: binary still.
    expect(await sift('extract', 'table.bin', '--mode', 'text')).toMatchObject({ code: 1, stdout: '', stderr: expect.stringContaining('unsupported: application/octet-stream') });
  });
  it('sift batch gives its text under text/plain, text/csv, text/markdown or no type', async () => {
    const urls = [...Object.keys(u16).map((n) => `${srv.origin}/u16/${n}`), `${srv.origin}/table.bin`];
    writeFileSync(path.join(dir, 'u16.txt'), urls.map((u) => `${u} mode=text`).join('\n'));
    const r = await sift('batch', 'u16.txt', '--json', '--allow-private', '--db', path.join(dir, 'u16.db'));
    const lines = jsonLines(r.stdout);
    expect(lines.map((l) => l.url)).toEqual(urls);
    Object.values(u16).forEach(([, want], i) => expect(lines[i], String(urls[i])).toMatchObject({ ok: true, content: want }));
    expect(lines[urls.length - 1]).toMatchObject({ ok: false, status: 415, error: 'unsupported: binary data (NUL bytes) labelled text/plain' });
  }, 120_000);
});

describe('UTF-16 text without a byte-order mark in Cyrillic, Greek, Arabic, Chinese, Japanese', () => {
  it('sift extract FILE and - --mode text give its text', async () => {
    for (const [name, bytes, want] of u16Scripts) {
      expect(await sift('extract', name, '--mode', 'text'), name).toMatchObject({ code: 0, stdout: want, stderr: '' });
      if (name === 'ru-be.txt' || name === 'zh-le.txt') {
        expect(await runSift(['extract', '-', '--mode', 'text'], { env, cwd: dir, input: bytes }), `${name} on stdin`).toMatchObject({ code: 0, stdout: want, stderr: '' });
      }
    }
  });
  it('sift batch gives its text under text/plain or no type, and a Russian page in UTF-16 as the page', async () => {
    const urls = [...u16Scripts.map(([name]) => `${srv.origin}/scripts/${name}`), `${srv.origin}/ru.html`];
    writeFileSync(path.join(dir, 'scripts.txt'), urls.map((u) => `${u} mode=text`).join('\n'));
    const r = await sift('batch', 'scripts.txt', '--json', '--allow-private', '--db', path.join(dir, 'scripts.db'));
    expect(r.code, r.stderr).toBe(0);
    const lines = jsonLines(r.stdout);
    expect(lines.map((l) => l.url)).toEqual(urls);
    u16Scripts.forEach(([name, , want], i) => expect(lines[i], name).toMatchObject({ ok: true, content: want }));
    const page = lines.at(-1);
    expect(page).toMatchObject({ ok: true, meta: { title: ruText.split('\n')[0], charset: 'utf-16le' } });
    expect(page?.content).toContain(ruText.split('\n')[1]);
  }, 120_000);
});

describe('short Chinese, Japanese and Korean in UTF-16 without a byte-order mark', () => {
  it('sift extract FILE and - --mode text give its text', async () => {
    for (const [name, bytes, want] of u16Short) {
      expect(bytes.some((b) => b < 0x09 || (b > 0x0d && b < 0x20)), name).toBe(true);
      expect(await sift('extract', name, '--mode', 'text'), name).toMatchObject({ code: 0, stdout: `${want}\n`, stderr: '' });
    }
    const [, bytes, want] = u16Short[0] as [string, Buffer, string];
    expect(await runSift(['extract', '-', '--mode', 'text'], { env, cwd: dir, input: bytes })).toMatchObject({ code: 0, stdout: `${want}\n`, stderr: '' });
  });
  it('sift batch gives its text under text/plain without a charset or no type', async () => {
    const urls = u16Short.map(([name]) => `${srv.origin}/short/${name}`);
    writeFileSync(path.join(dir, 'short.txt'), urls.map((u) => `${u} mode=text`).join('\n'));
    const r = await sift('batch', 'short.txt', '--json', '--allow-private', '--db', path.join(dir, 'short.db'));
    expect(r.code, r.stderr).toBe(0);
    const lines = jsonLines(r.stdout);
    expect(lines.map((l) => l.url)).toEqual(urls);
    u16Short.forEach(([name, , want], i) => expect(lines[i], name).toMatchObject({ ok: true, content: want, meta: { title: want, charset: name.endsWith('-be.txt') ? 'utf-16be' : 'utf-16le' } }));
  }, 120_000);
});

describe('a page declared HTML with stray control bytes', () => {
  it('sift extract FILE reads it as the page, without the controls', async () => {
    expect(await sift('extract', 'page.html', '--mode', 'text')).toMatchObject({ code: 0, stdout: `${pageText}\n`, stderr: '' });
    const md = await sift('extract', 'page.html');
    expect(md.code, md.stderr).toBe(0);
    expect(md.stdout).toContain('One two three');
    // eslint-disable-next-line no-control-regex -- the controls are what is looked for
    expect(md.stdout).not.toMatch(/[\x01-\x08\x0b\x0e-\x1a\x1c-\x1f]/);
  });
  it('sift extract FILE reads a fragment or bare text among them as a browser shows it', async () => {
    expect(await sift('extract', 'fragment.html', '--mode', 'text')).toMatchObject({ code: 0, stdout: `${fragmentText}\n`, stderr: '' });
    expect(await sift('extract', 'bare.html', '--mode', 'text')).toMatchObject({ code: 0, stdout: `${bareText}\n`, stderr: '' });
  });
  it('sift batch reads it, a fragment and bare text as the page and still refuses compressed streams labelled text/html', async () => {
    const names = Object.keys(samples);
    const urls = [`${srv.origin}/page.html`, ...names.map((n) => `${srv.origin}/html/${n}`), `${srv.origin}/fragment.html`, `${srv.origin}/bare.html`];
    writeFileSync(path.join(dir, 'html.txt'), urls.map((u) => `${u} mode=text`).join('\n'));
    const r = await sift('batch', 'html.txt', '--json', '--allow-private', '--db', path.join(dir, 'html.db'));
    const lines = jsonLines(r.stdout);
    expect(lines.map((l) => l.url)).toEqual(urls);
    expect(lines[0]).toMatchObject({ ok: true, content: pageText });
    expect(lines.slice(-2)).toMatchObject([
      { ok: true, content: fragmentText },
      { ok: true, content: bareText },
    ]);
    for (const l of lines.slice(1, -2)) {
      expect(l, String(l.url)).toMatchObject({ ok: false, status: 415, reason: 'unsupported', error: 'unsupported: binary data (control bytes) labelled text/html' });
    }
  }, 120_000);
});
