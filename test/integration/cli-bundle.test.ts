/**
 * The CLI as users run it: bin/sift.cjs on the built bundle (out/cli, built by the test
 * setup as `npm ci` builds it), every command once, what each command loads, and the tsx
 * fallback of a checkout whose bundle is missing or stale.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { execFile as execFileCb } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { startSite, type Site } from '../helpers/sites';
import { makePdf } from '../helpers/fetch-pdf';
import { runSift } from '../helpers/cli';
import { openStore } from '../../src/main/store';

const execFile = promisify(execFileCb);
const ROOT = path.resolve(__dirname, '../..');
const BUNDLE = path.join(ROOT, 'out/cli/sift.mjs');
const HOOK = pathToFileURL(path.join(ROOT, 'test/helpers/loaded-hook.mjs')).href;

let site: Site;
let work: string;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  site = await startSite();
  work = mkdtempSync(path.join(os.tmpdir(), 'sift-bundle-'));
  writeFileSync(path.join(work, 'settings.json'), JSON.stringify({ allowHosts: ['127.0.0.1'] }));
  env = { SIFT_HOME: work };
  writeFileSync(path.join(work, 'page.html'), '<!doctype html><html lang="en"><head><title>Bundled</title></head><body><article><h1>Bundled</h1><p>The bundle extracts this paragraph, which is long enough to be an article for Readability to keep it whole.</p><p>A second paragraph about the same thing, so the page reads as an article.</p></article></body></html>');
  writeFileSync(path.join(work, 'doc.pdf'), makePdf({ pages: [['First page text'], ['Second page text']] }));
  writeFileSync(path.join(work, 'data.json'), JSON.stringify({ items: [{ name: 'alpha' }, { name: 'beta' }] }));
  writeFileSync(
    path.join(work, 'cp1252.html'),
    Buffer.from('<html><head><meta charset="windows-1252"><title>Caf\xe9</title></head><body><article><h1>Cr\xe8me</h1><p>cr\xe8me br\xfbl\xe9e, a paragraph long enough to be an article for Readability to keep it whole.</p></article></body></html>', 'latin1'),
  );
  writeFileSync(path.join(work, 'notes.txt'), 'one line\nthe needle line\nlast line\n');
  // Names no charset and is not UTF-8: the detector reads it (windows-1251).
  writeFileSync(
    path.join(work, 'cp1251.html'),
    Buffer.from('<html><head><title>\xcd\xee\xe2\xee\xf1\xf2\xe8</title></head><body><article><p>' + '\xcf\xee\xe3\xee\xe4\xe0 \xed\xe0 \xef\xee\xe1\xe5\xf0\xe5\xe6\xfc\xe5 \xf1\xe5\xe3\xee\xe4\xed\xff \xff\xf1\xed\xe0\xff. '.repeat(8) + '</p></article></body></html>', 'latin1'),
  );
});
afterAll(async () => {
  await site.close();
  rmSync(work, { recursive: true, force: true });
});

/** Runs the bundle in a child that records every module it loads: ESM chunks and required files. */
async function loadedBy(args: string[], log = path.join(work, `loaded-${args[0]}-${Date.now()}.txt`)): Promise<{ esm: string[]; cjs: string[] }> {
  const script = `
    import { register, createRequire } from 'node:module';
    register(${JSON.stringify(HOOK)});
    const m = await import(${JSON.stringify(pathToFileURL(BUNDLE).href)});
    const code = await m.main(${JSON.stringify(args)});
    process.stderr.write(JSON.stringify(Object.keys(createRequire(import.meta.url).cache)));
    process.exitCode = code;`;
  const { stderr } = await execFile(process.execPath, ['--input-type=module', '-e', script], { env: { ...process.env, ...env, SIFT_LOADED_LOG: log }, cwd: work });
  const esm = existsSync(log) ? readFileSync(log, 'utf8').trim().split('\n') : [];
  return { esm, cjs: JSON.parse(stderr.slice(stderr.lastIndexOf('['))) as string[] };
}

/**
 * The packages bundled into the chunks a run loaded (esbuild marks each with a // node_modules/
 * comment; `// ../../other/checkout/node_modules/` where node_modules is a link to another checkout's).
 */
function packagesIn(files: string[]): Set<string> {
  const out = new Set<string>();
  for (const f of files) {
    if (!f.startsWith('file:') || !f.includes('/out/cli/')) continue;
    for (const m of readFileSync(new URL(f), 'utf8').matchAll(/^\/\/ (?:[./\w-]*\/)?node_modules\/((?:@[^/]+\/)?[^/]+)\//gm)) out.add(m[1]!);
  }
  return out;
}

describe('the built CLI', () => {
  // Many child processes each: minutes on a busy 2-core machine.
  test('help, version and extract of each kind run from the bundle, with no word of tsx on stderr', async () => {
    const version = await runSift(['--version'], { env });
    expect(version.stdout).toMatch(/^sift \d+\.\d+\.\d+/);
    expect(version.stderr).toBe('');
    expect((await runSift(['--help'], { env })).stdout).toContain('extract');
    expect((await runSift(['status', '--help'], { env })).stdout).toContain('usage: sift status');

    const html = await runSift(['extract', 'page.html'], { env, cwd: work });
    expect(html.stderr).toBe('');
    expect(html.stdout).toContain('# Bundled');
    expect(html.stdout).toContain('The bundle extracts this paragraph');
    // The PDF worker (pdf.js) and the compute worker (jq-wasm's wasm, grep) are found from the bundle.
    const pdf = await runSift(['extract', 'doc.pdf', '--pages', '2'], { env, cwd: work });
    expect(pdf.stdout).toContain('Second page text');
    expect(pdf.stdout).not.toContain('First page text');
    expect((await runSift(['extract', 'data.json', '--jq', '.items[].name'], { env, cwd: work })).stdout).toBe('"alpha"\n"beta"\n');
    expect((await runSift(['extract', 'notes.txt', '--grep', 'needle'], { env, cwd: work })).stdout).toContain('the needle line');
  }, 180_000);

  test('fetch, batch and the commands on its store run from the bundle', async () => {
    const fetched = await runSift(['fetch', `${site.base}/article/3`], { env });
    expect(fetched.stderr).toBe('');
    expect(fetched.stdout).toContain('Paragraph 1 of article 3');

    const list = path.join(work, 'list.txt');
    writeFileSync(list, `${site.base}/article/1\n${site.base}/article/2\n${site.base}/doc/1.pdf\n`);
    const db = path.join(work, 'cli.db');
    const batch = await runSift(['batch', list, '--db', db, '--json'], { env });
    expect(batch.code).toBe(0);
    expect(batch.stdout.trim().split('\n')).toHaveLength(3);
    // The store (better-sqlite3's native module) from the bundle: jobs, status, export, cancel.
    const jobs = await runSift(['jobs', '--db', db, '--json'], { env });
    const id = (JSON.parse(jobs.stdout.trim().split('\n')[0]!) as { id: string }).id;
    expect((await runSift(['status', id, '--db', db], { env })).code).toBe(0);
    const out = path.join(work, 'export');
    expect((await runSift(['export', id, '--db', db, '--out', out, '--format', 'jsonl'], { env })).code).toBe(0);
    expect(existsSync(out)).toBe(true);
    const cancel = await runSift(['cancel', id, '--db', db], { env });
    expect(cancel.stderr).not.toMatch(/tsx|cannot start/);
    expect((await runSift(['parse', list], { env })).stdout.trim().split('\n')).toHaveLength(3);
  }, 180_000);

  test('each command loads only what it needs', async () => {
    const version = await loadedBy(['--version']);
    expect(version.esm).toContain(pathToFileURL(BUNDLE).href);
    expect([...packagesIn(version.esm)]).toEqual([]);
    expect(version.cjs.filter((f) => f.includes('node_modules'))).toEqual([]);

    const extract = await loadedBy(['extract', 'page.html']);
    const bundled = packagesIn(extract.esm);
    expect(bundled).toContain('linkedom');
    expect(bundled).toContain('@mozilla/readability');
    for (const heavy of ['undici', 'prom-client', 'yazl', 'csv-stringify']) expect(bundled).not.toContain(heavy);
    for (const heavy of ['better-sqlite3', 'pino', 'pdfjs-dist', 'jq-wasm', 'playwright-core']) {
      expect(extract.cjs.filter((f) => f.includes(`/node_modules/${heavy}/`))).toEqual([]);
      expect(extract.esm.filter((f) => f.includes(`/node_modules/${heavy}/`))).toEqual([]);
    }
    // A text or JSON file never needs the HTML stack: it loads with the first page that does.
    const htmlStack = ['linkedom', '@mozilla/readability', '@mixmark-io/domino', 'turndown'];
    for (const file of ['notes.txt', 'data.json']) {
      const plain = packagesIn((await loadedBy(['extract', file])).esm);
      for (const heavy of htmlStack) expect(plain, file).not.toContain(heavy);
    }
    // The commands on the store (jobs, status, export, cancel, search) read it and load
    // nothing of the fetch pipeline: it was half of their start.
    const db = path.join(work, 'loads.db');
    openStore(db).close();
    for (const args of [['jobs', '--db', db], ['search', 'anything', '--db', db]]) {
      const onStore = packagesIn((await loadedBy(args)).esm);
      for (const heavy of ['linkedom', '@mozilla/readability', '@mixmark-io/domino', 'turndown', 'undici', 'prom-client']) expect(onStore, args[0]).not.toContain(heavy);
    }
    // iconv-lite waits for the first page that is not UTF-8, and then loads from node_modules.
    const iconvLoaded = (r: { esm: string[]; cjs: string[] }): boolean =>
      packagesIn(r.esm).has('iconv-lite') || r.cjs.some((f) => f.includes('/node_modules/iconv-lite/'));
    expect(iconvLoaded(extract)).toBe(false);
    const latin = await loadedBy(['extract', 'cp1252.html']);
    expect(iconvLoaded(latin)).toBe(true);
    const text = await runSift(['extract', 'cp1252.html'], { env, cwd: work });
    expect(text.stdout).toContain('# Café');
    expect(text.stdout).toContain('crème brûlée');
    // chardet waits for the first page that names no charset and is not UTF-8.
    const chardetLoaded = (r: { esm: string[]; cjs: string[] }): boolean => packagesIn(r.esm).has('chardet') || r.cjs.some((f) => f.includes('/node_modules/chardet/'));
    expect(chardetLoaded(extract)).toBe(false);
    expect(chardetLoaded(latin)).toBe(false);
    const unlabelled = await loadedBy(['extract', 'cp1251.html']);
    expect(chardetLoaded(unlabelled)).toBe(true);
    expect((await runSift(['extract', 'cp1251.html'], { env, cwd: work })).stdout).toContain('Погода на побережье сегодня ясная.');
  }, 120_000);

  test('sift fetch loads the HTML stack while the server has not answered yet', async () => {
    const log = path.join(work, `loaded-prefetch-${Date.now()}.txt`);
    const stackLoading = (): boolean => existsSync(log) && packagesIn(readFileSync(log, 'utf8').trim().split('\n')).has('linkedom');
    // The page's answer waits for the chunk holding linkedom to be loaded, or for 30 s.
    let loadedFirst: boolean | undefined;
    const server = http.createServer((req, res) => {
      if (req.url !== '/slow') {
        res.writeHead(404, { 'content-type': 'text/plain' });
        res.end('not found');
        return;
      }
      const started = Date.now();
      const poll = (): void => {
        if (!stackLoading() && Date.now() - started < 30_000) return void setTimeout(poll, 20);
        loadedFirst = stackLoading();
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        res.end(readFileSync(path.join(work, 'page.html')));
      };
      poll();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      await loadedBy(['fetch', `http://127.0.0.1:${(server.address() as AddressInfo).port}/slow`], log);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
    expect(loadedFirst).toBe(true);
  }, 120_000);

  describe('in a checkout whose bundle is missing or stale', () => {
    let checkout: string;
    beforeAll(() => {
      // A checkout in miniature: bin/ copied (so its root is this folder), the sources,
      // package.json, tsconfig and node_modules linked.
      checkout = mkdtempSync(path.join(os.tmpdir(), 'sift-checkout-'));
      mkdirSync(path.join(checkout, 'bin'));
      cpSync(path.join(ROOT, 'bin/sift.cjs'), path.join(checkout, 'bin/sift.cjs'));
      for (const f of ['src', 'node_modules', 'package.json', 'tsconfig.node.json', 'tsconfig.base.json']) symlinkSync(path.join(ROOT, f), path.join(checkout, f));
    });
    afterAll(() => rmSync(checkout, { recursive: true, force: true }));

    const run = (args: string[]) => execFile(process.execPath, [path.join(checkout, 'bin/sift.cjs'), ...args], { env: { ...process.env, ...env }, cwd: work });

    test('without a bundle it runs the sources through tsx and says so', async () => {
      const { stdout, stderr } = await run(['extract', 'page.html']);
      expect(stderr).toMatch(/no CLI bundle .*running the sources through tsx.*npm run build:cli/);
      expect(stdout).toContain('# Bundled');
    }, 120_000);

    test('with a bundle older than the sources it runs the sources and says so', async () => {
      cpSync(path.join(ROOT, 'out/cli'), path.join(checkout, 'out/cli'), { recursive: true });
      const entry = path.join(checkout, 'out/cli/sift.mjs');
      utimesSync(entry, new Date(0), new Date(0));
      const stale = await run(['--version']);
      expect(stale.stderr).toMatch(/older than the sources; running the sources through tsx/);
      expect(stale.stdout).toMatch(/^sift /);
      const now = new Date();
      utimesSync(entry, now, now);
      const fresh = await run(['--version']);
      expect(fresh.stderr).toBe('');
    }, 120_000);
  });
});
