import { useStore } from '../../store';
import type { ListProblem } from '../../../../shared/urllist';
import { plural } from '../../lib/format';

// Enough to see the pattern in a broken list without rendering 50,000 list items.
const SHOWN_PROBLEMS = 100;

export function ParseSummary(): React.JSX.Element | null {
  const parsed = useStore((s) => s.parsed);
  const parsing = useStore((s) => s.parsing);
  if (!parsed) return parsing ? <p className="muted" data-testid="parse-status">Reading the list…</p> : null;
  return (
    <section className="parse-summary" data-testid="parse-summary" aria-live="polite">
      <div className="counts">
        <Count n={parsed.targets.length} label="valid" tone="ok" testId="count-valid" />
        <Count n={parsed.invalid.length} label="invalid" tone={parsed.invalid.length ? 'bad' : 'muted'} testId="count-invalid" />
        <Count n={parsed.duplicates.length} label="duplicates" tone={parsed.duplicates.length ? 'warn' : 'muted'} testId="count-duplicates" />
        <span className="muted">read as {parsed.format}</span>
        {parsing && <span className="muted">updating…</span>}
      </div>
      {parsed.truncated && (
        <p className="warn-text" data-testid="parse-truncated">
          The list is longer than Sift reads at once; only the first {plural(parsed.targets.length, 'URL')} were taken. Split it into smaller lists.
        </p>
      )}
      <Problems title="Invalid" items={parsed.invalid} testId="invalid-list" />
      <Problems title="Duplicates (dropped)" items={parsed.duplicates} testId="duplicate-list" />
    </section>
  );
}

function Count({ n, label, tone, testId }: { n: number; label: string; tone: string; testId: string }): React.JSX.Element {
  return (
    <span className={`count tone-${tone}`}>
      <strong data-testid={testId}>{n.toLocaleString()}</strong> {label}
    </span>
  );
}

function Problems({ title, items, testId }: { title: string; items: ListProblem[]; testId: string }): React.JSX.Element | null {
  if (items.length === 0) return null;
  return (
    <details className="problems" data-testid={testId} open={title === 'Invalid' && items.length <= 10}>
      <summary>
        {title}: {items.length.toLocaleString()}
      </summary>
      <ul>
        {items.slice(0, SHOWN_PROBLEMS).map((p, i) => (
          <li key={`${p.line}-${i}`}>
            {/* The line is shown unless the reason quotes it already ("not an http(s) URL: ftp://…"). */}
            <span className="line-no">line {p.line}</span> {p.text && !p.reason.includes(p.text) && <code>{p.text}</code>} <span className="reason">{p.reason}</span>
          </li>
        ))}
      </ul>
      {items.length > SHOWN_PROBLEMS && <p className="muted">and {(items.length - SHOWN_PROBLEMS).toLocaleString()} more</p>}
    </details>
  );
}
