// pdf.js as Sift reads text with it: loaded once per thread, with the options text needs. The
// PDF pool's worker uses it, and so does the book benchmark, to time each step as the worker
// runs it. Plain ESM JavaScript because pdfjs-dist is ESM-only and a worker runs outside the
// TypeScript loader; types in pdf-engine.d.mts.
import { createRequire } from 'node:module';
import path from 'node:path';

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
