import { describe, expect, test } from 'vitest';
import { parseList } from '../../src/shared/urllist';
import { ComposerList, packList, SHOWN_PROBLEMS } from '../../src/renderer/src/lib/packed-list';

const text = [
  ...Array.from({ length: 400 }, (_, i) => (i % 3 === 0 ? `https://example.org/d/${i}.pdf pages=1-3 grep="net revenue"` : `https://example.org/p/${i}?q=é&x=${i}`)),
  ...Array.from({ length: 130 }, (_, i) => `not a url ${i}`),
  ...Array.from({ length: 5 }, (_, i) => `https://example.org/p/${i + 1}?q=é&x=${i + 1}`),
].join('\n');

describe('the composer list the parse worker packs', () => {
  test('gives back every target as parseList read it, with its line and own options', () => {
    const parsed = parseList(text);
    const list = ComposerList.of(parsed);
    expect(list.length).toBe(parsed.targets.length);
    expect(list.all()).toEqual(parsed.targets);
    expect(list.at(0)).toEqual(parsed.targets[0]);
    expect(list.at(list.length)).toBeUndefined();
    expect(list.at(-1)).toBeUndefined();
    // A row's selector must see the same object twice, or it would render without end.
    expect(list.at(7)).toBe(list.at(7));
  });

  test('counts every problem and carries only the first ones shown', () => {
    const parsed = parseList(text);
    const list = ComposerList.of(parsed);
    expect(list.invalidCount).toBe(130);
    expect(list.invalid).toEqual(parsed.invalid.slice(0, SHOWN_PROBLEMS));
    expect(list.duplicatesCount).toBe(parsed.duplicates.length);
    expect(list.duplicates).toEqual(parsed.duplicates);
    expect([list.format, list.truncated]).toEqual([parsed.format, parsed.truncated]);
  });

  test('holds the targets in one string and typed arrays, not one object each', () => {
    const packed = packList(parseList(text));
    expect(typeof packed.urls).toBe('string');
    expect(packed.ends).toBeInstanceOf(Uint32Array);
    expect(packed.options.length).toBe(Math.ceil(400 / 3));
    expect(structuredClone(packed)).toEqual(packed);
  });
});
