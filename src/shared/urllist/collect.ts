import type { Options } from '../types';
import { canonicalOptions, isEmptyOptions, mergeOptions, validateOptions } from './options';
import { checkUrl, clip, hidePasswords } from './url';

export interface ParsedTarget {
  url: string;
  options?: Options;
  /** 1-based line of the input the target came from. */
  line: number;
}
export interface ListProblem {
  line: number;
  /** The offending input, cut to about 200 characters. */
  text: string;
  /** What is wrong, for the user. */
  reason: string;
}

/**
 * Where every format reader puts what it found: checks the URL, merges the list's defaults
 * under the entry's own options, drops duplicates and stops at the target cap. Keeping this
 * in one place is what makes every format report problems the same way.
 */
export class Collector {
  readonly targets: ParsedTarget[] = [];
  readonly invalid: ListProblem[] = [];
  readonly duplicates: ListProblem[] = [];
  /** Set when a cap cut the list short; readers stop adding once `full`. */
  truncated = false;
  private readonly seen = new Map<string, number>();
  private readonly defaults: Options | undefined;
  private readonly defaultsKey: string;

  constructor(
    defaults: Options | undefined,
    private readonly maxTargets: number,
  ) {
    const d = defaults ? canonicalOptions(defaults) : undefined;
    this.defaults = d && !isEmptyOptions(d) ? d : undefined;
    this.defaultsKey = this.defaults ? JSON.stringify(this.defaults) : '';
  }

  get full(): boolean {
    return this.targets.length >= this.maxTargets;
  }

  reject(line: number, text: string, reason: string): void {
    this.invalid.push({ line, text: clip(hidePasswords(text)), reason: hidePasswords(reason) });
  }

  /** One entry: its URL as written and its own options (already checked by the reader). */
  add(line: number, text: string, rawUrl: string, own?: Options): void {
    if (this.full) {
      this.truncated = true;
      return;
    }
    const u = checkUrl(rawUrl);
    if (!u.ok) {
      this.reject(line, text, u.reason);
      return;
    }
    let options: Options | undefined;
    let optionsKey: string;
    if (own && !isEmptyOptions(own)) {
      options = canonicalOptions(mergeOptions(this.defaults, own));
      // Per-entry values were checked by the reader; a merge cannot break a length cap, but a
      // JSON entry's options were only shape-checked, so check the merged whole once.
      const bad = validateOptions(options);
      if (bad) {
        this.reject(line, text, bad);
        return;
      }
      optionsKey = JSON.stringify(options);
    } else {
      options = this.defaults;
      optionsKey = this.defaultsKey;
    }
    const key = optionsKey ? `${u.url}\u0000${optionsKey}` : u.url;
    const first = this.seen.get(key);
    if (first !== undefined) {
      this.duplicates.push({ line, text: clip(text), reason: `duplicate of line ${first}` });
      return;
    }
    this.seen.set(key, line);
    this.targets.push(options ? { url: u.url, options: { ...options }, line } : { url: u.url, line });
  }
}
