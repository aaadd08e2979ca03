/**
 * Where an export lands and how it gets there: everything is written under a temporary
 * ".…partial-…" name next to its final place and renamed at the end, so a crash or a
 * cancel never leaves a half-written file under a name that looks complete.
 */
import { createWriteStream, existsSync, rmdirSync, rmSync, statSync, type WriteStream } from 'node:fs';
import { mkdir, open, readdir, rename, rm, rmdir, stat, unlink } from 'node:fs/promises';
import { once } from 'node:events';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { SiftError } from '../../shared/errors';
import { makeDirs } from '../mkdirs';
import { processGone } from '../process-gone';
import { writeRefusedWhy } from '../write-refused';

/** Any file-system failure as a SiftError that says which path and what to do. */
export function toExportError(err: unknown, where: string): SiftError {
  if (err instanceof SiftError) return err;
  const code = (err as NodeJS.ErrnoException | undefined)?.code ?? '';
  switch (code) {
    case 'EROFS':
      return new SiftError('out_not_writable', 403, `cannot write to ${where}: ${writeRefusedWhy(code)}`, 'Choose a folder on a disk you can write to.');
    case 'EACCES':
    case 'EPERM': {
      // Writing under a folder that is not there yet fails in the nearest one that is: that
      // one refused, and naming only the path asked for left the user to find it.
      const refused = nearestExisting(where);
      const inside = refused !== undefined && refused !== path.resolve(where) ? ` (${refused} is not writable)` : '';
      return new SiftError('out_not_writable', 403, `cannot write to ${where}: permission denied${inside}`, 'Choose a folder you can write to, or change its permissions.');
    }
    case 'ENOTDIR':
    case 'EEXIST': {
      // A file further up the path ("notes" of notes/exports) is the one in the way: naming only
      // the path asked for, which does not exist, left the user to find it.
      const file = nearestExisting(where);
      const inWay = file !== undefined && file !== path.resolve(where) && statSync(file, { throwIfNoEntry: false })?.isFile() ? `${file} is a file, in the way of the export folder` : 'a file is in the way of the export folder';
      return new SiftError('out_not_writable', 400, `cannot write to ${where}: ${inWay}`, 'Choose a folder, not a file, as the export destination.');
    }
    case 'ENOSPC':
    case 'EDQUOT':
      return new SiftError('disk_full', 507, `the disk is full while writing ${where}`, 'Free some space or export to another disk, then export again.');
    case 'ENAMETOOLONG':
      return new SiftError('out_not_writable', 400, `the export path is too long: ${where}`, 'Choose a folder with a shorter path.');
    default:
      return new SiftError('export_failed', 500, `export failed while writing ${where}${code ? ` (${code})` : ''}`, 'Try again; if it keeps failing, choose another folder and check the log.');
  }
}

/** `p` itself or the closest of its parent folders that exists. */
function nearestExisting(p: string): string | undefined {
  for (let at = path.resolve(p); ; at = path.dirname(at)) {
    if (existsSync(at)) return at;
    if (path.dirname(at) === at) return undefined;
  }
}

/**
 * The ".partial" files and folders this process is writing, until they are sealed or
 * discarded. A process that exits before that (a second Ctrl-C during `sift batch --out`
 * exits at once, without waiting for the export to be cancelled) removes them on its way
 * out: 'exit' listeners run synchronously inside process.exit.
 */
const livePartials = new Set<string>();
let exitHooked = false;

/**
 * Removes, synchronously, every ".partial" this process has not sealed or discarded yet, and
 * the folders made for them that are empty. A folder that holds an export written is not.
 */
export function removeLivePartialsSync(): void {
  for (const p of livePartials) {
    // A write of the export may still be landing in a folder being removed: ENOTEMPTY is retried.
    try {
      rmSync(p, { recursive: true, force: true, maxRetries: 3, retryDelay: 5 });
    } catch {}
  }
  livePartials.clear();
  // Then the folders made for those exports, now empty: `sift batch --out new/folder` stopped
  // by a second Ctrl-C left new/folder behind, as if something had been written there.
  for (const made of liveMadeDirs) {
    for (const d of [...made].reverse()) {
      try {
        rmdirSync(d);
      } catch {
        break;
      }
    }
  }
  liveMadeDirs.clear();
}

/** The folders ensureDir made, outermost first, until removeMadeDirs or a written export keeps or removes them. */
const liveMadeDirs = new Set<readonly string[]>();

function hookExit(): void {
  if (exitHooked) return;
  exitHooked = true;
  process.on('exit', removeLivePartialsSync);
}

/** A temporary name beside `finalPath`, hidden on macOS/Linux and never mistaken for a result. */
export function partialPath(finalPath: string): string {
  const tag = `${process.pid}-${randomBytes(4).toString('hex')}`;
  const p = path.join(path.dirname(finalPath), `.${path.basename(finalPath)}.partial-${tag}`);
  livePartials.add(p);
  hookExit();
  return p;
}

/** A name partialPath gives, ".<final>.partial-<pid>-<8 hex>", with its writer's pid. */
const PARTIAL_NAME = /^\..+\.partial-([1-9][0-9]{0,9})-[0-9a-f]{8}$/s;

/**
 * Removes the ".partial" files and folders in `dir` that an export killed mid-way left there
 * (SIGKILL, a power cut: no exit hook ran, and they stayed, hidden, forever): only names
 * partialPath gives, and only those whose writer process is gone, so another Sift's export
 * under way keeps its own. Best effort: one it cannot remove stays, and the export goes on.
 * Returns how many it removed.
 */
export async function removeStalePartials(dir: string): Promise<number> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return 0;
  }
  let removed = 0;
  for (const name of names) {
    const m = PARTIAL_NAME.exec(name);
    if (!m || !processGone(Number(m[1]))) continue;
    try {
      await rm(path.join(dir, name), { recursive: true, force: true });
      removed++;
    } catch {}
  }
  return removed;
}

/**
 * Creates `dir` (and its parents) or throws a SiftError that names it; a file in its place is
 * ENOTDIR. Returns the folders it made, for removeMadeDirs when the export then fails.
 */
export async function ensureDir(dir: string): Promise<string[]> {
  try {
    const made = await makeDirs(dir);
    if (made.length) {
      liveMadeDirs.add(made);
      hookExit();
    }
    return made;
  } catch (err) {
    // A folder that exists and says "no such file" for a new child (/proc, a gone network share).
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') {
      throw new SiftError('out_not_writable', 400, `cannot make the folder ${dir}`, 'The folder it would go in takes no new folders (a system folder, or a drive that is gone); choose another.');
    }
    throw toExportError(err, dir);
  }
}

/**
 * Throws the SiftError that says why `dir` takes no new file, by making one (a hidden
 * ".partial" name) and removing it: permission bits say nothing of a read-only mount, an
 * immutable folder or root, and only a write tells.
 */
export async function checkWritable(dir: string): Promise<void> {
  const probe = partialPath(path.join(dir, 'write-check'));
  try {
    await (await open(probe, 'wx')).close();
  } catch (err) {
    throw toExportError(err, dir);
  } finally {
    await discard(probe);
  }
}

/**
 * Removes the folders ensureDir made (given outermost first) while they are empty: an export
 * that failed on a full disk left `--out new/folder` behind, empty, as if something had been
 * written. A folder that holds anything by now (the user's, another export's) stays, and so
 * do the ones around it.
 */
export async function removeMadeDirs(made: readonly string[]): Promise<void> {
  liveMadeDirs.delete(made);
  for (const d of [...made].reverse()) {
    try {
      await rmdir(d);
    } catch {
      return;
    }
  }
}

export async function isDirectory(p: string): Promise<boolean> {
  return stat(p).then(
    (s) => s.isDirectory(),
    () => false,
  );
}

export async function exists(p: string): Promise<boolean> {
  return stat(p).then(
    () => true,
    () => false,
  );
}

export async function commit(from: string, to: string): Promise<void> {
  try {
    await rename(from, to);
  } catch (err) {
    throw toExportError(err, to);
  }
  livePartials.delete(from);
}

/** `name (2)` after `name`, `name (3)` after `name (2)`: the names a folder export takes when its own is taken. */
export function nextFolderName(p: string): string {
  const m = / \((\d+)\)$/.exec(p);
  return m ? `${p.slice(0, m.index)} (${Number(m[1]) + 1})` : `${p} (2)`;
}

/** `name (2).csv` after `name.csv`: the names a file export Sift names itself takes when its own is taken. */
function nextFileName(p: string): string {
  const ext = path.extname(p);
  return nextFolderName(p.slice(0, p.length - ext.length)) + ext;
}

/** Puts a finished ".partial" file in its final place and says which path that is. */
export type Seal = (partial: string) => Promise<string>;

/** The seal for a file the user named (`--out hits.csv`): it replaces one of that name, as `>` would. */
export function sealAs(to: string): Seal {
  return async (from) => {
    await commit(from, to);
    return to;
  };
}

/**
 * The seal for a file Sift names itself (`sift-<id>.csv` in the folder chosen): the next
 * free `sift-<id> (n).csv` when that name is taken, so an earlier export of the job is never
 * replaced, as an earlier export folder never is (a CSV opened in a spreadsheet and saved
 * with notes was lost to the next export). Each name is claimed by creating it ('wx', which
 * only one process wins) and the claim is then replaced by the rename.
 */
export function sealBeside(to: string): Seal {
  return async (from) => {
    let p = to;
    // A bound, not an expectation, as in commitFolder.
    for (let tries = 0; tries < 1000; tries++, p = nextFileName(p)) {
      try {
        await (await open(p, 'wx')).close();
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'EEXIST') continue;
        throw toExportError(err, p);
      }
      try {
        await commit(from, p);
      } catch (err) {
        await unlink(p).catch(() => undefined);
        throw err;
      }
      return p;
    }
    throw toExportError(Object.assign(new Error('no free name'), { code: 'EEXIST' }), to);
  };
}

/**
 * Renames the finished folder `from` to `to`, or to the next free `to (n)` when `to` was
 * taken while it was written: two exports of one job into one folder at once both found
 * `sift-<id>` free, and the second one's rename failed ENOTEMPTY. Each name is claimed with
 * mkdir, which only one process can win, and the claimed empty folder is then replaced by
 * the rename (atomic on POSIX; Windows will not rename onto a folder, so the claim is
 * removed first there). Returns the name it took.
 */
export async function commitFolder(from: string, to: string): Promise<string> {
  const taken = (err: unknown): boolean => ['EPERM', 'EEXIST', 'ENOTEMPTY'].includes((err as NodeJS.ErrnoException).code ?? '');
  let p = to;
  // A bound, not an expectation: only a rename that fails the same way at every name gets there.
  for (let tries = 0; tries < 1000; tries++, p = nextFolderName(p)) {
    try {
      await mkdir(p);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'EEXIST') continue;
      throw toExportError(err, p);
    }
    // Onto the claim; failing that (Windows, or something put a file in the claimed folder),
    // the claim is given back and the name tried once more.
    for (let attempt = 0; attempt < 2; attempt++) {
      if (attempt === 1) await rmdir(p).catch(() => undefined);
      try {
        await rename(from, p);
        livePartials.delete(from);
        return p;
      } catch (err) {
        if (!taken(err)) throw toExportError(err, p);
      }
    }
  }
  throw toExportError(Object.assign(new Error('no free name'), { code: 'EEXIST' }), to);
}

export async function discard(p: string): Promise<void> {
  await rm(p, { recursive: true, force: true }).catch(() => undefined);
  livePartials.delete(p);
}

/**
 * Small writes are gathered up to this size before they go to the stream: a manifest line
 * per exported page was a thread-pool write of ~150 bytes each. The file is a ".partial"
 * until the export seals it, so what sits here is never a file that looks finished.
 */
const GATHER_BYTES = 64 * 1024;

/**
 * A write stream that honours backpressure (so a slow disk throttles the reader instead
 * of piling results up in memory) and turns stream errors into SiftErrors.
 */
export class OutFile {
  readonly path: string;
  /** The path errors name: the export's final file or folder, not the hidden ".partial" this is. */
  private readonly shown: string;
  private readonly ws: WriteStream;
  private failed: unknown = null;
  private gathered: (string | Buffer)[] = [];
  private gatheredBytes = 0;
  bytes = 0;

  private constructor(p: string, shown: string, ws: WriteStream) {
    this.path = p;
    this.shown = shown;
    this.ws = ws;
    ws.on('error', (err) => {
      this.failed ??= err;
    });
  }

  /**
   * Opens (creates or truncates) `p`; fails here, not at the first write, when it cannot.
   * Errors name `shown`: "the disk is full while writing …/.x.jsonl.partial-123-ab12cd34"
   * named a file the user never sees.
   */
  static async open(p: string, shown: string = p): Promise<OutFile> {
    const ws = createWriteStream(p, { flags: 'w' });
    try {
      await once(ws, 'open');
    } catch (err) {
      throw toExportError(err, path.dirname(p));
    }
    return new OutFile(p, shown, ws);
  }

  /** The stream itself (for pipes); what write() gathered goes first. */
  get stream(): WriteStream {
    this.release();
    return this.ws;
  }

  async write(chunk: string | Buffer): Promise<void> {
    if (this.failed) throw toExportError(this.failed, this.shown);
    const n = typeof chunk === 'string' ? Buffer.byteLength(chunk) : chunk.length;
    this.bytes += n;
    this.gathered.push(chunk);
    this.gatheredBytes += n;
    if (this.gatheredBytes >= GATHER_BYTES && !this.release()) await this.drain();
  }

  /** Hands what write() gathered to the stream; false when the stream asks to wait (drain). */
  private release(): boolean {
    if (this.gathered.length === 0) return !this.ws.writableNeedDrain;
    const parts = this.gathered;
    this.gathered = [];
    this.gatheredBytes = 0;
    const data = parts.length === 1 ? parts[0]! : Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p) : p)));
    return this.ws.write(data);
  }

  async drain(): Promise<void> {
    if (this.failed) throw toExportError(this.failed, this.shown);
    this.release();
    if (!this.ws.writableNeedDrain) return;
    try {
      await once(this.ws, 'drain');
    } catch (err) {
      throw toExportError(err, this.shown);
    }
  }

  async close(): Promise<void> {
    if (this.failed) throw toExportError(this.failed, this.shown);
    if (!this.ws.closed) {
      this.release();
      const done = once(this.ws, 'close');
      this.ws.end();
      try {
        await done;
      } catch (err) {
        throw toExportError(err, this.shown);
      }
    }
    if (this.failed) throw toExportError(this.failed, this.shown);
  }

  destroy(): void {
    this.ws.destroy();
  }
}
