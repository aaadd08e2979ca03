// pdf.js as Sift reads text with it: loaded once per thread, with the options text needs. The
// PDF pool's worker uses it, and so does the book benchmark, to time each step as the worker
// runs it. Plain ESM JavaScript because pdfjs-dist is ESM-only and a worker runs outside the
// TypeScript loader; types in pdf-engine.d.mts.
import { createRequire } from 'node:module';
import path from 'node:path';
import { inflateSync } from 'node:zlib';

/**
 * What pdf.js finds as `DecompressionStream` in this thread: the same zlib inflate, done at
 * once. pdf.js 5 inflates every content stream and font through the web stream, whose
 * chunks, promises and round trips to the thread pool cost more than the inflating: on the
 * 352-page book the thread sat idle ~450 ms per read, and its text took 1,440-1,690 ms with
 * this against 1,920-2,320 without (one thread, runs interleaved). Data zlib refuses
 * (truncated, corrupt) fails as it does in the web stream, and pdf.js then decodes that
 * stream with its own, more forgiving decoder. Other formats than "deflate" (pdf.js asks for
 * brotli, which Node 20 lacks) get the web stream.
 */
const WebDecompressionStream = globalThis.DecompressionStream;

/**
 * The most one stream may inflate to. A page's content is kilobytes, a book's largest font a
 * few megabytes; a 1.5 MB file whose one content stream inflated to 1.5 GB of blanks held the
 * thread 37 s and the process at 4.7 GB, and zlib's own ceiling (4 GiB) would let a bigger
 * one take the machine's memory. A stream past this gives no bytes (pdf.js would otherwise
 * decode it again with its own decoder, without a ceiling), and is counted: the worker fails
 * the document, never a silent page without its text.
 */
export const MAX_STREAM_BYTES = 256 * 1024 * 1024;
let streamsTooLarge = 0;
/** How many streams went past MAX_STREAM_BYTES since the last call. */
export function takeStreamsTooLarge() {
  const n = streamsTooLarge;
  streamsTooLarge = 0;
  return n;
}

export class InflateAtOnce {
  constructor(format) {
    // The web stream itself, for what this one does not do.
    if (format !== 'deflate') return new WebDecompressionStream(format);
    let out;
    let failure;
    this.writable = {
      getWriter: () => ({
        ready: Promise.resolve(),
        write: (bytes) => {
          try {
            out = inflateSync(bytes, { maxOutputLength: MAX_STREAM_BYTES });
          } catch (err) {
            if (err && err.code === 'ERR_BUFFER_TOO_LARGE') {
              streamsTooLarge++;
              out = new Uint8Array(0);
            } else failure = err;
          }
          return Promise.resolve();
        },
        close: () => Promise.resolve(),
      }),
    };
    this.readable = {
      async *[Symbol.asyncIterator]() {
        if (failure) throw failure;
        if (out) yield new Uint8Array(out.buffer, out.byteOffset, out.byteLength);
      },
    };
  }
}
globalThis.DecompressionStream = InflateAtOnce;

/**
 * The same ceiling for the streams pdf.js decodes itself: LZW, run-length, ASCII85, hex, and
 * deflate data zlib refused. Their decoders grow one buffer as far as the data goes: an 81 KB
 * file whose LZW content stream decodes to 11 GB of blanks (LZW under deflate multiplies by a
 * million) held the thread for the whole deadline and the process at 4.4 GB. pdf.js's
 * DecodeStream.ensureBuffer calls this before it grows a buffer (scripts/patch-deps.mjs): past
 * the ceiling it throws, and the stream is counted, as an inflate past it is, so the document
 * fails saying why.
 */
globalThis.pdfjsDecodeCeiling = (requested) => {
  if (requested <= MAX_STREAM_BYTES) return;
  streamsTooLarge++;
  throw new Error(`a stream decodes to more than ${MAX_STREAM_BYTES / 1024 / 1024} MiB`);
};

// pdfjs-dist's legacy build brings core-js, which on Node 20 (V8 11.3, bug 12681: a push
// onto an array whose length is read-only does not throw) replaces Array.prototype.push for
// the whole thread with a JavaScript one. pdf.js pushes for every glyph it reads: the
// replacement cost ~14% of the book's text extraction (cpu profile of freeculture.pdf).
// Nothing here pushes onto a frozen array, so the native one goes back once pdf.js and its
// in-thread worker (imported now, so its own copy of the polyfills runs first) are loaded.
const nativePush = Array.prototype.push;
export const pdfjs = await import('pdfjs-dist/legacy/build/pdf.mjs');
await import('pdfjs-dist/legacy/build/pdf.worker.mjs');
Object.defineProperty(Array.prototype, 'push', { value: nativePush, writable: true, configurable: true, enumerable: false });

// pdf.js's predefined CMaps (UniGB-UCS2-H, 90ms-RKSJ-H, …): a CJK font that is not embedded
// addresses its glyphs through one, and without them pdf.js drops that text without a word.
// Read from disk only when a document names one.
const CMAPS = path.join(path.dirname(createRequire(import.meta.url).resolve('pdfjs-dist/package.json')), 'cmaps') + path.sep;

// Text needs no font rendering, no eval'd glyph programs and no system fonts; pdf.js
// normalisation is off because it expands ligatures before RTL text is reordered (pdf-layout does it after).
export const DOC_OPTIONS = { isEvalSupported: false, disableFontFace: true, useSystemFonts: false, verbosity: 0, stopAtErrors: false, enableXfa: false, cMapUrl: CMAPS, cMapPacked: true };
export const TEXT_OPTIONS = { disableNormalization: true, includeMarkedContent: false };
