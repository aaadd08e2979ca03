/**
 * A page whose styles Markdown's "*" cannot express (a highlight, an insertion, a key, emphasis
 * inside a word or around bold) is stored with inline HTML and asterisks in its words. Search,
 * grep and the question option read it as its words read: a real `sift batch` against a
 * loopback page, then the real commands on the stored result.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startSite, type Site } from '../helpers/sites';
import { jsonLines, runSift } from '../helpers/cli';

let site: Site;
let env: NodeJS.ProcessEnv;
let db: string;
let job: string;
/** `sift batch --json`'s lines, in list order: the page, its grep, its question. */
let results: Record<string, unknown>[];

const ARTICLE =
  '<p>The <mark>harbour</mark> <ins>pilot</ins> guided the freighter past the breakwater at dawn, as the tide turned.</p>' +
  '<p>Every deckhand learns the un<em>break</em>able rule of the quay before the first watch begins.</p>' +
  '<p>To stop the winch in an emergency, press <kbd>Ctrl</kbd> and hold the lever until it halts.</p>' +
  '<p>A <em><b>salt</b>marsh<b>heron</b></em> nested by the old lighthouse every spring for years.</p>';

beforeAll(async () => {
  site = await startSite({
    '/harbour': (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(`<!doctype html><html><head><meta charset="utf-8"><title>Harbour notes</title></head><body><main><article><h1>Harbour notes</h1>${ARTICLE}</article></main></body></html>`);
    },
  });
  const home = mkdtempSync(path.join(os.tmpdir(), 'sift-cli-inline-'));
  writeFileSync(path.join(home, 'settings.json'), JSON.stringify({ allowHosts: ['127.0.0.1'], deadlineSeconds: 20 }));
  env = { SIFT_HOME: home };
  db = path.join(home, 'inline.db');
  const list = [`${site.base}/harbour`, `${site.base}/harbour grep="harbour pilot|unbreakable rule|press Ctrl and"`, `${site.base}/harbour q="what is unbreakable?"`].join('\n');
  const r = await runSift(['batch', '-', '--db', db, '--json'], { env, input: `${list}\n` });
  if (!/^job /.test(r.stderr)) throw new Error(r.stderr);
  job = /^job (\S+)/.exec(r.stderr)![1]!;
  results = jsonLines(r.stdout);
}, 120_000);
afterAll(async () => {
  await site.close();
});

describe('a page stored with inline HTML and asterisks', { timeout: 120_000 }, () => {
  test('is stored so: the styles as tags and asterisks in its Markdown', () => {
    expect(results[0]).toMatchObject({ ok: true });
    expect(String(results[0]!.content)).toMatch(/<mark>harbour<\/mark> <ins>pilot<\/ins>[\s\S]*un\*break\*able[\s\S]*<kbd>Ctrl<\/kbd>[\s\S]*<em>\*\*salt\*\*/);
  });

  test.each([['harbour pilot'], ['unbreakable rule'], ['press Ctrl and hold'], ['saltmarshheron nested']])('search finds the phrase "%s", its snippet without tags or asterisks', async (phrase) => {
    const r = await runSift(['search', `"${phrase}"`, '--job', job, '--json', '--db', db], { env });
    expect(r.code, r.stderr).toBe(0);
    const hit = jsonLines(r.stdout).find((h) => h.idx === 0);
    expect(hit?.snippet).toContain(`«${phrase}»`);
    expect(hit?.snippet).not.toMatch(/<\/?(?:mark|ins|kbd|em|b|strong)>|\*/);
  });

  test('grep matches each line as it reads, across the tags and asterisks', () => {
    expect(results[1]).toMatchObject({ ok: true, meta: { matches: 3 } });
  });

  test('the question option ranks passages on their words as they read', () => {
    expect(results[2]).toMatchObject({ ok: true });
    expect(String(results[2]!.content).split('\n\n')[0]).toContain('able rule of the quay');
  });
});
