/**
 * A grep job where a page has no matching line: `sift batch --out` wrote an empty file for that
 * page (an empty fence in Markdown), which said nothing of why and read as a page with nothing
 * on it. Its file now says why and is named so; the combined Markdown says it in words; the
 * listings keep content "" with the no_match warning. Pages fetched from a loopback site
 * through the CLI, the pipeline and a real database.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { parse as parseCsv } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { loopbackSift, type LoopbackSift, type siftInProcess } from '../helpers/cli-main';
import { FERRY_PAGES, startSite, type Site } from '../helpers/sites';

let site: Site;
let tmp: LoopbackSift;
let sift: ReturnType<typeof siftInProcess>;
let db: string;

beforeAll(async () => {
  site = await startSite(FERRY_PAGES);
  tmp = loopbackSift('sift-export-empty-');
  ({ sift, db } = tmp);
  writeFileSync(path.join(tmp.dir, 'list.txt'), `${site.base}/tides\n${site.base}/fares\n`);
}, 120_000);
afterAll(async () => {
  await site.close();
  tmp.remove();
});

/** Runs the list with --grep water into `format`; the path the export was written to. */
async function batchTo(format: string): Promise<string> {
  const out = path.join(tmp.dir, `out-${format}`);
  const r = await sift('batch', 'list.txt', '--grep', 'water', '--db', db, '--out', out, '--format', format);
  expect(r.code, r.err).toBe(0);
  return /^exported .+? to (.+) \([\d.,]+ [kMG]?B\): /m.exec(r.err)![1]!;
}

const NO_MATCH = /^http:\/\/127\.0\.0\.1:\d+\/fares\n\nno match: No line matches the grep expression/;

describe('a target whose grep matched no line, exported', () => {
  test.each(['md', 'txt', 'json', 'folder'])('--format %s: no empty file; one named "(no match)" says why, and the manifest names it', async (format) => {
    const dir = await batchTo(format);
    const files = readdirSync(dir).sort();
    const ext = format === 'md' ? 'md' : format === 'json' ? 'json' : 'txt';
    expect(files).toEqual(['Ferry fares (no match).txt', `Tide tables.${ext}`, 'failed.txt', 'manifest.jsonl'].sort());
    expect(readFileSync(path.join(dir, 'Ferry fares (no match).txt'), 'utf8')).toMatch(NO_MATCH);
    expect(readFileSync(path.join(dir, `Tide tables.${ext}`), 'utf8')).toContain('High water at the quay');
    const manifest = readFileSync(path.join(dir, 'manifest.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { file: string; status: string; warnings: string[] });
    expect(manifest[1]).toMatchObject({ status: 'done', file: 'Ferry fares (no match).txt', warnings: expect.arrayContaining(['no_match']) as unknown });
  });

  test('--format zip holds the same files', async () => {
    const zip = await batchTo('zip');
    const listing = execFileSync('unzip', ['-Z1', zip], { encoding: 'utf8' });
    expect(listing).toMatch(/\/Ferry fares \(no match\)\.txt$/m);
    const text = execFileSync('unzip', ['-p', zip, `${path.basename(zip, '.zip')}/Ferry fares (no match).txt`], { encoding: 'utf8' });
    expect(text).toMatch(NO_MATCH);
  });

  test('--format combined says so in the contents and in its section, not with an empty fence', async () => {
    const md = readFileSync(await batchTo('combined'), 'utf8');
    expect(md).toContain('- [Ferry fares](#target-2) (no match)\n');
    expect(md).toMatch(/## Ferry fares\n\n<http:[^>]+\/fares>\n\nAsked with `grep=water`\n\n> \*\*no match\*\*: No line matches the grep expression/);
    expect(md).not.toMatch(/```text\n```/);
  });

  test('--format csv and jsonl keep the content empty, with the warning that says why', async () => {
    const rows = parseCsv(readFileSync(await batchTo('csv'), 'utf8').replace(/^\ufeff/, ''), { columns: true }) as Record<string, string>[];
    expect(rows[1]).toMatchObject({ title: 'Ferry fares', bytes: '0', warnings: expect.stringContaining('no_match') as unknown });
    const lines = readFileSync(await batchTo('jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { content: string; meta: { warnings: string[] } });
    expect(lines[1]!.content).toBe('');
    expect(lines[1]!.meta.warnings).toContain('no_match');
  });
});
