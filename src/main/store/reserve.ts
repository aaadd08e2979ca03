import { closeSync, openSync, unlinkSync, writeSync } from 'node:fs';

/**
 * Room on the database's disk kept for the one write that matters when the disk fills: the
 * job's "failed (disk full)". A full disk stops a batch at the write of a target's result;
 * the job's status is the next write, and it needs a few pages more in the WAL. Without room
 * kept for it, whether it fitted depended on where the WAL's last page happened to end, and a
 * job that did not fit read "failed (restart)" at the next start, telling the user nothing
 * about the disk (db-faults.test.ts found it after an index change moved the WAL's end).
 *
 * The room is a file of zeros beside the database, written (not sparse, so the disk has given
 * it its blocks), freed when SQLite says the disk is full, and made again by the next open
 * that has room. CockroachDB keeps an "emergency ballast" file for the same reason. The store
 * owns its database alone (locking_mode=EXCLUSIVE), so one file per database is enough, and
 * close() removes it with the WAL: nothing is left beside the database once Sift exits.
 */
export interface DiskReserve {
  /** Gives the room back to the disk; false if there was none to give. */
  release(): boolean;
  /** Removes the file (the store is closing). */
  close(): void;
}

// A job's status write takes 2–4 WAL frames of 4 KiB (its row, an index page, the commit),
// measured on the full-disk test; 64 KiB is room for 15, and costs nothing a user would see.
export const RESERVE_BYTES = 64 * 1024;

/** Undefined when there is no room even for this, or the folder refuses the file: the store works as before. */
export function diskReserve(dbPath: string, bytes = RESERVE_BYTES): DiskReserve | undefined {
  const file = `${dbPath}-reserve`;
  if (!fill(file, bytes)) return undefined;
  let present = true;
  const remove = (): boolean => {
    if (!present) return false;
    present = false;
    try {
      unlinkSync(file);
      return true;
    } catch {
      return false;
    }
  };
  return { release: remove, close: () => void remove() };
}

/** Writes `bytes` zeros to `file` (replacing what a killed Sift left there); on any failure removes it. */
function fill(file: string, bytes: number): boolean {
  try {
    const fd = openSync(file, 'w');
    try {
      const zeros = Buffer.alloc(bytes);
      for (let at = 0; at < bytes; ) at += writeSync(fd, zeros, at, bytes - at, at);
    } finally {
      closeSync(fd);
    }
    return true;
  } catch {
    try {
      unlinkSync(file);
    } catch {
      // Never made, or the folder refuses: either way nothing is kept.
    }
    return false;
  }
}
