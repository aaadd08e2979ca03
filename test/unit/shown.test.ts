/**
 * What main sends the result pane of a result with a line too long to lay out (partForPane):
 * a window of the line around its match, and which lines were cut, how long they are and where.
 */
import { describe, expect, test } from 'vitest';
import { cutMiddle } from '../../src/shared/cut';
import { bidiPieces, LINE_WINDOW, MAX_BIDI_MARKS, MAX_SHOWN_LINE, MAX_SHOWN_TEXT, partForPane } from '../../src/shared/shown';
import type { Result } from '../../src/shared/types';

// One line of a minified page, 2,000,012 characters, its match 1.5 MB in.
const MINIFIED = `${'var a=1;'.repeat(187_500)}NEEDLE_HERE;${'var b=2;'.repeat(62_500)}`;
const AT = MINIFIED.indexOf('NEEDLE_HERE');

const grepped = (content: string, columns?: [number, number][]): Result => ({
  content,
  meta: { content_type: 'text/plain', matches: 1, ...(columns ? { match_columns: columns } : {}) },
});

describe('a line too long to lay out', () => {
  test("a grep's match past the first MiB of its line: the window around it, with the line's length and where the window starts", () => {
    const stored = `first line\n${MINIFIED}\nlast line`;
    const { content, part } = partForPane(grepped(stored, [[2, AT]]), { grep: 'NEEDLE_HERE' });
    expect(content).toContain('NEEDLE_HERE');
    expect(content.startsWith('first line\n…')).toBe(true);
    expect(content.endsWith('…\nlast line')).toBe(true);
    expect(content.length).toBeLessThan(LINE_WINDOW + 100);
    const window = content.split('\n')[1] ?? '';
    // The match near the middle of the window, a few KB either side.
    expect(Math.abs(window.indexOf('NEEDLE_HERE') - LINE_WINDOW / 2)).toBeLessThan(16);
    expect(part).toEqual({ from: 0, firstLine: 1, length: stored.length, laidOut: false, sized: false, lines: [{ line: 2, length: MINIFIED.length, from: AT - LINE_WINDOW / 2, match: true }] });
  });

  test('a search hit on such a line: the window around its words (in any case), whatever the grep', () => {
    const { content, part } = partForPane(grepped(MINIFIED), undefined, { line: 1, needle: 'needle_here' });
    expect(content).toContain('NEEDLE_HERE');
    expect(part?.lines).toEqual([{ line: 1, length: MINIFIED.length, from: AT - LINE_WINDOW / 2, match: true }]);
  });

  test('a long line with no match known: its start, said as such; a result under a MiB gets a part too, so Copy fetches the whole', () => {
    const line = 'x'.repeat(MAX_SHOWN_LINE + 1);
    const { content, part } = partForPane({ content: `${line}\nshort`, meta: { content_type: 'text/plain' } }, { mode: 'text' });
    expect(content).toBe(`${line.slice(0, LINE_WINDOW)}…\nshort`);
    expect(part).toEqual({ from: 0, firstLine: 1, length: line.length + 6, laidOut: false, sized: false, lines: [{ line: 1, length: line.length, from: 0, match: false }] });
    // A line as long as a pane lays out in time is sent whole.
    const fits = 'x'.repeat(MAX_SHOWN_LINE);
    expect(partForPane({ content: fits, meta: { content_type: 'text/plain' } }, { mode: 'text' })).toEqual({ content: fits });
  });

  test("JSON is cut as laid out: a long string value's line, not the document's one line", () => {
    const doc = JSON.stringify({ name: 'a', data: MINIFIED });
    const { content, part } = partForPane({ content: doc, meta: { content_type: 'application/json' } }, { mode: 'raw' });
    expect(content.split('\n')).toHaveLength(4);
    expect(content.split('\n')[1]).toBe('  "name": "a",');
    expect(part).toMatchObject({ laidOut: true, sized: false, lines: [{ line: 3, length: MINIFIED.length + 12, from: 0, match: false }] });
  });

  test('Markdown the pane renders is sent whole: a long paragraph is read as a paragraph', () => {
    const paragraph = 'word '.repeat(30_000);
    expect(partForPane({ content: `# Title\n\n${paragraph}`, meta: { content_type: 'text/html' } }, { mode: 'markdown' })).toEqual({ content: `# Title\n\n${paragraph}` });
  });

  test('a long text of short lines is cut by size only, as before', () => {
    const text = Array.from({ length: 40_000 }, (_, i) => `${i + 1}`.padEnd(49, '.')).join('\n');
    const { content, part } = partForPane({ content: text, meta: { content_type: 'text/plain' } }, { mode: 'text' });
    expect(content).toHaveLength(MAX_SHOWN_TEXT);
    expect(part).toEqual({ from: 0, firstLine: 1, length: text.length, laidOut: false, sized: true });
  });
});

describe('bidi controls in a text the pane shows as written', () => {
  test('each control is split out where it stands, named, and the pieces joined are the text', () => {
    const text = 'Invoice \u202Etxt.exe done\n\u2067שלום\u2069 ok';
    const pieces = bidiPieces(text);
    expect(pieces).toEqual([
      { text: 'Invoice ' },
      { control: 'U+202E', name: 'right-to-left override' },
      { text: 'txt.exe done\n' },
      { control: 'U+2067', name: 'right-to-left isolate' },
      { text: 'שלום' },
      { control: 'U+2069', name: 'pop directional isolate' },
      { text: ' ok' },
    ]);
  });

  test('a text without them is one piece, and one of a million controls marks the first thousand and drops the rest', () => {
    expect(bidiPieces('plain text')).toEqual([{ text: 'plain text' }]);
    const pieces = bidiPieces(`a${'\u202E'.repeat(1_000_000)}b`);
    expect(pieces.filter((p) => 'control' in p)).toHaveLength(MAX_BIDI_MARKS);
    expect(pieces.map((p) => ('text' in p ? p.text : '')).join('')).toBe('ab');
  });
});

describe('a name cut in its middle (the job list, the target table)', () => {
  const lone = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
  // The job list and the table try every length to fit a name (fitText): at half of them the
  // cut fell between an emoji's two halves and the row showed "�".
  test('never splits a character, at any length, and is never longer than asked', () => {
    const name = `🦀crabs-${'🦀'.repeat(12)}-and-more-${'𝔘'.repeat(9)}`;
    for (let max = 2; max < name.length; max++) {
      const cut = cutMiddle(name, max);
      expect(cut, `at ${max}`).not.toMatch(lone);
      expect(cut.length, `at ${max}`).toBeLessThanOrEqual(max);
      expect(cut).toContain('…');
    }
    expect(cutMiddle('example.org/articles/page-12', 20)).toBe('example.or…s/page-12');
    expect(cutMiddle('short', 20)).toBe('short');
  });
});
