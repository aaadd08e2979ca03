import type { ButtonHTMLAttributes } from 'react';

/**
 * A button that can turn unavailable while it holds the focus: the one just pressed going busy
 * (Preview → "Fetching…", Save → "Saving…", Export → "Exporting…") or left with nothing to do.
 * `disabled` would drop that focus to the page's body: a keyboard user's next Tab started over
 * in the sidebar and a screen reader said nothing of what the press did. aria-disabled keeps
 * the focus where it was, is read as unavailable, and a press of it does nothing.
 */
export function FocusSafeButton({ unavailable, onClick, ...rest }: ButtonHTMLAttributes<HTMLButtonElement> & { unavailable: boolean }): React.JSX.Element {
  return (
    <button
      type="button"
      {...rest}
      aria-disabled={unavailable || undefined}
      onClick={(e) => {
        // A submit button's press would still submit its form.
        if (unavailable) e.preventDefault();
        else onClick?.(e);
      }}
    />
  );
}
