import { useStore } from '../../store';
import { SearchInput } from './SearchInput';

/** The sidebar's box: searches every job; typing shows the results in the main area. */
export function SidebarSearch(): React.JSX.Element {
  return (
    <div className="sidebar-search">
      <SearchInput
        box="all"
        jobId={null}
        label="Search all jobs"
        placeholder="Search all jobs…"
        testId="sidebar-search-input"
        onType={(q) => {
          const s = useStore.getState();
          if (q.trim() && s.view.kind !== 'search') s.setView({ kind: 'search' });
        }}
      />
    </div>
  );
}
