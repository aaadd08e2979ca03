import { useShallow } from 'zustand/react/shallow';
import { useStore } from '../../store';
import { submitList } from '../../store/actions';
import { cleanOptions, shownOptions } from '../../store/composer';
import { counted } from '../../../../shared/count';
import { ErrorMessage } from '../common/ErrorMessage';
import { FocusSafeButton } from '../common/FocusSafeButton';

const MOD = typeof navigator !== 'undefined' && /Mac/.test(navigator.platform) ? '⌘' : 'Ctrl';

export function SubmitBar(): React.JSX.Element {
  const { n, submitting, parsing, error } = useStore(
    useShallow((s) => ({
      n: s.parsed?.length ?? 0,
      submitting: s.submitting,
      // A sitemap index's pages, or the list at an address, being read: Submit waits for them, as for a list being parsed.
      parsing: s.parsing || s.fileReading !== null || s.sitemaps?.state === 'reading' || s.sitemaps?.state === 'stopping' || s.listAt?.state === 'reading' || s.listAt?.state === 'stopping',
      error: s.submitError,
    })),
  );
  return (
    <div className="submit-bar">
      {error && <ErrorMessage error={error} testId="submit-error" />}
      {!error && <CarriedOptions />}
      <FocusSafeButton className="primary" onClick={() => void submitList()} unavailable={submitting} data-testid="submit">
        {submitting ? 'Submitting…' : parsing ? 'Reading the list…' : n > 0 ? `Fetch ${counted(n, 'URL')}` : 'Fetch'} <kbd>{MOD}+Enter</kbd>
      </FocusSafeButton>
    </div>
  );
}

/**
 * The last job's options, which a new list keeps until they are changed or reset, said where
 * the list is sent from: in their fields only, a grep or a jq program below the fold of a
 * 1024×768 window rode along with the next list unseen, and its results were matching lines.
 */
function CarriedOptions(): React.JSX.Element | null {
  const { options, clear } = useStore(useShallow((s) => ({ options: s.optionsCarried ? shownOptions(cleanOptions(s.listOptions)) : '', clear: s.clearListOptions })));
  if (!options) return null;
  return (
    <p className="carried-options" data-testid="carried-options">
      <span className="muted">Options from your last job: </span>
      <code title={`Every URL of this list runs with these options too: ${options}. Change them in “Options for every URL”, or reset them.`}>{options}</code>
      <button type="button" className="link" onClick={clear} data-testid="carried-reset" title="Clear these options: every URL runs with the defaults">
        Reset
      </button>
    </p>
  );
}
