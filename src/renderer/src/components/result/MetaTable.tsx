import { metaValue } from '../../lib/format';

// The fields people look for first; the rest follow in the order main sent them.
const FIRST = ['title', 'url', 'final_url', 'status', 'content_type', 'bytes', 'pages_total', 'pages_returned', 'matches', 'match_pages', 'passages', 'passage_pages', 'recovered', 'fetched_ms'];

// Bookkeeping for search citations, not something a reader looks up.
const HIDDEN = ['page_lines'];


export function MetaTable({ meta }: { meta: Record<string, unknown> }): React.JSX.Element {
  const keys = [...FIRST.filter((k) => k in meta), ...Object.keys(meta).filter((k) => !FIRST.includes(k) && !HIDDEN.includes(k))];
  return (
    <details className="meta" open>
      <summary>Meta</summary>
      <dl data-testid="result-meta">
        {keys.map((k) => (
          <div key={k} className="meta-row">
            <dt>{k}</dt>
            <dd>{metaValue(meta[k])}</dd>
          </div>
        ))}
      </dl>
    </details>
  );
}
