import type { Collector } from './collect';
import { isJsonFeed, isJsonObject } from '../json';
import { forEachLine, lineAt } from './lines';
import type { Options } from '../types';
import { optionKey, optionsFromObject } from './options';
import { tooLong } from './text';

const SHAPE = 'expected a URL string or an object {"url": …, "options": {…}}';

/**
 * An entry's address: its "url", else its "href" or "link", the names a CSV's URL column goes
 * by too. Read-later and bookmark services export under those (Pinboard's JSON is an array of
 * {"href": …}; feeds turned into JSON give each item's "link"), and such a list was one "no
 * url" per entry, with nothing read.
 */
export function urlField(o: Record<string, unknown>): string | undefined {
  for (const k of ['url', 'href', 'link'] as const) if (typeof o[k] === 'string') return o[k];
  return undefined;
}

function element(v: unknown, line: number, text: string, c: Collector): void {
  if (typeof v === 'string') {
    c.add(line, text, v);
    return;
  }
  if (typeof v !== 'object' || v === null || Array.isArray(v)) {
    c.reject(line, text, SHAPE);
    return;
  }
  const o = v as Record<string, unknown>;
  const url = urlField(o);
  if (url === undefined) {
    c.reject(line, text, 'no "url" (or "href", "link") string in this object');
    return;
  }
  const opts = optionsFromObject(o.options);
  if (!opts.ok) {
    c.reject(line, text, opts.reason);
    return;
  }
  // Option keys beside "url", as a CSV's header names them ({"url": …, "mode": "text"}): they
  // were dropped without a word, and the page came back in the default mode. Other keys
  // (title, tags, …) are no options and stay unread.
  const flat = optionsFromObject(Object.fromEntries(Object.entries(o).filter(([k]) => k !== 'options' && optionKey(k) !== undefined)));
  if (!flat.ok) {
    c.reject(line, text, flat.reason);
    return;
  }
  const twice = Object.keys(flat.options).find((k) => opts.options[k as keyof Options] !== undefined);
  if (twice) {
    c.reject(line, text, `option ${twice} given twice: beside "url" and in "options"`);
    return;
  }
  c.add(line, text, url, { ...opts.options, ...flat.options });
}

function parseOne(slice: string, line: number, c: Collector): void {
  let v: unknown;
  try {
    v = JSON.parse(slice);
  } catch (err) {
    const comma = missingComma(slice, line);
    c.reject(line, slice, comma ?? `not valid JSON: ${err instanceof Error ? err.message : String(err)}`);
    return;
  }
  element(v, line, slice, c);
}

/**
 * Two entries with no comma between them, as a hand-edited list loses one: the entries' first
 * lines parse alone. JSON.parse's own words ("Unexpected non-whitespace character after JSON at
 * position 61") name an offset into the entry, not the line to fix. Looks at the first 20 lines
 * only: a slice that long is no pair of entries.
 */
function missingComma(slice: string, line: number): string | undefined {
  let at = slice.indexOf('\n');
  for (let k = 0; at !== -1 && k < 20; k++, at = slice.indexOf('\n', at + 1)) {
    try {
      JSON.parse(slice.slice(0, at));
    } catch {
      continue;
    }
    return `not valid JSON: a "," is missing at the end of line ${line + k} (between two entries)`;
  }
  return undefined;
}

/**
 * JSON: an array of URL strings or of `{url, options}` objects; an object holding such an
 * array, or a JSON Feed; also JSON Lines (one such value a line, as `sift parse` prints). The array is split into its elements by a small
 * scanner and each element parsed alone, so every element gets its own line number and
 * one broken element does not lose the rest of the list.
 */
export function readJson(input: string, c: Collector, maxLines: number, maxLineLength: number): void {
  let i = 0;
  const n = input.length;
  let line = 1;
  const skipWs = (): void => {
    for (; i < n; i++) {
      const ch = input.charCodeAt(i);
      if (ch === 10) line++;
      else if (ch !== 32 && ch !== 9 && ch !== 13) break;
    }
  };
  skipWs();
  if (input[i] === '{' && readListInObject(input, c, maxLines)) return;
  if (input[i] !== '[') {
    readJsonLines(input, c, maxLines, maxLineLength);
    return;
  }
  i++;
  for (;;) {
    skipWs();
    if (i >= n) {
      c.reject(line, '', 'the JSON array is not closed: "]" missing at the end');
      return;
    }
    if (input[i] === ']') break;
    if (line > maxLines || c.full) {
      c.truncated = true;
      return;
    }
    const start = i;
    const startLine = line;
    let depth = 0;
    for (; i < n; i++) {
      const ch = input.charCodeAt(i);
      if (ch === 34 /* " */) {
        for (i++; i < n; i++) {
          const s = input.charCodeAt(i);
          if (s === 92 /* \ */) i++;
          else if (s === 34) break;
          else if (s === 10) line++;
        }
      } else if (ch === 10) line++;
      else if (ch === 91 || ch === 123) depth++;
      else if (ch === 93 || ch === 125) {
        if (depth === 0) break;
        depth--;
      } else if (ch === 44 /* , */ && depth === 0) break;
    }
    const slice = input.slice(start, i).trim();
    const end = input[i];
    if (slice === '') {
      // `[]`-style trailing comma before the end is forgiven; an empty slot in the middle is not.
      if (end !== ']') c.reject(startLine, ',', 'empty element in the JSON array');
    } else {
      parseOne(slice, startLine, c);
    }
    if (end === ',') i++;
    else if (end === '}') {
      c.reject(line, '}', 'unexpected "}" in the JSON array');
      i++;
    }
  }
  i++;
  skipWs();
  if (i < n) c.reject(line, input.slice(i, i + 200), 'text after the end of the JSON array');
}

/**
 * One JSON object that holds the list, laid out over many lines as tools write it: a JSON
 * Feed's items (their url, else external_url; an item without either is no page), else the
 * first of its arrays of URL strings or {url} objects. Read line by line, each of its lines
 * was "not valid JSON". Each target's line is where its URL is written. false when the text
 * is not one object, or is one target ({"url": …}, a line of JSON Lines).
 */
function readListInObject(input: string, c: Collector, maxLines: number): boolean {
  let value: unknown;
  try {
    value = JSON.parse(input);
  } catch {
    return false;
  }
  const o = value as Record<string, unknown>;
  // One target, unless it holds the list: a feed turned into JSON names its site's "link" beside its items.
  if (urlField(o) !== undefined && !Object.values(o).some((v) => Array.isArray(v) && v.length > 0)) return false;
  let line = 1;
  let from = 0;
  // The line of a URL: where it is written (as JSON writes it), on from the last one found.
  const lineOf = (url: string): number => {
    const at = input.indexOf(JSON.stringify(url).slice(1, -1), from);
    if (at === -1) return line;
    line = lineAt(input, from, line, at);
    // Past it: the same address again (a duplicate) is found where it is written again.
    from = at + 1;
    return line;
  };
  // Each entry: its URL and how it is added; false once a cap is reached.
  const take = (url: string, add: (line: number) => void): boolean => {
    if (c.full) {
      c.truncated = true;
      return false;
    }
    const at = lineOf(url);
    if (at > maxLines) {
      c.truncated = true;
      return false;
    }
    add(at);
    return true;
  };
  const urls = isJsonFeed(o)
    ? o.items.map((item) => {
        const it = (item ?? {}) as Record<string, unknown>;
        return typeof it.url === 'string' ? it.url : typeof it.external_url === 'string' ? it.external_url : '';
      })
    : bookmarksIn(o);
  if (urls) {
    for (const url of urls) if (url && !take(url, (at) => c.add(at, url, url))) break;
    return true;
  }
  const urlOf = (v: unknown): string | undefined => {
    if (typeof v === 'string') return v;
    return isJsonObject(v) ? urlField(v) : undefined;
  };
  const arrays = Object.values(o).filter((v): v is unknown[] => Array.isArray(v) && v.length > 0);
  // Else an array of URLs with a few wrong entries (a number, a null): the URLs are read and the
  // others reported, not the whole list refused as "no list of URLs".
  const list = arrays.find((v) => v.every((e) => urlOf(e) !== undefined)) ?? arrays.find((v) => v.some((e) => /^\s*https?:\/\//i.test(urlOf(e) ?? '')));
  if (!list) {
    c.reject(1, input.trimStart().split('\n', 1)[0] ?? '', 'a JSON object with no list of URLs in it: give an array of URL strings or of {"url": …} objects, or one such object a line');
    return true;
  }
  for (const v of list) {
    const url = urlOf(v);
    // No URL to find it by: reported on the line of the entry before it.
    if (url === undefined) element(v, line, JSON.stringify(v), c);
    else if (!take(url, (at) => element(v, at, JSON.stringify(v), c))) break;
  }
  return true;
}

/**
 * The bookmarks of a browser's JSON bookmark file, in their order, folders walked in place:
 * Chromium's (Chrome, Edge, Brave: "roots" of folders whose "children" have type "url") and
 * Firefox's backup (nested "children", each bookmark's address in "uri"). undefined for
 * other JSON. No recursion: a file nested ten thousand folders deep is read like any other.
 */
function bookmarksIn(o: Record<string, unknown>): string[] | undefined {
  const chromium = typeof o.roots === 'object' && o.roots !== null;
  const firefox = Array.isArray(o.children) && typeof o.type === 'string' && o.type.startsWith('text/x-moz-place');
  if (!chromium && !firefox) return undefined;
  const urls: string[] = [];
  const stack: unknown[] = [chromium ? Object.values(o.roots as Record<string, unknown>) : o];
  // Each entry is a node or an array of nodes; arrays go on in reverse so the walk keeps their order.
  while (stack.length) {
    const top = stack.pop();
    if (Array.isArray(top)) {
      for (let k = top.length - 1; k >= 0; k--) stack.push(top[k]);
      continue;
    }
    if (typeof top !== 'object' || top === null) continue;
    const node = top as Record<string, unknown>;
    if (typeof node.url === 'string' && (node.type === 'url' || node.type === undefined)) urls.push(node.url);
    else if (typeof node.uri === 'string' && node.type === 'text/x-moz-place') urls.push(node.uri);
    if (Array.isArray(node.children)) stack.push(node.children);
  }
  return urls;
}

function readJsonLines(input: string, c: Collector, maxLines: number, maxLineLength: number): void {
  forEachLine(input, (raw, n) => {
    const line = raw.trim();
    if (line === '') return;
    if (c.full || n > maxLines) {
      c.truncated = true;
      return false;
    }
    if (raw.length > maxLineLength) {
      c.reject(n, line, tooLong(raw, maxLineLength));
      return;
    }
    parseOne(line, n, c);
  });
}
