/**
 * JSON text laid out with two spaces a level, as JSON.stringify(value, null, 2) lays it out,
 * but from the text itself: numbers stay as written, keys in their order and every one of
 * them. Through JSON.parse, 12345678901234567890 (an id, as APIs send them) became
 * 12345678901234567000, 1e999 became null, 0.10 became 0.1, and keys that look like numbers
 * moved to the front. Strings come out as JSON.stringify writes them (escapes decoded).
 *
 * One pass, no recursion. `text` must be valid JSON (the caller has parsed it); undefined
 * when it nests deeper than `maxDepth`, where the indentation alone would outweigh the data
 * (10,000 levels make 100 MB of spaces).
 */
export function layoutJson(text: string, maxDepth = 256): string | undefined {
  let out = '';
  const indents = ['\n'];
  let depth = 0;
  const n = text.length;
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (BLANK[c]) {
      i++;
    } else if (c === QUOTE) {
      // The closing quote: the first one after an even run of backslashes (none, \\, …).
      let end = i;
      for (;;) {
        end = text.indexOf('"', end + 1);
        if (end < 0) return undefined;
        let k = end - 1;
        while (text.charCodeAt(k) === BACKSLASH) k--;
        if ((end - 1 - k) % 2 === 0) break;
      }
      const token = text.slice(i, end + 1);
      out += token.includes('\\') ? JSON.stringify(JSON.parse(token) as string) : token;
      i = end + 1;
    } else if (c === 0x7b || c === 0x5b) {
      // { or [; empty, it stays on its line.
      let j = i + 1;
      while (BLANK[text.charCodeAt(j)]) j++;
      if (text.charCodeAt(j) === c + 2) {
        out += c === 0x7b ? '{}' : '[]';
        i = j + 1;
        continue;
      }
      if (++depth > maxDepth) return undefined;
      indents[depth] ??= `${indents[depth - 1] as string}  `;
      out += (c === 0x7b ? '{' : '[') + (indents[depth] as string);
      i++;
    } else if (c === 0x7d || c === 0x5d) {
      depth--;
      out += (indents[depth] as string) + (c === 0x7d ? '}' : ']');
      i++;
    } else if (c === 0x2c) {
      out += `,${indents[depth] as string}`;
      i++;
    } else if (c === 0x3a) {
      out += ': ';
      i++;
    } else {
      // A number, true, false or null: as written.
      let j = i + 1;
      while (j < n && !ENDS_LITERAL[text.charCodeAt(j)]) j++;
      out += text.slice(i, j);
      i = j;
    }
  }
  return out;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const BLANK = new Uint8Array(128);
for (const ch of ' \t\n\r') BLANK[ch.charCodeAt(0)] = 1;
const ENDS_LITERAL = new Uint8Array(128);
for (const ch of ' \t\n\r,:]}') ENDS_LITERAL[ch.charCodeAt(0)] = 1;

/** A JSON object: not null, not an array. */
export const isJsonObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A JSON Feed (jsonfeed.org, 1.0 and 1.1): an object whose "version" names it, with its "items". */
export const isJsonFeed = (v: unknown): v is Record<string, unknown> & { items: unknown[] } =>
  isJsonObject(v) && typeof v.version === 'string' && /^https?:\/\/jsonfeed\.org\/version\//.test(v.version) && Array.isArray(v.items);

const LINE_ENDS_IN_STRINGS = /[\u0085\u2028\u2029]/g;

/**
 * A value as one line of JSON Lines: JSON.stringify, with the three characters it leaves raw
 * that readers split lines at escaped too. NEL, LINE SEPARATOR and PARAGRAPH SEPARATOR are
 * valid inside a JSON string, but Python's str.splitlines() (and editors) end a line at each:
 * a page holding one made two broken records of one.
 */
export const jsonLine = (value: unknown): string =>
  JSON.stringify(value).replace(LINE_ENDS_IN_STRINGS, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);

/** JSON text laid out, every number as written (layoutJson), or null when it is not JSON. */
export function prettyJson(text: string): string | null {
  const t = text.trimStart();
  if (!t.startsWith('{') && !t.startsWith('[')) return null;
  try {
    JSON.parse(t);
  } catch {
    return null;
  }
  return layoutJson(t) ?? null;
}
