import type { Runner } from '../../src/main/batch';
import { isTerminal, type Job } from '../../src/shared/types';

/**
 * The job once it has ended (a terminal status): at once if it already has, else at the
 * runner's job event, not by polling its status.
 */
export function finished(runner: Runner, id: string): Promise<Job> {
  return new Promise((resolve) => {
    const now = runner.status(id)?.job;
    if (now && isTerminal(now.status)) return resolve(now);
    const off = runner.on('job', (j) => {
      if (j.id === id && isTerminal(j.status)) {
        off();
        resolve(j);
      }
    });
  });
}
