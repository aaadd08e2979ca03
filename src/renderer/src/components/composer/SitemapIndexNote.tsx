import { useStore } from '../../store';
import { readSitemaps, stopReadingSitemaps } from '../../store/actions';
import { counted } from '../../../../shared/count';
import { ErrorMessage } from '../common/ErrorMessage';
import { FocusSafeButton } from '../common/FocusSafeButton';
import { looksLikeSitemaps } from '../../lib/sitemaps';
import { MAX_CHILD_SITEMAPS, MAX_SITEMAP_DEPTH } from '../../../../shared/urllist/xml';

/**
 * A sitemap index in the composer: its entries are sitemaps, so Sift reads them for the
 * pages they list, and says how that went. Without it the job fetched each sitemap's XML.
 * A list of sitemaps' addresses gets the same reading when the user asks for it, and so do
 * the feeds of an OPML outline (a feed reader's subscriptions), for their entries' pages:
 * fetched as they are, each feed gave its entries' text in one result.
 */
export function SitemapIndexNote(): React.JSX.Element | null {
  const r = useStore((s) => s.sitemaps);
  const offer = useStore((s) => (s.sitemaps !== null || s.parsing ? null : s.parsed?.opml ? 'feeds' : looksLikeSitemaps(s.parsed) ? 'sitemaps' : null));
  if (offer === 'feeds') {
    return (
      <div className="sitemap-note" data-testid="sitemap-note" data-state="offered">
        <p>These are the feeds of a feed reader&apos;s subscriptions: fetched as they are, each gives its entries&apos; text in one result.</p>
        <Again label="Read the pages their entries link to" />
      </div>
    );
  }
  if (offer) {
    return (
      <div className="sitemap-note" data-testid="sitemap-note" data-state="offered">
        <p>These addresses look like sitemaps: fetched as they are, they give XML, not pages.</p>
        <Again label="Read the pages they list" />
      </div>
    );
  }
  if (!r) return null;
  const feeds = r.kind === 'feeds';
  const noun = feeds ? 'feed' : 'sitemap';
  const sitemaps = counted(r.sitemaps, noun);
  // What the list stays when no page comes of it.
  const own = r.kind === 'index' ? `the index's own entries (${sitemaps})` : `the ${sitemaps} themselves`;
  const asTheyAre = feeds ? "fetched as they are, each gives its entries' text in one result" : 'fetched as they are, they give XML, not pages';
  const body = ((): React.JSX.Element => {
    switch (r.state) {
      case 'reading':
      case 'stopping':
        return (
          <>
            <p>
              {r.kind === 'index' ? `This list is a sitemap index: it names ${sitemaps}, not pages. ` : ''}Sift is reading{' '}
              {r.kind === 'index' ? (r.sitemaps === 1 ? 'it' : 'them') : `the ${sitemaps}`} for the pages {feeds ? 'their entries link to' : 'they list'}:{' '}
              <span data-testid="sitemap-progress-text">
                {r.done.toLocaleString()} of {counted(r.total, noun)} read, {counted(r.pages, 'page')} so far
              </span>
              .
            </p>
            <div className="sitemap-actions">
              <progress max={r.total || 1} value={r.done} aria-label={feeds ? 'Feeds read' : 'Sitemaps read'} />
              {/* Unavailable, not disabled: the Stop just pressed keeps the focus and says why. */}
              <FocusSafeButton
                onClick={() => void stopReadingSitemaps()}
                unavailable={r.state === 'stopping'}
                why="Already stopping: in a moment the reading ends and the list stays as it was given."
                data-testid="sitemap-stop"
              >
                {r.state === 'stopping' ? 'Stopping…' : 'Stop'}
              </FocusSafeButton>
            </div>
          </>
        );
      case 'read':
        return r.pages > 0 ? (
          <p>
            {`This list was ${r.kind === 'index' ? `a sitemap index of ${sitemaps}` : sitemaps}; the list below is the ${counted(r.pages, 'page')} ${feeds ? 'their entries link to' : 'they list'} (${counted(r.read ?? 0, noun)} read).`}{' '}
            Its Line column is the line naming each page&apos;s {noun}.
          </p>
        ) : (
          <>
            <p className="warn-text">
              No {noun} gave a page to fetch. The list below holds {own}: {asTheyAre}.
            </p>
            <Again label="Read them again" />
          </>
        );
      case 'stopped':
        return (
          <>
            <p className="warn-text">
              Reading stopped. The list below holds {own}: {asTheyAre}.
            </p>
            <Again label="Read their pages" />
          </>
        );
      case 'failed':
        return (
          <>
            {r.error && <ErrorMessage error={r.error} testId="sitemap-error" />}
            <Again label="Try again" />
          </>
        );
    }
  })();
  return (
    <div className="sitemap-note" data-testid="sitemap-note" data-state={r.state}>
      {body}
      {r.capped && (
        <p className="warn-text" data-testid="sitemap-capped">
          Reading stopped once the pages passed {r.capped.toLocaleString()}, the most one job holds (Settings: URLs per job). Give the{' '}
          {feeds ? 'feeds' : "index's sitemaps"} in parts, or raise that setting.
        </p>
      )}
      {r.skipped ? (
        <p className="muted" data-testid="sitemap-skipped">
          {counted(r.skipped, `more ${noun}`)} not read: Sift reads at most {MAX_CHILD_SITEMAPS.toLocaleString()}{' '}
          {feeds ? 'feeds at once' : `from one index, nested at most ${MAX_SITEMAP_DEPTH} deep`}. Give the rest as a list of their own.
        </p>
      ) : null}
      {r.failureCount ? (
        <details className="problems" data-testid="sitemap-failures" open={r.failureCount <= 5}>
          <summary>
            {feeds ? 'Feeds' : 'Sitemaps'} that gave no page: {r.failureCount.toLocaleString()}
          </summary>
          <ul>
            {(r.failures ?? []).map((f, i) => (
              <li key={`${f.line}-${i}`}>
                <span className="line-no">line {f.line}</span> <code>{f.text}</code> <span className="reason">{f.reason}</span>
              </li>
            ))}
          </ul>
          {r.failureCount > (r.failures?.length ?? 0) && <p className="muted">and {(r.failureCount - (r.failures?.length ?? 0)).toLocaleString()} more</p>}
        </details>
      ) : null}
    </div>
  );
}

function Again({ label }: { label: string }): React.JSX.Element {
  return (
    <div className="sitemap-actions">
      <button type="button" onClick={() => void readSitemaps()} data-testid="sitemap-read">
        {label}
      </button>
    </div>
  );
}
