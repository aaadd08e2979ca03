import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { parse as parseCsv } from 'csv-parse/sync';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SiftError } from '../../src/shared/errors';
import { parseList } from '../../src/shared/urllist/index';
import { formatOptionsLine } from '../../src/shared/urllist/options';
import type { Job, Options, TargetStatus } from '../../src/shared/types';
import { CSV_COLUMNS, exportJob, exportOptionsFromCli, type ExportOptions, type ExportSource, type ManifestLine } from '../../src/main/export/index';
import { folderSink } from '../../src/main/export/layout';
import { marked, type Tokens } from 'marked';

const JOB: Job = {
  id: 'job-7f3a',
  caller: 'cli',
  callerClass: 'cli/batch',
  status: 'partial',
  error: '',
  targetsTotal: 0,
  targetsDone: 0,
  targetsFailed: 0,
  createdAt: 1_700_000_000_000,
  updatedAt: 1_700_000_000_000,
  leaseExpires: 1_800_000_000_000,
};

interface Spec {
  url: string;
  title?: string;
  status?: TargetStatus['status'];
  options?: Options;
  content?: string;
  meta?: Record<string, unknown>;
  error?: string;
  hint?: string;
}

/** An ExportSource that builds each target when it is read, as the store's cursor does. */
function source(specs: readonly Spec[]): Omit<ExportSource, 'targets'> & { targets(): Iterable<TargetStatus> } {
  return {
    job: { ...JOB, targetsTotal: specs.length },
    count: () => specs.length,
    *targets() {
      for (const [idx, s] of specs.entries()) {
        const status = s.status ?? 'done';
        const t: TargetStatus = {
          idx,
          url: s.url,
          options: s.options,
          status,
          error: s.error ?? (status === 'failed' ? 'HTTP 404: not found' : ''),
          hint: s.hint ?? (status === 'failed' ? 'Check the URL.' : ''),
          bytes: s.content ? Buffer.byteLength(s.content) : 0,
          errorStatus: status === 'failed' ? 404 : 0,
          reason: status === 'failed' ? 'soft404' : '',
          title: s.title ?? '',
          startedAt: null,
          finishedAt: null,
        };
        if (status === 'done') t.result = { content: s.content ?? `content of ${idx}`, meta: s.meta };
        yield t;
      }
    },
  };
}

const HOSTILE_SPECS: Spec[] = [
  { url: 'https://a.example/1', title: '../../etc/passwd' },
  { url: 'https://a.example/2', title: 'CON' },
  { url: 'https://a.example/3', title: 'aux.txt', options: { mode: 'text' } },
  { url: 'https://a.example/4', title: 'nul\u0000byte\u0001\u001f\u007f' },
  { url: 'https://a.example/5', title: 'T'.repeat(300) },
  { url: 'https://a.example/6', title: '😀 emoji 👩‍👩‍👧‍👦' },
  { url: 'https://a.example/7', title: 'Report' },
  { url: 'https://a.example/8', title: 'report' },
  { url: 'https://a.example/9', title: 'Report' },
  { url: 'https://a.example/10?q=../../x', title: '' },
  { url: 'https://a.example/11', title: 'manifest.jsonl', options: { jq: '.items[] | .name' }, content: '[\n  "a"\n]' },
  { url: 'https://a.example/12', title: 'json doc', content: '{"k": 1}' },
  { url: 'https://a.example/13', title: 'page html', options: { mode: 'html' }, content: '<p>hi</p>' },
  { url: 'https://a.example/14', title: 'failed', options: { mode: 'text' } },
  { url: 'https://b.example/dead', status: 'failed', options: { pages: '1-5', grep: 'net revenue', context: true } },
  { url: 'https://b.example/q', status: 'failed', options: { question: 'what does it "cost"?', mode: 'text' } },
  { url: 'https://b.example/jq', status: 'pending', options: { jq: ".items[] | .name | select(. == \"it's\")", recover: true, context: false } },
  { url: 'https://b.example/running', status: 'running' },
  { url: 'https://a.example/15', title: '=HYPERLINK("http://evil")', content: 'formula title' },
  { url: 'https://a.example/16', title: 'quote "and" comma, and\nnewline', content: 'x' },
];

/** Every file under dir, as relative paths with '/'. */
function tree(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string, rel: string): void => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const r = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory()) walk(path.join(d, e.name), r);
      else out.push(r);
    }
  };
  walk(dir, '');
  return out.sort();
}

function manifestOf(dir: string): ManifestLine[] {
  return readFileSync(path.join(dir, 'manifest.jsonl'), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as ManifestLine);
}

/** A failed.txt line read back as SPEC §6 writes list lines: URL, then key or key=value (quoted with " or '). */
function readListLine(line: string): { url: string; options: Record<string, string | boolean> } {
  const m = /^(\S+)((?:\s+[a-z]+(?:=(?:"(?:[^"\\]|\\.)*"|'[^']*'|[^\s"']+))?)*)$/.exec(line);
  if (!m) throw new Error(`malformed list line: ${line}`);
  const options: Record<string, string | boolean> = {};
  for (const o of (m[2] ?? '').matchAll(/([a-z]+)(?:=("(?:[^"\\]|\\.)*"|'[^']*'|[^\s"']+))?/g)) {
    const [, key = '', raw] = o;
    if (raw === undefined) options[key] = true;
    else if (raw === 'false') options[key] = false;
    else if (raw.startsWith('"')) options[key] = raw.slice(1, -1).replace(/\\(.)/g, '$1');
    else if (raw.startsWith("'")) options[key] = raw.slice(1, -1);
    else options[key] = raw;
  }
  return { url: m[1] ?? '', options };
}

let root: string;
beforeEach(() => {
  root = mkdtempSync(path.join(os.tmpdir(), 'sift-export-'));
});
afterEach(() => {
  rmSync(root, { recursive: true, force: true });
});

async function run(specs: readonly Spec[], opts: Omit<ExportOptions, 'out'> & { out?: string }) {
  return exportJob(source(specs), { out: path.join(root, 'out'), ...opts });
}

describe('folder export', () => {
  it('writes one file per done target under safe unique names, all inside the folder, and a manifest that matches the files', async () => {
    const s = await run(HOSTILE_SPECS, { format: 'folder', includeFailed: true });
    expect(s.path).toBe(path.join(root, 'out', 'sift-job-7f3a'));
    // Nothing but the export folder appeared anywhere under the temp root.
    expect(tree(root).every((f) => f.startsWith('out/sift-job-7f3a/'))).toBe(true);
    const files = tree(s.path);
    const manifest = manifestOf(s.path);
    const withFile = manifest.filter((m) => m.file !== null);
    expect(files).toEqual([...withFile.map((m) => m.file ?? ''), 'failed.txt', 'manifest.jsonl'].sort());
    expect(new Set(files.map((f) => f.toLowerCase())).size).toBe(files.length);
    for (const m of withFile) {
      const file = m.file ?? '';
      expect(file.length).toBeLessThanOrEqual(120);
      expect(file).not.toMatch(/^(con|prn|aux|nul|com\d|lpt\d)(\.|$)/i);
      expect(statSync(path.join(s.path, file)).size).toBe(m.bytes);
    }
    expect(manifest.map((m) => m.idx)).toEqual(HOSTILE_SPECS.map((_, i) => i));
    // Asked to include failed targets: each gets a file saying what went wrong.
    const dead = manifest.find((m) => m.url === 'https://b.example/dead')!;
    expect(dead).toMatchObject({ status: 'failed', error: 'HTTP 404: not found', hint: 'Check the URL.', reason: 'soft404' });
    expect(dead.file).toMatch(/\(failed\)\.txt$/);
    expect(readFileSync(path.join(s.path, dead.file!), 'utf8')).toContain('failed: HTTP 404: not found\nCheck the URL.');
    expect(s).toMatchObject({ targets: HOSTILE_SPECS.length, failed: 4, files: files.length });
    expect(s.bytes).toBe(files.reduce((n, f) => n + statSync(path.join(s.path, f)).size, 0));
  });

  it('picks the file kind from the mode: markdown .md, text .txt, jq/meta/JSON content .json, html .html', async () => {
    const s = await run(HOSTILE_SPECS, { format: 'folder' });
    const byUrl = new Map(manifestOf(s.path).map((m) => [m.url, m.file]));
    expect(byUrl.get('https://a.example/1')).toMatch(/\.md$/);
    expect(byUrl.get('https://a.example/3')).toBe('_aux.txt.txt');
    expect(byUrl.get('https://a.example/11')).toBe('manifest.jsonl.json');
    expect(byUrl.get('https://a.example/12')).toBe('json doc.json');
    expect(byUrl.get('https://a.example/13')).toBe('page html.html');
    // failed.txt is the export's own file; the target named "failed" yields it.
    expect(byUrl.get('https://a.example/14')).toBe('failed (2).txt');
    expect(readFileSync(path.join(s.path, 'json doc.json'), 'utf8')).toBe('{"k": 1}');
  });

  it('writes a text document fetched in markdown mode as .txt, and a feed (read into Markdown) and a Markdown file as .md', async () => {
    const s = await run(
      [
        { url: 'https://a.example/prices.csv', title: 'item,price', content: 'item,price\ntea,300\n', meta: { kind: 'text', content_type: 'text/csv' } },
        { url: 'https://a.example/feed', title: 'Harbour Notes', content: '# Harbour Notes', meta: { kind: 'text', content_type: 'application/rss+xml', feed: 'rss' } },
        { url: 'https://a.example/README.md', title: 'Read me', content: '# Read me', meta: { kind: 'text', content_type: 'text/markdown' } },
        { url: 'https://a.example/page', title: 'A page', content: '# A page', meta: { kind: 'html', content_type: 'text/html' } },
      ],
      { format: 'folder' },
    );
    expect(manifestOf(s.path).map((m) => m.file)).toEqual(['item,price.txt', 'Harbour Notes.md', 'Read me.md', 'A page.md']);
  });

  it('lists every target in the manifest, failed ones with status, error and hint, whether or not failed ones are included', async () => {
    const s = await run(HOSTILE_SPECS, { format: 'folder' });
    const manifest = manifestOf(s.path);
    expect(manifest.map((m) => m.idx)).toEqual(HOSTILE_SPECS.map((_, i) => i));
    const notDone = manifest.filter((m) => m.status !== 'done');
    expect(notDone).toHaveLength(4);
    expect(notDone.every((m) => m.file === null)).toBe(true);
    expect(manifest.find((m) => m.url === 'https://b.example/dead')).toMatchObject({ status: 'failed', file: null, error: 'HTTP 404: not found', hint: 'Check the URL.' });
    // Without includeFailed a failed target has no file: the content holds only results.
    expect(tree(s.path)).toHaveLength(manifest.length - notDone.length + 2);
  });

  it("lists each done target's warnings in the manifest, as the CSV summary does", async () => {
    const s = await run(
      [
        { url: 'https://a.example/short', title: 'Short', meta: { warnings: ['thin'] } },
        { url: 'https://a.example/scan.pdf', title: 'Scan', meta: { warnings: ['no_text', 'pages_ignored'] } },
        { url: 'https://a.example/fine', title: 'Fine' },
        { url: 'https://b.example/dead', status: 'failed' },
      ],
      { format: 'folder' },
    );
    // Before, only the CSV said so: a script reading the manifest could not tell a thin page from a full one.
    expect(manifestOf(s.path).map((m) => [m.url, m.warnings])).toEqual([
      ['https://a.example/short', ['thin']],
      ['https://a.example/scan.pdf', ['no_text', 'pages_ignored']],
      ['https://a.example/fine', []],
      ['https://b.example/dead', []],
    ]);
  });

  it('with fileKind json writes every target as one JSON object', async () => {
    const s = await run(HOSTILE_SPECS.slice(0, 3), { format: 'folder', fileKind: 'json', includeMeta: true });
    for (const m of manifestOf(s.path)) {
      const obj = JSON.parse(readFileSync(path.join(s.path, m.file ?? ''), 'utf8')) as Record<string, unknown>;
      expect(obj).toMatchObject({ url: m.url, content: `content of ${m.idx}` });
      expect(m.file).toMatch(/\.json$/);
    }
  });

  it('writes failed.txt as a list Sift reads back: exactly the failed and unfinished targets with their options', async () => {
    const s = await run(HOSTILE_SPECS, { format: 'folder' });
    const lines = readFileSync(path.join(s.path, 'failed.txt'), 'utf8').split('\n').filter(Boolean);
    const notDone = HOSTILE_SPECS.filter((x) => x.status && x.status !== 'done');
    expect(lines.map(readListLine)).toEqual(notDone.map((x) => ({ url: x.url, options: { ...x.options } })));
    expect(lines[0]).toBe('https://b.example/dead pages=1-5 grep="net revenue" context');
    // The shared list parser (what `sift parse` runs) reads it back to exactly these targets.
    const parsed = parseList(readFileSync(path.join(s.path, 'failed.txt'), 'utf8'), { filename: 'failed.txt' });
    expect(parsed.invalid).toEqual([]);
    expect(parsed.targets.map((t) => ({ url: t.url, options: t.options ?? {} }))).toEqual(notDone.map((x) => ({ url: x.url, options: x.options ?? {} })));
  });

  it('puts the meta in YAML front matter that parses back to the same values, hostile strings included', async () => {
    const require = createRequire(__filename);
    const yaml = require('js-yaml') as { load(s: string): unknown };
    const meta = { title: 'a: "b"\n---\nc', note: 'line\u2028sep\u0085nel\u007fdel', nested: { k: ['x', 1, true, null] }, 'odd key: #': 'v', status: 200 };
    const s = await run([{ url: 'https://a.example/m', title: 'meta', meta, content: '# body\n' }], { format: 'folder', includeMeta: true });
    const text = readFileSync(path.join(s.path, 'meta.md'), 'utf8');
    const m = /^---\n([\s\S]*?)\n---\n\n([\s\S]*)$/.exec(text);
    expect(m).not.toBeNull();
    expect(yaml.load(m?.[1] ?? '')).toEqual({ url: 'https://a.example/m', title: 'meta', note: meta.note, nested: meta.nested, 'odd key: #': 'v', status: 200 });
    expect(m?.[2]).toBe('# body\n');
  });

  it('never overwrites an earlier export folder', async () => {
    const a = await run(HOSTILE_SPECS.slice(0, 2), { format: 'folder' });
    const b = await run(HOSTILE_SPECS.slice(0, 2), { format: 'folder' });
    expect(b.path).toBe(`${a.path} (2)`);
    expect(tree(a.path)).toEqual(tree(b.path));
  });

  it('two exports of one job into one folder at once: the second takes the next free name', async () => {
    // Both are past choosing their folder name (it was free for each) before either writes a
    // target; the first to finish takes it, and the other must not fail ENOTEMPTY.
    const specs = HOSTILE_SPECS.slice(0, 3);
    let entered = 0;
    let open: () => void = () => {};
    const bothIn = new Promise<void>((resolve) => (open = resolve));
    const gated = (): ExportSource => ({
      ...source(specs),
      async *targets() {
        if (++entered === 2) open();
        await bothIn;
        yield* source(specs).targets();
      },
    });
    const out = path.join(root, 'out');
    const [a, b] = await Promise.all([exportJob(gated(), { format: 'folder', out }), exportJob(gated(), { format: 'folder', out })]);
    const base = path.join(out, `sift-${JOB.id}`);
    expect([a.path, b.path].sort()).toEqual([base, `${base} (2)`]);
    expect(readdirSync(out).sort()).toEqual([`sift-${JOB.id}`, `sift-${JOB.id} (2)`]);
    expect(tree(a.path)).toEqual(tree(b.path));
    expect(manifestOf(a.path)).toEqual(manifestOf(b.path));
  });
});

describe('zip export', () => {
  it('passes unzip -t and holds exactly the folder layout with the same bytes', async (ctx) => {
    if (spawnSync('unzip', ['-v']).status !== 0) ctx.skip('unzip is not installed: apt-get install -y unzip');
    const folder = await run(HOSTILE_SPECS, { format: 'folder', includeFailed: true, includeMeta: true });
    const zip = await run(HOSTILE_SPECS, { format: 'zip', includeFailed: true, includeMeta: true });
    expect(zip.path).toBe(path.join(root, 'out', 'sift-job-7f3a.zip'));
    expect(statSync(zip.path).size).toBe(zip.bytes);
    const test = spawnSync('unzip', ['-t', zip.path], { encoding: 'utf8' });
    expect(test.status, test.stdout + test.stderr).toBe(0);
    const x = path.join(root, 'unzipped');
    mkdirSync(x);
    // -UU: take the UTF-8 names as stored, not re-encoded by the locale.
    execFileSync('unzip', ['-q', '-UU', zip.path, '-d', x]);
    expect(tree(x)).toEqual(tree(folder.path).map((f) => `sift-job-7f3a/${f}`));
    for (const f of tree(folder.path)) {
      expect(readFileSync(path.join(x, 'sift-job-7f3a', f)).equals(readFileSync(path.join(folder.path, f))), f).toBe(true);
    }
    // One file is written, the zip; the folder's files are what it holds. The dialog and the CLI
    // said "8 files" of a zip written alone.
    expect(zip.files).toBe(1);
    expect(zip.entries).toBe(folder.files);
    expect(folder.entries).toBeUndefined();
  });

  it('writes a zip of 3,000 small results in gathered writes, every entry in the order written', async (ctx) => {
    if (spawnSync('unzip', ['-v']).status !== 0) ctx.skip('unzip is not installed: apt-get install -y unzip');
    // yazl wrote each entry's header, data and trailer to the file as they came, several
    // writes of a few dozen bytes per entry through a stream pipeline of its own: a zip of
    // 100,000 small results took 23 s (JSONL: 2.7 s), 8.8 s of it in the kernel.
    const specs = Array.from({ length: 3_000 }, (_, i) => ({ url: `https://a.example/${i}`, title: `Page ${i}`, content: `text of page ${i}` }));
    const writes = [vi.spyOn(fs, 'write'), vi.spyOn(fs, 'writev')];
    let zip: Awaited<ReturnType<typeof run>>;
    let calls: number;
    try {
      zip = await run(specs, { format: 'zip' });
    } finally {
      // Counted before mockRestore, which clears the calls.
      calls = writes.reduce((n, w) => n + w.mock.calls.length, 0);
      for (const w of writes) w.mockRestore();
    }
    // 3,000 entries of ~100 bytes with their records, the manifest and the central
    // directory: under 1 MB, 13 writes of OutFile's 64 KB (before: 5,891).
    expect(calls, `${calls} writes for ${zip.bytes} bytes`).toBeLessThan(60);
    const test = spawnSync('unzip', ['-t', zip.path], { encoding: 'utf8' });
    expect(test.status, test.stdout + test.stderr).toBe(0);
    const x = path.join(root, 'unzipped');
    mkdirSync(x);
    execFileSync('unzip', ['-q', '-UU', zip.path, '-d', x]);
    const names = tree(x);
    expect(names).toHaveLength(zip.entries ?? 0);
    expect(names).toContain('sift-job-7f3a/manifest.jsonl');
    const manifest = manifestOf(path.join(x, 'sift-job-7f3a'));
    expect(manifest.map((m) => m.url)).toEqual(specs.map((t) => t.url));
    // The central directory is in the order written.
    const listed = execFileSync('unzip', ['-Z1', zip.path], { encoding: 'utf8' }).trim().split('\n');
    expect(listed.slice(0, specs.length)).toEqual(manifest.map((m) => `sift-job-7f3a/${m.file}`));
    for (const m of manifest) expect(readFileSync(path.join(x, 'sift-job-7f3a', m.file ?? ''), 'utf8')).toContain(`text of page ${m.idx}`);
  });

  it('writes to the file named by out when it ends in .zip', async () => {
    const out = path.join(root, 'nested', 'mine.zip');
    const s = await run(HOSTILE_SPECS.slice(0, 3), { format: 'zip', out });
    expect(s.path).toBe(out);
    expect(readdirSync(path.dirname(out))).toEqual(['mine.zip']);
  });
});

describe('JSONL and CSV exports', () => {
  it('writes one JSON object per target with content, meta, error and hint', async () => {
    const s = await run(HOSTILE_SPECS, { format: 'jsonl', includeFailed: true });
    const rows = readFileSync(s.path, 'utf8').trimEnd().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(rows).toHaveLength(HOSTILE_SPECS.length);
    expect(rows[0]).toEqual({ idx: 0, url: 'https://a.example/1', options: {}, status: 'done', content: 'content of 0', meta: {}, error: '', hint: '', reason: '' });
    expect(rows[14]).toEqual({ idx: 14, url: 'https://b.example/dead', options: { pages: '1-5', grep: 'net revenue', context: true }, status: 'failed', content: null, meta: null, error: 'HTTP 404: not found', hint: 'Check the URL.', reason: 'soft404' });
    // The JSONL lists every target whatever includeFailed says: it is a listing, not content.
    const plain = await run(HOSTILE_SPECS, { format: 'jsonl', out: path.join(root, 'plain.jsonl') });
    expect(readFileSync(plain.path, 'utf8')).toBe(readFileSync(s.path, 'utf8'));
  });

  it('keeps each target on one line for readers that split at NEL, LINE and PARAGRAPH SEPARATOR too', async () => {
    const content = 'one\u2028two\u2029three\u0085four';
    const s = await run([{ url: 'https://a.example/sep', title: 'sep\u2028title', content }], { format: 'jsonl', out: path.join(root, 'separators.jsonl') });
    const raw = readFileSync(s.path, 'utf8');
    expect(raw).not.toMatch(/[\u0085\u2028\u2029]/);
    // As Python's str.splitlines() reads it: one record, which parses back to the same text.
    // eslint-disable-next-line no-control-regex -- the file and group separators splitlines() splits at
    const lines = raw.split(/\r\n|[\n\r\v\f\x1c-\x1e\u0085\u2028\u2029]/).filter(Boolean);
    expect(lines).toHaveLength(1);
    expect((JSON.parse(lines[0] as string) as { content: string }).content).toBe(content);
  });

  it('writes a CSV summary of every target, failed ones included without asking, that csv-parse reads back to the same rows', async () => {
    const s = await run(HOSTILE_SPECS, { format: 'csv', out: path.join(root, 'summary.csv') });
    const raw = readFileSync(s.path, 'utf8');
    expect(raw.startsWith('\ufeffidx,url,options,status,title,bytes,error,hint,reason,warnings\r\n')).toBe(true);
    const rows = parseCsv(raw, { bom: true, columns: true }) as Record<string, string>[];
    const expected = [...source(HOSTILE_SPECS).targets()].map((t) => {
      // A title's control characters are left out (a NUL or an ESC in a cell).
      const title = t.idx === 3 ? 'nulbyte' : t.title || t.url;
      return {
        idx: String(t.idx),
        url: t.url,
        // As a list line writes them ('mode=text'), so one URL asked two ways is two rows told apart.
        options: formatOptionsLine({ url: '', options: t.options }).trim(),
        status: t.status,
        // A cell a spreadsheet would evaluate is written with a leading apostrophe.
        title: /^[=+\-@\t\r]/.test(title) ? `'${title}` : title,
        bytes: String(t.status === 'done' ? Buffer.byteLength(t.result?.content ?? '') : 0),
        // One the job had not reached says so, as its file does.
        error: t.status === 'done' || t.status === 'failed' ? t.error : 'the job had not reached this target when it was exported',
        hint: t.status === 'done' || t.status === 'failed' ? t.hint : 'Run the rest again to fetch it.',
        // The CSV carries the reason of every failed target (issue 12).
        reason: t.status === 'failed' ? 'soft404' : '',
        warnings: '',
      };
    });
    expect(Object.keys(rows[0] ?? {})).toEqual([...CSV_COLUMNS]);
    expect(rows).toEqual(expected);
  });
});

describe('the CSV summary in a spreadsheet', () => {
  it('starts no cell with a formula, whether the spreadsheet splits cells at commas, semicolons or tabs, and reads back as written', async () => {
    const specs: Spec[] = [
      { url: 'https://a.example/1', title: 'Prices;=1+2' },
      { url: 'https://a.example/2', title: 'Stock\t@SUM(A1:A9)' },
      { url: 'https://a.example/3', title: '-2+3 degrees; +4' },
      { url: 'https://a.example/4', title: 'Line one\n=2+2' },
      // Full-width signs, which csv-stringify escapes at a cell's start as Excel may read them as = + - @.
      { url: 'https://a.example/5', title: 'Tarifs;＝1+2\t＠SUM(A1)' },
      { url: 'https://b.example/dead', status: 'failed', error: 'refused;=HYPERLINK(1)', hint: 'Try later;-1' },
    ];
    const raw = readFileSync((await run(specs, { format: 'csv' })).path, 'utf8');
    // Excel takes the list separator of the region (';' in much of Europe); LibreOffice asks, with tab among the choices.
    // Read so, a field's opening quote comes mid-cell and is no quote: a line break in it ends the row.
    for (const delimiter of [',', ';', '\t']) {
      const cells = (parseCsv(raw, { bom: true, delimiter, quote: delimiter === ',' ? '"' : false, relax_column_count: true }) as string[][]).flat()
        .flatMap((c) => (delimiter === ',' ? [c] : c.split(/\r\n|\r|\n/)))
        .map((c) => c.replace(/^[ \t]+/, ''));
      expect(cells.filter((c) => /^[=+\-@＝＋－＠]/.test(c)), JSON.stringify(delimiter)).toEqual([]);
    }
    const rows = parseCsv(raw, { bom: true, columns: true }) as Record<string, string>[];
    // Read as CSV, the words are all there: an apostrophe stands before each would-be formula.
    expect(rows.map((r) => r['title'])).toEqual(["Prices;'=1+2", "Stock\t'@SUM(A1:A9)", "'-2+3 degrees; '+4", "Line one\n'=2+2", "Tarifs;'＝1+2\t'＠SUM(A1)", 'https://b.example/dead']);
    expect(rows[5]).toMatchObject({ error: "refused;'=HYPERLINK(1)", hint: "Try later;'-1" });
    // What a spreadsheet would not run stays as it was.
    expect(rows.map((r) => r['url'])).toEqual(specs.map((sp) => sp.url));
  });
});

describe('combined Markdown export', () => {
  it('starts with a table of contents whose every link lands on a section, in target order', async () => {
    const s = await run(HOSTILE_SPECS, { format: 'combined-md', includeFailed: true });
    expect(s.path).toBe(path.join(root, 'out', 'sift-job-7f3a.md'));
    const md = readFileSync(s.path, 'utf8');
    const links = [...md.matchAll(/^- \[.*\]\(#(target-\d+)\)/gm)].map((m) => m[1]);
    const anchors = [...md.matchAll(/^<a id="(target-\d+)"><\/a>$/gm)].map((m) => m[1]);
    expect(links).toHaveLength(HOSTILE_SPECS.length);
    expect(anchors).toEqual(links);
    expect(md.indexOf('## Contents')).toBeLessThan(md.indexOf('<a id="target-1">'));
    // JSON content is fenced so it renders verbatim; a failed target shows its error.
    expect(md).toContain('```json\n{"k": 1}\n```');
    expect(md).toContain('> **failed** (soft404): HTTP 404: not found');
  });

  it('says how many targets it leaves out, and why, when failed ones are not included', async () => {
    const specs: Spec[] = [
      { url: 'https://a.example/1', title: 'One' },
      { url: 'https://a.example/2', title: 'Two' },
      { url: 'https://b.example/dead', status: 'failed' },
      { url: 'https://b.example/later', status: 'pending' },
      { url: 'https://b.example/also-later', status: 'pending' },
    ];
    const countLine = (md: string): string => md.split('\n')[2] ?? '';
    const without = readFileSync((await run(specs, { format: 'combined-md' })).path, 'utf8');
    expect(countLine(without)).toBe('2 of 5 targets (1 failed and 2 not fetched, not included)');
    const failedOnly = readFileSync((await run(specs.slice(0, 3), { format: 'combined-md' })).path, 'utf8');
    expect(countLine(failedOnly)).toBe('2 of 3 targets (1 failed, not included)');
    // Every target has a section: the count is all of them, and says how many are not pages.
    const withFailed = readFileSync((await run(specs, { format: 'combined-md', includeFailed: true })).path, 'utf8');
    expect(countLine(withFailed)).toBe('5 targets (1 failed and 2 not fetched)');
    const allDone = readFileSync((await run(specs.slice(0, 1), { format: 'combined-md' })).path, 'utf8');
    expect(countLine(allDone)).toBe('1 target');
  });

  it("nests each result's headings under its section, without the title twice, and leaves code alone", async () => {
    const content = ['# Tide tables', '', 'The soundings.', '', '## Spring tides', '', '```sh', '# not a heading', '```', '', '##### Deep', '###### Deepest'].join('\n');
    const s = await run([{ url: 'https://a.example/tides', title: 'Tide tables', content }], { format: 'combined-md' });
    const md = readFileSync(s.path, 'utf8');
    const section = md.slice(md.indexOf('<a id="target-1">'));
    expect(section).toBe(
      ['<a id="target-1"></a>', '', '## Tide tables', '', '<https://a.example/tides>', '', 'The soundings.', '', '#### Spring tides', '', '```sh', '# not a heading', '```', '', '###### Deep', '###### Deepest', '', ''].join('\n'),
    );
    // The heading's text escaped as Markdown is the title all the same.
    const escaped = await run([{ url: 'https://a.example/t', title: 'The <template> element, C# ###', content: '# The \\<template> element, C# \\###\n\nBody.' }], { format: 'combined-md' });
    expect(readFileSync(escaped.path, 'utf8').match(/template/g)).toHaveLength(2);
  });
});

describe('combined Markdown headings', () => {
  /** The document's outline as a Markdown reader builds it: [depth, text] of every heading. */
  const outline = (md: string): [number, string][] =>
    marked.lexer(md).flatMap((t) => (t.type === 'heading' ? [[(t as Tokens.Heading).depth, (t as Tokens.Heading).text] as [number, string]] : []));

  it('nest a Markdown document whose headings are underlined or indented under its section, as ATX ones do', async () => {
    // A README fetched as text/markdown is exported as it was written: setext headings, an
    // ATX heading indented two spaces, a rule under a list, a table, and code that looks alike.
    const readme = [
      'Project Lantern',
      '===============',
      '',
      'A tool that lights the way.',
      '',
      'Install',
      'the tool',
      '-------',
      '',
      '  ## Usage',
      '',
      '- a list item',
      '---',
      '',
      'a | b',
      '--- | ---',
      '1 | 2',
      '',
      '```',
      'Not a heading',
      '=============',
      '```',
      '',
      '    Indented code',
      '    -------------',
    ].join('\n');
    const s = await run([{ url: 'https://a.example/readme.md', title: 'Project Lantern', content: readme }], { format: 'combined-md' });
    const md = readFileSync(s.path, 'utf8');
    expect(outline(md)).toEqual([
      [1, 'Sift export: job job-7f3a'],
      [2, 'Contents'],
      [2, 'Project Lantern'],
      [4, 'Install the tool'],
      [4, 'Usage'],
    ]);
    // What is not a heading stays as it was.
    expect(md).toContain('- a list item\n---\n');
    expect(md).toContain('a | b\n--- | ---\n1 | 2');
    expect(md).toContain('```\nNot a heading\n=============\n```');
    expect(md).toContain('    Indented code\n    -------------');
  });
});

describe("grep's lines in Markdown", () => {
  it('are fenced as text, in a folder of Markdown files and in the combined file, so they stay one line a line', async () => {
    // Bare, the two lines ran into one paragraph in any Markdown viewer, and the "--" between
    // two groups of context underlined the line above it into a heading.
    const content = ['Tides rise at noon.', 'Tides fall at six.', '--', 'Spring tides are higher.'].join('\n');
    const spec = { url: 'https://a.example/tides', title: 'Tide tables', options: { grep: 'Tides', context: true }, content, meta: { matches: 3 } };
    const combined = readFileSync((await run([spec], { format: 'combined-md' })).path, 'utf8');
    expect(combined).toContain(`\`\`\`text\n${content}\n\`\`\`\n`);
    const folder = await run([spec], { format: 'folder', fileKind: 'md' });
    const file = tree(folder.path).find((f) => f.endsWith('.md'));
    expect(readFileSync(path.join(folder.path, file ?? ''), 'utf8')).toBe(`\`\`\`text\n${content}\n\`\`\`\n`);
  });
});

describe('combined Markdown titles', () => {
  it('drop bidi overrides and isolates, so an override left open cannot turn its line around', async () => {
    const s = await run(
      [
        { url: 'https://a.example/x', title: 'invoice\u202Efdp.exe' },
        { url: 'https://a.example/he', title: 'שלום \u2067עולם\u2069' },
      ],
      { format: 'combined-md', out: path.join(root, 'bidi.md') },
    );
    const md = readFileSync(s.path, 'utf8');
    expect(md).not.toMatch(/[\u202a-\u202e\u2066-\u2069]/);
    expect(md).toContain('## invoicefdp.exe');
    expect(md).toContain('## שלום עולם');
  });
});

describe('export safety', () => {
  it('reports an out path blocked by a file as out_not_writable with a hint', async () => {
    writeFileSync(path.join(root, 'afile'), 'x');
    const err = await run(HOSTILE_SPECS, { format: 'folder', out: path.join(root, 'afile', 'sub') }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SiftError);
    expect(err).toMatchObject({ code: 'out_not_writable' });
    expect((err as SiftError).hint).toMatch(/Choose/);
  });

  it.skipIf(process.getuid?.() === 0)('reports a read-only folder as out_not_writable', async () => {
    const ro = path.join(root, 'ro');
    mkdirSync(ro, { mode: 0o500 });
    const err = await run(HOSTILE_SPECS, { format: 'jsonl', out: ro }).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'out_not_writable', status: 403 });
  });

  it('leaves nothing behind when the source fails halfway, in every format', async () => {
    for (const format of ['folder', 'zip', 'jsonl', 'csv', 'combined-md'] as const) {
      const src = source(HOSTILE_SPECS);
      const broken: ExportSource = {
        ...src,
        *targets() {
          let n = 0;
          for (const t of src.targets()) {
            if (n++ === 5) throw new Error('database is locked');
            yield t;
          }
        },
      };
      const out = path.join(root, format);
      const err = await exportJob(broken, { format, out }).catch((e: unknown) => e);
      expect(err, format).toMatchObject({ code: 'export_failed' });
      // The folder the export made goes too: an empty one looked as if something had been written.
      expect(existsSync(out), format).toBe(false);
    }
  });

  it('stops on abort, cleans up and says so', async () => {
    const ac = new AbortController();
    const err = await exportJob(source(HOSTILE_SPECS), {
      format: 'zip',
      out: path.join(root, 'out'),
      signal: ac.signal,
      onProgress: () => ac.abort(),
    }).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'cancelled' });
    expect(existsSync(path.join(root, 'out'))).toBe(false);
  });

  it('stops at a Cancel while the last step runs (a zip\'s listing and directory, the combined file\'s join), in every format, and leaves nothing behind', async () => {
    for (const format of ['zip', 'combined-md', 'folder', 'jsonl', 'csv'] as const) {
      const ac = new AbortController();
      const out = path.join(root, `late-${format}`);
      // Every target has been read when the bar first reads full: the Cancel lands in the writer's finish.
      const err = await exportJob(source(HOSTILE_SPECS), {
        format,
        out,
        signal: ac.signal,
        onProgress: (done, total) => {
          if (done === total && done > 0) ac.abort();
        },
      }).catch((e: unknown) => e);
      expect(err, format).toMatchObject({ code: 'cancelled' });
      // The folder the export made goes too: an empty one looked as if something had been written.
      expect(existsSync(out), format).toBe(false);
    }
  });

  it('stops a folder export on abort halfway, and leaves nothing behind', async () => {
    const ac = new AbortController();
    const src = source(HOSTILE_SPECS);
    const aborting: ExportSource = {
      ...src,
      *targets() {
        let n = 0;
        for (const t of src.targets()) {
          if (n++ === 10) ac.abort();
          yield t;
        }
      },
    };
    const err = await exportJob(aborting, { format: 'folder', out: path.join(root, 'out'), signal: ac.signal }).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'cancelled' });
    expect(existsSync(path.join(root, 'out'))).toBe(false);
  });

  it('removes the partials a killed export left in its folder, and only those: never a live process\'s, never another file', async () => {
    // The pid of a process that has exited: a "sift export" killed with SIGKILL left these.
    const gone = spawnSync(process.execPath, ['-e', '']).pid!;
    for (const format of ['folder', 'jsonl'] as const) {
      const out = path.join(root, format);
      mkdirSync(out);
      const stale = [`.sift-job-7f3a.jsonl.partial-${gone}-0a1b2c3d`, `.sift-job-7f3a.partial-${gone}-deadbeef`, `.sift-job-7f3a.zip-sift-job-7f3a.partial-${gone}-00ff00ff`];
      writeFileSync(path.join(out, stale[0]!), '{"half":');
      mkdirSync(path.join(out, stale[1]!, 'example.org'), { recursive: true });
      writeFileSync(path.join(out, stale[1]!, 'example.org', 'page.md'), '# half');
      writeFileSync(path.join(out, stale[2]!), 'PK');
      const kept = [
        `.report.csv.partial-${process.pid}-12345678`,
        '.notes.partial',
        `.notes.partial-${gone}-not-hex!`,
        `notes.partial-${gone}-0a1b2c3d`,
        `.notes.partial-${gone}-0a1b2c3d.bak`,
        'notes.txt',
      ];
      for (const name of kept) writeFileSync(path.join(out, name), 'mine');
      const summary = await exportJob(source(HOSTILE_SPECS), { format, out });
      expect(readdirSync(out).sort(), format).toEqual([...kept, path.basename(summary.path)].sort());
      for (const name of kept) expect(readFileSync(path.join(out, name), 'utf8')).toBe('mine');
    }
  });

  it('reports progress from 0 to the total, never backwards', async () => {
    const calls: [number, number][] = [];
    await run(HOSTILE_SPECS, { format: 'jsonl', onProgress: (d, t) => calls.push([d, t]) });
    expect(calls[0]).toEqual([0, HOSTILE_SPECS.length]);
    expect(calls.at(-1)).toEqual([HOSTILE_SPECS.length, HOSTILE_SPECS.length]);
    for (let i = 1; i < calls.length; i++) expect(calls[i]?.[0]).toBeGreaterThanOrEqual(calls[i - 1]?.[0] ?? 0);
  });
});

describe('folder sink', () => {
  it('writes every file with its bytes', async () => {
    const out = path.join(root, 'many');
    const sink = await folderSink(out);
    const files = Array.from({ length: 25 }, (_, i) => ({ name: `f${i}.md`, data: Buffer.from(`file ${i}\n`.repeat(i + 1)) }));
    for (const f of files) await sink.put(f.name, f.data);
    expect(await sink.finish()).toEqual({ bytes: files.reduce((n, f) => n + f.data.length, 0), path: out });
    expect(readdirSync(out).sort()).toEqual(files.map((f) => f.name).sort());
    for (const f of files) expect(readFileSync(path.join(out, f.name))).toEqual(f.data);
  });

  it('reports a write that fails as a SiftError, and abort then leaves nothing', async () => {
    const sink = await folderSink(path.join(root, 'clash'));
    const err = await (async () => {
      // The same name twice: 'wx' makes the second write fail (EEXIST).
      await sink.put('same.md', Buffer.from('one'));
      await sink.put('same.md', Buffer.from('two'));
      for (let i = 0; i < 8; i++) await sink.put(`more-${i}.md`, Buffer.from(String(i)));
      await sink.finish();
    })().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SiftError);
    expect(err).toMatchObject({ code: 'out_not_writable' });
    await sink.abort();
    expect(readdirSync(root)).toEqual([]);
  });
});

describe('exportOptionsFromCli', () => {
  it('maps the CLI format names', () => {
    expect(exportOptionsFromCli('md')).toEqual({ format: 'folder', fileKind: 'md' });
    expect(exportOptionsFromCli('txt')).toEqual({ format: 'folder', fileKind: 'txt' });
    expect(exportOptionsFromCli('json')).toEqual({ format: 'folder', fileKind: 'json' });
    expect(exportOptionsFromCli('jsonl')).toEqual({ format: 'jsonl' });
    expect(exportOptionsFromCli('csv')).toEqual({ format: 'csv' });
    expect(exportOptionsFromCli('combined')).toEqual({ format: 'combined-md' });
    expect(exportOptionsFromCli('zip')).toEqual({ format: 'zip' });
  });

  it('refuses an unknown name with bad_format and the valid names', () => {
    for (const bad of ['pdf', 'MD', '', 'toString', '__proto__']) {
      const err = (() => {
        try {
          exportOptionsFromCli(bad);
        } catch (e) {
          return e;
        }
      })();
      expect(err).toMatchObject({ code: 'bad_format', status: 400 });
      expect((err as SiftError).hint).toContain('md, txt, json');
    }
  });
});
