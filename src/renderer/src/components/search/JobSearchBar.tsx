import { useState } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { useStore } from '../../store';
import { askJob, cancelSearch } from '../../store/search-actions';
import { SearchInput } from './SearchInput';
import { searchedIn, searchHelp } from '../../../../shared/search';
import { FocusSafeButton } from '../common/FocusSafeButton';

/** Find words in this job's results, or ask it a question. */
export function JobSearchBar({ id }: { id: string }): React.JSX.Element {
  const { mode, setMode, ask, empty, typed } = useStore(
    useShallow((s) => ({
      mode: s.searchMode,
      setMode: s.setSearchMode,
      ask: s.ask,
      empty: s.searchBoxes.job.jobId !== id || !s.searchBoxes.job.query.trim(),
      typed: s.searchBoxes.job.jobId === id && s.searchBoxes.job.query !== '',
    })),
  );
  const [question, setQuestion] = useState(ask?.jobId === id ? ask.question : '');
  return (
    <div className="job-search" data-testid="job-search">
      {/* A radio group: one Tab stop (the checked one), arrows move and choose, as native radios do. */}
      <div
        className="segmented"
        role="radiogroup"
        aria-label="Search mode"
        onKeyDown={(e) => {
          if (!['ArrowLeft', 'ArrowRight', 'ArrowUp', 'ArrowDown'].includes(e.key)) return;
          e.preventDefault();
          const next = mode === 'find' ? 'ask' : 'find';
          setMode(next);
          e.currentTarget.querySelector<HTMLElement>(`[data-testid="search-mode-${next}"]`)?.focus();
        }}
      >
        <button type="button" role="radio" aria-checked={mode === 'find'} tabIndex={mode === 'find' ? 0 : -1} className={mode === 'find' ? 'active' : ''} onClick={() => setMode('find')} data-testid="search-mode-find">
          Find
        </button>
        <button type="button" role="radio" aria-checked={mode === 'ask'} tabIndex={mode === 'ask' ? 0 : -1} className={mode === 'ask' ? 'active' : ''} onClick={() => setMode('ask')} data-testid="search-mode-ask">
          Ask this job
        </button>
      </div>
      {mode === 'find' ? (
        <SearchInput box="job" jobId={id} label="Find in this job's results" placeholder="Find in this job's results…" testId="job-search-input" describedBy={empty ? 'job-search-help' : undefined} />
      ) : (
        <form
          className="ask-form"
          onSubmit={(e) => {
            e.preventDefault();
            void askJob(id, question);
          }}
        >
          <input
            type="search"
            className="search-input"
            aria-label="Ask this job a question"
            placeholder="Ask a question of every result in this job…"
            value={question}
            onChange={(e) => setQuestion(e.target.value)}
            onKeyDown={(e) => {
              if (e.key === 'Escape') {
                e.preventDefault();
                setQuestion('');
                useStore.getState().setAsk(null);
              }
            }}
            data-testid="ask-input"
          />
          {/* Unavailable, not disabled: a keyboard user Tabbing out of an empty box reaches it and hears what it needs. */}
          <FocusSafeButton type="submit" unavailable={!question.trim()} why="Type a question first, then press Ask." data-testid="ask-submit">
            Ask
          </FocusSafeButton>
        </form>
      )}
      {mode === 'find' && (
        // Disabled with nothing typed, where it did nothing a user could see; not hidden, so the box keeps its width.
        <button type="button" className="link-button" onClick={(e) => {
            cancelSearch('job');
            // Disabled now, it would drop the keyboard on the page's body.
            e.currentTarget.closest('.job-search')?.querySelector<HTMLInputElement>('[data-testid="job-search-input"]')?.focus();
          }}
          disabled={!typed} aria-label="Clear the search" data-testid="job-search-clear">
          Clear
        </button>
      )}
      {/* Under the empty box while it has focus (styles.css), not in the table's place: an empty
          job box brought the table back and said nothing of what can be typed, title: and url: among it. */}
      {mode === 'find' && empty && (
        <p className="muted search-help" id="job-search-help" data-testid="job-search-help">
          {searchHelp(searchedIn(id))}
        </p>
      )}
    </div>
  );
}
