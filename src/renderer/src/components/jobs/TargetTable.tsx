import { memo, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useVirtualizer } from '@tanstack/react-virtual';
import { useShallow } from 'zustand/react/shallow';
import { failureBesideReason, failureLabel, REASON_LABELS, warningLabel, warningWhy, type Reason } from '../../../../shared/reasons';
import { pagesReadText, rowFailure, waitingText, type TargetState } from '../../../../shared/types';
import { useStore } from '../../store';
import { detailJobEnded, hiddenByFilter, isFiltered, jobReasonCounts, jobReasonLabel, restShown, rowAt, rowsComplete, shownIndices, shownPositions, shownRead } from '../../store/detail';
import { openResult } from '../../store/actions';
import { bareAddress, cutAddress, cutTitleAtWord, formatDuration } from '../../lib/format';
import { formatBytes } from '../../../../shared/bytes';
import { useNow } from '../../lib/useNow';
import { fitText, useColumnFit, type ColumnFit } from '../../lib/fit-text';
import { targetStop } from '../../lib/jobs';
import { StatusBadge } from '../common/StatusBadge';
import { useWhy } from '../common/useWhy';
import { counted } from '../../../../shared/count';
import { shownTitle, untitledName } from '../../../../shared/shown';

// Fixed height: measuring 10,000 rows would cost more than it buys; a failed row's
// error is cut to one line here and shown whole in the result pane.
const ROW_HEIGHT = 34;
// What the URL column holds before it is measured (see useColumnFit): host and path are
// cut in the middle to fit, so the end of the path, which tells rows apart, stays in view.
const URL_CHARS = 24;
// Rows drawn beyond the visible ones, so a fast scroll does not show blanks.
const OVERSCAN = 12;

/**
 * The job's targets, virtualized: only the visible rows exist in the DOM. Unfiltered, the
 * table subscribes to the row count only and each row to its own row; filtered, it holds the
 * list of matching indices (compared element by element, so an unrelated change re-renders
 * nothing).
 */
export function TargetTable(): React.JSX.Element {
  const filtering = useStore(isFiltered);
  const shown = useStore(useShallow(shownIndices));
  // The job's rows, read or still coming (a big job's come in pages): the rows not read yet
  // hold their place, so the scrollbar and the keys reach the end from the first page on.
  const total = useStore((s) => Math.max(s.rows.length, s.rowsTotal));
  const complete = useStore(rowsComplete);
  const count = shown ? shown.length : total;
  // What the filter shows of the whole job: the rows read, and those to come as main counted
  // them (the rows read ahead among them); never fewer than it lists.
  const matching = useStore((s) => (shown ? Math.max(shown.length, shownRead(shown, s.rows.length) + restShown(s)) : total));
  const idxAt = useCallback((pos: number): number => (shown ? (shown[pos] ?? -1) : pos), [shown]);
  const loaded = useStore((s) => s.rowsLoaded);
  const scrollRef = useRef<HTMLDivElement>(null);
  const gridRef = useRef<HTMLDivElement>(null);
  const urlHeadRef = useRef<HTMLSpanElement>(null);
  const probeRef = useRef<HTMLSpanElement>(null);
  const urlFit = useColumnFit(urlHeadRef, probeRef);
  const titleHeadRef = useRef<HTMLSpanElement>(null);
  const titleProbeRef = useRef<HTMLSpanElement>(null);
  const titleFit = useColumnFit(titleHeadRef, titleProbeRef);
  // The note on the matches still being read sits over the foot of the rows: a key's scroll stops above it.
  const [readingRef, readingHeight] = useHeight();
  // Size gives way in a narrow table (styles.css, under 600 px): a failed row's error then spans
  // its own column only, and says so to a screen reader (it said two, one of them gone).
  const [sizeHeadRef, sizeHeadHeight] = useHeight();
  const sizeShown = sizeHeadHeight > 0;
  const virtualizer = useVirtualizer({
    count,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: OVERSCAN,
    scrollPaddingEnd: readingHeight,
  });

  const posOf = useCallback((idx: number | null): number | null => (idx === null ? null : shown ? (shownPositions(shown).get(idx) ?? null) : idx), [shown]);
  const move = useCallback(
    (delta: number) => {
      const s = useStore.getState();
      const at = posOf(s.selectedIdx) ?? (delta > 0 ? -1 : count);
      const next = Math.min(count - 1, Math.max(0, at + delta));
      if (count === 0 || idxAt(next) === s.selectedIdx) return;
      s.selectRow(idxAt(next));
      virtualizer.scrollToIndex(next, { align: 'auto' });
    },
    [count, virtualizer, idxAt, posOf],
  );

  const onKeyDown = (e: React.KeyboardEvent): void => {
    const page = Math.max(1, Math.floor(((scrollRef.current?.clientHeight ?? ROW_HEIGHT * 10) - readingHeight) / ROW_HEIGHT) - 1);
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

  useFollowRunning(scrollRef, readingHeight, posOf, virtualizer.scrollToIndex);
  useKeepSelectedInView(scrollRef, readingHeight, posOf);

  // Keep the selected row in view when the selection comes from elsewhere (a reload).
  const selectedIdx = useStore((s) => s.selectedIdx);
  useEffect(() => {
    const pos = posOf(selectedIdx);
    if (pos !== null) virtualizer.scrollToIndex(pos, { align: 'auto' });
  }, [selectedIdx, virtualizer, posOf]);

  return (
    <div className="target-table" data-testid="target-table">
      {/* The filter is the table's, not a cell of its grid: inside the grid a screen reader
          took its selects for part of the rows. */}
      <TargetFilter shown={matching} total={total} filtering={filtering} />
      {/* The grid is the element that holds the focus and names the row it is on
          (aria-activedescendant): the focus sat on the scrolling part, a nameless group, while
          the grid role was on its parent, so the row in focus was not read. Only the rows in
          view exist, so each says where it stands: a screen reader counted the rows drawn and
          said "row 3" of the 503rd. The header is row 1. */}
      <div
        className="target-grid"
        ref={gridRef}
        role="grid"
        aria-rowcount={count + 1}
        aria-label="Targets"
        tabIndex={0}
        onKeyDown={onKeyDown}
        aria-activedescendant={selectedIdx !== null && posOf(selectedIdx) !== null ? `row-${selectedIdx}` : undefined}
        data-testid="target-grid"
        data-rows-read={complete ? 'all' : 'some'}
      >
        <div className="target-row target-head" role="row" aria-rowindex={1}>
          <span role="columnheader" className="c-idx">#</span>
          <span role="columnheader" className="c-status">Status</span>
          <span role="columnheader" className="c-url" ref={urlHeadRef}>
            URL
          </span>
          <span role="columnheader" className="c-detail" ref={titleHeadRef}>
            Title or error
          </span>
          <span role="columnheader" className="c-size" ref={sizeHeadRef}>
            Size
          </span>
          <span role="columnheader" className="c-time">Time</span>
        </div>
        <div className="target-row target-probe" aria-hidden="true">
          <span className="c-url" ref={probeRef} />
          <span className="c-detail" ref={titleProbeRef} />
        </div>
        {/* Out of the Tab order (Chromium makes a scroller without focusable children a stop of
            its own); a click in it gives the focus to the grid. */}
        <div className="target-scroll" ref={scrollRef} tabIndex={-1} onFocus={() => gridRef.current?.focus({ preventScroll: true })} data-testid="target-scroll">
          {!loaded && <p className="muted pad">Loading targets…</p>}
          <div className="target-canvas" style={{ height: virtualizer.getTotalSize() }}>
            {virtualizer.getVirtualItems().map((v) => (
              <TargetTableRow key={idxAt(v.index)} idx={idxAt(v.index)} pos={v.index} top={v.start} urlFit={urlFit} titleFit={titleFit} sizeShown={sizeShown} />
            ))}
          </div>
          {/* Not while the rows it matches are still to come. */}
          {loaded && filtering && matching === 0 && <p className="muted pad">No target matches this filter.</p>}
          {loaded && shown && matching > shown.length && (
            <p className="muted pad filter-reading" ref={readingRef} data-testid="filter-reading">
              {readingMatchesText(shown.length, matching)}
            </p>
          )}
        </div>
      </div>
    </div>
  );
}

/**
 * The URL cut (cutAddress) to the most characters that fit the column in the cell's font,
 * measured, so CSS never has to cut the end of the path off. Cut in its middle, each row at its
 * own length, one job's rows at 1280 px read "127.0.0.1:39…/fetch.html", "127.0.0.1:39…7/next.html"
 * and "127.0.0.1:39197/ssrf.html": the host:port is kept whole now, or cut before its port.
 */
function fitUrl(url: string, fit: ColumnFit | null): string {
  // Read once: parsing the URL at each step of fitText's search cost it again.
  const bare = bareAddress(url);
  if (!fit) return cutAddress(bare, URL_CHARS);
  return fitText(bare, (n) => cutAddress(bare, n), fit.width, fit.font) ?? cutAddress(bare, URL_CHARS);
}

/**
 * A title cut (cutTitleAtWord) to the most characters that fit the column, measured: its start,
 * after a whole word, unless the rows beside it share that start (`shared`), as one site's pages
 * titled by their paths do ("Harbour report /annual-board-meeting-minutes/report-1", "…-2"); then
 * its end too, which CSS's cut at the end took from every row. Its title attribute has it whole.
 */
function fitTitle(title: string, fit: ColumnFit | null, shared: number): string {
  // One already cut at its end (shownTitle keeps 300 characters of a longer one) has no end of
  // its own to keep: "Start HH…HHHH…" said less than CSS's cut at the end.
  if (!fit || !title || title.endsWith('…')) return title;
  return fitText(title, (n) => cutTitleAtWord(title, n, shared), fit.width, fit.font) ?? title;
}

/** How many of its title's first units the row at `idx` shares with the job's rows before and after it. */
function sharedWithNeighbours(s: ReturnType<typeof useStore.getState>, idx: number): number {
  const title = shownTitle(rowAt(s, idx)?.title ?? '');
  if (!title) return 0;
  let most = 0;
  for (const near of [rowAt(s, idx - 1)?.title, rowAt(s, idx + 1)?.title]) {
    const other = shownTitle(near ?? '');
    let i = 0;
    while (i < title.length && i < other.length && title.charCodeAt(i) === other.charCodeAt(i)) i++;
    most = Math.max(most, i);
  }
  return most;
}

/** The row being fetched: a job fetches its targets in order, so it is the one after those finished. */
function runningIdx(s: ReturnType<typeof useStore.getState>): number | null {
  const job = s.detailJobId ? s.jobs[s.detailJobId] : undefined;
  if (job?.status !== 'running') return null;
  return s.rows[job.targetsDone]?.status === 'running' ? job.targetsDone : null;
}

/** What tells a scroll the user made from one the table made: their wheel, pointer, touch or key came first. */
const USER_SCROLLS = ['wheel', 'pointerdown', 'touchstart', 'keydown'] as const;

/**
 * Keeps the running row in view while the job goes past the table's fold (at 1024 × 768 about
 * 12 rows show, and a job ran on below them unseen), unless the user has scrolled it out of view
 * themselves: then their place is theirs, until they scroll the running row back into view.
 */
function useFollowRunning(
  scrollRef: React.RefObject<HTMLDivElement | null>,
  footHeight: number,
  posOf: (idx: number | null) => number | null,
  scrollToIndex: (index: number, o: { align: 'auto' }) => void,
): void {
  const pos = posOf(useStore(runningIdx));
  const following = useRef(true);
  const inView = useCallback(
    (el: HTMLElement, at: number): boolean => rowShown(at, el.scrollTop, el.clientHeight, footHeight),
    [footHeight],
  );
  const posNow = useRef(pos);
  posNow.current = pos;
  useEffect(() => {
    const el = scrollRef.current;
    if (!el) return;
    let byUser = false;
    const mark = (): void => void (byUser = true);
    const onScroll = (): void => {
      if (!byUser) return;
      byUser = false;
      if (posNow.current !== null) following.current = inView(el, posNow.current);
    };
    const host = el.parentElement ?? el;
    for (const t of USER_SCROLLS) host.addEventListener(t, mark, { passive: true });
    el.addEventListener('scroll', onScroll, { passive: true });
    return () => {
      for (const t of USER_SCROLLS) host.removeEventListener(t, mark);
      el.removeEventListener('scroll', onScroll);
    };
  }, [scrollRef, inView]);
  useEffect(() => {
    const el = scrollRef.current;
    if (pos === null || !el || !following.current || inView(el, pos)) return;
    scrollToIndex(pos, { align: 'auto' });
  }, [pos, scrollRef, inView, scrollToIndex]);
}

/** Whether row `at` lies whole in a table of this scroll and height, above its foot of `footHeight`. */
const rowShown = (at: number, top: number, height: number, footHeight: number): boolean => at * ROW_HEIGHT >= top && (at + 1) * ROW_HEIGHT <= top + height - footHeight;

/**
 * Keeps the selected row in view when the table's height changes under it: a window narrowed
 * from 1280 to 900 px puts the result pane under the table, which lost half its height and the
 * row the pane shows with it. Only a row that was in view before: one the user scrolled away
 * from stays where they left it.
 */
function useKeepSelectedInView(scrollRef: React.RefObject<HTMLDivElement | null>, footHeight: number, posOf: (idx: number | null) => number | null): void {
  const pos = posOf(useStore((s) => s.selectedIdx));
  const now = useRef({ pos, footHeight });
  now.current = { pos, footHeight };
  useEffect(() => {
    const el = scrollRef.current;
    if (!el) return;
    // The table as the user last saw it, before a change of its height.
    let seen = { top: el.scrollTop, height: el.clientHeight };
    const onScroll = (): void => void (seen = { top: el.scrollTop, height: el.clientHeight });
    const observer = new ResizeObserver(() => {
      const { pos: at, footHeight: foot } = now.current;
      if (at !== null && rowShown(at, seen.top, seen.height, foot) && !rowShown(at, el.scrollTop, el.clientHeight, foot)) {
        el.scrollTop = at * ROW_HEIGHT < el.scrollTop ? at * ROW_HEIGHT : (at + 1) * ROW_HEIGHT - el.clientHeight + foot;
      }
      seen = { top: el.scrollTop, height: el.clientHeight };
    });
    observer.observe(el);
    el.addEventListener('scroll', onScroll, { passive: true });
    return () => {
      observer.disconnect();
      el.removeEventListener('scroll', onScroll);
    };
  }, [scrollRef]);
}

/** An element's height, again whenever it changes (a narrower window wraps its text); 0 while it is not there. */
function useHeight(): [(el: HTMLElement | null) => void, number] {
  const [height, setHeight] = useState(0);
  const observer = useRef<ResizeObserver | null>(null);
  const ref = useCallback((el: HTMLElement | null) => {
    observer.current?.disconnect();
    observer.current = null;
    if (!el) return setHeight(0);
    const measure = (): void => setHeight(el.offsetHeight);
    measure();
    observer.current = new ResizeObserver(measure);
    observer.current.observe(el);
  }, []);
  return [ref, height];
}

/**
 * The filter's count is the job's from the first page on, but the table lists only the rows
 * read: with every match in a page still to come (a big job's 5,000-row pages) the table was
 * blank under "3,000 of 6,000", and nothing said why.
 */
function readingMatchesText(listed: number, matching: number): string {
  return `Still reading this job's targets: ${listed.toLocaleString()} of the ${counted(matching, 'target')} that ${matching === 1 ? 'matches is' : 'match are'} listed so far. The rest appear here as they are read.`;
}

const STATUSES: { value: TargetState | 'all'; label: string }[] = [
  { value: 'all', label: 'Every status' },
  { value: 'done', label: 'OK' },
  { value: 'failed', label: 'Failed' },
  { value: 'running', label: 'Running' },
  { value: 'pending', label: 'Waiting' },
];

/** The filter in the words its selects and chips show: "Failed", "Failed, not found", "OK, thin page"; `reasonLabel` the reason's (jobReasonLabel). */
export function filterName(status: TargetState | 'all', reasonLabel: string, warning: string, ended: boolean): string {
  const label = STATUSES.find((s) => s.value === status)?.label ?? '';
  const statusName = ended && status === 'pending' ? 'Not fetched' : label;
  return [status === 'all' ? '' : statusName, reasonLabel, warning ? warningLabel(warning) : ''].filter(Boolean).join(', ');
}

/**
 * What a change of the filter shows, said once as it changes ("12 of 340 targets shown"): the
 * count beside the selects follows a live job, and a status that followed it would speak at
 * every target's end. Nothing is said when another job opens (its filter starts cleared), nor
 * when the filter hides the result open in the pane: the pane's note says that, and two
 * statuses at once cut each other off.
 */
function useFilterAnnouncement(shown: number, total: number, filtering: boolean): string {
  const key = useStore((s) => `${s.detailJobId ?? ''}\n${s.filterStatus}\n${s.filterReason}\n${s.filterWarning}`);
  const jobId = useStore((s) => s.detailJobId);
  const paneSays = useStore((s) => s.selectedIdx !== null && hiddenByFilter(s, s.selectedIdx));
  const [said, setSaid] = useState({ key, jobId, text: '' });
  if (said.key !== key) {
    const quiet = said.jobId !== jobId || paneSays;
    const text = quiet ? '' : filtering ? `${shown.toLocaleString()} of ${counted(total, 'target')} shown` : `All ${counted(total, 'target')} shown`;
    setSaid({ key, jobId, text });
  }
  return said.text;
}

/** Why the reason filter has nothing to offer: no target has failed (yet). */
const noReasonWhy = (ended: boolean): string => (ended ? 'No target failed: there is no reason to filter by.' : 'No target has failed yet: the reasons appear here when one does.');

/** The table's filter: by status and, for failures, by reason. */
function TargetFilter({ shown, total, filtering }: { shown: number; total: number; filtering: boolean }): React.JSX.Element {
  const { status, reason, setFilter } = useStore(useShallow((s) => ({ status: s.filterStatus, reason: s.filterReason, setFilter: s.setFilter })));
  // An ended job waits for nothing: its rows read "not fetched" and "stopped", and so does the filter that shows them.
  const ended = useStore(detailJobEnded);
  // The reasons this job has, each with its chip's words, as a string so the filter re-renders only when one appears or is renamed.
  const present = useStore((s) => jobReasonCounts(s).map(([r]) => `${r}\t${jobReasonLabel(s, r)}`).join('\n'));
  const labels = new Map(present ? present.split('\n').map((rl) => rl.split('\t') as [Reason, string]) : []);
  const reasons = [...labels.keys()];
  // Unavailable, not disabled: a disabled select is out of the Tab order, so a keyboard user
  // never met it nor heard why it was dimmed.
  const noReason = reasons.length === 0 && !reason;
  const why = useWhy(noReason ? noReasonWhy(ended) : '');
  const announcement = useFilterAnnouncement(shown, total, filtering);
  return (
    <div className="target-filter" data-testid="target-filter">
      <label>
        <span className="visually-hidden">Status</span>
        <select value={status} onChange={(e) => setFilter({ status: e.target.value as TargetState | 'all' })} data-testid="filter-status" aria-label="Show targets with status">
          {/* An ended job runs nothing: "Running" emptied its table ("0 of 50", "No target matches this
              filter"). Kept while chosen, so the select still says what the table shows. */}
          {STATUSES.filter((s) => !(ended && s.value === 'running' && status !== 'running')).map((s) => (
            <option key={s.value} value={s.value}>
              {ended && s.value === 'pending' ? 'Not fetched' : s.label}
            </option>
          ))}
        </select>
      </label>
      <label>
        <span className="visually-hidden">Reason</span>
        <select
          value={reason}
          onChange={(e) => {
            const r = e.target.value as Reason | '';
            setFilter(r ? { reason: r, status: 'failed', warning: '' } : { reason: '' });
          }}
          data-testid="filter-reason"
          aria-label="Show targets that failed for"
          aria-disabled={noReason || undefined}
          title={why.title}
          aria-describedby={why.describedBy}
        >
          <option value="">Every reason</option>
          {(reason && !reasons.includes(reason) ? [...reasons, reason] : reasons).map((r) => (
            <option key={r} value={r}>
              {labels.get(r) ?? REASON_LABELS[r]}
            </option>
          ))}
        </select>
      </label>
      {why.note}
      <span className="visually-hidden" role="status" data-testid="filter-announce">
        {announcement}
      </span>
      {filtering && (
        <>
          <span className="muted" data-testid="filter-count">
            {shown.toLocaleString()} of {total.toLocaleString()}
          </span>
          <button type="button" className="link" onClick={() => setFilter({ status: 'all', reason: '', warning: '' })} data-testid="filter-clear">
            Show all
          </button>
        </>
      )}
    </div>
  );
}

/** `pos`: the row's place among the rows shown (filtered or not), `idx` its place in the job. */
const TargetTableRow = memo(function TargetTableRow({
  idx,
  pos,
  top,
  urlFit,
  titleFit,
  sizeShown,
}: {
  idx: number;
  pos: number;
  top: number;
  urlFit: ColumnFit | null;
  titleFit: ColumnFit | null;
  sizeShown: boolean;
}): React.JSX.Element | null {
  const row = useStore((s) => rowAt(s, idx));
  const selected = useStore((s) => s.selectedIdx === idx);
  // The job this table shows has ended: a target still pending will not be fetched by it.
  const ended = useStore(detailJobEnded);
  const url = row?.url ?? '';
  const shownUrl = useMemo(() => fitUrl(url, urlFit), [url, urlFit]);
  // Fitted where the row shows nothing before it (a warning's chip takes room of its own).
  const rowTitle = row?.warnings?.length ? undefined : row?.title;
  const shared = useStore((s) => sharedWithNeighbours(s, idx));
  const fittedTitle = useMemo(() => fitTitle(shownTitle(rowTitle ?? ''), titleFit, shared), [rowTitle, titleFit, shared]);
  // A target waiting on a busy site counts down to its next try; only such a row ticks.
  const wait = row?.status === 'running' ? row.wait : undefined;
  const now = useNow(wait !== undefined);
  // A PDF being read says how far it is, so a book of hundreds of pages does not look stuck.
  const reading = row?.status === 'running' && !wait ? row.pagesRead : undefined;
  if (!row) return <UnreadRow idx={idx} pos={pos} top={top} />;
  const failed = row.status === 'failed';
  // A failed, waiting or reading row has no size, so its error, wait or pages take the size column too.
  const wide = failed || wait !== undefined || reading !== undefined;
  const shown = rowFailure(row, 'app');
  const beside = failureBesideReason(shown, row.reason);
  const ms = row.startedAt !== null && row.finishedAt !== null ? row.finishedAt - row.startedAt : null;
  const title = shownTitle(row.title);
  const standIn = row.status === 'done' && !title ? untitledName(row) : '';
  const named = standIn ? (
    <span className="row-title-text muted" data-testid="row-untitled">
      {standIn}
    </span>
  ) : (
    fittedTitle
  );
  return (
    <div
      id={`row-${idx}`}
      role="row"
      aria-rowindex={pos + 2}
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
        <StatusBadge status={row.status} stop={targetStop(row, ended)} />
      </span>
      <span role="gridcell" className="c-url" title={row.url} data-testid="row-url">
        {shownUrl}
      </span>
      <span
        role="gridcell"
        className={`c-detail${wide ? ' c-detail-wide' : ''}`}
        aria-colspan={wide && sizeShown ? 2 : undefined}
        title={failed ? [shown.error, shown.hint].filter(Boolean).join(' — ') : wait ? waitingText(wait, now) : reading ? pagesReadText(reading) : standIn ? `${standIn} (the document names no title of its own)` : title}
      >
        {wait ? (
          <span className="row-waiting" data-testid="row-waiting">
            {waitingText(wait, now)}
          </span>
        ) : reading ? (
          <span className="row-pages" data-testid="row-pages">
            {pagesReadText(reading)}
          </span>
        ) : failed ? (
          <span className="row-error" data-testid="row-error">
            {row.reason && (
              <span className={`reason-chip small reason-${row.reason}`} data-testid="row-reason" data-reason={row.reason}>
                {failureLabel(row.reason, row.error)}
              </span>
            )}
            <span className="row-error-text">
              {beside.error}
              {beside.hint && <span className="muted"> — {beside.hint}</span>}
            </span>
          </span>
        ) : row.warnings?.length ? (
          <span className="row-title">
            {row.warnings.map((w) => (
              <span key={w} className="warning-chip small" title={warningWhy(w, 'app') || undefined} data-testid="row-warning" data-warning={w}>
                {warningLabel(w)}
              </span>
            ))}
            {standIn ? named : <span className="row-title-text">{title}</span>}
          </span>
        ) : (
          named
        )}
      </span>
      {!wide && <span role="gridcell" className="c-size muted">{row.status === 'done' ? formatBytes(row.bytes) : ''}</span>}
      <span role="gridcell" className="c-time muted">{ms !== null ? formatDuration(ms) : ''}</span>
    </div>
  );
});

/** A row whose page has not come yet (a big job's rows come in pages): its place, its number, and that it is coming. */
function UnreadRow({ idx, pos, top }: { idx: number; pos: number; top: number }): React.JSX.Element {
  return (
    <div role="row" aria-rowindex={pos + 2} aria-busy="true" className="target-row" style={{ transform: `translateY(${top}px)`, height: ROW_HEIGHT }} data-testid="target-row-unread">
      <span role="gridcell" className="c-idx muted">{idx + 1}</span>
      <span role="gridcell" className="c-status muted">Loading…</span>
    </div>
  );
}
