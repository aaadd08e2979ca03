/**
 * `mkdir -p` that always ends. Node 20's recursive mkdir never returns where a folder exists
 * but answers ENOENT for a child it cannot hold (/proc/x: it makes the parent, which exists,
 * and tries the child again, forever; sync and async alike). Here each missing folder is made
 * once, from the outermost missing one in, and the first refusal is the answer.
 */
import { mkdirSync, statSync, type Stats } from 'node:fs';
import { mkdir, stat } from 'node:fs/promises';
import path from 'node:path';

const codeOf = (err: unknown): string => (err as NodeJS.ErrnoException | null)?.code ?? '';

/** A missing path is undefined, as statSync's throwIfNoEntry: false gives it; any other failure is thrown. */
const absent = (err: unknown): undefined => {
  if (codeOf(err) === 'ENOENT') return undefined;
  throw err;
};

const notADirectory = (p: string): NodeJS.ErrnoException =>
  Object.assign(new Error(`ENOTDIR: not a directory, mkdir '${p}'`), { code: 'ENOTDIR', path: p });

/** Whether the walk up stops at `s` (an existing folder); throws where a file is in the way. */
function stopsAt(s: Stats | undefined, p: string): boolean {
  if (s && !s.isDirectory()) throw notADirectory(p);
  return s !== undefined;
}

export function makeDirsSync(dir: string): void {
  const missing: string[] = [];
  for (let d = path.resolve(dir); ; d = path.dirname(d)) {
    if (stopsAt(statSync(d, { throwIfNoEntry: false }), d)) break;
    missing.unshift(d);
    if (path.dirname(d) === d) break;
  }
  for (const d of missing) {
    try {
      mkdirSync(d);
    } catch (err) {
      // Made meanwhile by someone else: fine if it is a folder.
      if (codeOf(err) !== 'EEXIST' || !statSync(d).isDirectory()) throw err;
    }
  }
}

/** Returns the folders it made, outermost first, for a caller that removes them again when its work fails. */
export async function makeDirs(dir: string): Promise<string[]> {
  const missing: string[] = [];
  for (let d = path.resolve(dir); ; d = path.dirname(d)) {
    if (stopsAt(await stat(d).catch(absent), d)) break;
    missing.unshift(d);
    if (path.dirname(d) === d) break;
  }
  const made: string[] = [];
  for (const d of missing) {
    try {
      await mkdir(d);
      made.push(d);
    } catch (err) {
      if (codeOf(err) !== 'EEXIST' || !(await stat(d)).isDirectory()) throw err;
    }
  }
  return made;
}
