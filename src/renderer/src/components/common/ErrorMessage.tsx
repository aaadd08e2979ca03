import type { UserError } from '../../lib/errors';

/** A failure as the user reads it: what happened, then what to do. */
export function ErrorMessage({ error, testId }: { error: UserError; testId?: string }): React.JSX.Element {
  return (
    <div className="error-message" role="alert" data-testid={testId} data-code={error.code}>
      <strong>{error.message}</strong>
      {error.hint && <span className="hint">{error.hint}</span>}
    </div>
  );
}
