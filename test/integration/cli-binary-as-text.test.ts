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
};
const text = 'Plain notes, with a tab\tand a form feed\f between pages.\n';

let srv: TestServer;
beforeAll(async () => {
  for (const [name, bytes] of Object.entries(samples)) writeFileSync(path.join(dir, name), bytes);
  writeFileSync(path.join(dir, 'notes.txt'), text);
  const routes: Parameters<typeof startServer>[0] = {};
  for (const [name, bytes] of Object.entries(samples)) {
    routes[`/octet/${name}`] = (_q, r) => r.writeHead(200, { 'content-type': 'application/octet-stream' }).end(bytes);
    routes[`/text/${name}`] = (_q, r) => r.writeHead(200, { 'content-type': 'text/plain' }).end(bytes);
  }
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
