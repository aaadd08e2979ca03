/// <reference lib="webworker" />
/**
 * Parses a list off the main thread: a 50,000-line list takes a few hundred ms to read,
 * long enough to freeze typing and the job table if done on the window's thread. The answer
 * is packed (lib/packed-list.ts), so taking it in is cheap for the window too.
 *
 * A dropped file is read here too, bytes and all: on the window's thread a 50 MB bookmarks
 * export froze it for 3.7 s in one task (2 s its decoding, 1.8 s copying its text to this
 * worker), with nothing on screen saying why (bench droplist).
 */
import { decodeListFile, parseList, type ParseListOptions } from '../../shared/urllist';
import { isSitemapIndex, xmlRoot } from '../../shared/urllist/xml';
import { packList, transferables, type PackedList } from './lib/packed-list';

export interface ParseRequest {
  seq: number;
  text: string;
  opts: ParseListOptions;
}

/**
 * A file to read, decode and parse; its text comes back only when it is no longer than `keepChars`.
 * `file`: a dropped File, or one chosen in Open list…, whose bytes main sends a piece at a time
 * (base64) through the window: a stream of the pieces, and the size main said it has.
 */
export interface FileRequest {
  seq: number;
  file: File | { size: number; pieces: ReadableStream<string> };
  maxBytes: number;
  keepChars: number;
  opts: ParseListOptions;
}

export type FileAnswer =
  | { seq: number; progress: number }
  | { seq: number; failed: 'unreadable' }
  | { seq: number; failed: 'not_a_list'; kind: string }
  | { seq: number; packed: PackedList; chars: number; text?: string };

/** Progress is said once per this many bytes: 50 messages for a 50 MB file, each a repaint of one line. */
const PROGRESS_STEP = 1024 * 1024;

function parsePacked(text: string, opts: ParseListOptions): PackedList {
  const list = parseList(text, opts);
  const xml = list.format === 'xml' && list.targets.length > 0;
  return { ...packList(list), sitemapIndex: xml && isSitemapIndex(text), opml: xml && xmlRoot(text) === 'opml' };
}

// Chromium 140 (Electron 38) and later; not yet in TypeScript's lib.
const Base64 = Uint8Array as unknown as { fromBase64(s: string): Uint8Array };

function bytesOf(file: FileRequest['file']): ReadableStream<Uint8Array> {
  if (file instanceof File) return file.stream();
  return file.pieces.pipeThrough(new TransformStream<string, Uint8Array>({ transform: (piece, out) => out.enqueue(Base64.fromBase64(piece)) }));
}

/** The file's bytes, read a chunk at a time so the window can say how far it is. */
async function readBytes(seq: number, file: FileRequest['file']): Promise<Uint8Array> {
  const out = new Uint8Array(file.size);
  const reader = bytesOf(file).getReader();
  let at = 0;
  let said = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    out.set(value, at);
    at += value.length;
    if (at - said >= PROGRESS_STEP) {
      said = at;
      self.postMessage({ seq, progress: at } satisfies FileAnswer);
    }
  }
  return out.subarray(0, at);
}

async function readFile({ seq, file, maxBytes, keepChars, opts }: FileRequest): Promise<FileAnswer> {
  let bytes: Uint8Array;
  try {
    bytes = await readBytes(seq, file);
  } catch {
    return { seq, failed: 'unreadable' };
  }
  self.postMessage({ seq, progress: bytes.length } satisfies FileAnswer);
  const decoded = await decodeListFile(bytes, maxBytes);
  if (!decoded.ok) return { seq, failed: 'not_a_list', kind: decoded.kind };
  const blank = !decoded.text.trim();
  const chars = blank ? 0 : decoded.text.length;
  const packed = parsePacked(decoded.text, opts);
  return { seq, packed, chars, ...(!blank && chars <= keepChars && { text: decoded.text }) };
}

self.onmessage = (e: MessageEvent<ParseRequest | FileRequest>) => {
  const req = e.data;
  if ('file' in req) {
    void readFile(req).then((answer) => self.postMessage(answer, 'packed' in answer ? transferables(answer.packed) : []));
    return;
  }
  const packed = parsePacked(req.text, req.opts);
  self.postMessage({ seq: req.seq, packed }, transferables(packed));
};
