import { WARNING_LABELS, warningLabel } from './reasons';
import { resultWarnings, type Result } from './types';

/** The warnings that say why nothing came back (others, such as pages_ignored, do not). */
const EXPLAINS_EMPTY = ['no_text', 'empty', 'no_entries', 'no_match', 'no_answer', 'no_links', 'no_output'];

/** A result with nothing in it: its content is empty or blanks only. */
export const isEmptyResult = (result: Result | undefined): boolean => (result?.content ?? '').trim() === '';

/** What an empty result is called where a list or a file name says it in a word or two: "no match", "no text layer", "empty". */
export function emptyResultLabel(result: Result): string {
  const w = resultWarnings(result).find((x) => EXPLAINS_EMPTY.includes(x));
  return w ? warningLabel(w) : 'empty';
}

/**
 * Why a result is empty, as the result pane and an export say it. A scanned PDF, a PDF of no
 * pages and an empty file all read "the page had nothing that matched", with no grep or
 * question asked; what the pipeline found (meta.hint, the warnings) says what to do instead.
 */
export function emptyResultText(result: Result): string {
  const meta = result.meta ?? {};
  if (typeof meta.hint === 'string' && meta.hint.trim() !== '') return `The result is empty. ${meta.hint.trim()}`;
  for (const w of resultWarnings(result)) {
    const why = EXPLAINS_EMPTY.includes(w) ? WARNING_LABELS[w]?.why : undefined;
    // Those that say what happened in their first words read as they are.
    if (why) return /^(Nothing came back|The result is empty)/.test(why) || w === 'no_match' || w === 'no_answer' ? why : `The result is empty. ${why}`;
  }
  if (meta.matches === 0) return 'The result is empty: no line matches the grep expression (it tells capitals from small letters; (?i) at its start ignores case).';
  if (meta.passages === 0) return 'The result is empty: no passage shares a word with the question; ask with words the document would use.';
  // mode links of a page with text and no links said "the document had no text" (a result
  // stored before the no_links warning).
  if (meta.links === 0) return 'The result is empty: the document has no links.';
  return 'The result is empty: the document had no text.';
}
