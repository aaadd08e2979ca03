import { useShallow } from 'zustand/react/shallow';
import { emptyResultsNote, filterNote, lineLabel, nothingReadNote, plainWordsNote, searchedIn, searchHelp, type SearchHit } from '../../../../shared/search';
import { useStore } from '../../store';
import { exportHits, openHit } from '../../store/search-actions';
import type { SearchBoxName } from '../../store/search';
import { ErrorMessage } from '../common/ErrorMessage';
import { Snippet } from './Snippet';
import { moveInHits } from '../../lib/hit-keys';
import { FittedAddress } from '../common/FittedAddress';
import { shownTitle } from '../../../../shared/shown';
import { sentenceStart } from '../../lib/format';
import { failedCount, isLive, okCount, unfinishedCount } from '../../lib/jobs';
import type { State } from '../../store';
import { jobWarningCounts } from '../../store/detail';

function where(h: SearchHit, showJob: boolean): string {
  const parts: string[] = [];
  if (showJob) parts.push(`job ${h.jobId.slice(0, 8)}`);
  parts.push(`#${h.idx + 1}`);
  if (h.page !== undefined) parts.push(`page ${h.page}`);
  const line = lineLabel(h);
  if (line !== undefined) parts.push(line);
  if (h.field !== 'body') parts.push(`in the ${h.field}`);
  // The same list run again: one hit for the result every run stored alike.
  if (showJob && h.sameIn) parts.push(`also in ${h.sameIn.length === 1 ? '1 older job' : `${h.sameIn.length} older jobs`}`);
  return parts.join(' · ');
}

/**
 * Why the job box found nothing when its job has no result with text to search: none ok (in
 * Ask this job's words), or every ok one empty (Job.targetsEmpty: no answer, no match, no
 * text), where only titles and addresses hold words; '' otherwise. Such a job said "Try fewer
 * words", and no words could find anything there.
 */
function nothingToSearch(s: State, box: SearchBoxName): string {
  const job = box === 'job' && s.searchBoxes.job.jobId ? s.jobs[s.searchBoxes.job.jobId] : undefined;
  if (!job) return '';
  const ok = okCount(job);
  const unread = { failed: failedCount(job), unfinished: unfinishedCount(job), ended: !isLive(job) };
  if (ok === 0) return nothingReadNote({ read: 0, empty: 0, ...unread }, 'search');
  if ((job.targetsEmpty ?? 0) < ok) return '';
  // The chips' counts say why each was empty; those of the job on screen, which the job box searches.
  return emptyResultsNote(ok, s.detailJobId === job.id ? jobWarningCounts(s) : [], unread);
}

/** The hits of one search box, best first; a hit opens its result at the match. */
export function SearchResults({ box, showJob }: { box: SearchBoxName; showJob: boolean }): React.JSX.Element {
  const { query, hits, plain, why, more, loading, error, answered, focus, nothingRead } = useStore(
    useShallow((s) => ({ ...s.searchBoxes[box], focus: s.focus, nothingRead: nothingToSearch(s, box) })),
  );
  if (!query.trim()) {
    return (
      <div className="search-results empty-state" data-testid={`search-results-${box}`}>
        <p className="muted">{searchHelp(searchedIn(undefined))}</p>
      </div>
    );
  }
  const stale = answered !== query;
  return (
    <div className="search-results" data-testid={`search-results-${box}`} data-state={loading || stale ? 'loading' : 'done'} aria-busy={loading || stale}>
      <div className="search-head">
        {/* A status: typing in a search box, a screen-reader user heard nothing of what it found.
            Silent on an error: the alert below says what happened and what to do, and "Search
            failed" here was heard first, a second announcement with no next step. */}
        <span className="muted" role="status" data-testid="search-count">
          {error ? null : answered ? (
            <>
              {hits.length === 0 ? 'No' : more ? `The best ${hits.length}` : hits.length} {hits.length === 1 ? 'hit' : 'hits'} for <strong className="search-query">{answered}</strong>
              {more && '; more results match: add a word to narrow them'}
            </>
          ) : (
            'Searching…'
          )}
          {plain && !error ? ` (${plainWordsNote(why)})` : ''}
        </span>
        {hits.length > 0 && (
          <span className="search-export">
            Export hits:
            <button type="button" className="link-button" onClick={() => void exportHits(box, 'md')} data-testid="export-hits-md">
              Markdown
            </button>
            <button type="button" className="link-button" onClick={() => void exportHits(box, 'csv')} data-testid="export-hits-csv">
              CSV
            </button>
          </span>
        )}
      </div>
      {/* A query with no word to find yet ("-", "-dr", typed on the way to "-draft revenue") is
          not a failure: said as the red alert a failed search is, it flashed at every key. */}
      {error?.code === 'empty_query' ? (
        <p className="muted search-note" role="status" data-testid="search-note">
          {sentenceStart(error.message)} {error.hint}
        </p>
      ) : (
        error && <ErrorMessage error={error} testId="search-error" />
      )}
      {!error && answered && filterNote(answered) && (
        <p className="muted search-note" data-testid="search-filter-note">
          {filterNote(answered)}
        </p>
      )}
      {!error && answered && hits.length === 0 && (
        <p className="muted search-note" data-testid="search-none">
          {nothingRead || 'Nothing stored matches. Try fewer words, or a prefix like revenu*.'}
        </p>
      )}
      <ol className="hit-list" onKeyDown={(e) => moveInHits(e, box)}>
        {hits.map((h) => {
          const active = focus?.jobId === h.jobId && focus.idx === h.idx;
          const title = shownTitle(h.title);
          const inTitle = h.field === 'title';
          // A hit in the title or the address: its snippet is that title or address, which the hit already says.
          const saysItsSnippet = (title && inTitle) || h.field === 'url';
          // Without its scheme, as the job list, its header and the result pane write it; whole in the tooltip and a copy.
          const address = <FittedAddress url={h.url} className={title ? 'hit-url muted' : 'hit-title'} />;
          return (
            <li key={`${h.jobId}:${h.idx}`}>
              <button type="button" className={`hit${active ? ' active' : ''}`} onClick={() => void openHit(h)} data-testid="search-hit" data-idx={h.idx}>
                {/* A hit in the title is the title with its words marked: its snippet was the title again, under it. */}
                {title && inTitle ? <Snippet className="hit-title" text={h.snippet} marks={h.marks} /> : title ? <span className="hit-title">{title}</span> : address}
                <span className="hit-where muted">{where(h, showJob)}</span>
                {/* Under a title only: a result without one (JSON, a text file) is headed by its address, which was said twice. */}
                {title && address}
                {!saysItsSnippet && <Snippet text={h.snippet} marks={h.marks} />}
              </button>
            </li>
          );
        })}
      </ol>
    </div>
  );
}
