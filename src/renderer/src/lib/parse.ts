import type { ParseListOptions } from '../../../shared/urllist';
import { MAX_SUBMIT_TARGETS } from '../../../shared/ipc/contract';
import type { FileAnswer, FileRequest, ParseRequest } from '../parse.worker';
import { ComposerList, type PackedList } from './packed-list';

let worker: Worker | null = null;
let seq = 0;
const waiting = new Map<number, (p: ComposerList | null) => void>();

// Same origin as the page, so the CSP's script-src 'self' (worker-src falls back to it)
// lets it load; Vite emits it as its own file.
const newWorker = (): Worker => new Worker(new URL('../parse.worker.ts', import.meta.url), { type: 'module' });

function getWorker(): Worker {
  if (!worker) {
    worker = newWorker();
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

/**
 * A list file to read: a dropped File, or one chosen in Open list…, whose bytes main sends a
 * piece at a time (`pieces`, base64, made anew for each reading).
 */
export type ListFile = File | { name: string; size: number; type: ''; pieces(): ReadableStream<string> };

/** A dropped file as the worker read it: the list, its length in characters (0: blank) and its text when short. */
export type FileRead =
  | { ok: true; list: ComposerList; chars: number; text?: string }
  | { ok: false; code: 'unreadable' }
  | { ok: false; code: 'reader_failed' }
  | { ok: false; code: 'not_a_list'; kind: string };

/**
 * Reads, decodes and parses a file in a worker of its own, so that Cancel (or a newer drop)
 * ends it at once, mid-parse too, and a paste's parses never wait behind it. `progress` is
 * told the bytes read so far. Resolves null once cancelled.
 */
export function readFileInWorker(
  file: ListFile,
  o: { maxBytes: number; keepChars: number; opts: Omit<ParseListOptions, 'maxTargets'> },
  progress: (bytes: number) => void,
): { read: Promise<FileRead | null>; cancel(): void } {
  const w = newWorker();
  let settle: (r: FileRead | null) => void = () => {};
  const read = new Promise<FileRead | null>((resolve) => {
    settle = (r) => {
      w.terminate();
      resolve(r);
    };
  });
  w.onmessage = (e: MessageEvent<FileAnswer>) => {
    const a = e.data;
    if ('progress' in a) progress(a.progress);
    else if ('packed' in a) settle({ ok: true, list: new ComposerList(a.packed), chars: a.chars, ...(a.text !== undefined && { text: a.text }) });
    else settle(a.failed === 'not_a_list' ? { ok: false, code: a.failed, kind: a.kind } : { ok: false, code: a.failed });
  };
  // The worker itself failed (out of memory, say): the file may be fine.
  w.onerror = () => settle({ ok: false, code: 'reader_failed' });
  const source: FileRequest['file'] = file instanceof File ? file : { size: file.size, pieces: file.pieces() };
  const req: FileRequest = { seq: 0, file: source, maxBytes: o.maxBytes, keepChars: o.keepChars, opts: { ...o.opts, maxTargets: MAX_SUBMIT_TARGETS } };
  w.postMessage(req, source instanceof File ? [] : [source.pieces]);
  return { read, cancel: () => settle(null) };
}
