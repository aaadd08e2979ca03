/**
 * Finds a search match in a rendered result and highlights it with the CSS Custom Highlight
 * API, so React's DOM (and the sanitized markdown in it) is never rewritten.
 *
 * The hit says which words matched and on which line of the content; the rendered view has
 * no lines (markdown becomes paragraphs), so the match is found as the n-th occurrence of
 * its words, n counted in the content before that line.
 */

export const HIGHLIGHT_NAME = 'sift-hit';

/** The range highlightMatch last marked, for focusMatch. */
let matched: Range | null = null;

/** The blocks a match's focus may rest on: what a screen reader reads from is the match's paragraph, not the whole result. */
const MATCH_BLOCK = 'p, li, pre, blockquote, td, th, dd, h1, h2, h3, h4, h5, h6';

const lower = (s: string): string => s.toLowerCase();

/** How many times needle occurs (case-insensitively) in content before the start of `line`. */
export function occurrencesBefore(content: string, needle: string, line: number): number {
  let at = 0;
  for (let l = 1; l < line && at >= 0; l++) {
    at = content.indexOf('\n', at);
    if (at >= 0) at++;
  }
  const head = lower(at < 0 ? content : content.slice(0, at));
  const n = lower(needle);
  let count = 0;
  for (let i = head.indexOf(n); i >= 0; i = head.indexOf(n, i + n.length)) count++;
  return count;
}

/** The needle and shorter fallbacks: markdown syntax may split a long one in the content. */
function candidates(needle: string): string[] {
  const words = needle.trim().split(/\s+/).filter(Boolean);
  const out = [needle.trim()];
  if (words.length > 3) out.push(words.slice(0, 3).join(' '));
  if (words.length > 1) out.push(words[0] as string);
  return [...new Set(out)].filter((s) => s.length > 0);
}

/**
 * Highlights the match in `root` and scrolls it into view. Returns the highlighted text, or
 * null when nothing was found (the view shows the top then).
 */
export function highlightMatch(root: HTMLElement, content: string, needle: string, line: number): string | null {
  clearHighlight();
  matched = null;
  if (!needle.trim()) return null;
  const nodes: Text[] = [];
  const starts: number[] = [];
  let text = '';
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    // The meta table is not the content.
    if ((n.parentElement as HTMLElement | null)?.closest('.meta')) continue;
    nodes.push(n as Text);
    starts.push(text.length);
    text += (n as Text).data;
  }
  const hay = lower(text);
  for (const c of candidates(needle)) {
    const want = occurrencesBefore(content, c, line);
    const n = lower(c);
    let found = -1;
    let seen = 0;
    for (let i = hay.indexOf(n); i >= 0; i = hay.indexOf(n, i + n.length)) {
      found = i;
      if (seen++ === want) break;
    }
    if (found < 0) continue;
    const range = document.createRange();
    const place = (offset: number, end: boolean): void => {
      let k = 0;
      while (k + 1 < starts.length && (starts[k + 1] as number) <= offset - (end ? 1 : 0)) k++;
      const node = nodes[k] as Text;
      const at = Math.min(node.data.length, offset - (starts[k] as number));
      if (end) range.setEnd(node, at);
      else range.setStart(node, at);
    };
    place(found, false);
    place(found + n.length, true);
    if (typeof CSS !== 'undefined' && 'highlights' in CSS) CSS.highlights.set(HIGHLIGHT_NAME, new Highlight(range));
    matched = range;
    scrollToRange(range);
    return range.toString();
  }
  return null;
}

/**
 * Scrolls the range to the middle of the box that scrolls it. Its element centred was enough
 * for a paragraph; a text result is one <pre> of up to a MiB, whose middle is not the match.
 */
function scrollToRange(range: Range): void {
  const el = range.startContainer.parentElement;
  if (!el) return;
  el.scrollIntoView({ block: 'center' });
  let box: HTMLElement | null = el;
  while (box && !(box.scrollHeight > box.clientHeight && /auto|scroll/.test(getComputedStyle(box).overflowY))) box = box.parentElement;
  if (!box) return;
  const r = range.getBoundingClientRect();
  const b = box.getBoundingClientRect();
  if (r.top < b.top || r.bottom > b.bottom) box.scrollTop += r.top - b.top - (b.height - r.height) / 2;
}

export function clearHighlight(): void {
  if (typeof CSS !== 'undefined' && 'highlights' in CSS) CSS.highlights.delete(HIGHLIGHT_NAME);
}

/**
 * Gives the keyboard to the paragraph (or line block) holding the highlighted match: opened
 * from a search hit, the focus fell to the job's heading, 12 Tabs from the match, and a screen
 * reader read nothing of it. Not scrolled again: highlightMatch placed it.
 */
export function focusMatch(root: HTMLElement): void {
  const at = matched?.startContainer.parentElement;
  if (!at || !root.contains(at)) return;
  const block = at.closest<HTMLElement>(MATCH_BLOCK) ?? at;
  const target = root.contains(block) ? block : at;
  if (target.tabIndex < 0 && !target.hasAttribute('tabindex')) target.tabIndex = -1;
  target.focus({ preventScroll: true });
}
