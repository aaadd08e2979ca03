import { useMemo, useRef } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { failureBesideReason, failureLabel } from '../../../../shared/reasons';
import { useStore } from '../../store';
import { openResult, wholeResult } from '../../store/actions';
import { NOT_FETCHED, targetStop } from '../../lib/jobs';
import { detailJobEnded, hiddenByFilter, jobReasonLabel } from '../../store/detail';
import { filterName } from '../jobs/TargetTable';
import { rowFailure, waitingText, type TargetRow } from '../../../../shared/types';
import { useNow } from '../../lib/useNow';
import { ErrorMessage } from '../common/ErrorMessage';
import { StatusBadge } from '../common/StatusBadge';
import { ResultView } from './ResultView';
import { readableUrl } from '../../../../shared/readable-url';
import { bareAddress, cutAddress } from '../../lib/format';
import { copyWholeAddress } from '../../lib/copy-address';
import { fitText, useColumnFit } from '../../lib/fit-text';
import { shownTitle } from '../../../../shared/shown';

/**
 * The row's status, reason and address, the address cut as the table beside it cuts it
 * (cutAddress, never within its port) to the room the others leave (fitText): cut at its end by
 * CSS, the three sign-in walls of one site all read "http://127.0.0.1:46315/acc…" at 1280 px,
 * the end that tells them apart gone.
 */
function ResultHead({ row, ended }: { row: TargetRow; ended: boolean }): React.JSX.Element {
  // The room is a box that takes what the badge and chip leave, whatever the address's length.
  const roomRef = useRef<HTMLSpanElement>(null);
  const linkRef = useRef<HTMLAnchorElement>(null);
  const fit = useColumnFit(roomRef, linkRef);
  const url = readableUrl(row.url);
  // Without its scheme, as the table beside it and the job's header write addresses: "http://"
  // is 7 of the 30 or so characters the pane has at 800 px. The tooltip and a copy say it whole.
  const bare = bareAddress(row.url);
  const shown = useMemo(() => (fit ? (fitText(bare, (n) => cutAddress(bare, n), fit.width, fit.font) ?? bare) : bare), [bare, fit]);
  return (
    <div className="result-head">
      <StatusBadge status={row.status} stop={targetStop(row, ended)} />
      {/* The reason as the row's chip names it: the pane read the stored code word instead ("challenge: …", "blocked"). */}
      {row.status === 'failed' && row.reason && (
        <span className={`reason-chip small reason-${row.reason}`} data-testid="result-reason" data-reason={row.reason}>
          {failureLabel(row.reason, row.error)}
        </span>
      )}
      <span className="result-url-room" ref={roomRef}>
        <a className="result-url" href={row.url} target="_blank" rel="noopener noreferrer" title={`${url}: open in your browser`} onCopy={copyWholeAddress(row.url)} ref={linkRef}>
          {shown}
        </a>
      </span>
    </div>
  );
}

/**
 * The selected target: its result when opened, else what the row knows. `besideTable`: the
 * target table is shown beside it (not search hits), so its filter may hide the row shown here.
 */
export function ResultPane({ besideTable = false }: { besideTable?: boolean }): React.JSX.Element {
  const { idx, row, result, loading, error, focus, ended } = useStore(
    useShallow((s) => ({
      idx: s.selectedIdx,
      focus: s.focus && s.focus.jobId === s.detailJobId && s.focus.idx === s.selectedIdx ? s.focus : null,
      row: s.selectedIdx === null ? undefined : s.rows[s.selectedIdx],
      result: s.result,
      loading: s.resultLoading,
      error: s.resultError,
      // As the row's badge reads it: a target still pending in a job that has ended will not be fetched.
      ended: detailJobEnded(s),
    })),
  );
  if (idx === null || !row) {
    return (
      <aside className="result-pane empty-state" aria-label="Result" data-testid="result-pane">
        <p>Select a row to see its result.</p>
        <p className="muted">
          Click a row, or move with <kbd>↑</kbd> <kbd>↓</kbd> and press <kbd>Enter</kbd>.
        </p>
      </aside>
    );
  }
  const status = result?.idx === idx ? result.status : null;
  const jobId = result?.jobId;
  return (
    // Named, so a screen reader's list of landmarks says "Result", not a bare "complementary".
    <aside className="result-pane" aria-label="Result" data-testid="result-pane" data-idx={idx}>
      {/* Held at the pane's top: a search match scrolled to the pane's middle took the title off the
          top at 1024 × 768, and the reader saw a paragraph with nothing saying which page it was. */}
      <div className="result-top" data-testid="result-top">
        {/* Drawn anew for each row, so its measure counts the badge and chip that row has. */}
        <ResultHead key={idx} row={row} ended={ended} />
        {row.title && <h3 className="result-title">{shownTitle(row.title)}</h3>}
        {/* Held with the title: under it, the note scrolled away with a long result (1,900 px up, read to a 40-paragraph result's end). */}
        {besideTable && <HiddenByFilter idx={idx} />}
      </div>
      {row.status === 'failed' && <FailedTarget row={row} />}
      {row.status === 'pending' && <p className="muted">{ended ? NOT_FETCHED.title : 'Not fetched yet.'}</p>}
      {row.status === 'running' && <RunningTarget row={row} />}
      {row.status === 'done' && !status && !loading && !error && (
        <button type="button" onClick={() => void openResult(idx)}>
          Open result <kbd>Enter</kbd>
        </button>
      )}
      {loading && <p className="muted">Loading the result…</p>}
      {error && <ErrorMessage error={error} />}
      {status?.result && jobId && (
        <ResultView
          result={status.result}
          mode={status.options?.mode}
          bytes={status.bytes}
          part={status.part && { ...status.part, whole: () => wholeResult(jobId, idx) }}
          focus={focus ? { needle: focus.needle, line: focus.line, opened: focus.opened } : undefined}
        />
      )}
    </aside>
  );
}

/**
 * Said when the table's filter hides the row open here. The pane keeps the result: the user
 * was reading it, and a row that changes state under a filter ("Running" to done) would
 * otherwise close it mid-read. Without the note the pane and the table disagreed silently.
 *
 * The one polite status of such a filter change: the filter's own ("1 of 3 targets shown",
 * useFilterAnnouncement) stays quiet then, and the count beside the filter is never one, as it
 * changes at each row a running job finishes. The region stays in the pane, empty, so the note
 * is read when it comes: one inserted with its text is often not read at all.
 */
function HiddenByFilter({ idx }: { idx: number }): React.JSX.Element {
  const { hiddenBy, setFilter } = useStore(
    useShallow((s) => ({
      hiddenBy: hiddenByFilter(s, idx) ? filterName(s.filterStatus, s.filterReason ? jobReasonLabel(s, s.filterReason) : '', s.filterWarning, detailJobEnded(s)) : '',
      setFilter: s.setFilter,
    })),
  );
  return (
    <div role="status" data-testid="result-filtered-status">
      {hiddenBy && (
        <p className="restart-notice" data-testid="result-filtered">
          Target {(idx + 1).toLocaleString()} is hidden by the table’s filter ({hiddenBy}).{' '}
          <button type="button" className="link" onClick={() => setFilter({ status: 'all', reason: '', warning: '' })}>
            Show all
          </button>
        </p>
      )}
    </div>
  );
}

/** A target in flight: fetching, or waiting to try again because its site answered busy (the table's cell is too narrow to say why). */
function RunningTarget({ row }: { row: TargetRow }): React.JSX.Element {
  const now = useNow(row.wait !== undefined);
  if (!row.wait) return <p className="muted">Fetching now…</p>;
  return (
    <div data-testid="result-waiting">
      <p className="warn-text">{waitingText(row.wait, now)}.</p>
      <p className="muted">
        {row.wait.last
          ? 'If the site is still busy then, this target fails as busy; retry the failed ones later to fetch it.'
          : 'Sift tries a busy site again for up to a minute; cancel the job to stop waiting.'}
      </p>
    </div>
  );
}

function FailedTarget({ row }: { row: TargetRow }): React.JSX.Element {
  // Beside the reason's chip, as in the row: the error no longer names the reason again.
  // The pane's headline is a sentence of its own: "the page says…" follows a chip in the row only.
  const { error, hint } = failureBesideReason(rowFailure(row, 'app'), row.reason);
  // Not an alert: the row the grid's focus moved to has said this error already, and an alert
  // said it again, interrupting, at each failed row the arrows passed.
  return <ErrorMessage error={{ code: 'target_failed', message: error || 'This target failed.', hint }} live={false} testId="result-error" />;
}
