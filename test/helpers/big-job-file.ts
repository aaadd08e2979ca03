/**
 * A big finished job's folder for a whole test file, in vitest's hooks: apart from big-job.ts,
 * which bench/ui-big-job.ts loads outside vitest (importing vitest there stopped that bench).
 */
import { afterAll, beforeAll } from 'vitest';
import { finishedJobOnDisk, type BigJobOptions, type JobOnDisk } from './big-job';

/**
 * finishedJobOnDisk for a whole test file (call at its top level): written in a beforeAll, its
 * fields set once that has run, and its folder removed in an afterAll. Called before appForFile,
 * the folder is removed after the app has closed (vitest's 'stack' order of hooks).
 */
export function finishedJobForFile(prefix: string, n: number, o: BigJobOptions = {}): JobOnDisk {
  const onDisk = {} as JobOnDisk;
  beforeAll(() => {
    Object.assign(onDisk, finishedJobOnDisk(prefix, n, o));
  });
  // 100,000 targets are some 30 MB of database: not left behind in the temp folder at each run.
  afterAll(() => onDisk.t?.remove());
  return onDisk;
}
