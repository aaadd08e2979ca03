import { useShallow } from 'zustand/react/shallow';
import { useStore } from '../../store';
import { effectiveOptions } from '../../store/composer';
import { previewTarget } from '../../store/actions';
import { ErrorMessage } from '../common/ErrorMessage';
import { ResultView } from '../result/ResultView';
import { readableUrl } from '../../../../shared/readable-url';

/** Fetches one URL of the list now, with the options it would run with, before submitting. */
export function PreviewPanel(): React.JSX.Element | null {
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
  return (
    <section className="preview-panel" data-testid="preview-panel">
      <div className="preview-head">
        <button type="button" onClick={() => void previewTarget()} disabled={loading} data-testid="preview-button">
          {loading ? 'Fetching…' : 'Preview'}
        </button>
        <button type="button" onClick={() => void previewTarget({ render: 'always' })} disabled={loading} title="Run the page's JavaScript in a browser first, as for an app that shows nothing without it" data-testid="preview-render-button">
          Preview rendered
        </button>
        <span className="parsed-url" title={target.url}>
          {readableUrl(target.url)}
        </span>
        {options && <code className="muted">{JSON.stringify(options)}</code>}
      </div>
      {error && <ErrorMessage error={error} testId="preview-error" />}
      {preview && preview.url === target.url && <ResultView result={preview.result} mode={options?.mode} />}
    </section>
  );
}
