/**
 * Room for a snapshot: the copy of the database another process reads while this one owns
 * it (control.ts) is written on the database's own disk.
 */
import { statfsSync } from 'node:fs';
import { dirname } from 'node:path';
import type Database from 'better-sqlite3';

/**
 * What a snapshot must leave free on its disk. The owner goes on storing results while the
 * copy is written and read: each up to 8 MiB (the default "Largest result"), written to the
 * WAL and again to the search index, for the few targets a copy's life spans. A copy that took
 * the disk's last bytes stopped the owner's running job as "disk full": `sift jobs` run to
 * see its progress ended it.
 */
export const SNAPSHOT_HEADROOM_BYTES = 64 * 1024 * 1024;

/** The copy would not leave SNAPSHOT_HEADROOM_BYTES free: nothing was written. */
export class NoRoomForSnapshot extends Error {
  constructor(
    readonly needBytes: number,
    readonly freeBytes: number,
  ) {
    super(`no room for a snapshot: it needs ${needBytes} bytes, ${freeBytes} are free`);
    this.name = 'NoRoomForSnapshot';
  }
}

/** Bytes this user may still write on the disk that holds dir; undefined where it cannot be told. */
function freeBytesAt(dir: string): number | undefined {
  try {
    const s = statfsSync(dir);
    return s.bavail * s.bsize;
  } catch {
    return undefined;
  }
}

/** Throws NoRoomForSnapshot when a copy of db at dest would leave its disk too full for the owner's own writes. */
export function checkRoomForSnapshot(db: Database.Database, dest: string): void {
  // The copy is the database's pages, those still in the WAL included.
  const need = Number(db.pragma('page_count', { simple: true })) * Number(db.pragma('page_size', { simple: true }));
  const free = freeBytesAt(dirname(dest));
  if (free !== undefined && need + SNAPSHOT_HEADROOM_BYTES > free) throw new NoRoomForSnapshot(need, free);
}

/** SQLite or the OS saying the disk is full. */
export function isDiskFull(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return code === 'SQLITE_FULL' || code === 'ENOSPC' || code === 'EDQUOT';
}
