/**
 * What `sift batch` says about the list it read, as a user who feeds it a real export meets it:
 * how many URLs it read, which lines it skipped and why, and that every URL it read is fetched.
 * The real command as a child process against a loopback site, on a real database.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startSite, type Site } from '../helpers/sites';
import { jsonLines, runSift } from '../helpers/cli';

let site: Site;
const home = mkdtempSync(path.join(tmpdir(), 'sift-cli-list-report-'));
const env = { SIFT_HOME: home, HOME: home, NO_COLOR: '1' };

beforeAll(async () => {
  site = await startSite();
});
afterAll(async () => {
  await site.close();
  rmSync(home, { recursive: true, force: true });
});

/** shared/corpora/url-lists in a folder above the checkout (as the article corpus is found), or undefined. */
function urlListCorpus(): string | undefined {
  const rel = path.join('shared', 'corpora', 'url-lists');
  if (process.env.SIFT_CORPORA) return path.join(process.env.SIFT_CORPORA, 'url-lists');
  for (let dir = path.resolve(__dirname); path.dirname(dir) !== dir; dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, rel))) return path.join(dir, rel);
  }
  return undefined;
}
const corpus = urlListCorpus();

describe('sift batch reads a list and says what it made of it', () => {
  test.skipIf(!corpus)("a real Firefox bookmarks export: every bookmark fetched, the 3 'place:' queries named as skipped, and how many URLs were read", async () => {
    // Each web address of the export points at its own page of the loopback site instead (no
    // traffic leaves the machine); the rest of the file, its 'place:' entries among them, is as exported.
    const original = readFileSync(path.join(corpus!, 'bookmarks-netscape', 'firefox_flat.htm'), 'utf8');
    const pages = new Map<string, number>();
    const list = original.replace(/HREF="(https?:\/\/[^"]+)"/g, (_, url: string) => {
      if (!pages.has(url)) pages.set(url, 100 + pages.size);
      return `HREF="${site.base}/article/${pages.get(url)}"`;
    });
    expect(pages.size).toBe(21);
    const file = path.join(home, 'bookmarks.html');
    writeFileSync(file, list);
    const r = await runSift(['batch', file, '--db', path.join(home, 'bookmarks.db'), '--allow-private', '--json'], { env });
    expect(r.code, r.stderr).toBe(0);
    const said = r.stderr.split('\n');
    expect(said[0]).toMatch(/^job [0-9a-f]{16}$/);
    expect(said.filter((l) => /^line \d+: invalid: not an http\(s\) URL: place:/.test(l))).toHaveLength(3);
    expect(r.stderr).toContain(`read 21 URLs from ${file}; skipped 3 invalid lines\n`);
    // Every bookmark, in the file's order, each fetched once.
    expect(jsonLines(r.stdout).map((l) => l.url)).toEqual([...pages.values()].map((n) => `${site.base}/article/${n}`));
    for (const n of pages.values()) expect(site.hits.get(`/article/${n}`)).toBe(1);
  }, 300_000);

  test('a long list of junk and repeats: a few of each listed, how many more and where to see them all, then what was read', async () => {
    const lines: string[] = [];
    for (let i = 0; i < 45; i++) {
      lines.push(`${site.base}/article/${200 + (i % 3)}`);
      lines.push(`not a URL ${i}`);
    }
    const file = path.join(home, 'long.txt');
    writeFileSync(file, `${lines.join('\n')}\n`);
    const r = await runSift(['batch', file, '--db', path.join(home, 'long.db'), '--allow-private'], { env });
    expect(r.code, r.stderr).toBe(0);
    const said = r.stderr.split('\n');
    expect(said.filter((l) => /^line \d+: invalid: /.test(l))).toHaveLength(20);
    expect(said.filter((l) => /^line \d+: duplicate of line \d+$/.test(l))).toHaveLength(20);
    expect(r.stderr).toContain(`… and 25 more invalid lines and 22 more duplicates: \`sift parse ${file}\` lists every one\n`);
    expect(r.stderr).toContain(`read 3 URLs from ${file}; skipped 45 invalid lines and 42 duplicates\n`);
    // Said before the job runs, so the first target's progress comes after it.
    expect(r.stderr.indexOf('read 3 URLs')).toBeLessThan(r.stderr.indexOf('[1/3]'));
    // The command it names lists every one.
    const parsed = await runSift(['parse', file], { env });
    expect(parsed.stderr.split('\n').filter((l) => /^line \d+: /.test(l))).toHaveLength(87);
  }, 300_000);

  test('a clean list says nothing more than its job and progress', async () => {
    const file = path.join(home, 'clean.txt');
    writeFileSync(file, `${site.base}/article/301\n${site.base}/article/302\n`);
    const r = await runSift(['batch', file, '--db', path.join(home, 'clean.db'), '--allow-private'], { env });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).not.toMatch(/^read |skipped/m);
    expect(r.stderr.split('\n')[1]).toMatch(/^\[1\/2\] #1 ok /);
  }, 300_000);
});

describe('sift parse reads a list as sift batch does', () => {
  test('an empty list says it holds no URL and what to give, as sift batch says it, not only "0 targets"', async () => {
    const file = path.join(home, 'empty-parse.txt');
    writeFileSync(file, '\n\n');
    const run = await runSift(['parse', file], { env });
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain(`sift parse: ${file} holds no valid http(s) URL: it is empty. Give one URL a line, or a CSV, bookmarks HTML, JSON, sitemap or OPML file.\n`);
  });

  test('a list of only # comments says so, and how to have a commented-out URL fetched', async () => {
    // As a list whose every URL a user commented out to skip it (crawleval's example list
    // comments one out so): "holds no valid http(s) URL. Give one URL a line" read as if the
    // URLs in it were not seen.
    const file = path.join(home, 'commented.txt');
    writeFileSync(file, `# reading list\n\n# ${site.base}/article/commented-1\n  #${site.base}/article/commented-2\n`);
    const runs = { parse: ['parse', file], batch: ['batch', file, '--db', path.join(home, 'commented.db')] };
    for (const [cmd, argv] of Object.entries(runs)) {
      const run = await runSift(argv, { env });
      expect(run.code, run.stderr).toBe(2);
      expect(run.stderr).toContain(
        `sift ${cmd}: ${file} holds no valid http(s) URL: every line in it is blank or a # comment, which Sift skips, 2 of them URLs. Remove the # before each URL you want fetched.\n`,
      );
    }
    // Where no comment is a URL, what to give, as for an empty list.
    const notes = path.join(home, 'notes.txt');
    writeFileSync(notes, '# to read later\n# (nothing yet)\n');
    const run = await runSift(['parse', notes], { env });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(
      `sift parse: ${notes} holds no valid http(s) URL: every line in it is blank or a # comment, which Sift skips. Give one URL a line, or a CSV, bookmarks HTML, JSON, sitemap or OPML file.\n`,
    );
    expect(site.hits.get('/article/commented-1')).toBeUndefined();
  });

  test("a line whose jq program does not compile is invalid, with its line and why, as sift batch says it; a --jq that does not compile is a usage error", async () => {
    const file = path.join(home, 'parse-jq.txt');
    const lines = [`${site.base}/data/1.json jq='.items[].name'`, `${site.base}/data/2.json jq='.items[] | $min'`, `${site.base}/data/3.json jq='.items[] | {name: }'`];
    writeFileSync(file, lines.join('\n'));
    const r = await runSift(['parse', file], { env });
    expect(r.code, r.stderr).toBe(0);
    expect(jsonLines(r.stdout)).toEqual([{ url: `${site.base}/data/1.json`, options: { jq: '.items[].name' } }]);
    expect(r.stderr).toContain(`line 2: invalid: jq: $min is not defined at column 12 ("$min") (${site.base}/data/2.json)\n`);
    expect(r.stderr).toContain(`line 3: invalid: jq: syntax error, unexpected '}' at column 19 ("}") (${site.base}/data/3.json)\n`);
    expect(r.stderr).toMatch(/Check the jq program/);
    expect(r.stderr).toMatch(/^1 target, 2 invalid, 0 duplicates \(read as text\)$/m);
    // The lines batch takes are the lines parse prints: before, parse printed all three and batch ran one.
    const batch = await runSift(['batch', file, '--db', path.join(home, 'parse-jq.db'), '--allow-private', '--json'], { env });
    expect(jsonLines(batch.stdout).map((l) => l.url)).toEqual([`${site.base}/data/1.json`]);

    const only = path.join(home, 'parse-jq-only.txt');
    writeFileSync(only, `${site.base}/data/4.json jq='.foo('\n`);
    const none = await runSift(['parse', only], { env });
    expect(none.code).toBe(2);
    expect(none.stdout).toBe('');
    expect(none.stderr).toMatch(/^line 1: invalid: jq: syntax error/);

    const flag = await runSift(['parse', only, '--jq', '.['], { env });
    expect(flag.code).toBe(2);
    expect(flag.stderr).toMatch(/^sift parse: --jq: syntax error.*\n {2}Check the jq program/);
  }, 120_000);
});
