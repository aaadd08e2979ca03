import { OptionsSchema, type Options } from '../../../shared/types';
import { loadSource, typedText } from './actions';
import type { ListSource } from './composer';
import { useStore } from './index';

/**
 * The list in the composer, kept in the window's storage until it is submitted or cleared: a
 * window closed by mistake, a reload or a crash lost a pasted list of thousands of lines and
 * the options set for it. Restored when the app starts with an empty composer.
 */
const KEY = 'sift.composer-draft.v1';
/** Longer lists are not kept: storage holds a few MB per app, and the file is still on disk. */
export const MAX_DRAFT_CHARS = 1_000_000;
const SAVE_AFTER_MS = 400;

interface Draft {
  source: ListSource;
  listOptions: Options;
}

function storage(): Storage | null {
  try {
    return window.localStorage;
  } catch {
    return null; // storage refused: nothing is kept, nothing breaks
  }
}

function write(source: ListSource | null, listOptions: Options): void {
  const store = storage();
  if (!store) return;
  try {
    if (!source || !source.text.trim() || source.text.length > MAX_DRAFT_CHARS) store.removeItem(KEY);
    else store.setItem(KEY, JSON.stringify({ source, listOptions } satisfies Draft));
  } catch {
    // Full or refused: the draft is only a convenience.
    store.removeItem(KEY);
  }
}

/** The kept draft, or null when there is none or it cannot be read (then it is dropped). */
export function readDraft(): Draft | null {
  const store = storage();
  const raw = store?.getItem(KEY);
  if (!store || !raw) return null;
  try {
    const d = JSON.parse(raw) as Partial<Draft>;
    const s = d.source;
    const options = OptionsSchema.safeParse(d.listOptions ?? {});
    const ok =
      s &&
      (s.kind === 'file' || s.kind === 'paste') &&
      typeof s.name === 'string' &&
      typeof s.text === 'string' &&
      s.text.trim() !== '' &&
      [s.mimeType, s.filename, s.base].every((v) => v === undefined || typeof v === 'string') &&
      options.success;
    if (ok) return { source: s, listOptions: options.data };
  } catch {
    // not JSON: dropped below
  }
  store.removeItem(KEY);
  return null;
}

let stop: (() => void) | null = null;

/**
 * Puts a kept draft back into an empty composer, then keeps the composer's list as it changes
 * (a pause after the last change, and at once when the window goes away).
 */
export function keepDraft(): () => void {
  if (stop) return stop;
  const draft = readDraft();
  const s = useStore.getState();
  if (draft && !s.source) {
    s.setListOptions(draft.listOptions);
    void loadSource(draft.source);
    const lines = draft.source.text.split('\n').filter((l) => l.trim()).length;
    s.notify('info', {
      message: `The list you had not submitted is back in the composer (${draft.source.kind === 'file' ? draft.source.name : `${lines.toLocaleString()} ${lines === 1 ? 'line' : 'lines'}`}). Clear it there if you no longer need it.`,
    });
  }
  let timer: ReturnType<typeof setTimeout> | undefined;
  const flush = (): void => {
    clearTimeout(timer);
    timer = undefined;
    const now = useStore.getState();
    // Keys typed in the last moment before the window went: not parsed yet, kept as typed.
    const typed = typedText();
    write(typed === null ? now.source : { kind: 'paste', name: 'pasted', text: typed }, now.listOptions);
  };
  const off = useStore.subscribe((now, before) => {
    if (now.source === before.source && now.listOptions === before.listOptions) return;
    clearTimeout(timer);
    timer = setTimeout(flush, SAVE_AFTER_MS);
  });
  window.addEventListener('pagehide', flush);
  stop = () => {
    off();
    window.removeEventListener('pagehide', flush);
    if (timer) flush();
    stop = null;
  };
  return stop;
}
