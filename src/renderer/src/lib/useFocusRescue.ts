import { useEffect, type RefObject } from 'react';

const FOCUSABLE = 'button:not(:disabled), a[href], input:not(:disabled), select:not(:disabled), textarea:not(:disabled), summary, [tabindex]:not([tabindex="-1"])';

/** Focuses the view's heading, as a view that replaced the one holding focus does (App.tsx). */
export function focusHeading(main: HTMLElement | null): boolean {
  const heading = main?.querySelector('h2');
  if (!heading) return false;
  heading.tabIndex = -1;
  heading.focus();
  return true;
}

/**
 * A control that goes away while it holds the focus ("Show all" once the filter is cleared, a
 * notice's ×, "Open result" once the result is there, Cancel once the job stops) drops that
 * focus to the page's body: the next Tab started over in the sidebar and a screen reader said
 * nothing. The focus goes instead to the first control left in the nearest part of the page
 * that is still there (the filter's select, the job's next action, the result pane's link), or
 * to the view's heading when the view itself went.
 */
export function useFocusRescue(main: RefObject<HTMLElement | null>): void {
  useEffect(() => {
    const onFocusOut = (e: FocusEvent): void => {
      if (e.relatedTarget || !(e.target instanceof Element)) return;
      const from = e.target;
      // Read now: Chromium sends focusout while the control is still in place, and once it is
      // removed it no longer knows where it was.
      const around: Element[] = [];
      for (let el = from.parentElement; el && el !== document.body; el = el.parentElement) around.push(el);
      // After the change that removed it is committed, with what replaced it in place.
      queueMicrotask(() => {
        const lost = !document.activeElement || document.activeElement === document.body;
        // Still there: the window lost the focus, or a click landed on plain text, the user's choice.
        if (!lost || from.isConnected) return;
        for (const el of around) {
          if (!el.isConnected) continue;
          if (el === main.current || el.contains(main.current)) {
            focusHeading(main.current);
            return;
          }
          const next = Array.from(el.querySelectorAll<HTMLElement>(FOCUSABLE)).find((c) => c.getClientRects().length > 0);
          if (next) {
            next.focus();
            return;
          }
        }
      });
    };
    document.addEventListener('focusout', onFocusOut);
    return () => document.removeEventListener('focusout', onFocusOut);
  }, [main]);
}
