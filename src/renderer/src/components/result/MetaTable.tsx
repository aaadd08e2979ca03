import { useLayoutEffect, useRef, useState } from 'react';
import { metaRows } from '../../lib/meta';

/**
 * A value folded to six lines, as a search hit's passage is, with a button that unfolds it
 * when it runs longer: a one-word author of 2,000 characters stood 143 lines tall in the
 * 130 px column at 1024 px wide, pushing every field after it out of view.
 */
function MetaValue({ value }: { value: string }): React.JSX.Element {
  const ref = useRef<HTMLSpanElement>(null);
  const [open, setOpen] = useState(false);
  const [folds, setFolds] = useState(false);
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el || open) return;
    // A pixel to spare: heights are rounded, the clamp's lines are not.
    const measure = (): void => setFolds(el.scrollHeight > el.clientHeight + 1);
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(el);
    return () => observer.disconnect();
  }, [value, open]);
  return (
    <dd>
      <span ref={ref} className={`meta-value${open ? '' : ' folded'}`} data-testid="meta-value">
        {value}
      </span>
      {(folds || open) && (
        <button type="button" className="link-button meta-more" aria-expanded={open} onClick={() => setOpen((v) => !v)}>
          {open ? 'Show less' : 'Show all'}
        </button>
      )}
    </dd>
  );
}

/** A result's meta, in people's words; each field's own name (as --json and the exports write it) is its title. */
export function MetaTable({ meta }: { meta: Record<string, unknown> }): React.JSX.Element {
  return (
    <details className="meta" open>
      <summary>Meta</summary>
      <dl data-testid="result-meta">
        {metaRows(meta).map((r) => (
          <div key={r.key} className="meta-row" data-key={r.key}>
            <dt title={r.key}>{r.label}</dt>
            <MetaValue value={r.value} />
          </div>
        ))}
      </dl>
    </details>
  );
}
