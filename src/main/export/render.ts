/**
 * What one target becomes in an export: its file kind, the bytes of its file, its YAML
 * front matter, its Markdown.
 */
import { isPageLines } from '../../shared/pages';
import { isCutShort, isPdfMarkdown, isPlainText, type TargetStatus } from '../../shared/types';
import { withoutBidiControls } from '../../shared/shown';
import { canonicalOptions } from '../../shared/urllist/options';
import { routeOf } from '../../shared/urllist/url';

export type FileKind = 'md' | 'txt' | 'json' | 'jsonl' | 'html';

/** A target that finished with a result; everything else (failed, pending, running) is "not done". */
export function isDone(t: TargetStatus): boolean {
  return t.status === 'done';
}

/**
 * What a target that is not done is called where a person reads it (its file's name and body,
 * its combined Markdown section): "failed"; "stopped mid-way" for one a cancel or a crash cut
 * short (stored as failed), as sift status and the row's "stopped" say; "not fetched" for one
 * the job never reached, as the app's table and export dialog say. "(pending)" read as if it
 * were still to come, and the cut-short one read "failed (cancelled): cancelled".
 */
export function notDoneWord(t: TargetStatus): string {
  if (t.status !== 'failed') return 'not fetched';
  return isCutShort(t) ? 'stopped mid-way' : 'failed';
}

export function contentOf(t: TargetStatus): string {
  return t.result?.content ?? '';
}

// A page's <title> keeps the control characters its author put there (an HTML parser only
// reports them): an ESC in a combined Markdown heading recoloured the terminal that showed
// it, a NUL made grep call the file binary, and both landed in the CSV's title cell.
// eslint-disable-next-line no-control-regex -- removing control characters is the point
const CONTROLS = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/g;

/**
 * A character that shows: not a space, a control or a format character (zero-width spaces and
 * joiners, bidi marks). A title of zero-width characters alone named its file "\u200b\u200c\u200d.md",
 * which a file manager lists as ".md", and headed its section with nothing.
 */
const VISIBLE = /[^\s\p{Cc}\p{Cf}]/u;

/** The name a target goes by: its title, the title its meta found, or its URL; without control characters. */
export function titleOf(t: TargetStatus): string {
  const title = t.title.replace(CONTROLS, '');
  const found = t.result?.meta?.['title'];
  const metaTitle = typeof found === 'string' ? found.replace(CONTROLS, '') : '';
  if (VISIBLE.test(title)) return title;
  if (VISIBLE.test(metaTitle)) return metaTitle;
  return t.url;
}

/**
 * What a target's exported file is named from: its name (titleOf), and for a single-page
 * app's route the route's words too. An app keeps one title for all its routes, so three
 * routes were "Reports.md", "Reports (2).md" and "Reports (3).md"; now "Reports - reports 1.md".
 */
export function fileNameOf(t: TargetStatus): string {
  const name = titleOf(t);
  let route = name === t.url ? '' : routeOf(t.url).slice(1);
  if (!route) return name;
  try {
    route = decodeURIComponent(route);
  } catch {
    /* kept as written */
  }
  const words = route.replace(/[!/?#&=]+/g, ' ').trim();
  return words ? `${name} - ${words}` : name;
}

function looksLikeJson(s: string): boolean {
  const c = s.trimStart()[0];
  if (c !== '{' && c !== '[') return false;
  try {
    JSON.parse(s);
    return true;
  } catch {
    return false;
  }
}

const isBlank = (c: number): boolean => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;

/**
 * jq's output when it is more than one JSON value ('.items[]' gives one per item, each
 * pretty-printed): each value on one line, its tokens as jq wrote them (a number is not
 * re-read, so 12345678901234567890 stays so). Undefined for one value, or for text that is
 * not a stream of JSON values.
 */
export function jsonStreamLines(s: string): string[] | undefined {
  const lines: string[] = [];
  const n = s.length;
  let i = 0;
  while (i < n) {
    while (i < n && isBlank(s.charCodeAt(i))) i++;
    if (i >= n) break;
    let value = '';
    let from = i;
    let depth = 0;
    let inString = false;
    for (; i < n; i++) {
      const c = s.charCodeAt(i);
      if (inString) {
        if (c === 0x5c) i++;
        else if (c === 0x22) {
          inString = false;
          if (depth === 0) {
            i++;
            break;
          }
        }
        continue;
      }
      if (c === 0x22) inString = true;
      else if (c === 0x7b || c === 0x5b) depth++;
      else if (c === 0x7d || c === 0x5d) {
        if (--depth === 0) {
          i++;
          break;
        }
      } else if (isBlank(c)) {
        if (depth === 0) break;
        // Blanks between tokens go; those inside strings were skipped above.
        value += s.slice(from, i);
        from = i + 1;
      }
    }
    value += s.slice(from, i);
    try {
      JSON.parse(value);
    } catch {
      return undefined;
    }
    lines.push(value);
  }
  return lines.length > 1 ? lines : undefined;
}

/**
 * The file kind of a target by what it asked for: a jq program or `meta` gives JSON (a jq
 * program that gives several values gives JSON Lines, one value a line: its output as it
 * was, two pretty objects one after the other, is no JSON a viewer or a program opens; a jq
 * program asked for text gives jq -r's lines: text), text/raw/links and grep give text, html
 * gives HTML. Markdown is the default mode, and for a JSON document the pipeline returns
 * pretty JSON instead, and a text document as it is, so the content decides there.
 */
export const defaultKind = (t: TargetStatus): FileKind => ownFile(t).kind;

/**
 * A target's own file: its kind (defaultKind) and, for JSON Lines, the values one a line, read
 * once for both (the values were read to choose the kind, then again to write them).
 */
export interface OwnFile {
  kind: FileKind;
  jsonLines?: string[];
}

export function ownFile(t: TargetStatus): OwnFile {
  const o = t.options;
  if (o?.jq && o.mode !== 'text') {
    const jsonLines = jsonStreamLines(contentOf(t));
    return jsonLines ? { kind: 'jsonl', jsonLines } : { kind: 'json' };
  }
  if (o?.jq) return { kind: 'txt' };
  switch (o?.mode) {
    case 'text':
    case 'raw':
    case 'links':
      return { kind: 'txt' };
    case 'meta':
      return { kind: 'json' };
    case 'html':
      return { kind: 'html' };
    default:
      if (looksLikeJson(contentOf(t))) return { kind: 'json' };
      // grep's lines are lines: as Markdown, two of them ran into one paragraph, and the "--"
      // between two groups of context made the line above it a heading.
      if (o?.grep) return { kind: 'txt' };
      // A PDF's text is laid out, not written in Markdown, as the app shows it: as Markdown its
      // lines ran into one paragraph (a heading into the text below it), "1. Introduction"
      // became a list item and an indented line code. Its Markdown (headings and list items
      // marked) is Markdown, as the app shows it: as .txt, and fenced in the combined file, a
      // reader saw its "## Abstract" and "- " written out.
      if (t.result?.meta?.kind === 'pdf') return { kind: isPdfMarkdown(t.result.meta) ? 'md' : 'txt' };
      return { kind: isPlainText(t.result?.meta) ? 'txt' : 'md' };
  }
}

// YAML's double-quoted scalar is JSON's string plus escapes for what YAML calls
// non-printable: DEL, C1 controls (NEL U+0085 is a line break in YAML 1.1), U+2028/2029
// (line breaks in YAML 1.1) and U+FFFE/FFFF. JSON.stringify already escapes C0 controls,
// quotes, backslashes and lone surrogates.
function yamlQuote(s: string): string {
  return JSON.stringify(s).replace(/[\u007f-\u009f\u2028\u2029\ufffe\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

function yamlValue(v: unknown): string {
  if (v === null || v === undefined) return 'null';
  if (typeof v === 'number') return Number.isFinite(v) ? String(v) : 'null';
  if (typeof v === 'boolean') return String(v);
  if (typeof v === 'string') return yamlQuote(v);
  // Objects and arrays as one-line JSON, which is YAML flow syntax, with every string
  // escaped as above.
  const json = JSON.stringify(v, (_k, x: unknown) => (typeof x === 'bigint' ? x.toString() : x));
  if (json === undefined) return 'null';
  return json.replace(/[\u007f-\u009f\u2028\u2029\ufffe\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** `key: value` lines, keys and values quoted whenever they are not plain words. */
export function yamlLines(fields: Record<string, unknown>): string {
  let out = '';
  for (const [k, v] of Object.entries(fields)) {
    if (v === undefined) continue;
    const key = /^[A-Za-z_][A-Za-z0-9_-]*$/.test(k) ? k : yamlQuote(k);
    out += `${key}: ${yamlValue(v)}\n`;
  }
  return out;
}

/**
 * A file's meta (YAML front matter, the combined Markdown's meta block): the target's URL,
 * title and options (what a question's passages answer), then the result's meta without
 * page_lines, source_lines and match_columns. Those count the lines of the content as stored, which the
 * file's page marks have moved: a citation read from them named the wrong line, and the
 * app's meta table leaves them out as bookkeeping. The JSONL keeps every field with the
 * content they count.
 */
export function metaFields(t: TargetStatus): Record<string, unknown> {
  const { url: _url, title: _title, page_lines: _pages, source_lines: _lines, match_columns: _columns, ...rest } = t.result?.meta ?? {};
  const options = canonicalOptions(t.options);
  return { url: t.url, title: titleOf(t), ...(Object.keys(options).length > 0 ? { options } : {}), ...rest };
}

export function frontMatter(t: TargetStatus): string {
  return `---\n${yamlLines(metaFields(t))}---\n\n`;
}

/**
 * A PDF result's text with a line "[page 2]" where each of its pages starts
 * (meta.page_lines). The app marks the pages of a result it shows and sift fetch names them,
 * but an exported file had none: the passages a question found, or the lines a grep kept,
 * came without the page they cite, and a whole document without its page breaks. A PDF's
 * Markdown has them as paragraphs of their own (Markdown reads "[page 2]" as written), the
 * first after the document's title when that heads it, so the file and its section in the
 * combined Markdown open with the title. Other kinds, and results without pages, are as stored.
 */
export function pagedContent(t: TargetStatus, kind: FileKind): string {
  const content = contentOf(t);
  const pageLines = t.result?.meta?.page_lines;
  const markdown = kind === 'md' && isPdfMarkdown(t.result?.meta);
  if ((kind !== 'txt' && !markdown) || !isPageLines(pageLines) || pageLines.length === 0) return content;
  // Pages with no line of their own (blank pages) start on the line the next one does; that one is marked.
  const starts = new Map(pageLines.map(([page, line]) => [line, page]));
  const lines = content.split('\n');
  const out: string[] = [];
  const mark = (page: number, next: string): void => {
    // One blank line before the mark, whatever the content had there; in Markdown one after it too.
    while (out.length > 0 && out[out.length - 1]!.trim() === '') out.pop();
    if (out.length > 0) out.push('');
    out.push(`[page ${page}]`);
    if (markdown && next.trim() !== '') out.push('');
  };
  const titled = markdown && /^# /.test(lines[0] ?? '');
  lines.forEach((line, i) => {
    const page = starts.get(i + 1);
    if (i === 0 && titled) {
      out.push(line);
      if (page !== undefined) mark(page, lines[1] ?? '');
      return;
    }
    if (page !== undefined) mark(page, line);
    out.push(line);
  });
  return out.join('\n');
}

/** The fence language a kind of content is shown in inside Markdown. */
export const FENCE_LANG: Record<FileKind, string> = { md: '', txt: 'text', json: 'json', jsonl: 'json', html: 'html' };

/** The bytes of a target's own file in a folder or zip export. */
export function fileBody(t: TargetStatus, { kind, jsonLines }: OwnFile, forced: boolean, includeMeta: boolean): string {
  const content = contentOf(t);
  if (kind === 'json' && forced) {
    // --format json: every file is one JSON object, whatever the target's mode produced.
    const obj: Record<string, unknown> = { url: t.url, title: titleOf(t), content };
    if (includeMeta) obj['meta'] = t.result?.meta ?? {};
    return `${JSON.stringify(obj, null, 2)}\n`;
  }
  if (kind === 'md') {
    // A folder of Markdown files (the app's and the CLI's default) holds every result as .md:
    // one that is not Markdown (a jq program's JSON, a log or a CSV fetched as text, a page's
    // HTML) is fenced there, as the combined Markdown does; bare, a log's '#' lines were
    // headings and a CSV's rows one paragraph.
    const own = defaultKind(t);
    const body = own === 'md' ? pagedContent(t, own) : mdFence(pagedContent(t, own), FENCE_LANG[own]);
    return includeMeta ? frontMatter(t) + body : body;
  }
  if (kind === 'jsonl') return `${(jsonLines ?? [content]).join('\n')}\n`;
  return pagedContent(t, kind);
}

/** Markdown inline text that stays text: no emphasis, links, HTML or line breaks. */
export function mdInline(s: string): string {
  return withoutBidiControls(s)
    .replace(/\s+/gu, ' ')
    .trim()
    .replace(/[\\`*_{}[\]()<>#+!|~]/g, '\\$&');
}

// CommonMark's block starts, as far as headings need them. A heading may be indented up to
// three spaces; four make it code.
const ATX = /^( {0,3})(#{1,6})(?=[ \t]|$)/;
const SETEXT_UNDERLINE = /^ {0,3}(=+|-+)[ \t]*$/;
const THEMATIC_BREAK = /^ {0,3}([-*_])(?:[ \t]*\1){2,}[ \t]*$/;
const FENCE = /^ {0,3}(`{3,}|~{3,})/;
// A block that an underline cannot turn into a heading: a quote, a list item, a table row,
// HTML ("- item" over "---" is a list and a rule, not a heading).
const NOT_A_PARAGRAPH = /^ {0,3}(?:[>|<]|[-+*](?:[ \t]|$)|\d{1,9}[.)](?:[ \t]|$))/;

/** An HTML block that runs until a line holding its end, or to the document's end: CommonMark's kinds 1 to 5. */
interface HtmlBlock {
  start: RegExp;
  end: RegExp;
  /** What ends it, written after a document that leaves it open. */
  close: string;
}
const HTML_BLOCKS: readonly HtmlBlock[] = [
  ...['script', 'pre', 'style', 'textarea'].map((tag) => ({ start: new RegExp(`^ {0,3}<${tag}(?=[ \\t>]|$)`, 'i'), end: /<\/(?:script|pre|style|textarea)>/i, close: `</${tag}>` })),
  { start: /^ {0,3}<!--/, end: /-->/, close: '-->' },
  { start: /^ {0,3}<\?/, end: /\?>/, close: '?>' },
  { start: /^ {0,3}<![A-Za-z]/, end: />/, close: '>' },
  { start: /^ {0,3}<!\[CDATA\[/, end: /\]\]>/, close: ']]>' },
];

/** Whether `line` closes the fence that `fence` (its opening run of ` or ~) opened. */
function closesFence(line: string, fence: string): boolean {
  const f = FENCE.exec(line);
  return f !== null && f[1]![0] === fence[0] && f[1]!.length >= fence.length && line.trim() === f[1];
}

/**
 * Markdown lines with every setext heading ("Title" over "=====" or "-----") written as the
 * ATX heading it is ("# Title", "## Title"), so that its level can be moved like any other:
 * a fetched README that underlines its headings kept an h1 inside a "##" section.
 */
function setextAsAtx(lines: string[]): string[] {
  const out: string[] = [];
  let fence = '';
  // The paragraph being read: where it starts in `out`, and whether an underline makes it a heading.
  let para: { at: number; heading: boolean } | null = null;
  for (const line of lines) {
    if (fence) {
      if (closesFence(line, fence)) fence = '';
      out.push(line);
      continue;
    }
    const f = FENCE.exec(line);
    const u = SETEXT_UNDERLINE.exec(line);
    if (f) {
      fence = f[1]!;
      para = null;
    } else if (line.trim() === '') {
      para = null;
    } else if (u && para?.heading) {
      const text = out.splice(para.at);
      const indent = /^ */.exec(text[0]!)![0];
      out.push(`${indent}${u[1]![0] === '=' ? '#' : '##'} ${text.map((l) => l.trim()).join(' ')}`);
      para = null;
      continue;
    } else if (ATX.test(line) || THEMATIC_BREAK.test(line)) {
      para = null;
    } else if (!para && !/^( {4}|\t)/.test(line)) {
      // Four spaces with no paragraph open are indented code; anything else opens a paragraph.
      para = { at: out.length, heading: !NOT_A_PARAGRAPH.test(line) };
    }
    out.push(line);
  }
  return out;
}

/**
 * A result's Markdown as one section of a combined file, under the "## title" that heads it:
 * a first heading that only repeats the title goes (Sift's markdown opens with one, so every
 * section said its title twice), and the other headings move two levels down (at most to
 * ######) so they nest under the section instead of outranking it. Setext headings and
 * headings indented up to three spaces are headings too; lines inside fenced code are left
 * as they are.
 */
export function nestedMarkdown(content: string, title: string): string {
  const lines = setextAsAtx(content.split('\n'));
  // The heading repeats the title as the page wrote it, control characters and all.
  const same = (a: string, b: string): boolean => a.replace(CONTROLS, '').replace(/\s+/g, ' ').trim().toLowerCase() === b.replace(CONTROLS, '').replace(/\s+/g, ' ').trim().toLowerCase();
  const first = lines.findIndex((l) => l.trim() !== '');
  // Its text escaped as Markdown ("The \<template> element"), the title is not; a closing run of #s is not part of it.
  const h1 = first >= 0 ? /^ {0,3}#[ \t]+(.*?)(?:[ \t]+#+)?[ \t]*$/.exec(lines[first]!) : null;
  if (h1 && same(h1[1]!.replace(/\\([!-/:-@[-`{-~])/g, '$1'), title)) {
    lines.splice(first, 1);
    while (first < lines.length && lines[first]!.trim() === '') lines.splice(first, 1);
  }
  let fence = '';
  let html: HtmlBlock | null = null;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (fence) {
      if (closesFence(line, fence)) fence = '';
      continue;
    }
    if (html) {
      if (html.end.test(line)) html = null;
      continue;
    }
    const f = FENCE.exec(line);
    if (f) {
      fence = f[1]!;
      continue;
    }
    html = HTML_BLOCKS.find((b) => b.start.test(line)) ?? null;
    if (html) {
      if (html.end.test(line)) html = null;
      continue;
    }
    const h = ATX.exec(line);
    if (h) lines[i] = h[1]! + '#'.repeat(Math.min(6, h[2]!.length + 2)) + line.slice(h[0].length);
  }
  // A document cut inside a code block or a comment (a README that hit the size limit, a
  // draft's '<!-- TODO') left it open, and the combined file's next sections, their headings
  // and anchors, were read as its code or its comment: the contents' links led nowhere.
  const close = fence || html?.close;
  if (close) lines.splice(lines.at(-1) === '' ? -1 : lines.length, 0, close);
  return lines.join('\n');
}

/** Text as one Markdown code span: delimited by a backtick run longer than any inside it. */
export function mdCode(s: string): string {
  const flat = withoutBidiControls(s).replace(/\s+/gu, ' ');
  let longest = 0;
  for (const m of flat.matchAll(/`+/g)) longest = Math.max(longest, m[0].length);
  const ticks = '`'.repeat(longest + 1);
  // A span that starts or ends with a backtick needs a space between it and the delimiters.
  const pad = flat.startsWith('`') || flat.endsWith('`') ? ' ' : '';
  return `${ticks}${pad}${flat}${pad}${ticks}`;
}

/** Content shown verbatim in Markdown: a fence longer than any backtick run inside it. */
export function mdFence(content: string, lang: string): string {
  let longest = 0;
  for (const m of content.matchAll(/`{3,}/g)) longest = Math.max(longest, m[0].length);
  const fence = '`'.repeat(Math.max(3, longest + 1));
  return `${fence}${lang}\n${content}${content.endsWith('\n') ? '' : '\n'}${fence}\n`;
}
