import { useShallow } from 'zustand/react/shallow';
import { useStore } from '../../store';
import type { Notice } from '../../store/view';

/**
 * The notices, newest last; info ones leave by themselves (store/view.ts), errors when dismissed.
 * Two live regions, there from the start so a notice added to one is heard: errors in an alert,
 * the rest in a status. Each notice used to carry its own role inside one polite region, live
 * regions nested, and a screen reader read a notice twice.
 */
export function Notices(): React.JSX.Element {
  const errors = useStore(useShallow((s) => s.notices.filter((n) => n.level === 'error')));
  const others = useStore(useShallow((s) => s.notices.filter((n) => n.level !== 'error')));
  return (
    <div className="notices">
      <div className="notice-group" role="alert" data-testid="notices-errors">
        {errors.map((n) => (
          <NoticeItem key={n.id} notice={n} />
        ))}
      </div>
      <div className="notice-group" role="status" data-testid="notices-info">
        {others.map((n) => (
          <NoticeItem key={n.id} notice={n} />
        ))}
      </div>
    </div>
  );
}

function NoticeItem({ notice: n }: { notice: Notice }): React.JSX.Element {
  const dismiss = useStore((s) => s.dismiss);
  return (
    <div className={`notice notice-${n.level}`} data-testid="notice" data-code={n.code}>
      <div>
        <strong>{n.message}</strong>
        {n.hint && <span className="hint">{n.hint}</span>}
      </div>
      {/* Named for its notice: with two up, a screen reader's list of buttons said "Dismiss, Dismiss". */}
      <button type="button" className="icon-button" aria-label={`Dismiss: ${n.message}`} onClick={() => dismiss(n.id)}>
        ×
      </button>
    </div>
  );
}
