/**
 * Honest outcomes on pages outside the corpora (test/fixtures/outcomes-written), through the
 * real `sift batch`: a loopback server answers each page with its status, and every real page
 * comes back ok while every stand-in fails with its reason, in --json and in the summary a
 * user reads. Unknown paths answer 404, so the random-path probe finds no twin.
 */
import { beforeAll, describe, expect, test } from 'vitest';
import { mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { jsonLines, runSift } from '../helpers/cli';
import { closedAfterAll, listenLoopback } from '../helpers/loopback';

const WRITTEN = path.resolve(__dirname, '../fixtures/outcomes-written');
// A page fetched as busy is retried for the runner's minute: batch-wiring.test.ts runs it, with a short one.
const manifest = (JSON.parse(readFileSync(path.join(WRITTEN, 'manifest.json'), 'utf8')) as { file: string; class: string; status?: number; fetched?: string }[]).filter((e) => e.fetched !== 'busy');
const stem = (file: string): string => file.replace(/\.html$/, '');

const open = closedAfterAll();
let base: string;
let home: string;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  base = await listenLoopback(open, (req, res) => {
    const name = new URL(req.url ?? '/', 'http://x').pathname.slice(1);
    const file = readdirSync(WRITTEN).find((f) => f.endsWith('.html') && stem(f) === name);
    if (!file) return res.writeHead(404, { 'content-type': 'text/plain' }).end('no such page');
    const status = manifest.find((e) => e.file === file)?.status ?? 200;
    res.writeHead(status, { 'content-type': 'text/html; charset=utf-8' }).end(readFileSync(path.join(WRITTEN, file)));
  });
  home = mkdtempSync(path.join(os.tmpdir(), 'sift-outcomes-written-'));
  writeFileSync(path.join(home, 'settings.json'), JSON.stringify({ allowHosts: ['127.0.0.1'], deadlineSeconds: 60 }));
  env = { SIFT_HOME: home };
});

describe('sift batch on pages outside the corpora', () => {
  test('real pages are ok, stand-ins fail with their reason, and the summary counts them so', async () => {
    const db = path.join(home, 'written.db');
    const file = path.join(home, 'list.txt');
    // Rendering off: each thin page with scripts would take a browser's seconds; the judge is
    // the same one (the rendered pages are judged in the next test).
    writeFileSync(file, `${manifest.map((e) => `${base}/${stem(e.file)} render=never`).join('\n')}\n`);
    const run = await runSift(['batch', file, '--json', '--db', db], { env, timeoutMs: 120_000 });
    const count = (c: string): number => manifest.filter((e) => e.class === c).length;
    const failed = manifest.length - count('ok');
    expect(run.code, run.stderr.slice(-2000)).toBe(failed ? 1 : 0);
    const lines = jsonLines(run.stdout);
    expect(lines.map((l) => [l.url, l.ok ? 'ok' : l.reason])).toEqual(manifest.map((e) => [`${base}/${stem(e.file)}`, e.class]));
    for (const l of lines.filter((x) => x.ok)) expect(String(l.content).length, String(l.url)).toBeGreaterThan(40);

    // The same list again, as a user reads it: the stored job and its counts.
    const again = await runSift(['batch', file, '--db', db], { env, timeoutMs: 60_000 });
    expect(again.stderr).toMatch(new RegExp(`ok ${count('ok')}\\b${failed ? `[^·]*· failed ${failed}\\b` : ''}`));
    // "what to do": one line per reason, with how many targets have it.
    const said: Record<string, string> = { soft404: 'soft 404:', consent: 'consent:', login: 'login:', challenge: 'challenge:', needs_js: 'needs JavaScript:' };
    for (const [reason, words] of Object.entries(said)) if (count(reason)) expect(again.stderr).toContain(`${count(reason)} × ${words}`);
  }, 180_000);

  test('short pages with scripts, rendered as the default does, are ok: they were judged app shells that "stayed empty"', async () => {
    const file = path.join(home, 'render.txt');
    writeFileSync(file, `${base}/ok_notice_two_scripts\n${base}/ok_poem_comments_noscript\n${base}/rendered_ok_ssr_product_reviews_in_island\n`);
    const run = await runSift(['batch', file, '--json', '--db', path.join(home, 'render.db')], { env, timeoutMs: 150_000 });
    const [notice, poem, product] = jsonLines(run.stdout);
    expect(notice, run.stderr.slice(-2000)).toMatchObject({ ok: true, warnings: ['thin'] });
    expect(String(notice!.content)).toContain('closed on Friday 12 April');
    expect(poem).toMatchObject({ ok: true });
    expect(String(poem!.content)).toContain('little cat feet');
    // Its reviews stay folded in its data island once rendered: the page is its name and price.
    expect(product, run.stderr.slice(-2000)).toMatchObject({ ok: true, meta: { rendered: true } });
    expect(String(product!.content)).toContain('Solid walnut base');
    expect(run.code).toBe(0);
  }, 240_000);

  test("a storefront of headings and image links whose copy is in its data, rendered with its scripts missing or unreached, needs JavaScript; with a paragraph of its own, or scripts that ran, it is ok", async () => {
    // The same pages from a host that answers their scripts (/_nuxt/…) with one that runs and draws nothing.
    const shop = readFileSync(path.join(WRITTEN, 'needs_js_storefront_headings_over_island.html'));
    const ran = await listenLoopback(open, (req, res) => {
      if (req.url?.startsWith('/_nuxt/') && req.url.endsWith('.js')) return res.writeHead(200, { 'content-type': 'text/javascript' }).end('document.documentElement.dataset.ran = "1";');
      if (req.url === '/') return res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(shop);
      res.writeHead(404, { 'content-type': 'text/plain' }).end('no such page');
    });
    // And from one whose scripts are on a host that does not answer (a closed port, over https
    // as a CDN's are): the browser's request fails with no answer at all.
    const closed = await new Promise<number>((resolve) => {
      const s = createServer().listen(0, '127.0.0.1', () => {
        const { port } = s.address() as AddressInfo;
        s.close(() => resolve(port));
      });
    });
    const unreached = await listenLoopback(open, (req, res) => {
      if (req.url !== '/') return res.writeHead(404, { 'content-type': 'text/plain' }).end('no such page');
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(shop.toString('utf8').replaceAll('src="/_nuxt/', `src="https://127.0.0.1:${closed}/_nuxt/`));
    });
    const file = path.join(home, 'storefront.txt');
    writeFileSync(file, `${base}/needs_js_storefront_headings_over_island\n${base}/rendered_ok_storefront_headings_and_a_paragraph_over_island\n${ran}/\n${unreached}/\n`);
    const run = await runSift(['batch', file, '--json', '--db', path.join(home, 'storefront.db')], { env, timeoutMs: 150_000 });
    const [shell, paragraph, ranShell, unreachedShell] = jsonLines(run.stdout);
    expect(unreachedShell, run.stderr.slice(-2000)).toMatchObject({ ok: false, reason: 'needs_js' });
    // Its 2 scripts never ran: it read "stayed empty when its scripts ran … may need a sign-in, cookies or more time".
    expect(String(unreachedShell!.error)).toContain(`2 of its scripts could not be loaded: the server they are on (127.0.0.1:${closed}) did not answer`);
    expect(String(unreachedShell!.hint)).toMatch(/try again later.*network/);
    // It came back ok and thin, its 14 paragraphs of copy left in window.__NUXT__: this server
    // answers its two scripts with a 404, and the reason says so.
    expect(shell, run.stderr.slice(-2000)).toMatchObject({ ok: false, reason: 'needs_js' });
    expect(String(shell!.error)).toContain('answered 2 of its scripts with an error (HTTP 404)');
    expect(paragraph, run.stderr.slice(-2000)).toMatchObject({ ok: true, warnings: ['thin'], meta: { rendered: true } });
    expect(String(paragraph!.content)).toContain('folds into a carry-on');
    // Its scripts ran and drew nothing: what it shows is what a browser shows.
    expect(ranShell, run.stderr.slice(-2000)).toMatchObject({ ok: true, warnings: ['thin'], meta: { rendered: true } });
    expect(String(ranShell!.content)).toContain('Summer Tailoring');
    expect(run.code).toBe(1);
  }, 240_000);
});
