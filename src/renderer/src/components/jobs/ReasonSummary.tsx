import { useState } from 'react';
import { REASON_LABELS, type Reason } from '../../../../shared/reasons';
import { useStore } from '../../store';
import { reasonCounts } from '../../store/detail';
import { isLive } from '../../lib/jobs';
import { RetryDialog } from './RetryDialog';

/**
 * Why the job's targets failed: one chip per reason with its count. A chip filters the
 * table to that reason; "Retry these" starts a fresh job from that reason's targets.
 */
export function ReasonSummary({ id }: { id: string }): React.JSX.Element | null {
  // A string, so the header re-renders only when a count changes, not on every row event.
  const key = useStore((s) => (s.detailJobId === id ? reasonCounts(s.rows).map(([r, n]) => `${r}:${n}`).join(',') : ''));
  const active = useStore((s) => s.filterReason);
  const live = useStore((s) => (s.jobs[id] ? isLive(s.jobs[id]) : false));
  const setFilter = useStore((s) => s.setFilter);
  const [retry, setRetry] = useState<Reason | null>(null);
  if (!key) return null;
  const counts = key.split(',').map((kv) => {
    const [r, n] = kv.split(':');
    return [r as Reason, Number(n)] as const;
  });
  return (
    <div className="reason-summary" data-testid="reason-summary">
      <span className="muted reason-summary-label">Failed because</span>
      {counts.map(([reason, n]) => (
        <button
          key={reason}
          type="button"
          className={`reason-chip reason-${reason}${active === reason ? ' active' : ''}`}
          aria-pressed={active === reason}
          title={active === reason ? 'Show every target again' : `Show only the targets that failed as ${REASON_LABELS[reason]}`}
          onClick={() => setFilter(active === reason ? { status: 'all', reason: '' } : { status: 'failed', reason })}
          data-testid="reason-chip"
          data-reason={reason}
        >
          {REASON_LABELS[reason]} <strong>{n.toLocaleString()}</strong>
        </button>
      ))}
      {active && counts.some(([r]) => r === active) && (
        <button
          type="button"
          className="primary"
          disabled={live}
          title={live ? 'Wait for the job to finish' : undefined}
          onClick={() => setRetry(active)}
          data-testid="retry-reason"
        >
          Retry these…
        </button>
      )}
      {retry && <RetryDialog jobId={id} reason={retry} count={counts.find(([r]) => r === retry)?.[1] ?? 0} onClose={() => setRetry(null)} />}
    </div>
  );
}
