/**
 * ZipWriter, the writer of zip exports, against yazl (which wrote them before, and is still
 * the reference here) and unzip: the same file, byte for byte, for the same entries; and
 * zip64's end records past 65,534 entries, which a job of 100,000 targets needs.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { createReadStream, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { randomBytes } from 'node:crypto';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { ZipFile } from 'yazl';
import { exportJob } from '../../src/main/export/index';
import { OutFile } from '../../src/main/export/output';
import { ZipWriter } from '../../src/main/export/zip';
import type { Job, TargetStatus } from '../../src/shared/types';
import { tempDir } from '../helpers/store';
import { mountTmpfs, unmountTmpfs } from '../helpers/tmpfs';

let tmp: ReturnType<typeof tempDir>;
beforeEach(() => {
  tmp = tempDir('sift-zip-');
});
afterEach(() => tmp.remove());

const hasUnzip = (): boolean => spawnSync('unzip', ['-v']).status === 0;
const MTIME = new Date(2026, 11, 5, 14, 7, 31);

/** What yazl writes for the same entries: buffers with addBuffer, streamed files with addReadStream. */
async function yazlZip(buffers: [string, Buffer][], files: [string, string][], to: string): Promise<void> {
  const zip = new ZipFile();
  for (const [name, data] of buffers) zip.addBuffer(data, name, { mtime: MTIME });
  for (const [name, file] of files) zip.addReadStream(createReadStream(file), name, { mtime: MTIME });
  zip.end();
  const chunks: Buffer[] = [];
  for await (const c of zip.outputStream) chunks.push(c as Buffer);
  writeFileSync(to, Buffer.concat(chunks));
}

async function sinkZip(buffers: [string, Buffer][], files: [string, string][], to: string): Promise<number> {
  const out = await OutFile.open(to);
  const zip = new ZipWriter(out, MTIME);
  for (const [name, data] of buffers) await zip.addBuffer(name, data);
  for (const [name, file] of files) await zip.addStream(name, createReadStream(file));
  const bytes = await zip.end();
  await out.close();
  return bytes;
}

it('writes, byte for byte, the zip yazl writes for the same entries, and unzip reads them back as given', async (ctx) => {
  if (!hasUnzip()) ctx.skip('unzip is not installed: apt-get install -y unzip');
  const prose = 'net revenue grew in each quarter of the year, the report says. '.repeat(1_600);
  const buffers: [string, Buffer][] = [
    ['job/empty.txt', Buffer.alloc(0)],
    ['job/Page 1.md', Buffer.from('# Page 1\n\nA short page.')],
    // 100 KB of text: past the size deflated on this thread, so deflated in the pool.
    ['job/report.md', Buffer.from(prose)],
    ['job/noise.bin', randomBytes(70_000)],
    ['job/😀 emoji 👩‍👩‍👧‍👦.txt', Buffer.from('naïve café ✓')],
  ];
  const manifest = path.join(tmp.dir, 'manifest.jsonl');
  writeFileSync(manifest, Array.from({ length: 4_000 }, (_, i) => `{"idx":${i},"url":"https://a.example/${i}"}\n`).join(''));
  const failed = path.join(tmp.dir, 'failed.txt');
  writeFileSync(failed, '');
  const files: [string, string][] = [
    ['job/manifest.jsonl', manifest],
    ['job/failed.txt', failed],
  ];
  const ours = path.join(tmp.dir, 'ours.zip');
  const theirs = path.join(tmp.dir, 'yazl.zip');
  const bytes = await sinkZip(buffers, files, ours);
  await yazlZip(buffers, files, theirs);
  expect(readFileSync(ours).equals(readFileSync(theirs))).toBe(true);
  expect(bytes).toBe(readFileSync(ours).length);
  const test = spawnSync('unzip', ['-t', ours], { encoding: 'utf8' });
  expect(test.status, test.stdout + test.stderr).toBe(0);
  const x = path.join(tmp.dir, 'x');
  mkdirSync(x);
  execFileSync('unzip', ['-q', '-UU', ours, '-d', x]);
  for (const [name, data] of buffers) expect(readFileSync(path.join(x, name)).equals(data), name).toBe(true);
  for (const [name, file] of files) expect(readFileSync(path.join(x, name)).equals(readFileSync(file)), name).toBe(true);
});

it('ends a zip of 65,535 entries with zip64 records that unzip reads, every entry listed in order', async (ctx) => {
  if (!hasUnzip()) ctx.skip('unzip is not installed: apt-get install -y unzip');
  // 65,535 is where the end record's 16-bit count stops (yazl's threshold: 0xffff and up).
  const n = 0xffff;
  const buffers = Array.from({ length: n }, (_, i): [string, Buffer] => [`job/${i}.txt`, Buffer.from(`page ${i}`)]);
  const zip = path.join(tmp.dir, 'many.zip');
  await sinkZip(buffers, [], zip);
  const z = readFileSync(zip);
  // The zip64 end record and its locator sit before the classic end record, which says "see zip64".
  expect(z.readUInt32LE(z.length - 22 - 20 - 56)).toBe(0x06064b50);
  expect(z.readUInt16LE(z.length - 22 + 10)).toBe(0xffff);
  const test = spawnSync('unzip', ['-tq', zip], { encoding: 'utf8' });
  expect(test.status, test.stdout + test.stderr).toBe(0);
  const listed = execFileSync('unzip', ['-Z1', zip], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 }).trim().split('\n');
  expect(listed).toEqual(buffers.map(([name]) => name));
  const x = path.join(tmp.dir, 'x');
  mkdirSync(x);
  execFileSync('unzip', ['-q', zip, 'job/0.txt', 'job/65534.txt', '-d', x]);
  expect(readdirSync(path.join(x, 'job')).sort()).toEqual(['0.txt', '65534.txt']);
  expect(readFileSync(path.join(x, 'job', '65534.txt'), 'utf8')).toBe('page 65534');
});

it("stops a zip export when the disk fills mid-way: says so with the zip's name and what to do, and leaves nothing behind", async (ctx) => {
  const mnt = path.join(tmp.dir, 'small-disk');
  // 1 MiB of room, 3 MB of results that do not compress: the disk fills after a few dozen entries.
  const mounted = mountTmpfs(mnt, '1m');
  if (!mounted) ctx.skip('cannot mount a tmpfs here (needs root)');
  try {
    const n = 60;
    const job: Job = { id: 'full', caller: 'cli', callerClass: 'cli/batch', status: 'done', error: '', targetsTotal: n, targetsDone: n, targetsFailed: 0, createdAt: 0, updatedAt: 0, leaseExpires: 0 };
    let read = 0;
    const targets = function* (): Iterable<TargetStatus> {
      for (let idx = 0; idx < n; idx++, read++) {
        const content = randomBytes(25_000).toString('base64');
        yield { idx, url: `https://a.example/${idx}`, status: 'done', error: '', hint: '', errorStatus: 0, bytes: content.length, title: `Page ${idx}`, startedAt: null, finishedAt: null, result: { content } };
      }
    };
    const err = await exportJob({ job, count: () => n, targets }, { format: 'zip', out: mnt }).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'disk_full', message: `the disk is full while writing ${path.join(mnt, 'sift-full.zip')}`, hint: 'Free some space or export to another disk, then export again.' });
    // Stopped where the disk filled, not after reading the whole job.
    expect(read).toBeLessThan(n);
    expect(readdirSync(mnt)).toEqual([]);
  } finally {
    unmountTmpfs(mnt, mounted);
  }
});

it('stops a streamed entry at the signal, between two of its chunks', async () => {
  const out = await OutFile.open(path.join(tmp.dir, 'cut.zip'));
  const zip = new ZipWriter(out, MTIME);
  const ac = new AbortController();
  let read = 0;
  async function* listing() {
    for (let i = 0; i < 1_000; i++) {
      read++;
      yield Buffer.from(`{"idx":${i}}\n`.repeat(1_000));
      if (i === 0) ac.abort();
    }
  }
  await expect(zip.addStream('job/manifest.jsonl', Readable.from(listing()), ac.signal)).rejects.toMatchObject({ name: 'AbortError' });
  expect(read).toBeLessThan(1_000);
  out.destroy();
});
