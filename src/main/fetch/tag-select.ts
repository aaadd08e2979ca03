import { parseHTML } from 'linkedom';

/**
 * A fast path for querySelector/querySelectorAll on linkedom's HTML documents when the selector
 * is a plain list of tag names ("h1,h2", "img,embed,object,iframe").
 *
 * linkedom compiles its selector with css-select on every call and keeps nothing, and
 * Readability asks ~35 such lists per page (over the article benchmark's 91 pages, 97% of all
 * selector calls were tag lists): compiling them was 28% of extractArticle's time on the
 * batch bench's pages. A tag list needs no compiler: the walk below finds the same elements
 * in the same (document) order, and every other selector goes to linkedom as before.
 *
 * It mirrors linkedom's matching for HTML documents: names compare lower-cased on both sides
 * (css-select's HTML mode), only descendants of the node are candidates, and a <template>'s
 * contents are not searched (linkedom skips them; the template itself can match).
 */

type Node = {
  nodeType: number;
  localName: string;
  ownerDocument: unknown;
  [link: symbol]: Node;
};
type Query = (this: Node, selectors: string) => unknown;

const TAG_LIST = /^\s*[a-zA-Z][a-zA-Z0-9-]*(?:\s*,\s*[a-zA-Z][a-zA-Z0-9-]*)*\s*$/;
const DOCUMENT_NODE = 9;
const ELEMENT_NODE = 1;
/** Distinct lists seen; Readability's are a fixed few, so this only bounds odd callers. */
const MAX_CACHED = 256;
const lists = new Map<string, ReadonlySet<string> | null>();

/** The lower-cased names of a tag list, or null for any other selector. */
export function tagList(selectors: string): ReadonlySet<string> | null {
  let names = lists.get(selectors);
  if (names !== undefined) return names;
  names = TAG_LIST.test(selectors) ? new Set(selectors.split(',').map((s) => s.trim().toLowerCase())) : null;
  if (lists.size >= MAX_CACHED) lists.clear();
  lists.set(selectors, names);
  return names;
}

/**
 * linkedom keeps a tree as one linked list in document order: an element, its attributes, its
 * children's lists, then its end marker. `next` and `end` are that list's two links.
 */
let next: symbol;
let end: symbol;

/**
 * Root's descendant elements in document order, `first` stopping at the first match: one pass
 * down root's list, as linkedom's own querySelectorAll goes (a <template>'s children skipped to
 * its end marker). The walk by firstElementChild and nextElementSibling it replaces was 14% of
 * extractArticle's CPU profile on the article benchmark (each of those getters steps through
 * attributes and text nodes itself, and climbing back up revisited the ancestors); measured
 * without the profiler, extractArticle took 13.8 ms of CPU per page with it and 13.4 with this
 * (medians of 6 alternated runs).
 */
function collect(root: Node, names: ReadonlySet<string>, into: Node[], first: boolean): void {
  const stop = root[end];
  for (let node = root[next] as Node; node !== stop; ) {
    if (node.nodeType === ELEMENT_NODE) {
      if (names.has(node.localName.toLowerCase())) {
        into.push(node);
        if (first) return;
      }
      if (node.localName === 'template') {
        node = (node[end] as Node)[next] as Node;
        continue;
      }
    }
    node = node[next] as Node;
  }
}

/** linkedom's two links, found by name on a tiny tree and checked against what it says they are. */
function listLinks(document: { body: unknown }): { next: symbol; end: symbol } {
  const body = document.body as Node & { firstChild: unknown; lastChild: unknown; parentNode: Node };
  const named = (name: string): symbol | undefined => Object.getOwnPropertySymbols(body).find((s) => s.description === name);
  const n = named('next');
  const e = named('end');
  // <body><i>a</i><b></b></body>: body's next is <i>, whose list ends where <b> begins.
  const i = n && body[n];
  if (!n || !e || !i || i !== body.firstChild || i[e]?.[n] !== body.lastChild || body[e]?.[n] !== body.parentNode[e]) {
    throw new Error("tag-select: linkedom's node list is not as this code expects (next/end links); see src/main/fetch/tag-select.ts");
  }
  return { next: n, end: e };
}

let installed = false;

/** Puts the fast path on linkedom's prototypes (once; every document of the process gets it). */
export function installTagSelect(): void {
  if (installed) return;
  installed = true;
  const { document } = parseHTML('<!doctype html><html><body><i>a</i><b></b></body></html>');
  ({ next, end } = listLinks(document));
  const HtmlDocument = document.constructor as new (...a: never[]) => unknown;
  const NodeList = (document.querySelectorAll('body') as object).constructor as new () => Node[];
  // A real node only: linkedom's Document methods call the ParentNode ones on a stand-in
  // object that carries just its list pointers, and those calls stay linkedom's.
  const isHtml = (n: Node): boolean =>
    typeof n.nodeType === 'number' && (n.nodeType === DOCUMENT_NODE ? n : n.ownerDocument) instanceof HtmlDocument;
  const samples = [document, document.body, document.createDocumentFragment()] as object[];
  const owners = new Set<Record<string, unknown>>();
  for (const sample of samples) {
    for (let p = Object.getPrototypeOf(sample) as Record<string, unknown> | null; p; p = Object.getPrototypeOf(p) as Record<string, unknown> | null) {
      if (Object.prototype.hasOwnProperty.call(p, 'querySelectorAll')) owners.add(p);
    }
  }
  /** The tag names to walk for, or null when linkedom answers. */
  const fast = (node: Node, selectors: unknown): ReadonlySet<string> | null =>
    typeof selectors === 'string' && isHtml(node) ? tagList(selectors) : null;
  for (const proto of owners) {
    const all = proto.querySelectorAll as Query;
    const one = proto.querySelector as Query;
    proto.querySelectorAll = function (this: Node, selectors: string) {
      const names = fast(this, selectors);
      if (!names) return all.call(this, selectors);
      const out = new NodeList();
      collect(this, names, out, false);
      return out;
    };
    proto.querySelector = function (this: Node, selectors: string) {
      const names = fast(this, selectors);
      if (!names) return one.call(this, selectors);
      const out: Node[] = [];
      collect(this, names, out, true);
      return out[0] ?? null;
    };
  }
}
