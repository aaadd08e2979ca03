import type { Mode, Result } from '../../shared/types';
import { decodeEntities } from '../../shared/entities';

/**
 * What full-text search reads of a stored result: what a person reads in it. A result in
 * markup (a page in mode raw or html) is searched as its text: without tags, attributes,
 * scripts, styles and comments, its entities decoded. Measured on the article benchmark's
 * pages in mode raw, the markup otherwise gave the best hits for "climate change" in a menu's
 * class names and a tracker's inline script.
 *
 * Line for line: everything taken out keeps its line breaks, so a hit's line is its line in
 * the stored result, which the app scrolls to.
 */
export function searchableText(result: Result | undefined, mode: Mode | undefined): string {
  const content = result?.content ?? '';
  if (!isMarkup(result, mode)) return content;
  return decodeEntities(
    content
      .replace(HIDDEN, lineBreaksOf)
      .replace(TAG, lineBreaksOf)
      // A character reference for a line break would add a line the stored result does not have.
      .replace(/&#(?:0*1[03]|x0*[ad]);/gi, ' '),
  );
}

/** A page's result in markup: raw HTML, or the article as HTML. */
const isMarkup = (result: Result | undefined, mode: Mode | undefined): boolean => result?.meta?.kind === 'html' && (mode === 'raw' || mode === 'html');

// Elements whose content no one reads as text; comments, CDATA and processing instructions too.
const HIDDEN = /<(script|style|template|svg|noscript|textarea|select)\b[^>]*>[\s\S]*?<\/\1\s*>|<!--[\s\S]*?(?:-->|$)|<!\[CDATA\[[\s\S]*?\]\]>/gi;
const TAG = /<\/?[a-z!?][^>]*>?/gi;

/** What a removed piece leaves: its line breaks, or one space (words either side stay apart). */
function lineBreaksOf(piece: string): string {
  const breaks = piece.replace(/[^\n]+/g, '');
  return breaks || ' ';
}
