import { useEffect } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { useStore } from '../../store';
import { cancelJob, openJob } from '../../store/actions';
import { cancelSearch } from '../../store/search-actions';
import { isLive } from '../../lib/jobs';
import { ErrorMessage } from '../common/ErrorMessage';
import { ExportDialog } from './ExportDialog';
import { JobHeader } from './JobHeader';
import { ResultPane } from '../result/ResultPane';
import { TargetTable } from './TargetTable';
import { AskResults } from '../search/AskResults';
import { JobSearchBar } from '../search/JobSearchBar';
import { SearchResults } from '../search/SearchResults';

/**
 * Closes what is open over the job view, one thing per Esc, and says whether there was one: the
 * About box, then the job box's hits or answers, which stand in the table's place (the table
 * comes back, the keyboard in the box they came from). Esc cancels the job only with none open.
 */
function closeOpen(id: string): boolean {
  const about = document.querySelector<HTMLDetailsElement>('details.about[open]');
  if (about) {
    const inside = about.contains(document.activeElement);
    about.open = false;
    if (inside) about.querySelector('summary')?.focus();
    return true;
  }
  const s = useStore.getState();
  const finding = s.searchMode === 'find' && s.searchBoxes.job.jobId === id && s.searchBoxes.job.query.trim() !== '';
  const asked = s.searchMode === 'ask' && s.ask?.jobId === id;
  if (!finding && !asked) return false;
  if (finding) cancelSearch('job');
  else s.setAsk(null);
  document.querySelector<HTMLInputElement>(finding ? '[data-testid="job-search-input"]' : '[data-testid="ask-input"]')?.focus();
  return true;
}

export function JobView({ id }: { id: string }): React.JSX.Element {
  const { exists, jobsLoaded, detailJobId, detailError, exportOpen, searching } = useStore(
    useShallow((s) => ({
      // The search box of this job holds a query (find) or the job has been asked (ask):
      // the hits take the table's place, the preview stays beside them.
      searching:
        s.searchMode === 'ask'
          ? s.ask?.jobId === id
            ? 'ask'
            : null
          : s.searchBoxes.job.jobId === id && s.searchBoxes.job.query.trim()
            ? 'find'
            : null,
      exists: !!s.jobs[id],
      jobsLoaded: s.jobsLoaded,
      detailJobId: s.detailJobId,
      detailError: s.detailError,
      exportOpen: s.exportFor === id,
    })),
  );

  // The sidebar loads the rows when it switches jobs; this covers a view set any other way.
  useEffect(() => {
    if (useStore.getState().detailJobId !== id) void openJob(id);
  }, [id]);

  // Esc cancels the job on screen while it runs (what finished stays kept), but not from a
  // field or a list box, where Esc is the control's own (a select's list closing, a box's text
  // given up): a user closing the status filter's list stopped the job. And not while anything
  // is open (closeOpen): a user pressing Esc to close what looked like a dialog cancelled the job.
  useEffect(() => {
    const onKey = (e: KeyboardEvent): void => {
      if (e.key !== 'Escape' || e.defaultPrevented) return;
      if (e.target instanceof Element && e.target.closest('select, textarea, input:not([type="checkbox"], [type="radio"], [type="button"]), [role="listbox"], [role="combobox"]')) return;
      // A dialog closes itself on Esc (its cancel event), which taking the key here would stop.
      if (document.querySelector('dialog[open]')) return;
      if (closeOpen(id)) {
        e.preventDefault();
        return;
      }
      const job = useStore.getState().jobs[id];
      if (!job || !isLive(job)) return;
      e.preventDefault();
      void cancelJob(id);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [id]);

  if (detailError && detailJobId === id) {
    return (
      <section className="job-view">
        <ErrorMessage error={detailError} testId="job-error" />
      </section>
    );
  }
  if (!exists) {
    return (
      <section className="job-view empty-state">
        <p>{jobsLoaded ? 'This job is gone: it was deleted or it expired.' : 'Loading…'}</p>
      </section>
    );
  }
  return (
    <section className="job-view" data-testid="job-view" data-job-id={id}>
      <JobHeader id={id} />
      <JobSearchBar id={id} />
      <div className="job-body">
        {searching === 'find' ? <SearchResults box="job" showJob={false} /> : searching === 'ask' ? <AskResults jobId={id} /> : <TargetTable />}
        <ResultPane besideTable={searching === null} />
      </div>
      {exportOpen && <ExportDialog jobId={id} />}
    </section>
  );
}
