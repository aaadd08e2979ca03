/**
 * The folder layout (one file per target + manifest.jsonl + failed.txt), written either
 * to a real folder or as entries of a zip. Both take one file at a time and hold at most
 * one result in memory.
 */
import { createReadStream } from 'node:fs';
import { mkdir, stat, writeFile } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { once } from 'node:events';
import path from 'node:path';
import { ZipFile } from 'yazl';
import { childPath } from './names';
import { OutFile, commitFolder, discard, partialPath, toExportError, type Seal } from './output';

export interface LayoutSink {
  /** Adds one file of the layout. Resolves once the data has left memory for the disk/zip. */
  put(name: string, data: Buffer): Promise<void>;
  /** Opens a file that is written line by line during the export and added at the end. */
  openSide(name: string): Promise<OutFile>;
  /**
   * Seals the layout under its final name: the output's size in bytes and its path (a
   * folder's is the next free `name (n)` when another export took its name meanwhile).
   */
  finish(): Promise<{ bytes: number; path: string }>;
  /** Removes everything written so far. */
  abort(): Promise<void>;
}

/** A folder built at a hidden ".partial" name beside `finalDir` and renamed when complete. */
export async function folderSink(finalDir: string): Promise<LayoutSink> {
  const dir = partialPath(finalDir);
  await mkdir(dir).catch((err: unknown) => {
    throw toExportError(err, path.dirname(finalDir));
  });
  const sides: OutFile[] = [];
  let bytes = 0;
  return {
    async put(name, data) {
      const p = childPath(dir, name);
      // 'wx': a name is never written twice; if it were, that would be a bug, not a file to clobber.
      await writeFile(p, data, { flag: 'wx' }).catch((err: unknown) => {
        throw toExportError(err, finalDir);
      });
      bytes += data.length;
    },
    async openSide(name) {
      const f = await OutFile.open(childPath(dir, name), finalDir);
      sides.push(f);
      return f;
    },
    async finish() {
      for (const f of sides) {
        await f.close();
        bytes += f.bytes;
      }
      return { bytes, path: await commitFolder(dir, finalDir) };
    },
    async abort() {
      for (const f of sides) f.destroy();
      await discard(dir);
    },
  };
}

/** A readable that hands over one buffer and then lets go of it (yazl keeps its entries' streams until the end). */
class OnceReadable extends Readable {
  private data: Buffer | null;
  constructor(data: Buffer) {
    super();
    this.data = data;
  }
  override _read(): void {
    const d = this.data;
    this.data = null;
    this.push(d);
    if (d) this.push(null);
  }
}

/**
 * A zip streamed through yazl into a ".partial" file beside `finalZip`. Every entry sits
 * under `root/`, so unzipping gives exactly the folder export's layout.
 *
 * yazl's addBuffer keeps each compressed buffer reachable until the zip ends (10,000 ×
 * 100 KB would stay in memory), and it writes without waiting for the disk; entries go in
 * as streams instead, one at a time, each awaited until yazl has read it.
 *
 * yazl finds the next entry to write by scanning its list of entries from the first, at
 * every step of every entry: the scan grows with the square of the entries, and zipping
 * 100,000 targets took 171 s (the same export as JSONL, 2.7 s; 50,000 took 40 s). Entries
 * already written are set aside while the zip is written and put back before it ends.
 */
export async function zipSink(finalZip: string, root: string, seal: Seal): Promise<LayoutSink> {
  const tmp = partialPath(finalZip);
  const out = await OutFile.open(tmp, finalZip);
  const zip = new ZipFile();
  let failed: unknown = null;
  zip.on('error', (err: unknown) => {
    failed ??= err;
  });
  zip.outputStream.on('error', (err: unknown) => {
    failed ??= err;
  });
  zip.outputStream.pipe(out.stream);
  const sides: { name: string; file: OutFile }[] = [];
  const written: unknown[] = [];
  const mtime = new Date();
  const check = (): void => {
    if (failed) throw toExportError(failed, finalZip);
  };

  return {
    async put(name, data) {
      check();
      const src = new OnceReadable(data);
      const ended = once(src, 'end');
      setAsideWritten(zip, written);
      zip.addReadStream(src, `${root}/${name}`, { size: data.length, mtime });
      await ended;
      // The zip's output goes through a pipe that respects the disk's pace; waiting for it
      // to drain keeps at most ~one entry between here and the file.
      await out.drain();
      check();
    },
    async openSide(name) {
      const f = await OutFile.open(partialPath(childPath(path.dirname(finalZip), `${path.basename(finalZip)}-${name}`)), finalZip);
      sides.push({ name, file: f });
      return f;
    },
    async finish() {
      putBackWritten(zip, written);
      for (const { name, file } of sides) {
        await file.close();
        const src = createReadStream(file.path);
        const ended = once(src, 'close');
        zip.addReadStream(src, `${root}/${name}`, { size: file.bytes, mtime });
        await ended;
        check();
      }
      const closed = once(out.stream, 'close');
      zip.end();
      await closed;
      check();
      for (const { file } of sides) await discard(file.path);
      const size = (await stat(tmp)).size;
      return { bytes: size, path: await seal(tmp) };
    },
    async abort() {
      out.destroy();
      for (const { file } of sides) {
        file.destroy();
        await discard(file.path);
      }
      await discard(tmp);
    },
  };
}

/** yazl's list of entries, in the order they are written (not in its types; yazl 3.3.1). */
const entriesOf = (zip: ZipFile): { entries: unknown[] } => zip as unknown as { entries: unknown[] };

/**
 * Moves every entry but the last out of yazl's list into `aside`, keeping only what the
 * central directory needs of them. Called before an entry is added, after the last one's
 * data was read: yazl writes entries in order, one at a time, so every entry before the
 * one it read last is written.
 */
function setAsideWritten(zip: ZipFile, aside: unknown[]): void {
  const { entries } = entriesOf(zip);
  if (entries.length <= 1) return;
  const done = entries.splice(0, entries.length - 1) as WrittenEntry[];
  for (const e of done) forgetData(e);
  aside.push(...done);
}

/** Puts the entries set aside back in front, in order: the central directory is written from the whole list. */
function putBackWritten(zip: ZipFile, aside: unknown[]): void {
  const z = entriesOf(zip);
  z.entries = aside.concat(z.entries);
  aside.length = 0;
}

/** What of a yazl entry outlives its data (not in its types; yazl 3.3.1). */
interface WrittenEntry {
  utf8FileName: Buffer;
  doFileDataPump: (() => void) | null;
}

/**
 * Lets go of what a written entry holds of its data: the closure that pumped it (the
 * stream and its pipes), and the 8 KB pool slab its name shares with the small results
 * written beside it (Buffer.from takes names and results under 4 KB from one pool), so a
 * zip of 100,000 small results kept them all: 530 MiB of RSS, 238 MiB with the names
 * copied out.
 */
function forgetData(e: WrittenEntry): void {
  e.doFileDataPump = null;
  const name = Buffer.allocUnsafeSlow(e.utf8FileName.length);
  e.utf8FileName.copy(name);
  e.utf8FileName = name;
}
