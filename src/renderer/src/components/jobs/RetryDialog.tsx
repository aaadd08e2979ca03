import { useEffect, useRef, useState } from 'react';
import { failedAs, type Reason } from '../../../../shared/reasons';
import type { Options } from '../../../../shared/types';
import type { BrowserInfoView } from '../../../../shared/ipc/contract';
import { retryReason } from '../../store/actions';
import { counted } from '../../../../shared/count';
import { useRestoreFocus } from '../../lib/useRestoreFocus';
import { FocusSafeButton } from '../common/FocusSafeButton';

/** What usually helps, per reason: said before the user starts the retry. */
const ADVICE: Partial<Record<Reason, string>> = {
  challenge: 'Anti-bot checks rarely clear on their own; an archived copy often has the page.',
  login: 'These pages need an account; an archived copy may have a public version.',
  soft404: 'The site says these pages do not exist; an archived copy may still have them.',
  consent: 'A consent wall has to be answered in a browser; a retry alone rarely helps.',
  needs_js: 'These pages build their text with JavaScript; they need rendering to be read.',
  busy: 'The site was busy; a later retry often succeeds.',
  timeout: 'The site was slow; a later retry often succeeds.',
};

/** Reasons an archived snapshot can stand in for (SPEC §5.6/§5.9): recover starts on. */
const RECOVER_HELPS: ReadonlySet<Reason> = new Set(['challenge', 'login', 'soft404', 'upstream', 'network']);

/**
 * "Retry these": a fresh job of the targets that failed for one reason, with options the
 * user can change for it. The options here are laid over each target's own.
 */
export function RetryDialog({ jobId, reason, label, count, onClose }: { jobId: string; reason: Reason; label: string; count: number; onClose: () => void }): React.JSX.Element {
  const ref = useRef<HTMLDialogElement>(null);
  const [recover, setRecover] = useState(RECOVER_HELPS.has(reason));
  // needs_js said "they need rendering to be read" and offered only recover: a target whose
  // list line or Settings said render=never failed the same way again.
  const [render, setRender] = useState(reason === 'needs_js');
  const [browser, setBrowser] = useState<BrowserInfoView | null>(null);
  const [busy, setBusy] = useState(false);
  useRestoreFocus();
  useEffect(() => {
    const d = ref.current;
    if (d && !d.open) d.showModal();
  }, []);
  useEffect(() => {
    let live = true;
    window.sift.browserInfo().then(
      (info) => {
        if (!live) return;
        setBrowser(info);
        // With no browser every target would fail as "render=always cannot be met".
        if (!info.ok) setRender(false);
      },
      () => undefined, // Unknown: the job itself says if no browser can render.
    );
    return () => {
      live = false;
    };
  }, []);
  const noBrowser = browser !== null && !browser.ok ? browser : null;

  const start = async (): Promise<void> => {
    setBusy(true);
    const options: Options = {};
    if (recover) options.recover = true;
    if (render) options.render = 'always';
    await retryReason(jobId, reason, options, label);
    setBusy(false);
    onClose();
  };

  return (
    <dialog
      ref={ref}
      className="export-dialog retry-dialog"
      aria-labelledby="retry-title"
      // The advice is the dialog's description: a screen reader opening it said the title and the
      // first check box, and skipped the sentence that says what usually helps.
      aria-describedby={ADVICE[reason] ? 'retry-advice' : undefined}
      data-testid="retry-dialog"
      onCancel={(e) => {
        e.preventDefault();
        if (!busy) onClose();
      }}
    >
      <h2 id="retry-title">Retry {counted(count, 'target')} {failedAs(label)}</h2>
      {ADVICE[reason] && (
        <p className="muted" id="retry-advice">
          {ADVICE[reason]}
        </p>
      )}
      <fieldset disabled={busy}>
        <label className="check">
          <input type="checkbox" checked={recover} onChange={(e) => setRecover(e.target.checked)} data-testid="retry-recover" />
          <span>Look for an archived copy when the page is not there (recover)</span>
        </label>
        <label className="check">
          <input
            type="checkbox"
            checked={render}
            // Unavailable, not disabled: a disabled box is out of the Tab order, so a keyboard user
            // never reached it to hear why. A press of it changes nothing.
            aria-disabled={noBrowser !== null || undefined}
            // Read with the box: a screen reader said "dimmed" and went on, the why only in the paragraph after.
            aria-describedby={noBrowser ? 'retry-no-browser' : undefined}
            onChange={(e) => {
              if (!noBrowser) setRender(e.target.checked);
            }}
            data-testid="retry-render"
          />
          <span>Run the pages in a browser, their JavaScript included (render)</span>
        </label>
        {noBrowser && (
          <p className="field-error" id="retry-no-browser" data-testid="retry-no-browser">
            No browser to render with: {noBrowser.why}. {noBrowser.hint}
          </p>
        )}
      </fieldset>
      <div className="dialog-actions">
        <FocusSafeButton onClick={onClose} unavailable={busy}>
          Cancel
        </FocusSafeButton>
        <FocusSafeButton className="primary" onClick={() => void start()} unavailable={busy} data-testid="retry-start">
          Start a new job
        </FocusSafeButton>
      </div>
    </dialog>
  );
}
