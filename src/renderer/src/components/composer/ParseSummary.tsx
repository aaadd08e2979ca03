import { useStore } from '../../store';
import type { ListProblem } from '../../../../shared/urllist';
import { counted } from '../../../../shared/count';
import { nothingFound } from '../../store/composer';
import { SitemapIndexNote } from './SitemapIndexNote';
import { ListAtNote } from './ListAtNote';

export function ParseSummary(): React.JSX.Element {
  return (
    <>
      <ParseAnnouncement />
      <ParseCounts />
    </>
  );
}

/**
 * What the counts say, in one sentence a screen reader reads when they change. The counts'
 * section was the live region: its numbers changed alone, so a user typing a URL heard "5", and
 * a section that appears with its text is often not read at all. Kept from the first render.
 */
function ParseAnnouncement(): React.JSX.Element {
  const said = useStore((s) => {
    if (!s.parsed) return s.parsing ? 'Reading the list…' : '';
    const { length, invalidCount, duplicatesCount } = s.parsed;
    return `${counted(length, 'valid URL')}, ${invalidCount.toLocaleString()} invalid, ${counted(duplicatesCount, 'duplicate')} dropped.`;
  });
  return (
    <p className="visually-hidden" role="status" data-testid="parse-announce">
      {said}
    </p>
  );
}

function ParseCounts(): React.JSX.Element | null {
  const parsed = useStore((s) => s.parsed);
  const parsing = useStore((s) => s.parsing);
  // Once a sitemap reading replaced the list, its URLs came from the sitemaps, not the format the list was in.
  const fromSitemaps = useStore((s) => (s.sitemaps?.state === 'read' && s.sitemaps.pages > 0 ? (s.sitemaps.kind === 'feeds' ? 'feeds' : 'sitemaps') : null));
  if (!parsed) return parsing ? <p className="muted" data-testid="parse-status">Reading the list…</p> : null;
  return (
    <section className="parse-summary" data-testid="parse-summary">
      <div className="counts">
        <Count n={parsed.length} label="valid" tone="ok" testId="count-valid" />
        <Count n={parsed.invalidCount} label="invalid" tone={parsed.invalidCount ? 'bad' : 'muted'} testId="count-invalid" />
        <Count n={parsed.duplicatesCount} label={parsed.duplicatesCount === 1 ? 'duplicate' : 'duplicates'} tone={parsed.duplicatesCount ? 'warn' : 'muted'} testId="count-duplicates" />
        <span className="muted" data-testid="read-as">{fromSitemaps ? `read from ${fromSitemaps}` : `read as ${parsed.format}`}</span>
        {parsing && <span className="muted">updating…</span>}
      </div>
      {parsed.length === 0 && parsed.invalidCount === 0 && !parsed.sitemapIndex && !parsed.opml && (
        <p data-testid="parse-nothing">
          Sift found no URL in this list. {nothingFound(parsed.format)}
        </p>
      )}
      <SitemapIndexNote />
      <ListAtNote />
      {parsed.truncated && (
        <p className="warn-text" data-testid="parse-truncated">
          The list is longer than Sift reads at once; only the first {counted(parsed.length, 'URL')} were read. Split it into smaller lists and submit each.
        </p>
      )}
      <Problems title="Invalid" items={parsed.invalid} count={parsed.invalidCount} testId="invalid-list" />
      <Problems title="Duplicates (dropped)" items={parsed.duplicates} count={parsed.duplicatesCount} testId="duplicate-list" />
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

/** The first of the problems (the worker sends no more) and how many there are in all. */
function Problems({ title, items, count, testId }: { title: string; items: ListProblem[]; count: number; testId: string }): React.JSX.Element | null {
  if (count === 0) return null;
  return (
    <details className="problems" data-testid={testId} open={title === 'Invalid' && count <= 10}>
      <summary>
        {title}: {count.toLocaleString()}
      </summary>
      <ul>
        {items.map((p, i) => (
          <li key={`${p.line}-${i}`}>
            {/* The line is shown unless the reason quotes it already ("not an http(s) URL: ftp://…"). */}
            <span className="line-no">line {p.line}</span> {p.text && !p.reason.includes(p.text) && <code>{p.text}</code>} <span className="reason">{p.reason}</span>
          </li>
        ))}
      </ul>
      {count > items.length && <p className="muted">and {(count - items.length).toLocaleString()} more</p>}
    </details>
  );
}
