/**
 * The URL-list parser (SPEC §6 "URL lists"): the app's composer and the CLI read every list
 * through parseList, so a list means the same thing everywhere. Plain code only: this
 * folder is compiled for the renderer too (no node:*, no Buffer).
 */
import type { Options } from '../types';
import { Collector, type ListProblem, type ParsedTarget } from './collect';
import { detectFormat } from './detect';
import { readHtml } from './html';
import { readJson } from './json';
import { lineCapOffset } from './lines';
import { readMarkdown } from './markdown';
import { readTable } from './table';
import { readText, readUriList } from './text';
import { readXml } from './xml';

export type ListFormat = 'text' | 'csv' | 'tsv' | 'markdown' | 'html' | 'json' | 'uri-list' | 'xml';
export const LIST_FORMATS: readonly ListFormat[] = ['text', 'csv', 'tsv', 'markdown', 'html', 'json', 'uri-list', 'xml'];

export type { ListProblem, ParsedTarget };
export interface ParsedList {
  format: ListFormat;
  /** Valid, distinct targets in list order. */
  targets: ParsedTarget[];
  invalid: ListProblem[];
  /** Entries dropped as duplicates; reason names the line of the first one. */
  duplicates: ListProblem[];
  /** A cap (lines or targets) cut the list short. */
  truncated: boolean;
}
export interface ParseListOptions {
  filename?: string;
  mimeType?: string;
  /** Force a format instead of detecting one. */
  format?: ListFormat;
  /** Where the list was fetched from (`sift batch URL`): a web page's relative links resolve against it. */
  baseUrl?: string;
  /** Options for the whole list; an entry's own options win. */
  defaults?: Options;
  /** Nothing after this line is read. */
  maxLines?: number;
  /** Longer lines (rows, for CSV/TSV) are invalid. Not applied to HTML and JSON arrays,
   *  whose lines are legitimately long (Chrome inlines favicons as data: URIs). */
  maxLineLength?: number;
  /** Stop after this many valid targets. */
  maxTargets?: number;
}

// 200,000 lines is the longest list the bench holds to the 2 s budget; 16 KiB is twice the
// 8 KiB URL cap, room for a URL and a long jq program.
export const DEFAULT_MAX_LINES = 200_000;
export const DEFAULT_MAX_LINE_LENGTH = 16 * 1024;

/**
 * The most bytes of a list the app and the CLI read: lists bigger than this are surely not
 * lists (a browser's bookmarks export with its favicons inlined is a few MiB), and reading
 * one would stall the window, or fill memory from /dev/zero or a runaway pipe.
 */
export const MAX_LIST_BYTES = 64 * 1024 * 1024;

function cap(v: number | undefined, fallback: number): number {
  return v !== undefined && Number.isFinite(v) && v >= 0 ? Math.floor(v) : fallback;
}

/** Reads a list in any supported format. Never throws: problems come back in the result. */
export function parseList(input: string, opts: ParseListOptions = {}): ParsedList {
  const maxLines = cap(opts.maxLines, DEFAULT_MAX_LINES);
  const maxLineLength = cap(opts.maxLineLength, DEFAULT_MAX_LINE_LENGTH);
  const maxTargets = cap(opts.maxTargets, Number.MAX_SAFE_INTEGER);
  const unmarked = input.charCodeAt(0) === 0xfeff ? input.slice(1) : input;
  // A CR alone ends a line too, as editors and browsers read it: classic Mac OS and Excel for
  // Mac's "CSV (Macintosh)" end every line so. Read by LF, such a list was one line ("more
  // than one URL on this line") and every CSV row was "line 1".
  const text = /\r(?!\n)/.test(unmarked) ? unmarked.replace(/\r\n?/g, '\n') : unmarked;
  let format: ListFormat = 'text';
  const c = new Collector(opts.defaults, maxTargets);
  try {
    format = opts.format ?? detectFormat(text, opts.filename, opts.mimeType);
    const at = lineCapOffset(text, maxLines);
    const cut = at === -1 ? text : text.slice(0, at);
    switch (format) {
      case 'text':
        readText(cut, c, maxLineLength);
        break;
      case 'uri-list':
        readUriList(cut, c, maxLineLength);
        break;
      case 'markdown':
        readMarkdown(cut, c, maxLineLength);
        break;
      case 'csv':
      case 'tsv':
        readTable(cut, format, c, maxLineLength);
        break;
      case 'html':
        readHtml(cut, c, opts.baseUrl);
        break;
      case 'xml':
        readXml(cut, c, opts.baseUrl);
        break;
      case 'json':
        // Given whole: cutting an array mid-way would make every element after it invalid.
        readJson(text, c, maxLines, maxLineLength);
        break;
    }
    if (at !== -1 && format !== 'json') c.truncated = true;
  } catch (err) {
    // A reader bug must not take the composer down; the user still sees what was read.
    c.reject(0, '', `could not read the list: ${err instanceof Error ? err.message : String(err)}`);
  }
  return { format, targets: c.targets, invalid: c.invalid, duplicates: c.duplicates, truncated: c.truncated };
}

export { detectFormat };
export { LIST_EXTENSIONS } from './detect';
export { normalizeUrl, checkUrl, isRouteFragment, MAX_URL_LENGTH } from './url';
export { formatOptionsLine, canonicalOptions, tooLongOption, optionsConflict, conflictMessage, type OptionsConflict } from './options';
export { decodeListBytes, decodeListFile, notAList, unreadableList, officeFile, DAMAGED_GZIP, GZIP_TOO_LARGE, type DecodedList } from './decode';
