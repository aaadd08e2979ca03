import { useEffect } from 'react';
import { useStore } from '../../store';

// Long enough to read a sentence; errors stay until dismissed.
const INFO_MS = 5000;

export function Notices(): React.JSX.Element {
  const notices = useStore((s) => s.notices);
  const dismiss = useStore((s) => s.dismiss);
  useEffect(() => {
    const timers = notices.filter((n) => n.level === 'info').map((n) => setTimeout(() => dismiss(n.id), INFO_MS));
    return () => timers.forEach(clearTimeout);
  }, [notices, dismiss]);
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
