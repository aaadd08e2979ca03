import { metaRows } from '../../lib/meta';

/** A result's meta, in people's words; each field's own name (as --json and the exports write it) is its title. */
export function MetaTable({ meta }: { meta: Record<string, unknown> }): React.JSX.Element {
  return (
    <details className="meta" open>
      <summary>Meta</summary>
      <dl data-testid="result-meta">
        {metaRows(meta).map((r) => (
          <div key={r.key} className="meta-row" data-key={r.key}>
            <dt title={r.key}>{r.label}</dt>
            <dd>{r.value}</dd>
          </div>
        ))}
      </dl>
    </details>
  );
}
