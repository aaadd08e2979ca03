import { parseHTML } from 'linkedom';
import { Readability } from '@mozilla/readability';
import TurndownService from 'turndown';
import { gfm } from '@joplin/turndown-plugin-gfm';
import { createDocument } from '@mixmark-io/domino';
import { FetchError } from './errors';
import { siteHost } from './url';
import { makeInert, type InertEl } from './inert';
import { isDisplayMath, isMath, linearMath, liftMath, mathText, texFormulas, texOf, type MathNode } from './math';
import { carryClasses, codeLanguage, dropConsentPrompts, isConsentPrompt, pruneArticle, type PruneElement } from './prune';
import { listedPosts, postsToRead, type ListedPost, type ListingElement } from './listing';
import { installTagSelect } from './tag-select';
import { endTagAt } from './markup';
import { markFootnotes, noteLabel } from './footnotes';
import { joinWideBreaks, joinWideLineBreaks, mayHaveWide } from './segment-breaks';
import { decodeEntities, escapeHtml } from '../../shared/entities';
import { RAW_STILL } from '../../shared/hints';

installTagSelect();

export interface Article {
  title: string;
  /** Cleaned article HTML (Readability's output, or the body when it finds no article). */
  html: string;
  markdown: string;
  text: string;
  /** The element the markdown and text came from (the article, in a fresh document). */
  byline: string;
  lang: string;
  excerpt: string;
}

type Doc = ReturnType<typeof parseHTML>['document'];

/**
 * Parses with linkedom: on the bench corpus Readability finds the same article as on jsdom
 * about 3.6x faster. linkedom has no URL resolution of its own, so a <base href> carries the
 * page's URL for Readability's absolute-link pass.
 */
export function parseDocument(html: string, url: string): Doc {
  if (markupDepth(html, MAX_PARSE_DEPTH) > MAX_PARSE_DEPTH) throw tooDeep(MAX_PARSE_DEPTH);
  const { document } = parseHTML(html);
  withHeadAndBody(document);
  dropPreLeadingNewline(document);
  if (url) {
    const head = document.querySelector('head');
    const existing = document.querySelector('base[href]');
    if (!existing && head) {
      const base = document.createElement('base');
      base.setAttribute('href', url);
      head.insertBefore(base, head.firstChild);
    } else if (existing) {
      existing.setAttribute('href', absolute(existing.getAttribute('href') ?? '', url) ?? url);
    }
  }
  return document;
}

// Elements that stay in the head when the page does not say where its body starts.
const HEAD_ELEMENTS = new Set(['TITLE', 'META', 'LINK', 'BASE', 'STYLE', 'SCRIPT', 'NOSCRIPT', 'TEMPLATE']);
const ELEMENT_NODE = 1;
const TEXT_NODE = 3;
const COMMENT_NODE = 8;
const DOCTYPE_NODE = 10;

/** What withHeadAndBody uses of linkedom's nodes and document. */
interface TreeNode {
  nodeType: number;
  tagName?: string;
  textContent: string | null;
  firstElementChild: TreeNode | null;
  nextElementSibling: TreeNode | null;
  childNodes: ArrayLike<TreeNode>;
  appendChild(node: TreeNode): unknown;
  prepend(...nodes: TreeNode[]): void;
}
interface TreeDocument {
  documentElement: TreeNode | null;
  childNodes: ArrayLike<TreeNode>;
  createElement(tag: string): TreeNode;
  appendChild(node: TreeNode): unknown;
}

/**
 * Gives the document an html element holding a head and then a body, as a browser's parser
 * does when a page leaves those tags out, which HTML allows: a minified page, or a plain
 * "<!doctype html><title>…</title><p>…". linkedom builds only what the markup names, and its
 * document.body is the element after the head, or an empty one it adds, so Readability read
 * such a page as empty and Sift stored "ok" with nothing but the title; markup without any
 * element ("hello") threw. As in HTML's own rules, head elements, blanks and comments before
 * the first other node go in the head, everything from there on in the body. A page that
 * has its html, head and body, as nearly every page does, is left as parsed.
 */
function withHeadAndBody(parsed: Doc): void {
  const document = parsed as unknown as TreeDocument;
  const root = document.documentElement;
  const head = root?.firstElementChild;
  if (root?.tagName === 'HTML' && head?.tagName === 'HEAD' && head.nextElementSibling?.tagName === 'BODY' && !head.nextElementSibling.nextElementSibling) return;
  let html = root;
  if (!html || html.tagName !== 'HTML') {
    html = document.createElement('html');
    for (const n of Array.from(document.childNodes)) if (n.nodeType !== DOCTYPE_NODE) html.appendChild(n);
    document.appendChild(html);
  }
  const kids = Array.from(html.childNodes);
  const newHead = kids.find((k) => k.tagName === 'HEAD') ?? document.createElement('head');
  const newBody = kids.find((k) => k.tagName === 'BODY') ?? document.createElement('body');
  const before: TreeNode[] = [];
  let started = false;
  let pastBody = false;
  for (const k of kids) {
    if (k === newHead) continue;
    if (k === newBody) {
      started = pastBody = true;
      continue;
    }
    const headish = (k.nodeType === ELEMENT_NODE && HEAD_ELEMENTS.has(k.tagName ?? '')) || k.nodeType === COMMENT_NODE || (k.nodeType === TEXT_NODE && !(k.textContent ?? '').trim());
    if (!started && headish) {
      newHead.appendChild(k);
      continue;
    }
    started = true;
    if (pastBody) newBody.appendChild(k);
    else before.push(k);
  }
  // What came before an explicit <body> is its start.
  newBody.prepend(...before);
  html.appendChild(newHead);
  html.appendChild(newBody);
}

/**
 * Drops the one line break right after a <pre>, <listing> or <textarea> start tag, as HTML's
 * parser does and linkedom does not. "<pre>\n<code>…" is how code is commonly written; the
 * kept break made the <code> the pre's second child, so turndown wrote the block as one
 * line of inline `code` with its lines run together.
 */
function dropPreLeadingNewline(document: Doc): void {
  for (const el of Array.from(document.querySelectorAll('pre, listing, textarea'))) {
    const first = el.firstChild;
    if (first?.nodeType !== TEXT_NODE) continue;
    const text = first as Text;
    const rest = text.data.replace(/^\r?\n/, '');
    if (rest === text.data) continue;
    if (rest) text.data = rest;
    else text.remove();
  }
}

/**
 * Deepest markup parseDocument hands to linkedom, whose parse time grows with the square of
 * the depth (20,000 levels: 0.18 s, 80,000: 3.6 s, 2,000,000 — 10 MB of <div> — hours on the
 * main thread). 4,096 levels parse in ~40 ms.
 */
export const MAX_PARSE_DEPTH = 4096;

export const tooDeep = (levels: number, what: 'HTML' | 'XML' = 'HTML'): FetchError =>
  new FetchError(
    422,
    `document too long: ${what} nested more than ${levels} levels deep`,
    `Sift cannot read ${what === 'HTML' ? 'the article in a page' : 'a feed'} built this deep; ${RAW_STILL.cli}.`,
    'too_long',
  );

// Elements that never nest (void) or that the parser closes by itself (a <p> or <li> without
// its end tag), so sloppy but ordinary HTML does not look deep.
const FLAT = new Set(
  'area base br col embed hr img input link meta param source track wbr p li dt dd tr td th option optgroup thead tbody tfoot colgroup caption rb rt rp'.split(' '),
);
const RAW_TEXT = new Set(['script', 'style', 'textarea', 'title', 'xmp', 'noscript', 'template']);

/**
 * How deep the markup nests, from the text alone in one linear pass (open minus end tags,
 * skipping comments and script/style text), stopping as soon as it passes `limit`.
 */
export function markupDepth(html: string, limit: number): number {
  // Up to the last ">": after it no tag can end, and the regex read on to the end of the text
  // from every "<" there (a page of 20,000 unclosed <meta tags, 120 KB: 17 s). Before it,
  // every tag the regex starts ends at the next ">", and the scan goes on from there.
  html = html.slice(0, html.lastIndexOf('>') + 1);
  const tag = /<!--|<(\/?)([a-zA-Z][a-zA-Z0-9:-]*)[^>]*>/g;
  let depth = 0;
  let max = 0;
  for (let m = tag.exec(html); m; m = tag.exec(html)) {
    if (m[0] === '<!--') {
      const end = html.indexOf('-->', tag.lastIndex);
      if (end < 0) break;
      tag.lastIndex = end + 3;
      continue;
    }
    const name = m[2]!.toLowerCase();
    if (m[1]) {
      if (!FLAT.has(name) && depth > 0) depth--;
      continue;
    }
    if (RAW_TEXT.has(name)) {
      // Its text is not markup, and its end tag closes nothing that was counted open.
      const end = endTagAt(html, name, tag.lastIndex);
      if (end < 0) break;
      tag.lastIndex = html.indexOf('>', end) + 1;
      continue;
    }
    if (FLAT.has(name) || m[0].endsWith('/>')) continue;
    if (++depth > max && (max = depth) > limit) return max;
  }
  return max;
}

const absolute = (href: string, base: string): string | undefined => {
  try {
    return new URL(href, base || undefined).toString();
  } catch {
    return undefined;
  }
};

let turndown: TurndownService | undefined;
/**
 * One document that every conversion parses its HTML into. Given a string, turndown builds a
 * new document per call (domino's createDocument, ~0.3 ms even for a short article: the
 * largest part of a small page's conversion); the same parse into an element of a kept
 * document is the same tree. No doctype, like turndown's own: the same (quirks) parsing rules.
 */
let scratch: Document | undefined;
// `page`: the address the HTML's links were made absolute against, which its in-page links (a
// note's) start with.
export function markdownOf(html: string, page?: string): string {
  const root = scratchRoot();
  root.innerHTML = html;
  makeConvertible(root);
  unwrapLayoutTables(root);
  regularizeTables(root);
  return convert(root, page);
}

/**
 * Blocks a Markdown cell cannot hold, for which the tables plugin keeps a table as HTML; in a
 * table without header cells they lay a page out. A <pre> does not tell: code beside its
 * output or its numbers is laid out in tables of data too (codeTable keeps those as HTML).
 */
const LAYOUT_BLOCKS = 'ul,ol,h1,h2,h3,h4,h5,h6,hr,blockquote';

/**
 * A table that lays a page out rather than holding data, as its cells' blocks one after the
 * other, as a screen reader reads it: one the page marks so (role "presentation" or "none"),
 * one that holds another table, or one without header cells or caption whose cells hold
 * lists, headings or quotes. The
 * tables plugin wrote such a table as raw HTML in a wrapper of its own (`<div
 * class="joplin-table-wrapper"><table role="presentation">…`), or, with short cells, as a
 * Markdown table under an empty header. A table with header cells stays a table.
 */
function unwrapLayoutTables(root: HTMLElement): void {
  const doc = root.ownerDocument;
  for (const table of Array.from(root.querySelectorAll('table'))) {
    const own = (el: Element): boolean => el.closest('table') === table;
    const role = (table.getAttribute('role') ?? '').trim().toLowerCase();
    const marked = role === 'presentation' || role === 'none';
    // A table in a cell: Markdown has no table in a table, and the tables plugin, which reads
    // the outer one as no table, ran its cells' words together ("OuterCell", "plainmore").
    const nested = Array.from(table.querySelectorAll('table')).some((t) => own(t.parentElement!));
    if (!marked && !nested && (Array.from(table.querySelectorAll('th,thead,caption')).some(own) || !Array.from(table.querySelectorAll(LAYOUT_BLOCKS)).some((b) => own(b.parentElement!)))) continue;
    const cells = Array.from(table.querySelectorAll('td,th')).filter(own);
    const blocks = cells.map((cell) => {
      const block = doc.createElement('div');
      while (cell.firstChild) block.appendChild(cell.firstChild);
      return block;
    });
    // insertBefore: domino, turndown's DOM, has no replaceWith(...nodes).
    for (const block of blocks) table.parentNode!.insertBefore(block, table);
    table.remove();
  }
}

/** A table row's cells, without the text and other elements between them. */
const tableCells = (tr: Element): Element[] => Array.from(tr.children).filter((c) => c.localName === 'td' || c.localName === 'th');

/**
 * What keeps a table as HTML (a Markdown cell holds one line of inline text): the tables
 * plugin's blocks, and a <pre> (codeTable). Inline <code> does not: such a table was written
 * as Markdown but not regularized, so a colspan beside a cell of `code` broke its divider line.
 */
const KEPT_AS_HTML = 'table,ul,ol,h1,h2,h3,h4,h5,h6,hr,blockquote,pre';
/** The most cells spans may add to one table (colspan=1000 on every cell of a long table); past it they are dropped. */
const MAX_SPAN_CELLS = 20_000;

/**
 * A table whose cells span columns or rows (colspan, rowspan) as a grid of one cell a place,
 * for the tables plugin, which writes a Markdown table a row a line. It counted a row's cells,
 * not its columns: under a header of "Name" and "Scores" spanning two columns, the line under
 * the header had four cells, so no renderer read a table at all, and a row below a rowspan
 * had its cells one column to the left ("| 3 | 4 |" under "| Alice | 1 | 2 |"). A spanning
 * cell keeps its place and content; the places it covered are empty cells, and each row has
 * as many cells as the widest. Tables the plugin keeps as HTML keep their spans.
 */
/** A cell whose text, if any, is all in bold. */
function isBoldCell(cell: Element): boolean {
  const text = (cell.textContent ?? '').replace(/\s+/g, '');
  if (!text) return true;
  // The outermost bold elements of the cell: a <b> inside a <strong> is counted once.
  const outermost = (b: Element): boolean => {
    for (let p = b.parentElement; p && p !== cell; p = p.parentElement) if (p.localName === 'b' || p.localName === 'strong') return false;
    return true;
  };
  const bold = Array.from(cell.querySelectorAll('b, strong')).filter(outermost);
  return bold.map((b) => b.textContent ?? '').join('').replace(/\s+/g, '') === text;
}

/**
 * Whether a table's first row, in a table with no header cells, names its columns: words in
 * every cell, no digit among them, over a column whose every cell below holds a number ("Item |
 * Price" over "Tea | 2.50"), as a CSV reader tells a header from data. GFM writes no table
 * without a header line, and the plugin's line of empty cells showed a blank band over the
 * table; but a first row of data made the header ("Ferry | 9:00" over "Tug | 10:00") would say
 * it names the columns, so a row that does not read as names keeps the empty line.
 */
function namesColumns(top: Element[], below: Element[]): boolean {
  const text = (cell: Element | undefined): string => (cell?.textContent ?? '').trim();
  if (!top.every((c) => /\p{L}/u.test(text(c)) && !/\p{N}/u.test(text(c)))) return false;
  return top.some((_c, i) => below.every((tr) => /^[^\p{L}]*\p{N}[^\p{L}]*$/u.test(text(tableCells(tr)[i]))));
}

function regularizeTables(root: HTMLElement): void {
  const doc = root.ownerDocument;
  for (const table of Array.from(root.querySelectorAll('table'))) {
    if (table.parentElement?.closest('table') || table.querySelector(KEPT_AS_HTML)) continue;
    const rows = Array.from(table.querySelectorAll('tr')).filter((tr) => tr.closest('table') === table);
    // A first row of header cells with no <thead> is the header: the plugin took it for one
    // only when nothing came before its <tbody>, so a <caption> (or a <colgroup>) made it a
    // row under an empty header line. So is a first row written in bold ("<td><b>Pos.</b>"),
    // as pages without <th> write their headers; it sat under a header line of empty cells.
    // So is the first row of a table with no header cells that names its columns (namesColumns).
    const top = rows[0];
    const topCells = top ? tableCells(top) : [];
    const header =
      topCells.every((c) => c.localName === 'th') ||
      (rows.length > 1 && topCells.some((c) => c.textContent?.trim()) && (topCells.every(isBoldCell) || (!table.querySelector('th') && namesColumns(topCells, rows.slice(1)))));
    if (top && !table.querySelector('thead') && top.parentElement?.localName === 'tbody' && topCells.length > 0 && header) {
      const head = doc.createElement('thead');
      top.parentElement.before(head);
      head.appendChild(top);
    }
    const span = (cell: Element, name: string, max: number): number => Math.min(Math.max(Number.parseInt(cell.getAttribute(name) ?? '', 10) || 1, 1), max);
    let added = 0;
    for (const [i, tr] of rows.entries()) {
      for (const cell of tableCells(tr)) added += span(cell, 'colspan', 1000) * span(cell, 'rowspan', rows.length - i) - 1;
    }
    // Spans that would make a table hundreds of times its size (the plugin wrote out every
    // colspan too: 6 MB of Markdown from 50 KB of HTML) are read as one place each.
    if (added > MAX_SPAN_CELLS) {
      for (const cell of rows.flatMap(tableCells)) {
        cell.removeAttribute('colspan');
        cell.removeAttribute('rowspan');
      }
    }
    // Per column, how many rows below a rowspan still covers, and whether it was a header cell.
    const covered: number[] = [];
    const coveredTag: string[] = [];
    const grid: Element[][] = [];
    const empty = (tag: string): Element => doc.createElement(tag);
    for (const [i, tr] of rows.entries()) {
      const out: Element[] = [];
      let col = 0;
      const fillCovered = (): void => {
        while ((covered[col] ?? 0) > 0) {
          out.push(empty(coveredTag[col]!));
          covered[col]!--;
          col++;
        }
      };
      for (const cell of tableCells(tr)) {
        fillCovered();
        const across = span(cell, 'colspan', 1000);
        const down = span(cell, 'rowspan', rows.length - i);
        cell.removeAttribute('colspan');
        cell.removeAttribute('rowspan');
        for (let k = 0; k < across; k++, col++) {
          out.push(k === 0 ? cell : empty(cell.localName));
          if (down > 1) {
            covered[col] = down - 1;
            coveredTag[col] = cell.localName;
          }
        }
      }
      // Places covered from above after the row's last cell, with empty ones between.
      let last = covered.length - 1;
      while (last >= 0 && !((covered[last] ?? 0) > 0)) last--;
      for (; col <= last; col++) {
        out.push(empty(coveredTag[col] ?? 'td'));
        if ((covered[col] ?? 0) > 0) covered[col]!--;
      }
      grid.push(out);
    }
    // A loop, not Math.max(...): a table of 200,000 rows would overflow the stack.
    let width = 0;
    let cells = 0;
    for (const r of grid) {
      width = Math.max(width, r.length);
      cells += r.length;
    }
    // Short rows are padded to the widest, unless that would add more cells than spans may
    // (one row of 1,000 columns over 3,000 rows of one cell: 3 million cells, a hang); GFM
    // reads a short row's missing cells as empty anyway.
    const pad = width * rows.length - cells <= MAX_SPAN_CELLS;
    for (const [i, tr] of rows.entries()) {
      const out = grid[i]!;
      // Blanks between cells are no part of a table; the plugin counted them as cells.
      for (const n of Array.from(tr.childNodes)) if (n.nodeType === 3 && !(n.textContent ?? '').trim()) n.remove();
      while (pad && out.length < width) out.push(empty(out.at(-1)?.localName === 'th' ? 'th' : 'td'));
      for (const el of out) tr.appendChild(el);
    }
    // GFM has one header line: the plugin wrote a divider under each row of a <thead>, so
    // the second header row was followed by a row of "---" cells. The later ones open the body.
    const head = Array.from(table.children).find((c) => c.localName === 'thead');
    const later = head ? Array.from(head.children).filter((c) => c.localName === 'tr').slice(1) : [];
    if (head && later.length) {
      let body = Array.from(table.children).find((c) => c.localName === 'tbody');
      if (!body) head.after((body = doc.createElement('tbody')));
      // insertBefore: domino, turndown's DOM, has no prepend().
      const first = body.firstChild;
      for (const tr of later) body.insertBefore(tr, first);
    }
  }
}

/**
 * Two things an HTML parser accepts and turndown then throws on, failing the whole target:
 * - an element name the DOM refuses (`<weird"name>`): turndown clones the tree, and the
 *   clone's createElement throws; it becomes a <span>, inline as it was;
 * - a cell or row with no <table> above it (a <td> the parser leaves inside an <svg>): the
 *   tables plugin looks up each cell's table and throws when there is none; it is taken out,
 *   keeping what it holds.
 */
function makeConvertible(root: HTMLElement): void {
  const doc = root.ownerDocument;
  for (const el of Array.from(root.getElementsByTagName('*'))) {
    if (validName(doc, el.localName, el.namespaceURI)) continue;
    const span = doc.createElement('span');
    while (el.firstChild) span.appendChild(el.firstChild);
    el.replaceWith(span);
  }
  for (const el of Array.from(root.querySelectorAll('td,th,tr'))) {
    let p = el.parentNode;
    while (p && p !== root && p.nodeName !== 'TABLE') p = p.parentNode;
    if (p && p !== root) continue;
    const parent = el.parentNode!;
    while (el.firstChild) parent.insertBefore(el.firstChild, el);
    el.remove();
  }
}

const HTML_NS = 'http://www.w3.org/1999/xhtml';
const names = new Map<string, boolean>();
/**
 * Whether the DOM makes an element of that name, as a clone does: createElement in HTML,
 * createElementNS (which also checks the name's prefix) in SVG and MathML. Asked once per name.
 */
function validName(doc: Document, name: string, ns: string | null = HTML_NS): boolean {
  const key = `${ns ?? ''} ${name}`;
  let ok = names.get(key);
  if (ok === undefined) {
    try {
      if (ns === HTML_NS) doc.createElement(name);
      else doc.createElementNS(ns, name);
      ok = true;
    } catch {
      ok = false;
    }
    if (names.size < 1000) names.set(key, ok);
  }
  return ok;
}

function scratchRoot(): HTMLElement {
  scratch ??= createDocument('');
  return scratch.createElement('x-turndown');
}

/**
 * Characters that only tell a browser where it may (or may not) break a line: the soft hyphen
 * newspapers put inside long words (Donau&shy;dampf&shy;schiff), the word joiner, a stray
 * zero-width no-break space. Shown, they are nothing; kept, they cut words in two for grep,
 * question and search ("Donaudampfschiff" was not found). The zero-width space stays: Thai,
 * Khmer and Lao mark word ends with it.
 */
const INVISIBLE = /[\u00ad\u2060\ufeff]/g;

function convert(root: HTMLElement, page: string | undefined): string {
  if (!turndown) {
    turndown = new TurndownService({ headingStyle: 'atx', codeBlockStyle: 'fenced', bulletListMarker: '-', emDelimiter: '_' });
    turndown.use(gfm);
    turndown.escape = escapeText;
    turndown.remove(['script', 'style', 'noscript', 'iframe', 'form', 'button']);
    // A video, a sound or an embedded page that the article keeps (Readability keeps the frames
    // of video sites only) is a link to it: it was nothing ("A video of the flock:" and no
    // more), or a <video>'s fallback text ("Your browser does not play video."). Added rules
    // come before turndown.remove's.
    turndown.addRule('embed', {
      filter: (node) => EMBEDS.has(node.nodeName) && embedSource(node) !== undefined,
      replacement: (_content, node) => {
        const el = node as HTMLElement;
        const src = embedSource(node)!;
        const unnamed = el.nodeName === 'IFRAME' ? `embedded from ${new URL(src).host}` : (EMBEDS.get(el.nodeName) ?? '');
        const label = (el.getAttribute('title') || el.getAttribute('aria-label') || unnamed).replace(/\s+/g, ' ').trim();
        // A paragraph of its own, as a player shows on the page.
        return `\n\n[${turndown!.escape(label)}](${src})\n\n`;
      },
    });
    // A table with a block of code in a cell, as HTML: the plugin meant to keep one so, but
    // asks turndown for an isCodeBlock it does not have, and the fence in a cell was a code
    // span showing "<br>" ("| ```<br>sift -v<br>``` |"). Its line ends are references, so a
    // blank line in the code does not end the HTML block. A table the plugin reads as no
    // table (one cell, or tables inside) is its cells' blocks, the code fenced.
    // Any other table the plugin keeps as HTML (a list in a cell of a table with a header) is
    // the table alone, not in the <div class="joplin-table-wrapper"> the plugin puts around it
    // for its own app's style sheet.
    turndown.addRule('codeTable', {
      filter: (node) => node.nodeName === 'TABLE' && holdsTag(node, HTML_CELL_BLOCKS) && !holdsTag(node, TABLE) && tableCellCount(node) > 1,
      replacement: (_content, node) => `\n\n${(node as HTMLElement).outerHTML.replace(/\r?\n/g, '&#10;')}\n\n`,
    });
    // 10<sup>6</sup> is not 106: an exponent or index stays marked (GFM renders the tag).
    turndown.addRule('supSub', {
      filter: (node) => (node.nodeName === 'SUP' || node.nodeName === 'SUB') && isScript(node.textContent ?? ''),
      replacement: (content, node) => `<${node.nodeName.toLowerCase()}>${content}</${node.nodeName.toLowerCase()}>`,
    });
    // A key to press (<kbd>Ctrl</kbd>) stays marked, as GFM renders the tag; it was plain text,
    // so "Press Ctrl+C" no longer said which were keys.
    turndown.addRule('kbd', {
      filter: (node) => node.nodeName === 'KBD' && !!(node.textContent ?? '').trim() && !holdsTag(node, KBD),
      replacement: (content) => `<kbd>${content.trim()}</kbd>`,
    });
    // Highlighted and inserted words (a search's matches, an edit's additions) stay marked, as
    // GFM renders the tags; they were plain text, so what the page pointed at was lost.
    turndown.addRule('markIns', {
      filter: (node) => (node.nodeName === 'MARK' || node.nodeName === 'INS') && !!(node.textContent ?? '').trim(),
      replacement: (content, node) => `<${node.nodeName.toLowerCase()}>${content}</${node.nodeName.toLowerCase()}>`,
    });
    // A table cell as the tables plugin writes it, but with each "|" escaped: the plugin made a
    // run of them one ("a || b" was "a \\| b", so a table of operators lost a character of the
    // code it showed, and "||" in text read as "|").
    turndown.addRule('tableCell', {
      filter: ['th', 'td'],
      replacement: (content, node) => {
        const table = tableOf(node);
        if (!table || pluginSkipsTable(table)) return content;
        // A cell's text starts no line: its split markers (splitMarkers) would only widen the padding.
        const text = content.replaceAll(SPLIT_MARKER, '').trim().replace(/\n\r?/g, '<br>').replace(/\|/g, '\\|').padEnd(3, ' ');
        const across = Number.parseInt((node as HTMLElement).getAttribute('colspan') ?? '', 10) || 1;
        const index = Array.prototype.indexOf.call(node.parentNode!.childNodes, node);
        return `${index === 0 ? '| ' : ' '}${text}${' |    '.repeat(Math.max(across - 1, 0))} |`;
      },
    });
    // A line break in a table cell: the tables plugin writes the cell's line ends as <br>, and
    // the two blanks turndown puts before a line end stayed in front of it ("Multi  <br>line").
    turndown.addRule('cellBreak', {
      filter: (node) => node.nodeName === 'BR' && insideTag(node, CELLS),
      replacement: () => '<br>',
    });
    // A formula: $TeX$ inline, a $$ block on its own, or its MathML read as a line (math.ts).
    turndown.addRule('math', {
      filter: (node) => isMath(node),
      replacement: (_content, node) => {
        const math = node as unknown as MathNode;
        const tex = texOf(math);
        if (!tex) return turndown!.escape(linearMath(math));
        return isDisplayMath(math) ? `\n\n$$\n${tex}\n$$\n\n` : `$${tex}$`;
      },
    });
    // Preformatted text that is not a <pre><code> (turndown's fenced rule takes those): code as
    // highlighters write it (<pre> of <span>s), shell sessions, ASCII tables. Turndown wrote it
    // as paragraph text, so its lines ran together once rendered and its * and _ were escaped.
    // A <pre><code> whose lines are <br>s comes here too: turndown's fenced rule reads the
    // code's textContent, in which a <br> is nothing ("a<br>b" was "ab").
    turndown.addRule('preformatted', {
      filter: (node) => node.nodeName === 'PRE' && (node.firstChild?.nodeName !== 'CODE' || holdsTag(node, BR)),
      replacement: (_content, node) => {
        const text = preText(node as unknown as TextNode);
        if (!text.trim()) return '';
        const classOf = (el: Node | null): string => (el?.nodeType === 1 ? ((el as HTMLElement).getAttribute('class') ?? '') : '');
        return fencedBlock(text, codeLanguage(classOf(node)) ?? (node.firstChild?.nodeName === 'CODE' ? codeLanguage(classOf(node.firstChild)) : undefined));
      },
    });
    // Code whose lines are <br>s in a <code> with no <pre> (editors and forums write it so):
    // turndown's inline code made its lines one ("`line one   line two`"). A fenced block, its
    // lines as a browser shows them: blanks collapsed, a no-break space (their indent) kept.
    turndown.addRule('codeLines', {
      filter: (node) => node.nodeName === 'CODE' && !insideTag(node, PRE) && holdsTag(node, BR),
      replacement: (_content, node) => {
        const text = brLines(node as unknown as TextNode);
        if (!text.trim()) return '';
        return fencedBlock(text, codeLanguage((node as HTMLElement).getAttribute('class') ?? ''));
      },
    });
    // A task's box (keepTaskBoxes): "[x] " as the GFM plugin writes it, without a second blank
    // where the item's text starts with one.
    turndown.addRule('taskBox', {
      filter: (node) => node.nodeName === 'SPAN' && node.getAttribute('role') === 'checkbox' && node.parentNode?.nodeName === 'LI',
      replacement: (_content, node) => {
        const next = node.nextSibling;
        const blank = next?.nodeType === 3 && /^\s/.test(next.textContent ?? '') ? '' : ' ';
        return `${(node as HTMLElement).getAttribute('aria-checked') === 'true' ? '[x]' : '[ ]'}${blank}`;
      },
    });
    // A link's words are one paragraph: a blank line in them ("<a>Title<br><br>More</a>", as a
    // card's link parts its title from its summary; "<br>&nbsp;<br>"; bold around both) ended
    // the paragraph inside the link, and its "[" and "](url)" showed as text. It is a line break.
    // The rules added after this one (blockLink, emptyLink) come first.
    turndown.addRule('link', {
      filter: (node) => node.nodeName === 'A' && !!node.getAttribute('href'),
      replacement: (content, node) => {
        const el = node as HTMLElement;
        return `[${content.replace(BLANK_LINES, '  \n')}]${destination(el.getAttribute('href') ?? '', el.getAttribute('title') ?? '')}`;
      },
    });
    // A link around blocks (a card: <a><h3>Title</h3><p>Summary</p></a>) was "[" and "](url)"
    // on lines of their own around them, which no renderer reads as a link. The blocks stay,
    // and the link goes on the first heading's words, else on the first line of text, else
    // on a line of its own after them.
    turndown.addRule('blockLink', {
      filter: (node) => node.nodeName === 'A' && !!node.getAttribute('href') && holdsTag(node, LINK_BLOCKS),
      replacement: (content, node) => {
        const el = node as HTMLElement;
        const link = (text: string): string => `[${text}]${destination(el.getAttribute('href') ?? '', el.getAttribute('title') ?? '')}`;
        const body = content.replace(/^\n+|\n+$/g, '');
        const lines = body.split('\n');
        // A line that holds a link or picture already cannot be one (links do not nest).
        const free = (l: string): boolean => !l.includes('](');
        let i = lines.findIndex((l) => /^#{1,6} \S/.test(l) && free(l));
        // The link goes inside a heading, a heading alone too: "[## Title](url)" was no heading.
        if (i >= 0) lines[i] = lines[i]!.replace(/^(#{1,6} )(.*)$/, (_m, hashes: string, text: string) => `${hashes}${link(text)}`);
        // Blocks that came out as one line (a <div> holding a picture) are simply its text.
        else if (lines.length === 1) return body.trim() ? `\n\n${link(body.trim())}\n\n` : '';
        else {
          i = lines.findIndex((l) => l.trim() !== '' && free(l) && !/^(?:[-*+] |\d+[.)] |>|```|~~~|\||!\[| {4})/.test(l));
          if (i >= 0) lines[i] = link(lines[i]!.replace(/ {2}$/, ''));
          else lines.push('', link(turndown!.escape(el.getAttribute('href') ?? '')));
        }
        return `\n\n${lines.join('\n')}\n\n`;
      },
    });
    // A definition list as the extended Markdown of pandoc, kramdown (Jekyll), Python-Markdown
    // and PHP Markdown Extra writes one: the term, then ":   " and its definition. Each was
    // a paragraph of its own, so which words defined which term was
    // lost; a renderer without the extension shows "Term : definition", still together.
    turndown.addRule('definitionTerm', {
      filter: (node) => node.nodeName === 'DT' && node.parentElement?.nodeName === 'DL',
      replacement: (content, node) => {
        const term = content.replace(/\s*\n+\s*/g, ' ').trim();
        if (!term) return '';
        // A term right after a definition starts a new group, after a blank line; terms in a row share the next definition.
        return `${node.previousElementSibling?.nodeName === 'DD' ? '\n\n' : ''}${term}\n`;
      },
    });
    turndown.addRule('definition', {
      filter: (node) => node.nodeName === 'DD' && node.parentElement?.nodeName === 'DL',
      replacement: (content, node) => {
        const body = content.replace(/^\n+|\n+$/g, '');
        if (!body.trim()) return '';
        // A list of definitions with no term is how wikis indent (Wikipedia's ":" lines, its
        // display formulas): blocks as they are.
        if (!Array.from(node.parentElement!.children).some((el) => el.nodeName === 'DT')) return `\n\n${body}\n\n`;
        // Its first block on the ":" line, the rest as they are: indented under it, as the
        // extension reads them, a Markdown without it (GFM, the app's preview) showed them as code.
        return `${node.previousElementSibling ? '' : '\n\n'}:   ${body}\n`;
      },
    });
    turndown.addRule('definitionList', {
      filter: 'dl',
      replacement: (content) => `\n\n${content.replace(/^\n+|\n+$/g, '')}\n\n`,
    });
    // An ordered list's items numbered as the page shows them (orderedMarker); the rest is
    // turndown's own listItem rule: two blanks after the marker, the item's lines under its text.
    // An item's blank first lines (breaks before its text: "<li><br><br>a") are left out, as a
    // paragraph's are: "-" then a blank line is an empty item in CommonMark (an item starts with
    // at most one blank line), and the text under it became a code block.
    turndown.addRule('listItem', {
      filter: 'li',
      replacement: (content, node) => {
        const list = node.parentNode;
        const marker = list?.nodeName === 'OL' ? orderedMarker(node) : list ? bulletOf(list) : '-';
        // A number Markdown has no marker for leads the item's text, under a bullet (orderedMarker).
        const [prefix, label] = /^[-*]/.test(marker) ? [`${marker.charAt(0)}   `, marker.slice(1)] : [`${marker}  `, ''];
        const paragraph = /\n$/.test(content);
        const body = label + content.replace(/^(?:[ \t]*\n)+|\n+$/g, '') + (paragraph ? '\n' : '');
        return `${prefix}${body.replace(/\n/g, `\n${' '.repeat(prefix.length)}`)}${node.nextSibling ? '\n' : ''}`;
      },
    });
    // A list inside an item, under the item's text: turndown's own rule with one change. An
    // ordered list that starts at other than 1 cannot interrupt a paragraph in CommonMark, so
    // under the item's text on the next line ("2.  two\n    5.  a") it was read as more of
    // that text ("two 5. a"); a blank line before it makes it a list.
    turndown.addRule('list', {
      filter: ['ul', 'ol'],
      replacement: (content, node) => {
        const parent = node.parentNode as HTMLElement | null;
        if (parent?.nodeName !== 'LI' || parent.lastElementChild !== node) return `\n\n${content}\n\n`;
        const first = node.nodeName === 'OL' ? Array.from(node.childNodes).find((c) => c.nodeName === 'LI') : undefined;
        return `${first && !/^1[.)]$/.test(orderedMarker(first)) ? '\n\n' : '\n'}${content}`;
      },
    });
    // A quotation as turndown writes it, but its blank lines ">" alone, as text mode writes them:
    // they were "> ", a blank at the end of each in the exported files.
    turndown.addRule('blockquote', {
      filter: 'blockquote',
      replacement: (content) => `\n\n${content.replace(/^\n+|\n+$/g, '').split('\n').map((line) => (line ? `> ${line}` : '>')).join('\n')}\n\n`,
    });
    // A heading's words on its one line, blocks inside it too: a page's <h2><div>Title</div></h2>
    // was an empty "##" over the title as a paragraph.
    turndown.addRule('heading', {
      filter: ['h1', 'h2', 'h3', 'h4', 'h5', 'h6'],
      replacement: (content, node) => {
        const words = content.replace(/^[ \t\r\n]+|[ \t\r\n]+$/g, '').replace(/[ \t]*\n+[ \t]*/g, ' ');
        return words ? `\n\n${atxHeading(Number(node.nodeName.charAt(1)), words)}\n\n` : '\n\n';
      },
    });
    // A line break in a heading: an ATX heading is one line, so the words after the break were
    // a paragraph under it ("## First line  " then "second line").
    turndown.addRule('headingBreak', {
      filter: (node) => node.nodeName === 'BR' && insideTag(node, HEADINGS),
      replacement: () => ' ',
    });
    // Emphasis inside a word ("<em>emph</em>asis"): "_emph_asis" is no emphasis in CommonMark,
    // which reads an underscore inside a word as a letter; an asterisk works there. And
    // emphasis that ends in a mark against a word ('<em>“Night,”</em>said') cannot close in
    // Markdown at all: the mark goes outside it (delimited).
    turndown.addRule('emphasis', {
      filter: ['em', 'i'],
      replacement: (content, node) => (crowded(content, node) ? `<em>${content}</em>` : delimited(content, node, 'em', (wordy) => (wordy ? '*' : '_'))),
    });
    turndown.addRule('strong', {
      filter: ['strong', 'b'],
      // Beside emphasis, no word touching it, bold's delimiters are chosen once the emphasis's
      // are written (boldDelimiters).
      replacement: (content, node) =>
        crowded(content, node) ? `<strong>${content}</strong>` : delimited(content, node, 'strong', (wordy) => (!wordy && besideEmphasis(node) ? [BOLD_OPENS, BOLD_CLOSES] : '**')),
    });
    // A picture's alt text escaped as the article's words are (escapeText), each of its lines:
    // turndown's own escapes made "EPA_Visualisierung" "EPA\_Visualisierung" and "1. Mix" "1\. Mix"
    // where nothing could be a list, left "~a~", which GFM strikes out, and a list marker that
    // starts a later line unescaped. Its line breaks stay one each, as turndown keeps them.
    turndown.addRule('image', {
      filter: 'img',
      replacement: (_content, node) => {
        const el = node as HTMLElement;
        const src = el.getAttribute('src') ?? '';
        const alt = (el.getAttribute('alt') ?? '').replace(/(\n+\s*)+/g, '\n').split('\n').map(escapeText).join('\n');
        return src ? `![${alt}]${destination(src, el.getAttribute('title') ?? '')}` : '';
      },
    });
    // A link without text or image (an icon the page's CSS draws) is "[](url)" in Markdown:
    // nothing to read or to click. 3 of the article benchmark's 91 pages had one.
    // A page's footnotes (markFootnotes) as GFM's: "[^1]" where one is cited, "[^1]: …" for the
    // note, its later blocks indented under it. Added last, so they come before the rules for
    // a <sup>, a link or a list's item.
    turndown.addRule('noteMark', {
      filter: (node) => node.nodeName !== 'LI' && noteLabel(node) !== null,
      replacement: (_content, node) => `[^${noteLabel(node)!}]`,
    });
    turndown.addRule('note', {
      filter: (node) => node.nodeName === 'LI' && noteLabel(node) !== null,
      replacement: (content, node) => `[^${noteLabel(node)!}]: ${content.replace(/^\s+|\s+$/g, '').replace(/\n(?=[^\n])/g, '\n    ')}\n`,
    });
    // Code right after code: their backticks touched and made one run, so "`a``b`" was one
    // span showing "a``b". The second is an HTML <code>, as GFM renders it, its words escaped.
    turndown.addRule('codeAfterCode', {
      filter: (node) => node.nodeName === 'CODE' && !insideTag(node, PRE) && endsInCode(wordsNode(node, 'previousSibling', WORDS_ONLY)),
      replacement: (content) => (content ? `<code>${codeAsHtml(content)}</code>` : ''),
    });
    turndown.addRule('emptyLink', {
      filter: (node) => node.nodeName === 'A' && !!node.getAttribute('href') && !(node.textContent ?? '').trim() && !holdsTag(node, PICTURES),
      replacement: () => '',
    });
  }
  dataImagesAsAlt(root);
  breaksOutOfWords(root);
  mergeEmphasis(root);
  markFootnotes(root, page);
  // Not trim(): it takes a leading no-break space too, and "&nbsp;1. First" became a list.
  return collapseBlankLines(besideBrackets(lineStartEscapes(boldDelimiters(turndown.turndown(root)))).replace(INVISIBLE, '')).replace(/^[ \t\r\n]+|\s+$/g, '');
}

/** A link's or picture's "(destination "title")" as turndown writes it: the address in <> when it holds a blank. */
function destination(href: string, title: string): string {
  const escaped = href.replace(/([<>()])/g, '\\$1');
  const quoted = title.replace(/(\n+\s*)+/g, '\n').replace(/"/g, '\\"');
  return `(${/\s/.test(escaped) ? `<${escaped}>` : escaped}${quoted ? ` "${quoted}"` : ''})`;
}

/**
 * A picture written into the page itself (a data: URI: an inline icon, a chart, a photo pasted
 * into an editor) is its alt text, or nothing. The Markdown carried the whole encoded file
 * ("![chart](data:image/png;base64,iVBORw0KGgo…)", often tens of kilobytes on one line), which
 * no reader reads, grep and a question matched inside, and a renderer may refuse to show.
 * A link around it keeps the alt as its text; one with nothing left goes (emptyLink).
 */
function dataImagesAsAlt(root: HTMLElement): void {
  for (const img of Array.from(root.getElementsByTagName('img'))) {
    if (!/^\s*data:/i.test(img.getAttribute('src') ?? '')) continue;
    // A browser shows the srcset's picture over the src, which is then only a placeholder.
    const shown = largestCandidate(img.getAttribute('srcset') ?? '');
    if (shown && !/^data:/i.test(shown)) {
      img.setAttribute('src', shown);
      continue;
    }
    pictureAsAlt(img);
  }
}

/** A picture that shows nothing here as its alt text, or nothing. */
function pictureAsAlt(img: HTMLElement): void {
  const alt = (img.getAttribute('alt') ?? '').replace(/\s+/g, ' ').trim();
  if (alt) img.parentNode!.insertBefore(img.ownerDocument.createTextNode(alt), img);
  img.remove();
}

/**
 * A text node's words as Markdown that renders as those words: turndown's escapes, and
 * - a "<" that would open a tag, a comment or an autolink ("the <template> element": the
 *   tag was rendered, hiding the rest of the page in a browser), and an "&" that would make
 *   an entity ("&copy;" showed "©");
 * - an ordered list's marker with ")" too, and a marker or heading with nothing after it
 *   ("2) two" and a lone "1." were lists, a lone "#" an empty heading), but not a lone "+":
 *   the text between two keys (<kbd>Ctrl</kbd>+<kbd>C</kbd>) is one;
 * - a "~" that could close a strikethrough (GFM's "~~word~~"),
 * but no "_" inside a word: CommonMark never reads one there as emphasis, and API docs'
 * snake_case names were "snake\_case".
 */
function escapeText(page: string): string {
  const text = page.replace(OUR_NONCHARACTERS, '');
  const start = text.search(/\S/);
  // A "[" after the text's last other bracket, or a "]" before its first, may pair with one in
  // another text: a quote's source split by a <br> ("[HR. … no.1997" and "dalam … no. 178]") or
  // around emphasis. besideBrackets decides it as it does a pair at a text's end.
  const firstBracket = text.search(/[[\]]/);
  const lastBracket = Math.max(text.lastIndexOf('['), text.lastIndexOf(']'));
  const bracket = (c: string, at: number): string => {
    if (c === '`' || c === '\\') return `\\${c}`;
    const [open, close] = c === '[' ? [at, closingBracket(text, at)] : [openingBracket(text, at), at];
    if (c === '[' ? at === lastBracket && opensPair(text, at) : at === firstBracket) return `${BESIDE_ESCAPE}\\${c}`;
    if (open < 0 || close < 0) return `\\${c}`;
    // A pair at the text's start or end: what touches it is in another node (besideBrackets).
    return open <= start || close + 1 >= text.length ? `${BESIDE_ESCAPE}\\${c}` : c;
  };
  return text
    .replace(/[\\`[\]]/g, bracket)
    .replace(/\*+|_+/g, (run, at: number, s: string) => (emphasizesNothing(s, at, run) ? run : run.replace(/[*_]/g, '\\$&')))
    .replace(/(?<=[^\s~])~+/g, (run) => run.replace(/~/g, '\\~'))
    .replace(/<(?=[A-Za-z/!?])/g, '\\<')
    .replace(/&#?[A-Za-z0-9]+;/g, (ref) => (decodeEntities(ref) === ref ? ref : `\\${ref}`))
    .replace(/^-/, `${LINE_START_ESCAPE}\\-`)
    .replace(/^\+ /, `${LINE_START_ESCAPE}\\+ `)
    .replace(/^(=+)/, `${LINE_START_ESCAPE}\\$1`)
    .replace(/^(#{1,6})(?=[ \t]|$)/, `${LINE_START_ESCAPE}\\$1`)
    .replace(/^~~~/, `${LINE_START_ESCAPE}\\~~~`)
    .replace(/^>/, `${LINE_START_ESCAPE}\\>`)
    .replace(/^(\d{1,9})([.)])(?=[ \t]|$)/, `${LINE_START_ESCAPE}$1\\$2`)
    .replace(/^\s*(?=\d)|^\s*\+(?=\s*$)/, `$&${SPLIT_MARKER}`)
    .replace(/!$/, `${BANG_BEFORE}!`);
}

/** A blank CommonMark counts as whitespace beside a delimiter run: Unicode's spaces and a tab; a line's end is left out. */
const BLANK = /[\t\p{Zs}]/u;

/**
 * Whether a run of "*" or "_" at `at` in `s` is no emphasis's delimiter, whatever comes
 * before or after the text: an underscore inside a word (snake_case), and a run with a blank
 * on each side ("5 * 3", "snake _ case"), which CommonMark's flanking rules let neither open
 * nor close. The latter only after a word's character and one blank in the same text: a run
 * at a line's start is a list's marker or a break ("* * *"), and a text's start or end may
 * touch the next text's letters or marks ("5 *" before an <em>'s "_x_").
 */
function emphasizesNothing(s: string, at: number, run: string): boolean {
  const before = s[at - 1] ?? '';
  const after = s[at + run.length] ?? '';
  if (run.startsWith('_') && WORD_CHAR.test(before) && WORD_CHAR.test(after)) return true;
  return BLANK.test(before) && BLANK.test(after) && /\S/.test(s[at - 2] ?? ' ');
}

/**
 * Where the "]" closing an editor's brackets inside a line (a quote's "our shot [again],") that
 * opens at `at` is, or -1 when the pair could be Markdown: a "[" that follows a "]", brackets
 * around brackets or none, a note's "[^1]", or a "]" followed by "(", "[" or ":" (a link, a
 * reference, a definition). The Markdown Sift writes defines no reference, so such a pair is
 * text; its backslashes were the most common of the article benchmark's (37 pairs; 13 of them, on 9 pages, were such).
 * A bracket beside a backslash keeps its own: in a picture's alt text, marked read "\\\\]" as
 * an escaped "]" and dropped the backslash ("a[\\]a" showed "a[]a"). A pair at the text's start
 * or end is decided once the Markdown around it is written (besideBrackets).
 */
// Each scan stops at the next bracket, so a text of 200,000 brackets is read once, not once a bracket.
function closingBracket(s: string, at: number): number {
  if ('\\]'.includes(s[at - 1] ?? '-') || s[at + 1] === '^') return -1;
  let close = at + 1;
  while (close < s.length && s[close] !== '[' && s[close] !== ']') close++;
  if (close === at + 1 || s[close] !== ']' || s[close - 1] === '\\' || '([:'.includes(s[close + 1] ?? '-')) return -1;
  return close;
}

/** Whether a "[" at `at` can open a pair at all: not a note's "[^1]", not escaped, not right after a "]". */
const opensPair = (s: string, at: number): boolean => s[at + 1] !== '^' && !'\\]'.includes(s[at - 1] ?? '-');

/** Where the "[" that opens the editor's brackets a "]" at `at` closes is (closingBracket), or -1. */
function openingBracket(s: string, at: number): number {
  let open = at - 1;
  while (open >= 0 && s[open] !== '[' && s[open] !== ']') open--;
  return open >= 0 && s[open] === '[' && closingBracket(s, open) === at ? open : -1;
}

/**
 * Marks the escapes of a bracket pair at a text node's start or end (escapeText), which only
 * the Markdown beside it decides: turndown escapes one text node at a time, and a "]" ending
 * one may meet the next one's "(" ("<span>[a]</span>(b)" is a link once unescaped). 24 of the
 * article benchmark's escaped "]" were such, before a "**" or a line's end. U+FDD1, a
 * noncharacter as LINE_START_ESCAPE is.
 */
const BESIDE_ESCAPE = '\ufdd1';
const OUR_NONCHARACTERS = /[\ufdd0-\ufdd5]/g;
/**
 * Marks a "!" that ends a text, which a link after it makes a picture: "Wow!<a href=…>link</a>"
 * was "Wow![link](…)", which every renderer shows as an image of the link's address. Escaped
 * where a "[" follows it in the written Markdown (besideBrackets). U+FDD5, a noncharacter as
 * LINE_START_ESCAPE is.
 */
const BANG_BEFORE = '\ufdd5';
/** A marked "!" (BANG_BEFORE) that a "[" follows. */
const BANG_OPENING = /\ufdd5!(?=\[)/g;
/** A marked pair: its "[", the words between (no bracket, as closingBracket found them), its "]". */
const BESIDE_PAIR = /\ufdd1\\\[([^[\]\ufdd1]+)\ufdd1\\\]/g;
/** A pair's words a task list reads as its box ("- [x] done"), GFM's " ", "x" or "X". */
const TASK_BOX = /^[ \txX]$/;
/** Words a pair cannot hold as its own: a blank line between (two paragraphs), a backslash escaping its "]". */
const NOT_A_PAIRS_WORDS = /\n[ \t>]*\n|\\$/;

/**
 * The pairs escapeText marked (BESIDE_ESCAPE) as typed where nothing beside them in the written
 * Markdown makes syntax of them, as closingBracket decides inside a text: escaped where a line's
 * block starts (a reference's definition, a task's box), after a "!", "[", "]" or backslash (a
 * picture, brackets in brackets), or before "(", "[", ":" or "]" (a link, a reference).
 * A "!" ending a text (BANG_BEFORE) is escaped before a "[", which would make a picture of a link.
 */
function besideBrackets(written: string): string {
  const md = written.includes(BANG_BEFORE) ? written.replace(BANG_OPENING, '\\!').replaceAll(BANG_BEFORE, '') : written;
  if (!md.includes(BESIDE_ESCAPE)) return md;
  // Read once from the start, not back from each pair: 100,000 pairs on one line were 100,000
  // reads of the line. A line whose text so far has a character no block's prefix has is past it.
  let line = 0;
  let read = 0;
  let prefixOnly = true;
  const blockStart = (at: number): boolean => {
    for (; read < at; read++) {
      const c = md[read]!;
      if (c === '\n') {
        line = read + 1;
        prefixOnly = true;
      } else if (prefixOnly && !PREFIX_CHARS.includes(c)) prefixOnly = false;
    }
    return prefixOnly && BLOCK_START.test(md.slice(line, at));
  };
  return md
    .replace(BESIDE_PAIR, (pair: string, words: string, at: number) => {
      const before = md[at - 1] ?? '\n';
      const after = md[at + pair.length] ?? '\n';
      const escaped =
        (blockStart(at) && TASK_BOX.test(words)) || NOT_A_PAIRS_WORDS.test(words) || '![]\\\ufdd1'.includes(before) || '([:]\ufdd1'.includes(after);
      return escaped ? `\\[${words}\\]` : `[${words}]`;
    })
    .replace(OUR_NONCHARACTERS, '');
}

/**
 * Marks an escape that only a line's start needs (a list marker, a heading's or a quote's, a
 * setext underline, a fence) until the Markdown is written: turndown escapes them at the start
 * of every text node, and most text nodes start inside a line, after a "**", a "[", a table's
 * "| ". A listicle's bold steps were "**1\. Prioritize**", a table's losses "| \-12.99 |",
 * backslashes in the file that no renderer needed. A noncharacter (U+FDD0): no text holds one,
 * and escapeText drops any the page has.
 */
const LINE_START_ESCAPE = '\ufdd0';
/**
 * What may come before a line's text and still leave it where a block starts: indents,
 * quotes' marks, list markers and a definition's ":".
 */
const BLOCK_PREFIX = String.raw`(?:[ \t]*(?:>[ \t]?|(?:[-*+]|\d{1,9}[.)]|:)[ \t]+))*[ \t]*`;
const LINE_START = new RegExp(`^(${BLOCK_PREFIX})\ufdd0`, 'gm');
/** A line's text so far that leaves the next character where a block starts. */
const BLOCK_START = new RegExp(`^${BLOCK_PREFIX}$`);
/** The characters BLOCK_PREFIX is made of. */
const PREFIX_CHARS = ' \t>-*+.):0123456789';

/**
 * Marks a text's leading number, and a "+" that is all of a text, whose list marker another
 * element may finish (escapeText): turndown escapes one text at a time, so "<span>1</span>. text",
 * "1<b>. bold</b>" and "<span>+</span> text" were lists where the page had none. U+FDD2, a
 * noncharacter as LINE_START_ESCAPE is.
 */
const SPLIT_MARKER = '\ufdd2';
/** A marked number or "+" where a line's text starts, with the "." or ")" (and a blank or the line's end) that make it a marker. */
const SPLIT_AT_LINE_START = new RegExp(`^(${BLOCK_PREFIX})(?:\ufdd2((?:\\d|[\ufdd0\ufdd2])+?)\\\\?([.)])|(\\+)\ufdd2)(?=[ \\t]|$)`, 'gm');
/** Split markers (SPLIT_MARKER) escaped where a line's text starts; the marks dropped everywhere. */
function splitMarkers(md: string): string {
  if (!md.includes(SPLIT_MARKER)) return md;
  return md
    .replace(SPLIT_AT_LINE_START, (whole: string, prefix: string, digits: string | undefined, dot: string | undefined, plus: string | undefined) => {
      const number = digits?.replace(OUR_NONCHARACTERS, '') ?? '';
      if (plus) return `${prefix}\\+`;
      return number.length <= 9 ? `${prefix}${number}\\${dot!}` : whole;
    })
    .replaceAll(SPLIT_MARKER, '');
}

/** The escapes escapeText marked (LINE_START_ESCAPE, SPLIT_MARKER) kept where a line's text starts, dropped elsewhere. */
const lineStartEscapes = (md: string): string => {
  const split = splitMarkers(md);
  return split.includes(LINE_START_ESCAPE) ? withinLine(split.replace(LINE_START, '$1')) : split;
};
/** Text whose line-start escapes (escapeText) are all inside a line: they go. */
const withinLine = (md: string): string => md.replace(/\ufdd0(?:(\d{1,9})\\|\\)/g, '$1');
/** A line-start escape (escapeText) at a text's start. */
const OPENING_LINE_START_ESCAPE = /^\ufdd0(?:(\d{1,9})\\|\\)/;

/**
 * An ATX heading of the given level. A run of "#" at its end, after a blank, is escaped:
 * CommonMark reads it as the heading's closing sequence and drops it ("## Issue ###" showed
 * "Issue"). A list's marker at its start is not: a heading's line holds no list, and steps
 * written as headings were "#### 1\) Install" (23 such backslashes in 17 READMEs).
 */
const atxHeading = (level: number, content: string): string => `${'#'.repeat(level)} ${withinLine(content).replace(/(^|[ \t])(#+[ \t]*)$/, '$1\\$2')}`;

/**
 * Runs of blank lines as one, but inside a fenced code block, where they are the code's: two
 * blank lines between a module's functions (as Python's style guide asks) were one. A fence
 * opens at a line's start (turndown escapes a ``` or ~~~ there in text) and closes at the
 * first line of at least as many of its characters. A line of only blanks (a list item's
 * indent under an image, a paragraph that held only a <br>, &nbsp; or a zero-width space, as editors leave) is blank too, and a
 * paragraph's last line loses its trailing blanks (a <br> at its end): they left lines of
 * spaces, and spaces at line ends, in the exported files. So does any line its no-break spaces
 * (a page's "&nbsp;" closing a paragraph: 92 lines on 24 of the article benchmark's 91 pages).
 */
const collapseBlankLines = (md: string): string =>
  md.replace(FENCE_OR_BLANK_LINES, (m) => (/^[`~]/.test(m) ? m : m.includes('\n') ? '\n\n' : ''));
/** A line end and the blank lines after it (blanks, no-break and zero-width spaces alone on a line are none of its text). */
const BLANK_LINES = /[ \t\u00a0]*\n(?:[ \t\u00a0\u200b-\u200d]*\n)+/g;
/** A fenced code block, from its opening fence to its closing one. */
const FENCED_BLOCK = /^(`{3,}|~{3,})[^\n]*\n(?:[\s\S]*?\n)?\1(?:(?<=`)`*|(?<=~)~*)[ \t]*$/;
const FENCE_OR_BLANK_LINES = new RegExp(`${FENCED_BLOCK.source}|${BLANK_LINES.source}|\\u00a0+$`, 'gm');

const WORD_CHAR = /[\p{L}\p{N}]/u;
/**
 * A mark escaped (escapeText), its backslash and it as one, after an even run of backslashes:
 * text, whatever the mark, but a bracket's (besideBrackets may unescape a pair). With a
 * line-start escape's mark (LINE_START_ESCAPE) before it. Split, the backslash stayed inside
 * and escaped the delimiter after it: "<b>b<br>1.</b>x" was "**b  \n1\\**.x", "<b>b<br>-</b>x"
 * "**b  \n\\**-x", both showing their asterisks.
 */
const ESCAPED_MARK = /(?<=(?:^|[^\\])(?:\\\\)*)\ufdd0?\\(?![[\]])[\p{P}\p{S}]/u.source;
/** A "+" that is all of a text, with its split marker (SPLIT_MARKER): split, "<em>+<br>b</em>" was "+_  \nb_", its "_" opening at a line's end. */
const SPLIT_PLUS = '\\+\ufdd2';
/** A mark Markdown reads nowhere inside a line, and a blank. */
const PLAIN_MARK = /(?![[\])`*_\\<>!~|$#])[\s\p{P}\p{S}]/u.source;
/**
 * Marks (and blanks) at the end, and at the start, of an emphasis's inside, but none that
 * Markdown itself reads there (a link's ")"); an escaped mark (ESCAPED_MARK) is text, and goes
 * too ("<b>a`</b>b" was "**a\\`**b", whose "**" cannot close before a letter), as does a "+"
 * with its split marker (SPLIT_PLUS). A "(" goes too: no link ends in one nor starts with
 * one, and "<em>a(</em>b" was "*a(*b", shown so.
 */
const TRAILING_MARKS = new RegExp(`(?:${SPLIT_PLUS}|${ESCAPED_MARK}|${PLAIN_MARK})+$`, 'u');
const LEADING_MARKS = new RegExp(`^(?:${SPLIT_PLUS}|${ESCAPED_MARK}|${PLAIN_MARK})+`, 'u');
/** A number's line-start escape (escapeText) at the end of what stays inside, its "." or ")" moved outside. */
const NUMBER_AT_END = /\ufdd0(\d{1,9})$/;
/** A mark left at an edge of the inside that is no delimiter of emphasis inside it (whose run joins the outer's, flanking by what is beyond). */
const STUCK_START = /^[\ufdd0-\ufdd5]*(?![*_])[\p{P}\p{S}]/u;
const STUCK_END = /(?:\\[*_]|(?![*_])[\p{P}\p{S}])\ufdd2?$/u;

/**
 * Emphasis (`content`, as turndown wrote the element's inside) between its delimiters, so
 * that CommonMark reads it as emphasis. A delimiter opens only where the text after it is no
 * mark or the text before it is none of a word, and closes likewise; so the marks at the
 * inside's ends that face a word outside ('“Night,”' then "said") go outside, and `pick`
 * chooses the delimiter knowing whether either side is a word's letters. A mark that cannot go
 * outside (code's backtick, a link's ")", a tag's ">") facing a word leaves no delimiter that
 * opens or closes there ("<em>a <code>b</code></em>c" was "*a `b`*c", shown so): the emphasis is
 * then HTML's `tag`, whose inside Markdown still reads, its line breaks too: the tags hold the
 * inside without the line breaks at its edges (delimited), so neither starts a line alone,
 * which would open an HTML block ("x<em>!<br>a</em>#" was "x*!  \na*#", shown so).
 */
function delimited(content: string, node: Node, tag: string, pick: (wordy: boolean) => string | [string, string]): string {
  // Emphasis around a line break alone (editors' "<b><br></b>") is the line break: it went with
  // the emphasis, and "foo<b><br></b>bar" was "foobar".
  if (!content.trim()) return content.includes('\n') ? content : '';
  if (marksBesideWord(node, node.textContent ?? '')) return content;
  const [, lead = '', inside = '', tail = ''] = EDGE_BREAKS.exec(content)!;
  if (!lead && !tail.includes('\n') && !BLANK_LINE.test(inside)) {
    // Blanks at its edges that its text does not have (a heading's <br>, written as a blank)
    // go outside it, as turndown moves the text's: "<h2>a <b>word<br></b></h2>" was
    // "## a **word **", whose "**" after a blank closes nothing and showed so.
    const [, open = '', line = '', close = ''] = EDGE_BLANKS.exec(content)!;
    if (!open && !close) return delimitedLine(content, node, tag, pick);
    return `${open}${delimitedLine(line, node, tag, pick, { before: open ? ' ' : undefined, after: close ? ' ' : undefined })}${close}`;
  }
  // Line breaks at the emphasis's edges go outside it, and each of its paragraphs is
  // emphasized alone: a delimiter cannot open at a line's end nor close at a line's start, nor
  // pair across a blank line. "<b>Tickets<br></b>At the door" was "**Tickets  \n**At the door"
  // and "<b><p>a</p><p>b</p></b>" a "**" on a line of its own above and below, shown so. A
  // paragraph that is a block of its own (a heading, a list, a quote, code, a table) stays as it is.
  const parts = inside.split(/(\n[ \t]*\n\s*)/);
  const last = parts.length - 1;
  const edges = (i: number): Edges => ({ before: i > 0 || lead ? ' ' : undefined, after: i < last || tail.includes('\n') ? ' ' : undefined });
  return `${lead}${parts.map((p, i) => (i % 2 === 1 || !p.trim() || BLOCK_LINE.test(p) ? p : delimitedLine(p.replace(/[ \t]+$/, ''), node, tag, pick, edges(i)))).join('')}${tail}`;
}

/** Line breaks and blank lines at the start and at the end of an emphasis's Markdown (turndown writes a <br> as "  \n"), and what is between. */
const EDGE_BREAKS = /^((?:[ \t]*\n)*)([^]*?)([ \t]*(?:\n[ \t]*)*)$/;
const BLANK_LINE = /\n[ \t]*\n/;
/** Blanks at the start and at the end of an emphasis's Markdown on one line, and what is between. */
const EDGE_BLANKS = /^([ \t]*)([^]*?)([ \t]*)$/;
/** A paragraph of Markdown that starts a block of its own, which emphasis's delimiters would undo: a heading, a list, a quote, a fence, a table, an indented code block. */
const BLOCK_LINE = /^(?:#{1,6}(?:[ \t]|$)|[-*+][ \t]|\d{1,9}[.)][ \t]|>|`{3}|~{3}|\||[ \t]{4})/;
/** A run of "*" or "_" at the start of an emphasis's inside with a blank after it, or at its end with a blank before: text, as no delimiter is next to a blank on that side. */
const BARE_RUN_AT_EDGE = /^[*_]+(?=[\t\p{Zs}])|(?<=[\t\p{Zs}])[*_]+$/gu;
/** What is beside an emphasis's delimiters where that is not its element's neighbour: ' ' for a line's start or end. */
interface Edges {
  before?: string;
  after?: string;
}

/** Emphasis on one line, or on lines joined by line breaks (delimited). */
function delimitedLine(content: string, node: Node, tag: string, pick: (wordy: boolean) => string | [string, string], edges: Edges = {}): string {
  // A blank at either end of the element is moved outside it by turndown, so that side is no word.
  const own = node.textContent ?? '';
  const before = edges.before ?? (/^\s/.test(own) ? ' ' : wordsOn(node, 'previousSibling').slice(-1));
  const after = edges.after ?? (/\s$/.test(own) ? ' ' : wordsOn(node, 'nextSibling').slice(0, 1));
  // Beyond emphasis beside, for the marks that must not face a word across the joined run.
  const runBefore = before || wordsRunOn(node, 'previousSibling').slice(-1);
  const runAfter = after || wordsRunOn(node, 'nextSibling').slice(0, 1);
  // A line's start escape (escapeText) at the inside's start is inside the line, after the
  // delimiter: it hid the mark it escapes from the checks below, so "word<b>-5%</b>x" was
  // "word**-5%**x", whose "**" opens on a mark after a word and shows so (the same for "+", "=", ">", "#").
  let body = content.replace(OPENING_LINE_START_ESCAPE, '$1');
  let lead = '';
  let tail = '';
  // Moved only when something of the inside stays, and blanks with them (a closing delimiter after a blank is none).
  const movable = (run: string | undefined): run is string => !!run && run.trim() !== '' && run.length < body.length;
  if (WORD_CHAR.test(runAfter)) {
    const run = TRAILING_MARKS.exec(body)?.[0];
    if (movable(run)) {
      tail = run;
      body = body.slice(0, -run.length);
      // "1**." is no list's marker: the number's escape goes ("**b  \n1**.x").
      if (tail.startsWith('\\') && NUMBER_AT_END.test(body)) {
        body = body.replace(NUMBER_AT_END, '$1');
        tail = tail.slice(1);
      }
    }
  }
  if (WORD_CHAR.test(runBefore)) {
    const run = LEADING_MARKS.exec(body)?.[0];
    if (movable(run)) {
      lead = run;
      body = body.slice(run.length);
    }
  }
  // A "*" or "_" left bare between blanks (escapeText), its blank now outside the delimiters,
  // touches one and joins its run: "<b>a * </b>b" was "**a *** b", "x<b>, * b</b>" "x, *** b**".
  body = body.replace(BARE_RUN_AT_EDGE, (run) => run.replace(/[*_]/g, '\\$&'));
  const outsideStart = lead ? lead.slice(-1) : before;
  const outsideEnd = tail ? tail[0]! : after;
  const d = pick(WORD_CHAR.test(outsideStart) || WORD_CHAR.test(outsideEnd));
  // Bold's delimiters chosen later (boldDelimiters) make no run with emphasis beside.
  const [opens, closes, joined] = typeof d === 'string' ? [d, d, true] : [...d, false];
  const stuckStart = WORD_CHAR.test(lead ? lead.slice(-1) : joined ? runBefore : before) && STUCK_START.test(body);
  const stuckEnd = WORD_CHAR.test(tail ? tail[0]! : joined ? runAfter : after) && STUCK_END.test(body);
  if (stuckStart || stuckEnd) return `<${tag}>${content}</${tag}>`;
  if (opens.startsWith('*') && !content.includes('\n') && unevenInStars(node, outsideStart, body, outsideEnd)) return `<${tag}>${content}</${tag}>`;
  return `${lead}${opens}${body}${closes}${tail}`;
}

type Flank = 'blank' | 'mark' | 'word';
/**
 * What CommonMark's flanking rules see in a character: '' is what a node beside writes (code's
 * backtick, a link's ")"), a line end for a <br>, or with no node the start or end of the block.
 */
function flankOf(ch: string, beside: Node | null): Flank {
  if (!ch) return !beside || beside.nodeName === 'BR' ? 'blank' : 'mark';
  return /\s/.test(ch) ? 'blank' : /[\p{P}\p{S}]/u.test(ch) ? 'mark' : 'word';
}
const leftFlanking = (prev: Flank, next: Flank): boolean => next !== 'blank' && (next !== 'mark' || prev !== 'word');
const rightFlanking = (prev: Flank, next: Flank): boolean => prev !== 'blank' && (prev !== 'mark' || next !== 'word');
const bothFlanking = (prev: Flank, next: Flank): boolean => leftFlanking(prev, next) && rightFlanking(prev, next);

/**
 * Whether an emphasis written in "*" inside emphasis of the other kind written so is one that
 * marked (the app's renderer) pairs wrongly. Inside an outer run it passes over an inner
 * delimiter a word touches on both sides (the rule of three, applied to the outer's length),
 * and over a closing one too where the outer opens against a word; it counts the others. So an
 * emphasis with one of each ended the outer early or never: "**see *un*likely**" and
 * "z*x **a** y*" showed their asterisks. HTML's tags are counted by neither.
 */
function unevenInStars(node: Node, start: string, body: string, end: string): boolean {
  const kind = EMPHASIS_KIND.get(node.nodeName);
  let outer = node.parentNode;
  while (outer && WORDS_AND_EMPHASIS.has(outer.nodeName) && (EMPHASIS_KIND.get(outer.nodeName) ?? kind) === kind) outer = outer.parentNode;
  if (!outer || !EMPHASIS_KIND.has(outer.nodeName)) return false;
  // A blank at the outer's start is moved outside it by turndown, as delimited reads it.
  const outerBefore = /^\s/.test(outer.textContent ?? '') ? ' ' : wordsOn(outer, 'previousSibling').slice(-1);
  const starred = EMPHASIS_KIND.get(outer.nodeName) === 'strong' || WORD_CHAR.test(outerBefore) || WORD_CHAR.test(wordsOn(outer, 'nextSibling').slice(0, 1));
  const prevNode = wordsNode(node, 'previousSibling', WORDS_ONLY);
  const nextNode = wordsNode(node, 'nextSibling', WORDS_ONLY);
  // At the outer's edge the delimiters are one run with its own, which marked reads right.
  if (!starred || (!start && !prevNode) || (!end && !nextNode)) return false;
  const first = edgeElement(outer, 'firstChild');
  const outerOpensAgainstWord = rightFlanking(flankOf(outerBefore, wordsNode(outer, 'previousSibling')), flankOf(first?.nodeType === TEXT_NODE ? Array.from((first.textContent ?? '').trimStart())[0] ?? '' : '', first));
  const opensCounted = !bothFlanking(flankOf(start, prevNode), flankOf(Array.from(body)[0] ?? '', null));
  const closesCounted = !bothFlanking(flankOf(Array.from(body).at(-1) ?? '', null), flankOf(end, nextNode)) && !outerOpensAgainstWord;
  return opensCounted !== closesCounted;
}

/**
 * Whether an emphasis holds marks alone ("-", "(") with a word's letter right beside it: no
 * delimiter can open or close there ("<b>-</b>text" was "****-text", "a<em>(</em>b" showed
 * "a*(*b"), so the marks go without their emphasis.
 */
function marksBesideWord(node: Node, own: string): boolean {
  if (WORD_CHAR.test(own)) return false;
  const before = /^\s/.test(own) ? '' : wordsOn(node, 'previousSibling').slice(-1);
  const after = /\s$/.test(own) ? '' : wordsOn(node, 'nextSibling').slice(0, 1);
  return WORD_CHAR.test(before) || WORD_CHAR.test(after);
}

/**
 * The words that touch a node's Markdown on one side: its neighbour's (wordsBeside), or, at the
 * edge of a plain element, what is beside that element. "<span><em>word</em></span>s" was
 * "_word_s", whose "_" cannot close before a letter.
 */
const wordsOn = (node: Node, side: 'previousSibling' | 'nextSibling'): string => wordsBeside(wordsNode(node, side), side);

/**
 * The words on one side of a node's Markdown as its delimiter run flanks: where emphasis of a
 * kind not merged into it is beside, that one's words, since both delimiters make one run.
 * "<b>a,</b><i>b</i>" was "**a,***b*", and "<b>(a</b><b>.</b><em>b</em>" merged to "**(a.***b*":
 * a run of three between a mark and a letter closes nothing, and the bold showed its asterisks.
 */
function wordsRunOn(node: Node, side: 'previousSibling' | 'nextSibling'): string {
  const words = wordsOn(node, side);
  const beside = wordsNode(node, side);
  if (words || !beside || !EMPHASIS_KIND.has(beside.nodeName)) return words;
  const text = beside.textContent ?? '';
  // A blank at that edge goes outside the emphasis beside, between the two delimiters.
  return /^\s|\s$/.test(side === 'nextSibling' ? text.slice(0, 1) : text.slice(-1)) ? ' ' : text;
}

/**
 * The node beside `node` on one side, out of the elements it ends (`through`). Plain ones write
 * nothing there; emphasis writes delimiters, which CommonMark reads as one run with those inside
 * it, flanking by what is beyond them: "<em><b>a,</b></em>b" was "***a,***b", whose closing run
 * touches a letter.
 */
function wordsNode(node: Node, side: 'previousSibling' | 'nextSibling', through: ReadonlySet<string> = WORDS_AND_EMPHASIS): Node | null {
  let n = node;
  for (;;) {
    while (!n[side] && n.parentNode && through.has(n.parentNode.nodeName)) n = n.parentNode;
    const beside = n[side];
    if (!beside || !writesNothingInLine(beside)) return beside;
    n = beside;
  }
}

/**
 * Whether a node writes nothing inside a line, so that what is beyond it touches what is before
 * it: a comment, an empty text, or such an element holding nothing else (an icon's
 * "<span class=…></span>", an anchor's "<a id=…></a>", "<code></code>"). They hid the word
 * beside emphasis: "a<em>b.</em><span></span>c" was "a*b.*c", whose "*" cannot close between a
 * mark and a letter. Not writesNothing, which takes a blank or a <br> for nothing between blocks.
 */
function writesNothingInLine(n: Node): boolean {
  if (n.nodeType === COMMENT_NODE) return true;
  if (n.nodeType === TEXT_NODE) return !n.textContent;
  if (n.nodeType !== ELEMENT_NODE || !INSIDE_ONLY.has(n.nodeName)) return false;
  for (let c = n.firstChild; c; c = c.nextSibling) if (!writesNothingInLine(c)) return false;
  return true;
}

/**
 * Bold's delimiters where emphasis touches them and no word does (U+FDD3 opening, U+FDD4
 * closing, noncharacters as LINE_START_ESCAPE is): both "__" when an emphasis's "*" touches
 * either and no "_" does, else "**". "<b>.</b><em>a</em>b" was "**.***a*b", one run of three that no "*" facing a letter
 * closes, and "a*b***.**" likewise; "__" beside a "_" would be such a run too ("_a___.__").
 * Between a "_" and a "*" neither would do ("_a_**..***b*c" showed "**..**"): HTML's tags then.
 */
const BOLD_OPENS = '\ufdd3';
const BOLD_CLOSES = '\ufdd4';
/** A pair, with the delimiter each side touches (looked at, not taken: it may touch the next pair too). */
const BOLD_PAIR = /(?<=(?<!\\)([*_])|)\ufdd3([^\ufdd3\ufdd4]*)\ufdd4(?=([*_])|)/g;
const boldDelimiters = (md: string): string =>
  md.includes(BOLD_OPENS)
    ? md.replace(BOLD_PAIR, (_m, before = '', inside: string, after = '') => {
        const touched = before + after;
        if (touched.includes('*') && touched.includes('_')) return `<strong>${inside}</strong>`;
        return touched.includes('*') ? `__${inside}__` : `**${inside}**`;
      })
    : md;

/**
 * Whether an emphasis holds emphasis of the other kind at one of its edges and more of it
 * inside: their delimiters there make one run of three ("***"), which CommonMark may close at
 * the next inner one, "<em><b>a</b>a<b>a</b></em>a" being "***a**a**a***a", whose second "**"
 * closed the italic. No delimiter avoids that there (a "_" cannot close before a letter), so
 * the emphasis is written as HTML, whose tags the inner delimiters read as marks. One inner
 * emphasis ("***a**a*") is read right, and so is a run of "_" beside "**"; on more than one
 * line a tag could start a line and read as an HTML block, so those stay as they were.
 */
function crowded(content: string, node: Node): boolean {
  const kind = EMPHASIS_KIND.get(node.nodeName);
  if (content.includes('\n') || !kind) return false;
  const other = (n: Node | null): boolean => !!n && EMPHASIS_KIND.has(n.nodeName) && EMPHASIS_KIND.get(n.nodeName) !== kind;
  if (meetsItsKind(node, kind, 'previousSibling') || meetsItsKind(node, kind, 'nextSibling')) return true;
  const inside = Array.from((node as Element).querySelectorAll('em,i,strong,b')).filter(other).length;
  // Touching the other kind outside, its delimiters are one run with that one's too ("*b**a**c***d**e").
  if (inside > 0 && (other(touching(node, 'previousSibling')) || other(touching(node, 'nextSibling')))) return true;
  if (!other(edgeElement(node, 'firstChild')) && !other(edgeElement(node, 'lastChild'))) return false;
  return inside > 1;
}

/**
 * Whether emphasis of the other kind touches a node on one side and holds emphasis of the
 * node's kind at that edge: the delimiters of all three make one run, "<em>a<b>b</b></em><b>c</b>"
 * being "*a**b*****c**", which showed its asterisks.
 */
function meetsItsKind(node: Node, kind: string, side: 'previousSibling' | 'nextSibling'): boolean {
  const edge = side === 'previousSibling' ? 'lastChild' : 'firstChild';
  for (let n = touching(node, side); n && EMPHASIS_KIND.has(n.nodeName); n = edgeElement(n, edge)) if (EMPHASIS_KIND.get(n.nodeName) === kind) return n !== node;
  return false;
}

/** The element whose Markdown starts (or ends) a node's: through plain elements, past blanks, which turndown moves out. */
function edgeElement(node: Node, edge: 'firstChild' | 'lastChild'): Node | null {
  const step = edge === 'firstChild' ? 'nextSibling' : 'previousSibling';
  let n = node[edge];
  while (n) {
    if (n.nodeType === 3 && !(n.textContent ?? '').trim()) n = n[step];
    else if (n.nodeType === 1 && WORDS_ONLY.has(n.nodeName)) n = n[edge];
    else return n;
  }
  return null;
}

/** Whether emphasis of another kind is beside a node's Markdown, its delimiters touching the node's. */
const besideEmphasis = (node: Node): boolean =>
  EMPHASIS_KIND.has(plainEdge(wordsNode(node, 'previousSibling'), 'previousSibling')?.nodeName ?? '') ||
  EMPHASIS_KIND.has(plainEdge(wordsNode(node, 'nextSibling'), 'nextSibling')?.nodeName ?? '');

/** Whether a node's Markdown ends in an inline code's backticks: a <code>, or a plain element ending in one. */
function endsInCode(node: Node | null): boolean {
  let n = node;
  while (n?.nodeType === 1 && WORDS_ONLY.has(n.nodeName)) n = n.lastChild;
  return n?.nodeName === 'CODE' && !!n.textContent;
}

/** Inline code's text inside an HTML <code>, where Markdown still reads its marks and references. */
const codeAsHtml = (code: string): string => escapeHtml(code.replace(/\r?\n|\r/g, ' ')).replace(/[\\`*_[\]~]/g, '\\$&');

/** Elements turndown writes as their words alone, so their letters touch what is beside them. */
const WORDS_ONLY = tags('span,font,u,small,big,abbr,time,bdi,bdo,data,label,cite,q,dfn,var,samp,tt,acronym');
/** Emphasis of one kind, by the rule that writes it: two of a kind side by side are one (mergeEmphasis). */
const EMPHASIS_KIND = new Map<string, string>([...[...tags('em,i')].map((t) => [t, 'em'] as const), ...[...tags('strong,b')].map((t) => [t, 'strong'] as const)]);
const WORDS_AND_EMPHASIS = new Set([...WORDS_ONLY, ...EMPHASIS_KIND.keys()]);
/** Elements whose Markdown is their inside's alone: plain ones, emphasis, code, a link (emptyLink). */
const INSIDE_ONLY = new Set([...WORDS_AND_EMPHASIS, 'CODE', 'A']);

/**
 * A line break at the start or the end of emphasis, a link or a plain element (a <span>) as
 * its neighbour, where it shows the same. Turndown trims such an element's Markdown at both
 * ends when its text has a blank at either, and a line break at the other end went with the
 * blank: "Intro<b><br>Opening hours </b>daily" was "Intro**Opening hours** daily", and a link
 * holding only a line break, gone as an empty link, took it along ("See<a…><br></a>next" was
 * "Seenext"). Code's breaks are its lines (codeLines), and stay.
 */
function breaksOutOfWords(root: HTMLElement): void {
  const breaks = Array.from(root.getElementsByTagName('br'));
  // From the last, so that of a run of breaks at an end the outermost leaves first and the rest follow in order.
  for (const br of [...breaks].reverse()) {
    for (let p = br.parentNode; p && p !== root && BREAKS_OUT_OF.has(p.nodeName) && edgeChild(p, 'lastChild') === br; p = br.parentNode) p.parentNode!.insertBefore(br, p.nextSibling);
  }
  for (const br of breaks) {
    for (let p = br.parentNode; p && p !== root && BREAKS_OUT_OF.has(p.nodeName) && edgeChild(p, 'firstChild') === br; p = br.parentNode) p.parentNode!.insertBefore(br, p);
  }
}
const BREAKS_OUT_OF = new Set([...WORDS_AND_EMPHASIS, 'A']);

/** A node's first (or last) child past blanks. */
function edgeChild(node: Node, edge: 'firstChild' | 'lastChild'): Node | null {
  let n = node[edge];
  while (n?.nodeType === TEXT_NODE && !(n.textContent ?? '').trim()) n = edge === 'firstChild' ? n.nextSibling : n.previousSibling;
  return n;
}

/**
 * Emphasis right after emphasis of its kind ("<em>a</em><i>b</i>") as one element: the two
 * delimiters between them made one run, "_a__b_" and "**a****b**", which CommonMark reads as
 * one emphasis showing the run as text. One element shows as the two did. Emphasis that is all
 * of a plain element ("<span><em>a</em></span>") is put around it first, as it shows the same.
 */
function mergeEmphasis(root: HTMLElement): void {
  for (const el of Array.from(root.querySelectorAll('em,i,strong,b'))) {
    // An SVG's <b> is no emphasis (its name stays lower case).
    const kind = EMPHASIS_KIND.get(el.nodeName);
    if (!kind) continue;
    if (withinItsKind(el, kind, root)) {
      // Not replaceWith(...children): domino, turndown's DOM, replacing a first child with no
      // nodes empties the parent, and "<em><i></i>Note: …</em>" (an icon's empty <i>) lost its words.
      while (el.firstChild) el.parentNode!.insertBefore(el.firstChild, el);
      el.remove();
      continue;
    }
    for (let wrap = el.parentNode; wrap && wrap !== root && WORDS_ONLY.has(wrap.nodeName) && wrap.firstChild === el && wrap.lastChild === el; wrap = el.parentNode) {
      wrap.parentNode!.replaceChild(el, wrap);
      while (el.firstChild) wrap.appendChild(el.firstChild);
      el.appendChild(wrap);
    }
    const prev = touching(el, 'previousSibling');
    if (!prev || !el.parentNode || EMPHASIS_KIND.get(prev.nodeName) !== kind) continue;
    while (el.firstChild) prev.appendChild(el.firstChild);
    el.remove();
  }
}

/**
 * Whether emphasis sits inside emphasis of its kind, which already shows it so: its own
 * delimiters closed the outer's ("<b>a<b>b</b></b>" was "**a**b****", "b" not bold).
 */
function withinItsKind(el: Element, kind: string, root: HTMLElement): boolean {
  for (let n = el.parentNode; n && n !== root; n = n.parentNode) if (EMPHASIS_KIND.get(n.nodeName) === kind) return true;
  return false;
}

/**
 * The element whose Markdown ends where a node's starts (or starts where it ends), through the
 * edges of plain elements, which write no marks there: "<span>x<em>a</em></span><em>b</em>y"
 * was "x*a**b*y", one emphasis showing "a**b". Their words moving into one emphasis show as they did.
 */
const touching = (node: Node, side: 'previousSibling' | 'nextSibling'): Node | null => plainEdge(wordsNode(node, side, WORDS_ONLY), side);

/** What a node beside on `side` writes first facing it: its child at that edge, through plain elements, which write nothing there. */
function plainEdge(node: Node | null, side: 'previousSibling' | 'nextSibling'): Node | null {
  let n = node;
  const [edge, inward] = side === 'previousSibling' ? (['lastChild', 'previousSibling'] as const) : (['firstChild', 'nextSibling'] as const);
  for (;;) {
    if (n?.nodeType !== 1 || !WORDS_ONLY.has(n.nodeName)) return n;
    let child = n[edge];
    while (child && writesNothingInLine(child)) child = child[inward];
    if (!child) return n;
    n = child;
  }
}
/**
 * The words a node puts into the Markdown as they are, on the side facing `side`'s way back: a
 * text's, or a plain element's text at that edge (not a link's, which ends in ")", nor that of
 * code in a <span>, which ends in a backtick).
 */
function wordsBeside(n: Node | null, side: 'previousSibling' | 'nextSibling'): string {
  const edge = plainEdge(n, side);
  return edge?.nodeType === 3 ? (edge.textContent ?? '') : '';
}

/** What makes a link hold blocks rather than words (a card): the elements turndown writes as blocks. */
const LINK_BLOCKS = tags(
  'address,article,aside,audio,blockquote,canvas,center,dd,dir,div,dl,dt,fieldset,figcaption,figure,footer,form,h1,h2,h3,h4,h5,h6,header,hgroup,hr,li,main,menu,nav,noframes,noscript,ol,output,p,pre,section,table,tbody,td,tfoot,th,thead,tr,ul',
);
const KBD = tags('kbd');
const BR = tags('br');
const PRE = tags('pre');
const HTML_CELL_BLOCKS = tags(`${LAYOUT_BLOCKS},pre`);
const TABLE = tags('table');
const CELLS = tags('td,th');
const HEADINGS = tags('h1,h2,h3,h4,h5,h6');
const PICTURES = tags('img,picture,video,audio');

/** A list of tag names as turndown's DOM (domino) names HTML elements: upper case. */
function tags(list: string): ReadonlySet<string> {
  return new Set(list.split(',').map((t) => t.toUpperCase()));
}

/**
 * Whether an element inside `node` is one of `names`: node.querySelector for a list of tags.
 * The rules below ask it of every link and line break; domino, turndown's DOM, compiles the
 * selector at every call (and closest() at every ancestor), which was half of turndown's time
 * on a page of many links and inline code.
 */
function holdsTag(node: Node, names: ReadonlySet<string>): boolean {
  for (let n = node.firstChild; n; n = n.nextSibling) {
    if (n.nodeType === 1 && (names.has(n.nodeName) || holdsTag(n, names))) return true;
  }
  return false;
}

/** The table a cell is in, as the tables plugin finds it. */
function tableOf(node: Node): HTMLTableElement | undefined {
  for (let p = node.parentNode; p; p = p.parentNode) if (p.nodeName === 'TABLE') return p as HTMLTableElement;
  return undefined;
}

/**
 * Whether the tables plugin writes a table's cells as they are, not as a table: one cell, or a
 * table inside. Asked once a table, as the plugin does: per cell, a table of 2,000 rows walked
 * itself 20,000 times.
 */
const skippedTables = new WeakMap<Node, boolean>();
function pluginSkipsTable(table: HTMLTableElement): boolean {
  let skips = skippedTables.get(table);
  if (skips === undefined) {
    const rows = table.rows;
    skips = (rows.length === 1 && rows[0]!.childNodes.length <= 1) || holdsTag(table, TABLE);
    skippedTables.set(table, skips);
  }
  return skips;
}

/** How many cells a table's rows hold: the tables plugin reads a table of one cell as none. */
function tableCellCount(table: Node): number {
  let n = 0;
  for (const row of Array.from((table as HTMLTableElement).rows)) n += tableCells(row).length;
  return n;
}

/** Whether an ancestor of `node` is one of `names`: node.parentElement.closest for a list of tags. */
function insideTag(node: Node, names: ReadonlySet<string>): boolean {
  for (let n = node.parentNode; n; n = n.parentNode) if (n.nodeType === 1 && names.has(n.nodeName)) return true;
  return false;
}

/** Elements that show something of another address, with what to call one that has no title (a frame: by its host). */
const EMBEDS = new Map([
  ['IFRAME', ''],
  ['VIDEO', 'video'],
  ['AUDIO', 'audio'],
]);

/** An embed's address when it is on the web (http, https, or scheme-relative as frames often are), else undefined. */
function embedSource(node: Node): string | undefined {
  const el = node as HTMLElement;
  const src = (el.getAttribute('src') || (el.nodeName === 'IFRAME' ? '' : el.querySelector('source[src]')?.getAttribute('src')) || '').trim();
  const url = src.startsWith('//') ? `https:${src}` : src;
  if (!/^https?:\/\/[^\s()<>]+$/i.test(url)) return undefined;
  try {
    return new URL(url).host ? url : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Whether a <sup> or <sub> holds an exponent or an index ("6", "-3", "n+1", "2", a matrix's
 * "i,j"): short, and only letters, digits and signs, in parts parted by commas. A footnote
 * marker ("[1]") or an icon reads well as it is.
 */
const isScript = (text: string): boolean => /^(?=.{1,12}$)[\p{L}\p{N}+\-−=()′″*]{1,8}(?:,[\p{L}\p{N}+\-−=()′″*]{1,8})*$/u.test(text.trim());

/** What supMark reads of a <sup> (linkedom's). */
interface SupNode {
  textContent: string | null;
  previousSibling: { nodeType: number; textContent: string | null } | null;
  querySelectorAll(selector: string): ArrayLike<{ textContent: string | null }>;
}

/** The suffix of an ordinal number as it is set raised: 21st, 2nd, 3rd, 4th; 1er, 2e, 3ème (French); 1o, 1a (Spanish, Italian, Portuguese). */
const ORDINAL = /^(?:st|nd|rd|th|e|er|re|ère|ème|eme|es|ers|res|o|a|os|as)$/i;

/**
 * How text mode shows a raised number or word: "^" before an exponent (10^6, not 106); "]" for a
 * note's reference, a raised link alone ("1"), which text mode writes as "[1]", as a note's
 * number reads in running text; and nothing for an ordinal's suffix after its digits (the 21st
 * century), or for other raised text (a bracketed "[2]", an icon). A note's number and an
 * ordinal read as exponents: "the article^1", "the 21^st century".
 */
function supMark(sup: SupNode): '^' | ']' | '' {
  const text = (sup.textContent ?? '').trim();
  if (!isScript(text)) return '';
  const links = sup.querySelectorAll('a[href]');
  if (links.length === 1 && (links[0]!.textContent ?? '').trim() === text) return ']';
  const before = sup.previousSibling?.nodeType === 3 ? (sup.previousSibling.textContent ?? '') : '';
  if (/\d$/.test(before) && ORDINAL.test(text)) return '';
  return '^';
}

/** The linkedom node types markdownOfTree reads. */
interface SourceNode {
  innerHTML?: string;
  querySelector?(selectors: string): unknown;
  nodeType: number;
  localName?: string;
  data?: string;
  attributes?: ArrayLike<{ name: string; value: string }>;
  firstChild: SourceNode | null;
  nextSibling: SourceNode | null;
}

/**
 * The Markdown of a linkedom element's contents, copied node by node into the kept document
 * instead of serialized and parsed again: over the article benchmark's 91 pages, Readability's
 * 4 test pages and turndown's 147 cases the output is identical to markdownOf(innerHTML),
 * and the serialize-and-parse was ~14% of extractArticle's CPU profile. Comments are copied
 * too (turndown collapses the whitespace on either side of one apart). Adjacent text nodes
 * (which Readability's edits leave) become one, as a parse makes them: turndown escapes a
 * '>' or '#' at the start of each text node. A <template>'s contents stay out, as a parse
 * puts them in its content fragment, which turndown never reads. A tree with table markup is
 * serialized and parsed as before (TABLE_PARTS).
 */
export function markdownOfTree(src: SourceNode, page?: string): string {
  if (src.querySelector?.(TABLE_PARTS)) return markdownOf(src.innerHTML ?? '', page);
  const root = scratchRoot();
  const doc = root.ownerDocument;
  const copy = (from: SourceNode, to: Node): void => {
    for (let n = from.firstChild; n; n = n.nextSibling) {
      if (n.nodeType === 3) {
        const last = to.lastChild;
        if (last && last.nodeType === 3) (last as Text).appendData(n.data ?? '');
        else to.appendChild(doc.createTextNode(n.data ?? ''));
      } else if (n.nodeType === 1) {
        const name = n.localName ?? 'span';
        const el = element(doc, name);
        for (const a of Array.from(n.attributes ?? [])) {
          try {
            el.setAttribute(a.name, a.value);
          } catch {
            // A name the DOM refuses ("a\"b"): no turndown rule reads such an attribute.
          }
        }
        to.appendChild(el);
        if (name !== 'template') copy(n, el);
      } else if (n.nodeType === 8) {
        // Kept: turndown's whitespace pass treats the text on either side of a comment apart.
        to.appendChild(doc.createComment(n.data ?? ''));
      }
    }
  };
  copy(src, root);
  return convert(root, page);
}

/**
 * Table markup, which an HTML parser rebuilds (a stray <td> dropped, text inside <table> moved
 * before it, a <tbody> added) and the tables plugin relies on: a cell outside a table or text
 * among rows makes it throw. A tree holding any goes through markdownOf's parse instead.
 */
const TABLE_PARTS = 'table,caption,col,colgroup,tbody,thead,tfoot,tr,td,th';

/** An element of that name, or a <span> for a name createElement refuses (a parse would keep it, inline all the same). */
function element(doc: Document, name: string): Element {
  return doc.createElement(validName(doc, name) ? name : 'span');
}

const BLOCK = new Set([
  'P', 'DIV', 'SECTION', 'ARTICLE', 'HEADER', 'FOOTER', 'ASIDE', 'MAIN', 'NAV', 'H1', 'H2', 'H3', 'H4', 'H5', 'H6', 'UL', 'OL', 'LI',
  'TABLE', 'TR', 'BLOCKQUOTE', 'PRE', 'FIGURE', 'FIGCAPTION', 'DL', 'DT', 'DD', 'HR', 'ADDRESS', 'DETAILS', 'SUMMARY',
]);

type TextNode = { nodeType: number; nodeName: string; textContent: string | null; childNodes: ArrayLike<unknown>; previousSibling?: unknown };
// And what a browser shows only where it cannot play or draw the element: a <video>'s "Your
// browser does not support the video tag", a <canvas>'s "Your browser does not support canvas".
const UNREAD = new Set(['SCRIPT', 'STYLE', 'NOSCRIPT', 'TEMPLATE', 'VIDEO', 'AUDIO', 'CANVAS', 'IFRAME']);

/**
 * Lines without runs of blanks or blanks at their ends, and at most one empty line in a row.
 * A tab is the one between two cells of a table row (textOf), kept so columns stay apart; a
 * data table's (CELL_MARK) stays at a line's start too, where its first cells are empty.
 */
const tidyLines = (s: string): string =>
  s
    .split('\n')
    .map((l) =>
      l
        .replace(/ +/g, ' ')
        .replace(CELL_APART, '$1')
        .replace(LINE_ENDS, ''),
    )
    .join('\n')
    .replace(/\n{3,}/g, '\n\n');

/**
 * Code as a fenced block of its own, named by `lang`; the fence is longer than any run of
 * backticks in the code (counted in a loop: 200,000 runs overflowed Math.max(...)).
 */
function fencedBlock(code: string, lang = ''): string {
  let longest = 2;
  for (const m of code.matchAll(/`+/g)) longest = Math.max(longest, m[0].length);
  const fence = '`'.repeat(longest + 1);
  return `\n\n${fence}${lang}\n${code}\n${fence}\n\n`;
}

/**
 * The lines of code written with <br>s and no <pre>, as a browser shows them: the markup's
 * own line ends and runs of blanks are one space, a line's blanks at its ends go, and its
 * no-break spaces (the indent such editors write) are spaces.
 */
function brLines(code: TextNode): string {
  const out: string[] = [];
  const walk = (node: TextNode): void => {
    if (node.nodeType === 3) out.push((node.textContent ?? '').replace(/[ \t\r\n\f]+/g, ' '));
    else if (node.nodeType === 1 && !UNREAD.has(node.nodeName.toUpperCase())) {
      if (node.nodeName.toUpperCase() === 'BR') out.push('\n');
      for (const c of Array.from(node.childNodes)) walk(c as TextNode);
    }
  };
  walk(code);
  return out
    .join('')
    .split('\n')
    .map((l) => l.replace(/^ +| +$/g, '').replace(/\u00a0/g, ' '))
    .join('\n')
    .replace(/^\n+|\n+$/g, '');
}

/** A <pre>'s text as laid out: its blanks and line breaks are the text (code, verse, a table in ASCII). */
function preText(pre: TextNode): string {
  const out: string[] = [];
  const walk = (node: TextNode): void => {
    if (node.nodeType === 3) out.push(node.textContent ?? '');
    else if (node.nodeType === 1 && !UNREAD.has(node.nodeName.toUpperCase())) {
      if (node.nodeName.toUpperCase() === 'BR') out.push('\n');
      for (const c of Array.from(node.childNodes)) walk(c as TextNode);
    }
  };
  for (const c of Array.from(pre.childNodes)) walk(c as TextNode);
  return out.join('').replace(/\r\n?/g, '\n').replace(/^(?:[ \t]*\n)+|\s+$/g, '');
}

/** Blocks that end a line, not a paragraph: a list item, a table row, a term and its definition. */
const LINE_BLOCK = new Set(['LI', 'TR', 'DT', 'DD']);

/** A table cell, past the blanks between it and the node given (a row's cells come apart by text nodes of blanks). */
function isCell(node: unknown): boolean {
  let n = node as TextNode | null | undefined;
  while (n && n.nodeType === 3 && !(n.textContent ?? '').trim()) n = n.previousSibling as typeof n;
  const name = n?.nodeType === 1 ? n.nodeName.toUpperCase() : '';
  return name === 'TD' || name === 'TH';
}

/**
 * Plain text with paragraph breaks (textContent would run paragraphs together); a <pre> keeps
 * its layout. A list item, a table row, a term and a <br> end a line; other blocks a paragraph.
 * The breaks on either side of a block's edge are one break, the larger, so the items of a
 * list are lines, not paragraphs; two <br> in a row, as old pages part paragraphs, are two.
 * An item of a list of bullets starts with one, and a nested list's items are indented two
 * blanks a level, as a browser shows them: the items were lines like any other, so a list
 * read as short paragraphs and a nested list as more items of the outer one. A quotation's
 * lines start with "> " (its blank lines ">"), a quote's inside a quote with "> > ".
 * Without `captions`, a figure's <figcaption> is left out: an article's text has none (the
 * pruning pass keeps one only for the Markdown and html, under its picture).
 */
export function textOf(root: { childNodes: ArrayLike<unknown> }, { captions = true }: { captions?: boolean } = {}): string {
  // Runs of flowing text, each tidied alone, between the preformatted blocks kept as they are.
  const done: string[] = [];
  let out: string[] = [];
  // Line breaks owed before the next text: 1 ends a line, 2 a paragraph.
  let owed = 0;
  const owe = (n: number): void => {
    owed = Math.max(owed, n);
  };
  // The lists the walk is in, and the marker owed before the next text of an item.
  const lists: ListState[] = [];
  // The tables the walk is in (innermost last), and how many cells it is in.
  const tables: TableState[] = [];
  let cells = 0;
  let marker: string | null = null;
  // The list items and definitions the walk is in: a line of theirs that no marker starts (an
  // item's second paragraph, a line after a <br>, a definition) is indented under the item,
  // as a browser shows it; flush, "• A\n\nB" read B as a paragraph after the list.
  let items = 0;
  let definitions = 0;
  const hang = (): number => (items > 0 ? lists.length : 0) + definitions;
  // The quotes the walk is in: each at the indent it opened at, and whether a line of it was
  // written yet (a blank line is the quote's only once the quote has begun).
  const quotes: { at: number; begun: boolean }[] = [];
  // A line's start `indent` levels deep: the indents, with each quote's mark after the indents it opened at.
  const lineStart = (indent: number, within = quotes): string => {
    let s = '';
    let q = 0;
    for (let level = 0; level <= indent; level++) {
      for (; q < within.length && within[q]!.at <= level; q++) s += QUOTE_MARK;
      if (level < indent) s += INDENT_MARK;
    }
    return s;
  };
  // Whether the next text starts a line.
  let fresh = true;
  const put = (s: string): void => {
    if (owed) {
      // A blank line inside a quote is the quote's too (">"), so its paragraphs read as one quote.
      const begun = quotes.filter((q) => q.begun);
      out.push(begun.length ? `\n${`${lineStart(begun.at(-1)!.at, begun)}\n`.repeat(owed - 1)}` : '\n'.repeat(owed));
      fresh = true;
    }
    owed = 0;
    // An item's marker, '' before a task's box, which is its marker.
    if (marker !== null) {
      out.push(marker);
      fresh = false;
    } else if (fresh && s !== '\n' && (hang() > 0 || quotes.length > 0)) {
      // tidyLines keeps the blanks after the indent: the line's own go first.
      s = s.replace(/^[ \t]+/, '');
      if (!s) return;
      out.push(lineStart(hang()));
    }
    marker = null;
    out.push(s);
    if (s) fresh = s.endsWith('\n');
    if (s.trim()) for (const q of quotes) q.begun = true;
  };
  const walk = (node: TextNode): void => {
    if (node.nodeType === 3) {
      const text = (node.textContent ?? '').replace(INVISIBLE, '').replace(OUR_MARKS, '').replace(/\s+/g, ' ');
      // Blanks beside a break are no text (the indentation between two list items).
      if (text !== ' ' || !owed) put(text);
      return;
    }
    if (node.nodeType !== 1) return;
    const name = node.nodeName.toUpperCase();
    if (UNREAD.has(name) || (name === 'FIGCAPTION' && !captions)) return;
    // In a cell of a table with header cells (data, not a page's layout), a line break is a
    // blank: the row stays one line, its cells apart by tabs, where "line one<br>line two" made
    // the cell's second line a row of its own under the wrong columns.
    if (name === 'BR') return put(tables.at(-1)?.data && cells > 0 ? ' ' : '\n');
    if (name === 'MATH') {
      const math = node as unknown as MathNode;
      const block = isDisplayMath(math);
      if (block) owe(2);
      put(mathText(math));
      if (block) owe(2);
      return;
    }
    // 10^6, not 106; a subscript (H2O) reads as it is; a note's number as "[1]" (supMark).
    const sup = name === 'SUP' ? supMark(node as unknown as SupNode) : '';
    if (sup) put(sup === ']' ? '[' : sup);
    const pre = name === 'PRE' ? preText(node) : undefined;
    if (pre) {
      // On a line of its own after a blank one (in a quote, the quote's blank line, ">").
      if (owed && marker === null) {
        owe(2);
        put('');
      } else put('\n');
      // In a quote each of its lines is marked as the quote's, in a list item indented under
      // the item, as a browser shows it (flush, an item's code read as text after the list);
      // elsewhere it stays as laid out.
      const start = quotes.length || hang() > 0 ? lineStart(hang()).replace(INDENT, '  ').replace(QUOTES, '> ') : '';
      const lines = pre.replace(INVISIBLE, '').split('\n');
      done.push(tidyLines(out.join('')), start ? lines.map((l) => (l ? start + l : start.trimEnd())).join('\n') : lines.join('\n'));
      if (quotes.length) for (const q of quotes) q.begun = true;
      out = [];
      owed = 2;
      return;
    }
    if (pre === '') return;
    const block = BLOCK.has(name);
    // Blocks inside a cell of a data table (its paragraphs, a <div>) are blanks, as its line
    // breaks are: the row stays one line. A cell of two paragraphs broke its row in three, and
    // the cells after it were lines of their own, under no column.
    const inCell = (): boolean => !!tables.at(-1)?.data && cells > 0;
    if (block) {
      if (inCell()) put(' ');
      else owe(1);
    }
    const cell = name === 'TD' || name === 'TH';
    // Cells of a row apart by a tab, as a spreadsheet copies them ("Bob Jr.\t5\t6", where one
    // space made "Bob Jr. 5 6" and no one could tell the columns); in a data table each cell
    // after as many tabs as columns come before it (cellColumn).
    const data = tables.at(-1)?.data ? tables.at(-1) : undefined;
    if (cell && data) {
      const column = cellColumn(data, node as unknown as SpanCell);
      put(CELL_MARK.repeat(column - data.tabs));
      data.tabs = column;
    } else if (cell && isCell(node.previousSibling)) put('\t');
    const row = name === 'TR' ? tables.at(-1) : undefined;
    if (row) row.tabs = row.column = 0;
    const table = name === 'TABLE';
    if (table) tables.push(tableState(!!(node as unknown as { querySelector(s: string): unknown }).querySelector('th')));
    if (cell) cells++;
    const list = name === 'UL' || name === 'OL';
    if (list) lists.push(listState(node as unknown as ListNode));
    const quote = name === 'BLOCKQUOTE';
    if (quote) quotes.push({ at: hang(), begun: false });
    const within = name === 'LI' && lists.length > 0;
    if (within) marker = `${lineStart(lists.length - 1 + definitions)}${itemMarker(node as unknown as ItemNode, lists.at(-1)!, lists.length)}`;
    if (within) items++;
    const definition = name === 'DD';
    if (definition) definitions++;
    for (const c of Array.from(node.childNodes)) walk(c as TextNode);
    if (list) lists.pop();
    if (quote) quotes.pop();
    if (definition) definitions--;
    if (within) items--;
    if (cell) cells--;
    if (table) tables.pop();
    if (row) endRow(row);
    if (sup === ']') put(']');
    // An item without text has no marker to show.
    if (within) marker = null;
    // A nested list ends its item's line, not a paragraph: the outer list's next item follows.
    if (block) {
      if (inCell()) put(' ');
      else owe(LINE_BLOCK.has(name) || (list && lists.length > 0) ? 1 : 2);
    }
  };
  for (const c of Array.from(root.childNodes)) walk(c as TextNode);
  done.push(tidyLines(out.join('')));
  return done
    .map((part, i) => (i % 2 ? part : marks(part)))
    .join('')
    .replace(/^\n+|\s+$/g, '');
}

/**
 * A table the text walk is in: whether it holds data (it has header cells; else it lays a page
 * out), and in its row being read the column the next cell takes, how many tabs were written,
 * and per column how many rows below a rowspan still covers it.
 */
interface TableState {
  data: boolean;
  column: number;
  tabs: number;
  covered: number[];
  /** How many columns spans may still add (MAX_SPAN_CELLS); past it a cell is one column. */
  budget: number;
}

const tableState = (data: boolean): TableState => ({ data, column: 0, tabs: 0, covered: [], budget: MAX_SPAN_CELLS });

/** What cellColumn reads of a cell. */
interface SpanCell {
  getAttribute(name: string): string | null;
}

/**
 * The column a data table's cell stands in, as a browser lays the table out: after the columns
 * that cells above cover with their rowspan, and after the columns a colspan before it takes.
 * The text had the row's cells one after the other, so a row under a rowspan, or one whose
 * first cells were empty, read one column to the left ("3\t4" under "Alice\t1\t2": 3 under
 * the names), and a cell after a colspan sat under the wrong header.
 */
function cellColumn(table: TableState, cell: SpanCell): number {
  while ((table.covered[table.column] ?? 0) > 0) table.covered[table.column++]!--;
  const at = table.column;
  const span = (name: string): number => Math.min(Math.max(integerAttribute(cell, name) ?? 1, 1), 1000);
  let across = span('colspan');
  let down = span('rowspan');
  if ((table.budget -= across * down - 1) < 0) across = down = 1;
  if (down > 1) for (let k = 0; k < across; k++) table.covered[at + k] = Math.max(table.covered[at + k] ?? 0, down - 1);
  table.column = at + across;
  return at;
}

/** A row's end: the columns after its last cell that a rowspan covered are covered one row less. */
function endRow(table: TableState): void {
  for (let k = table.column; k < table.covered.length; k++) if ((table.covered[k] ?? 0) > 0) table.covered[k]!--;
  // Columns no longer covered at the end go, so a long table's rows do not each walk them.
  while (table.covered.length > 0 && !table.covered.at(-1)) table.covered.pop();
}

/** What textOf reads of a list item. */
interface ItemNode {
  firstChild: { nodeType: number; textContent: string | null; nextSibling: unknown; getAttribute?(name: string): string | null } | null;
  getAttribute(name: string): string | null;
}

/** What textOf reads of a list: its kind, and an ordered list's start, direction, numbering type and items. */
interface ListNode {
  nodeName: string;
  getAttribute(name: string): string | null;
  hasAttribute(name: string): boolean;
  childNodes: ArrayLike<{ nodeName: string }>;
}

/** A list the walk is in: an ordered one counts its items from `next` by `step` (-1 when reversed). */
interface ListState {
  ordered: boolean;
  next: number;
  step: number;
  type: string;
}

/** An integer attribute as HTML reads one (leading blanks, a sign, digits, anything after), else undefined. */
function integerAttribute(el: { getAttribute(name: string): string | null }, name: string): number | undefined {
  const m = /^[\t\n\f\r ]*([-+]?\d+)/.exec(el.getAttribute(name) ?? '');
  return m ? Number.parseInt(m[1]!, 10) : undefined;
}

/**
 * An ordered list counts from its start (1, or <ol start=N>); a reversed one counts down, from
 * its number of items when it names no start, as a browser numbers them.
 */
function listState(list: ListNode): ListState {
  const ordered = list.nodeName.toUpperCase() === 'OL';
  const step = ordered && list.hasAttribute('reversed') ? -1 : 1;
  const items = Array.from(list.childNodes).filter((c) => c.nodeName.toUpperCase() === 'LI').length;
  const next = integerAttribute(list, 'start') ?? (step < 0 ? items : 1);
  return { ordered, next, step, type: list.getAttribute('type') ?? '1' };
}

/**
 * Two blanks of a nested item's indent, kept apart from the text's own blanks until tidyLines,
 * which takes blanks at a line's start, has run. A control character no page's text keeps
 * (textOf drops any from the page).
 */
const INDENT_MARK = '\u0001';
const INDENT = new RegExp(INDENT_MARK, 'g');
/**
 * A quote's mark at a line's start, kept apart likewise: "> " in the text, as email and
 * Markdown mark a quotation, ">" alone on a blank line of the quote. Text mode had no mark for
 * a <blockquote>, so a quote read as the author's own words.
 */
const QUOTE_MARK = '\u0002';
/**
 * The tab before a cell of a data table, kept apart likewise: it stays where a row's first
 * cells are empty (tidyLines takes a line's leading tabs).
 */
const CELL_MARK = '\u0003';
const CELL_MARKS = new RegExp(CELL_MARK, 'g');
/** A tab between cells with the blanks beside it, and a line's blanks at its start and blanks or tabs at its end (tidyLines). */
const CELL_APART = new RegExp(` ?([\t${CELL_MARK}]) ?`, 'g');
const LINE_ENDS = new RegExp(`^[ \t]+|[ \t${CELL_MARK}]+$`, 'g');
/** Our marks, taken out of the page's own text so none can pass for one. */
const OUR_MARKS = new RegExp(`[${INDENT_MARK}${QUOTE_MARK}${CELL_MARK}]`, 'g');
/** A quote's mark with nothing after it on its line but marks: a blank line of the quote. */
const BARE_QUOTE = new RegExp(`${QUOTE_MARK}(?=[${INDENT_MARK}${QUOTE_MARK}]*$)`, 'gm');
const QUOTES = new RegExp(QUOTE_MARK, 'g');
const marks = (s: string): string => s.replace(BARE_QUOTE, '>').replace(INDENT, '  ').replace(QUOTES, '> ').replace(/(?<=>) +$/gm, '').replace(CELL_MARKS, '\t');

/** Bullets by depth as a browser draws them (disc, circle, square). */
const BULLETS = ['• ', '◦ ', '▪ '];

/** n in letters (a … z, aa …) as <ol type="a"> counts; 0 and below stay digits, as a browser shows them. */
function alphaNumber(n: number): string {
  if (n <= 0) return String(n);
  let s = '';
  for (let k = n; k > 0; k = Math.floor((k - 1) / 26)) s = String.fromCharCode(97 + ((k - 1) % 26)) + s;
  return s;
}

const ROMAN: [number, string][] = [
  [1000, 'm'], [900, 'cm'], [500, 'd'], [400, 'cd'], [100, 'c'], [90, 'xc'], [50, 'l'], [40, 'xl'], [10, 'x'], [9, 'ix'], [5, 'v'], [4, 'iv'], [1, 'i'],
];

/** n in Roman numerals as <ol type="i"> counts; outside 1-3999 digits, as a browser shows them. */
function romanNumber(n: number): string {
  if (n <= 0 || n >= 4000) return String(n);
  let s = '';
  let k = n;
  for (const [v, r] of ROMAN) for (; k >= v; k -= v) s += r;
  return s;
}

/** An ordered item's number in its list's type: 1, a, A, i or I. */
function itemNumber(n: number, type: string): string {
  if (type === 'a' || type === 'A') return type === 'A' ? alphaNumber(n).toUpperCase() : alphaNumber(n);
  if (type === 'i' || type === 'I') return type === 'I' ? romanNumber(n).toUpperCase() : romanNumber(n);
  return String(n);
}

/** An ordered item's number, as a browser counts: its own value, else the one after the item before it. */
function nextNumber(li: { getAttribute(name: string): string | null }, list: ListState): number {
  const n = integerAttribute(li, 'value') ?? list.next;
  list.next = n + list.step;
  return n;
}

/**
 * The mark a list whose Markdown is right before `list`'s (writtenBefore) ends with: its last
 * item's bullet ("-", "*") or its number's delimiter ("." or ")"); '' with no list there.
 * CommonMark makes one list of two whose items' bullets or delimiters match, a blank line
 * between or not, so "<ul><li>a</li></ul><ul><li>b</li></ul>" was one loose list of two items,
 * and a second <ol> went on counting from the first's last number ("1. a", "1. b" showed 1 and 2).
 */
function markAfterList(list: Node): string {
  const before = writtenBefore(list);
  if (before?.nodeName !== 'UL' && before?.nodeName !== 'OL') return '';
  if (before.nodeName === 'UL') return bulletOf(before);
  const last = Array.from(before.childNodes).findLast((c) => c.nodeName === 'LI');
  if (!last) return '';
  const marker = orderedMarker(last);
  return /^[-*]/.test(marker) ? marker.charAt(0) : marker.slice(-1);
}

/**
 * The node whose Markdown is the last before `node`'s, past what writes nothing (writesNothing)
 * and through the elements that write only their blocks (a <div>, a <section>), out of them
 * and into them: a list at the end of a <div> and a list after it, or one after an emptied
 * <p> or a <br>, were one list still ("<div><ul>…</ul></div><ul>…</ul>", as pages wrap a list
 * in a box of its own). null where that is no Markdown of the same block (a list item's text,
 * a quote's lines) or none.
 */
function writtenBefore(node: Node): Node | null {
  let n = node;
  for (;;) {
    let before = n.previousSibling;
    while (before && writesNothing(before)) before = before.previousSibling;
    if (before) return lastWritten(before);
    const parent = n.parentNode;
    if (!parent || parent.nodeType !== ELEMENT_NODE || LISTS_APART.has(parent.nodeName)) return null;
    n = parent;
  }
}

/** The node whose Markdown ends a node's that writes some: itself, or its last such child's through the elements that write only their blocks. */
function lastWritten(node: Node): Node {
  let n = node;
  while (n.nodeType === ELEMENT_NODE && !LISTS_APART.has(n.nodeName)) {
    let last = n.lastChild;
    while (last && writesNothing(last)) last = last.previousSibling;
    if (!last) return n;
    n = last;
  }
  return n;
}

/**
 * Whether a node writes nothing a reader sees between two blocks: blanks, a comment, a script
 * or what turndown removes, an element holding none of words, a picture, a rule or a table (a
 * <p> left empty, a <br>, an empty link, a lazy picture with no src). A blank line is all
 * that is between its neighbours.
 */
function writesNothing(node: Node): boolean {
  if (node.nodeType === TEXT_NODE) return !(node.textContent ?? '').trim();
  if (node.nodeType !== ELEMENT_NODE || UNWRITTEN.has(node.nodeName)) return true;
  // A picture with no address (a lazy one's) is written as nothing (the image rule).
  if (node.nodeName === 'IMG') return !(node as Element).getAttribute('src');
  if (SHOWN_WITHOUT_WORDS.has(node.nodeName)) return false;
  for (let n = node.lastChild; n; n = n.previousSibling) if (!writesNothing(n)) return false;
  return true;
}

/** Elements whose Markdown keeps a list inside apart from one outside (indented, quoted, in a cell, on a heading's line), lists themselves, and code. */
const LISTS_APART = tags('ul,ol,li,blockquote,table,caption,thead,tbody,tfoot,tr,td,th,pre,h1,h2,h3,h4,h5,h6');
/** Elements turndown leaves out, their text too (turndown.remove's, and what a browser does not show). */
const UNWRITTEN = tags('script,style,noscript,template,form,button');
/** Elements that write something with no words in them. */
const SHOWN_WITHOUT_WORDS = tags('img,picture,video,audio,iframe,embed,object,canvas,hr,table');

/**
 * A bulleted list's bullet: "-", or "*" right after a list that ends with "-" (markAfterList),
 * which keeps the two apart as the page has them. A changed bullet reads as plainly as the
 * page's two lists in the file, where an HTML comment between ("<!-- -->", as turndown's users
 * write) would be markup in the text, in grep's lines and in a question's passages.
 */
const bullets = new WeakMap<Node, string>();
function bulletOf(list: Node): string {
  let bullet = bullets.get(list);
  if (bullet === undefined) {
    bullet = markAfterList(list) === '-' ? '*' : '-';
    bullets.set(list, bullet);
  }
  return bullet;
}

/**
 * Each item of an ordered list (in turndown's DOM) with its number, as a browser counts it
 * (listState, nextNumber), and the delimiter its Markdown marker takes. A Markdown list
 * counts up by one from its first number whatever the later markers say, so a list that
 * counts otherwise (reversed, or an item's value) goes on as a new list at each item whose
 * number is not the one before plus one: CommonMark starts a new list where the delimiter
 * changes, "." to ")" and back. Both the file and its rendering then show the page's numbers
 * ("3. Fenders", "2) Lines", "1. Engine"), where turndown wrote "1. 2. 3." for <ol reversed>
 * and lost an item's value.
 */
const orderedMarkers = new WeakMap<Node, Map<Node, string>>();
function orderedMarker(li: Node): string {
  const list = li.parentNode as unknown as ListNode & Node;
  let markers = orderedMarkers.get(list);
  if (!markers) {
    markers = new Map();
    const state = listState(list);
    const items = Array.from(list.childNodes).filter((item) => item.nodeName.toUpperCase() === 'LI');
    const numbers = items.map((item) => nextNumber(item as unknown as Element, state));
    const labels = numbers.map((n) => itemNumber(n, state.type));
    if (numbers.some((n, i) => n < 0 || n > MAX_MARKER_NUMBER || labels[i] !== String(n))) {
      const bullet = bulletOf(list);
      items.forEach((item, i) => markers!.set(item as unknown as Node, `${bullet}${labels[i]}\\. `));
    } else {
      let delimiter = markAfterList(list) === '.' ? ')' : '.';
      numbers.forEach((n, i) => {
        if (i > 0 && n !== numbers[i - 1]! + 1) delimiter = delimiter === '.' ? ')' : '.';
        markers!.set(items[i] as unknown as Node, `${n}${delimiter}`);
      });
    }
    orderedMarkers.set(list, markers);
  }
  return markers.get(li) ?? '1.';
}

/**
 * The largest number a Markdown list marker holds (CommonMark: nine digits, none negative). A
 * list numbered outside 0 to this, or in letters or Roman numerals (<ol type="a">, "i", "A",
 * "I"), which Markdown cannot number, is a list of bullets, each item's text led by its number
 * as the page shows it, escaped ("- b\. Second", "- -1\. Minus one"). The numbers were
 * digits ("2. Second" for the page's "b."), and a list from -2 or past 999999999 was one
 * paragraph of its items run together ("-2. a -1. b 0. c").
 */
const MAX_MARKER_NUMBER = 999_999_999;

/**
 * The marker before an item's text: its number in an ordered list ("3. ", counted as a browser
 * counts: from the list's start, down when it is reversed, anew from an item's value), a bullet
 * in a list of bullets, none before a task's box (☑, ☐), which is its marker. An ordered list's
 * items had no number, so steps read as bare lines and "the third step" could not be found.
 */
function itemMarker(li: ItemNode, list: ListState, depth: number): string {
  if (list.ordered) return `${itemNumber(nextNumber(li, list), list.type)}. `;
  let first = li.firstChild;
  while (first && first.nodeType === 3 && !(first.textContent ?? '').trim()) first = first.nextSibling as typeof first;
  if (first?.nodeType === 1 && first.getAttribute?.('role') === 'checkbox') return '';
  return BULLETS[Math.min(depth, BULLETS.length) - 1]!;
}

/**
 * Deepest element nesting extractArticle accepts. Readability's time grows faster than the
 * square of the depth (400 levels: 1 s, 1,000 levels: 23 s, all on the main thread, where no
 * deadline can stop it); real pages stay under 100 levels and Chromium itself flattens
 * anything past 512.
 */
export const MAX_ARTICLE_DEPTH = 256;

/**
 * The element depth of a document, counted without recursion and stopping past `limit`. It
 * walks first child and next sibling: linkedom builds `children` anew at every read, so a loop
 * over `el.children` cost a page of the article benchmark 2.9 ms, this walk 0.4.
 */
export function nestingDepth(root: { firstElementChild: unknown }, limit: number): number {
  type El = { firstElementChild: El | null; nextElementSibling: El | null };
  const stack: [El, number][] = [];
  let max = 0;
  for (let c = (root as El).firstElementChild; c; c = c.nextElementSibling) stack.push([c, 1]);
  while (stack.length) {
    const [el, d] = stack.pop()!;
    if (d > max) max = d;
    if (max > limit) return max;
    for (let c = el.firstElementChild; c; c = c.nextElementSibling) stack.push([c, d + 1]);
  }
  return max;
}

type TitleRoot = { querySelector(selector: string): { textContent: string | null; remove(): void } | null };

/** Words in any script: letters, marks and digits, lower-cased (a run of CJK characters is one word). */
const wordsOf = (s: string): string[] => s.normalize('NFKC').toLowerCase().split(/[^\p{L}\p{N}\p{M}]+/u).filter(Boolean);
/** Readability's own words: split at \W, so only ASCII letters and digits count. */
const asciiWordsOf = (s: string): string[] => s.toLowerCase().split(/\W+/).filter(Boolean);

/**
 * The article's first h1/h2 when it only repeats the title, which heads the markdown already.
 * Readability drops such a heading by the share of its words found in the title (above 0.75),
 * but its words are split at \W, which keeps only ASCII letters: a Russian, Greek, Arabic,
 * Hebrew, Chinese or Japanese title has no words, so its heading stayed and the article
 * began with its title twice. Here the same test runs with words in any script where
 * Readability had none to compare; and a heading with exactly the title's words goes in
 * any script (Readability kept such a heading on 2 of the article benchmark's 91 pages).
 */
export function dropTitleHeading(root: TitleRoot, title: string): void {
  const heading = root.querySelector('h1, h2');
  if (!heading || !title) return;
  const text = heading.textContent ?? '';
  const inTitle = wordsOf(title);
  const words = wordsOf(text);
  if (inTitle.length === 0 || words.length === 0) return;
  const same = words.length === inTitle.length && words.every((w, i) => w === inTitle[i]);
  const unseenByReadability = asciiWordsOf(title).length === 0 || asciiWordsOf(text).length === 0;
  const extra = words.filter((w) => !inTitle.includes(w));
  if (same || (unseenByReadability && 1 - extra.join(' ').length / words.join(' ').length > 0.75)) heading.remove();
}

/**
 * A heading's (or a term's) link to itself, as documentation generators write one: a "¶", "#",
 * "§" or an icon that shows on hover (Sphinx, MkDocs, GitHub's READMEs, Docusaurus). In the
 * article it was text beside every heading: "## Basic Usage[¶](https://…#basic-usage "Link
 * to this heading")", and "Basic Usage¶" in text mode. A link in a heading with a word or a
 * number in it stays. So does every other link, but a footnote's way back (BACK_ARROWS).
 */
function dropPermalinks(document: Doc): void {
  for (const a of Array.from(document.querySelectorAll('a[href^="#"]'))) {
    const text = (a.textContent ?? '').replace(/[\s\u200b-\u200d\u2060\ufeff]|\ufe0e|\ufe0f/g, '');
    const heading = a.closest('h1, h2, h3, h4, h5, h6, dt');
    if (heading ? text.length <= 2 && !/[\p{L}\p{N}]/u.test(text) && !a.querySelector('img') : BACK_ARROWS.has(text)) a.remove();
    // A heading whose words are the link to itself (static site generators' "anchored"
    // headings): the words stay, the link goes. It was "## [Usage](https://…#usage)".
    else if (heading && namesItself(a, heading)) a.replaceWith(...Array.from(a.childNodes));
  }
}

/** Whether a link inside a heading points at the heading: its own id, the link's, or a name inside it. */
function namesItself(a: Element, heading: Element): boolean {
  let target: string;
  try {
    target = decodeURIComponent((a.getAttribute('href') ?? '').slice(1));
  } catch {
    return false;
  }
  if (!target) return false;
  if (heading.getAttribute('id') === target) return true;
  for (const el of [a, ...Array.from(heading.querySelectorAll('[id], a[name]'))]) {
    if (el.getAttribute('id') === target || (el.localName === 'a' && el.getAttribute('name') === target)) return true;
  }
  return false;
}

/**
 * A footnote's link back to where it is cited: "↩" after each note (Markdown processors), "^"
 * before it (encyclopedias). Written out it was "[↩](https://…#fnref1)" after every note.
 */
const BACK_ARROWS = new Set(['↩', '⤴', '↑', '⬆', '⇧', '^']);

/**
 * Code shown with line numbers as a table of two cells, the numbers' <pre> and the code's (as
 * static site generators' highlighters lay it out when numbering is on), is the code alone.
 * The Markdown had the numbers as the code's first lines, or a table whose cells held fences
 * ("| ```<br>1<br>2<br>``` | ```go<br>package main…"), and the text the numbers too.
 */
function dropLineNumbers(document: Doc): void {
  for (const table of Array.from(document.querySelectorAll('table'))) {
    const rows = table.querySelectorAll('tr');
    const lines = rowLines(Array.from(rows));
    if (lines) {
      codeInPlaceOf(table, lines.join('\n'));
      continue;
    }
    if (rows.length !== 1) continue;
    const cells = tableCells(rows[0]!);
    if (cells.length !== 2) continue;
    const [numbers, code] = cells.map((c) => c.querySelector('pre')) as [Element | null, Element | null];
    const divLines = numbers || code ? undefined : gutterLines(cells[0]!, cells[1]!);
    if (divLines) {
      codeInPlaceOf(table, divLines.join('\n'), highlighterBrush(table.parentElement));
      continue;
    }
    if (!numbers || !code || !/^[\s\d]+$/.test(cells[0]!.textContent ?? '') || !/\d/.test(numbers.textContent ?? '')) continue;
    // Inside a <pre> already (<pre><code><table>…), the code's lines take the table's place;
    // else its <pre> does.
    let inPre = false;
    for (let p = table.parentElement; p && !inPre; p = p.parentElement) inPre = p.localName === 'pre';
    if (inPre) table.replaceWith(...Array.from(code.childNodes));
    else table.replaceWith(code);
  }
  // Numbers written inside the code, one <span> a line (Hugo's "ln"/"lnt", Sphinx's "linenos",
  // Rouge's "lineno"): each line began with its number ("1package main"). After the tables,
  // whose numbers' <pre> holds such spans and nothing else.
  for (const span of Array.from(document.querySelectorAll('pre span[class]'))) {
    if (INLINE_LINE_NUMBERS.test(span.getAttribute('class') ?? '') && /^\s*\d+\s*$/.test(span.textContent ?? '')) span.remove();
  }
}

/**
 * The code of a table that lays it out a line a row, beside a cell its number is drawn in from
 * a data-line-number (a code host's file view, highlight.js's line-number plugin), as lines; else
 * undefined. The Markdown was a table of empty cells beside the lines, or, inside a <pre>, the
 * lines run together ("var a = 1;var b = 2;"). The attribute tells it from a table of data
 * whose first column counts its rows.
 */
function rowLines(rows: Element[]): string[] | undefined {
  if (rows.length === 0) return undefined;
  const lines: string[] = [];
  for (const tr of rows) {
    const cells = tableCells(tr);
    if (cells.length !== 2) return undefined;
    const [gutter, code] = cells as [Element, Element];
    const number = gutter.getAttribute('data-line-number') ?? gutter.querySelector('[data-line-number]')?.getAttribute('data-line-number') ?? '';
    const shown = (gutter.textContent ?? '').trim();
    if (!/^\d+$/.test(number) || (shown && shown !== number)) return undefined;
    lines.push((code.textContent ?? '').replace(/\r?\n$/, ''));
  }
  return lines;
}

/**
 * The lines of a code cell beside a gutter cell of numbered lines, each number a block of its
 * own (SyntaxHighlighter 3 as its script leaves a page, WordPress highlighters' tables), where
 * neither cell has a <pre>; else undefined. The Markdown was a table of the numbers beside the
 * lines as `code` spans, its lines joined by <br>. The numbers count up one by one, and the code
 * cell holds an element of as many blocks of one kind, so a table of data reads as none.
 */
function gutterLines(gutter: Element, code: Element): string[] | undefined {
  const numbers = Array.from(gutter.querySelectorAll('*')).filter((el) => el.childElementCount === 0 && (el.textContent ?? '').trim());
  const first = Number.parseInt(numbers[0]?.textContent ?? '', 10);
  if (numbers.length === 0 || !numbers.every((n, i) => (n.textContent ?? '').trim() === String(first + i))) return undefined;
  if ((gutter.textContent ?? '').replace(/\s+/g, '') !== numbers.map((n) => (n.textContent ?? '').trim()).join('')) return undefined;
  const sameBlocks = (el: Element): boolean => {
    const kids = Array.from(el.children);
    return kids.length === numbers.length && kids.every((k) => k.localName === kids[0]!.localName && LINE_BLOCKS.has(k.localName));
  };
  const holder = sameBlocks(code) ? code : Array.from(code.querySelectorAll('*')).find(sameBlocks);
  // A highlighter indents with no-break spaces, which a code block writes as spaces.
  return holder && Array.from(holder.children).map((line) => (line.textContent ?? '').replace(/\u00a0/g, ' '));
}

const LINE_BLOCKS = new Set(['div', 'p', 'li']);

/**
 * The language SyntaxHighlighter's box names last among its classes ("syntaxhighlighter
 * collapsed js"), as its "brush: js" did before its script ran.
 */
function highlighterBrush(box: Element | null): string | undefined {
  const words = (box?.getAttribute('class') ?? '').trim().split(/\s+/);
  const last = words.at(-1) ?? '';
  return words.includes('syntaxhighlighter') && last !== 'syntaxhighlighter' && /^[\w+#.-]{1,30}$/.test(last) ? last.toLowerCase() : undefined;
}

/** Code that takes a table's place: its text inside the <pre> the table is in, else a <pre><code> of its own. */
function codeInPlaceOf(table: Element, code: string, lang?: string): void {
  const doc = table.ownerDocument;
  if (table.parentElement?.closest('pre')) {
    table.replaceWith(doc.createTextNode(code));
    return;
  }
  const pre = doc.createElement('pre');
  if (lang) pre.setAttribute('class', `language-${lang}`);
  const inner = doc.createElement('code');
  inner.textContent = code;
  pre.appendChild(inner);
  table.replaceWith(pre);
}

const INLINE_LINE_NUMBERS = /(?:^|\s)(?:ln|lnt|lineno|linenos|line-number|line-numbers)(?:\s|$)/;

/**
 * A task list's check boxes (<li><input type=checkbox checked> Write the changelog): Readability
 * removes every <input>, so whether a task was done was lost ("- Write the changelog"). Each
 * becomes a box that reads as one (☑ or ☐) and says its state as a check box does (ARIA),
 * which the GFM plugin writes as "[x] " and "[ ] ".
 */
function keepTaskBoxes(document: Doc): void {
  for (const input of Array.from(document.querySelectorAll('li input'))) {
    // The type's value is case-blind in HTML; the selector engine's [type=… i] is not.
    if (input.getAttribute('type')?.trim().toLowerCase() !== 'checkbox') continue;
    const done = input.hasAttribute('checked');
    const box = document.createElement('span');
    box.setAttribute('role', 'checkbox');
    box.setAttribute('aria-checked', String(done));
    box.textContent = done ? '☑' : '☐';
    input.replaceWith(box);
  }
}

/**
 * A code block's language, wherever its highlighter names it, put on the <pre> as
 * "language-X", where the fenced block takes it from (the class pass keeps that one class):
 * - on a <div> around the <pre>: GitHub's "highlight highlight-source-python", Sphinx's
 *   "highlight-python3 > highlight > pre", Jekyll's Rouge "language-yaml highlighter-rouge >
 *   highlight > pre". Readability merges nested <div>s, so this is done before it. A
 *   "highlight-box" is a theme's box, not a language: a name counts only beside a "highlight"
 *   class (or "highlighter-rouge"), or as GitHub's "-source-"/"-text-" one;
 * - on the <pre> or its <code> in other words: SyntaxHighlighter's "brush: js" (older blogs),
 *   pandoc's "sourceCode python", Hugo's data-lang="go" and others' data-language.
 * The fence had no language for any of these.
 */
function nameCodeLanguages(document: Doc): void {
  for (const pre of Array.from(document.querySelectorAll('pre'))) {
    if (codeLanguage(pre.getAttribute('class') ?? '')) continue;
    const code = pre.firstElementChild?.localName === 'code' ? pre.firstElementChild : null;
    if (code && codeLanguage(code.getAttribute('class') ?? '')) continue;
    let lang = namedLanguage(pre) ?? (code ? namedLanguage(code) : undefined);
    if (!lang) {
      let marked = false;
      let el = pre.parentElement;
      for (let level = 0; el && level < 2; level++, el = el.parentElement) {
        const cls = el.getAttribute('class') ?? '';
        if (/(?:^|\s)(?:highlight|highlighter-rouge)(?:\s|$)/.test(cls)) marked = true;
        const m = /(?:^|\s)(?:highlight-((?:source|text)-)?|language-)([\w+#.-]{1,30})(?:\s|$)/i.exec(cls);
        if (m && !lang) {
          lang = m[2]!.toLowerCase();
          if (m[1]) marked = true;
        }
      }
      if (!marked) lang = undefined;
    }
    if (lang && !UNNAMED_LEXERS.has(lang)) pre.setAttribute('class', `${pre.getAttribute('class') ?? ''} language-${lang}`.trim());
  }
}

/** The language an element names itself in one of the highlighters' own ways (nameCodeLanguages). */
function namedLanguage(el: Element): string | undefined {
  const name = (s: string | null | undefined): string | undefined => (s && /^[\w+#.-]{1,30}$/.test(s.trim()) ? s.trim().toLowerCase() : undefined);
  const data = name(el.getAttribute('data-lang')) ?? name(el.getAttribute('data-language'));
  if (data) return data;
  const cls = el.getAttribute('class') ?? '';
  const brush = /(?:^|[\s;])brush:\s*([\w+#.-]{1,30})/i.exec(cls);
  if (brush) return brush[1]!.toLowerCase();
  const words = cls.split(/\s+/);
  if (words.includes('sourceCode')) return name(words.find((w) => w && w !== 'sourceCode' && !/^number/i.test(w)));
  // highlight.js before version 10 wrote the language as a bare class beside its own ("hljs javascript").
  if (words.includes('hljs')) {
    const others = words.filter((w) => w && w !== 'hljs' && !w.startsWith('hljs-'));
    if (others.length === 1 && others[0] !== 'nohighlight') return name(others[0]);
  }
  return codeLang(el, name(el.getAttribute('lang')));
}

const naturalLanguages = new Intl.DisplayNames(['en'], { type: 'language', fallback: 'none' });
/**
 * A lang attribute on a <pre> or <code> as the code's language, as GitHub's older renderer
 * ("<pre lang=ruby>"), GitLab's and code block plugins write it. In HTML a lang names the
 * words' language, so one that is the language around it, or one with a region ("en-GB"),
 * is that; on a page that names no language, one that names a human language is too (ICU
 * knows "sh" and "ts" as languages, so only there do they lose the fence's name).
 */
function codeLang(el: Element, lang: string | undefined): string | undefined {
  if (!lang || lang.includes('-')) return undefined;
  const around = (el.parentElement?.closest('[lang]')?.getAttribute('lang') ?? '').trim().toLowerCase().split('-')[0];
  if (around) return around === lang ? undefined : lang;
  try {
    return naturalLanguages.of(lang) ? undefined : lang;
  } catch {
    return lang;
  }
}

/**
 * Documentation's notes and warnings (Sphinx's and MkDocs' "admonition", Docusaurus'
 * "theme-admonition", GitHub's "markdown-alert") as a quote led by their title in bold:
 * "> **Warning**" then the text. They were a paragraph "Warning" and the text after it, like
 * any other, so the warning read as part of the prose. Only these names: a page's "alert" or
 * "callout" is as often a banner as a note.
 */
function markAdmonitions(document: Doc): void {
  for (const box of Array.from(document.querySelectorAll('div[class*="admonition"], div[class*="markdown-alert"]'))) {
    const words = (box.getAttribute('class') ?? '').split(/\s+/);
    if (!words.some((w) => w === 'admonition' || w === 'theme-admonition' || w === 'markdown-alert')) continue;
    if (box.parentElement?.closest('blockquote')) continue;
    const title = Array.from(box.children).find((el) => /(?:^|\s)(?:admonition-title|markdown-alert-title|admonitionHeading\w*)(?:\s|$)/.test(el.getAttribute('class') ?? ''));
    const quote = document.createElement('blockquote');
    if (title) {
      for (const icon of Array.from(title.querySelectorAll('svg, img'))) icon.remove();
      let name = (title.textContent ?? '').replace(/\s+/g, ' ').trim();
      // A type written in lower case for the style sheet to capitalize ("info"), as shown.
      if (/^\p{Ll}+$/u.test(name)) name = name[0]!.toUpperCase() + name.slice(1);
      title.remove();
      if (name) {
        const p = document.createElement('p');
        const strong = document.createElement('strong');
        strong.textContent = name;
        p.appendChild(strong);
        quote.appendChild(p);
      }
    }
    while (box.firstChild) quote.appendChild(box.firstChild);
    box.replaceWith(quote);
  }
}

/**
 * The <div>s that group a term with its definitions in a <dl>, as HTML allows, taken away
 * (their terms and definitions stay, in order). Readability reads such a <div> as a paragraph
 * and makes it one, so the Markdown had each term and definition as a paragraph of its own,
 * and which term a definition belonged to was lost.
 */
function ungroupDefinitions(document: Doc): void {
  for (const dl of Array.from(document.querySelectorAll('dl'))) {
    for (const div of Array.from(dl.children)) if (div.localName === 'div') div.replaceWith(...Array.from(div.childNodes));
  }
}

/**
 * A ruby annotation (<rt>: the reading printed above its word) written without the <rp>
 * parentheses a browser without ruby shows, as the HTML standard allows and most Japanese
 * pages do: in markdown and text the reading ran into its word, "東京とうきょう". Each such
 * annotation gets its <rp>s, so it reads "東京(とうきょう)", and html mode still shows ruby.
 */
function parenthesizeRuby(document: Doc): void {
  for (const rt of Array.from(document.querySelectorAll('rt'))) {
    if (!(rt.textContent ?? '').trim() || rt.closest('ruby')?.querySelector('rp')) continue;
    const open = document.createElement('rp');
    open.textContent = '(';
    const close = document.createElement('rp');
    close.textContent = ')';
    rt.before(open);
    rt.after(close);
  }
}

/**
 * A heading that a wrapper holds with a few words beside it (MediaWiki's "[edit]" link, a
 * theme's anchor or share link; at most two links), moved out in front of the wrapper.
 * Readability judges the wrapper as a block: short and a third of it a link, it was removed
 * with the heading in it, so a wiki article lost every section heading. Words beside it stay
 * in the wrapper; links alone with their marks ("[edit]") go.
 */
function liftWrappedHeadings(document: Doc): void {
  for (const heading of Array.from(document.querySelectorAll('h1, h2, h3, h4, h5, h6'))) {
    const wrapper = heading.parentElement;
    if (!wrapper || wrapper.localName !== 'div' || wrapper.firstElementChild !== heading) continue;
    // The wrapper's text but the heading's: a few words, not blanks alone.
    const beside = (wrapper.textContent ?? '').replace(heading.textContent ?? '', '');
    if (beside.length > 40 || !beside.trim()) continue;
    // One or two links at most ("[edit | edit source]"): a widget's heading over its list of links stays in the widget.
    const links = Array.from(wrapper.querySelectorAll('a[href]')).filter((a) => !heading.contains(a));
    if (links.length > 2) continue;
    wrapper.before(heading);
    // What is left is only the links and marks around them ("[edit]"): chrome, not text.
    let words = beside;
    for (const a of links) words = words.replace(a.textContent ?? '', '');
    if (!/[\p{L}\p{N}]/u.test(words)) wrapper.remove();
  }
}

/**
 * An inline quotation (<q>) with the quotation marks a browser draws around it (its style
 * sheet's, by the language): "He said <q>no</q>" read "He said no" in Markdown and text.
 * A quotation inside another takes the inner pair.
 */
function quoteInlineQuotes(document: Doc): void {
  const pageLang = document.documentElement?.getAttribute('lang') ?? '';
  // Depths first: replacing an outer one takes it out of its inner ones' ancestors.
  const quotes = Array.from(document.querySelectorAll('q')).map((q) => {
    let depth = 0;
    for (let p = q.parentElement; p; p = p.parentElement) if (p.localName === 'q') depth++;
    return { q, depth };
  });
  for (const { q, depth } of quotes) {
    const lang = (q.closest('[lang]')?.getAttribute('lang') ?? pageLang).toLowerCase();
    const marks = QUOTE_MARKS.find(([re]) => re.test(lang))?.[1] ?? DEFAULT_QUOTES;
    const [open, close] = depth % 2 === 0 ? [marks[0], marks[1]] : [marks[2], marks[3]];
    q.replaceWith(document.createTextNode(open), ...Array.from(q.childNodes), document.createTextNode(close));
  }
}
/** Quotation marks by language, as browsers' style sheets set them: outer pair, inner pair. */
const DEFAULT_QUOTES = ['\u201c', '\u201d', '\u2018', '\u2019'] as const;
const QUOTE_MARKS: readonly [RegExp, readonly [string, string, string, string]][] = [
  [/^(?:de|cs|sk|lt|et|is|bg)\b/, ['\u201e', '\u201c', '\u201a', '\u2018']],
  [/^(?:ru|uk|be)\b/, ['\u00ab', '\u00bb', '\u201e', '\u201c']],
  [/^fr\b/, ['\u00ab\u00a0', '\u00a0\u00bb', '\u2039\u00a0', '\u00a0\u203a']],
  [/^pl\b/, ['\u201e', '\u201d', '\u00ab', '\u00bb']],
  [/^(?:ja|zh-(?:tw|hk|hant))\b/, ['\u300c', '\u300d', '\u300e', '\u300f']],
];

/**
 * A quotation's attribution written as a <footer> inside its <blockquote> ("— Alan Kay", as
 * Bootstrap's blockquote-footer has it) is part of the quote: Readability removes every
 * <footer> of the article as page chrome, so the quote lost who said it, in every mode. It
 * becomes a paragraph of the quote. A footer anywhere else is left to Readability.
 */
function keepQuoteAttributions(document: Doc): void {
  for (const footer of Array.from(document.querySelectorAll('blockquote footer'))) {
    const p = document.createElement('p');
    while (footer.firstChild) p.appendChild(footer.firstChild);
    footer.replaceWith(p);
  }
}

/**
 * Pictures loaded late: the page ships a placeholder in src (a blank GIF, a grey SVG, a data:
 * pixel) and the picture in an attribute its script swaps in as it scrolls into view
 * (lazysizes' data-src and data-srcset, WordPress plugins' data-lazy-src, jQuery lazyload's
 * data-original). Readability looks at such attributes only when src is empty, a data: URI,
 * or the class says "lazy", so the article had the placeholder ("![Photo](…/blank.gif)").
 * The script's attribute is the picture: it becomes src (or srcset, with src left to the
 * widest candidate, srcFromSrcset).
 */
function revealLazyImages(document: Doc): void {
  const first = (el: Element, names: readonly string[]): string | undefined => {
    for (const name of names) {
      const v = el.getAttribute(name)?.trim();
      // A URL, not a placeholder of its own nor a script's settings (JSON: '{"default":…}').
      if (v && !/^data:/i.test(v) && !/["'{}<>[\]]/.test(v)) return v;
    }
    return undefined;
  };
  for (const el of Array.from(document.querySelectorAll('img, picture > source'))) {
    const src = el.localName === 'img' ? first(el, LAZY_SRC) : undefined;
    const srcset = first(el, LAZY_SRCSET);
    if (src && /^\S+$/.test(src)) el.setAttribute('src', src);
    else if (srcset && el.localName === 'img') el.removeAttribute('src');
    if (srcset) el.setAttribute('srcset', srcset);
  }
}
const LAZY_SRC = ['data-src', 'data-lazy-src', 'data-original', 'data-lazy', 'data-echo'];
const LAZY_SRCSET = ['data-srcset', 'data-lazy-srcset'];

/** Words in a highlight class that name no language: Sphinx's project default, plain text. */
const UNNAMED_LEXERS = new Set(['default', 'none', 'text', 'source', 'plain', 'plaintext']);

/**
 * An emoji drawn as a picture (blogs and forums swap each one for an <img> whose alt is the
 * emoji) is the emoji: the Markdown had "![😀](https://…/1f600.svg)" in the middle of a
 * sentence and the text nothing at all ("it was lovely  and"). An alt of emoji alone, a few of
 * them at most; any other picture stays a picture.
 */
function emojiAsText(document: Doc): void {
  for (const img of Array.from(document.querySelectorAll('img[alt]'))) {
    const alt = (img.getAttribute('alt') ?? '').trim();
    if (alt.length <= 32 && EMOJI_ONLY.test(alt) && /\p{Extended_Pictographic}|\p{Regional_Indicator}/u.test(alt)) img.replaceWith(document.createTextNode(alt));
  }
}

/** Emoji and what joins, modifies and presents them (ZWJ sequences, skin tones, flags, VS16). */
const EMOJI_ONLY = /^(?:\p{Extended_Pictographic}|\p{Emoji_Modifier}|\p{Regional_Indicator}|\u200d|\ufe0f|\u20e3|[\u{e0020}-\u{e007f}])+$/u;

/** What Readability made of a page, with what the page said of itself before it ran. */
interface ReadPage {
  document: Doc;
  lang: string;
  docTitle: string;
  names: TitleNames;
  article: ReturnType<Readability<Doc['body']>['parse']>;
  /** The posts the page lists (listing.ts), as it had them before any pass changed it. */
  posts: ListedPost[];
}

/**
 * Readability over a page, after the passes that prepare it; with `dropPrompts`, cookie and
 * consent prompts are removed first (dropConsentPrompts).
 */
function readPage(html: string, url: string, dropPrompts: boolean): ReadPage {
  const document = parseDocument(html, url);
  if (nestingDepth(document, MAX_ARTICLE_DEPTH) > MAX_ARTICLE_DEPTH) {
    throw tooDeep(MAX_ARTICLE_DEPTH);
  }
  const lang = document.documentElement?.getAttribute('lang') ?? '';
  const docTitle = (document.querySelector('title')?.textContent ?? '').trim();
  // Each pass below that few pages need runs only when the markup names its element: a query
  // of the whole page costs 0.2-0.5 ms, a test of the markup's text a few microseconds.
  const posts = document.body && /<article[\s>][^]*<article[\s>]/i.test(html) ? listedPosts(document.body as unknown as ListingElement) : [];
  // Before Readability, which removes the heading that repeats the title from the page.
  const names = titleNames(document);
  type El = Doc['body'];
  if (document.body) carryClasses(document.body as unknown as Parameters<typeof carryClasses>[0]);
  if (dropPrompts && document.body) dropConsentPrompts(document.body as unknown as Parameters<typeof dropConsentPrompts>[0]);
  // Readability judges <html> as it judges any element, and removes it, with the whole page,
  // when its class or id reads as chrome ("header-spacing"), or when it is marked hidden
  // (anti-flicker snippets do so until the scripts run). Its first pass, the one that drops
  // unlikely blocks, then finds nothing, so the article came from the later passes that keep
  // navigation and banners; and with the document's <base> gone, its links stayed relative
  // ("/signin/"). 5 of the article benchmark's 91 pages had such a class. None of these
  // attributes of <html> holds text, so they go before Readability reads the page.
  for (const attr of ['class', 'id', 'role', 'style', 'hidden', 'aria-hidden']) document.documentElement?.removeAttribute(attr);
  texFormulas(document as unknown as Document);
  liftMath(document as unknown as MathNode);
  dropPermalinks(document);
  dropLineNumbers(document);
  keepTaskBoxes(document);
  keepQuoteAttributions(document);
  liftWrappedHeadings(document);
  quoteInlineQuotes(document);
  markAdmonitions(document);
  revealLazyImages(document);
  nameCodeLanguages(document);
  emojiAsText(document);
  if (/<rt[\s>]/i.test(html)) parenthesizeRuby(document);
  // The title too: Readability compares it with the page's headings.
  if (document.documentElement && mayHaveWide(html)) joinWideLineBreaks(document.documentElement);
  if (/<dl[\s>]/i.test(html)) ungroupDefinitions(document);
  // Readability creates elements by capital names ("DIV", "P"), and linkedom keeps a name's
  // case: the html mode wrote <DIV> and <P>, and localName read "DIV" for those elements only.
  const create = document.createElement.bind(document);
  document.createElement = ((name: string, options?: ElementCreationOptions) => create(name.toLowerCase(), options)) as typeof document.createElement;
  let article: ReturnType<Readability<El>['parse']> = null;
  try {
    // The serializer hands back the article element itself, so the pruning pass works on it in
    // place (no second parse of its HTML); classes are kept for the pass, which drops them.
    article = new Readability<El>(document as unknown as Document, { keepClasses: true, serializer: (node) => node as unknown as El }).parse();
  } catch {
    article = null;
  }
  return { document, lang, docTitle, names, article, posts };
}

/**
 * Posts of a page (listing.ts), each read as a page of its own, one <article> after another
 * in an article root like Readability's; undefined when none reads.
 */
function readPosts(posts: readonly ListedPost[], base: string, url: string, lang: string): Doc['body'] | undefined {
  const read: string[] = [];
  for (const post of posts) {
    const { article } = readPage(`<!doctype html><html lang="${escapeHtml(lang)}"><head></head><body>${post.html}</body></html>`, base, false);
    const content = article?.content;
    const text = content ? oneLine(article.textContent ?? '') : '';
    if (!content || !text) continue;
    // Readability takes the post's body, and leaves its heading (and the date under it) as
    // chrome: each post came without its title.
    const heading = post.heading && !text.startsWith(post.heading) ? post.headingHtml : '';
    read.push(`<article>${heading}${articleHtml(content)}</article>`);
  }
  if (read.length === 0) return undefined;
  const { document } = parseHTML(`<!doctype html><html><body><div><div id="readability-page-1" class="page">${read.join('')}</div></div></body></html>`);
  const root = document.body?.firstElementChild as Doc['body'] | null;
  if (root) absoluteLinks(root, base, url);
  return root ?? undefined;
}

/** The readable article of an HTML page. */
export function extractArticle(html: string, url: string): Article {
  let page = readPage(html, url, false);
  // Readability took a cookie or consent prompt for the article (a page whose own text is a
  // short post): read the page again without such prompts. Only then, so no other page pays
  // for finding them (a query of every element cost 2 ms a page).
  if (isConsentPrompt(page.article?.textContent ?? '')) {
    const again = readPage(html, url, true);
    if ((again.article?.textContent ?? '').trim()) page = again;
  }
  const { document, lang, docTitle, names, article } = page;
  let root = article?.content;
  // A blog's front page or an archive: Readability kept one post of several, or the posts
  // without their headings; or a post's page, and Readability took the next post.
  const posts = postsToRead(page.posts, article?.textContent ?? '', docTitle);
  if (posts.length > 0) root = readPosts(posts, baseOf(document, url), url, lang) ?? root;
  const isArticle = !!root && !!(article?.textContent ?? '').trim();
  const readTitle = (article?.title ?? '').trim();
  const pageTitle = headlineTitle(uncutTitle(oneLine(decodeReferences(readTitle, document) || docTitle), oneLine(decodeReferences(docTitle, document)), names, url, html), names.headlines, names.sites);
  // A page that names no title (no <title>, og:title or JSON-LD headline) is titled by its one
  // headline, as a reader takes it. Readability takes a lone <h1> only when it has more than 4
  // words, and turns every <h1> of the article into an <h2>: "<h1>Tides</h1>" came out as
  // "## Tides" under no title, where "Tides, and how to read them" was "# Tides, and how…".
  // With more than one <h1> none is the page's, and a page that is no article keeps its own.
  const title = pageTitle || (isArticle && names.headlines.length === 1 ? names.headlines[0]! : '');
  if (root && isArticle) {
    dropTitleHeading(root as unknown as TitleRoot, readTitle || title);
    pruneArticle(root as unknown as PruneElement);
    // Readability made the links absolute, but left a script's link that does not spell its
    // scheme in lower case ("JavaScript:", "java&#9;script:", "vbscript:").
    absoluteLinks(root, baseOf(document, url), url);
  } else {
    // No article (a link list, an app shell): keep the body without its chrome.
    const fresh = parseDocument(html, url);
    if (/<rt[\s>]/i.test(html)) parenthesizeRuby(fresh);
    if (fresh.body && mayHaveWide(html)) joinWideLineBreaks(fresh.body);
    texFormulas(fresh as unknown as Document);
    liftMath(fresh as unknown as MathNode);
    for (const el of Array.from(fresh.querySelectorAll('script,style,noscript,template,nav,header,footer,form,iframe,svg'))) el.remove();
    root = fresh.body;
    if (root) absoluteLinks(root, baseOf(fresh, url), url);
  }
  let text: string | undefined;
  let cleaned: string | undefined;
  let markdown: string | undefined;
  // Each made only when asked for: markdown mode, the default, reads only the markdown; the
  // render decision reads only the text.
  return {
    title,
    get html(): string {
      return (cleaned ??= root ? inertHtml(root) : '');
    },
    get markdown(): string {
      if (markdown === undefined) {
        const body = root ? markdownOfTree(root as unknown as SourceNode, baseOf(document, url)) : '';
        // The title is text, escaped as the article's is: "The <template> element" lost its tag's name.
        markdown = title && !body.startsWith('# ') ? `${besideBrackets(lineStartEscapes(atxHeading(1, escapeText(title))))}\n\n${body}` : body;
      }
      return markdown;
    },
    get text(): string {
      return (text ??= root ? textOf(root, { captions: !isArticle }) : '');
    },
    byline: decodeReferences((article?.byline ?? '').trim(), document),
    lang: article?.lang || lang,
    excerpt: decodeReferences((article?.excerpt ?? '').trim(), document),
  };
}

/** Text as one line, as a browser shows a title: no invisible marks, no line break between two CJK characters (segment-breaks.ts), each run of ASCII white space one space. */
const oneLine = (s: string): string => joinWideBreaks(s.replace(INVISIBLE, '')).replace(/[ \t\n\r\f]+/g, ' ').trim();

/** In the page's <header>, not an article's (HTML5 gives each article a header of its own). */
function inPageHeader(el: Element): boolean {
  const header = el.closest('header');
  return header !== null && header.closest('article, main, [role="main"]') === null;
}

/**
 * The site's name as the page's meta tags give it, and the page's <h1>s that may be its
 * headline: not a logo (in a link, the page's header, its navigation, or the site's name).
 */
function titleNames(document: Doc): TitleNames {
  const sites = Array.from(document.querySelectorAll('meta[property="og:site_name"], meta[name="application-name"], meta[name="apple-mobile-web-app-title"]'), (m) =>
    oneLine(m.getAttribute('content') ?? ''),
  ).filter(Boolean);
  const headlines = Array.from(document.querySelectorAll('h1'))
    .filter((h) => !h.closest('a, nav, footer, aside, [role="banner"], [role="navigation"]') && !inPageHeader(h))
    .map((h) => oneLine(h.textContent ?? ''))
    .filter((h) => h && !sites.includes(h));
  return { headlines, sites };
}

type TitleNames = { headlines: string[]; sites: string[] };

// Readability's separators, where it cuts a <title> (" | ", " - ", " \\ ", " / ", " > ", " » ").
const READABILITY_CUT = / [|\-\\/>»] /u;

/** Letters and digits only, lower-cased: "Sportsnet.ca" and sportsnet.ca, "Fox Business" and foxbusiness.com say the same name. */
const nameKey = (s: string): string => s.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '');

/** Whether `part` names the site of `url`: its host (without www, or without its last label too), or one of its labels. */
function namesHost(part: string, url: string): boolean {
  const host = siteHost(url);
  if (host === undefined) return false;
  const key = nameKey(part);
  const labels = host.split('.');
  return key !== '' && (key === nameKey(host) || key === nameKey(labels.slice(0, -1).join('')) || labels.some((label) => nameKey(label) === key));
}

/** How many times `part` is in `s`. */
const timesIn = (s: string, part: string): number => s.split(part).length - 1;

/**
 * The whole <title> where Readability cut it at a separator and what it cut is not a site's
 * name. Readability takes the part before a title's last " | ", " - ", " \\ ", " / ", " > " or
 * " » " (the part after the first, when that is under 3 words), as a site's name or section
 * follows most titles; "Q1/Q2 report: costs \\ revenue" was stored as "Q1/Q2 report: costs". The
 * cut stands where what it cut (or a part of it between separators) is the site's name (its host,
 * og:site_name), where the part kept holds the page's headline (an <h1>, which headlineTitle
 * then takes), or where the page's markup writes the part kept without the rest (og:title,
 * JSON-LD's headline, a heading): a search of the markup, made only for a title so cut, where
 * a query of every meta tag and script on every page cost 0.2-0.5 ms a page.
 */
function uncutTitle(read: string, whole: string, names: TitleNames, url: string, html: string): string {
  if (read === whole || !READABILITY_CUT.test(whole)) return read;
  const cut = whole.startsWith(read) ? whole.slice(read.length) : whole.endsWith(read) ? whole.slice(0, whole.length - read.length) : undefined;
  if (cut === undefined || !/^ [|\-\\/>»] | [|\-\\/>»] $/u.test(cut)) return read;
  const parts = cut.split(READABILITY_CUT).map((p) => p.trim()).filter(Boolean);
  const isSite = (p: string): boolean => namesHost(p, url) || names.sites.some((s) => nameKey(s) === nameKey(p));
  if (parts.some(isSite)) return read;
  if (names.headlines.some((h) => read.includes(h)) || timesIn(html, read) > timesIn(html, whole)) return read;
  return whole;
}

// A site's name or section beside a title: "… | Fox Business", "… - Sportsnet.ca", "… | News |
// Al Jazeera", "Blog » …". A separator has a space on each side ("e-tron" has none); a colon
// is not one, as it joins a title's own parts ("Impeachment hearings: Key moments").
const APART_AFTER = /^ (?:[|\-–—·•»/]|::) (\S.*)$/u;
const APART_BEFORE = /^(\S.*) (?:[|\-–—·•»/]|::) $/u;

/** The rest of `title` when `part` starts or ends it, set apart by a separator; else undefined. */
function besidePart(title: string, part: string): string | undefined {
  const m = title.startsWith(part) ? APART_AFTER.exec(title.slice(part.length)) : title.endsWith(part) ? APART_BEFORE.exec(title.slice(0, -part.length)) : null;
  return m?.[1];
}

/**
 * The page's title without the site's name, when a headline of the page (an <h1>) is the title
 * with the name beside it: "Home Depot sales miss, shares plunge | Fox Business" is "Home Depot
 * sales miss, shares plunge" where that is the page's <h1>. The title heads the Markdown and
 * names the exported file, where the name said nothing the folder does not. The headline must
 * be the longer part (and the name at most 80 characters), and not a logo (titleNames): a page
 * whose <h1> is "Example News" keeps "About | Example News". Else the name goes when it is the
 * one the page's meta tags give the site (og:site_name): "Column: … - Los Angeles Times".
 * Kept as it is when neither fits.
 */
export function headlineTitle(title: string, headlines: readonly string[], sites: readonly string[] = []): string {
  for (const h of headlines) {
    const name = besidePart(title, h);
    if (name !== undefined && name.length <= 80 && name.length < h.length) return h;
  }
  for (const site of sites) {
    const rest = besidePart(title, site);
    if (rest !== undefined) return rest;
  }
  return title;
}

/**
 * The article's markup without Readability's own wrapper: it puts the article in
 * `<div id="readability-page-1" class="page">`, which is no part of the page.
 */
function articleHtml(root: Doc['body']): string {
  const kids = Array.from(root.children);
  const pages = kids.filter((el) => el.localName === 'div' && /^readability-page-\d+$/.test(el.getAttribute('id') ?? ''));
  if (pages.length === 0 || pages.length !== kids.length) return root.innerHTML.trim();
  return pages
    .map((el) => el.innerHTML.trim())
    .join('\n')
    .trim();
}

/**
 * The article as HTML to keep: a file a browser may open, so a copy with nothing left that
 * runs or moves the reader away (an <img onerror>, a <meta refresh>); the Markdown and text are
 * made from the tree as it is.
 */
function inertHtml(root: Doc['body']): string {
  const copy = root.cloneNode(true) as Doc['body'];
  makeInert(copy as unknown as InertEl);
  return articleHtml(copy);
}

/** What a parsed page's relative links resolve against: its <base> (made absolute by parseDocument), else its URL. */
const baseOf = (document: Doc, url: string): string => document.querySelector('base[href]')?.getAttribute('href') ?? url;

/**
 * Links and images made absolute against `base`, and links that run a script or carry a
 * document of their own made their text, as Readability does to a javascript: link of the
 * article it finds; the body kept when it finds none (a list of links, most often) had them
 * as the page wrote them, "/signin/", which lead nowhere once out of the page. A web `page`'s
 * link to a file on the reader's computer (file:, its own or through a <base>) is its text and
 * such a picture, or one whose source is a script, its alt text, as a browser, which opens
 * neither from a web page, shows them: a Markdown viewer loads a picture as the file opens,
 * and on Windows file://host/share/… signs in to that host with the user's credentials.
 */
export function absoluteLinks(root: Doc['body'], base: string, page: string): void {
  srcFromSrcset(root);
  const web = !FILE_URL.test(page);
  for (const el of Array.from(root.querySelectorAll('a[href], img[src], video[src], audio[src], source[src], video[poster]'))) {
    for (const attr of ['href', 'src', 'poster']) {
      const v = el.getAttribute(attr)?.trim();
      if (!v || v.startsWith('#')) continue;
      const abs = absolute(v, base);
      if (attr === 'href' && (INERT_LINK.test(abs ?? v) || (web && FILE_URL.test(abs ?? v)))) {
        el.replaceWith(...Array.from(el.childNodes));
        break;
      }
      if (attr !== 'href' && (SCRIPT_URL.test(abs ?? v) || (web && FILE_URL.test(abs ?? v)))) {
        if (el.tagName === 'IMG') pictureAsAlt(el as unknown as HTMLElement);
        else el.removeAttribute(attr);
        break;
      }
      if (abs && !/^data:/i.test(v)) el.setAttribute(attr, abs);
    }
  }
}

/**
 * A link's scheme (as the URL parser reads it: any case, tabs and line breaks inside it
 * dropped) that leads to no page: a script to run ("JavaScript:void(0)", vbscript:), or a
 * document written into the link (data:, a "Download CSV" of the whole file, base64). Its
 * Markdown was "[Print](javascript:window.print\(\))", or the file on one line.
 */
const INERT_LINK = /^(?:javascript|vbscript|data):/i;
const SCRIPT_URL = /^(?:javascript|vbscript):/i;
const FILE_URL = /^file:/i;

/**
 * An image given only as a srcset (which browsers show) gets its largest candidate as src,
 * the one attribute Markdown's image reads; without it the image was left out.
 */
function srcFromSrcset(root: Doc['body']): void {
  for (const img of Array.from(root.querySelectorAll('img[srcset]:not([src]), img[srcset][src=""]'))) {
    const best = largestCandidate(img.getAttribute('srcset') ?? '');
    if (best) img.setAttribute('src', best);
  }
}

/**
 * The URL of a srcset's widest (or densest) candidate: "a.jpg 400w, b.jpg 800w" gives b.jpg.
 * Read as HTML reads it: a URL runs to the next blank (it may hold commas), and a comma at its
 * end or after its descriptor ends the candidate.
 */
export function largestCandidate(srcset: string): string | undefined {
  let best: string | undefined;
  let size = -1;
  let i = 0;
  while (i < srcset.length) {
    while (i < srcset.length && /[\s,]/.test(srcset[i]!)) i++;
    const start = i;
    while (i < srcset.length && !/\s/.test(srcset[i]!)) i++;
    let url = srcset.slice(start, i);
    let descriptor = '';
    if (url.endsWith(',')) url = url.replace(/,+$/, '');
    else {
      const stop = srcset.indexOf(',', i);
      descriptor = srcset.slice(i, stop < 0 ? srcset.length : stop).trim();
      i = stop < 0 ? srcset.length : stop + 1;
    }
    const n = /^(\d+(?:\.\d+)?)[wx]$/.exec(descriptor)?.[1];
    const value = n === undefined ? 1 : Number(n);
    if (url && value > size) {
      best = url;
      size = value;
    }
  }
  return best;
}

const NAMED_REFERENCE = /&[A-Za-z][A-Za-z0-9]{1,31};/g;

/**
 * Readability unescapes only &amp; &lt; &gt; &quot; &apos; and numeric references in what it
 * reads from JSON-LD and meta tags, so a WordPress headline kept its "&nbsp;" ("win
 * this&nbsp;game", seen in a benchmark page's title and export file name). Every other named
 * reference is decoded here, each one alone through the HTML parser (so no markup is ever
 * parsed out of the text); a name the parser does not know wholly stays as it is.
 */
function decodeReferences(s: string, document: Doc): string {
  if (!s.includes('&')) return s;
  const el = document.createElement('span');
  return s.replace(NAMED_REFERENCE, (ref) => {
    el.innerHTML = ref;
    const text = el.textContent ?? '';
    // A whole reference is a character or two; "¬areference;" means the parser took only
    // the legacy "&not" at its start (as browsers do), and the text was no reference at all.
    return text && !text.includes(';') ? text : ref;
  });
}

/** Every http(s) link of the page, absolute, without fragments, deduplicated, in page order. */
export function extractLinks(html: string, url: string): string[] {
  const document = parseDocument(html, url);
  const base = baseOf(document, url);
  const seen = new Set<string>();
  for (const a of Array.from(document.querySelectorAll('a[href], area[href]'))) {
    const href = (a.getAttribute('href') ?? '').trim();
    if (!href || href.startsWith('#')) continue;
    const abs = absolute(href, base);
    if (!abs || !/^https?:/i.test(abs)) continue;
    const u = new URL(abs);
    u.hash = '';
    seen.add(u.toString());
  }
  return [...seen];
}

/** title, description, canonical, language, published time, author, the feeds it offers, og:* and twitter:* tags. */
export function extractMeta(html: string, url: string): Record<string, unknown> {
  const document = parseDocument(html, url);
  const base = baseOf(document, url);
  const og: Record<string, string> = {};
  const twitter: Record<string, string> = {};
  const named: Record<string, string> = {};
  for (const m of Array.from(document.querySelectorAll('meta'))) {
    const key = (m.getAttribute('property') ?? m.getAttribute('name') ?? m.getAttribute('itemprop') ?? '').trim().toLowerCase();
    const value = (m.getAttribute('content') ?? '').trim();
    if (!key || !value) continue;
    if (key.startsWith('og:')) og[key.slice(3)] ??= value;
    else if (key.startsWith('twitter:')) twitter[key.slice(8)] ??= value;
    else named[key] ??= value;
  }
  const canonicalHref = document.querySelector('link[rel~="canonical"]')?.getAttribute('href') ?? '';
  const time = document.querySelector('time[datetime]')?.getAttribute('datetime') ?? '';
  const out: Record<string, unknown> = {
    title: (document.querySelector('title')?.textContent ?? '').trim() || og.title || '',
    description: named.description ?? og.description ?? twitter.description ?? '',
    canonical: canonicalHref ? (absolute(canonicalHref, base) ?? '') : (og.url ?? ''),
    language: document.documentElement?.getAttribute('lang') ?? named['content-language'] ?? og.locale ?? '',
    published_time: named['article:published_time'] ?? og['article:published_time'] ?? named.datepublished ?? named.date ?? time,
    author: named.author ?? named['article:author'] ?? '',
  };
  // The feeds the page offers (rel=alternate with a feed's type): a list to fetch next.
  const feeds: { url: string; title: string; type: string }[] = [];
  for (const link of Array.from(document.querySelectorAll('link[rel~="alternate"][href][type]'))) {
    const type = (link.getAttribute('type') ?? '').trim().toLowerCase();
    if (!/^application\/(?:rss|atom|feed)\+(?:xml|json)$/.test(type)) continue;
    const href = absolute((link.getAttribute('href') ?? '').trim(), base);
    if (href && /^https?:/i.test(href) && !feeds.some((f) => f.url === href)) feeds.push({ url: href, title: (link.getAttribute('title') ?? '').trim(), type });
  }
  if (feeds.length) out.feeds = feeds;
  if (Object.keys(og).length) out.og = og;
  if (Object.keys(twitter).length) out.twitter = twitter;
  return out;
}
