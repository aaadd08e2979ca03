import { useMemo, useRef } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { useStore } from '../../store';
import { effectiveOptions, shownOptions } from '../../store/composer';
import { previewTarget } from '../../store/actions';
import { ErrorMessage } from '../common/ErrorMessage';
import { FocusSafeButton } from '../common/FocusSafeButton';
import { ResultView } from '../result/ResultView';
import { FittedAddress } from '../common/FittedAddress';
import { roomBesideOthers } from '../../lib/fit-text';
import type { Options, Result } from '../../../../shared/types';
import { partForPane, shownTitle } from '../../../../shared/shown';


/** Fetches one URL of the list now, with the options it would run with, before submitting. */
export function PreviewPanel(): React.JSX.Element | null {
  const headRef = useRef<HTMLDivElement>(null);
  const { target, listOptions, preview, loading, error } = useStore(
    useShallow((s) => ({
      target: s.parsed?.at(s.previewIdx),
      listOptions: s.listOptions,
      preview: s.preview,
      loading: s.previewLoading,
      error: s.previewError,
    })),
  );
  if (!target) return null;
  const options = effectiveOptions(listOptions, target.options);
  const shown = preview && preview.url === target.url ? preview : null;
  const title = typeof shown?.result.meta?.title === 'string' ? shownTitle(shown.result.meta.title) : '';
  return (
    <section className="preview-panel" data-testid="preview-panel">
      <div className="preview-head" ref={headRef}>
        <FocusSafeButton onClick={() => void previewTarget()} unavailable={loading} data-testid="preview-button">
          {loading ? 'Fetching…' : 'Preview'}
        </FocusSafeButton>
        <FocusSafeButton onClick={() => void previewTarget({ render: 'always' })} unavailable={loading} title="Run the page's JavaScript in a browser first, as for an app that shows nothing without it" data-testid="preview-render-button">
          Preview rendered
        </FocusSafeButton>
        {/* Its line's width is its room: the head wraps, and the address's own box grows with its text. */}
        <FittedAddress url={target.url} className="parsed-url" column={headRef} room={roomBesideOthers} />
        {/* As the list writes them (grep="…" context), on one line: as JSON, a question's quotes came
            escaped, and a long one ran past the panel and squeezed the URL out of sight. */}
        {options && (
          <code className="preview-options muted" title={`The options this URL runs with: ${shownOptions(options)}`} data-testid="preview-options">
            {shownOptions(options)}
          </code>
        )}
        {/* The result appears below the buttons without a word to a screen reader; a failure is the alert below. */}
        <span className="visually-hidden" role="status" data-testid="preview-announce">
          {loading ? 'Fetching the preview…' : shown ? `Preview ready${title ? `: ${title}` : ''}.` : ''}
        </span>
      </div>
      {error && <ErrorMessage error={error} testId="preview-error" />}
      {shown && <PreviewResult result={shown.result} options={options} bytes={shown.bytes} />}
    </section>
  );
}

/**
 * A preview comes whole, as nothing is stored to fetch it from: it is cut here as main cuts a
 * job's result (partForPane), and Copy takes the whole it holds. Shown as it came, a line of
 * 2 MB froze the window as a job's result did.
 */
function PreviewResult({ result, options, bytes }: { result: Result; options: Options | undefined; bytes: number }): React.JSX.Element {
  // By the mode alone, what partForPane reads of the options: they are a new object at each render.
  const mode = options?.mode;
  const pane = useMemo(() => partForPane(result, mode === undefined ? undefined : { mode }), [result, mode]);
  const part = pane.part && { ...pane.part, whole: () => Promise.resolve(result.content) };
  return <ResultView result={pane.part ? { ...result, content: pane.content } : result} mode={mode} bytes={bytes} part={part} />;
}
