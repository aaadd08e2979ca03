import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';

/**
 * A small tmpfs of our own at dir (a disk that fills up; with readOnly, a disk that takes no
 * writes, as a mounted image or a locked card), or false where this user may not mount one.
 */
export function mountTmpfs(dir: string, size: string, o: { readOnly?: boolean } = {}): boolean {
  mkdirSync(dir, { recursive: true });
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${size}${o.readOnly ? ',ro' : ''}`, 'tmpfs', dir], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/**
 * Unmounts what mountTmpfs mounted (if it did) and removes the folder. Lazily (-l): a log
 * file a closed Sift leaves to the OS to close would keep the mount busy.
 */
export function unmountTmpfs(dir: string, mounted: boolean): void {
  if (mounted) execFileSync('umount', ['-l', dir]);
  rmSync(dir, { recursive: true, force: true });
}
