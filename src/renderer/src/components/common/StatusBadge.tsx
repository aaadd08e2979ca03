import type { JobStatus, TargetState } from '../../../../shared/types';

const LABELS: Record<JobStatus | TargetState, string> = {
  queued: 'queued',
  running: 'running',
  done: 'done',
  failed: 'failed',
  partial: 'partly failed',
  cancelled: 'cancelled',
  pending: 'pending',
};

export function StatusBadge({ status, interrupted }: { status: JobStatus | TargetState; interrupted?: boolean }): React.JSX.Element {
  return (
    <span className={`badge badge-${interrupted ? 'interrupted' : status}`} data-status={status}>
      {interrupted ? 'interrupted' : LABELS[status]}
    </span>
  );
}
