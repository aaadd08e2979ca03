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
            out = inflateSync(bytes);
          } catch (err) {
            failure = err;
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
