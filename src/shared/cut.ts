/** The second half of a surrogate pair: a cut before it leaves half a character, shown as "�". */
export const isLowSurrogate = (c: number): boolean => c >= 0xdc00 && c <= 0xdfff;

/**
 * `text` in at most `max` UTF-16 units, cut in its middle ("example.org/arti…/page-12"), its
 * start and end kept. Neither side keeps half of a surrogate pair: fitText tries every length,
 * and at half of them an emoji's name showed "�".
 */
export function cutMiddle(text: string, max: number): string {
  if (text.length <= max) return text;
  const keep = max - 1;
  const head = Math.ceil(keep / 2);
  const headEnd = isLowSurrogate(text.charCodeAt(head)) ? head - 1 : head;
  const tailStart = text.length - (keep - head);
  return `${text.slice(0, headEnd)}…${text.slice(isLowSurrogate(text.charCodeAt(tailStart)) ? tailStart + 1 : tailStart)}`;
}

/**
 * Where to cut `s` so that what is kept, with "…" after it, fits in `max` UTF-16 units: moved
 * back off a surrogate pair's second half, as cut there half an emoji was stored as U+FFFD and
 * shown as "�" (a job's label, a page script's error).
 */
export const cutEnd = (s: string, max: number): number => (isLowSurrogate(s.charCodeAt(max - 1)) ? max - 2 : max - 1);

/** `s` in at most `max` UTF-16 units, "…" last, never half an emoji (cutEnd). */
export const cutAtEnd = (s: string, max: number): string => (s.length <= max ? s : `${s.slice(0, cutEnd(s, max))}…`);
