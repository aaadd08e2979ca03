import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { runSift } from '../helpers/cli';

// Through the built CLI (node scripts/build-cli.mjs), as a user runs it.
const dir = mkdtempSync(path.join(tmpdir(), 'sift-cli-bad-input-'));
const env = { HOME: dir, XDG_DATA_HOME: dir, APPDATA: dir };
const sift = (...args: string[]) => runSift(args, { env, cwd: dir });

beforeAll(() => {
  writeFileSync(path.join(dir, 'notes.txt'), 'Error: disk full\nall fine\nerror: retry\n');
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('sift extract FILE --jq on a JSON file larger than jq here reads', () => {
  it('says what to do with a local file, not to fetch it in mode raw', async () => {
    // 250,000 records, 42 MB: past what jq's 256 MB holds (a 33 MB file of the same records reads).
    const items = Array.from({ length: 250_000 }, (_, i) => ({ id: i, name: `item number ${i}`, tags: ['a', 'b', 'c'], v: i / 7, desc: 'x'.repeat(80) }));
    writeFileSync(path.join(dir, 'big.json'), JSON.stringify({ items }));
    const r = await sift('extract', 'big.json', '--jq', '.items | length');
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^sift extract: big\.json: jq: out of memory: jq has 256 MB here, and reading a JSON document of \d+ MB \(\d\.\d million values\) takes more\n/);
    expect(r.stderr).not.toMatch(/mode raw|fetch this one/);
    expect(r.stderr).toContain('run jq itself on the file');
  }, 120_000);
});

describe('sift extract FILE --jq on a flat document of many small numbers', () => {
  it('says the document is too large for jq here, with its size, not that it may be nested too deeply', async () => {
    // 900,000 pairs, 2.7 million values in 11 MB, two levels deep: jq's 256 MB held about
    // 2 million values, and `length` failed with the nesting message and hint.
    const pairs = Array.from({ length: 900_000 }, (_, i) => `[${i % 1000}.${i % 97},${i % 777}]`);
    writeFileSync(path.join(dir, 'pairs.json'), `[${pairs.join(',')}]`);
    const r = await sift('extract', 'pairs.json', '--jq', 'length');
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^sift extract: pairs\.json: jq: out of memory: jq has 256 MB here, and reading a JSON document of 11 MB \(2\.7 million values\) takes more\n/);
    expect(r.stderr).not.toMatch(/nested|up to about 30 MB/);
    expect(r.stderr).toContain('run jq itself on the file');
  }, 120_000);
  it('tells a document piped to stdin to pipe it to jq itself, not to run jq on a file it has not got', async () => {
    const pairs = Array.from({ length: 900_000 }, (_, i) => `[${i % 1000}.${i % 97},${i % 777}]`);
    const r = await runSift(['extract', '-', '--jq', 'length'], { env, cwd: dir, input: `[${pairs.join(',')}]` });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^sift extract: -: jq: out of memory: jq has 256 MB here, and reading a JSON document of 11 MB/);
    expect(r.stderr).toContain('pipe it to jq itself (… | jq PROGRAM)');
    expect(r.stderr).not.toMatch(/on the file|mode raw/);
  }, 120_000);
  it('keeps the nesting message for a deep document, with how deep it is', async () => {
    writeFileSync(path.join(dir, 'deep.json'), `${'{"a":'.repeat(2000)}1${'}'.repeat(2000)}`);
    const r = await sift('extract', 'deep.json', '--jq', '.');
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^sift extract: deep\.json: jq: out of memory or stack: the document is nested 2000 levels deep/);
    expect(r.stderr).not.toMatch(/program may build/);
  }, 120_000);
  it('blames the program, not the document, where a small flat document ran out of memory', async () => {
    writeFileSync(path.join(dir, 'small.json'), '{"n":3}');
    const r = await sift('extract', 'small.json', '--jq', '[range(1e9)] | length');
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^sift extract: small\.json: jq: out of memory: the program built a value too large for jq here/);
    expect(r.stderr).not.toMatch(/nested/);
  }, 120_000);
});

describe('a --grep that is its inline flags alone', () => {
  it('is refused as an empty --grep is, not taken as a pattern that keeps every line', async () => {
    for (const grep of ['(?i)', '(?m)', '(?is)']) {
      const r = await sift('extract', 'notes.txt', '--grep', grep);
      expect(r.code, grep).toBe(2);
      expect(r.stdout, grep).toBe('');
      expect(r.stderr, grep).toBe(`sift extract: --grep: grep "${grep}" is not a valid regular expression: nothing follows ${grep}; write the pattern after it, as ${grep}error\n`);
    }
  });
});

describe('a --grep with (?m) or (?s) at its start, as Python writes them', () => {
  it('is taken with their meaning, alone or with (?i)', async () => {
    // Each line is matched alone: ^ and $ are its ends, with (?m) or without.
    expect((await sift('extract', 'notes.txt', '--grep', '(?m)^error')).stdout).toBe('error: retry\n');
    expect((await sift('extract', 'notes.txt', '--grep', '(?s)disk.full')).stdout).toBe('Error: disk full\n');
    expect((await sift('extract', 'notes.txt', '--grep', '(?im)^error')).stdout).toBe('Error: disk full\nerror: retry\n');
    expect((await sift('extract', 'notes.txt', '--grep', '(?i)(?s)^ERROR')).stdout).toBe('Error: disk full\nerror: retry\n');
  });
  it('a flag JavaScript has no equal for, (?x), is still refused with what it takes', async () => {
    const r = await sift('extract', 'notes.txt', '--grep', '(?x)error');
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('(?i), (?m) and (?s) only at the very start');
  });
});

describe('--pages with an empty part', () => {
  it('names the empty part and what to write, not only the general shape', async () => {
    const cases: [string, string][] = [
      ['1,,2', 'pages "1,,2": there is nothing between two commas; write 1,2'],
      [',3', 'pages ",3": there is nothing before the first comma; write 3'],
      ['2-4,', 'pages "2-4,": there is nothing after the last comma; write 2-4'],
      ['1,,2,', 'pages "1,,2,": there is nothing in more than one place between or around its commas; write 1,2'],
    ];
    for (const [pages, why] of cases) {
      const r = await sift('extract', 'notes.txt', '--pages', pages);
      expect(r.code, pages).toBe(2);
      expect(r.stderr, pages).toBe(`sift extract: --pages: ${why}\n`);
    }
  });
});

describe('an option that needs the page on the web, given to sift extract', () => {
  it('--render (and --recover) are refused with where they work, not taken and left undone', async () => {
    // A saved app shell: Chromium would run its script; a file is read as saved.
    writeFileSync(path.join(dir, 'shell.html'), '<!doctype html><html><head><title>App</title><script src="/app.js"></script></head><body><div id="root"></div></body></html>');
    for (const render of ['always', 'auto', 'never']) {
      const r = await sift('extract', 'shell.html', '--render', render, '--json');
      expect(r.code, render).toBe(2);
      expect(r.stdout, render).toBe('');
      expect(r.stderr, render).toBe('sift extract: --render needs a URL: a local file is read as it was saved, not run in Chromium; sift fetch URL --render always renders the page from the web\n');
    }
    const recover = await sift('extract', 'shell.html', '--recover');
    expect(recover.code).toBe(2);
    expect(recover.stderr).toBe('sift extract: --recover needs a URL; local files have no archived copy\n');
  });
});

describe('the options of commands that fetch or store, given to sift extract', () => {
  it('--db, --allow-private and --allow-host are refused with why and where they work, not taken and left undone', async () => {
    const cases = [
      [['--db', 'extract.db'], '--db is not for sift extract: it reads local files and stores nothing; sift batch --db PATH stores its results in that database'],
      [['--allow-private'], '--allow-private is not for sift extract: it reads local files and fetches nothing, so no address is checked; sift fetch URL --allow-private fetches from a private address'],
      [['--allow-host', 'intranet.example'], '--allow-host is not for sift extract: it reads local files and fetches nothing, so no host is checked; sift fetch URL --allow-host HOST fetches from that host'],
    ] as const;
    for (const [flags, why] of cases) {
      const r = await sift('extract', 'notes.txt', ...flags);
      expect(r.code, flags[0]).toBe(2);
      expect(r.stdout, flags[0]).toBe('');
      expect(r.stderr, flags[0]).toBe(`sift extract: ${why}\n`);
    }
    expect(existsSync(path.join(dir, 'extract.db'))).toBe(false);
    const help = (await sift('extract', '--help')).stdout;
    for (const flag of ['--db', '--allow-private', '--allow-host']) expect(help).not.toContain(flag);
    expect(help).toContain('--log PATH');
  });

  it('--log appends a JSON line per file, as sift fetch does per target, with its outcome and never its path', async () => {
    const log = path.join(dir, 'logs', 'extract.log');
    const r = await sift('extract', 'notes.txt', 'missing.txt', '--log', log);
    expect(r.code).toBe(2);
    const lines = readFileSync(log, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines).toMatchObject([
      { msg: 'extract', caller: 'cli', outcome: 'ok', status: 200 },
      { msg: 'extract', caller: 'cli', outcome: 'bad_input', status: 400 },
    ]);
    for (const line of lines) expect(typeof line.ms === 'number' && typeof line.time === 'string').toBe(true);
    expect(readFileSync(log, 'utf8')).not.toMatch(/notes|missing/);
  });

  it('a --log that cannot be written is said before any file is read, not lost or failed as a bug', async () => {
    const inTheWay = path.join(dir, 'a-file');
    writeFileSync(inTheWay, '');
    for (const cmd of ['extract', 'fetch'] as const) {
      const r = await sift(cmd, cmd === 'extract' ? 'notes.txt' : 'http://127.0.0.1:9/', '--log', path.join(inTheWay, 'run.log'));
      expect(r.code, cmd).toBe(2);
      expect(r.stdout, cmd).toBe('');
      expect(r.stderr, cmd).toBe(`sift ${cmd}: cannot write the log ${path.join(inTheWay, 'run.log')} (ENOTDIR): pass --log with a path you can write to\n`);
    }
  });
});
