/**
 * Links mode asked of a page that links nowhere found nothing, as a grep that matched no line
 * did: the answer asked for, not a fault. sift batch and sift status counted it "with warnings"
 * beside a thin page or an archived copy. Through the CLI, the pipeline and a real database,
 * against a loopback site.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { loopbackSift, type LoopbackSift } from '../helpers/cli-main';
import { startSite, type Site } from '../helpers/sites';

let site: Site;

const PARAGRAPHS = Array.from({ length: 6 }, (_, i) => `<p>Paragraph ${i + 1}: a page of plain prose that links to no other page, read through from start to end.</p>`).join('');
const NO_LINKS = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Plain</title></head><body><article><h1>Plain</h1>${PARAGRAPHS}</article></body></html>`;
let tmp: LoopbackSift;

beforeAll(async () => {
  site = await startSite({
    '/plain': (_req, res) => res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(NO_LINKS),
  });
  tmp = loopbackSift('sift-no-links-');
}, 120_000);
afterAll(async () => {
  await site.close();
  tmp.remove();
});

test('sift batch and sift status count a page with no links with what found nothing, by its label, not "with warnings"', async () => {
  writeFileSync(path.join(tmp.dir, 'links.txt'), `${site.base}/plain mode=links\n${site.base}/plain grep=zebra\n`);
  const r = await tmp.sift('batch', 'links.txt', '--db', tmp.db);
  expect(r.code, r.err).toBe(0);
  expect(r.err).toMatch(/#1 ok 0 B \(no links\) http/);
  // Before: "ok 2 (1 with no match, 1 with warnings)".
  expect(r.err).toMatch(/^done: 2\/2 · ok 2 \(1 with no match, 1 with no links\) · failed 0 · /m);
  expect(r.err).not.toContain('with warnings');
  const id = /^job ([0-9a-f]+)/.exec(r.err)![1]!;
  const status = await tmp.sift('status', id, '--db', tmp.db);
  expect(status.out).toMatch(/, 2\/2 finished, 0 failed, 1 with no match, 1 with no links, created /);
  expect(status.out).not.toContain('ok with warnings');
});
