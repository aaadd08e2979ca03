/**
 * Exported files as a user opens them, after `sift batch --out` fetched a loopback site through
 * the pipeline into a real database: what the combined Markdown says at its top, where a PDF's
 * grep lines and passages are in the document, and whether a jq program's file opens as what
 * its name says.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { siftInProcess } from '../helpers/cli-main';
import { startSite, type Site } from '../helpers/sites';
import { tempDir } from '../helpers/store';

let site: Site;
let tmp: ReturnType<typeof tempDir>;
let sift: ReturnType<typeof siftInProcess>;
let db: string;

const page = (title: string, paras: string[]): string =>
  `<!doctype html><html><head><title>${title}</title></head><body><main><article><h1>${title}</h1>${paras.map((p) => `<p>${p}</p>`).join('')}</article></main></body></html>`;

beforeAll(async () => {
  site = await startSite({
    '/tides': (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(page('Tide tables', ['High water at the quay is at 06:12 today and the ferry leaves an hour after.', 'Pilots can be reached on channel 14 through the harbour office.']));
    },
    '/fares': (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(page('Ferry fares', ['Fares for foot passengers rise by ten percent from January, the operator said.', "Season tickets stay at last year's price for residents of the islands."]));
    },
    '/gone': (_req, res) => {
      res.writeHead(410, { 'content-type': 'text/plain' });
      res.end('gone');
    },
  });
  tmp = tempDir('sift-export-read-');
  writeFileSync(path.join(tmp.dir, 'settings.json'), JSON.stringify({ allowHosts: ['127.0.0.1'], deadlineSeconds: 20 }));
  sift = siftInProcess(tmp.dir, { SIFT_HOME: tmp.dir });
  db = path.join(tmp.dir, 'sift.db');
}, 120_000);
afterAll(async () => {
  await site.close();
  tmp.remove();
});

/** Runs `lines` as a list into `format` with `flags`; the path the export was written to. */
async function batchTo(name: string, lines: string[], format: string, ...flags: string[]): Promise<string> {
  writeFileSync(path.join(tmp.dir, `${name}.txt`), `${lines.join('\n')}\n`);
  const r = await sift('batch', `${name}.txt`, '--db', db, '--out', path.join(tmp.dir, `out-${name}`), '--format', format, ...flags);
  expect(r.code, r.err).toBeLessThanOrEqual(1);
  return /exported .* to (.+): /.exec(r.err)![1]!;
}

describe('combined Markdown with the failed targets included', () => {
  test('its count line says how many of them failed, as the CLI summary does', async () => {
    const urls = [`${site.base}/tides`, `${site.base}/gone`, `${site.base}/fares`, `${site.base}/missing/a`];
    const md = readFileSync(await batchTo('counts', urls, 'combined', '--include-failed'), 'utf8');
    expect(md.split('\n')[2]).toBe('4 targets (2 failed)');
    // And every one of them has its section.
    expect(md.match(/^## /gm)).toHaveLength(5);
  });
});
