import { useEffect, useState } from 'react';
import type { MetricsSnapshot } from '../../../../shared/metrics';
import { histogramBars, outcomeBars, reasonBars, warningBars } from '../../lib/metrics';
import { toUserError, type UserError } from '../../lib/errors';
import { ErrorMessage } from '../common/ErrorMessage';
import { formatBytes } from '../../../../shared/bytes';
import { useStore } from '../../store';
import { BarChart } from './BarChart';

// Metrics are counters in main with no event of their own; while this panel is open a
// refresh every 3 s is cheap (one small object) and feels live.
const REFRESH_MS = 3000;

export function ActivityPanel(): React.JSX.Element {
  const hasJobs = useStore((s) => s.jobOrder.length > 0);
  const [m, setM] = useState<MetricsSnapshot | null>(null);
  const [error, setError] = useState<UserError | null>(null);
  useEffect(() => {
    let alive = true;
    const load = (): void => {
      window.sift.metrics().then(
        (x) => {
          if (!alive) return;
          setM(x);
          setError(null);
        },
        (err: unknown) => alive && setError(toUserError(err)),
      );
    };
    load();
    const t = setInterval(load, REFRESH_MS);
    return () => {
      alive = false;
      clearInterval(t);
    };
  }, []);

  if (error && !m) return <section className="panel"><ErrorMessage error={error} /></section>;
  if (!m) return <section className="panel"><p className="muted">Loading activity…</p></section>;
  const targetsTotal = Object.values(m.targets).reduce((a, b) => a + b, 0);
  const jobsTotal = Object.values(m.jobs).reduce((a, b) => a + b, 0);
  const avg = m.targetSeconds.count > 0 ? m.targetSeconds.sum / m.targetSeconds.count : undefined;
  return (
    <section className="panel activity" data-testid="activity-panel">
      <h2>Activity</h2>
      <p className="muted">Counted since Sift last started: the counts start at zero each time. Refreshes every few seconds while this panel is open.</p>
      <dl className="job-stats">
        <div className="stat"><dt>Jobs finished</dt><dd data-testid="metric-jobs">{jobsTotal.toLocaleString()}</dd></div>
        <div className="stat"><dt>URLs finished</dt><dd data-testid="metric-targets">{targetsTotal.toLocaleString()}</dd></div>
        <div className="stat"><dt>OK with warnings</dt><dd data-testid="metric-warned">{m.warned.toLocaleString()}</dd></div>
        <div className="stat"><dt>Jobs live</dt><dd data-testid="metric-live">{m.queueDepth}</dd></div>
        <div className="stat"><dt>Fetching now</dt><dd data-testid="metric-inflight">{m.inflight}</dd></div>
        <div className="stat"><dt>Refused: private address</dt><dd data-testid="metric-blocked">{m.blocked}</dd></div>
        <div className="stat"><dt>Results stored</dt><dd data-testid="metric-bytes">{formatBytes(m.resultBytes.sum)}</dd></div>
        <div className="stat"><dt>Average per URL</dt><dd data-testid="metric-average">{avg === undefined ? '—' : avg < 1 ? `${Math.round(avg * 1000)} ms` : `${avg.toFixed(1)} s`}</dd></div>
      </dl>
      {targetsTotal === 0 && jobsTotal === 0 ? (
        <p className="empty-state" data-testid="activity-empty">
          {/* After a restart the job list is full while these counts are zero: say which is which. */}
          {hasJobs
            ? 'Nothing fetched since Sift started. The jobs in the list on the left ran before; what a new list does shows up here.'
            : 'Nothing fetched yet. Submit a list and its outcomes show up here.'}
        </p>
      ) : (
        <div className="charts">
          <BarChart title="URLs by outcome" columns={['Outcome', 'URLs']} bars={outcomeBars(Object.fromEntries(Object.entries(m.targets).filter(([k, v]) => v > 0 || k === 'ok')))} testId="chart-targets" />
          <BarChart title="Why URLs failed" columns={['Reason', 'URLs']} bars={reasonBars(m.targets)} testId="chart-reasons" />
          {m.warned > 0 && <BarChart title="Warnings on OK URLs" columns={['Warning', 'URLs']} bars={warningBars(m.warnings)} testId="chart-warnings" />}
          <BarChart title="Jobs by outcome" columns={['Outcome', 'Jobs']} bars={outcomeBars(m.jobs)} testId="chart-jobs" />
          <BarChart title="Time per URL" columns={['Time', 'URLs']} bars={histogramBars(m.targetSeconds)} testId="chart-durations" />
        </div>
      )}
      {error && <ErrorMessage error={error} />}
    </section>
  );
}
