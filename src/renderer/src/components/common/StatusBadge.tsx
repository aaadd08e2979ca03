import type { JobStatus, TargetState } from '../../../../shared/types';
import type { StopBadge } from '../../lib/jobs';

const LABELS: Record<JobStatus | TargetState, string> = {
  queued: 'queued',
  running: 'running',
  done: 'done',
  failed: 'failed',
  partial: 'partly failed',
  cancelled: 'cancelled',
  pending: 'pending',
};

/**
 * A status in a word; `stop` says instead why a failed job stopped (stopBadge). A target still
 * pending in a job that has ended (cancelled, interrupted, stopped) will not be fetched by it:
 * `ended` says so, where "pending" read as still to come.
 */
export function StatusBadge({ status, stop, ended }: { status: JobStatus | TargetState; stop?: StopBadge | undefined; ended?: boolean }): React.JSX.Element {
  if (ended && status === 'pending') {
    return (
      <span className="badge badge-not-fetched" data-status={status} data-testid="status-badge" title="Not fetched: the job ended before it. Run the rest again to fetch it.">
        not fetched
      </span>
    );
  }
  return (
    <span className={`badge badge-${stop ? stop.kind : status}`} data-status={status} data-testid="status-badge" title={stop?.title}>
      {stop ? stop.label : LABELS[status]}
    </span>
  );
}
