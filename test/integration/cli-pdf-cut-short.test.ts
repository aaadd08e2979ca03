import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { runSift } from '../helpers/cli';
import { startServer, type TestServer } from '../helpers/fetch-server';

// Through the built CLI (node scripts/build-cli.mjs), as a user runs it: a real paper cut at
// 55% of its bytes, as the shared corpus's truncated copy is (no xref, no trailer, no %%EOF).
const dir = mkdtempSync(path.join(tmpdir(), 'sift-cli-pdf-cut-'));
const env = { HOME: dir, XDG_DATA_HOME: dir, APPDATA: dir };
const whole = readFileSync(path.resolve('test/fixtures/pdfs/tracemonkey.pdf'));
const cut = whole.subarray(0, Math.floor(whole.byteLength * 0.55));
const file = path.join(dir, 'paper.pdf');
const SIFTS_WORDS = `malformed PDF: cut short after ${cut.byteLength.toLocaleString('en-US')} bytes (its end, %%EOF, is missing)`;
let srv: TestServer;

beforeAll(async () => {
  writeFileSync(file, cut);
  srv = await startServer({ '/paper.pdf': (_q, r) => r.writeHead(200, { 'content-type': 'application/pdf' }).end(cut) });
});
afterAll(async () => {
  await srv.close();
  rmSync(dir, { recursive: true, force: true });
});

const logLines = (log: string): Record<string, unknown>[] =>
  readFileSync(log, 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Record<string, unknown>);

describe('a PDF cut short', () => {
  // It said "… is missing): Invalid PDF structure.", pdf.js's words for what Sift's sentence had just said.
  it("is said in Sift's words alone by sift extract, pdf.js's kept in the log line", async () => {
    const log = path.join(dir, 'extract.log');
    const r = await runSift(['extract', file, '--json', '--log', log], { env, cwd: dir });
    expect(r.code).toBe(1);
    const out = JSON.parse(r.stdout) as { ok: boolean; error: string; hint: string };
    expect(out.ok).toBe(false);
    expect(out.error).toBe(SIFTS_WORDS);
    expect(out.hint).toMatch(/^A download or a copy stopped early: download the file again/);
    const line = logLines(log).find((l) => l.msg === 'extract');
    expect(line).toMatchObject({ outcome: 'bad_document', detail: 'Invalid PDF structure.' });
    expect(JSON.stringify(line)).not.toContain('paper.pdf');
  }, 120_000);

  it("is said in Sift's words alone by sift fetch, pdf.js's kept in the log line without the address", async () => {
    const log = path.join(dir, 'fetch.log');
    const r = await runSift(['fetch', `${srv.origin}/paper.pdf`, '--allow-private', '--log', log], { env, cwd: dir });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`${SIFTS_WORDS}\n`);
    expect(r.stderr).not.toContain('Invalid PDF structure');
    const line = logLines(log).find((l) => l.msg === 'fetch');
    expect(line).toMatchObject({ outcome: 'bad_document', detail: 'Invalid PDF structure.' });
    expect(JSON.stringify(logLines(log))).not.toMatch(/127\.0\.0\.1|paper\.pdf/);
  }, 120_000);
});
