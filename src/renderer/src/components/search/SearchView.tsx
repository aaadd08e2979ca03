import { SearchInput } from './SearchInput';
import { SearchResults } from './SearchResults';
import { JobNameMatches } from './JobNameMatches';

/** Search across every job (the sidebar's box leads here). */
export function SearchView(): React.JSX.Element {
  return (
    <section className="search-view" data-testid="search-view">
      <header className="search-view-head">
        <h2>Search all jobs</h2>
        <SearchInput box="all" jobId={null} label="Search every job's results" placeholder="Search every job's results…" testId="search-view-input" />
      </header>
      <JobNameMatches />
      <SearchResults box="all" showJob />
    </section>
  );
}
