import type { ButtonHTMLAttributes } from 'react';
import { useWhy } from './useWhy';

/**
 * A button that can turn unavailable while it holds the focus: the one just pressed going busy
 * (Preview → "Fetching…", Save → "Saving…", Export → "Exporting…") or left with nothing to do.
 * `disabled` would drop that focus to the page's body: a keyboard user's next Tab started over
 * in the sidebar and a screen reader said nothing of what the press did. aria-disabled keeps
 * the focus where it was, is read as unavailable, and a press of it does nothing.
 *
 * `why`, while unavailable, says what stands in the way: its tooltip and its description, so a
 * keyboard user who Tabs to a dimmed Delete hears "cancel it first", not only "dimmed".
 */
export function FocusSafeButton({ unavailable, why, onClick, ...rest }: ButtonHTMLAttributes<HTMLButtonElement> & { unavailable: boolean; why?: string }): React.JSX.Element {
  const said = useWhy(unavailable && why ? why : '');
  return (
    <>
      <button
        type="button"
        {...rest}
        title={said.title ?? rest.title}
        aria-describedby={said.describedBy ?? rest['aria-describedby']}
        aria-disabled={unavailable || undefined}
        onClick={(e) => {
          // A submit button's press would still submit its form.
          if (unavailable) e.preventDefault();
          else onClick?.(e);
        }}
      />
      {said.note}
    </>
  );
}
