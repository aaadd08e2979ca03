import DOMPurify from 'dompurify';
import { marked } from 'marked';
import { withoutBidiControls } from '../../../shared/shown';
import { footnotes, forFeed } from './markdown-footnotes';

let hooked = false;
/**
 * The blocks that take their own direction. A list or a table as a whole: a child with a dir of
 * its own is skipped when its parent's direction is worked out, and the markers and columns
 * follow the parent. So a paragraph inside an item or a cell takes none either.
 */
const BLOCKS = new Set(['P', 'UL', 'OL', 'DL', 'H1', 'H2', 'H3', 'H4', 'H5', 'H6', 'TABLE', 'FIGCAPTION']);

/**
 * Content came from the web, so the rendered HTML may load nothing and run nothing:
 * DOMPurify drops scripts and handlers; these hooks also turn remote images into links
 * (no request leaves the app until the user clicks) and send links to the system browser.
 */
function installHooks(): void {
  if (hooked) return;
  hooked = true;
  // A task's box as the character it is (☑, ☐): marked writes an <input>, which is forbidden
  // below, so a task list lost whether each task was done.
  marked.use({ renderer: { checkbox: ({ checked }) => (checked ? '☑ ' : '☐ ') } });
  marked.use(footnotes);
  DOMPurify.addHook('uponSanitizeElement', (node, data) => {
    if (data.tagName !== 'img' || !(node instanceof Element)) return;
    const src = node.getAttribute('src') ?? '';
    if (src.startsWith('data:image/')) return;
    const alt = node.getAttribute('alt') || 'image';
    const link = node.ownerDocument.createElement('a');
    link.textContent = `[${alt}]`;
    link.className = 'remote-image';
    if (/^https?:/i.test(src)) link.setAttribute('href', src);
    node.replaceWith(link);
  });
  DOMPurify.addHook('afterSanitizeAttributes', (node) => {
    // Each block takes the direction of its own first strong letter: an Arabic paragraph reads
    // from the right (its list markers and quote bar on the right too) beside English ones.
    if (BLOCKS.has(node.tagName) && !(node.tagName === 'P' && node.parentElement?.closest('li, dd, td, th'))) node.setAttribute('dir', 'auto');
    if (node.tagName !== 'A') return;
    const href = node.getAttribute('href') ?? '';
    if (/^https?:/i.test(href)) {
      // Main's window-open handler hands http(s) to the system browser and denies the rest.
      node.setAttribute('target', '_blank');
      node.setAttribute('rel', 'noopener noreferrer');
    } else if (!href.startsWith('#')) {
      node.removeAttribute('href');
    }
  });
}

/**
 * A PDF's Markdown with its own "<" and "&" kept as characters: its text is the document's, in
 * which no tag or entity is written, and only a heading's or an item's marks are Markdown. A
 * manual's "<hostname>" was taken as a tag and went, "&copy;" showed "©". A "<" already escaped
 * is left as it is.
 */
const pdfCharacters = (md: string): string => md.replace(/(?<!\\)<(?=[A-Za-z/!?])/g, '\\<').replace(/&(?=#?[A-Za-z0-9]+;)/g, '\\&');

/**
 * The Markdown as HTML, safe to show. Without bidi controls, as titles are shown: the extractor
 * heads a result with its page's title, and "# Invoice U+202E txt.exe done" rendered "Invoice
 * enod exe.txt". None of the article benchmark's 91 pages has one; Copy and exports keep them.
 * `feed`: the Markdown is a feed's entries, whose notes are labelled by post (markdown-footnotes).
 * `pdf`: the Markdown is a PDF's (pdfCharacters).
 */
export function renderMarkdown(md: string, { feed = false, pdf = false }: { feed?: boolean; pdf?: boolean } = {}): string {
  installHooks();
  forFeed(feed);
  const html = marked.parse(withoutBidiControls(pdf ? pdfCharacters(md) : md), { async: false, gfm: true });
  return DOMPurify.sanitize(html, {
    // style="" would be refused by the CSP anyway (and logged); forms and media would load.
    FORBID_ATTR: ['style', 'srcset', 'background', 'poster'],
    FORBID_TAGS: ['style', 'form', 'input', 'button', 'textarea', 'select', 'iframe', 'frame', 'object', 'embed', 'video', 'audio', 'source', 'picture', 'link', 'meta', 'base', 'svg', 'math'],
  });
}

