import { useEffect, useLayoutEffect, useMemo, useRef } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { counted } from '../../../../shared/count';
import { withoutBidiControls } from '../../../../shared/shown';
import { useStore } from '../../store';
import { editHeldPaste, loadSource, pastedText, schedulePaste, stopReadingFile } from '../../store/actions';
import { cutMiddle } from '../../../../shared/cut';
import { formatBytes } from '../../../../shared/bytes';

/**
 * A paste longer than this is held as a summary, not put in the box. Measured in headless
 * Chromium on a bare textarea of 44-character URLs: 1,000 lines (44 KB) took 87 ms to show and
 * 15 ms a key; 5,000 (224 KB) 0.5 s and 35 ms; 10,000 (449 KB) 1.4 s and 145 ms; 200,000
 * (9.3 MB) 17 s and 6 s a key. 100,000 characters (about 2,300 such lines) keeps both under a
 * frame or two's worth of waiting.
 */
const HELD_PASTE_CHARS = 100_000;
/** A held paste up to this long may be opened in the box to edit: 10,000 lines' 1.4 s once and 145 ms a key, slow but workable for a fix. */
const EDITABLE_PASTE_CHARS = 500_000;
/** The lines a held paste shows, to tell what was pasted. */
const SHOWN_LINES = 3;
/** A shown line is cut to this: a URL of a few kilobytes would fill the composer. */
const SHOWN_LINE_CHARS = 200;

export function PasteBox(): React.JSX.Element {
  const { kind, name, size, held, reading } = useStore(
    useShallow((s) => ({
      kind: s.source?.kind,
      name: s.source?.name ?? '',
      size: s.source?.kind === 'file' ? (s.source.bytes ?? s.source.text.length) : 0,
      held: s.source?.held === true,
      reading: s.fileReading !== null,
    })),
  );

  if (reading) return <FileReadingChip />;
  if (kind === 'file') {
    return (
      <div className="file-chip" data-testid="list-file">
        <span>
          <strong>{withoutBidiControls(name)}</strong> <span className="muted">{formatBytes(size)}</span>
        </span>
        <button type="button" className="link-button" onClick={() => void loadSource(null)}>
          Clear and paste instead
        </button>
      </div>
    );
  }
  if (held) return <HeldPaste />;
  return <PasteArea />;
}

/** A dropped file being read in the worker: how far, and a Cancel (its list, when read, takes this place). */
function FileReadingChip(): React.JSX.Element | null {
  const reading = useStore((s) => s.fileReading);
  if (!reading) return null;
  const { name, read, total } = reading;
  // Its last bytes read, the decoding and the parse are left: a 50 MB export takes seconds more.
  const what = read < total ? '' : '; finding its URLs…';
  return (
    <div className="file-chip" data-testid="list-reading">
      <span role="status">
        Reading {name}: {formatBytes(read)} of {formatBytes(total)}
        {what}
      </span>
      <progress max={total} value={read} aria-label={`Reading ${name}`} />
      <button type="button" className="link-button" onClick={stopReadingFile}>
        Cancel
      </button>
    </div>
  );
}

/**
 * Set when the box or the summary replaces the element that had the focus (a paste held, Clear,
 * Edit in the box): the one drawn next takes it, or a keyboard user is thrown elsewhere.
 */
let takeFocus = false;

/** Lines in `text` (a last line without its newline counts), found without splitting 8 MB into strings. */
function countLines(text: string): number {
  let n = 0;
  for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1)) n++;
  return text.length > 0 && !text.endsWith('\n') ? n + 1 : n;
}

function firstLines(text: string): string {
  return text
    .slice(0, SHOWN_LINES * (SHOWN_LINE_CHARS + 2))
    .split(/\r?\n/)
    .slice(0, SHOWN_LINES)
    .map((l) => cutMiddle(l, SHOWN_LINE_CHARS))
    .join('\n');
}

/** A paste too long for the box, as a dropped file is shown: its size and first lines, to clear (or, short enough, to edit). */
function HeldPaste(): React.JSX.Element {
  const text = useStore((s) => s.source?.text ?? '');
  const lines = useMemo(() => countLines(text), [text]);
  const first = useMemo(() => firstLines(text), [text]);
  const actions = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!takeFocus) return;
    takeFocus = false;
    actions.current?.querySelector('button')?.focus();
  }, []);
  const replaceWith = (change: () => void): void => {
    takeFocus = true;
    change();
  };
  return (
    <div className="file-chip held-paste" data-testid="list-held">
      <div>
        <strong>Pasted list</strong> <span data-testid="held-lines">{counted(lines, 'line')}</span> <span className="muted">{formatBytes(text.length)}</span>
        <p className="muted">Too long to edit in the box without slowing every key; it is read as it is.</p>
        <pre className="held-first" data-testid="held-first">
          {first}
        </pre>
      </div>
      <div className="held-actions" ref={actions}>
        {text.length <= EDITABLE_PASTE_CHARS && (
          <button type="button" className="link-button" onClick={() => replaceWith(editHeldPaste)}>
            Edit in the box
          </button>
        )}
        <button type="button" className="link-button" onClick={() => replaceWith(() => void loadSource(null))}>
          Clear
        </button>
      </div>
    </div>
  );
}

// Each line within the box's 33 characters at 800 px (253 px of 12.5 px monospace): longer, the
// example wrapped in its URL, "https://api.example.org/items.jso" over "n jq='.items[].name'",
// and read as two lines, one of them no URL; at 1024 and 1280 px too, after "pages=1-5".
const PLACEHOLDER = 'Paste URLs, one per line.\nOptions may follow a URL:\nhttps://example.org/a grep="tax"\nhttps://example.org/b pages=1-5\nhttps://example.org/c jq=.items';

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
    const onPaste = (e: ClipboardEvent): void => holdLongPaste(box, e);
    box.addEventListener('input', onInput);
    box.addEventListener('paste', onPaste);
    host.current?.append(box);
    if (takeFocus) {
      takeFocus = false;
      box.focus();
    }
    return () => {
      box.removeEventListener('input', onInput);
      box.removeEventListener('paste', onPaste);
      box.remove();
    };
  }, []);
  return <div ref={host} className="paste-host" />;
}

/**
 * A long paste never reaches the textarea: the browser's insertion is stopped and the box's
 * text, with the paste where the selection was, becomes a held list. A short one is left to
 * the browser, as any paste was.
 */
function holdLongPaste(box: HTMLTextAreaElement, e: ClipboardEvent): void {
  const pasted = e.clipboardData?.getData('text/plain') ?? '';
  if (pasted.length <= HELD_PASTE_CHARS) return;
  e.preventDefault();
  takeFocus = document.activeElement === box;
  const text = box.value.slice(0, box.selectionStart) + pasted + box.value.slice(box.selectionEnd);
  void loadSource({ kind: 'paste', name: 'pasted', text, held: true });
}
