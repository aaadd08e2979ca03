import type { Job, RowOutcome, TargetRow } from '../shared/types';
import type { Emit } from './services';

/**
 * Coalesces runner change events into at most one jobChanged and one targetsChanged message
 * per job per tick. At 200 ms that is ≤ 10 messages a second per job however fast the job
 * runs, and each message carries every change since the last, so none is lost.
 */
export class EventBatcher {
  private jobs = new Map<string, Job>();
  private rows = new Map<string, Map<number, { row: TargetRow; was: RowOutcome }>>();
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly emit: Emit,
    private readonly intervalMs = 200,
  ) {}

  job(job: Job): void {
    this.jobs.set(job.id, job);
    this.schedule();
  }

  /** A target's row now, and its outcome before this change: a row changed twice in a tick keeps its first. */
  target(jobId: string, row: TargetRow, was: RowOutcome): void {
    let m = this.rows.get(jobId);
    if (!m) this.rows.set(jobId, (m = new Map()));
    m.set(row.idx, { row, was: m.get(row.idx)?.was ?? was });
    this.schedule();
  }

  /** Sends everything pending now (on a terminal status, so the UI shows it at once). */
  flush(): void {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = null;
    }
    const rows = this.rows;
    const jobs = this.jobs;
    this.rows = new Map();
    this.jobs = new Map();
    // Rows first: a renderer that sees a job turn done has its rows already.
    for (const [jobId, m] of rows) {
      const changes = [...m.values()].sort((a, b) => a.row.idx - b.row.idx);
      this.emit('targetsChanged', { jobId, rows: changes.map((c) => c.row), was: changes.map((c) => c.was) });
    }
    for (const job of jobs.values()) this.emit('jobChanged', job);
  }

  close(): void {
    this.flush();
  }

  private schedule(): void {
    if (this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.flush();
    }, this.intervalMs);
    this.timer.unref?.();
  }
}
