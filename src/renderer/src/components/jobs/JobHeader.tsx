import { useRef, useState } from 'react';
import { useStore } from '../../store';
import { cancelJob, deleteJob, runRest, showJob } from '../../store/actions';
import { formatDuration, formatRemaining } from '../../lib/format';
import { estimateRemaining, fetchingSince } from '../../../../shared/remaining';
import { rowAt } from '../../store/detail';
import { expiresAt, expiryNotice, failedCount, finishedCount, isInterrupted, isLive, jobName, okCount, progressAnnouncement, restartNotice, stopBadge, storeStopNotice, unfinishedCount } from '../../lib/jobs';
import { ReasonSummary } from './ReasonSummary';
import { JobName } from '../common/JobName';
import { ProgressBar } from '../common/ProgressBar';
import { StatusBadge } from '../common/StatusBadge';
import { FocusSafeButton } from '../common/FocusSafeButton';
import { useNow } from '../../lib/useNow';
import type { Job } from '../../../../shared/types';

export function JobHeader({ id }: { id: string }): React.JSX.Element | null {
  const job = useStore((s) => s.jobs[id]);
  const openExport = useStore((s) => s.openExport);
  const live = job ? isLive(job) : false;
  const now = useNow(live);
  // The target in flight is the one after those done (serial drain): a number or null, so a
  // progress event of another row does not re-render the header.
  const since = useStore((s) => (s.detailJobId === id ? fetchingSince(rowAt(s, s.jobs[id]?.targetsDone ?? -1)) : null));
  // "Really delete?" asks until the user answers, leaves the button or presses Escape. It used
  // to ask for 4 s only: too short for someone hearing the button's new name read out before
  // pressing it again, and a stray click elsewhere still takes the question back.
  const [confirmDelete, setConfirmDelete] = useState(false);
  const titleRef = useRef<HTMLDivElement>(null);
  // The job that ran this one's rest, while it is kept: the notice points to it, and "Run the
  // rest again" is not offered a second time (it was, and started the same targets again).
  const restJob = useStore((s) => (s.detailJobId === id && s.restRun ? s.jobs[s.restRun] : undefined));
  if (!job) return null;

  const interrupted = isInterrupted(job);
  const ok = okCount(job);
  const finished = finishedCount(job);
  const failed = failedCount(job);
  const cutShort = job.targetsCutShort ?? 0;
  // What "run the rest again" takes: the targets never reached and the ones stopped mid-way.
  const unfinished = unfinishedCount(job);
  const elapsed = (live ? Math.max(now, job.updatedAt) : job.updatedAt) - job.createdAt;
  const eta = live ? estimateRemaining(job, now, since) : null;
  const stopped = storeStopNotice(job, finished, restJob ? 0 : unfinished);
  const expires = expiresAt(job);
  const exportWhy = job.targetsDone === 0 ? 'Nothing has finished yet: export once a target is done.' : '';
  const deleteWhy = live ? 'A running job cannot be deleted: cancel it first, or wait for it to finish.' : '';

  return (
    <header className="job-header" data-testid="job-header" data-status={job.status}>
      <div className="job-title" ref={titleRef}>
        <h2 data-testid="job-name" title={jobName(job)}>
          <JobName job={job} line={titleRef} />
        </h2>
        <StatusBadge status={job.status} stop={stopBadge(job)} />
        {/* Said with what it is: a screen reader read a bare "c85cab6afb946fd7" after the status (the title is a mouse's only). */}
        <span className="muted job-id" title="Job id">
          <span className="visually-hidden">Job id </span>
          {job.id}
        </span>
      </div>
      <ProgressBar ok={ok} failed={failed} total={job.targetsTotal} label="Job progress" />
      {/* The bar and the counts change silently for a screen reader; this says it, sparingly. */}
      <p className="visually-hidden" role="status" data-testid="job-announce">
        {progressAnnouncement(job)}
      </p>
      {/* The counts and why targets failed share a line where they fit: one under the other, a
          cancelled job's header took 280 of an 800 × 800 window and hid its results. */}
      <div className="job-counts">
        <dl className="job-stats">
          <Stat label="Done" value={`${finished.toLocaleString()} / ${job.targetsTotal.toLocaleString()}`} testId="stat-done" />
          <Stat label="OK" value={ok.toLocaleString()} testId="stat-ok" />
          <Stat label="Failed" value={failed.toLocaleString()} testId="stat-failed" />
          <Stat label="Elapsed" value={formatDuration(elapsed)} testId="stat-elapsed" />
          {live && <Stat label="Remaining" value={formatRemaining(eta)} testId="stat-eta" />}
        </dl>
        <ReasonSummary id={id} />
      </div>
      {interrupted && (
        <p className="restart-notice" role="status" data-testid="restart-notice">
          {restartNotice(finished, restJob ? 0 : unfinished)}
          {restJob && <RestRun job={restJob} />}
        </p>
      )}
      {stopped && (
        <p className="restart-notice" role="status" data-testid="store-stop-notice">
          {stopped}
          {restJob && <RestRun job={restJob} />}
        </p>
      )}
      {/* "Cancelled: 9 not fetched", not "Cancelled with 9 targets not fetched": the ui-walk notice
          took two lines at 800 px, its last word alone on the second; the counts above say of what. */}
      {job.status === 'cancelled' && unfinished > 0 && (
        <p className="muted" data-testid="cancel-notice">
          Cancelled: {unfinished.toLocaleString()} not fetched{cutShort > 0 && ` (${cutShort.toLocaleString()} stopped mid-way)`}.
          {restJob ? <RestRun job={restJob} /> : ` Run the rest again to fetch ${unfinished === 1 ? 'it' : 'them'}.`}
        </p>
      )}
      {expires !== null && (
        <p className="muted job-expiry" data-testid="job-expiry">
          {expiryNotice(expires, now)}
        </p>
      )}
      {/* Cancel goes with the run it stops; the focus it held goes to "Run the rest again",
          the first action here (lib/useFocusRescue.ts). */}
      <div className="job-actions">
        {live && (
          <button type="button" onClick={() => void cancelJob(id)} data-testid="cancel-job" title="Cancel (Esc)">
            Cancel <kbd>Esc</kbd>
          </button>
        )}
        {/* A cancelled or interrupted job's cut-short target is stored as failed, so it can
            have nothing "pending" and still have a rest to run; main answers if it has none. */}
        {!live && !restJob && (unfinished > 0 || interrupted || job.status === 'cancelled') && (
          <button type="button" className={interrupted || stopped ? 'primary' : ''} onClick={() => void runRest(id, 'unfinished')} data-testid="run-rest">
            Run the rest again
          </button>
        )}
        {!live && failed > 0 && (
          <button type="button" onClick={() => void runRest(id, 'failed')} data-testid="run-failed">
            Retry the failed ones
          </button>
        )}
        {!live && (
          <button type="button" onClick={() => void runRest(id, 'all')} data-testid="run-all" title="Fetch every URL of this list again, as a new job">
            Fetch all again
          </button>
        )}
        {/* Unavailable, not disabled: a disabled button is no Tab stop, and a keyboard user never
            heard why it could not be pressed. */}
        <FocusSafeButton unavailable={!!exportWhy} why={exportWhy} onClick={() => openExport(id)} data-testid="export-job">
          Export…
        </FocusSafeButton>
        <FocusSafeButton
          className={confirmDelete ? 'danger' : ''}
          unavailable={!!deleteWhy}
          why={deleteWhy}
          onClick={() => (confirmDelete ? void deleteJob(id) : setConfirmDelete(true))}
          onBlur={() => setConfirmDelete(false)}
          onKeyDown={(e) => {
            if (e.key === 'Escape' && confirmDelete) {
              // Taken back here, not read by the job view as "cancel the job".
              e.preventDefault();
              setConfirmDelete(false);
            }
          }}
          data-testid="delete-job"
        >
          {confirmDelete ? 'Really delete?' : 'Delete'}
        </FocusSafeButton>
      </div>
    </header>
  );
}

/** " The rest was run again as rest of links.txt · 3 URLs.", the name a link that opens that job. */
function RestRun({ job }: { job: Job }): React.JSX.Element {
  return (
    <>
      {' '}
      The rest was run again as{' '}
      <button type="button" className="link" onClick={() => showJob(job.id)} title="Open that job" data-testid="rest-run" data-job-id={job.id}>
        <JobName job={job} />
      </button>
      .
    </>
  );
}

function Stat({ label, value, testId }: { label: string; value: string; testId: string }): React.JSX.Element {
  return (
    <div className="stat">
      <dt>{label}</dt>
      <dd data-testid={testId}>{value}</dd>
    </div>
  );
}
