/**
 * Whether no process has this pid: files named by a dead writer's pid (an export's partial,
 * a reader's snapshot) may go. Signal 0 only asks; EPERM is another user's live process, and
 * any other answer keeps the files too.
 */
export function processGone(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return false;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'ESRCH';
  }
}
