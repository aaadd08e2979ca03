import { useStore } from '../../store';
import { openPassage } from '../../store/search-actions';
import { ErrorMessage } from '../common/ErrorMessage';
import { askScopeNote, lineLabel } from '../../../../shared/search';
import { counted } from '../../../../shared/count';
import { shownTitle } from '../../../../shared/shown';
import { readableUrl } from '../../../../shared/readable-url';
import { bareAddress } from '../../lib/format';
import { FittedAddress } from '../common/FittedAddress';
import { copyWholeAddress } from '../../lib/copy-address';

/** The passages that answer the question, each with the result it comes from. */
export function AskResults({ jobId }: { jobId: string }): React.JSX.Element {
  const ask = useStore((s) => (s.ask?.jobId === jobId ? s.ask : null));
  const focus = useStore((s) => s.focus);
  if (!ask) {
    return (
      <div className="search-results empty-state" data-testid="ask-results">
        <p className="muted">Ask a question: Sift ranks the passages of every result in this job and shows the best, with where each comes from.</p>
      </div>
    );
  }
  // What the answer was read from: said with no answer (why none), and beside one when some targets were not read.
  const note = !ask.loading && !ask.error && ask.scope ? askScopeNote(ask.scope, ask.passages.length > 0) : '';
  return (
    <div className="search-results" data-testid="ask-results" data-state={ask.loading ? 'loading' : 'done'} aria-busy={ask.loading}>
      <div className="search-head">
        {/* Silent on an error: the alert below says what happened and what to do ("No passages
            answering: ???" read as an answer, and "Ask failed" was a second announcement with no next step). */}
        <span className="muted" role="status" data-testid="ask-count">
          {ask.loading
            ? 'Reading the results…'
            : ask.error
              ? null
              : `${ask.passages.length === 0 ? 'No passages' : counted(ask.passages.length, 'passage')} answering: ${ask.asked}`}
        </span>
      </div>
      {ask.error && <ErrorMessage error={ask.error} />}
      {note && (
        <p className="muted ask-scope" data-testid="ask-scope">
          {note}
        </p>
      )}
      <ol className="hit-list">
        {ask.passages.map((p) => (
          <li key={`${p.idx}:${p.line}`}>
            <button type="button" className={`hit${focus?.idx === p.idx && focus.line === p.line ? ' active' : ''}`} onClick={() => void openPassage(p)} data-testid="ask-passage">
              {/* A passage that is its result's title (no text of its own, askJob) is read in the heading: whole, not cut to one line. */}
              {shownTitle(p.title) ? (
                <span className={p.text ? 'hit-title' : 'hit-title whole'}>{shownTitle(p.title)}</span>
              ) : (
                // Headed by its address as a search hit is: without its scheme, whole in the tooltip and a copy.
                p.text ? (
                  <FittedAddress url={p.url} className="hit-title" />
                ) : (
                  <span className="hit-title whole" title={readableUrl(p.url)} onCopy={copyWholeAddress(p.url)}>
                    {bareAddress(p.url)}
                  </span>
                )
              )}
              <span className="hit-where muted">
                #{p.idx + 1}
                {p.page !== undefined ? ` · page ${p.page}` : ''} · {lineLabel(p)}
              </span>
              {p.text && <span className="snippet passage">{p.text}</span>}
            </button>
          </li>
        ))}
      </ol>
    </div>
  );
}
