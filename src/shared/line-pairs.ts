/**
 * Pairs of line numbers kept in a result's meta (page_lines, source_lines): [a, b] pairs in
 * content order, each starting a run that lasts until the next pair.
 */
export type LinePairs = [number, number][];

/** Whether a meta value is a list of line pairs as the pipeline writes them (meta comes back from the store as JSON). */
export function isLinePairs(v: unknown): v is LinePairs {
  return Array.isArray(v) && v.every((e) => Array.isArray(e) && typeof e[0] === 'number' && typeof e[1] === 'number');
}

/**
 * The last pair whose element `key` is at or before `line`; undefined when none is. Pairs are
 * in order of that element. A grep's or a book's text asks once per line, so it is a binary search.
 */
export function lastPairAtOrBefore(pairs: LinePairs, key: 0 | 1, line: number): [number, number] | undefined {
  let lo = 0;
  let hi = pairs.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((pairs[mid] as [number, number])[key] <= line) lo = mid + 1;
    else hi = mid;
  }
  return lo > 0 ? pairs[lo - 1] : undefined;
}
