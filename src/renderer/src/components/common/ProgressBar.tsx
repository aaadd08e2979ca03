/**
 * Done targets in two colours (ok, failed) over the total. Without a label it is a picture of
 * counts said in words beside it: inside a job list item its value was read into the item's
 * name ("… 12:44 PM 3 3 / 4 done").
 */
export function ProgressBar({ ok, failed, total, label }: { ok: number; failed: number; total: number; label?: string }): React.JSX.Element {
  const pct = (n: number): string => `${total > 0 ? (100 * n) / total : 0}%`;
  const a11y = label ? { role: 'progressbar', 'aria-label': label, 'aria-valuemin': 0, 'aria-valuemax': total, 'aria-valuenow': ok + failed } : { 'aria-hidden': true };
  return (
    <div className="progress" {...a11y}>
      <div className="progress-ok" style={{ width: pct(ok) }} />
      <div className="progress-failed" style={{ width: pct(failed) }} />
    </div>
  );
}
