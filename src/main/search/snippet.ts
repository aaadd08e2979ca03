import { CJK_CHAR, foldTerm, foldWithMap } from './fold';
import type { Term } from './query';

/** A piece of a result around a match; marks are [start, end) offsets into text. */
export interface Snippet {
  text: string;
  marks: [number, number][];
  /** 1-based line of the content where the shown match is. */
  line: number;
}

const SEP = '[^\\p{L}\\p{N}]';
const isCjk = (s: string): boolean => CJK_CHAR.test(s);

/** A regex over folded text that finds one term the way FTS5 matched it: whole words, in order. */
function termRegex(term: Term): RegExp | undefined {
  const pieces: string[] = [];
  for (const run of foldTerm(term.text).match(/[\p{L}\p{N}]+/gu) ?? []) {
    // A CJK run is one token per character, as the index has it.
    let word = '';
    for (const ch of run) {
      if (isCjk(ch)) {
        if (word) pieces.push(word);
        word = '';
        pieces.push(ch);
      } else word += ch;
    }
    if (word) pieces.push(word);
  }
  if (pieces.length === 0) return undefined;
  let src = '';
  pieces.forEach((p, i) => {
    if (i > 0) src += isCjk(p) || isCjk(pieces[i - 1] as string) ? `${SEP}*?` : `${SEP}+?`;
    src += p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  });
  const first = pieces[0] as string;
  const last = pieces[pieces.length - 1] as string;
  const before = isCjk(first) ? '' : '(?<![\\p{L}\\p{N}])';
  const after = term.prefix ? '[\\p{L}\\p{N}]*' : isCjk(last) ? '' : '(?![\\p{L}\\p{N}])';
  return new RegExp(before + src + after, 'gu');
}

export interface Match {
  start: number;
  end: number;
  term: number;
}

/** Where the terms occur in text (offsets into text), in order; at most `cap`. */
export function findMatches(text: string, terms: readonly Term[], cap = 2000): Match[] {
  const { folded, at } = foldWithMap(text);
  const out: Match[] = [];
  terms.forEach((t, ti) => {
    const re = termRegex(t);
    if (!re) return;
    let n = 0;
    for (const m of folded.matchAll(re)) {
      if (m[0].length === 0) continue;
      const s = m.index;
      const e = s + m[0].length;
      out.push(at ? { start: at[s] as number, end: at[e] as number, term: ti } : { start: s, end: e, term: ti });
      if (++n >= cap) break;
    }
  });
  return out.sort((a, b) => a.start - b.start || b.end - a.end);
}

const BEFORE = 80;
const AFTER = 160;

/**
 * The line holding the most distinct terms (earliest on a tie), shown around its first match
 * with every match in view marked; whitespace collapsed to one space. Undefined when the
 * content itself has no match (the hit was on the title or URL).
 */
export function makeSnippet(content: string, terms: readonly Term[]): Snippet | undefined {
  const matches = findMatches(content, terms);
  if (matches.length === 0) return undefined;
  const lineStarts = [0];
  for (let i = content.indexOf('\n'); i >= 0; i = content.indexOf('\n', i + 1)) lineStarts.push(i + 1);
  const lineOf = (off: number): number => {
    let lo = 0;
    let hi = lineStarts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if ((lineStarts[mid] as number) <= off) lo = mid;
      else hi = mid - 1;
    }
    return lo + 1;
  };
  const byLine = new Map<number, { first: Match; terms: Set<number> }>();
  for (const m of matches) {
    const l = lineOf(m.start);
    const e = byLine.get(l);
    if (e) e.terms.add(m.term);
    else byLine.set(l, { first: m, terms: new Set([m.term]) });
  }
  let best: { line: number; first: Match; n: number } | undefined;
  for (const [line, e] of byLine) {
    if (!best || e.terms.size > best.n || (e.terms.size === best.n && line < best.line)) best = { line, first: e.first, n: e.terms.size };
  }
  const { line, first } = best as { line: number; first: Match };
  let from = Math.max(0, first.start - BEFORE);
  let to = Math.min(content.length, first.end + AFTER);
  // Start and end on a word boundary, not in the middle of one.
  if (from > 0) {
    const sp = content.slice(from, first.start).search(/\s/);
    if (sp >= 0) from += sp + 1;
  }
  if (to < content.length) {
    const tail = content.slice(first.end, to);
    const sp = tail.search(/\s\S*$/);
    if (sp >= 0) to = first.end + sp;
  }
  // Whitespace runs collapse to one space; outAt maps each content offset to the snippet's.
  const lead = from > 0 ? '… ' : '';
  let text = lead;
  const outAt = new Map<number, number>();
  for (let i = from; i < to; i++) {
    outAt.set(i, text.length);
    // Markdown's heading and quote marks at a line's start are not the page's words.
    if (i === 0 || content[i - 1] === '\n') {
      const mark = /^(?:#{1,6}|>)[ \t]+/.exec(content.slice(i, i + 8));
      if (mark) {
        for (let k = 1; k < mark[0].length && i + 1 < to; k++) outAt.set(++i, text.length);
        continue;
      }
    }
    const c = content[i] as string;
    if (/\s/.test(c)) {
      if (text.length > lead.length && !text.endsWith(' ')) text += ' ';
    } else text += c;
  }
  outAt.set(to, text.length);
  text = text.trimEnd();
  const marks: [number, number][] = [];
  let lastEnd = -1;
  for (const m of matches) {
    if (m.start < from || m.end > to || m.start < lastEnd) continue;
    marks.push([outAt.get(m.start) as number, Math.min(text.length, outAt.get(m.end) as number)]);
    lastEnd = m.end;
  }
  if (to < content.length) text += ' …';
  return { text, marks, line };
}

/** The snippet's text with its marks written as «…» (the CLI and Markdown/CSV export). */
export function markedText(s: Pick<Snippet, 'text' | 'marks'>, open = '«', close = '»'): string {
  let out = '';
  let at = 0;
  for (const [a, b] of s.marks) {
    out += s.text.slice(at, a) + open + s.text.slice(a, b) + close;
    at = b;
  }
  return out + s.text.slice(at);
}

/** The PDF page a line of a PDF result's content is on (meta.page_lines: [page, first line] pairs). */
export function pageOfLine(meta: Record<string, unknown> | undefined, line: number): number | undefined {
  const pl = meta?.page_lines;
  if (!Array.isArray(pl)) return undefined;
  let page: number | undefined;
  for (const e of pl) {
    if (!Array.isArray(e) || typeof e[0] !== 'number' || typeof e[1] !== 'number') return undefined;
    if (e[1] <= line) page = e[0];
    else break;
  }
  return page;
}
