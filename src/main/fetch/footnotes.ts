import { randomBytes } from 'node:crypto';

/**
 * A page's footnotes, found in the tree turndown converts (domino's), for Markdown's own notes:
 * "[^1]" where a note is cited and "[^1]: …" for the note. Each was a raised link back to the
 * web page ("<sup>[1](https://…#fn:1)</sup>") over a plain numbered list, whatever wrote them:
 * kramdown and Python-Markdown (<sup><a href="#fn:1">), Pandoc (<a href="#fn1"><sup>),
 * markdown-it and encyclopedias (<sup><a href="#cite_note-1">[1]</a></sup>).
 */

/** A note's label as the page shows its mark ("1", "[2]", "a"): what GFM reads in "[^…]" as one word. */
const LABEL = /^[\p{L}\p{N}_-]{1,16}$/u;

/**
 * The attribute that carries the label of each citing mark and of each note to the rules that
 * write them (html.ts): an attribute, as turndown converts a clone of the tree. Its name ends
 * in a number drawn once a process, so no page writes notes of its choosing with one of its own
 * (a query of each page for such attributes cost more than finding its notes).
 */
export const NOTE_LABEL = `data-sift-note-${randomBytes(6).toString('hex')}`;

/** The label markFootnotes gave an element, if any. */
export const noteLabel = (node: Node): string | null => (node.nodeType === 1 ? (node as Element).getAttribute(NOTE_LABEL) : null);

/** The element a link to a note is raised in: the <sup> around the link alone, or the link around a <sup> alone. */
function raisedMark(a: Element): Element | undefined {
  const alone = (outer: Element, inner: Element): boolean =>
    Array.from(outer.childNodes).every((n) => n === inner || (n.nodeType === 3 && !(n.textContent ?? '').trim()));
  const parent = a.parentElement;
  if (parent?.localName === 'sup' && alone(parent, a)) return parent;
  const sup = a.firstElementChild;
  if (sup?.localName === 'sup' && alone(a, sup)) return a;
  return undefined;
}

/** The id a link's fragment names, or undefined when it points at another page than `page`. */
function inPageTarget(href: string, page: string): string | undefined {
  const hash = href.indexOf('#');
  if (hash < 0 || (hash > 0 && href.slice(0, hash) !== page)) return undefined;
  try {
    return decodeURIComponent(href.slice(hash + 1));
  } catch {
    return undefined;
  }
}

/** A page's address as its in-page links were made absolute against it (absoluteLinks), without its fragment. */
function pageOf(page: string | undefined): string {
  if (!page) return '';
  try {
    const url = new URL(page);
    url.hash = '';
    return url.href;
  } catch {
    return '';
  }
}

/**
 * Marks (NOTE_LABEL) a page's footnotes when their structure is clear: raised links to items,
 * on this page, of lists whose every item is such a note, each note with one label of its own.
 * Anything less (a list holding a step no mark points at, two notes shown as "1") stays as it
 * was: a wrong note would move words out of the text. A note's links back to its marks (the
 * "↩" Readability's pass has not dropped, lettered ones) go: Markdown's notes link back.
 * `prefix` goes before each label, so the notes of a feed's posts, each "1" on its own page,
 * are notes of their own in one document.
 */
export function markFootnotes(root: Element, page: string | undefined, prefix = ''): void {
  const links = Array.from(root.getElementsByTagName('a')).filter((a) => (a.getAttribute('href') ?? '').includes('#'));
  if (links.length === 0) return;
  const byId = new Map<string, Element>();
  for (const el of Array.from(root.querySelectorAll('[id]'))) if (!byId.has(el.getAttribute('id')!)) byId.set(el.getAttribute('id')!, el);
  const here = pageOf(page);
  const cites: { mark: Element; note: Element }[] = [];
  const labelOf = new Map<Element, string>();
  for (const a of links) {
    const id = inPageTarget(a.getAttribute('href')!, here);
    const note = id === undefined ? undefined : byId.get(id);
    const mark = raisedMark(a);
    if (!mark || note?.localName !== 'li' || !/^[ou]l$/.test(note.parentElement?.localName ?? '')) continue;
    // Marked already, a feed's post at a time (prefix): the document's ids repeat from post to post.
    if (mark.hasAttribute(NOTE_LABEL) || note.hasAttribute(NOTE_LABEL)) continue;
    const label = (mark.textContent ?? '').trim().replace(/^\[(.*)\]$/s, '$1');
    if (labelOf.get(note) !== undefined && labelOf.get(note) !== label) return;
    labelOf.set(note, label);
    cites.push({ mark, note });
  }
  const allNotes = (list: Element): boolean => Array.from(list.children).every((li) => labelOf.has(li));
  const kept = cites.filter((c) => allNotes(c.note.parentElement!));
  const labels = [...new Set(kept.map((c) => c.note))].map((note) => labelOf.get(note)!);
  if (kept.length === 0 || labels.some((l) => !LABEL.test(l)) || new Set(labels).size !== labels.length) return;
  const markIds = new Set(kept.flatMap((c) => [c.mark, ...Array.from(c.mark.querySelectorAll('[id]'))].map((el) => el.getAttribute('id')).filter((id) => id !== null)));
  for (const { mark, note } of kept) {
    mark.setAttribute(NOTE_LABEL, prefix + labelOf.get(note)!);
    note.setAttribute(NOTE_LABEL, prefix + labelOf.get(note)!);
    for (const back of Array.from(note.getElementsByTagName('a'))) {
      const id = inPageTarget(back.getAttribute('href') ?? '', here);
      if (id !== undefined && markIds.has(id)) back.remove();
    }
  }
}
