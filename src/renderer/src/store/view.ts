import type { StateCreator } from 'zustand';
import type { UserError } from '../lib/errors';
import type { State } from './index';

export type View = { kind: 'compose' } | { kind: 'job'; id: string } | { kind: 'settings' } | { kind: 'activity' } | { kind: 'search' };

export interface Notice extends UserError {
  id: number;
  /** 'error' stays until dismissed; 'info' fades after a few seconds. */
  level: 'error' | 'info';
}

export interface ViewSlice {
  view: View;
  notices: Notice[];
  setView(view: View): void;
  notify(level: Notice['level'], n: Pick<UserError, 'message'> & Partial<UserError>): void;
  dismiss(id: number): void;
}

/** The view lives in the URL hash so a reload (or a restart) opens the same screen. */
export function viewFromHash(hash: string): View {
  const h = hash.replace(/^#\/?/, '');
  if (h.startsWith('job/') && h.length > 4) return { kind: 'job', id: decodeURIComponent(h.slice(4)) };
  if (h === 'settings') return { kind: 'settings' };
  if (h === 'activity') return { kind: 'activity' };
  if (h === 'search') return { kind: 'search' };
  return { kind: 'compose' };
}

export function hashOf(view: View): string {
  return view.kind === 'job' ? `#job/${encodeURIComponent(view.id)}` : view.kind === 'compose' ? '#' : `#${view.kind}`;
}

let noticeSeq = 0;
/** How long an info notice stays: long enough to read a sentence. Errors stay until dismissed. */
export const INFO_MS = 5000;

export const createViewSlice: StateCreator<State, [], [], ViewSlice> = (set, get) => ({
  view: typeof location === 'undefined' ? { kind: 'compose' } : viewFromHash(location.hash),
  notices: [],
  setView: (view) => {
    // replaceState, not a hash assignment: no history entries to step back through, and
    // no navigation event for main's will-navigate guard to weigh.
    if (typeof history !== 'undefined') history.replaceState(null, '', hashOf(view) === '#' ? location.pathname : hashOf(view));
    // The job list's Tab stop goes back to the job on screen (JobList.tsx).
    set({ view, listFocus: null });
  },
  notify: (level, n) => {
    const id = ++noticeSeq;
    set((s) => ({
      // Five at most: a burst of failures should not bury the window.
      notices: [...s.notices, { id, level, code: n.code ?? level, message: n.message, hint: n.hint ?? '' }].slice(-5),
    }));
    // Counted from its own arrival: timers set again at each change of the list kept every
    // info notice up while others kept coming.
    if (level === 'info') setTimeout(() => get().dismiss(id), INFO_MS);
  },
  dismiss: (id) => set((s) => ({ notices: s.notices.filter((n) => n.id !== id) })),
});
