import type { Options } from '../../../shared/types';
import type { ListFormat, ListProblem, ParsedList, ParsedTarget } from '../../../shared/urllist';

/** Enough to see the pattern in a broken list without rendering 50,000 list items; the rest are counted. */
export const SHOWN_PROBLEMS = 100;

/**
 * A parsed list as the worker sends it: the URLs in one string and the lines in typed arrays.
 * The window's thread spent ~100 ms a pause taking 50,000 target objects out of the
 * worker's message (structured clone builds every one); one string and three transferred
 * arrays take a few.
 */
export interface PackedList {
  format: ListFormat;
  truncated: boolean;
  count: number;
  /** Every URL, one after the other; ends[i] is where the i-th ends. */
  urls: string;
  ends: Uint32Array;
  lines: Uint32Array;
  /** Index into options of a target's own options, or -1. */
  optionOf: Int32Array;
  options: Options[];
  invalid: ListProblem[];
  invalidCount: number;
  duplicates: ListProblem[];
  duplicatesCount: number;
  /** A sitemap index: its entries are sitemaps, whose pages are the list (readSitemapIndex). */
  sitemapIndex?: boolean;
  /** An OPML outline: its entries are feeds, whose entries' pages can be the list (when asked). */
  opml?: boolean;
}

export function packList(p: ParsedList): PackedList {
  const n = p.targets.length;
  const ends = new Uint32Array(n);
  const lines = new Uint32Array(n);
  const optionOf = new Int32Array(n).fill(-1);
  const options: Options[] = [];
  const urls: string[] = [];
  let end = 0;
  p.targets.forEach((t, i) => {
    urls.push(t.url);
    end += t.url.length;
    ends[i] = end;
    lines[i] = t.line;
    if (t.options && Object.keys(t.options).length) optionOf[i] = options.push(t.options) - 1;
  });
  return {
    format: p.format,
    truncated: p.truncated,
    count: n,
    urls: urls.join(''),
    ends,
    lines,
    optionOf,
    options,
    invalid: p.invalid.slice(0, SHOWN_PROBLEMS),
    invalidCount: p.invalid.length,
    duplicates: p.duplicates.slice(0, SHOWN_PROBLEMS),
    duplicatesCount: p.duplicates.length,
  };
}

/** The buffers postMessage can hand over instead of copying. */
export function transferables(p: PackedList): ArrayBuffer[] {
  return [p.ends.buffer, p.lines.buffer, p.optionOf.buffer] as ArrayBuffer[];
}

/**
 * The composer's list: counts and the first problems as they are, each target made when a
 * row, the preview or Submit asks for it (and kept, so a row's selector sees the same object).
 */
export class ComposerList {
  readonly format: ListFormat;
  readonly truncated: boolean;
  readonly invalid: ListProblem[];
  readonly invalidCount: number;
  readonly duplicates: ListProblem[];
  readonly duplicatesCount: number;
  readonly sitemapIndex: boolean;
  readonly opml: boolean;
  private readonly made: ParsedTarget[] = [];

  constructor(private readonly packed: PackedList) {
    this.format = packed.format;
    this.truncated = packed.truncated;
    this.invalid = packed.invalid;
    this.invalidCount = packed.invalidCount;
    this.duplicates = packed.duplicates;
    this.duplicatesCount = packed.duplicatesCount;
    this.sitemapIndex = packed.sitemapIndex === true;
    this.opml = packed.opml === true;
  }

  static of(p: ParsedList): ComposerList {
    return new ComposerList(packList(p));
  }

  /** Valid, distinct targets. */
  get length(): number {
    return this.packed.count;
  }

  /** Some line carries options of its own (packList keeps only those that are not empty). */
  get hasOwnOptions(): boolean {
    return this.packed.options.length > 0;
  }

  at(i: number): ParsedTarget | undefined {
    if (!Number.isInteger(i) || i < 0 || i >= this.packed.count) return undefined;
    const made = this.made[i];
    if (made) return made;
    const { urls, ends, lines, optionOf, options } = this.packed;
    const url = urls.slice(i === 0 ? 0 : ends[i - 1], ends[i]);
    const own = options[optionOf[i] ?? -1];
    const t: ParsedTarget = own ? { url, options: own, line: lines[i] ?? 0 } : { url, line: lines[i] ?? 0 };
    this.made[i] = t;
    return t;
  }

  /** Every target in list order (for Submit). */
  all(): ParsedTarget[] {
    return Array.from({ length: this.packed.count }, (_, i) => this.at(i) as ParsedTarget);
  }
}
