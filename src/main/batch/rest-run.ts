import { isTerminal, targetOfRow, type Job } from '../../shared/types';
import type { Store } from '../store';
import { idemKey } from './canonical';
import type { Caller } from './types';

/**
 * The job that ran an ended job's rest (the app's "Run the rest again", `sift batch --rest`),
 * or undefined while none has. That rest is a list like any other, so its job is the newest
 * one of that list (its idempotency key, rule 1) still kept, of one of `callers`, made after
 * this job: no column says which job a rerun came from, and a rest deleted or expired is no
 * longer found, so the rest can be run again.
 */
export function restRunOf(store: Store, job: Job, callers: readonly Caller[], nowMs: number): string | undefined {
  if (!isTerminal(job.status)) return undefined;
  // What "run the rest again" takes of an ended job: those never reached and those cut short.
  const rest = store.targetRowsMatching(job.id, { status: 'pending', reason: '', warning: '' }, 0, -1).map((r) => targetOfRow(r));
  if (rest.length === 0) return undefined;
  for (const caller of callers) {
    const hit = store.jobByIdem(caller.name, idemKey(caller, rest), nowMs);
    // The list's own job, when nothing of it finished and it has not been run again.
    if (hit && hit.id !== job.id && hit.createdAt >= job.createdAt) return hit.id;
  }
  return undefined;
}
