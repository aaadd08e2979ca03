import { decodeHTMLStrict } from 'entities';

/**
 * Decodes HTML character references as a browser does in text: every named one HTML defines
 * (&eacute;, &ouml;, &hellip; …), numeric ones (&#150; is the en dash windows-1252 meant, as
 * in browsers). Only references closed by ";": in a URL, "?a=1&copy=2" is a parameter, not
 * "©=2". A hand-kept table of 16 names left "caf&eacute;" in titles and list links.
 */
export function decodeEntities(s: string): string {
  return s.indexOf('&') === -1 ? s : decodeHTMLStrict(s);
}

/** Text as HTML: & < > and " escaped. */
export const escapeHtml = (s: string): string => s.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c] ?? c);
