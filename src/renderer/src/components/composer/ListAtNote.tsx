import { useStore } from '../../store';
import { readListAt, stopReadingList } from '../../store/actions';
import { ErrorMessage } from '../common/ErrorMessage';
import { FocusSafeButton } from '../common/FocusSafeButton';
import { looksLikeSitemaps } from '../../lib/sitemaps';

/** Addresses whose name says they are a document, not a list: no offer for them. */
const DOCUMENT_FILE = /\.(?:pdf|docx?|xlsx?|pptx?|odt|epub|zip|png|jpe?g|gif|webp|svg|mp3|mp4|webm)$/i;
const mayBeList = (url: string | undefined): boolean => {
  try {
    return url !== undefined && !DOCUMENT_FILE.test(new URL(url).pathname);
  } catch {
    return false;
  }
};

/**
 * One address pasted: Sift fetches that page, which is what a user mostly wants. When the
 * address is a list instead (a web page of links, a blog's feed, a list file on a server),
 * this offers to read the URLs in it, as `sift batch URL` does, and says how that went.
 */
export function ListAtNote(): React.JSX.Element | null {
  const r = useStore((s) => s.listAt);
  const offer = useStore(
    (s) => s.listAt === null && s.sitemaps === null && !s.parsing && s.source?.kind === 'paste' && s.parsed?.length === 1 && mayBeList(s.parsed.all()[0]?.url) && !looksLikeSitemaps(s.parsed),
  );
  if (offer) {
    return (
      <div className="sitemap-note" data-testid="list-at-note" data-state="offered">
        <p>One address: Sift fetches the page itself. If it is a list instead (a page of links, a feed, a list file), Sift can fetch the URLs in it.</p>
        <Again label="Read it as a list" />
      </div>
    );
  }
  if (!r) return null;
  const body = ((): React.JSX.Element => {
    switch (r.state) {
      case 'reading':
      case 'stopping':
        return (
          <div className="sitemap-actions">
            <p>Fetching the list at this address…</p>
            {/* Unavailable, not disabled: the Stop just pressed keeps the focus and says why. */}
            <FocusSafeButton
              onClick={() => void stopReadingList()}
              unavailable={r.state === 'stopping'}
              why="Already stopping: in a moment the reading ends and the list stays this address."
              data-testid="list-at-stop"
            >
              {r.state === 'stopping' ? 'Stopping…' : 'Stop'}
            </FocusSafeButton>
          </div>
        );
      case 'empty':
        return (
          <>
            <p className="warn-text">
              Sift found no URL to fetch in what this address gave{r.format ? ` (read as ${r.format})` : ''}. The list is the address itself: fetching it gets the page.
            </p>
            <Again label="Read it again" />
          </>
        );
      case 'stopped':
        return (
          <>
            <p className="warn-text">Reading stopped. The list is the address itself: fetching it gets the page.</p>
            <Again label="Read it as a list" />
          </>
        );
      case 'failed':
        return (
          <>
            {r.error && <ErrorMessage error={r.error} testId="list-at-error" />}
            {/* What is no list stays so; a fetch that failed may not. */}
            {r.error?.code !== 'not_a_list' && <Again label="Try again" />}
          </>
        );
    }
  })();
  return (
    <div className="sitemap-note" data-testid="list-at-note" data-state={r.state}>
      {body}
    </div>
  );
}

function Again({ label }: { label: string }): React.JSX.Element {
  return (
    <div className="sitemap-actions">
      <button type="button" onClick={() => void readListAt()} data-testid="list-at-read">
        {label}
      </button>
    </div>
  );
}
