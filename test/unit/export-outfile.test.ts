import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { SiftError } from '../../src/shared/errors';
import { OutFile, toExportError } from '../../src/main/export/output';

/** OutFile gathers small writes before they reach the disk; the file must still get them all, in order. */
const dirs: string[] = [];
const tmp = (): string => {
  const d = mkdtempSync(path.join(os.tmpdir(), 'sift-outfile-'));
  dirs.push(d);
  return d;
};
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe('OutFile', () => {
  it('writes every line in order, small and large, strings and buffers, and counts the bytes', async () => {
    const p = path.join(tmp(), 'manifest.jsonl');
    const f = await OutFile.open(p);
    const expected: string[] = [];
    for (let i = 0; i < 2_000; i++) {
      const line = i % 500 === 0 ? `${'é'.repeat(40_000)}${i}\n` : `{"idx":${i}}\n`;
      expected.push(line);
      await f.write(i % 3 === 0 ? Buffer.from(line) : line);
    }
    await f.close();
    const text = readFileSync(p, 'utf8');
    expect(text).toBe(expected.join(''));
    expect(f.bytes).toBe(Buffer.byteLength(text));
  });

  it('what was gathered goes before anything written through the stream itself', async () => {
    const p = path.join(tmp(), 'mixed.txt');
    const f = await OutFile.open(p);
    await f.write('first\n');
    f.stream.write('second\n');
    await f.write('third\n');
    await f.close();
    expect(readFileSync(p, 'utf8')).toBe('first\nsecond\nthird\n');
  });

  // /dev/full answers every write with ENOSPC, as a full disk does.
  it.skipIf(!existsSync('/dev/full'))('says the disk is full naming the export, not the hidden partial it writes to', async () => {
    const f = await OutFile.open('/dev/full', '/home/me/results.jsonl');
    const err = await (async () => {
      for (let i = 0; i < 64; i++) await f.write(`${'x'.repeat(16 * 1024)}\n`);
      await f.close();
    })().catch((e: unknown) => e);
    f.destroy();
    expect(err).toBeInstanceOf(SiftError);
    expect(err).toMatchObject({ code: 'disk_full' });
    expect((err as SiftError).message).toBe('the disk is full while writing /home/me/results.jsonl');
  });
});

describe('an export the file system refuses', () => {
  it('names the folder that refused when the path asked for is below it and not there yet', () => {
    const root = tmp();
    const denied = (code: string) => Object.assign(new Error(`${code}: mkdir`), { code });
    const deep = path.join(root, 'x', 'y');
    expect(toExportError(denied('EACCES'), deep).message).toBe(`cannot write to ${deep}: permission denied (${root} is not writable)`);
    // The folder asked for exists and refused: it is the one named, once.
    expect(toExportError(denied('EPERM'), root).message).toBe(`cannot write to ${root}: permission denied`);
  });
});
