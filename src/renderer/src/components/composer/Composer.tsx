import { useEffect } from 'react';
import { useStore } from '../../store';
import { submitList } from '../../store/actions';
import { isEmptyFile } from '../../store/composer';
import { DropZone } from './DropZone';
import { ListOptionsForm } from './ListOptionsForm';
import { ParsedTargetList } from './ParsedTargetList';
import { ParseSummary } from './ParseSummary';
import { PasteBox } from './PasteBox';
import { PreviewPanel } from './PreviewPanel';
import { SubmitBar } from './SubmitBar';

export function Composer(): React.JSX.Element {
  const hasList = useStore((s) => s.parsed !== null || s.parsing);
  const firstTime = useStore((s) => s.jobsLoaded && s.jobOrder.length === 0);
  const emptyFile = useStore((s) => (isEmptyFile(s.source) ? s.source.name : null));
  // On the window, not the section: after a click on Preview or a drop, focus is on the body.
  useEffect(() => {
    const onKey = (e: KeyboardEvent): void => {
      if (e.key !== 'Enter' || !(e.ctrlKey || e.metaKey) || e.defaultPrevented) return;
      e.preventDefault();
      void submitList();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
  return (
    <section className="composer" data-testid="composer">
      <h2>New list</h2>
      {firstTime && !hasList && (
        <p className="intro" data-testid="first-time">
          Sift fetches every URL in a list and keeps what is behind it as clean text: readable articles, PDF text, JSON through jq, lines
          matching a pattern. Start by dropping a list below or pasting URLs; you can preview one before fetching them all.
        </p>
      )}
      <div className="composer-grid">
        <div className="composer-input">
          <DropZone>
            <PasteBox />
          </DropZone>
          <ListOptionsForm />
        </div>
        <div className="composer-review">
          {hasList ? (
            <>
              <ParseSummary />
              <ParsedTargetList />
              <PreviewPanel />
            </>
          ) : (
            <div className="empty-state">
              {emptyFile ? (
                <p data-testid="empty-file">{emptyFile} is empty: there is no URL in it to read.</p>
              ) : (
                <p>The URLs Sift finds in your list show up here, with any line it could not read and why.</p>
              )}
            </div>
          )}
        </div>
      </div>
      <SubmitBar />
    </section>
  );
}
