/**
 * Line breaks in a page's source between two Chinese or Japanese characters, which mean no
 * space. Those scripts set no space between words, and an author (or a Markdown or reST
 * source wrapped at 80 columns) breaks a paragraph's lines anywhere, inside a word too:
 * "缓解城市交通\n拥堵问题" is one phrase, "交通拥堵" one word. Read as white space, the break
 * became a space ("交通 拥堵"), so grep and the question option could not find the word and
 * the text read with gaps no one wrote. CSS Text 3 (§4.1.3, segment break transformation)
 * removes such a break when the characters on both sides are East Asian wide, full-width
 * or half-width and neither is Hangul (Korean sets spaces between words), as Firefox does;
 * the same rule runs here, before the page is read, so markdown, text and html agree.
 */

// East Asian Width F, W or H, without Hangul: CJK radicals and symbols, kana, Bopomofo,
// kanbun and strokes, enclosed and compatibility CJK, the ideographs (BMP and planes 2-3),
// CJK compatibility forms, full-width ASCII and punctuation, half-width katakana, full-width signs.
export const WIDE_CLASS = '[\\u2E80-\\u2FFF\\u3000-\\u303E\\u3041-\\u30FF\\u3105-\\u312F\\u3190-\\u31FF\\u3200-\\u4DBF\\u4E00-\\u9FFF\\uF900-\\uFAFF\\uFE30-\\uFE4F\\uFF01-\\uFF9F\\uFFE0-\\uFFE6\\u{20000}-\\u{3FFFD}]';
const WIDE = new RegExp(WIDE_CLASS, 'u');
/** A run of white space holding a line break, between two wide characters. */
const BREAK_BETWEEN = new RegExp(`(${WIDE_CLASS})[ \\t]*[\\r\\n][ \\t\\r\\n]*(?=${WIDE_CLASS})`, 'gu');

/** `s` without the line breaks (and the spaces around them) that sit between two wide characters. */
export function joinWideBreaks(s: string): string {
  return s.includes('\n') || s.includes('\r') ? s.replace(BREAK_BETWEEN, '$1') : s;
}

/** Whether markup may hold a wide character at all: the pass below is skipped for pages that do not. */
export const mayHaveWide = (html: string): boolean => WIDE.test(html);

interface TextLike {
  nodeType: number;
  data: string;
}
interface NodeLike {
  nodeType: number;
  localName?: string;
  childNodes: ArrayLike<unknown>;
}

const TEXT_NODE = 3;
const ELEMENT_NODE = 1;
// White space is kept as written in these.
const PREFORMATTED = new Set(['pre', 'textarea', 'listing', 'xmp', 'plaintext', 'script', 'style', 'template']);
// Phrasing elements a line of text runs through; any other element starts or ends a block
// (or, like <br> and <img>, stands between two runs of text).
const INLINE = new Set([
  'a', 'abbr', 'b', 'bdi', 'bdo', 'cite', 'code', 'data', 'del', 'dfn', 'em', 'font', 'i', 'ins', 'kbd', 'mark', 'q', 'ruby', 'rb', 'rt', 'rp', 's', 'samp', 'small', 'span', 'strong', 'sub', 'sup', 'time', 'tt', 'u', 'var',
]);
const SPACE = /[ \t\r\n\f]/;

/**
 * Removes, in the text under `root`, each run of white space that holds a line break and sits
 * between two wide characters, also where the run starts in one text node and the next
 * character is in another ("…交通</a>\n拥堵…").
 */
export function joinWideLineBreaks(root: NodeLike): void {
  // The wide character last seen in this run of inline text, and the white space after it so
  // far: [node, from] pairs (each to its node's end but the last, which may be the next node's start).
  let afterWide = false;
  let pending: { node: TextLike; from: number; to: number }[] = [];
  let pendingBreak = false;
  const reset = (): void => {
    afterWide = false;
    pending = [];
    pendingBreak = false;
  };
  const text = (t: TextLike): void => {
    let data = joinWideBreaks(t.data);
    let i = 0;
    // White space at the node's start continues the run after the previous node's last character.
    while (i < data.length && SPACE.test(data[i]!)) {
      if (data[i] === '\n' || data[i] === '\r') pendingBreak = true;
      i++;
    }
    if (i === data.length) {
      if (i > 0) pending.push({ node: t, from: 0, to: i });
      if (data !== t.data) t.data = data;
      return;
    }
    if (i > 0) pending.push({ node: t, from: 0, to: i });
    if (afterWide && pendingBreak && WIDE.test(String.fromCodePoint(data.codePointAt(i)!))) {
      // Cut from the last piece backwards, so the offsets of earlier pieces of this node hold.
      for (const p of pending.reverse()) {
        const d = p.node === t ? data : p.node.data;
        const cut = d.slice(0, p.from) + d.slice(p.to);
        if (p.node === t) data = cut;
        else p.node.data = cut;
      }
    }
    // The end of this node: its last non-space character, and the white space after it.
    let end = data.length;
    while (end > 0 && SPACE.test(data[end - 1]!)) end--;
    const last = data.codePointAt(end - 1 - (end >= 2 && /[\udc00-\udfff]/.test(data[end - 1]!) ? 1 : 0))!;
    afterWide = WIDE.test(String.fromCodePoint(last));
    pendingBreak = /[\r\n]/.test(data.slice(end));
    pending = end < data.length ? [{ node: t, from: end, to: data.length }] : [];
    if (data !== t.data) t.data = data;
  };
  const walk = (node: NodeLike): void => {
    const kids = Array.from(node.childNodes) as NodeLike[];
    for (const kid of kids) {
      if (kid.nodeType === TEXT_NODE) text(kid as unknown as TextLike);
      else if (kid.nodeType === ELEMENT_NODE) {
        const name = kid.localName ?? '';
        if (PREFORMATTED.has(name)) {
          reset();
          continue;
        }
        const inline = INLINE.has(name);
        if (!inline) reset();
        walk(kid);
        if (!inline) reset();
      }
    }
  };
  walk(root);
}
