/**
 * A question's function words as its language reads them (functionWordsOf): a word German,
 * Dutch, Portuguese or Turkish builds questions with that English writes as a content word is a
 * function word of a question in that language only.
 */
import { describe, expect, it } from 'vitest';
import { functionWordsOf } from '../../src/main/fetch/function-words';
import { processTerm } from '../../src/main/fetch/question';

/** The question's words that say what it asks, as ranking folds them. */
const asking = (question: string): string[] => {
  const fn = functionWordsOf(question);
  return question
    .split(/[\s?!.,]+/)
    .map(processTerm)
    .filter((t): t is string => t !== null && !fn(t));
};

describe('a function word English writes as a content word', () => {
  it("is one in a question in that language's words", () => {
    expect(asking('Wann öffnet die Bibliothek?')).toEqual(['offnet', 'bibliothek']);
    expect(asking('Was war der Grund für den Krieg?')).toEqual(['grund', 'krieg']);
    expect(asking('Wie is de burgemeester van Amsterdam?')).toEqual(['burgemeester', 'amsterdam']);
    expect(asking('Quantos habitantes tem os Açores?')).toEqual(['habitant', 'tem', 'acor']);
  });

  it('says what an English question asks, German-looking or not', () => {
    expect(asking('When did Die Hard come out?')).toEqual(['die', 'hard', 'com']);
    expect(asking('What was the war about?')).toEqual(['war']);
    expect(asking('Where is the van parked?')).toEqual(['van', 'park']);
  });

  it('says what a question with no evidence of its language asks', () => {
    expect(asking('die Bibliothek')).toEqual(['die', 'bibliothek']);
  });
});
