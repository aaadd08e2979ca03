/**
 * Characters Unicode holds to be another way of writing letters or digits (its compatibility
 * forms): the full-width and half-width forms of Japanese and Chinese input, the ligatures
 * PDF text is full of, superscript footnote marks, Roman numerals and circled numbers. Each
 * is found by what a person types, and marked where the page writes it.
 */
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { foldForIndex, foldWithMap } from '../../src/main/search/fold';
import { askJob, markedText, searchStore } from '../../src/main/search';
import { tempStore } from '../helpers/store';
import type { Store } from '../../src/main/store';

let db: ReturnType<typeof tempStore>;
let store: Store;
beforeEach(() => {
  db = tempStore();
  store = db.store;
});
afterEach(() => db.close());

/** A finished job whose targets hold these contents, stored the way the runner stores them. */
function storeJob(id: string, contents: string[]): void {
  store.insertJob({ id, caller: 'alice', callerClass: 'user', idemKey: `k-${id}`, targetsTotal: contents.length, nowMs: 1_000, leaseExpires: 60_000 }, contents.map((_, i) => ({ url: `https://forms.test/${i}` })));
  store.transition(id, 'queued', 'running', '', 1_000);
  contents.forEach((content, idx) => {
    expect(store.startTarget(id, idx, 2_000)).toBe(true);
    const outcome = { status: 'done' as const, result: { content, meta: { title: 'Page' } }, error: '', hint: '', bytes: content.length, title: 'Page', errorStatus: 0 };
    expect(store.finishTarget(id, idx, outcome, 2_000, 60_000)).toBeDefined();
  });
}

/** Each hit's target, line and snippet with its matches «marked», in target order. */
const hits = (q: string): [number, number | undefined, string][] =>
  searchStore(store, q, { jobId: 'j' })
    .hits.sort((a, b) => a.idx - b.idx)
    .map((h) => [h.idx, h.line, markedText({ text: h.snippet, marks: h.marks })]);

describe('full-width and half-width forms', () => {
  // Each word on line 2, so a hit cited "in the url" or at line 1 shows.
  const PAGES = [
    'スペック\nこのＧＰＵは１０倍速い。',
    'Specs\nThe GPU is 10 times faster.',
    // ｶﾞ is two characters that NFKC writes as one (ガ): the marks after it must not shift.
    'マニュアル\nｶﾞｲﾄﾞを読んでからＧＰＵを挿す。',
    'マニュアル\nガイドを読む。',
  ];
  beforeEach(() => storeJob('j', PAGES));

  it('finds ＧＰＵ by GPU and GPU by ＧＰＵ, and marks each as the page writes it', () => {
    for (const q of ['GPU', 'gpu', 'ＧＰＵ', 'ｇｐｕ']) {
      expect(hits(q), q).toEqual([
        [0, 2, 'スペック このＧＰＵは１０倍速い。'.replace('ＧＰＵ', '«ＧＰＵ»')],
        [1, 2, 'Specs The «GPU» is 10 times faster.'],
        [2, 2, 'マニュアル ｶﾞｲﾄﾞを読んでから«ＧＰＵ»を挿す。'],
      ]);
    }
  });

  it('finds １０ by 10 and 10 by １０', () => {
    for (const q of ['10', '１０']) expect(hits(q).map(([idx, , text]) => [idx, text.match(/«[^»]+»/g)]), q).toEqual([[0, ['«１０»']], [1, ['«10»']]]);
  });

  it('finds half-width ｶﾞｲﾄﾞ by ガイド and ガイド by ｶﾞｲﾄﾞ, marking the whole word', () => {
    for (const q of ['ガイド', 'ｶﾞｲﾄﾞ']) {
      expect(hits(q), q).toEqual([
        [2, 2, 'マニュアル «ｶﾞｲﾄﾞ»を読んでからＧＰＵを挿す。'],
        [3, 2, 'マニュアル «ガイド»を読む。'],
      ]);
    }
  });

  it('is read alike by Ask this job', () => {
    expect(askJob(store, 'j', 'ＧＰＵ speed?').map((a) => a.idx).sort()).toEqual([0, 1, 2]);
  });
});

describe('ligatures, superscripts, Roman numerals and circled numbers', () => {
  const PAGES = [
    // As PDF text comes out of a typeset page: ligatures, a footnote mark glued to a word.
    'Report\nThe ﬁnal ﬁgures were ﬂat, as Einstein¹ said.\nChapter Ⅻ starts at step ③.',
    'Report\nThe final figures were flat, as Einstein said in chapter XII.',
    'Units\nThe room is 20 m² and holds 10⁶ grains.',
  ];
  beforeEach(() => storeJob('j', PAGES));

  it('finds a word written with a ligature by its letters, and the other way round', () => {
    for (const q of ['final', 'ﬁnal', '"final figures"']) {
      expect(hits(q).map(([idx, line, text]) => [idx, line, text.match(/«[^»]+»/g)]), q).toEqual([
        [0, 2, [q.startsWith('"') ? '«ﬁnal ﬁgures»' : '«ﬁnal»']],
        [1, 2, [q.startsWith('"') ? '«final figures»' : '«final»']],
      ]);
    }
    expect(hits('flat').map(([idx, , text]) => [idx, text.match(/«[^»]+»/g)])).toEqual([[0, ['«ﬂat»']], [1, ['«flat»']]]);
  });

  it('is read alike by Ask this job: a question about final figures is answered from the page that writes ﬁnal ﬁgures', () => {
    expect(askJob(store, 'j', 'What were the final figures?').map((a) => a.idx).sort()).toEqual([0, 1]);
  });

  it('finds a word with a footnote mark glued to it', () => {
    expect(hits('einstein').map(([idx, line, text]) => [idx, line, text.match(/«[^»]+»/g)])).toEqual([
      [0, 2, ['«Einstein»']],
      [1, 2, ['«Einstein»']],
    ]);
  });

  it('finds Ⅻ by XII and ③ by 3, and a superscript typed as it is written', () => {
    expect(hits('XII').map(([idx, line, text]) => [idx, line, text.match(/«[^»]+»/g)])).toEqual([
      [0, 3, ['«Ⅻ»']],
      [1, 2, ['«XII»']],
    ]);
    expect(hits('"step 3"').map(([idx, line, text]) => [idx, line, text.match(/«[^»]+»/g)])).toEqual([[0, 3, ['«step ③»']]]);
    expect(hits('m²').map(([idx, line, text]) => [idx, line, text.match(/«[^»]+»/g)])).toEqual([[2, 2, ['«m²»']]]);
    expect(hits('10⁶').map(([idx, , text]) => [idx, text.match(/«[^»]+»/g)])).toEqual([[2, ['«10⁶»']]]);
  });
});

describe('letters in the bold and italic styles of social posts (Mathematical Alphanumeric Symbols)', () => {
  // Each such letter is two UTF-16 units: marks must fall between whole characters.
  const PAGES = ['Post\n𝗕𝗥𝗘𝗔𝗞𝗜𝗡𝗚: the 𝘧𝘪𝘯𝘢𝘭 vote is in, 𝟭𝟬 to 𝟵.', 'Post\nBreaking: the final vote is in, 10 to 9.'];
  beforeEach(() => storeJob('j', PAGES));

  it('finds them by the letters people type, and the other way round, marked whole', () => {
    for (const q of ['breaking', '𝗕𝗥𝗘𝗔𝗞𝗜𝗡𝗚']) expect(hits(q).map(([idx, line, text]) => [idx, line, text.match(/«[^»]+»/g)]), q).toEqual([[0, 2, ['«𝗕𝗥𝗘𝗔𝗞𝗜𝗡𝗚»']], [1, 2, ['«Breaking»']]]);
    expect(hits('"final vote"').map(([idx, , text]) => [idx, text.match(/«[^»]+»/g)])).toEqual([[0, ['«𝘧𝘪𝘯𝘢𝘭 vote»']], [1, ['«final vote»']]]);
    expect(hits('"10 to 9"').map(([idx, , text]) => [idx, text.match(/«[^»]+»/g)])).toEqual([[0, ['«𝟭𝟬 to 𝟵»']], [1, ['«10 to 9»']]]);
  });
});

describe('units and signs written as one character', () => {
  const PAGES = ['Recipe\nAdd 5㎏ of rice at 20℃, № 3.', 'Recipe\nAdd 5 kg of rice at 20 °C, No 3.', 'Note\nA pen.'];
  beforeEach(() => storeJob('j', PAGES));

  it('finds ㎏ by kg and ℃ by °C, and the other way round, marked as the page writes them', () => {
    for (const q of ['kg', '㎏', '"5 kg"']) expect(hits(q).map(([idx, line, text]) => [idx, line, text.match(/«[^»]+»/g)]), q).toEqual([[0, 2, [q.startsWith('"') ? '«5㎏»' : '«㎏»']], [1, 2, [q.startsWith('"') ? '«5 kg»' : '«kg»']]]);
    for (const q of ['"20 °C"', '"20℃"']) expect(hits(q).map(([idx, , text]) => [idx, text.match(/«[^»]+»/g)]), q).toEqual([[0, ['«20℃»']], [1, ['«20 °C»']]]);
  });
});

describe('the highlighter\'s map of text with compatibility forms', () => {
  // Forms that change length under NFKC (ｶﾞ, ﬃ, ⑴, ⒇, Ⅻ), join (half-width Hangul ﾡￂ), are two UTF-16 units (𝗕), with neighbours.
  const CHARS = ['ｶ', 'ﾞ', 'ﾟ', 'ﾊ', 'Ｇ', '１', '，', 'ﬁ', 'ﬃ', '¹', '²', '⁶', '₂', 'Ⅻ', 'ⅷ', '③', '⑴', '⒇', '𝗕', '𝟭', 'a', ' ', '\n', '東', 'ﾡ', 'ￂ', 'ㄱ', '😀', 'Ⓜ', 'ß', 'ا', 'ل', 'و', '㎏', '℃', '㈱', '㍻', '½', '¾', '⅓', '⅟', '↉', '/'];
  /** The words of a fold, as unicode61 reads them: letters and digits without marks, lower case, a CJK character alone. */
  const words = (x: string): string =>
    (
      x
        .replace(/[\p{Script=Han}\p{Script=Katakana}\p{Script=Hangul}]/gu, ' $& ')
        .normalize('NFD')
        .replace(/\p{M}/gu, '')
        .toLowerCase()
        .match(/[\p{L}\p{N}]+/gu) ?? []
    ).join(' ');

  it('reads a half-width sound mark after no kana as nothing, as the index does: inside an Arabic word it hid its و', () => {
    for (const text of ['وولﾞو', 'بالكتابﾟ', 'aﾞb']) expect(words(foldWithMap(text).folded), text).toBe(words(foldForIndex(text)));
    expect(words(foldForIndex('وولﾞو'))).toBe('ولو');
  });

  it('maps every folded unit to a whole character of the text, in order, and reads the words the index holds', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...CHARS), { minLength: 1, maxLength: 14 }), (chars) => {
        const text = chars.join('');
        const { folded, at } = foldWithMap(text);
        expect(words(folded)).toBe(words(foldForIndex(text)));
        if (!at) return;
        expect(at.length).toBe(folded.length + 1);
        expect(at[folded.length]).toBe(text.length);
        for (let i = 0; i < at.length; i++) {
          if (i > 0) expect(at[i]).toBeGreaterThanOrEqual(at[i - 1]!);
          // Never between the two halves of 𝗕 or 😀.
          expect(/[\uDC00-\uDFFF]/.test(text[at[i]!] ?? '')).toBe(false);
        }
      }),
      { numRuns: 2_000 },
    );
  });
});

describe('vulgar fractions (½ ⅓ ¾), as people type them', () => {
  const PAGES = [
    'Sugar\nAdd ½ cup of sugar, then 1½ cups of flour and ⅓ of the milk.',
    'Typed\nAdd 1/2 cup of sugar, then 1 1/2 cups of flour and 1/3 of the milk.',
    // Only the digits, apart: neither fraction is here.
    'Count\nWe counted 12 cups and 13 spoons, in 2 rows.',
    'Quarters\nThree quarters: ¾ of an hour.',
    // The words 1 and 2 apart, and a cup: no half.
    'Steps\nStep 1 of 2: fill the cup.',
  ];
  beforeEach(() => storeJob('j', PAGES));

  it('finds ½ by 1/2 and 1/2 by ½, a mixed 1½ by "1 1/2", and marks each as the page writes it', () => {
    // NFKC writes ½ as 1⁄2 (U+2044), which the index reads as the words 1 and 2, as it reads 1/2: unread, ½ was a word of its own that only ½ found.
    expect(hits('"1/2 cup"')).toEqual([[0, 2, 'Sugar Add «½ cup» of sugar, then 1½ cups of flour and ⅓ of the milk.'], [1, 2, 'Typed Add «1/2 cup» of sugar, then 1 1/2 cups of flour and 1/3 of the milk.']]);
    expect(hits('"½ cup"').map(([idx]) => idx)).toEqual([0, 1]);
    expect(hits('"1 1/2 cups"')).toEqual([[0, 2, 'Sugar Add ½ cup of sugar, then «1½ cups» of flour and ⅓ of the milk.'], [1, 2, 'Typed Add 1/2 cup of sugar, then «1 1/2 cups» of flour and 1/3 of the milk.']]);
    expect(hits('"1/3 of"').map(([idx]) => idx)).toEqual([0, 1]);
    expect(hits('"3/4"')).toEqual([[3, 2, 'Quarters Three quarters: «¾» of an hour.']]);
    expect(hits('¾').map(([idx]) => idx)).toEqual([3]);
  });

  it('keeps 1/2 and ½ one fraction in a query FTS5 would reject, searched as plain words', () => {
    // Before, each was the words 1 and 2 anywhere, and found "Step 1 of 2" too.
    for (const q of ['"½ cup', '½ AND', '(1/2 cup', '1/2 cup AND']) expect(hits(q).map(([idx]) => idx), q).toEqual([0, 1]);
    expect(hits('"½ cup')[0]?.[2]).toBe('Sugar Add «½» «cup» of sugar, then 1«½» «cups» of flour and ⅓ of the milk.');
  });

  it('reads a mixed 1½ as the phrase "1 1/2" in a query FTS5 would reject, as it reads it in one it takes', () => {
    // A 1 and a 1/2 apart: no one and a half. Before, the plain-words path searched 1½ as 1 AND 1/2 and found it.
    storeJob('k', ['Apart\nDay 1: cut the 1/2 inch board.', 'Mixed\nAdd 1½ cups of flour.', 'Typed\nAdd 1 1/2 cups of flour.']);
    const found = (q: string): number[] => searchStore(store, q, { jobId: 'k' }).hits.map((h) => h.idx).sort();
    expect(found('1½')).toEqual([1, 2]);
    for (const q of ['1½ AND', '"1½', '(1½ cups', 'add 1½ OR']) expect(found(q), q).toEqual([1, 2]);
    // Typed with its space, 1 1/2 is two words on both paths, as any two words are.
    expect(found('1 1/2 AND')).toEqual([0, 1, 2]);
  });
});

describe('signed words (C++, C#, .NET) written in compatibility forms', () => {
  const PAGES = [
    // Full-width, as Japanese input writes them.
    'スペック\nこのライブラリはＣ＋＋とＣ＃と．ＮＥＴで書かれている。',
    'Specs\nThe library is written in C++, C# and .NET.',
    // Only the letters: vitamin C, a lone net.
    'Food\nVitamin C and a fishing net.',
    // Mixed widths, and the letter with an accent the index drops (unicode61 remove_diacritics).
    'Mixed\nＣ++ and Ĉ# as pasted.',
  ];
  beforeEach(() => storeJob('j', PAGES));

  it('finds Ｃ＋＋ by C++ and C++ by Ｃ＋＋, and no lone c, as the index reads them', () => {
    for (const q of ['C++', 'c++', 'Ｃ＋＋', '"C++"']) expect(hits(q).map(([idx, line, text]) => [idx, line, text.match(/«[^»]+»/g)]), q).toEqual([[0, 2, ['«Ｃ＋＋»']], [1, 2, ['«C++»']], [3, 2, ['«Ｃ++»']]]);
    expect(hits('C#').map(([idx, , text]) => [idx, text.match(/«[^»]+»/g)])).toEqual([[0, ['«Ｃ＃»']], [1, ['«C#»']], [3, ['«Ĉ#»']]]);
    expect(hits('.NET').map(([idx, , text]) => [idx, text.match(/«[^»]+»/g)])).toEqual([[0, ['«．ＮＥＴ»']], [1, ['«.NET»']]]);
    expect(hits('C++ AND C#').map(([idx]) => idx)).toEqual([0, 1, 3]);
  });

  it('reads them so in a query FTS5 would reject, searched as plain words', () => {
    // Each is malformed (an AND with nothing after it, a parenthesis left open, a quote
    // unclosed): read as plain words, Ｃ＋＋ was the letter Ｃ and found the vitamin C page.
    for (const q of ['Ｃ＋＋ AND', '(Ｃ＋＋', 'Ｃ++ OR', '"Ｃ＋＋', 'C++ AND']) expect(hits(q).map(([idx, , text]) => [idx, text.match(/«[^»]+»/g)]), q).toEqual([[0, ['«Ｃ＋＋»']], [1, ['«C++»']], [3, ['«Ｃ++»']]]);
    expect(hits('Ｃ＃ AND').map(([idx]) => idx)).toEqual([0, 1, 3]);
    expect(hits('(．ＮＥＴ').map(([idx]) => idx)).toEqual([0, 1]);
    expect(hits('(Ｃ＋＋ Ｃ＃').map(([idx]) => idx)).toEqual([0, 1, 3]);
  });
});
