import { useShallow } from 'zustand/react/shallow';
import { useStore } from '../../store';
import { openResult } from '../../store/actions';
import { shownFailure } from '../../../../shared/reasons';
import type { TargetRow } from '../../../../shared/types';
import { ErrorMessage } from '../common/ErrorMessage';
import { StatusBadge } from '../common/StatusBadge';
import { ResultView } from './ResultView';

/** The selected target: its result when opened, else what the row knows. */
export function ResultPane(): React.JSX.Element {
  const { idx, row, result, loading, error, focus } = useStore(
    useShallow((s) => ({
      idx: s.selectedIdx,
      focus: s.focus && s.focus.jobId === s.detailJobId && s.focus.idx === s.selectedIdx ? s.focus : null,
      row: s.selectedIdx === null ? undefined : s.rows[s.selectedIdx],
      result: s.result,
      loading: s.resultLoading,
      error: s.resultError,
    })),
  );
  if (idx === null || !row) {
    return (
      <aside className="result-pane empty-state" data-testid="result-pane">
        <p>Select a row to see its result.</p>
        <p className="muted">
          Click a row, or move with <kbd>↑</kbd> <kbd>↓</kbd> and press <kbd>Enter</kbd>.
        </p>
      </aside>
    );
  }
  const status = result?.idx === idx ? result.status : null;
  return (
    <aside className="result-pane" data-testid="result-pane" data-idx={idx}>
      <div className="result-head">
        <StatusBadge status={row.status} />
        <a className="result-url" href={row.url} target="_blank" rel="noopener noreferrer" title="Open in your browser">
          {row.url}
        </a>
      </div>
      {row.title && <h3 className="result-title">{row.title}</h3>}
      {row.status === 'failed' && <FailedTarget row={row} />}
      {row.status === 'pending' && <p className="muted">Not fetched yet.</p>}
      {row.status === 'running' && <p className="muted">Fetching now…</p>}
      {row.status === 'done' && !status && !loading && !error && (
        <button type="button" onClick={() => void openResult(idx)}>
          Open result <kbd>Enter</kbd>
        </button>
      )}
      {loading && <p className="muted">Loading the result…</p>}
      {error && <ErrorMessage error={error} />}
      {status?.result && <ResultView result={status.result} mode={status.options?.mode} focus={focus ? { needle: focus.needle, line: focus.line } : undefined} />}
    </aside>
  );
}

function FailedTarget({ row }: { row: TargetRow }): React.JSX.Element {
  const { error, hint } = shownFailure(row);
  return <ErrorMessage error={{ code: 'target_failed', message: error || 'This target failed.', hint }} testId="result-error" />;
}
