import { memo, useMemo, useRef } from 'react';
import { useVirtualizer } from '@tanstack/react-virtual';
import { formatOptionsLine } from '../../../../shared/urllist';
import { useStore } from '../../store';
import { previewTarget } from '../../store/actions';
import { readableUrl } from '../../../../shared/readable-url';
import { fitText, textWidth, useColumnFit, type ColumnFit } from '../../lib/fit-text';
import { bareAddress, cutAddress } from '../../lib/format';

const ROW_HEIGHT = 30;

/** The list as Sift will submit it: each URL with the options it carries itself. */
export function ParsedTargetList(): React.JSX.Element | null {
  const count = useStore((s) => s.parsed?.length ?? 0);
  // Mounted with its rows, so the probe below exists when it is measured.
  return count === 0 ? null : <ParsedTable count={count} />;
}

function ParsedTable({ count }: { count: number }): React.JSX.Element {
  const scrollRef = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 10,
  });
  const selected = useStore((s) => s.previewIdx);
  const anyOwn = useStore((s) => s.parsed?.hasOwnOptions ?? false);
  // A hidden row of the rows' own layout: its URL cell is as wide as a row's without options of its own.
  const probeRef = useRef<HTMLSpanElement>(null);
  const urlFit = useColumnFit(probeRef, probeRef);
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
      {/* Words only, one line each: one sentence with how to preview and which options win took
          five lines of the 145 px URL column at 800 px. The rule is on the options' chip, where it applies. */}
      <div className="parsed-head muted" aria-hidden="true">
        <span>Line</span>
        <span>URL</span>
        {/* Over an empty column when no line has options of its own. */}
        {anyOwn && <span>Own options</span>}
      </div>
      <div
        className="parsed-scroll"
        ref={scrollRef}
        role="listbox"
        aria-label="URLs in the list"
        tabIndex={0}
        aria-activedescendant={`parsed-${selected}`}
        aria-describedby="parsed-hint"
        onKeyDown={onKeyDown}
        data-testid="parsed-scroll"
      >
        <div className="target-canvas" style={{ height: virtualizer.getTotalSize() }}>
          <div className="parsed-row parsed-probe" aria-hidden="true">
            <span className="line-no" />
            <span className="parsed-url" ref={probeRef} />
          </div>
          {virtualizer.getVirtualItems().map((v) => (
            <ParsedRow key={v.index} i={v.index} top={v.start} urlFit={urlFit} />
          ))}
        </div>
      </div>
      <p className="parsed-hint muted" id="parsed-hint">
        Click a URL, or pick it with ↑ ↓ and Enter, to preview it.
      </p>
    </div>
  );
}

// The gap between a row's cells and the own-options chip's widest (styles.css).
const GAP = 8;
const OWN_MAX = 260;

/**
 * The URL as the address bar shows it, or cut (cutAddress) to what its cell holds: CSS cut its
 * end, and the rows of one site's list (example.org/p/1, /p/2, …) all read "https://example.or…"
 * in a narrow window. A row with options of its own leaves them their width.
 */
function shownUrl(url: string, own: boolean, fit: ColumnFit | null): { url: string; ownMax?: number } {
  const full = readableUrl(url);
  if (!fit) return { url: full };
  let width = fit.width;
  let ownMax: number | undefined;
  if (own) {
    const urlWidth = textWidth(full, fit.font);
    if (urlWidth === null) return { url: full };
    // What the URL leaves, and at least a quarter of the cell: in an 800 px window the options took all of it, and the URL none.
    ownMax = Math.min(OWN_MAX, Math.max(Math.floor(fit.width / 4), Math.floor(fit.width - GAP - urlWidth)));
    width -= GAP + ownMax;
  }
  // Cut, it drops the scheme first ("https://" is 8 characters of a 20-character cell) and is cut
  // as the job's table cuts it (cutAddress): cut in its middle, the 800 px list read
  // "127.0.0.1:…nts-final", a colon and no port.
  const bare = bareAddress(url);
  return { url: fitText(full, (n) => cutAddress(bare, n), width, fit.font) ?? full, ownMax };
}

const ParsedRow = memo(function ParsedRow({ i, top, urlFit }: { i: number; top: number; urlFit: ColumnFit | null }): React.JSX.Element | null {
  const t = useStore((s) => s.parsed?.at(i));
  const selected = useStore((s) => s.previewIdx === i);
  const select = useStore((s) => s.setPreviewIdx);
  const own = t?.options && Object.keys(t.options).length ? formatOptionsLine({ url: '', options: t.options }).trim() : '';
  const shown = useMemo(() => (t ? shownUrl(t.url, own !== '', urlFit) : { url: '' }), [t, own, urlFit]);
  if (!t) return null;
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
        {shown.url}
      </span>
      {/* Whole in its title: a quarter of the cell cut "pages=1-3" to "pages=1…" at 1024 × 768. */}
      {own && (
        <span className="own-options" data-testid="own-options" title={`This URL's own options, which win over the options for every URL: ${own}`} style={shown.ownMax ? { maxWidth: shown.ownMax } : undefined}>
          {own}
        </span>
      )}
    </div>
  );
});
