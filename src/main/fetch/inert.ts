/**
 * HTML with nothing left that runs, submits, loads another page or moves the reader away:
 * a feed's entries and the article as HTML (mode html) carry whatever a site's editors
 * wrote, and both end up in files a browser may open.
 */

const UNSAFE_TAGS = new Set(['SCRIPT', 'STYLE', 'NOSCRIPT', 'IFRAME', 'FRAME', 'FRAMESET', 'OBJECT', 'EMBED', 'APPLET', 'FORM', 'INPUT', 'BUTTON', 'SELECT', 'TEXTAREA', 'LINK', 'META', 'BASE', 'TEMPLATE']);
const UNSAFE_ATTRIBUTE = /^on|^style$|^srcdoc$|^formaction$/i;
// A script as an attribute's address (an SVG link's xlink:href), as the URL parser reads it:
// blanks and controls anywhere in the scheme dropped. A link's own href is absoluteLinks' to
// read, which makes such a link its text.
const SCRIPT_ADDRESS = /^(?:javascript|vbscript):/i;
// eslint-disable-next-line no-control-regex -- what the URL parser drops is what is matched
const DROPPED_BY_URL_PARSER = /[\u0000-\u0020]/g;

export type InertEl = {
  nodeName: string;
  firstElementChild: InertEl | null;
  nextElementSibling: InertEl | null;
  getAttribute(name: string): string | null;
  getAttributeNames(): string[];
  removeAttribute(name: string): void;
  remove(): void;
};

const unsafeAttribute = (el: InertEl, name: string): boolean =>
  UNSAFE_ATTRIBUTE.test(name) || (name !== 'href' && SCRIPT_ADDRESS.test((el.getAttribute(name) ?? '').replace(DROPPED_BY_URL_PARSER, '')));

/** Takes out of a tree what runs or submits, tracking pixels and event handlers and styles: one walk, no selector. */
export function makeInert(root: InertEl): void {
  const stack: InertEl[] = [];
  for (let c = root.firstElementChild; c; c = c.nextElementSibling) stack.push(c);
  while (stack.length) {
    const el = stack.pop()!;
    const name = el.nodeName.toUpperCase();
    const size = name === 'IMG' ? [el.getAttribute('width'), el.getAttribute('height')] : [];
    if (UNSAFE_TAGS.has(name) || size.some((v) => v === '0' || v === '1')) {
      el.remove();
      continue;
    }
    for (const a of el.getAttributeNames()) if (unsafeAttribute(el, a)) el.removeAttribute(a);
    for (let c = el.firstElementChild; c; c = c.nextElementSibling) stack.push(c);
  }
}
