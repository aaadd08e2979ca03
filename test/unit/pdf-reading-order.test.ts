import { readFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { createFetcher } from '../../src/main/fetch';
import { pageText } from '../../src/main/fetch/pdf-layout.mjs';
import { dehyphenate, dehyphenateBreaks, dropFurniture, lineKey, vocabulary } from '../../src/main/fetch/pdf-text';
import { makePdf, type Placed } from '../helpers/fetch-pdf';

const fetcher = createFetcher();
afterAll(() => fetcher.close());
const extract = (pdf: Buffer, mode: 'text' | 'raw' = 'text') => fetcher.extractBuffer(pdf, 'application/pdf', { mode });
const pdfMeta = (meta: Record<string, unknown> | undefined) => (meta?.pdf ?? {}) as Record<string, unknown>;

/** A text item as pdf.js gives it: a string at (x, y) in a 10-point font. */
const item = (str: string, x: number, y: number, dir = 'ltr', width = str.length * 5) => ({ str, dir, transform: [10, 0, 0, 10, x, y], width, hasEOL: false });

describe('PDF text in reading order', () => {
  it('reads an Arabic paragraph drawn in visual order in logical order, letters out of presentation forms', async () => {
    const pdf = readFileSync(path.join(__dirname, '../fixtures/pdfs/ArabicCIDTrueType.pdf'));
    const r = await extract(pdf);
    expect(r.content.split('\n')).toEqual(Array(4).fill('انواع الخطوط العربية'));
    expect(pdfMeta(r.meta)).toMatchObject({ bidi: true, bidi_lines: 4 });
  });

  it('reads Chinese in a font that is not embedded and is addressed through a predefined CMap', async () => {
    const r = await extract(makePdf({ pages: [['中文测试：你好世界', '第二行文字']], cjk: true }));
    expect(r.content).toBe('中文测试：你好世界\n第二行文字');
  });

  it('puts a Hebrew line with a number in logical order (the bidi algorithm, not a plain reversal)', () => {
    // "שנת 2024 הייתה טובה" drawn left to right: the last word leftmost, the number kept LTR.
    const items = [item('טובה', 100, 700, 'rtl', 20), item('הייתה', 125, 700, 'rtl', 25), item('2024', 155, 700, 'ltr', 20), item('שנת', 180, 700, 'rtl', 15)];
    const r = pageText({ items });
    expect(r.text).toBe('שנת 2024 הייתה טובה');
    expect(r.bidiLines).toBe(1);
  });

  it('reads the Hebrew cells of a table row on an English page left to right, each cell in logical order', () => {
    // Cells "שלום", "תודה", "בוקר" drawn in visual order (each word's letters right to left), far apart.
    const visual = (w: string) => [...w].reverse().join('');
    const items = [item('Hebrew', 72, 700), ...['שלום', 'תודה', 'בוקר'].map((w, k) => item(visual(w), 150 + k * 60, 700, 'ltr', 20)), item('End of the table row note.', 72, 680)];
    const r = pageText({ items });
    expect(r.text.split('\n')[0]).toBe('Hebrew שלום תודה בוקר');
    // One run of words (word gaps only) is one bidi paragraph: its words come right to left.
    const phrase = pageText({ items: [item('The Hebrew words are', 72, 700), item(visual('שלום תודה'), 180, 700, 'ltr', 45)] });
    expect(phrase.text).toBe('The Hebrew words are שלום תודה');
  });

  it('normalises Arabic presentation forms and Latin ligatures (NFKC) but leaves other text as written', () => {
    const r = pageText({ items: [item('\ufee3\ufeae\ufea3\ufe92\ufe8e', 300, 700, 'rtl', 30), item('e\ufb03cient ½', 100, 600)] });
    expect(r.text).toBe('مرحبا\n\nefficient ½');
  });

  it('puts an accent drawn beside its letter back on it, where Unicode has the accented letter', () => {
    // As TeX draws \\"{\\i}, \\H{o}, \\c{c} and \\k{i}: the accent as a glyph of its own, over an i a dotless one.
    const r = pageText({ items: [item('the na\u00a8\u0131ve Erd\u02ddos fa\u00b8cade i\u02db \u02c7Cech', 72, 700)] });
    expect(r.text).toBe('the naïve Erdős façade į Čech');
    // An accent alone, beside a digit or on a letter Unicode has no single character for, stays.
    expect(pageText({ items: [item('the \u00a8 key, 2\u00b43, \u00afq', 72, 700)] }).text).toBe('the \u00a8 key, 2\u00b43, \u00afq');
  });

  it('reads two columns one after the other, even when the file draws them line by line across the page', async () => {
    const left = ['Left column line one about tides', 'left column line two about keels', 'left column line three on sails', 'left column line four on charts', 'left column line five on reefs'];
    const right = ['Right column line one on ports', 'right column line two on buoys', 'right column line three on gales', 'right column line four on piers', 'right column line five on rivers'];
    const runs: Placed[] = [{ x: 72, y: 740, text: 'A Title Across The Whole Page Width Of This Sample Paper', size: 14 }];
    left.forEach((l, i) => runs.push({ x: 72, y: 700 - i * 12, text: l }, { x: 330, y: 700 - i * 12, text: right[i] as string }));
    runs.push({ x: 72, y: 600, text: 'A closing line that runs across both of the columns of the page, as a footnote would do here.' });
    const r = await extract(makePdf({ pages: [], placed: [runs] }));
    expect(r.content).toBe(['A Title Across The Whole Page Width Of This Sample Paper', left.join('\n'), right.join('\n'), 'A closing line that runs across both of the columns of the page, as a footnote would do here.'].join('\n\n'));
    expect(pdfMeta(r.meta)).toMatchObject({ columns: 2, multi_column_pages: 1 });
  });

  it('keeps a slanted (oblique) word in its line: a slant is italics, not text turned on the page', async () => {
    // An oblique drawn from an upright font, as a book sets a title in italics: the text
    // matrix slants (its c), the baseline stays level. It went to the page's end.
    const ops = [
      'BT /F1 12 Tf 1 0 0 1 72 700 Tm (This PDF version of) Tj ET',
      'BT /F1 12 Tf 1 0 0.268 1 181 700 Tm (Free Culture) Tj ET',
      'BT /F1 12 Tf 1 0 0 1 255 700 Tm (is licensed) Tj ET',
      'BT /F1 12 Tf 1 0 0 1 72 685 Tm (under a Creative Commons license.) Tj ET',
    ].join('\n');
    const r = await extract(makePdf({ pages: [], ops: [ops] }));
    expect(r.content).toBe('This PDF version of Free Culture is licensed\nunder a Creative Commons license.');
  });

  it('reads headings whose parts stand far apart row by row, not as columns (their lines are rows apart)', () => {
    // A journal page: each day's heading has its date, weekday and weather in cells, with a line of text between headings.
    const items = [0, 1, 2].flatMap((k) => {
      const y = 700 - k * 70;
      return [item(`Day ${k + 1} of March`, 72, y), item(['Friday', 'Saturday', 'Sunday'][k] as string, 200, y), item(['sunny', 'cloudy', 'rain'][k] as string, 300, y), item(`Notes of day ${k + 1}.`, 72, y - 20)];
    });
    const r = pageText({ items });
    expect(r.text.split(/\n+/)).toEqual(['Day 1 of March Friday sunny', 'Notes of day 1.', 'Day 2 of March Saturday cloudy', 'Notes of day 2.', 'Day 3 of March Sunday rain', 'Notes of day 3.']);
    expect(r.columns).toBe(1);
  });

  it('keeps the lines above a column run in their column when they stay inside it (a margin note starting mid-paragraph)', () => {
    const body = ['The paragraph begins here and runs on', 'across the body column until the docu-', 'ment goes on beside the first margin', 'note, and the text keeps going down the', 'body column while more notes stand in', 'the margin next to it, line after line.'];
    const items = body.map((t, k) => item(t, 72, 700 - k * 12, 'ltr', 200));
    ['\\first', '\\second', '\\third'].forEach((t, k) => items.push(item(t, 300, 676 - k * 24, 'ltr', 40)));
    const r = pageText({ items });
    expect(r.text).toBe(`${body.join("\n")}\n\n\\first\n\n\\second\n\n\\third`);
    // Read as a column of their own, but margin notes do not make the page one of two columns.
    expect(r.columns).toBe(1);
    expect(r.narrowColumns).toBe(true);
  });

  it('puts a space after a raised number that opens a line (a footnote mark), not after one that follows a word', () => {
    const sup = (str: string, x: number, y: number) => ({ str, dir: 'ltr', transform: [6, 0, 0, 6, x, y + 4], width: 3, hasEOL: false });
    const items = [sup('1', 72, 100), item('This feature was suggested by a reader.', 75, 100), item('Lienhard', 72, 700, 'ltr', 40), sup('1', 112, 700), item(', and others', 115, 700, 'ltr', 60)];
    expect(pageText({ items }).text).toBe('Lienhard¹, and others\n\n1 This feature was suggested by a reader.');
  });

  it('keeps a word whose letters the font sets higher or lower in one piece ("LaTeX" as TeX draws it, not "LAT E X")', () => {
    // As pdfTeX draws the logo: "L", a small raised "A", "T", an "E" 0.27 em lower, then "X" on the baseline.
    const small = (str: string, x: number, y: number) => ({ str, dir: 'ltr', transform: [6.6, 0, 0, 6.6, x, y], width: 4.8, hasEOL: false });
    const latex = [item('Keywords: conference paper, L', 36, 700, 'ltr', 163.6), small('A', 196.4, 701.8), item('T', 199.8, 700, 'ltr', 4), item('E', 203.8, 697.3, 'ltr', 4.9), item('X Template', 208.7, 700, 'ltr', 45)];
    expect(pageText({ items: latex }).text).toBe('Keywords: conference paper, LATEX Template');
    // The rest of the line drawn lower from inside the word: "LAT" then "EX installation dated".
    const rest = [item('option requires a L', 393, 578.6, 'ltr', 77.5), small('A', 467.4, 580.3), item('T', 469.8, 578.6, 'ltr', 5.5), item('EX installation dated', 473.2, 576.4, 'ltr', 102.9)];
    expect(pageText({ items: rest }).text).toBe('option requires a LATEX installation dated');
    // Words a word's space apart stay apart however their baselines differ; so do two lines.
    const apart = [item('first', 72, 700, 'ltr', 25), item('second', 100, 697.3, 'ltr', 30), item('next line here', 72, 688, 'ltr', 70)];
    expect(pageText({ items: apart }).text).toBe('first second\nnext line here');
  });

  it('puts a combining mark drawn on its own (a vector arrow) after the letter it sits over, not before it', () => {
    // As a paper sets F⃗: the arrow (no width, 0.22 em up) comes first in the file, then a blank, then F under it.
    const arrow = (x: number, y: number) => ({ str: '\u20d7', dir: 'ltr', transform: [10, 0, 0, 10, x, y], width: 0, hasEOL: false });
    const items = [item('or', 386.8, 272, 'ltr', 8.3), arrow(405.5, 274.2), item(' ', 395.1, 272, 'ltr', 10), item('F', 405, 272, 'ltr', 5.5), item('= m', 413.3, 272, 'ltr', 15)];
    expect(pageText({ items }).text).toBe('or F\u20d7 = m');
    // Drawn between two letters, nearer the second's start (0.05 pt) than the first's end (0.37 pt): on the second.
    const between = [item('m', 422.1, 272, 'ltr', 7.2), arrow(429.6, 272.2), item(' ', 429.3, 272, 'ltr', 0.4), item('a or F', 429.7, 272, 'ltr', 26)];
    expect(pageText({ items: between }).text).toBe('m a\u20d7 or F');
  });

  it('puts a combining mark on the letter it is drawn over, not on the glyph the file drew before it (A⃗ × B⃗)', async () => {
    // As TeX sets \\vec{A} \\times \\vec{B}: each arrow (no width, 0.2 em up) is drawn before its
    // letter, and the second one right after the × in the same font, 0.5 em past its end. pdf.js
    // added that arrow to the ×'s text ("×⃗ B"), wherever it was drawn.
    const ops = [
      'BT /F1 10 Tf 1 0 0 1 72 700 Tm (the product) Tj',
      '/F3 10 Tf 1 0 0 1 136.5 702 Tm <01> Tj 1 0 0 1 135 700 Tm (A ) Tj (\\327) Tj',
      '1 0 0 1 155 702 Tm <01> Tj 1 0 0 1 153.5 700 Tm (B) Tj ET',
    ].join(' ');
    expect((await extract(makePdf({ pages: [], ops: [ops] }))).content).toBe('the product A\u20d7 \u00d7 B\u20d7');
  });

  it('puts an accent TeX draws just inside the next letter on that letter ("ēė", not "ē̇e")', async () => {
    // TeX's \\.e after an e: the dot 0.08 em past the first e's end (centred over the second),
    // then the e under it. pdf.js put the dot on the first e.
    const ops = 'BT /F3 10 Tf 1 0 0 1 72 700 Tm (le) Tj 1 0 0 1 80.58 700 Tm <03> Tj 1 0 0 1 79.78 700 Tm (e next) Tj ET';
    expect((await extract(makePdf({ pages: [], ops: [ops] }))).content.normalize('NFC')).toBe('le\u0117 next');
  });

  it('leaves a combining mark drawn alone in a cell of its own there, off the word the file drew before it', async () => {
    // A table of accents (Greek greektonoi's: command, output, example): the output cell holds
    // the ypogegrammeni alone, drawn in the font of the command's words. It came out on the
    // command's last letter ("υπογεγραμμένῃ"), and its own cell empty.
    const ops = 'BT /F3 10 Tf 1 0 0 1 72 700 Tm (| for iota subscript) Tj 1 0 0 1 300 700 Tm <02> Tj /F1 10 Tf 1 0 0 1 400 700 Tm (eta then) Tj ET';
    expect((await extract(makePdf({ pages: [], ops: [ops] }))).content).toBe('| for iota subscript \u0345 eta then');
  });

  it('keeps a subscript drawn after its superscript on its letter ("G1a", not "G 1a")', async () => {
    // As TeX sets Γ_1^a: the raised a first in its own font, then back and down to the 1 in
    // another. pdf.js marks the step back with an empty item, which was read as a space.
    const ops = 'BT /F1 10 Tf 1 0 0 1 72 700 Tm (the flux G) Tj /F2 7 Tf 1 0 0 1 115.2 703.3 Tm (a) Tj /F1 7 Tf 1 0 0 1 114.6 696.3 Tm (1) Tj /F1 10 Tf 1 0 0 1 127.8 700 Tm (on the wall) Tj ET';
    expect((await extract(makePdf({ pages: [], ops: [ops] }))).content).toBe('the flux G1a on the wall');
    // Words a gap apart keep their space where the file steps back to draw them (an empty item between).
    const back = 'BT /F2 10 Tf 1 0 0 1 140 700 Tm (wall) Tj /F1 10 Tf 1 0 0 1 72 700 Tm (on the) Tj ET';
    expect((await extract(makePdf({ pages: [], ops: [back] }))).content).toBe('on the wall');
  });

  it('puts a dot drawn under a letter on it ("pataḥ", as TeX draws \\d{h}), and leaves a period after a word a period', async () => {
    // TeX's \d h: the h, then a period moved back under it and 0.25 em down, then the next word.
    const ops = 'BT /F1 10 Tf 1 0 0 1 72 650 Tm (the patah) Tj 1 0 0 1 109.7 647.5 Tm (. furtivum is a vowel.) Tj ET';
    const r = await extract(makePdf({ pages: [], ops: [ops] }));
    expect(r.content).toBe('the pata\u1e25 furtivum is a vowel.');
    // Drawn after the word on its baseline, or below it but past its end, a period is a period.
    const after = 'BT /F1 10 Tf 1 0 0 1 72 650 Tm (the patah) Tj 1 0 0 1 114.3 647.5 Tm (. Next one.) Tj ET';
    expect((await extract(makePdf({ pages: [], ops: [after] }))).content).toBe('the patah. Next one.');
  });

  it('writes a raised number after a word as superscript digits, so the word stays a word of its own ("property²", not "property2")', async () => {
    // As a book sets its note marks: "…a form of property2—if…" read as one word "property2",
    // which a search for "property" as a word does not find.
    const placed: Placed[] = [
      { x: 72, y: 700, text: 'It is a form of property', size: 10 },
      { x: 169.3, y: 704, text: '12', size: 6 },
      { x: 176, y: 700, text: ', and the rate is 10', size: 10 },
      { x: 259, y: 704, text: '-6', size: 6 },
      { x: 267, y: 700, text: 'per unit.', size: 10 },
    ];
    const r = await extract(makePdf({ pages: [], placed: [placed] }));
    expect(r.content).toBe('It is a form of property¹², and the rate is 10⁻⁶ per unit.');
    // The same text as before for anything that folds compatibility forms (NFKC): an index, a diff, pdftotext's.
    expect(r.content.normalize('NFKC')).toBe('It is a form of property12, and the rate is 10−6 per unit.');
    expect(r.content).toMatch(/\bproperty\b/u);
    // An author's marks: affiliation 1, then notes; a list of marks without a number stays as drawn.
    const sup = (str: string, x: number) => ({ str, dir: 'ltr', transform: [6, 0, 0, 6, x, 704], width: 3 * str.length, hasEOL: false });
    const authors = [item('Lienhard', 72, 700, 'ltr', 40), sup('1,', 112), sup('†', 118), sup(',', 121), sup('∗', 124), item(', Silva', 127, 700, 'ltr', 35), sup('†,∗', 162), item(', Parr', 171, 700, 'ltr', 30), sup('2,3', 201)];
    expect(pageText({ items: authors }).text).toBe('Lienhard¹,†,∗, Silva†,∗, Parr²,³');
  });

  it('reads a caption over a table that spans both columns before the table, and each column heading before its text', () => {
    // A run of columns starts at a line that has a gutter itself; the centred caption above
    // it crosses the gutter and stays before it (it came after the left column).
    const items = [item('TABLE 3: VALUES ACROSS BOTH COLUMNS', 200, 760, 'ltr', 180)];
    for (let r = 0; r < 5; r++) {
      const y = 740 - r * 12;
      items.push(item(`0.${r}0`, 80, y, 'ltr', 20), item(`0.${r}111`, 150, y, 'ltr', 30), item(`1.${r}0`, 340, y, 'ltr', 20), item(`0.${r}999`, 420, y, 'ltr', 30), item(`9.${r}9`, 500, y, 'ltr', 20));
    }
    items.push(item('5. LEFT HEADING', 72, 660, 'ltr', 90), item('6. RIGHT HEADING', 330, 660, 'ltr', 95));
    for (let r = 0; r < 5; r++) items.push(item(`left column text line ${r} runs on`, 72, 646 - r * 12, 'ltr', 200), item(`right column text line ${r} runs on`, 330, 646 - r * 12, 'ltr', 200));
    const text = pageText({ items }).text;
    expect(text.split('\n')[0]).toBe('TABLE 3: VALUES ACROSS BOTH COLUMNS');
    expect(text).toContain('5. LEFT HEADING\nleft column text line 0 runs on');
    expect(text.indexOf('6. RIGHT HEADING')).toBeGreaterThan(text.indexOf('left column text line 4'));
    expect(text.indexOf('6. RIGHT HEADING')).toBeLessThan(text.indexOf('right column text line 0'));
  });

  it('reads a table across both columns whole before the columns under it (not its halves with each column)', () => {
    const items: ReturnType<typeof item>[] = [];
    for (let r = 0; r < 5; r++) {
      const y = 740 - r * 12;
      items.push(item(`0.${r}0`, 80, y, 'ltr', 20), item(`0.${r}111`, 150, y, 'ltr', 30), item(`1.${r}0`, 340, y, 'ltr', 20), item(`0.${r}999`, 420, y, 'ltr', 30), item(`9.${r}9`, 500, y, 'ltr', 20));
    }
    for (let r = 0; r < 6; r++) items.push(item(`left column text line ${r} runs on`, 72, 660 - r * 12, 'ltr', 200), item(`right column text line ${r} runs on`, 330, 660 - r * 12, 'ltr', 200));
    const text = pageText({ items }).text;
    const firstText = text.indexOf('left column text line 0');
    for (let r = 0; r < 5; r++) for (const cell of [`0.${r}0`, `1.${r}0`, `0.${r}999`, `9.${r}9`]) expect(text.indexOf(cell), cell).toBeLessThan(firstText);
    expect(text.indexOf('right column text line 0')).toBeGreaterThan(text.indexOf('left column text line 5'));
  });

  it('reads two columns on across a strip both leave blank: the same gutter above and below is one run of columns', () => {
    const items: ReturnType<typeof item>[] = [];
    const line = (side: string, r: number) => `${side} column line ${r} goes on`;
    for (let r = 0; r < 10; r++) {
      // Rows 0-4, a blank strip three lines high, rows 5-9.
      const y = 740 - r * 12 - (r >= 5 ? 36 : 0);
      items.push(item(line('left', r), 72, y, 'ltr', 200), item(line('right', r), 330, y, 'ltr', 200));
    }
    const text = pageText({ items }).text.replace(/\n+/g, '\n');
    expect(text.split('\n')).toEqual([...Array.from({ length: 10 }, (_, r) => line('left', r)), ...Array.from({ length: 10 }, (_, r) => line('right', r))]);
  });

  it('reads text drawn turned (up or down the page) a line per baseline, not run together', async () => {
    const up = (x: number, y: number, text: string) => `BT /F1 10 Tf 0 1 -1 0 ${x} ${y} Tm (${text}) Tj ET`;
    const ops = [
      'BT /F1 12 Tf 72 740 Td (Upright heading of the page.) Tj ET',
      up(300, 100, 'Sideways line one.'),
      up(314, 100, 'Sideways line two.'),
      'BT /F1 10 Tf 0 -1 1 0 560 700 Tm (A margin note going down.) Tj ET',
    ];
    const r = await extract(makePdf({ pages: [], ops: [ops.join('\n')] }));
    expect(r.content).toBe('Upright heading of the page.\n\nSideways line one.\nSideways line two.\n\nA margin note going down.');
  });

  it('reads a chart of single letters (a letter over its code, cell by cell) row by row, not in chunks of a few cells', async () => {
    // As a package manual charts its input codes: two rows of 12 letters, each over its code in
    // smaller type, cells 1.2 em apart. Each cell is under an em wide; grouped into columns two
    // ems wide, the chart was read "A B / a b / M N / m n", then "C D E" and so on.
    const upper = 'ABCDEFGHIJKL';
    const lower = 'MNOPQRSTUVWX';
    const runs: Placed[] = [{ x: 72, y: 740, text: 'The codes of the letters are charted below.' }];
    [upper, lower].forEach((letters, r) =>
      [...letters].forEach((c, k) => runs.push({ x: 100 + k * 18, y: 700 - r * 30, text: c }, { x: 100 + k * 18, y: 688 - r * 30, text: c.toLowerCase(), size: 8 })),
    );
    runs.push({ x: 72, y: 620, text: 'Table 1: The codes of the letters' });
    const r = await extract(makePdf({ pages: [], placed: [runs] }));
    const spaced = (s: string) => [...s].join(' ');
    expect(r.content.split(/\n+/)).toEqual(['The codes of the letters are charted below.', spaced(upper), spaced(upper.toLowerCase()), spaced(lower), spaced(lower.toLowerCase()), 'Table 1: The codes of the letters']);
  });

  it('keeps one column with ragged lines as one column (word gaps are no gutter)', () => {
    const items = ['short line', 'a much longer line of plain text here', 'mid length line here', 'tiny'].map((t, i) => item(t, 72, 700 - i * 12));
    expect(pageText({ items }).columns).toBe(1);
    expect(pageText({ items }).text).toBe('short line\na much longer line of plain text here\nmid length line here\ntiny');
  });
});

describe('PDF line-end hyphens', () => {
  const page = (lines: string[]): Placed[] => lines.map((text, i) => ({ x: 72, y: 700 - i * 12, text }));

  it('joins a word broken at a line end, and keeps the lines as they were in mode raw', async () => {
    const pdf = makePdf({ pages: [], placed: [page(['Sift pulls the text out of docu-', 'ments and joins broken words.'])] });
    const r = await extract(pdf);
    expect(r.content).toBe('Sift pulls the text out of documents and joins broken words.');
    expect(pdfMeta(r.meta)).toMatchObject({ dehyphenated: 1, compound_hyphens_kept: 0 });
    expect((await extract(pdf, 'raw')).content).toBe('Sift pulls the text out of docu-\nments and joins broken words.');
  });

  it('keeps a compound hyphen that falls at a line end', async () => {
    const pdf = makePdf({
      pages: [],
      placed: [page(['A well-known rule comes first.', 'Then the same well-', 'known rule at a line end, and a state-of-the-', 'art tool.'])],
    });
    const r = await extract(pdf);
    expect(r.content).toContain('Then the same well-known rule at a line end');
    expect(r.content).toContain('a state-of-the-art tool.');
    expect(pdfMeta(r.meta)).toMatchObject({ dehyphenated: 0, compound_hyphens_kept: 2 });
  });

  it('joins a word broken at the end of a page or a column, moving its second half up, not the rest of that line', async () => {
    const pages = [
      page(['A well-known rule: Sift reads each page of a', 'document and joins the words it finds al-']),
      page(['lowed across the page break, as a reader would.', 'Then a well-', 'known rule at a line end.']),
      page(['A third page ends on a compound, the well-']),
      page(['known rule again; then a hyphen before a capital, Jean-']),
      page(['Paul, stays as it is.']),
    ];
    const r = await extract(makePdf({ pages: [], placed: pages }));
    expect(r.content).toBe(
      [
        'A well-known rule: Sift reads each page of a\ndocument and joins the words it finds allowed',
        'across the page break, as a reader would.\nThen a well-known rule at a line end.',
        'A third page ends on a compound, the well-known',
        'rule again; then a hyphen before a capital, Jean-',
        'Paul, stays as it is.',
      ].join('\n\n'),
    );
    expect(pdfMeta(r.meta)).toMatchObject({ dehyphenated: 1, compound_hyphens_kept: 2 });
    // Each line stays on its page, so a search hit still cites the page it is on.
    expect(r.meta?.page_lines).toEqual([[1, 1], [2, 4], [3, 7], [4, 9], [5, 11]]);
    // A second half alone on its line takes the line with it.
    const alone = await extract(makePdf({ pages: [], placed: [page(['a word broken at the page end, al-']), page(['lowed.', 'Next line.'])] }));
    expect(alone.content).toBe('a word broken at the page end, allowed.\n\nNext line.');
    // A page that starts with its number in roman numerals (a running head not dropped) is no second half.
    expect(dehyphenateBreaks(['the National Rifle Association, be-', 'xiv PREFACE\ncause they'], [1, 2], vocabulary([])).pages).toEqual(['the National Rifle Association, be-', 'xiv PREFACE\ncause they']);
    // Pages not next to each other (pages=1,3) are not joined.
    expect(dehyphenateBreaks(['ends on docu-', 'ments of another page'], [1, 3], vocabulary([])).pages).toEqual(['ends on docu-', 'ments of another page']);
  });

  it('joins a word broken at the foot of a column with its second half at the top of the next column', () => {
    const items: ReturnType<typeof item>[] = [];
    const left = ['the left column tells of', 'how values turn into', 'their machine-level', 'rep-'];
    const right = ['resentations, in the', 'right column that goes', 'on for a few more', 'lines of plain text'];
    left.forEach((l, r) => items.push(item(l, 72, 700 - r * 12, 'ltr', 200), item(right[r] as string, 330, 700 - r * 12, 'ltr', 200)));
    const { text } = pageText({ items });
    expect(text).toBe(`${left.join('\n')}\n\n${right.join('\n')}`);
    const joined = dehyphenateBreaks([text], [1], vocabulary([text]));
    expect(joined.pages[0]).toBe('the left column tells of\nhow values turn into\ntheir machine-level\nrepresentations,\n\nin the\nright column that goes\non for a few more\nlines of plain text');
    expect(joined).toMatchObject({ joined: 1, kept: 0 });
  });

  it('joins a soft hyphen, and leaves a hyphen before a capital or a number alone', () => {
    const v = vocabulary([]);
    expect(dehyphenate('infor\u00ad\nmation', v).text).toBe('information');
    expect(dehyphenate('Jean-\nPaul and COVID-\n19', v).text).toBe('Jean-\nPaul and COVID-\n19');
    // The joined word written whole elsewhere wins over the halves.
    expect(dehyphenate('co-\noperate', vocabulary(['we cooperate'])).text).toBe('cooperate');
    expect(dehyphenate('co-\noperate', vocabulary(['we co-operate'])).text).toBe('co-operate');
  });

  it('joins the same words as a search starting at every letter would (the search starts at word starts only, for speed)', () => {
    // The pattern before it looked for a word at every letter; chains, doubled hyphens,
    // compounds, marks and runs without spaces (CJK) are where the two could part.
    const everyLetter = /([\p{L}\p{M}]+(?:-[\p{L}\p{M}]+)*)([-\u00ad\u2010])\n([\p{Ll}][\p{L}\p{M}]*)/gu;
    const vocab = vocabulary(['co-operate', 'cooperate', 'well-known']);
    const piece = fc.constantFrom('exam', 'ple', 'co', 'operate', 'well', 'known', 'A', 'é', 'e\u0301', '漢字', '-', '--', '\u00ad', '\u2010', '\n', ' ', '1', '.');
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 30 }), (pieces) => {
        const text = pieces.join('');
        const reference = text.replace(everyLetter, (_m, before: string, hyphen: string, after: string) => {
          const last = before.slice(before.lastIndexOf('-') + 1);
          const keep = hyphen !== '\u00ad' && (before.includes('-') || (vocab.has(`${last}-${after}`.toLowerCase()) && !vocab.has((last + after).toLowerCase())));
          return keep ? `${before}-${after}` : `${before}${after}`;
        });
        expect(dehyphenate(text, vocab).text).toBe(reference);
      }),
      { numRuns: 2000 },
    );
    expect(dehyphenate('exam-\nple-\nment', vocab).text).toBe('example-\nment');
  });
});

describe('PDF furniture', () => {
  const pages = (n: number): Placed[][] =>
    Array.from({ length: n }, (_, i) => [
      { x: 72, y: 760, text: 'Harbour Report 2024' },
      { x: 72, y: 700, text: `Body text of page ${i + 1} talks about tide number ${i * 7}.` },
      { x: 72, y: 688, text: `It goes on with the ${['first', 'second', 'third', 'fourth'][i]} harbour of the coast.` },
      { x: 300, y: 40, text: `Page ${i + 1} of ${n}` },
    ]);

  it('drops headers and footers that repeat on every page from text mode; mode raw keeps them', async () => {
    const pdf = makePdf({ pages: [], placed: pages(4) });
    const r = await extract(pdf);
    expect(r.content).not.toContain('Harbour Report');
    expect(r.content).not.toMatch(/Page \d of 4/);
    expect(r.content).toContain('Body text of page 3 talks about tide number 14.');
    expect(pdfMeta(r.meta)).toMatchObject({ furniture_removed: 8 });
    const raw = await extract(pdf, 'raw');
    expect(raw.content.match(/Harbour Report 2024/g)).toHaveLength(4);
    expect(raw.content).toContain('Page 4 of 4');
  });

  it('knows a running head by its words, however many numbers and marks it carries ("Guide / 3 / 17")', () => {
    const body = ['Recording starts with the red button.', 'Normalise the track before export.', 'Plugins live in the effects menu.', 'Export the mix as an Ogg file.'];
    const doc = body.map((b, i) => `Debian-Edu / Skolelinux Audacity 11 manual / ${i + 1} / 17\n${b}`);
    const r = dropFurniture(doc);
    expect(r.pages).toEqual(body);
    // A number inside a word is the word's own: these two lines differ.
    expect(lineKey('The word for page 1 is item1.')).not.toBe(lineKey('The word for page 2 is item2.'));
    expect(r.removed).toBe(4);
  });

  it('knows a book\'s running head on facing pages, its number on the outer side ("xiv PREFACE", "PREFACE xv")', () => {
    const body = ['The preface starts here.', 'It goes on about culture.', 'And about the law.', 'And ends with thanks.'];
    const doc = body.map((b, i) => (i % 2 === 0 ? `${['xiii', 'xv'][i / 2]} PREFACE\n${b}` : `${b}\nPREFACE ${['xiv', 'xvi'][(i - 1) / 2]}`));
    expect(dropFurniture(doc).pages).toEqual(body);
    // The section's own heading, without a number, is no running head.
    expect(dropFurniture(['PREFACE\nbody one', ...doc.slice(1)]).pages[0]).toBe('PREFACE\nbody one');
  });

  it('drops a running foot with its page number that the layout reads between two columns ("334 INDEX" under the left one)', async () => {
    // A book's index in two columns: the foot sits under the right column on odd pages
    // ("INDEX 335", the page's last line) and under the left one on even pages, where the
    // left column is read, then its foot, then the right column: inside the page, it stayed.
    const entries = (p: number, c: number) => Array.from({ length: 6 }, (_, k) => `entry ${String.fromCharCode(97 + p)}${c}${k}, ${10 + k}`);
    const placed: Placed[][] = Array.from({ length: 6 }, (_, p) => {
      const n = 334 + p;
      const foot = p % 2 === 0 ? { x: 72, y: 560, text: `${n} INDEX` } : { x: 380, y: 560, text: `INDEX ${n}` };
      return [...entries(p, 0).map((text, k) => ({ x: 72, y: 700 - 14 * k, text })), ...entries(p, 1).map((text, k) => ({ x: 330, y: 700 - 14 * k, text })), foot];
    });
    const r = await extract(makePdf({ pages: [], placed }));
    expect(r.content).not.toMatch(/INDEX/);
    for (let p = 0; p < 6; p++) for (const e of [...entries(p, 0), ...entries(p, 1)]) expect(r.content).toContain(e);
    // The contents' entry of the same shape stays: its number is no page number of its page.
    const book = ['Contents\nPreface 1\nNotes 40\n\nINDEX 52\n\nThanks 60\nAbout the author 61\nColophon 62', ...entries(0, 0).map((_e, k) => {
      const [a, b, c, d] = entries(k, 0) as [string, string, string, string];
      return k % 2 ? `${a}\n${b}\n${c}\nINDEX ${52 + k}` : `${a}\n${b}\n\n${52 + k} INDEX\n\n${c}\n${d}`;
    })];
    const kept = dropFurniture(book).pages;
    expect(kept[0]).toContain('\n\nINDEX 52\n\n');
    expect(kept.slice(1).join('\n')).not.toMatch(/INDEX/);
    // A numbered line alone inside a page whose shape is no running head stays.
    const doc = ['one', 'two', 'three'].map((w, k) => `${w} a\n${w} b\n${w} c\n\nFigure ${k + 3}\n\n${w} d\n${w} e\n${w} f`);
    expect(dropFurniture(doc).pages).toEqual(doc);
  });

  it('keeps lone numbers inside the page (a contents list, a table) that differ from page to page', () => {
    // Masked, "1", "2", "5"… would all be "#" and found on every page; only an exact repeat counts inside a page.
    const lead = 'Opening line\nSecond line\nThird line\n';
    const tail = '\nbody\nclosing line\nlast line\nfoot';
    const doc = [`${lead}1\nIntroduction\n2\nMethods${tail} a`, `${lead}3\ntable cell\n7${tail} b`, `${lead}5\ncell\n9${tail} c`];
    const r = dropFurniture(doc);
    expect(r.pages[0]).toContain('1\nIntroduction\n2\nMethods');
    expect(r.pages[1]).toContain('3\ntable cell\n7');
    // A line repeated word for word on most pages (a printer's mark) still goes, wherever it stands.
    const marked = doc.map((p) => p.replace('body', 'PROOF copy not for sale'));
    expect(dropFurniture(marked).pages.join('\n')).not.toContain('PROOF');
  });

  it('keeps a paragraph the document prints again on later pages, and still drops its running head', async () => {
    // A contract's clause, a form's instructions, a worked example: the same long lines on
    // most pages, in a block, are text. They all went as "printer's marks" before.
    const clause = [
      'The tenant shall keep the premises clean and in good repair at all times,',
      'shall report any damage to the landlord within seven days of noticing it,',
      'and shall not sublet any part of the premises without written consent given',
      'by the landlord or by an agent whom the landlord has named for that purpose.',
    ];
    const placed: Placed[][] = Array.from({ length: 4 }, (_, i) => [
      { x: 72, y: 760, text: 'Lease agreement, schedule B' },
      { x: 72, y: 720, text: `Section ${i + 1}: the ${['first', 'second', 'third', 'fourth'][i]} property of the estate.` },
      ...clause.map((text, k) => ({ x: 72, y: 700 - k * 12, text })),
      { x: 72, y: 640, text: `Notes on the ${['garden', 'garage', 'attic', 'cellar'][i]} follow the clause above.` },
      { x: 300, y: 40, text: `Page ${i + 1} of 4` },
    ]);
    const r = await extract(makePdf({ pages: [], placed }));
    for (const line of clause) expect(r.content.split(line)).toHaveLength(5);
    expect(r.content).not.toContain('Lease agreement, schedule B');
    expect(r.content).not.toMatch(/Page \d of 4/);
    // Wholly among a page's edge lines, a repeated block is a footer (a disclaimer): it goes.
    const footer = ['body one', 'body two', 'body three', 'body four'].map((b) => `${b}\n${b} goes on\n${clause[0]}\n${clause[1]}`);
    expect(dropFurniture(footer).pages.join('\n')).not.toContain(clause[0]);
  });

  it('keeps pages of a few short lines of one shape (tickets, receipts): their repeats are the text, not an empty ok', async () => {
    const tickets = Array.from({ length: 6 }, (_, i) => [`Ticket ${1041 + i}`, `Row ${i + 3} Seat ${12 + i}`, `Gate ${i + 1}`]);
    const r = await extract(makePdf({ pages: tickets }));
    expect(r.content).toBe(tickets.map((t) => t.join('\n')).join('\n\n'));
    expect(pdfMeta(r.meta)).toMatchObject({ furniture_removed: 0 });
    // A book's blank page keeps losing its running head and number: most pages keep their text.
    const book = Array.from({ length: 6 }, (_, i) => `Harbour Report\n${i === 2 ? '' : `Body of page ${i + 1} on the ${['first', 'second', 'third', 'fourth', 'fifth', 'sixth'][i]} harbour.\n`}${i + 1}`);
    expect(dropFurniture(book).pages[2]).toBe('');
  });

  it('leaves a document of two pages as it is (no repeat to go on)', () => {
    expect(dropFurniture(['Title\nbody one\n1', 'Title\nbody two\n2'])).toEqual({ pages: ['Title\nbody one\n1', 'Title\nbody two\n2'], removed: 0 });
  });
});

describe('the title of a PDF whose info gives none', () => {
  // A paper's first page: a title in 18-point type over two lines, its authors and body in 10.
  const titlePage = (): Placed[] => [
    { x: 72, y: 720, text: 'Trace Trees for Loops', size: 18 },
    { x: 72, y: 698, text: 'in Dynamic Languages', size: 18 },
    { x: 72, y: 670, text: 'Ada Byron, Alan Turing', size: 10 },
    ...['Dynamic languages are hard to compile.', 'We record the hot loops as they run.', 'Then we compile each one for its types.'].map((text, k) => ({ x: 72, y: 640 - 14 * k, text, size: 10 })),
  ];

  it('is the first page’s heading: its lines in the largest type, read as one', async () => {
    const r = await extract(makePdf({ pages: [], placed: [titlePage(), [{ x: 72, y: 700, text: 'Page two has a heading too', size: 18 }, { x: 72, y: 680, text: 'and body text.' }]] }));
    expect(r.meta?.title).toBe('Trace Trees for Loops in Dynamic Languages');
    expect(r.meta?.title_from).toBe('page_1_heading');
    // The text itself is unchanged: the title stays its first lines.
    expect(r.content.startsWith('Trace Trees for Loops\nin Dynamic Languages\n')).toBe(true);
  });

  it('gives way to the info title, unless that names a file the PDF was made from', async () => {
    const named = await extract(makePdf({ title: 'Trace Trees', pages: [], placed: [titlePage()] }));
    expect(named.meta?.title).toBe('Trace Trees');
    expect(named.meta?.title_from).toBeUndefined();
    for (const file of ['Microsoft Word - trace-trees.docx', 'C:/Documents and Settings/ada/trace.dvi', 'Untitled']) {
      const r = await extract(makePdf({ title: file, pages: [], placed: [titlePage()] }));
      expect(r.meta?.title).toBe('Trace Trees for Loops in Dynamic Languages');
    }
  });

  it('is the name of the file an info title names, where page 1 has no heading either', async () => {
    const plain = [['Dear reader,', 'the meeting moves to Tuesday.', 'Regards']];
    for (const [title, name] of [
      ['Microsoft Word - Annual report 2025.docx', 'Annual report 2025'],
      ['C:\\Documents and Settings\\ada\\minutes.dvi', 'minutes'],
      ['Microsoft PowerPoint - deck', 'deck'],
      ['Untitled', ''],
      ['Untitled document', ''],
    ]) {
      const r = await extract(makePdf({ title, pages: plain }));
      expect(r.meta?.title).toBe(name);
      expect(r.meta?.title_from).toBeUndefined();
    }
  });

  it('is left empty where no type stands out (a page all in one size)', async () => {
    const plain = await extract(makePdf({ pages: [['Dear reader,', 'the meeting moves to Tuesday.', 'Regards']] }));
    expect(plain.meta?.title).toBe('');
  });

  it('is page 1\'s heading when only later pages are chosen (it names the document; the content stays the pages chosen)', async () => {
    const page2 = await fetcher.extractBuffer(makePdf({ pages: [], placed: [titlePage(), [{ x: 72, y: 700, text: 'Page two has a heading too', size: 18 }, { x: 72, y: 680, text: 'and body text.' }]] }), 'application/pdf', { mode: 'text', pages: '2' });
    expect(page2.meta).toMatchObject({ title: 'Trace Trees for Loops in Dynamic Languages', title_from: 'page_1_heading', pages_returned: 1 });
    expect(page2.content).toBe('Page two has a heading too\nand body text.');
  });

  it('takes neither a mark without words, nor a footnote’s mark after the title, nor the next heading below a gap', () => {
    const size = (str: string, x: number, y: number, s: number) => ({ str, dir: 'ltr', transform: [s, 0, 0, s, x, y], width: str.length * s * 0.5, hasEOL: false });
    const body = ['Body text one line.', 'Body text two line.', 'Body text three line.'].map((t, k) => size(t, 72, 600 - 12 * k, 10));
    expect(pageText({ items: [size('+++', 72, 760, 30), size('A Title', 72, 720, 18), size('∗', 140, 726, 9), ...body] }).heading).toBe('A Title');
    expect(pageText({ items: [size('First Part', 72, 720, 18), size('Second Part', 72, 650, 18), ...body] }).heading).toBe('First Part');
    expect(pageText({ items: body }).heading).toBe('');
  });
});
