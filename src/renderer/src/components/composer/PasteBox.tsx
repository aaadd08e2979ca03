import { useShallow } from 'zustand/react/shallow';
import { useStore } from '../../store';
import { loadSource, schedulePaste } from '../../store/actions';
import { formatBytes } from '../../lib/format';

/**
 * The paste box is uncontrolled: a 50,000-line list held in React state would be copied
 * and diffed on every keystroke.
 */
export function PasteBox(): React.JSX.Element {
  const { kind, name, size } = useStore(
    useShallow((s) => ({ kind: s.source?.kind, name: s.source?.name ?? '', size: s.source?.kind === 'file' ? s.source.text.length : 0 })),
  );

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
      onChange={(e) => schedulePaste(e.target.value)}
    />
  );
}
