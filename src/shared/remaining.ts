import { isTerminal, type Job, type TargetRow } from './types';

/** What is left of a running job, as its header and progress line say it. */
export interface Remaining {
  /** Estimated ms left; with `slowMs`, only that of the targets after the slow one: a floor. */
  ms: number;
  /** The target in flight has taken this long, well past the others' pace: when it ends is not known. */
  slowMs?: number;
}

/**
 * A target in flight this long, and more than SLOW_PACE times the pace so far, is slow: when it
 * ends is anyone's guess (the fetch deadline is 210 s). Under 5 s, a page a little slower than
 * the rest would flip the header's words back and forth; a page twice the pace is still in
 * the spread of a list's pages.
 */
const SLOW_MIN_MS = 5000;
const SLOW_PACE = 2;

/**
 * When the target in flight began its current try, or null when none is fetching. Not the job's
 * last write: a target waits for a worker slot after it (the app runs up to 8 jobs on 4 workers,
 * and more run beside a CLI batch), and that wait, like one between two tries of a busy site,
 * is not the URL's own time. A running row's startedAt is set once it has its slot; during and
 * after a wait to try again, the next try's start (wait.until) is; a pending row has none.
 */
export function fetchingSince(row: Pick<TargetRow, 'status' | 'startedAt' | 'wait'> | undefined): number | null {
  if (row?.status !== 'running') return null;
  return row.wait?.until ?? row.startedAt;
}

/**
 * Time left from the pace of the targets finished so far. What the target in flight has
 * taken since `since` (fetchingSince) counts against its own share, and once it is slow
 * it is said rather than spread over the others (a URL hanging for a minute read "a few
 * seconds" the whole minute, the pace being that of the 49 fast ones). Null until a target is
 * done (a guess from none would be noise) unless the first is slow, and once the job has ended.
 */
export function estimateRemaining(
  j: Pick<Job, 'status' | 'targetsDone' | 'targetsTotal' | 'createdAt' | 'updatedAt'>,
  nowMs: number,
  since: number | null,
): Remaining | null {
  const done = j.targetsDone;
  if (isTerminal(j.status) || done >= j.targetsTotal) return null;
  const inFlight = since === null ? 0 : Math.max(0, nowMs - since);
  // The first URL hanging: no pace to go by, but the wait itself is worth saying.
  if (done <= 0) return inFlight >= SLOW_MIN_MS ? { ms: 0, slowMs: inFlight } : null;
  const pace = Math.max(0, j.updatedAt - j.createdAt) / done;
  const after = (j.targetsTotal - done - 1) * pace;
  if (inFlight >= SLOW_MIN_MS && inFlight > SLOW_PACE * pace) return { ms: after, slowMs: inFlight };
  return { ms: after + Math.max(0, pace - inFlight) };
}
