import { isTerminal, targetOfRow, type Job } from '../../shared/types';
import { unfinishedCount } from '../../shared/job-counts';
import type { Store } from '../store';
import { idemKeys } from './canonical';
import type { Caller } from './types';

/** The ended jobs whose rest's keys are kept: the few a person goes back and forth between. */
const KEPT_RESTS = 8;

/**
 * Finds the job that ran an ended job's rest (the app's "Run the rest again", `sift batch
 * --rest`), or undefined while none has. That rest is a list like any other, so its job is the
 * newest one of that list (its idempotency key, rule 1) still kept, of one of `callers`, made
 * after this job: no column says which job a rerun came from, and a rest deleted or expired is
 * no longer found, so the rest can be run again.
 */
export function restRunFinder(store: Store, callers: readonly Caller[]): (job: Job, nowMs: number) => string | undefined {
  // The rest's key per caller, of the job as it was at updatedAt: an ended job's rest changes
  // only with a write (the target a cancel cut short, stored after it), which moves updatedAt.
  const kept = new Map<string, { updatedAt: number; keys: string[] }>();
  const keysOf = (job: Job): string[] => {
    const known = kept.get(job.id);
    if (known?.updatedAt === job.updatedAt) return known.keys;
    // What "run the rest again" takes of an ended job: those never reached and those cut short.
    const rest = store.targetRowsMatching(job.id, { status: 'pending', reason: '', warning: '' }, 0, -1).map((r) => targetOfRow(r));
    const keys = rest.length ? idemKeys(callers, rest) : [];
    kept.delete(job.id);
    kept.set(job.id, { updatedAt: job.updatedAt, keys });
    if (kept.size > KEPT_RESTS) kept.delete(kept.keys().next().value!);
    return keys;
  };
  return (job, nowMs) => {
    if (!isTerminal(job.status)) return undefined;
    // Only a kept job of as many targets as the rest, made since, can be its run; the rest is
    // read and keyed only then, and once. Each open of a cancelled job of 100,000 targets read
    // and keyed them, 1.2-2.4 s of the main process on a loaded machine, most often to find
    // that no job had run them.
    const left = unfinishedCount(job);
    if (left === 0 || !callers.some((c) => store.countJobsOfSize(c.name, left, job.createdAt, nowMs, job.id) > 0)) return undefined;
    const keys = keysOf(job);
    for (const [i, caller] of callers.entries()) {
      const key = keys[i];
      const hit = key === undefined ? undefined : store.jobByIdem(caller.name, key, nowMs);
      // The list's own job, when nothing of it finished and it has not been run again.
      if (hit && hit.id !== job.id && hit.createdAt >= job.createdAt) return hit.id;
    }
    return undefined;
  };
}
