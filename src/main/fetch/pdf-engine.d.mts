/** Types of pdf-engine.mjs (plain JavaScript because the PDF worker loads it). */
import type * as PdfJs from 'pdfjs-dist/legacy/build/pdf.mjs';
import type { DocumentInitParameters } from 'pdfjs-dist/types/src/display/api';

export const pdfjs: typeof PdfJs;
export const DOC_OPTIONS: DocumentInitParameters;
export const TEXT_OPTIONS: { disableNormalization: boolean; includeMarkedContent: boolean };
/** The zlib inflate pdf.js gets as DecompressionStream in a thread that loads this module. */
export const InflateAtOnce: typeof DecompressionStream;
/** The most one stream may inflate to; a stream past it gives no bytes and is counted. */
export const MAX_STREAM_BYTES: number;
/** How many streams went past MAX_STREAM_BYTES since the last call. */
export function takeStreamsTooLarge(): number;
