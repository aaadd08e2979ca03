import { useState } from 'react';
import { failedAs, FOUND_NOTHING, reasonCountLabel, warningLabel, warningWhy, type Reason } from '../../../../shared/reasons';
import { useStore } from '../../store';
import { jobReasonCounts, jobStepCounts, jobWarningCounts } from '../../store/detail';
import { isLive } from '../../lib/jobs';
import { counted } from '../../../../shared/count';
import { RetryDialog } from './RetryDialog';
import { FocusSafeButton } from '../common/FocusSafeButton';

/** "thin:2,no_text:1" back into pairs. */
const pairs = (key: string): [string, number][] =>
  key
    ? key.split(',').map((kv) => {
        const [r, n] = kv.split(':');
        return [r as string, Number(n)];
      })
    : [];

/**
 * Why the job's targets failed: one chip per reason with its count. A chip filters the
 * table to that reason; "Retry these" starts a fresh job from that reason's targets. Then
 * the targets that are ok with warnings (a thin page, a PDF without text), one chip per
 * warning, which filters the table to them; those whose grep, question, jq program or links
 * mode found nothing apart (FOUND_NOTHING), as that is an answer, not a fault.
 */
export function ReasonSummary({ id }: { id: string }): React.JSX.Element | null {
  // Strings, so the header re-renders only when a count changes, not on every row event; the
  // job's from its first page on (a big job's rows not read yet are counted by main).
  const key = useStore((s) => (s.detailJobId === id ? jobReasonCounts(s).map(([r, n]) => `${r}:${n}`).join(',') : ''));
  // The steps that failed (a jq program's), read only where a count can hold them.
  const stepKey = useStore((s) => (s.detailJobId === id && jobReasonCounts(s).some(([r]) => r === 'bad_option') ? jobStepCounts(s).map(([k, n]) => `${k}:${n}`).join(',') : ''));
  const warnKey = useStore((s) => (s.detailJobId === id ? jobWarningCounts(s).map(([w, n]) => `${w}:${n}`).join(',') : ''));
  const active = useStore((s) => s.filterReason);
  const live = useStore((s) => (s.jobs[id] ? isLive(s.jobs[id]) : false));
  const setFilter = useStore((s) => s.setFilter);
  const [retry, setRetry] = useState<Reason | null>(null);
  if (!key && !warnKey) return null;
  const counts = pairs(key) as [Reason, number][];
  const steps = pairs(stepKey);
  const labelOf = (reason: Reason): string => reasonCountLabel(reason, counts.find(([r]) => r === reason)?.[1] ?? 0, steps);
  const all = pairs(warnKey);
  const nothing = all.filter(([w]) => FOUND_NOTHING.includes(w));
  const warnings = all.filter(([w]) => !FOUND_NOTHING.includes(w));
  return (
    <div className="reason-summary" data-testid="reason-summary">
      {counts.length > 0 && (
        <span className="reason-group">
          <span className="muted reason-summary-label">Failed because</span>
          {counts.map(([reason, n]) => (
            <button
              key={reason}
              type="button"
              className={`reason-chip reason-${reason}${active === reason ? ' active' : ''}`}
              aria-pressed={active === reason}
              // Its count said as one: "HTTP error 1" read like an error code.
              aria-label={`${labelOf(reason)}: ${counted(n, 'target')}`}
              title={active === reason ? 'Show every target again' : `Show only the targets ${failedAs(labelOf(reason))}`}
              onClick={() => setFilter(active === reason ? { status: 'all', reason: '' } : { status: 'failed', reason, warning: '' })}
              data-testid="reason-chip"
              data-reason={reason}
            >
              {labelOf(reason)} <strong>{n.toLocaleString()}</strong>
            </button>
          ))}
        </span>
      )}
      {active && counts.some(([r]) => r === active) && (
        <FocusSafeButton
          className="primary"
          unavailable={live}
          why="Wait for the job to finish: its failed targets can be retried once it ends."
          onClick={() => setRetry(active)}
          data-testid="retry-reason"
        >
          Retry these…
        </FocusSafeButton>
      )}
      <WarningChips label="Found nothing" warnings={nothing} testId="found-nothing-summary" />
      <WarningChips label="OK with warnings" warnings={warnings} testId="warning-summary" />
      {retry && <RetryDialog jobId={id} reason={retry} label={labelOf(retry)} count={counts.find(([r]) => r === retry)?.[1] ?? 0} onClose={() => setRetry(null)} />}
    </div>
  );
}

/** One chip per warning with its count, under `label`; a chip filters the table to its targets. */
function WarningChips({ label, warnings, testId }: { label: string; warnings: [string, number][]; testId: string }): React.JSX.Element | null {
  const activeWarning = useStore((s) => s.filterWarning);
  const setFilter = useStore((s) => s.setFilter);
  if (warnings.length === 0) return null;
  return (
    <span className="reason-group" data-testid={testId}>
      <span className="muted reason-summary-label">{label}</span>
      {warnings.map(([w, n]) => (
        <button
          key={w}
          type="button"
          className={`warning-chip${activeWarning === w ? ' active' : ''}`}
          aria-pressed={activeWarning === w}
          aria-label={`${warningLabel(w)}: ${counted(n, 'target')}`}
          title={activeWarning === w ? 'Show every target again' : `${warningWhy(w, 'app')} Show only these targets.`.trim()}
          onClick={() => setFilter(activeWarning === w ? { status: 'all', warning: '' } : { status: 'done', reason: '', warning: w })}
          data-testid="warning-chip"
          data-warning={w}
        >
          {warningLabel(w)} <strong>{n.toLocaleString()}</strong>
        </button>
      ))}
    </span>
  );
}
