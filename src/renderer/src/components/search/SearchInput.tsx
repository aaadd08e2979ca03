import { useStore } from '../../store';
import { cancelSearch, runSearch, typeSearch } from '../../store/search-actions';
import type { SearchBoxName } from '../../store/search';
import { enterHits } from '../../lib/hit-keys';

/** A search box: results as you type (debounced; a newer query drops an older one's answer). */
export function SearchInput({
  box,
  jobId,
  placeholder,
  label,
  testId,
  describedBy,
  onType,
}: {
  box: SearchBoxName;
  jobId: string | null;
  placeholder: string;
  label: string;
  testId: string;
  describedBy?: string;
  onType?: (query: string) => void;
}): React.JSX.Element {
  const query = useStore((s) => (s.searchBoxes[box].jobId === jobId ? s.searchBoxes[box].query : ''));
  return (
    <input
      type="search"
      className="search-input"
      aria-label={label}
      placeholder={placeholder}
      value={query}
      data-testid={testId}
      aria-describedby={describedBy}
      spellCheck={false}
      onChange={(e) => {
        typeSearch(box, e.target.value, jobId);
        onType?.(e.target.value);
      }}
      onKeyDown={(e) => {
        if (e.key === 'ArrowDown') {
          if (enterHits(box, e.currentTarget)) e.preventDefault();
        } else if (e.key === 'Enter') {
          e.preventDefault();
          void runSearch(box);
        } else if (e.key === 'Escape') {
          // Esc here clears the box; it must not reach the job view's "Esc cancels the job".
          e.preventDefault();
          cancelSearch(box);
          onType?.('');
        }
      }}
    />
  );
}
