import { useId } from 'react';

/**
 * What stands in the way of a control while it is unavailable: its tooltip, and its
 * description (hidden text it points at), so a keyboard user who Tabs to a dimmed control
 * hears why, not only "dimmed". `why` empty: the control is available, and says nothing more.
 * `note` goes beside the control.
 */
export function useWhy(why: string): { title: string | undefined; describedBy: string | undefined; note: React.JSX.Element | null } {
  const id = useId();
  if (!why) return { title: undefined, describedBy: undefined, note: null };
  return {
    title: why,
    describedBy: id,
    note: (
      <span className="visually-hidden" id={id}>
        {why}
      </span>
    ),
  };
}
