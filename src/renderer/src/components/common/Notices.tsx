import { useStore } from '../../store';

/** The notices, newest last; info ones leave by themselves (store/view.ts), errors when dismissed. */
export function Notices(): React.JSX.Element {
  const notices = useStore((s) => s.notices);
  const dismiss = useStore((s) => s.dismiss);
  return (
    <div className="notices" aria-live="polite">
      {notices.map((n) => (
        <div key={n.id} className={`notice notice-${n.level}`} role={n.level === 'error' ? 'alert' : 'status'} data-testid="notice" data-code={n.code}>
          <div>
            <strong>{n.message}</strong>
            {n.hint && <span className="hint">{n.hint}</span>}
          </div>
          <button type="button" className="icon-button" aria-label="Dismiss" onClick={() => dismiss(n.id)}>
            ×
          </button>
        </div>
      ))}
    </div>
  );
}
