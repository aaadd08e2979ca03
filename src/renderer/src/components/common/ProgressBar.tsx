/** Done targets in two colours (ok, failed) over the total. */
export function ProgressBar({ ok, failed, total, label }: { ok: number; failed: number; total: number; label: string }): React.JSX.Element {
  const pct = (n: number): string => `${total > 0 ? (100 * n) / total : 0}%`;
  return (
    <div className="progress" role="progressbar" aria-label={label} aria-valuemin={0} aria-valuemax={total} aria-valuenow={ok + failed}>
      <div className="progress-ok" style={{ width: pct(ok) }} />
      <div className="progress-failed" style={{ width: pct(failed) }} />
    </div>
  );
}
