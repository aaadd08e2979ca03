import { memo, useEffect, useRef, useState } from 'react';
import { useStore, type State } from '../../store';
import { showJob } from '../../store/actions';
import { formatCreated } from '../../lib/format';
import { useColumnFit } from '../../lib/fit-text';
import { counted } from '../../../../shared/count';
import { LISTED_JOBS } from '../../../../shared/ipc/contract';
import { EXPIRY_WARNING_MS, expiresAt, expiryWarning, failedCount, finishedCount, jobName, jobNameParts, okCount, stopBadge } from '../../lib/jobs';
import { ProgressBar } from '../common/ProgressBar';
import { StatusBadge } from '../common/StatusBadge';
import { useCutName } from '../common/JobName';

export function JobList(): React.JSX.Element {
  const order = useStore((s) => s.jobOrder);
  const loaded = useStore((s) => s.jobsLoaded);
  const unlisted = useStore((s) => s.jobsUnlisted);
  if (loaded && order.length === 0) {
    return <p className="sidebar-empty" data-testid="jobs-empty">No jobs yet. A list you submit shows up here, with its progress.</p>;
  }
  return (
    // One Tab stop for the whole list, arrows within it: every job was a stop of its own, and
    // with 250 jobs the keyboard took 250 presses of Tab to get past the list to the job view.
    <ul className="job-list" aria-label="Jobs" onKeyDown={moveInList} data-testid="job-list">
      {order.map((id) => (
        <JobListItem key={id} id={id} />
      ))}
      {unlisted > 0 && (
        // At the end of the list, where someone scrolling for an older job looks.
        <li className="job-list-note muted" data-testid="jobs-unlisted">
          {counted(unlisted, 'older job')} {unlisted === 1 ? 'is' : 'are'} not listed here: only the newest {LISTED_JOBS.toLocaleString()} are. Search finds their results; deleting jobs you no longer need brings older ones into the list.
        </li>
      )}
    </ul>
  );
}

/** Arrows, Home and End move the focus between the list's jobs; Enter or Space opens one. */
function moveInList(e: React.KeyboardEvent<HTMLUListElement>): void {
  const items = Array.from(e.currentTarget.querySelectorAll<HTMLButtonElement>('[data-testid="job-item"]'));
  const at = items.indexOf(document.activeElement as HTMLButtonElement);
  if (at < 0) return;
  const to = { ArrowDown: at + 1, ArrowUp: at - 1, Home: 0, End: items.length - 1 }[e.key];
  if (to === undefined) return;
  e.preventDefault();
  items[Math.max(0, Math.min(items.length - 1, to))]?.focus();
}

/**
 * Whether this item is the list's Tab stop: the item last focused while it is listed, else
 * the job on screen, else the newest job.
 */
function isTabStop(s: State, id: string): boolean {
  if (s.listFocus && s.jobs[s.listFocus]) return s.listFocus === id;
  if (s.view.kind === 'job' && s.jobs[s.view.id]) return s.view.id === id;
  return s.jobOrder[0] === id;
}

/** One job; subscribes to that job only, so a progress event re-renders one item. */
const JobListItem = memo(function JobListItem({ id }: { id: string }): React.JSX.Element | null {
  const job = useStore((s) => s.jobs[id]);
  const selected = useStore((s) => s.view.kind === 'job' && s.view.id === id);
  const tabStop = useStore((s) => isTabStop(s, id));
  const setListFocus = useStore((s) => s.setListFocus);
  const expiry = useExpiryWarning(job ? expiresAt(job) : null);
  const ref = useRef<HTMLButtonElement>(null);
  // The job on screen is in view in the list too, however it was opened (a search hit, the job
  // after a deleted one, a new run): in a list of hundreds it was scrolled out of sight, and
  // nothing in the list said which job the view showed.
  useEffect(() => {
    if (selected) ref.current?.scrollIntoView({ block: 'nearest' });
  }, [selected]);
  const nameRef = useRef<HTMLSpanElement>(null);
  const labelRef = useRef<HTMLSpanElement>(null);
  const fit = useColumnFit(nameRef, labelRef);
  const { label, count } = job ? jobNameParts(job) : { label: '', count: '' };
  const shownText = useCutName(label, count, fit);
  if (!job) return null;
  return (
    <li>
      <button
        ref={ref}
        type="button"
        className={`job-item${selected ? ' selected' : ''}`}
        aria-current={selected ? 'page' : undefined}
        tabIndex={tabStop ? 0 : -1}
        onFocus={() => setListFocus(id)}
        onClick={() => showJob(id)}
        data-testid="job-item"
        data-job-id={id}
        data-status={job.status}
      >
        <span className="job-item-name" data-testid="job-item-name" title={jobName(job)} ref={nameRef}>
          {/* The name gives way in a narrow list; the count stays ("127.0.0.1:43329 · 1…" lost it). */}
          {label && (
            <span className="job-item-label" ref={labelRef}>
              {shownText}
            </span>
          )}
          <span className="job-item-total" data-testid="job-item-total">
            {label ? ` · ${count}` : count}
          </span>
        </span>
        <span className="job-item-top">
          <StatusBadge status={job.status} stop={stopBadge(job)} />
          <span className="muted">{formatCreated(job.createdAt, undefined, undefined, { seconds: true })}</span>
        </span>
        <ProgressBar ok={okCount(job)} failed={failedCount(job)} total={job.targetsTotal} />
        <span className="job-item-count muted">
          {finishedCount(job).toLocaleString()} / {job.targetsTotal.toLocaleString()} done
          {expiry && (
            <>
              {' · '}
              <span className="job-item-expiry" data-testid="job-item-expiry" title="Sift then deletes this job and its results. Open it to keep it longer.">
                {expiry}
              </span>
            </>
          )}
        </span>
      </button>
    </li>
  );
});

// setTimeout's longest delay (about 24.8 days); a later expiry is not near enough to wait for.
const LONGEST_TIMEOUT = 2 ** 31 - 1;

/**
 * expiryWarning for a job that expires at `at`, drawn again when the job enters the warning
 * window and when it lapses: one timer for the next of those moments, not a clock per item.
 */
function useExpiryWarning(at: number | null): string | undefined {
  // Changed by the timer only to draw the item again: the time read then is Date.now()'s.
  const [woke, setWoke] = useState(0);
  useEffect(() => {
    if (at === null) return;
    const t0 = Date.now();
    const next = [at - EXPIRY_WARNING_MS, at].find((t) => t > t0);
    if (next === undefined || next - t0 > LONGEST_TIMEOUT) return;
    const timer = setTimeout(() => setWoke((n) => n + 1), next - t0);
    return () => clearTimeout(timer);
  }, [at, woke]);
  return expiryWarning(at, Date.now());
}
