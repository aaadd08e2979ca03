import { useEffect, useRef } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { useStore } from '../../store';
import { loadSource } from '../../store/actions';
import { formatBytes } from '../../lib/format';

// Parse after a short pause in typing, not on every key: a long list takes a moment.
const PARSE_DELAY_MS = 250;

/**
 * The paste box is uncontrolled: a 50,000-line list held in React state would be copied
 * and diffed on every keystroke.
 */
export function PasteBox(): React.JSX.Element {
  const { kind, name, size } = useStore(
    useShallow((s) => ({ kind: s.source?.kind, name: s.source?.name ?? '', size: s.source?.kind === 'file' ? s.source.text.length : 0 })),
  );
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);

  if (kind === 'file') {
    return (
      <div className="file-chip" data-testid="list-file">
        <span>
          <strong>{name}</strong> <span className="muted">{formatBytes(size)}</span>
        </span>
        <button type="button" className="link-button" onClick={() => void loadSource(null)}>
          Clear and paste instead
        </button>
      </div>
    );
  }
  return (
    <textarea
      id="paste-box"
      className="paste-box"
      data-testid="paste-box"
      aria-label="Paste URLs"
      spellCheck={false}
      placeholder={'Paste URLs, one per line. A line may carry options:\nhttps://example.org/report.pdf pages=1-5 grep="revenue"\nhttps://api.example.org/items.json jq=\'.items[].name\''}
      defaultValue={useStore.getState().source?.kind === 'paste' ? useStore.getState().source?.text : ''}
      onChange={(e) => {
        const text = e.target.value;
        clearTimeout(timer.current);
        timer.current = setTimeout(() => void loadSource({ kind: 'paste', name: 'pasted', text }), PARSE_DELAY_MS);
      }}
    />
  );
}
