import { closeSync, fsync, fsyncSync, openSync } from 'node:fs';

/**
 * Puts a database's write-ahead log on the disk off the main thread (group commit).
 *
 * A target's outcome is committed with synchronous=NORMAL: the commit is in the WAL, in the
 * OS's cache, before the next target starts (seed rule 4), so a crash or kill of Sift loses
 * nothing that finished. `wrote()` then starts an fsync of the WAL on libuv's thread pool;
 * while one runs, later commits wait for the next, which covers them all. A power cut can
 * lose only the commits of the flush in progress, about one fsync's time (they come back as
 * not run: SQLite replays the WAL's valid prefix, whole transactions only).
 *
 * With synchronous=FULL each commit waited for its own fsync on the main thread: 0.3 to 2.8
 * ms a target on this project's machines, depending on the disk's moment, more than the
 * fetch and the commit's own work together (issue 15, bench batch).
 */
export interface WalSync {
  /** A commit was made with synchronous=NORMAL: get it to the disk. */
  wrote(): void;
  /** False once an fsync failed: commits must then be made with synchronous=FULL, so SQLite reports the error. */
  readonly healthy: boolean;
  /** Syncs what is pending (synchronously) and lets go of the file. */
  close(): void;
}

/** Undefined when the WAL cannot be opened (a database in memory, a file system that refuses): commit with FULL then. */
export function walSync(walPath: string): WalSync | undefined {
  let fd: number;
  try {
    // r+: Windows' FlushFileBuffers needs write access; nothing is ever written through it.
    fd = openSync(walPath, 'r+');
  } catch {
    return undefined;
  }
  let flushing = false;
  let pending = false;
  let healthy = true;
  let closed = false;

  const flush = (): void => {
    flushing = true;
    pending = false;
    fsync(fd, (err) => {
      flushing = false;
      if (err) healthy = false;
      // close() left the descriptor to this callback: closing it under a running fsync could
      // hand its number to another file.
      if (closed) return closeSync(fd);
      if (pending && healthy) flush();
    });
  };

  return {
    wrote() {
      if (closed || !healthy) return;
      pending = true;
      if (!flushing) flush();
    },
    get healthy() {
      return healthy;
    },
    close() {
      if (closed) return;
      closed = true;
      if (flushing) return;
      try {
        if (pending && healthy) fsyncSync(fd);
      } catch {
        // The database's own close checkpoints the WAL with syncs and reports what fails.
      }
      closeSync(fd);
    },
  };
}
