/**
 * The form a question's word and a passage's word are compared in (wordForm): the forms of one
 * word meet, and two words stay apart. English loses a plural's -s, unless the -s is the
 * word's own ("news" is no plural of "new").
 */
import { describe, expect, it } from 'vitest';
import { answer } from '../../src/main/fetch';
import { wordForm } from '../../src/main/fetch/word-forms';
import { foldTerm } from '../../src/main/search/fold';

const form = (word: string): string => wordForm(foldTerm(word));

describe('an English word whose final s is its own', () => {
  it('keeps it: news, atlas, bias and cosmos are no plurals; reports, views and cats still are', () => {
    expect(['news', 'News', 'atlas', 'bias', 'cosmos'].map(form)).toEqual(['news', 'news', 'atlas', 'bias', 'cosmos']);
    expect(['reports', 'views', 'cats'].map(form)).toEqual(['report', 'view', 'cat']);
  });

  it('so a question about what is new does not answer with the news, and one about the news does not answer with what is new', () => {
    const page = ['The new stadium opens in May.', 'News of the vote spread fast.', 'Three reports were filed.'].join('\n\n');
    // Before, "news" was "new": both passages answered each question.
    expect(answer(page, 'what is new?', false).content).toBe('The new stadium opens in May.');
    expect(answer(page, 'latest news', false).content).toBe('News of the vote spread fast.');
    expect(answer(page, 'which report was filed?', false).content).toBe('Three reports were filed.');
  });
});
