import { describe, expect, it } from 'vitest';
import { isLinePairs, lastPairAtOrBefore } from '../../src/shared/line-pairs';
import { pageAt } from '../../src/shared/pages';
import { sourceLineAt, sourceLinesOf } from '../../src/shared/source-lines';

describe('line pairs in a result meta', () => {
  it('accepts pairs of numbers only', () => {
    expect(isLinePairs([])).toBe(true);
    expect(isLinePairs([[1, 1], [2, 40]])).toBe(true);
    expect(isLinePairs([[1, '1']])).toBe(false);
    expect(isLinePairs([[1]])).toBe(false);
    expect(isLinePairs({ 0: [1, 1] })).toBe(false);
    expect(isLinePairs(null)).toBe(false);
  });

  it('finds the last pair at or before a line by either element', () => {
    const pairs: [number, number][] = [[1, 10], [4, 20], [9, 30]];
    expect(lastPairAtOrBefore(pairs, 0, 0)).toBeUndefined();
    expect(lastPairAtOrBefore(pairs, 0, 1)).toEqual([1, 10]);
    expect(lastPairAtOrBefore(pairs, 0, 8)).toEqual([4, 20]);
    expect(lastPairAtOrBefore(pairs, 0, 100)).toEqual([9, 30]);
    expect(lastPairAtOrBefore(pairs, 1, 19)).toEqual([1, 10]);
    expect(lastPairAtOrBefore(pairs, 1, 20)).toEqual([4, 20]);
    expect(lastPairAtOrBefore([], 1, 5)).toBeUndefined();
  });

  it('cites the page a line of a PDF result is on', () => {
    const pageLines: [number, number][] = [[1, 1], [2, 12], [3, 30]];
    expect(pageAt(pageLines, 0)).toBeUndefined();
    expect(pageAt(pageLines, 11)).toBe(1);
    expect(pageAt(pageLines, 12)).toBe(2);
    expect(pageAt(pageLines, 500)).toBe(3);
  });

  it('cites the document line of a kept line, and none for a line of the result its own', () => {
    // grep's output: lines 5-6 of the page, "--", then line 40.
    const pairs = sourceLinesOf([5, 6, 0, 40]);
    expect(pairs).toEqual([[1, 5], [3, 0], [4, 40]]);
    expect(sourceLineAt(pairs, 1)).toBe(5);
    expect(sourceLineAt(pairs, 2)).toBe(6);
    expect(sourceLineAt(pairs, 3)).toBeUndefined();
    expect(sourceLineAt(pairs, 4)).toBe(40);
    expect(sourceLineAt(pairs, 0)).toBeUndefined();
  });
});
