import { useLayoutEffect, useRef } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { useStore } from '../../store';
import { loadSource, pastedText, schedulePaste } from '../../store/actions';
import { formatBytes } from '../../lib/format';

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
  return <PasteArea />;
}

const PLACEHOLDER =
  'Paste URLs, one per line. A line may carry options:\nhttps://example.org/report.pdf pages=1-5 grep="revenue"\nhttps://api.example.org/items.json jq=\'.items[].name\'';

/**
 * The textarea is made outside React, which never sees it. React 19 writes a textarea's
 * defaultValue back (its whole text, as a new text node) after every input event, and reads
 * its value and selection at every key for onChange and onSelect: in a 50,000-line list
 * that was ~70 ms of each keystroke on top of the browser's own editing. Here a key only
 * restarts the pause timer; the text is read once, when typing pauses (schedulePaste).
 */
function PasteArea(): React.JSX.Element {
  const host = useRef<HTMLDivElement>(null);
  useLayoutEffect(() => {
    const box = document.createElement('textarea');
    box.id = 'paste-box';
    box.className = 'paste-box';
    box.dataset.testid = 'paste-box';
    box.setAttribute('aria-label', 'Paste URLs');
    box.spellcheck = false;
    box.placeholder = PLACEHOLDER;
    box.value = pastedText();
    const onInput = (): void => schedulePaste(() => box.value);
    box.addEventListener('input', onInput);
    host.current?.append(box);
    return () => {
      box.removeEventListener('input', onInput);
      box.remove();
    };
  }, []);
  return <div ref={host} className="paste-host" />;
}
