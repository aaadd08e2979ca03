import { memo, useRef } from 'react';
import { useVirtualizer } from '@tanstack/react-virtual';
import { formatOptionsLine } from '../../../../shared/urllist';
import { useStore } from '../../store';
import { previewTarget } from '../../store/actions';
import { readableUrl } from '../../../../shared/readable-url';

const ROW_HEIGHT = 30;

/** The list as Sift will submit it: each URL with the options it carries itself. */
export function ParsedTargetList(): React.JSX.Element | null {
  const count = useStore((s) => s.parsed?.length ?? 0);
  const scrollRef = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 10,
  });
  const selected = useStore((s) => s.previewIdx);
  if (count === 0) return null;
  // The rows had only a click: a keyboard user could preview the first URL and no other.
  const onKeyDown = (e: React.KeyboardEvent): void => {
    // Ctrl+Enter is the composer's submit, not a preview.
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    const page = Math.max(1, Math.floor((scrollRef.current?.clientHeight ?? ROW_HEIGHT * 6) / ROW_HEIGHT) - 1);
    const step: Record<string, number> = { ArrowDown: 1, ArrowUp: -1, PageDown: page, PageUp: -page, Home: -count, End: count };
    const by = step[e.key];
    if (e.key === 'Enter') {
      void previewTarget();
    } else if (by !== undefined) {
      const next = Math.min(count - 1, Math.max(0, selected + by));
      useStore.getState().setPreviewIdx(next);
      virtualizer.scrollToIndex(next, { align: 'auto' });
    } else {
      return;
    }
    e.preventDefault();
  };
  return (
    <div className="parsed-list" data-testid="parsed-list">
      <div className="parsed-head muted" aria-hidden="true">
        <span>Line</span>
        <span>URL and its own options (these win over the options for every URL) — click one, or pick it with ↑ ↓ and Enter, to preview it</span>
      </div>
      <div
        className="parsed-scroll"
        ref={scrollRef}
        role="listbox"
        aria-label="URLs in the list"
        tabIndex={0}
        aria-activedescendant={`parsed-${selected}`}
        onKeyDown={onKeyDown}
        data-testid="parsed-scroll"
      >
        <div className="target-canvas" style={{ height: virtualizer.getTotalSize() }}>
          {virtualizer.getVirtualItems().map((v) => (
            <ParsedRow key={v.index} i={v.index} top={v.start} />
          ))}
        </div>
      </div>
    </div>
  );
}

const ParsedRow = memo(function ParsedRow({ i, top }: { i: number; top: number }): React.JSX.Element | null {
  const t = useStore((s) => s.parsed?.at(i));
  const selected = useStore((s) => s.previewIdx === i);
  const select = useStore((s) => s.setPreviewIdx);
  if (!t) return null;
  const own = t.options && Object.keys(t.options).length ? formatOptionsLine({ url: '', options: t.options }).trim() : '';
  return (
    <div
      id={`parsed-${i}`}
      role="option"
      className={`parsed-row${selected ? ' selected' : ''}`}
      style={{ transform: `translateY(${top}px)`, height: ROW_HEIGHT }}
      onClick={() => select(i)}
      data-testid="parsed-row"
      aria-selected={selected}
    >
      <span className="muted line-no">{t.line}</span>
      <span className="parsed-url" title={t.url}>
        {readableUrl(t.url)}
      </span>
      {own && (
        <span className="own-options" data-testid="own-options" title="This URL's own options">
          {own}
        </span>
      )}
    </div>
  );
});
