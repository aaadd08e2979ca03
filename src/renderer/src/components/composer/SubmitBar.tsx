import { useShallow } from 'zustand/react/shallow';
import { useStore } from '../../store';
import { submitList } from '../../store/actions';
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
      <FocusSafeButton className="primary" onClick={() => void submitList()} unavailable={submitting} data-testid="submit">
        {submitting ? 'Submitting…' : parsing ? 'Reading the list…' : n > 0 ? `Fetch ${counted(n, 'URL')}` : 'Fetch'} <kbd>{MOD}+Enter</kbd>
      </FocusSafeButton>
    </div>
  );
}
