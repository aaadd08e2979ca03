import type { StateCreator } from 'zustand';
import type { Job } from '../../../shared/types';
import type { State } from './index';

export interface JobsSlice {
  /** Every job main knows, by id. */
  jobs: Record<string, Job>;
  /** Ids, newest first; recomputed only when a job appears or goes away. */
  jobOrder: string[];
  jobsLoaded: boolean;
  /** Older jobs main did not list (it lists the newest LISTED_JOBS), as of the listing. */
  jobsUnlisted: number;
  /** The job list's item that last had the focus: the list's one Tab stop (JobList.tsx). */
  listFocus: string | null;
  setListFocus(id: string | null): void;
  setJobs(jobs: Job[], unlisted?: number): void;
  applyJob(job: Job): void;
  removeJob(id: string): void;
}

function order(jobs: Record<string, Job>): string[] {
  return Object.values(jobs)
    .sort((a, b) => b.createdAt - a.createdAt || (a.id < b.id ? 1 : -1))
    .map((j) => j.id);
}

/**
 * Events and the initial listJobs answer may cross; updatedAt decides, so a late answer
 * never rolls a job back to an older state.
 */
function newer(current: Job | undefined, next: Job): boolean {
  return !current || next.updatedAt >= current.updatedAt;
}

export const createJobsSlice: StateCreator<State, [], [], JobsSlice> = (set) => ({
  jobs: {},
  jobOrder: [],
  jobsLoaded: false,
  jobsUnlisted: 0,
  listFocus: null,
  setListFocus: (listFocus) => set((s) => (s.listFocus === listFocus ? {} : { listFocus })),
  setJobs: (list, unlisted = 0) =>
    set((s) => {
      const jobs: Record<string, Job> = {};
      for (const j of list) jobs[j.id] = newer(s.jobs[j.id], j) ? j : s.jobs[j.id]!;
      return { jobs, jobOrder: order(jobs), jobsLoaded: true, jobsUnlisted: unlisted };
    }),
  applyJob: (job) =>
    set((s) => {
      if (!newer(s.jobs[job.id], job)) return {};
      const isNew = !s.jobs[job.id];
      const jobs = { ...s.jobs, [job.id]: job };
      return isNew ? { jobs, jobOrder: order(jobs) } : { jobs };
    }),
  removeJob: (id) =>
    set((s) => {
      if (!s.jobs[id]) return {};
      const jobs = { ...s.jobs };
      delete jobs[id];
      return { jobs, jobOrder: s.jobOrder.filter((x) => x !== id) };
    }),
});
