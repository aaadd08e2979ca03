import { describe, expect, it } from 'vitest';
import { cutTitleAtWord } from '../../src/renderer/src/lib/format';

const LIGHTHOUSE = 'The Lighthouse Keepers of Rannoch Point';

describe("a target's title cut to its column", () => {
  // Cut in its middle, the 1280 px table read "The Lightho…nnoch Point": two halves of words.
  it('keeps its start, cut after a whole word', () => {
    expect(cutTitleAtWord(LIGHTHOUSE, 23)).toBe('The Lighthouse Keepers…');
    expect(cutTitleAtWord(LIGHTHOUSE, 22)).toBe('The Lighthouse…');
    expect(cutTitleAtWord(LIGHTHOUSE, LIGHTHOUSE.length)).toBe(LIGHTHOUSE);
    for (let max = 2; max < LIGHTHOUSE.length; max++) {
      const cut = cutTitleAtWord(LIGHTHOUSE, max);
      expect(cut.length).toBeLessThanOrEqual(max);
      expect(cut.endsWith('…')).toBe(true);
      expect(LIGHTHOUSE.startsWith(cut.slice(0, -1))).toBe(true);
    }
  });
  it('cuts within a word only where the word before would leave less than half the room', () => {
    expect(cutTitleAtWord(LIGHTHOUSE, 12)).toBe('The Lightho…');
    expect(cutTitleAtWord('Anthropomorphisation', 8)).toBe('Anthrop…');
  });
  it('leaves no comma or dash before its "…"', () => {
    expect(cutTitleAtWord('Harbour, Board - minutes of the meeting', 17)).toBe('Harbour, Board…');
    expect(cutTitleAtWord('Harbour board – minutes of the meeting', 16)).toBe('Harbour board…');
  });
  // The rows of one site's list share "Harbour report /annual-board-meeting-minutes/report-":
  // cut at their end, each read "Harbour report…".
  it('keeps its end too when the start kept is only what the rows beside it share', () => {
    const title = 'Harbour report /annual-board-meeting-minutes/report-2';
    const shared = title.length - 1;
    for (let max = 5; max < title.length; max++) expect(cutTitleAtWord(title, max, shared).endsWith('2')).toBe(true);
    expect(cutTitleAtWord(LIGHTHOUSE, 23, 4)).toBe('The Lighthouse Keepers…');
    // Alike to their end, rows have no end of their own to show.
    expect(cutTitleAtWord(LIGHTHOUSE, 23, LIGHTHOUSE.length)).toBe('The Lighthouse Keepers…');
  });
  it('never keeps half of an emoji', () => {
    const title = '🦀🦀🦀🦀🦀 crab harbour';
    for (let max = 2; max < title.length; max++) expect(cutTitleAtWord(title, max)).not.toMatch(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/);
  });
});
