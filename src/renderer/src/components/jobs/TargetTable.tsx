import { memo, useCallback, useEffect, useRef } from 'react';
import { useVirtualizer } from '@tanstack/react-virtual';
import { useStore } from '../../store';
import { openResult } from '../../store/actions';
import { formatBytes, formatDuration } from '../../lib/format';
import { StatusBadge } from '../common/StatusBadge';

// Fixed height: measuring 10,000 rows would cost more than it buys; a failed row's
// error is cut to one line here and shown whole in the result pane.
const ROW_HEIGHT = 34;
// Rows drawn beyond the visible ones, so a fast scroll does not show blanks.
const OVERSCAN = 12;

/**
 * The job's targets, virtualized: only the visible rows exist in the DOM. The table itself
 * subscribes to the row count only; each row subscribes to its own row.
 */
export function TargetTable(): React.JSX.Element {
  const count = useStore((s) => s.rows.length);
  const loaded = useStore((s) => s.rowsLoaded);
  const scrollRef = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: OVERSCAN,
  });

  const move = useCallback(
    (delta: number) => {
      const s = useStore.getState();
      const at = s.selectedIdx ?? (delta > 0 ? -1 : count);
      const next = Math.min(count - 1, Math.max(0, at + delta));
      if (next === s.selectedIdx || count === 0) return;
      s.selectRow(next);
      virtualizer.scrollToIndex(next, { align: 'auto' });
    },
    [count, virtualizer],
  );

  const onKeyDown = (e: React.KeyboardEvent): void => {
    const page = Math.max(1, Math.floor((scrollRef.current?.clientHeight ?? ROW_HEIGHT * 10) / ROW_HEIGHT) - 1);
    switch (e.key) {
      case 'ArrowDown':
        move(1);
        break;
      case 'ArrowUp':
        move(-1);
        break;
      case 'PageDown':
        move(page);
        break;
      case 'PageUp':
        move(-page);
        break;
      case 'Home':
        move(-count);
        break;
      case 'End':
        move(count);
        break;
      case 'Enter': {
        const idx = useStore.getState().selectedIdx;
        if (idx !== null) void openResult(idx);
        break;
      }
      default:
        return;
    }
    e.preventDefault();
  };

  // Keep the selected row in view when the selection comes from elsewhere (a reload).
  const selectedIdx = useStore((s) => s.selectedIdx);
  useEffect(() => {
    if (selectedIdx !== null) virtualizer.scrollToIndex(selectedIdx, { align: 'auto' });
  }, [selectedIdx, virtualizer]);

  return (
    <div className="target-table" role="grid" aria-rowcount={count} aria-label="Targets" data-testid="target-table">
      <div className="target-row target-head" role="row">
        <span role="columnheader" className="c-idx">#</span>
        <span role="columnheader" className="c-status">Status</span>
        <span role="columnheader" className="c-url">URL</span>
        <span role="columnheader" className="c-detail">Title or error</span>
        <span role="columnheader" className="c-size">Size</span>
        <span role="columnheader" className="c-time">Time</span>
      </div>
      <div className="target-scroll" ref={scrollRef} tabIndex={0} onKeyDown={onKeyDown} data-testid="target-scroll" aria-activedescendant={selectedIdx !== null ? `row-${selectedIdx}` : undefined}>
        {!loaded && <p className="muted pad">Loading targets…</p>}
        <div className="target-canvas" style={{ height: virtualizer.getTotalSize() }}>
          {virtualizer.getVirtualItems().map((v) => (
            <TargetTableRow key={v.index} idx={v.index} top={v.start} />
          ))}
        </div>
      </div>
    </div>
  );
}

const TargetTableRow = memo(function TargetTableRow({ idx, top }: { idx: number; top: number }): React.JSX.Element | null {
  const row = useStore((s) => s.rows[idx]);
  const selected = useStore((s) => s.selectedIdx === idx);
  if (!row) return null;
  const failed = row.status === 'failed';
  const ms = row.startedAt !== null && row.finishedAt !== null ? row.finishedAt - row.startedAt : null;
  return (
    <div
      id={`row-${idx}`}
      role="row"
      aria-selected={selected}
      className={`target-row${selected ? ' selected' : ''}${failed ? ' failed' : ''}`}
      style={{ transform: `translateY(${top}px)`, height: ROW_HEIGHT }}
      onClick={() => void openResult(idx)}
      data-testid="target-row"
      data-idx={idx}
      data-status={row.status}
    >
      <span role="gridcell" className="c-idx muted">{idx + 1}</span>
      <span role="gridcell" className="c-status">
        <StatusBadge status={row.status} />
      </span>
      <span role="gridcell" className="c-url" title={row.url}>
        {row.url}
      </span>
      <span role="gridcell" className="c-detail" title={failed ? [row.error, row.hint].filter(Boolean).join(' — ') : row.title}>
        {failed ? (
          <span className="row-error" data-testid="row-error">
            {row.error}
            {row.hint && <span className="muted"> — {row.hint}</span>}
          </span>
        ) : (
          row.title
        )}
      </span>
      <span role="gridcell" className="c-size muted">{row.status === 'done' ? formatBytes(row.bytes) : ''}</span>
      <span role="gridcell" className="c-time muted">{ms !== null ? formatDuration(ms) : ''}</span>
    </div>
  );
});
