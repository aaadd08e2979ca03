/**
 * What a user finds in the files `sift batch --out` and `sift export` write, for pages
 * fetched from a loopback site through the real pipeline into a real database.
 */
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { parse as parseCsv } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { CliIO } from '../../src/cli/io';
import { main } from '../../src/cli/main';
import { loopbackSift, type LoopbackSift, type siftInProcess } from '../helpers/cli-main';
import { startSite, type Site } from '../helpers/sites';
import { deferred, tempDir } from '../helpers/store';
import { execFileSync } from 'node:child_process';

let site: Site;
let tmp: LoopbackSift;
let sift: ReturnType<typeof siftInProcess>;
let db: string;
let job: string;
const hanging = new Set<ServerResponse>();
const hangArrived = deferred();
const secondHangArrived = deferred();
const gateArrived = deferred();
const gateOpen = deferred();

// A title as a page may carry it: a bell, an ESC that starts a terminal colour, a NUL.
const HOSTILE_TITLE = 'Alarm\u0007 \u001b[31mred\u0000 alert';
const SHOWN_TITLE = 'Alarm [31mred alert';
const LOG = '# build 42\n1. fetched sources\n2. compiled\nwarning: *unused* variable `x`\n';

beforeAll(async () => {
  site = await startSite({
    // A log fetched as text: its '#' lines are not headings, its numbered lines not a list.
    '/build.log': (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' });
      res.end(LOG);
    },
    '/items.json': (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ items: [{ name: 'anchor' }, { name: 'buoy' }] }));
    },
    // Answers only when the test ends: the job is cancelled while it waits here.
    '/hang': (_req, res) => {
      hanging.add(res);
      hangArrived.resolve();
    },
    // Answers when the test says so: the export's folder is made unwritable meanwhile.
    '/gate': (_req, res) => {
      gateArrived.resolve();
      void gateOpen.promise.then(() => {
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        res.end(`<!doctype html><html><head><title>Gate</title></head><body><main><article><h1>Gate</h1><p>${'The gate opened onto the quay, and the carts rolled through in the morning light. '.repeat(8)}</p></article></main></body></html>`);
      });
    },
    '/hang-too': (_req, res) => {
      hanging.add(res);
      secondHangArrived.resolve();
    },
    '/unseen': (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(`<!doctype html><html><head><title>\u200b\u200c\u200d\u2060</title></head><body><main><article><h1>Tides</h1><p>${'The tide tables are printed each spring and pinned by the harbour office door. '.repeat(8)}</p></article></main></body></html>`);
    },
    '/alarm': (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(`<!doctype html><html><head><title>${HOSTILE_TITLE}</title></head><body><main><article><h1>Alarm</h1><p>${'The alarm rang across the harbour at dawn, and the boats came in one by one. '.repeat(8)}</p></article></main></body></html>`);
    },
  });
  tmp = loopbackSift('sift-cli-export-files-');
  ({ sift, db } = tmp);
  writeFileSync(path.join(tmp.dir, 'list.txt'), `${site.base}/alarm\n${site.base}/article/1\n${site.base}/missing/1\n`);
  const run = await sift('batch', 'list.txt', '--db', db);
  expect(run.code, run.err).toBe(1);
  job = /^job ([0-9a-f]+)/.exec(run.err)![1]!;
}, 120_000);
afterAll(async () => {
  for (const res of hanging) res.destroy();
  await site.close();
  tmp.remove();
});

/**
 * Makes `dir` take no new entries, even from root (whom permission bits do not stop), and
 * returns the undo; undefined where chattr or the file system cannot.
 */
function unwritable(dir: string): (() => void) | undefined {
  try {
    execFileSync('chattr', ['+i', dir], { stdio: 'ignore' });
  } catch {
    return undefined;
  }
  return () => execFileSync('chattr', ['-i', dir], { stdio: 'ignore' });
}
const canLock = ((): boolean => {
  const probe = tempDir('sift-chattr-probe-');
  const undo = unwritable(probe.dir);
  undo?.();
  probe.remove();
  return undo !== undefined;
})();

describe('exported files', { timeout: 120_000 }, () => {
  test("a page title's control characters reach neither the combined Markdown nor the CSV summary", async () => {
    const out = path.join(tmp.dir, 'titles');
    for (const format of ['combined', 'csv']) {
      const r = await sift('export', job, '--db', db, '--out', out, '--format', format);
      expect(r.code, r.err).toBe(0);
    }
    const md = readFileSync(path.join(out, `sift-${job}.md`), 'utf8');
    // eslint-disable-next-line no-control-regex -- control characters are what is checked
    expect(md).not.toMatch(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/);
    expect(md).toContain(`## ${SHOWN_TITLE.replace('[', '\\[')}\n`);
    const rows = parseCsv(readFileSync(path.join(out, `sift-${job}.csv`), 'utf8'), { bom: true, columns: true }) as Record<string, string>[];
    expect(rows.map((r) => r['title'])).toEqual([SHOWN_TITLE, 'Article 1', `${site.base}/missing/1`]);
  });

  test('a page whose title is only invisible characters (zero-width spaces and joiners) is named by its URL, not a file that reads ".md"', async () => {
    writeFileSync(path.join(tmp.dir, 'unseen.txt'), `${site.base}/unseen\n`);
    const run = await sift('batch', 'unseen.txt', '--db', db);
    expect(run.code, run.err).toBe(0);
    const unseenJob = /^job ([0-9a-f]+)/.exec(run.err)![1]!;
    const out = path.join(tmp.dir, 'unseen');
    for (const format of ['md', 'combined']) expect((await sift('export', unseenJob, '--db', db, '--out', out, '--format', format)).code).toBe(0);
    const byUrl = `127.0.0.1_${new URL(site.base).port} unseen`;
    expect(readdirSync(path.join(out, `sift-${unseenJob}`)).filter((n) => n.endsWith('.md'))).toEqual([`${byUrl}.md`]);
    expect(readFileSync(path.join(out, `sift-${unseenJob}.md`), 'utf8')).toContain(`## ${site.base}/unseen\n`);
  });

  test.each(['csv', 'jsonl', 'combined', 'zip'])('a second %s export into the same folder keeps the first one', async (format) => {
    const out = path.join(tmp.dir, `again-${format}`);
    const first = await sift('export', job, '--db', db, '--out', out, '--format', format);
    expect(first.code, first.err).toBe(0);
    const [name] = readdirSync(out);
    const ext = path.extname(name!);
    const earlier = path.join(out, name!);
    // The earlier export, kept with what the user added to it.
    writeFileSync(earlier, 'my notes\n', { flag: 'a' });
    const kept = readFileSync(earlier);
    const second = await sift('export', job, '--db', db, '--out', out, '--format', format);
    expect(second.code, second.err).toBe(0);
    expect(second.err).toContain(`to ${path.join(out, `sift-${job} (2)${ext}`)} (`);
    expect(readdirSync(out).sort()).toEqual([`sift-${job} (2)${ext}`, `sift-${job}${ext}`]);
    expect(readFileSync(earlier)).toEqual(kept);
  });

  test('sift batch --json --out prints the results and writes the export too', async () => {
    const out = path.join(tmp.dir, 'json-and-out');
    writeFileSync(path.join(tmp.dir, 'two.txt'), `${site.base}/article/2\n${site.base}/article/3\n`);
    const r = await sift('batch', 'two.txt', '--db', db, '--json', '--out', out, '--format', 'jsonl');
    expect(r.code, r.err).toBe(0);
    const printed = r.out.trim().split('\n').map((l) => JSON.parse(l) as { url: string; ok: boolean });
    expect(printed.map((p) => [p.url, p.ok])).toEqual([
      [`${site.base}/article/2`, true],
      [`${site.base}/article/3`, true],
    ]);
    const id = /^job ([0-9a-f]+)/.exec(r.err)![1]!;
    expect(r.err).toContain(`exported 2 targets (0 failed) to ${path.join(out, `sift-${id}.jsonl`)}`);
    const rows = readFileSync(path.join(out, `sift-${id}.jsonl`), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { url: string; status: string });
    expect(rows.map((row) => [row.url, row.status])).toEqual([
      [`${site.base}/article/2`, 'done'],
      [`${site.base}/article/3`, 'done'],
    ]);
  });

  test('a cancelled job exports the targets it never reached as not fetched, as the app says, not as pending', async () => {
    writeFileSync(path.join(tmp.dir, 'cancel.txt'), `${site.base}/article/4\n${site.base}/hang\n${site.base}/article/5\n`);
    // The batch's stderr as it is written: its first line names the job to cancel.
    const stderr = new PassThrough();
    let said = '';
    stderr.on('data', (d: Buffer) => (said += d.toString()));
    const io: CliIO = { stdout: new PassThrough().resume(), stderr, stdin: new PassThrough(), isTTY: false, env: { ...process.env, SIFT_HOME: tmp.dir }, cwd: tmp.dir };
    const running = main(['batch', 'cancel.txt', '--db', db], io);
    await hangArrived.promise;
    const id = /^job ([0-9a-f]{16})/.exec(said)?.[1];
    expect(id, said).toBeDefined();
    const cancel = await sift('cancel', id!, '--db', db);
    expect(cancel.code, cancel.err).toBe(0);
    expect(await running).toBe(1);
    const out = path.join(tmp.dir, 'cancelled');
    for (const format of ['md', 'combined', 'csv', 'jsonl']) {
      const r = await sift('export', id!, '--db', db, '--out', out, '--format', format, '--include-failed');
      expect(r.code, r.err).toBe(0);
      // The target in flight at the cancel stopped mid-way, as sift status says; nothing failed.
      expect(r.err).toContain('exported 3 targets (0 failed, 1 stopped mid-way, 1 not run)');
    }
    const folder = path.join(out, `sift-${id}`);
    const notFetched = readdirSync(folder).filter((n) => n.includes('(not fetched)'));
    expect(notFetched).toEqual(['127.0.0.1_' + String(site.port) + ' article 5 (not fetched).txt']);
    expect(readFileSync(path.join(folder, notFetched[0]!), 'utf8')).toBe(
      `${site.base}/article/5\n\nnot fetched: the job had not reached this target when it was exported\nRun the same sift batch again with --rest to fetch it.\n`,
    );
    // The one the cancel cut short says what happened in words, not "failed: cancelled".
    const stopped = readdirSync(folder).filter((n) => n.includes('(stopped mid-way)'));
    expect(stopped).toEqual(['127.0.0.1_' + String(site.port) + ' hang (stopped mid-way).txt']);
    expect(readFileSync(path.join(folder, stopped[0]!), 'utf8')).toMatch(new RegExp(`^${site.base}/hang\\n\\nstopped mid-way: \\S.*cancel.*run the same sift batch again with --rest.*\\n$`, 'i'));
    const md = readFileSync(path.join(out, `sift-${id}.md`), 'utf8');
    expect(md).toContain('(not fetched)\n');
    expect(md).toContain('> **not fetched**: the job had not reached this target when it was exported');
    expect(md).not.toContain('pending');
    // The listings keep the stored status, and say of it what the files say.
    const csvRow = readFileSync(path.join(out, `sift-${id}.csv`), 'utf8').split('\r\n').find((l) => l.includes('/article/5'));
    expect(csvRow).toContain(',pending,');
    expect(csvRow).toContain('the job had not reached this target when it was exported,Run the same sift batch again with --rest to fetch it.');
    const jsonl = readFileSync(path.join(out, `sift-${id}.jsonl`), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { url: string; status: string; error: string; hint: string });
    expect(jsonl.find((o) => o.url.endsWith('/article/5'))).toMatchObject({ status: 'pending', error: 'the job had not reached this target when it was exported', hint: 'Run the same sift batch again with --rest to fetch it.' });
    const manifest = readFileSync(path.join(folder, 'manifest.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { url: string; status: string; error: string });
    expect(manifest.find((o) => o.url.endsWith('/article/5'))).toMatchObject({ status: 'pending', error: 'the job had not reached this target when it was exported' });
  });

  test('a job still running exports what it has, and says the rest is still to come, not to be run again', async () => {
    writeFileSync(path.join(tmp.dir, 'running.txt'), `${site.base}/article/7\n${site.base}/hang-too\n${site.base}/article/8\n`);
    const stderr = new PassThrough();
    let said = '';
    stderr.on('data', (d: Buffer) => (said += d.toString()));
    const io: CliIO = { stdout: new PassThrough().resume(), stderr, stdin: new PassThrough(), isTTY: false, env: { ...process.env, SIFT_HOME: tmp.dir }, cwd: tmp.dir };
    const running = main(['batch', 'running.txt', '--db', db], io);
    await secondHangArrived.promise;
    const id = /^job ([0-9a-f]{16})/.exec(said)?.[1];
    expect(id, said).toBeDefined();
    const out = path.join(tmp.dir, 'still-running');
    let r: Awaited<ReturnType<typeof sift>>;
    let folder: Awaited<ReturnType<typeof sift>>;
    let combined: Awaited<ReturnType<typeof sift>>;
    try {
      r = await sift('export', id!, '--db', db, '--out', out, '--format', 'csv');
      folder = await sift('export', id!, '--db', db, '--out', out, '--format', 'md');
      combined = await sift('export', id!, '--db', db, '--out', out, '--format', 'combined');
    } finally {
      // Cancelled, what it never reached is left over: the advice then is to run the rest again.
      expect((await sift('cancel', id!, '--db', db)).code).toBe(0);
      expect(await running).toBe(1);
    }
    expect(r.code, r.err).toBe(0);
    expect(r.err).toContain('exported 3 targets (0 failed, 2 not fetched yet) to ');
    expect(r.err).toContain('\n  the job is still running: export again when it has finished to have every target\n');
    const rows = parseCsv(readFileSync(path.join(out, `sift-${id}.csv`), 'utf8'), { bom: true, columns: true }) as Record<string, string>[];
    expect(rows.find((row) => row['url']!.endsWith('/article/8'))).toMatchObject({ status: 'pending', hint: 'The job is still running: export again when it has finished.' });
    // failed.txt is what to run again: the targets still to come are not in it (dropped back
    // into Sift, they were fetched twice), and the combined Markdown says it is a snapshot.
    expect(folder.code, folder.err).toBe(0);
    expect(readFileSync(path.join(out, `sift-${id}`, 'failed.txt'), 'utf8')).toBe('');
    // Its summary says so: it read 'failed.txt lists them to run again' of that empty file.
    expect(folder.err).toContain(': 1 result file, with manifest.jsonl and failed.txt; the 2 without a result have no file: manifest.jsonl says why\n');
    expect(combined.code, combined.err).toBe(0);
    const md = readFileSync(path.join(out, `sift-${id}.md`), 'utf8').split('\n');
    expect(md.slice(2, 5)).toEqual(['1 of 3 targets (2 not fetched yet, not included)', '', 'The job was still running when this was exported: export it again when it has finished to have every target.']);
    const after = await sift('export', id!, '--db', db, '--out', out, '--format', 'csv');
    expect(after.err).toContain('exported 3 targets (0 failed, 1 stopped mid-way, 1 not run) to ');
    expect(after.err).not.toContain('still running');
    const rowsAfter = parseCsv(readFileSync(path.join(out, `sift-${id} (2).csv`), 'utf8'), { bom: true, columns: true }) as Record<string, string>[];
    expect(rowsAfter.find((row) => row['url']!.endsWith('/article/8'))).toMatchObject({ status: 'pending', hint: 'Run the same sift batch again with --rest to fetch it.' });
    // Cancelled, they are left over: failed.txt lists them to run again.
    expect((await sift('export', id!, '--db', db, '--out', out, '--format', 'md')).code).toBe(0);
    expect(readFileSync(path.join(out, `sift-${id} (2)`, 'failed.txt'), 'utf8')).toBe(`${site.base}/hang-too\n${site.base}/article/8\n`);
  });

  test('a folder of Markdown files shows a text document and a jq result fenced, as the combined Markdown does', async () => {
    writeFileSync(path.join(tmp.dir, 'kinds.txt'), `${site.base}/build.log\n${site.base}/items.json jq='.items[] | .name'\n${site.base}/article/6\n`);
    const out = path.join(tmp.dir, 'kinds');
    const r = await sift('batch', 'kinds.txt', '--db', db, '--out', out, '--format', 'md');
    expect(r.code, r.err).toBe(0);
    const id = /^job ([0-9a-f]+)/.exec(r.err)![1]!;
    const folder = path.join(out, `sift-${id}`);
    const fileOf = new Map(
      readFileSync(path.join(folder, 'manifest.jsonl'), 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as { url: string; file: string })
        .map((m) => [m.url.replace(site.base, ''), path.join(folder, m.file)]),
    );
    expect(readFileSync(fileOf.get('/build.log')!, 'utf8')).toBe(`\`\`\`text\n${LOG}\`\`\`\n`);
    expect(fileOf.get('/items.json')).toMatch(/\.md$/);
    expect(readFileSync(fileOf.get('/items.json')!, 'utf8')).toMatch(/^```json\n[\s\S]*"anchor"[\s\S]*"buoy"[\s\S]*\n```\n$/);
    // A page read as Markdown stays as it is.
    expect(readFileSync(fileOf.get('/article/6')!, 'utf8')).toMatch(/^# Article 6\n/);
  });

  test('an --out named like a file the format would make a folder of is refused before anything is written or fetched', async () => {
    const dir = path.join(tmp.dir, 'misnamed');
    mkdirSync(dir);
    const cases: [string[], string][] = [
      [['--out', 'results.json'], 'sift export: --out results.json names one .json file, and no export writes one'],
      [['--out', 'notes.txt', '--format', 'txt'], 'sift export: --out notes.txt names one .txt file, and no export writes one'],
      [['--out', 'hits.zip', '--format', 'csv'], 'sift export: --out hits.zip names one .zip file, but --format csv writes one .csv file: use --format zip for hits.zip, or give --out a folder'],
      [['--out', 'notes.md', '--format', 'md'], 'sift export: --out notes.md names one .md file, but --format md writes a folder of files, one per target: use --format combined for notes.md, or give --out a folder'],
    ];
    for (const [args, said] of cases) {
      const r = await sift('export', job, '--db', db, ...args.map((a) => (a.includes('.') ? path.join(dir, a) : a)));
      expect(r.code, r.err).toBe(2);
      expect(r.err).toContain(said);
    }
    // sift batch says so before it fetches: no job is made.
    const jobsBefore = (await sift('jobs', '--db', db)).out;
    const batch = await sift('batch', 'list.txt', '--db', db, '--again', '--out', path.join(dir, 'results.json'));
    expect(batch.code, batch.err).toBe(2);
    expect(batch.err).toContain('sift batch: --out results.json names one .json file');
    expect((await sift('jobs', '--db', db)).out).toBe(jobsBefore);
    expect(readdirSync(dir)).toEqual([]);
    // A folder of that name, there already, is a folder: the export goes into it.
    mkdirSync(path.join(dir, 'site.json'));
    const into = await sift('export', job, '--db', db, '--out', path.join(dir, 'site.json'), '--format', 'json');
    expect(into.code, into.err).toBe(0);
    expect(into.err).toContain(`to ${path.join(dir, 'site.json', `sift-${job}`)} (`);
    // A name the format writes, in any case, is that file.
    const csv = await sift('export', job, '--db', db, '--out', path.join(dir, 'Results.CSV'));
    expect(csv.code, csv.err).toBe(0);
    expect(readdirSync(dir).sort()).toEqual(['Results.CSV', 'site.json']);
  });

  test.skipIf(!canLock)('sift batch --out a folder that takes no files says so before it fetches anything', async () => {
    const locked = path.join(tmp.dir, 'locked');
    mkdirSync(locked);
    const undo = unwritable(locked)!;
    try {
      const jobsBefore = (await sift('jobs', '--db', db)).out;
      writeFileSync(path.join(tmp.dir, 'locked.txt'), `${site.base}/article/9\n`);
      const r = await sift('batch', 'locked.txt', '--db', db, '--out', locked);
      expect(r.code, r.err).toBe(2);
      expect(r.err).toBe(`sift batch: cannot write to ${locked}: permission denied\n  Choose a folder you can write to, or change its permissions.\n`);
      expect((await sift('jobs', '--db', db)).out).toBe(jobsBefore);
      expect(site.hits.get('/article/9') ?? 0).toBe(0);
      for (const format of ['md', 'csv', 'zip']) {
        const e = await sift('export', job, '--db', db, '--out', locked, '--format', format);
        expect(e.code, format).toBe(2);
        expect(e.err, format).toContain(`cannot write to ${locked}: permission denied`);
      }
    } finally {
      undo();
    }
    expect(readdirSync(locked)).toEqual([]);
  });

  test.skipIf(!canLock)('an export that fails at its end in sift batch says the results are kept and how to export them', async () => {
    const out = path.join(tmp.dir, 'locked-later');
    mkdirSync(out);
    writeFileSync(path.join(tmp.dir, 'gate.txt'), `${site.base}/gate\n`);
    const running = sift('batch', 'gate.txt', '--db', db, '--out', out, '--format', 'csv');
    await gateArrived.promise;
    // The export's file is open; its folder now takes no new name, so it cannot be sealed there.
    const undo = unwritable(out)!;
    let r: Awaited<typeof running>;
    try {
      gateOpen.resolve();
      r = await running;
    } finally {
      undo();
    }
    expect(r.code, r.err).toBe(2);
    const id = /^job ([0-9a-f]{16})/.exec(r.err)![1]!;
    // Refused when the export opened its file or when it sealed it, whichever came after the lock.
    expect(r.err).toMatch(new RegExp(`\\nsift batch: cannot write to ${out.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(/sift-${id}\\.csv)?: permission denied\\n`));
    expect(r.err).toContain(`\n  The results are stored: \`sift export ${id} --out DIR\` writes them without fetching again.\n`);
    const again = await sift('export', id, '--db', db, '--out', out, '--format', 'csv');
    expect(again.code, again.err).toBe(0);
    expect(readFileSync(path.join(out, `sift-${id}.csv`), 'utf8')).toContain(`${site.base}/gate,,done,Gate,`);
  });

  test('a file the user names is replaced by the next export to that name', async () => {
    const out = path.join(tmp.dir, 'named', 'results.csv');
    for (let i = 0; i < 2; i++) {
      const r = await sift('export', job, '--db', db, '--out', out);
      expect(r.code, r.err).toBe(0);
      expect(r.err).toContain(`to ${out} (`);
    }
    expect(readdirSync(path.dirname(out))).toEqual(['results.csv']);
  });
});
