/**
 * The store keeps a search for C++ to the results holding c++ (query.ts literalNeedles) with
 * SQLite's lower(), which folds ASCII only, and foldsInto for the rest: together they must
 * keep every result whose text the highlighter's fold (foldWithMap) finds the needle in, or
 * the index finds Ｃ＋＋ and search drops it.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { foldWithMap } from '../../src/main/search/fold';
import { foldsInto } from '../../src/main/search/needle';

/** What SQLite's lower() then instr() tell: ASCII letters in lower case, the rest as it is. */
const lowerHolds = (text: string, needle: string): boolean => text.replace(/[A-Z]/g, (c) => c.toLowerCase()).includes(needle);

describe('foldsInto', () => {
  it('reads every character the fold writes with ASCII letters, digits or signs, or with nothing (planes 0, 1 and 14)', () => {
    const missed: string[] = [];
    for (let cp = 0x80; cp <= 0xe01ef; cp++) {
      if ((cp >= 0xd800 && cp <= 0xdfff) || (cp >= 0x20000 && cp < 0xe0000)) continue;
      const ch = String.fromCodePoint(cp);
      const folded = foldWithMap(ch).folded;
      // Written with nothing: it must not hide C++ written around it.
      if (folded === '' && !foldsInto(`c${ch}++`, 'c++')) missed.push(`U+${cp.toString(16)} in c++`);
      for (const run of folded.match(/[\x21-\x7e]+/g) ?? []) if (!foldsInto(`${ch}`, run)) missed.push(`U+${cp.toString(16)} as ${run}`);
    }
    expect(missed).toEqual([]);
  });

  it('finds signed words written in full-width forms, with accents the index drops, a ligature or a mark, and not in their ASCII letters alone', () => {
    expect(foldsInto('このＣ＋＋は', 'c++')).toBe(true);
    expect(foldsInto('Ｃ++ and C＋+', 'c++')).toBe(true);
    expect(foldsInto('written in Ĉ#', 'c#')).toBe(true);
    expect(foldsInto('ASP．ＮＥＴ', '.net')).toBe(true);
    expect(foldsInto('C\u0327++ and C\u00AD++', 'c++')).toBe(true);
    expect(foldsInto('𝐂++', 'c++')).toBe(true);
    expect(foldsInto('ﬀ++ code', 'ff++')).toBe(true);
    expect(foldsInto('vitamin C, ça va + “bien”', 'c++')).toBe(false);
    expect(foldsInto('Ｃ ＋＋', 'c++')).toBe(false);
  });

  it('with lower(), finds a needle wherever the highlighter does', () => {
    // The needle's characters each in one of the ways a page may write it, with what the fold writes as nothing between them, amid other text.
    const ways: Record<string, string[]> = {
      c: ['c', 'C', 'Ｃ', 'ｃ', 'ç', 'Ĉ', '𝐜'],
      '+': ['+', '＋'],
      '#': ['#', '＃'],
      '.': ['.', '．'],
      n: ['n', 'N', 'Ｎ', 'ñ'],
      e: ['e', 'é', 'ｅ', 'E\u0301'],
      t: ['t', 'ｔ', '𝐭'],
      f: ['f', 'F', 'Ｆ'],
    };
    const between = ['', '', '', '\u0327', '\u00AD', '\u200B', '\u200C', 'ﾞ'];
    const around = ['c', 'C', '+', 'n', ' ', 'ff', 'ﬀ', '“', '東', 'ا', 'ก', '\u0E31', '😀', 'K', 'ı', 'é', 'Ｃ', '\u0327'];
    const needles = ['c++', 'c#', '.net', 'f#', 'ff++'];
    let found = 0;
    fc.assert(
      fc.property(
        fc.constantFrom(...needles),
        fc.array(fc.nat(), { minLength: 8, maxLength: 8 }),
        fc.array(fc.constantFrom(...around), { maxLength: 4 }),
        fc.array(fc.constantFrom(...around), { maxLength: 4 }),
        (needle, picks, before, after) => {
          const written = [...needle].map((c, i) => {
            const w = ways[c] as string[];
            return w[(picks[i] as number) % w.length]! + between[(picks[i] as number) % between.length]!;
          });
          const text = before.join('') + written.join('') + after.join('');
          if (!foldWithMap(text).folded.includes(needle)) return;
          found++;
          expect(lowerHolds(text, needle) || foldsInto(text, needle), text).toBe(true);
        },
      ),
      { numRuns: 3_000 },
    );
    // Most texts hold the needle: the property is not met by texts that never do.
    expect(found).toBeGreaterThan(1_500);
  });
});
