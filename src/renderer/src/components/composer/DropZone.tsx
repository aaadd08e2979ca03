import { useState } from 'react';
import { parseList } from '../../../../shared/urllist';
import { useStore } from '../../store';
import { loadFile, loadSource, openListFile, readingList } from '../../store/actions';

/** URLs from links dragged out of a browser: uri-list first (every browser sets it), then html, then text. */
export function linksFromDrop(dt: DataTransfer): string {
  const uriList = dt.getData('text/uri-list');
  if (uriList.trim()) {
    return uriList
      .split(/\r?\n/)
      .filter((l) => l.trim() && !l.startsWith('#'))
      .join('\n');
  }
  const html = dt.getData('text/html');
  if (html.trim()) return parseList(html, { format: 'html' }).targets.map((t) => t.url).join('\n');
  return dt.getData('text/plain');
}

/** Appends dropped links to the paste box, so several drags build one list. */
function addLinks(text: string): void {
  const box = document.getElementById('paste-box') as HTMLTextAreaElement | null;
  const { source } = useStore.getState();
  // The box first: it holds what was typed and not yet parsed.
  const before = box ? box.value : source?.kind === 'paste' ? source.text : '';
  const next = before.trim() ? `${before.replace(/\s+$/, '')}\n${text}` : text;
  if (box) box.value = next;
  // A held paste stays held: the links join it, not a box of its whole text.
  void loadSource({ kind: 'paste', name: 'pasted', text: next, ...(source?.held && { held: true }) });
}

export function DropZone({ children }: { children: React.ReactNode }): React.JSX.Element {
  const [over, setOver] = useState(false);
  const onDrop = (e: React.DragEvent): void => {
    e.preventDefault();
    setOver(false);
    const files = Array.from(e.dataTransfer.files);
    const first = files[0];
    if (first) {
      if (files.length > 1) useStore.getState().notify('info', { message: `Read ${first.name} only: drop one list at a time.` });
      // Read, decoded and parsed in a worker: a Submit meanwhile waits for it.
      void readingList(loadFile(first));
      return;
    }
    const links = linksFromDrop(e.dataTransfer);
    if (links.trim()) addLinks(links);
  };
  return (
    <div
      className={`drop-zone${over ? ' over' : ''}`}
      data-testid="drop-zone"
      onDragOver={(e) => {
        e.preventDefault();
        e.dataTransfer.dropEffect = 'copy';
        if (!over) setOver(true);
      }}
      onDragLeave={(e) => {
        if (!e.currentTarget.contains(e.relatedTarget as Node | null)) setOver(false);
      }}
      onDrop={onDrop}
    >
      <div className="drop-zone-head">
        <div>
          <strong>Drop a list here</strong>
          <span className="muted"> — a text, CSV/TSV, Markdown, JSON or uri-list file, a browser's bookmarks export, a sitemap, an OPML outline or a feed, or links dragged from a browser.</span>
        </div>
        <button type="button" onClick={() => void openListFile()} data-testid="open-list">
          Open list…
        </button>
      </div>
      {children}
    </div>
  );
}
