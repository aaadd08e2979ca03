/**
 * The form a question's word and a passage's word are compared in (wordForm): the forms of one
 * word meet, and two words stay apart. English loses a plural's -s, unless the -s is the
 * word's own ("news" is no plural of "new"); Arabic loses the article and the letters written
 * joined to a word's start (و and, ف so, ب with, ك as, ل for), so الكتاب meets والكتاب and بالكتاب.
 */
import { describe, expect, it } from 'vitest';
import { answer } from '../../src/main/fetch';
import { englishForms, formSpellings, wordForm } from '../../src/main/fetch/word-forms';
import { foldTerm } from '../../src/main/search/fold';
import { rankPassages, splitPassages } from '../../src/main/fetch/question';

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

describe('an English word whose doubled consonant is its own', () => {
  it('keeps it: added is add, not ad, so a question about what was added is not answered by an ad', () => {
    expect(['added', 'adding', 'adds'].map(form)).toEqual(['add', 'add', 'add']);
    expect(form('stopped')).toBe(form('stop'));
    const page = ['The ad ran on the radio.', 'They added a chapter.'].join('\n\n');
    // Before, added was "ad" to ranking: both passages answered.
    expect(answer(page, 'what was added?', false).content).toBe('They added a chapter.');
  });
});

describe('an Arabic word with the letters written joined to its start', () => {
  it('is the word without them: the article, with و, ف, ب, ك before it, لل, and و alone', () => {
    const forms = ['الكتاب', 'والكتاب', 'بالكتاب', 'كالكتاب', 'فالكتاب', 'للكتاب', 'وبالكتاب', 'وللكتاب', 'وكتاب', 'كتاب'].map(form);
    expect(new Set(forms)).toEqual(new Set(['كتاب']));
    // Vowel marks and the hamza's alef are folded first: وَالْكِتَابُ and الأخبار meet their bare forms.
    expect(form('وَالْكِتَابُ')).toBe('كتاب');
    expect(form('الأخبار')).toBe(form('والاخبار'));
  });

  it('keeps a letter that is the word\'s own: ك of كتاب, ف of فكرة (idea, not كرة ball), ب of بيت, and a rest under three letters', () => {
    expect(['كتاب', 'فكرة', 'بيت', 'الله', 'والد'].map(form)).toEqual(['كتاب', 'فكره', 'بيت', 'الله', 'والد']);
    // A word beginning with و meets its forms with the article: وزير, الوزير, والوزير.
    expect(new Set(['وزير', 'الوزير', 'والوزير'].map(form)).size).toBe(1);
  });

  it('is asked of the search index as the form alone, which the index holds every spelling of a page as', () => {
    // Each proclitic before it, and و after that, made 27 spellings of كتاب, which Ask asked FTS5 for one by one.
    expect(formSpellings('كتاب')).toEqual(['كتاب']);
    expect(formSpellings(form('الوزير'))).toEqual([form('الوزير')]);
    // A Latin or Russian form is its own start; a word of another script, or an Arabic one under three letters, is asked as typed.
    expect(formSpellings('launch')).toEqual(['launch']);
    expect(formSpellings(form('книги'))).toEqual(['книг']);
    expect(formSpellings('ελληνικά')).toEqual([]);
    expect(formSpellings('له')).toEqual([]);
  });

  it('is the word when stretched with tatweel (ـ), as justified text writes it: الكـتاب is الكتاب', () => {
    expect(form('الكـتاب')).toBe('كتاب');
    // Before, the index dropped the tatweel and ranking kept it: the passage was read, never chosen.
    expect(answer('قرأ الطالب الدرس.\n\nاشترى المعلم الكـتاب من السوق.', 'أين الكتاب؟', false).content).toBe('اشترى المعلم الكـتاب من السوق.');
  });

  it('leaves a Persian word alone, which writes و apart: واژه stays', () => {
    expect(form('واژه')).toBe('واژه');
  });

  it('so a question with القلم (the pen) finds the passages holding والقلم and بالقلم', () => {
    const page = ['قرأ الطالب الدرس في البيت.', 'اشترى المعلم الدفتر والقلم من السوق.', 'كتبت الرسالة بالقلم الأزرق.'].join('\n\n');
    // Before, only a passage holding القلم itself answered (a word of five letters gets no
    // fuzzy match, and a prefix match runs from the word's start), and these held none.
    const a = answer(page, 'أين القلم؟', false);
    expect(a.content.split('\n\n')).toEqual(['اشترى المعلم الدفتر والقلم من السوق.', 'كتبت الرسالة بالقلم الأزرق.']);
  });
});

describe('a Russian word in a case or number form', () => {
  it('meets its other forms: коды, кодов, кодами, кодом are код', () => {
    expect(new Set(['коды', 'КОДОВ', 'кодами', 'кодом', 'кода', 'коду'].map(form))).toEqual(new Set(['код']));
    expect(new Set(['характеристики', 'характеристику', 'характеристиками', 'характеристикой'].map(form)).size).toBe(1);
    expect(new Set(['настройки', 'настройках', 'настройкам'].map(form)).size).toBe(1);
    // ё is е, as the fold reads it.
    expect(form('ёлки')).toBe(form('елка'));
  });

  it('meets a noun in ю, with its ь or without: скоростью is скорость, песню песня, неделю недели', () => {
    expect(new Set(['скоростью', 'скорость', 'скорости'].map(form)).size).toBe(1);
    expect(new Set(['памятью', 'память', 'памяти'].map(form)).size).toBe(1);
    expect(form('песню')).toBe(form('песня'));
    expect(form('неделю')).toBe(form('недели'));
    // A borrowed noun's own ю stays: меню is no form of меня, интервью none of интервал.
    expect(form('меню')).toBe('меню');
    expect(form('интервью')).toBe('интервью');
  });

  it('keeps 3 letters and other words apart: кодекс is no form of код, нос stays', () => {
    expect(form('кодекс')).not.toBe(form('коды'));
    expect(form('нос')).toBe('нос');
    expect(form('носы')).toBe('нос');
  });

  it('leaves a function word as it is, and a Ukrainian word alone: її stays', () => {
    expect(form('какие')).toBe('какие');
    expect(form('її')).toBe('її');
  });

  it('answers from the passage holding the question\'s own form first, where two forms are on the page', () => {
    const page = ['Коды консоли меняют скорость.', 'Скорость бега растёт за счёт кодов консоли.'].join('\n\n');
    // Ranked on forms alone, the two passages tied; the question's own spelling tells them apart.
    const passages = splitPassages(page);
    expect(rankPassages(passages, 'какие коды?').map((h) => h.id)).toEqual([0, 1]);
    expect(rankPassages(passages, 'где кодов консоли?').map((h) => h.id)).toEqual([1, 0]);
  });
});

describe('the forms search asks for a word typed bare (englishForms)', () => {
  const forms = (word: string): string[] => englishForms(word).sort();

  it('are its plural, -ed and -ing forms, spelled as English spells them, from any of them', () => {
    for (const w of ['report', 'reports', 'reported', 'reporting']) expect(forms(w), w).toEqual(['report', 'reported', 'reporting', 'reports']);
    expect(forms('stopped')).toEqual(['stop', 'stopped', 'stopping', 'stops']);
    expect(forms('study')).toEqual(['studied', 'studies', 'study', 'studying']);
    expect(forms('taxes')).toEqual(['tax', 'taxed', 'taxes', 'taxing']);
    expect(forms('making')).toContain('make');
    expect(forms('agreed')).toEqual(['agree', 'agreed', 'agreeing', 'agrees']);
  });

  it('keep apart the words a rule would join: hoped and hopping, news and new, speed and spe, a longer word', () => {
    expect(forms('hoped')).not.toContain('hopping');
    expect(forms('hopping')).not.toContain('hope');
    expect(forms('new')).not.toContain('news');
    expect(forms('news')).not.toContain('new');
    expect(forms('speed')).toEqual(['speed', 'speeded', 'speeding', 'speeds']);
    expect(forms('report')).not.toContain('reporter');
  });

  it('are no other word: added is add, not ad; see has no seed; argued is argue, not argu', () => {
    expect(forms('added')).toEqual(['add', 'added', 'adding', 'adds']);
    expect(forms('ads')).not.toContain('added');
    // seed is a word of its own, as bases() reads it (speed and need too): so it is no form of see.
    expect(forms('see')).toEqual(['see', 'seeing', 'sees']);
    expect(forms('agree')).toContain('agreed');
    // A stem ending in u is a word ending in ue: argued is argue, continued continue.
    expect(forms('argued')).toEqual(['argue', 'argued', 'argues', 'arguing']);
    expect(forms('continued')).toContain('continue');
  });

  it('are the word alone for a function word, a short word, or letters other than a to z', () => {
    for (const w of ['the', 'is', 'ok', 'c++', 'كتاب', '東京', 'würde']) expect(englishForms(w), w).toEqual([w]);
  });
});
