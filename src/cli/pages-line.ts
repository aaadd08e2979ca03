import type { OnPages } from '../main/fetch/pdf-pool';
import { pagesReadText } from '../shared/types';
import type { CliIO } from './io';
import { drawLive } from './progress';

/** As sift batch's live line: a terminal redraws it at most every 100 ms. */
const REDRAW_MS = 100;

/**
 * The live line of `sift fetch` and `sift extract` while a PDF is read, on a terminal's stderr:
 * "reading the PDF: 120 of 352 pages", as sift batch's line says it, so a book read for seconds
 * does not look hung. The first count and the whole are drawn at once, the others at most every
 * REDRAW_MS. None with --json (a script reads it) or where stderr is no terminal (a log wants
 * no line per count). `erase` clears it before the outcome is printed.
 */
export function pagesLine(io: CliIO, json: boolean): { onPages?: OnPages; erase(): void } {
  if (!io.isTTY || json) return { erase: () => {} };
  let drawn = -Infinity;
  const onPages: OnPages = (done, total) => {
    const now = Date.now();
    if (now - drawn < REDRAW_MS && done !== total) return;
    drawn = now;
    drawLive(io, pagesReadText({ done, total }));
  };
  const erase = (): void => {
    if (drawn === -Infinity) return;
    drawn = -Infinity;
    io.stderr.write('\r\x1b[2K');
  };
  return { onPages, erase };
}
