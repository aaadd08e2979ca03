/**
 * What a user gets from `--jq` on the JSON documents servers really send, through the CLI's
 * own path (sift fetch and sift batch in this process: fetcher, batch runner, compute worker,
 * store, export) against a loopback server.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { siftInProcess } from '../helpers/cli-main';
import { startSite, type Site } from '../helpers/sites';
import { tempDir } from '../helpers/store';

const send = (body: string, type: string) => (_q: unknown, res: ServerResponse) => res.writeHead(200, { 'content-type': type }).end(body);

let site: Site;
let tmp: ReturnType<typeof tempDir>;
let sift: ReturnType<typeof siftInProcess>;
let db: string;

beforeAll(async () => {
  site = await startSite({
    '/prices.json': send('{"title":"Prices","items":[{"name":"tea","price":3},{"name":"cake","price":4}]}', 'application/json'),
  });
  tmp = tempDir('sift-jq-documents-');
  writeFileSync(path.join(tmp.dir, 'settings.json'), JSON.stringify({ allowHosts: ['127.0.0.1'], deadlineSeconds: 20 }));
  sift = siftInProcess(tmp.dir, { SIFT_HOME: tmp.dir });
  db = path.join(tmp.dir, 'sift.db');
}, 120_000);
afterAll(async () => {
  await site.close();
  tmp.remove();
});

/** `sift fetch URL --jq PROG --json`: the one JSON line it prints, and what it wrote to stderr. */
async function fetchJq(route: string, program: string, ...flags: string[]): Promise<{ code: number; line: Record<string, unknown>; err: string }> {
  const r = await sift('fetch', `${site.base}${route}`, '--jq', program, '--db', db, '--json', ...flags);
  return { code: r.code, line: JSON.parse(r.out) as Record<string, unknown>, err: r.err };
}

describe('a jq program that gives no value', () => {
  test('is ok and warned no_output, and the result and its export say the program let nothing through, not that the document had no text', async () => {
    const { code, line } = await fetchJq('/prices.json', '.items[] | select(.price > 10)');
    expect(code).toBe(0);
    expect(line).toMatchObject({ ok: true, content: '', warnings: ['no_output'] });

    // Said on stderr where a terminal shows nothing on stdout.
    const plain = await sift('fetch', `${site.base}/prices.json`, '--jq', '.items[] | select(.price > 10)', '--db', db);
    expect(plain.out).toBe('');
    expect(plain.err).toMatch(/no jq output: The result is empty: the jq program gave no value for this document/);

    writeFileSync(path.join(tmp.dir, 'none.txt'), `${site.base}/prices.json jq='.items[] | select(.price > 10)'\n`);
    const out = path.join(tmp.dir, 'out-none');
    const r = await sift('batch', 'none.txt', '--db', db, '--out', out, '--format', 'md');
    expect(r.code, r.err).toBe(0);
    expect(r.err).toMatch(/ok 0 B \(no jq output\)/);
    const [folder] = readdirSync(out);
    const file = readdirSync(path.join(out, folder!)).find((f) => f.endsWith('.txt') && f !== 'failed.txt');
    const text = readFileSync(path.join(out, folder!, file!), 'utf8');
    expect(text).toMatch(/the jq program gave no value for this document/);
    expect(text).not.toMatch(/had no text/);
  });
});
