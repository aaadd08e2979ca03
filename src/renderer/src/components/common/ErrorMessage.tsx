import type { UserError } from '../../lib/errors';
import { sentenceStart } from '../../lib/format';

/**
 * A failure as the user reads it: what happened, then what to do. An alert, said as it appears,
 * unless `live` is false: a failure the user went to see (a failed row's) is no news. The
 * headline starts as a sentence: an export refused by the disk read "cannot write to …".
 */
export function ErrorMessage({ error, id, testId, live = true }: { error: UserError; id?: string; testId?: string; live?: boolean }): React.JSX.Element {
  return (
    <div className="error-message" role={live ? 'alert' : undefined} id={id} data-testid={testId} data-code={error.code}>
      <strong>{sentenceStart(error.message)}</strong>
      {error.hint && <span className="hint">{error.hint}</span>}
    </div>
  );
}
