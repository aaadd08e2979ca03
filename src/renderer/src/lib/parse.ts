import type { ParseListOptions } from '../../../shared/urllist';
import { MAX_SUBMIT_TARGETS } from '../../../shared/ipc/contract';
import type { ParseRequest } from '../parse.worker';
import { ComposerList, type PackedList } from './packed-list';

let worker: Worker | null = null;
let seq = 0;
const waiting = new Map<number, (p: ComposerList | null) => void>();

function getWorker(): Worker {
  if (!worker) {
    // Same origin as the page, so the CSP's script-src 'self' (worker-src falls back to it)
    // lets it load; Vite emits it as its own file.
    worker = new Worker(new URL('../parse.worker.ts', import.meta.url), { type: 'module' });
    worker.onmessage = (e: MessageEvent<{ seq: number; packed: PackedList }>) => {
      const done = waiting.get(e.data.seq);
      waiting.delete(e.data.seq);
      // An answer nobody waits for any more (the text changed since) is not even unpacked.
      if (done) done(new ComposerList(e.data.packed));
    };
  }
  return worker;
}

/**
 * Parses in the worker. Only the latest request's answer resolves: typing in the paste box
 * sends one request per pause, and an older answer must not overwrite a newer list.
 */
export function parseInWorker(text: string, opts: Omit<ParseListOptions, 'maxTargets'>): Promise<ComposerList | null> {
  const id = ++seq;
  for (const [old, resolve] of waiting) {
    waiting.delete(old);
    resolve(null);
  }
  return new Promise<ComposerList | null>((resolve) => {
    waiting.set(id, resolve);
    // Main refuses a submit longer than this anyway; "truncated" tells the user so early.
    const req: ParseRequest = { seq: id, text, opts: { ...opts, maxTargets: MAX_SUBMIT_TARGETS } };
    getWorker().postMessage(req);
  });
}
