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

/** A status in a word; `stop` says instead why a job or target stopped short (stopBadge, NOT_FETCHED). */
export function StatusBadge({ status, stop }: { status: JobStatus | TargetState; stop?: StopBadge | undefined }): React.JSX.Element {
  return (
    <span className={`badge badge-${stop ? stop.kind : status}`} data-status={status} data-testid="status-badge" title={stop?.title}>
      {stop ? stop.label : LABELS[status]}
    </span>
  );
}
