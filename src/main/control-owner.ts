/**
 * Which Sift answers requests for a database (control.ts): the owner that watches its control
 * folder leaves `owner-<pid>` there while it does. A database locked with no such file is held
 * by something that will never answer (sqlite3 left open, a backup tool, an older Sift), so a
 * reader says so at once: it waited 5 s for an answer, then blamed "another Sift".
 */
import { existsSync, readdirSync, realpathSync, rmdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { makeDirsSync } from './mkdirs';
import { processGone } from './process-gone';

export const controlDir = (dbPath: string): string => `${realPath(dbPath)}.control`;

/**
 * SQLite follows a symlinked database to its file (its lock and WAL are the file's), so the
 * folder is named by the file too: `--db ~/sift.db` linked to the app's database asked a
 * folder the app never looked in, and every request went unanswered.
 */
function realPath(p: string): string {
  try {
    return realpathSync(p);
  } catch {
    return p; // not made yet
  }
}

/** The owner's mark, named by its pid: one a killed owner left is read as no owner. */
export const OWNER_FILE = /^owner-([1-9][0-9]{0,9})$/;

/** Marks this process as the one answering requests for dbPath; the returned function removes the mark. */
export function markAnswering(dbPath: string): () => void {
  const dir = controlDir(dbPath);
  const mark = path.join(dir, `owner-${process.pid}`);
  // Already marked by this process (another engine over the same file, a test's stand-in owner): that one's to remove.
  if (existsSync(mark)) return () => {};
  const made = !existsSync(dir);
  try {
    makeDirsSync(dir);
    writeFileSync(mark, '');
  } catch {
    // Unmarked, readers give up at once instead of waiting: the same words as before the mark.
  }
  return () => {
    rmSync(mark, { force: true });
    // The folder the mark made goes with it, when no reader has put a request in it since.
    if (made) {
      try {
        rmdirSync(dir);
      } catch {}
    }
  };
}

/** Whether a live Sift answers requests for dbPath. */
export function answeringOwner(dbPath: string): boolean {
  let names: string[];
  try {
    names = readdirSync(controlDir(dbPath));
  } catch {
    return false;
  }
  return names.some((n) => {
    const m = OWNER_FILE.exec(n);
    return m !== null && !processGone(Number(m[1]));
  });
}
