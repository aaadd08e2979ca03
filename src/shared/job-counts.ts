import type { Job } from './types';

/*
 * The counts a person reads. The store counts the target a cancel or a crash cut short as
 * done and failed; it is neither, and "run the rest again" fetches it: after a crash the
 * header said "Done 168 / 200" and "Failed 1" above "stopped after 167 targets".
 */
export type JobCounts = Pick<Job, 'targetsTotal' | 'targetsDone' | 'targetsFailed' | 'targetsCutShort'>;
/** Targets that ran to their end, ok or failed. */
export const finishedCount = (j: JobCounts): number => j.targetsDone - (j.targetsCutShort ?? 0);
/** Targets that failed for a reason of their own (not cut short). */
export const failedCount = (j: JobCounts): number => j.targetsFailed - (j.targetsCutShort ?? 0);
/** Targets not finished: never reached, or cut short; what "run the rest again" takes. */
export const unfinishedCount = (j: JobCounts): number => j.targetsTotal - finishedCount(j);
