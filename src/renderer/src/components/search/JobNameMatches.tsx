import { useShallow } from 'zustand/react/shallow';
import { useStore } from '../../store';
import { showJob } from '../../store/actions';
import { jobNamesMatching, stopBadge } from '../../lib/jobs';
import { JobName } from '../common/JobName';
import { StatusBadge } from '../common/StatusBadge';

// A row of names above the hits, not a second list: past this many, a word more narrows them.
const SHOWN_JOBS = 8;

/**
 * The jobs whose name (their list's file, or first host) holds every word of the search:
 * "Search all jobs" searched only what the jobs fetched, so the name of a list among 250
 * jobs found nothing, and scrolling was the only way to it.
 */
export function JobNameMatches(): React.JSX.Element | null {
  const query = useStore((s) => s.searchBoxes.all.query);
  const ids = useStore(useShallow((s) => jobNamesMatching(s.jobOrder.map((id) => s.jobs[id]!).filter(Boolean), query)));
  if (ids.length === 0) return null;
  return (
    <div className="job-name-matches" data-testid="search-jobs">
      <span className="muted">{ids.length === 1 ? 'The job whose name matches:' : `Jobs whose names match (${ids.length.toLocaleString()}):`}</span>
      {ids.slice(0, SHOWN_JOBS).map((id) => (
        <JobNameMatch key={id} id={id} />
      ))}
      {ids.length > SHOWN_JOBS && <span className="muted">and {(ids.length - SHOWN_JOBS).toLocaleString()} more; add a word to narrow them</span>}
    </div>
  );
}

function JobNameMatch({ id }: { id: string }): React.JSX.Element | null {
  const job = useStore((s) => s.jobs[id]);
  if (!job) return null;
  return (
    <button type="button" className="job-name-match" onClick={() => showJob(id)} data-testid="search-job" data-job-id={id}>
      <JobName job={job} /> <StatusBadge status={job.status} stop={stopBadge(job)} />
    </button>
  );
}
