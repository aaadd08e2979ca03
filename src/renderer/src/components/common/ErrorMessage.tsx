import type { UserError } from '../../lib/errors';

/** A failure as the user reads it: what happened, then what to do. */
export function ErrorMessage({ error, id, testId }: { error: UserError; id?: string; testId?: string }): React.JSX.Element {
  return (
    <div className="error-message" role="alert" id={id} data-testid={testId} data-code={error.code}>
      <strong>{error.message}</strong>
      {error.hint && <span className="hint">{error.hint}</span>}
    </div>
  );
}
