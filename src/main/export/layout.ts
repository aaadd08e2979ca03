/**
 * The folder layout (one file per target + manifest.jsonl + failed.txt), written either
 * to a real folder or as entries of a zip. Both take one file at a time and hold at most
 * one result in memory.
 */
import { createReadStream } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { childPath } from './names';
import { OutFile, commitFolder, discard, partialPath, toExportError, type Seal } from './output';
import { ZipWriter } from './zip';

export interface LayoutSink {
  /** Adds one file of the layout. Resolves once the data has left memory for the disk/zip. */
  put(name: string, data: Buffer): Promise<void>;
  /** Opens a file that is written line by line during the export and added at the end. */
  openSide(name: string): Promise<OutFile>;
  /**
   * Seals the layout under its final name: the output's size in bytes and its path (a
   * folder's is the next free `name (n)` when another export took its name meanwhile). An
   * abort of `signal` before that stops it with the signal's AbortError, nothing sealed.
   */
  finish(signal?: AbortSignal): Promise<{ bytes: number; path: string }>;
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
    async finish(signal) {
      for (const f of sides) {
        await f.close();
        bytes += f.bytes;
      }
      signal?.throwIfAborted();
      return { bytes, path: await commitFolder(dir, finalDir) };
    },
    async abort() {
      for (const f of sides) f.destroy();
      await discard(dir);
    },
  };
}

/**
 * A zip written into a ".partial" file beside `finalZip`. Every entry sits under `root/`,
 * so unzipping gives exactly the folder export's layout. Each entry is written before put
 * resolves, and the file's stream is waited on when it lags (OutFile), so one result at a
 * time is in memory, whatever the job's size.
 */
export async function zipSink(finalZip: string, root: string, seal: Seal): Promise<LayoutSink> {
  const tmp = partialPath(finalZip);
  const out = await OutFile.open(tmp, finalZip);
  const zip = new ZipWriter(out, new Date());
  const sides: { name: string; file: OutFile }[] = [];

  return {
    async put(name, data) {
      await zip.addBuffer(`${root}/${name}`, data);
    },
    async openSide(name) {
      const f = await OutFile.open(partialPath(childPath(path.dirname(finalZip), `${path.basename(finalZip)}-${name}`)), finalZip);
      sides.push({ name, file: f });
      return f;
    },
    async finish(signal) {
      for (const { name, file } of sides) {
        await file.close();
        await zip.addStream(`${root}/${name}`, createReadStream(file.path), signal).catch((err: unknown) => {
          throw toExportError(err, finalZip);
        });
      }
      const bytes = await zip.end(signal);
      await out.close();
      for (const { file } of sides) await discard(file.path);
      signal?.throwIfAborted();
      return { bytes, path: await seal(tmp) };
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
