import { useEffect, useState } from 'react';
import type { MetricsSnapshot } from '../../../../shared/metrics';
import { histogramBars, outcomeBars, reasonBars } from '../../lib/metrics';
import { toUserError, type UserError } from '../../lib/errors';
import { ErrorMessage } from '../common/ErrorMessage';
import { BarChart } from './BarChart';

// Metrics are counters in main with no event of their own; while this panel is open a
// refresh every 3 s is cheap (one small object) and feels live.
const REFRESH_MS = 3000;

export function ActivityPanel(): React.JSX.Element {
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
  const avg = m.targetSeconds.count > 0 ? m.targetSeconds.sum / m.targetSeconds.count : 0;
  return (
    <section className="panel activity" data-testid="activity-panel">
      <h2>Activity</h2>
      <p className="muted">Since Sift started. Refreshes every few seconds while this panel is open.</p>
      <dl className="job-stats">
        <div className="stat"><dt>Jobs finished</dt><dd data-testid="metric-jobs">{jobsTotal.toLocaleString()}</dd></div>
        <div className="stat"><dt>Targets fetched</dt><dd data-testid="metric-targets">{targetsTotal.toLocaleString()}</dd></div>
        <div className="stat"><dt>Jobs live</dt><dd>{m.queueDepth}</dd></div>
        <div className="stat"><dt>Fetching now</dt><dd>{m.inflight}</dd></div>
        <div className="stat"><dt>Blocked</dt><dd>{m.blocked}</dd></div>
        <div className="stat"><dt>Average per target</dt><dd>{avg < 1 ? `${Math.round(avg * 1000)} ms` : `${avg.toFixed(1)} s`}</dd></div>
      </dl>
      {targetsTotal === 0 && jobsTotal === 0 ? (
        <p className="empty-state">Nothing fetched yet. Submit a list and its outcomes show up here.</p>
      ) : (
        <div className="charts">
          <BarChart title="Targets by outcome" bars={outcomeBars(Object.fromEntries(Object.entries(m.targets).filter(([k, v]) => v > 0 || k === 'ok')))} testId="chart-targets" />
          <BarChart title="Why targets failed" bars={reasonBars(m.targets)} testId="chart-reasons" />
          <BarChart title="Jobs by outcome" bars={outcomeBars(m.jobs)} testId="chart-jobs" />
          <BarChart title="Time per target" bars={histogramBars(m.targetSeconds)} testId="chart-durations" />
        </div>
      )}
      {error && <ErrorMessage error={error} />}
    </section>
  );
}
