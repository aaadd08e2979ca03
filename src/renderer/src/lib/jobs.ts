import type { Job } from '../../../shared/types';
import { plural } from './format';

/** The error main stores on jobs it found in flight at start-up (SPEC §3 rule 8). */
export const RESTART_ERROR = 'restart';

export const isInterrupted = (j: Pick<Job, 'status' | 'error'>): boolean => j.status === 'failed' && j.error === RESTART_ERROR;
export const isLive = (j: Pick<Job, 'status'>): boolean => j.status === 'queued' || j.status === 'running';
export const okCount = (j: Pick<Job, 'targetsDone' | 'targetsFailed'>): number => j.targetsDone - j.targetsFailed;

/** A job as the job list names it: its list's name (a file's, or the first URL's host) and the count. */
export function jobName(j: Pick<Job, 'label' | 'targetsTotal'>): string {
  const count = plural(j.targetsTotal, 'URL');
  return j.label ? `${j.label} · ${count}` : count;
}
