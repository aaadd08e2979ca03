/** The XML declaration, processing instructions, comments and a doctype before the root element. */
const PROLOG = /^(?:\uFEFF|\s|<\?[\s\S]*?\?>|<!--[\s\S]*?-->|<!DOCTYPE[^>[]*(?:\[[\s\S]*?\])?\s*>)*/i;
const ROOT = /^<([A-Za-z_][\w.-]*:)?([A-Za-z_][\w.-]*)\b([^>]*)>?/;

/**
 * The root element's start tag of an XML document, read from its first `window` characters:
 * its prefix ("rdf:" of rdf:RDF, else ''), local name and attributes; undefined when the
 * text opens with anything but an element.
 */
export function xmlRootTag(text: string, window = 65536): { prefix: string; name: string; attrs: string } | undefined {
  const head = text.slice(0, window);
  const at = PROLOG.exec(head)?.[0].length ?? 0;
  const m = ROOT.exec(head.slice(at));
  return m ? { prefix: m[1] ?? '', name: m[2]!, attrs: m[3] ?? '' } : undefined;
}
