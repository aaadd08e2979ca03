/**
 * A JSON document read in a mode: checked, titled, and laid out, given as its links or its
 * outline, or read as the feed it is (a JSON Feed). A large one is read in the HTML worker
 * (html-pool.ts json): parsing and laying out 38 MB held the thread for seconds.
 */
import { decodeEntities } from '../../shared/entities';
import { isJsonFeed, layoutJson } from '../../shared/json';
import type * as FeedModule from './feed';

/**
 * What a JSON document gives: not JSON at all (with JSON.parse's reason), or its meta and
 * its content, where undefined is the text as it came (mode raw, and a document nested too
 * deep to lay out).
 */
export type JsonRead = { valid: false; error: string } | { valid: true; meta: Record<string, unknown>; content?: string };

/**
 * Reads a JSON text in a mode: 'jq' checks and titles it only (the compute pool runs the
 * program). The feed reader is loaded only for a JSON Feed.
 */
export async function readJson(text: string, mode: string, url: string, loadFeed: () => Promise<typeof FeedModule>): Promise<JsonRead> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    return { valid: false, error: (err as Error).message };
  }
  const meta: Record<string, unknown> = {};
  const title = jsonTitle(value);
  if (title) meta.title = title;
  if (mode === 'jq' || mode === 'raw') return { valid: true, meta };
  if (isJsonFeed(value)) {
    const feeds = await loadFeed();
    const feed = feeds.jsonFeed(value, url);
    if (feed) {
      const read = feeds.readFeed({ feed }, mode, url);
      return { valid: true, meta: Object.assign(meta, read.meta), content: read.content };
    }
  }
  if (mode === 'links') return { valid: true, meta, content: linksIn(text) };
  if (mode === 'meta') {
    const outline = Array.isArray(value) ? { type: 'array', length: value.length } : value && typeof value === 'object' ? { type: 'object', keys: Object.keys(value) } : { type: typeof value };
    return { valid: true, meta, content: JSON.stringify(outline, null, 2) };
  }
  // Laid out from the text, so every number and key stays as sent (shared/json.ts). Nested
  // too deep to indent, the document is still valid JSON, and comes back as it was sent.
  const laid = layoutJson(text);
  if (laid !== undefined) return { valid: true, meta, content: laid };
  meta.pretty = false;
  return { valid: true, meta };
}

/**
 * A JSON document's title: the text of its top-level "title", "headline" or "name" (an
 * article's, a schema.org item's, a repository's or a package's), as one line. A result
 * without one had an empty title in the app's list, and was exported under its URL.
 */
export function jsonTitle(value: unknown): string | undefined {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return undefined;
  for (const key of ['title', 'headline', 'name']) {
    const v = (value as Record<string, unknown>)[key];
    if (typeof v !== 'string') continue;
    const line = v.replace(/\s+/g, ' ').trim();
    if (line) return line.length > 200 ? `${line.slice(0, 199)}…` : line;
  }
  return undefined;
}

// An address ends at a space or a closing mark, and at CJK and full-width punctuation: Chinese
// and Japanese text runs on after an address without a space ("…/Hardware/。这个列表").
const URL_RE = /\bhttps?:\/\/[^\s<>"'`)\]}\u3000-\u303f\uff01-\uff0f\uff1a-\uff20\uff3b-\uff40\uff5b-\uff65]+/g;
// In XML (a sitemap, say) the addresses that name its namespaces and schemas are no links.
const XML_NAMING = /\s(?:xmlns(?::[\w.-]+)?|[\w.-]+:schemaLocation)\s*=\s*(?:"[^"]*"|'[^']*')/g;
/** Every address in a text, once each; in markup (XML), its references decoded: "?a=1&amp;b=2" is "?a=1&b=2". */
export function linksIn(text: string): string {
  const markup = /^\uFEFF?\s*</.test(text);
  const urls = (markup ? text.replace(XML_NAMING, ' ') : text).match(URL_RE) ?? [];
  return [...new Set(urls.map((u) => u.replace(/[.,;:!?]+$/, '')).map((u) => (markup ? decodeEntities(u) : u)))].join('\n');
}


/**
 * Why a text is not JSON, for a person: JSON.parse's reason with its place as a line and
 * column (a position of 5,000,123 in a document laid out on lines says nothing), or that the
 * text stops before its JSON does: a download cut short, not a document written wrong.
 */
export function jsonProblem(text: string, error: string): { why: string; cutShort: boolean } {
  const body = text.trimEnd();
  // V8 says "… in JSON at position N", newer ones add " (line L column C)".
  const at = /\s+(?:in JSON )?at position (\d+)(?: \(line \d+ column \d+\))?$/.exec(error);
  const position = at ? Number(at[1]) : undefined;
  if (/^Unexpected end of JSON input$/.test(error) || (position !== undefined && position >= body.length)) {
    return { why: `it stops after ${body.length.toLocaleString('en-US')} characters, inside its JSON`, cutShort: true };
  }
  if (!at || position === undefined) {
    // "Unexpected token 'N', "{"a":NaN}" is not valid JSON": no place but the text around it,
    // which may run over lines; the message is one.
    const token = /^Unexpected token '([\s\S])', (?:\.\.\.)?"([\s\S]*)"(?:\.\.\.)? is not valid JSON$/.exec(error);
    if (!token) return { why: error.replace(/\s+/g, ' '), cutShort: false };
    return { why: `unexpected ${JSON.stringify(token[1])} near "${(token[2] ?? '').replace(/\s+/g, ' ').trim()}"`, cutShort: false };
  }
  const { line, column } = placeAt(text, position);
  return { why: `${error.slice(0, at.index)} at line ${line}, column ${column}`, cutShort: false };
}

/** A position in a text (JSON.parse's "at position N") as a person finds it: a line and a column, each from 1. */
export function placeAt(text: string, position: number): { line: number; column: number } {
  const before = text.slice(0, position);
  return { line: before.split('\n').length, column: position - before.lastIndexOf('\n') };
}

/**
 * The guards servers put before JSON so that a page of another site cannot load it as a
 * script and read it (XSSI): `)]}'` on a line of its own (with a comma or not), `while(1);`,
 * `for(;;);`. Every client of such an API strips it before JSON.parse.
 */
const XSSI_PREFIX = /^\uFEFF?\s*(?:\)\]\}',?|while\s*\(\s*1\s*\)\s*;|for\s*\(\s*;\s*;\s*\)\s*;)\s*(?=[[{"])/;
/**
 * A JSONP answer: one JSON value passed to a function named in the request (`cb({…});`), maybe
 * behind the `/**\/` and the `typeof cb === 'function' &&` that servers add.
 */
const JSONP_CALL = /^\uFEFF?\s*(?:\/\*\*\/\s*)?(?:typeof\s+[A-Za-z_$][\w$.]*\s*===?\s*['"]function['"]\s*&&\s*)?[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*\s*\(\s*(?=[[{"])/;

/** Whether a text's first characters open JSON behind an XSSI guard or in a JSONP call (wrappedJson may then read it). */
export const opensWrapped = (head: string): boolean => XSSI_PREFIX.test(head) || JSONP_CALL.test(head);

/**
 * The text inside a wrapper (XSSI_PREFIX, JSONP_CALL), with which wrapper, or undefined when
 * the text is not so wrapped. Taken out by its shape only: whether it is JSON is for its one
 * parse to say (readJson), as a 14 MB answer was parsed here, then again to be read.
 */
export function wrappedJson(text: string): { json: string; wrapper: 'xssi' | 'jsonp' } | undefined {
  const xssi = XSSI_PREFIX.exec(text);
  if (xssi) return { json: text.slice(xssi[0].length), wrapper: 'xssi' };
  const call = JSONP_CALL.exec(text);
  if (!call) return undefined;
  const end = text.trimEnd().replace(/;$/, '').trimEnd();
  if (!end.endsWith(')')) return undefined;
  return { json: end.slice(call[0].length, -1), wrapper: 'jsonp' };
}
