import type { Mode, Result } from '../../shared/types';
import { decodeEntities } from '../../shared/entities';
import { endTagAt } from '../fetch/markup';

/**
 * What full-text search reads of a stored result: what a person reads in it. A result in
 * markup (a page in mode raw or html) is searched as its text: without tags, attributes,
 * scripts, styles and comments, its entities decoded. Measured on the article benchmark's
 * pages in mode raw, the markup otherwise gave the best hits for "climate change" in a menu's
 * class names and a tracker's inline script. A page's Markdown is searched without its inline
 * marks and HTML (inlineMarksAsRead), its links' addresses kept.
 *
 * Line for line: everything taken out keeps its line breaks, so a hit's line is its line in
 * the stored result, which the app scrolls to.
 */
export function searchableText(result: Result | undefined, mode: Mode | undefined): string {
  const content = withoutDataUris(result?.content ?? '');
  if (isPageMarkdown(result, mode)) return inlineMarksAsRead(content);
  if (!isMarkup(result, mode)) return content;
  return decodeEntities(
    withoutHidden(content, lineBreaksOf)
      .replace(TAG, lineBreaksOf)
      // A character reference for a line break would add a line the stored result does not have.
      .replace(/&#(?:0*1[03]|x0*[ad]);/gi, ' '),
  );
}

/**
 * The text a search hit's snippet is cut from: searchableText, and for a page's Markdown its
 * words as they read, line for line: a link is its text, an image its alt text, and bold
 * marks and backslash escapes go. A snippet of the Markdown itself showed the link targets,
 * with the match marked inside a URL ("[Rafael Nadal](https://…/rafael-nadal/184442)"). An
 * exponent reads 10^6, as in text mode.
 */
export function snippetText(result: Result | undefined, mode: Mode | undefined): string {
  // From the Markdown, not from searchableText's reading of it: read twice, a code span's "&lt;em&gt;" would be a tag and go.
  return isPageMarkdown(result, mode) ? markdownAsRead(withoutDataUris(result?.content ?? '')) : searchableText(result, mode);
}

/**
 * The snippet text of a hit found only in a link's address (a page that only links to
 * ".../rafael-nadal/184442"): a page's Markdown as it reads, each link and image its text and
 * then its address in parentheses, as print writes a link out. Cut from the Markdown itself,
 * the snippet read "[Rafael Nadal](https://…/184442)", brackets and all. Undefined for a result
 * that is not a page's Markdown, whose searchableText shows its addresses as they are.
 */
export function linksWrittenOut(result: Result | undefined, mode: Mode | undefined): string | undefined {
  if (!isPageMarkdown(result, mode)) return undefined;
  const markdown = withoutDataUris(result?.content ?? '');
  return inlineMarksAsRead(markdown.includes('](') ? markdown.replace(MD_LINK_PARTS, (_m, text: string, address: string) => (text.trim() ? `${text} (${address})` : address)) : markdown);
}

/**
 * A page's Markdown as its words read, line for line: a link is its text, an image its alt
 * text, bold, italics, code marks, the writer's inline HTML and escapes gone, an exponent 10^6.
 */
export function markdownAsRead(markdown: string): string {
  return inlineMarksAsRead(withoutLinkTargets(markdown));
}

/**
 * A page's Markdown without its inline marks, links and all: what the index reads, so that a
 * phrase is found across them ("un*break*able rule", "<mark>harbour</mark> <ins>pilot</ins>"
 * held the words "un", "mark" and "ins"). Code kept as HTML is its text, entities decoded, and
 * goes last: a page's "&lt;em&gt;" in it is no tag to take out.
 */
function inlineMarksAsRead(markdown: string): string {
  const code: string[] = [];
  const kept = (text: string): string => `${KEPT}${code.push(text) - 1}${KEPT}`;
  // Code as it is: its "*" and "_" are the code's ("a*b*c" is no italics), and italics may hold it.
  return markdown
    .replace(FENCE, kept)
    .replace(CODE_SPAN, (_m, _ticks, text: string) => kept(text))
    .replace(WRITTEN_TAG, (tag: string, name: string) => (name === 'br' ? ' ' : tag === '<sup>' ? '^' : ''))
    .replace(/\*\*|__/g, '')
    .replace(EMPHASIS, '$1')
    .replace(STAR_EMPHASIS, '$1')
    .replace(CODE_HTML, (_m, text: string) => decodeEntities(text))
    .replace(/\\([\\`*_{}[\]()#+\-.!|~<>])/g, '$1')
    .replace(KEPT_AT, (_m, i: string) => code[Number(i)]!);
}

/** Where code was set aside (U+FDD5, a noncharacter, as fetch/html.ts's marks are), with its number. */
const KEPT = '\ufdd5';
const KEPT_AT = /\ufdd5(\d+)\ufdd5/g;
/** A fenced block of code, fence lines and all, as the writer fences it (fetch/html.ts collapseBlankLines reads it so). */
const FENCE = /^(`{3,}|~{3,})[^\n]*\n(?:[\s\S]*?\n)?\1(?:(?<=`)`*|(?<=~)~*)[ \t]*$/gm;
/** `code` as it reads: its text, without the backticks (a fence's line of ``` stays). */
const CODE_SPAN = /(?<![`\\])(`+)(?!`)([^`\n]+?)(?<!`)\1(?!`)/g;

/**
 * The inline HTML the Markdown writer (fetch/html.ts) puts in where Markdown cannot say what
 * the page showed: emphasis crowded against emphasis, exponents and indexes, keys, highlights
 * and insertions, a table cell's line breaks (its <code> is CODE_HTML's). A "<" of the page's
 * own text is escaped ("\\<em>") and stays.
 */
const WRITTEN_TAG = /(?<!\\)<\/?(em|strong|sup|sub|kbd|mark|ins|br)>/g;
/** Code after code, as the writer keeps it (codeAfterCode): its text escaped for HTML and Markdown. */
const CODE_HTML = /(?<!\\)<code>([^<\n]*)<\/code>/g;

/**
 * Italics as the extractor writes them (_words_; it escapes a page's own underscores and
 * backticks as \_ and \`), on one line, at a word's edges: a snake_case name keeps its
 * underscores. 6 of the 21 articles of the extraction corpus fetched here have some ("a
 * _must_ here", a whole caption in italics), and their snippets showed the underscores.
 */
const EMPHASIS = /(?<![\\\p{L}\p{N}_])_(?=[^\s_])((?:[^\n\\]|\\.)*?[^\s\\])_(?![\p{L}\p{N}_])/gu;
/**
 * Italics as the extractor writes them beside a word's letters (*words*, "un*break*able"),
 * where "_" would be no emphasis; a page's own asterisks are escaped (\*), and one that a blank
 * follows opens nothing (a thematic break's "* * *").
 */
const STAR_EMPHASIS = /(?<![\\*])\*(?=[^\s*])((?:[^\n\\*]|\\.)*?[^\s\\*])\*(?!\*)/g;
/**
 * A picture written into the page as a data: URI (an inline SVG, a base64 PNG) is no text: its
 * markup and base64 made hits for "w3" and "org" (an SVG's namespace) whose snippet was
 * percent-encoded SVG. Markdown writes one as <data:…> where it holds a space.
 */
const DATA_URI = /<data:[^>\n]*>|\bdata:[\w.+-]+\/[\w.+-]+[;,][^\s)"'<>]*/gi;
const withoutDataUris = (s: string): string => (s.includes('data:') ? s.replace(DATA_URI, '') : s);

// ![alt](src "title") and [text](href "title"), on one line; a URL may hold one level of parentheses.
const MD_IMAGE = /!\[([^\]\n]*)\]\((?:[^()\s]|\([^()\s]*\))*(?:\s+"[^"\n]*")?\)/g;
const MD_LINK = /\[([^\]\n]*)\]\((?:[^()\s]|\([^()\s]*\))*(?:\s+"[^"\n]*")?\)/g;

/** A link or image ([text](href "title")) with its text and its address apart. */
const MD_LINK_PARTS = /!?\[([^\]\n]*)\]\(((?:[^()\s]|\([^()\s]*\))*)(?:\s+"[^"\n]*")?\)/g;

/** Markdown's links and images as they read: a link its text, an image its alt text, without the addresses. */
export const withoutLinkTargets = (markdown: string): string => (markdown.includes('](') ? markdown.replace(MD_IMAGE, '$1').replace(MD_LINK, '$1') : markdown);

/** A page's result as Markdown, the default mode. */
const isPageMarkdown = (result: Result | undefined, mode: Mode | undefined): boolean => result?.meta?.kind === 'html' && (mode === undefined || mode === 'markdown');
/** A page's result in markup: raw HTML, or the article as HTML. */
const isMarkup = (result: Result | undefined, mode: Mode | undefined): boolean => result?.meta?.kind === 'html' && (mode === 'raw' || mode === 'html');

// Elements whose content no one reads as text; comments, CDATA and processing instructions too.
const HIDDEN = /<(script|style|template|svg|noscript|textarea|select)\b[^>]*>[\s\S]*?<\/\1\s*>|<!--[\s\S]*?(?:-->|$)|<!\[CDATA\[[\s\S]*?\]\]>/gi;

/**
 * `text.replace(HIDDEN, fn)` in one pass. The regex, from each element or CDATA start with no
 * end after it, read on to the end of the text: a stored page of 20,000 unclosed <script tags
 * (120 KB) took 6.6 s to index, in the store's transaction. Here each piece is matched alone,
 * from its start (HIDDEN made sticky); a kind of piece whose end is nowhere after a start is
 * not looked for again, as none of its later starts can match either.
 */
function withoutHidden(text: string, fn: (piece: string) => string): string {
  const start = /<(script|style|template|svg|noscript|textarea|select)\b|<!--|<!\[CDATA\[/gi;
  const piece = new RegExp(HIDDEN.source, 'iy');
  const gone = new Set<string>();
  const out: string[] = [];
  let from = 0;
  for (let m = start.exec(text); m; m = start.exec(text)) {
    const kind = m[1]?.toLowerCase() ?? (m[0].startsWith('<!--') ? '' : 'cdata');
    if (gone.has(kind)) continue;
    // Only a kind whose end is still ahead is matched: the element's end tag, CDATA's "]]>" (a comment matches always).
    const end = kind === '' ? 0 : kind === 'cdata' ? text.indexOf(']]>', start.lastIndex) : endTagAt(text, kind, start.lastIndex);
    if (end < 0) {
      gone.add(kind);
      continue;
    }
    piece.lastIndex = m.index;
    const hit = piece.exec(text);
    if (!hit) continue;
    out.push(text.slice(from, m.index), fn(hit[0]));
    from = piece.lastIndex;
    start.lastIndex = piece.lastIndex;
  }
  out.push(text.slice(from));
  return out.join('');
}
/**
 * A tag, to its own `>`: a > inside a quoted attribute value is the value's (an embed's title
 * holding a link's markup left `View in editor" src="…png">` as text, Ask's best passage for a
 * question on the page). A quote counts only after `=`, so an unquoted `don't` does not run on.
 */
const TAG = /<\/?[a-z!?](?:=\s*"[^"]*"|=\s*'[^']*'|[^>])*>?/gi;

/** What a removed piece leaves: its line breaks, or one space (words either side stay apart). */
function lineBreaksOf(piece: string): string {
  const breaks = piece.replace(/[^\n]+/g, '');
  return breaks || ' ';
}
