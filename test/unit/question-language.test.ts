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
    .split(/[\s?!.,¿¡]+/)
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

  it('says what an English question asks when another language builds its questions with it', () => {
    // Spanish son (are), German hat (has), French pour (for) and par (by), Dutch met (with) and
    // hoe (how), Portuguese dos (of the): in every question's function words before, "who were
    // the sons of Zeus?" asked about Zeus alone.
    expect(asking('Who were the sons of Zeus?')).toEqual(['son', 'zeus']);
    expect(asking('Where did she leave her hat?')).toEqual(['leav', 'hat']);
    expect(asking('How long does concrete take to set after the pour?')).toEqual(['long', 'concret', 'tak', 'set', 'pour']);
    expect(asking('Who met the queen?')).toEqual(['met', 'queen']);
    expect(asking('Which games ran on DOS?')).toEqual(['gam', 'ran', 'dos']);
    expect(asking('What is par on the first hole?')).toEqual(['par', 'first', 'hol']);
    expect(asking('How do I sharpen a garden hoe?')).toEqual(['sharpen', 'garden', 'hoe']);
  });

  it('is one of a question in the language that builds questions with it', () => {
    expect(asking('¿Cuáles son los síntomas de la gripe?')).toEqual(['sintoma', 'grip']);
    expect(asking('Wer hat das Telefon erfunden?')).toEqual(['telefon', 'erfunden']);
    expect(asking('Hoe laat gaat de winkel open met Pasen?')).toEqual(['laat', 'gaat', 'winkel', 'open', 'pasen']);
  });

  it('says what an English question asks that Italian, Spanish or Portuguese builds questions with', () => {
    // Italian chi (who), Spanish and Italian lo (it, the), Portuguese em (in): function words of
    // every question before, so these asked about "square", "mein" and "dash" alone.
    expect(asking('What is a chi square test?')).toEqual(['chi', 'squar', 'test']);
    expect(asking('How is lo mein made?')).toEqual(['lo', 'mein', 'mad']);
    expect(asking('When is an em dash used?')).toEqual(['em', 'dash', 'used']);
  });

  it('is one of an Italian, Spanish or Portuguese question', () => {
    expect(asking('Chi ha scritto la Divina Commedia?')).toEqual(['ha', 'scritto', 'divina', 'commedia']);
    expect(asking('¿Qué es lo que firmó el alcalde?')).toEqual(['firmo', 'alcald']);
    expect(asking('Quantos habitantes moram em Lisboa?')).toEqual(['habitant', 'moram', 'lisboa']);
  });

  it('says what a question with no evidence of its language asks', () => {
    expect(asking('die Bibliothek')).toEqual(['die', 'bibliothek']);
  });
});

describe("another language's function word in an English question", () => {
  it('is a word the question asks about', () => {
    // French, Spanish and Italian la, French and Spanish de, Portuguese nos and na, Dutch op:
    // function words of every question before, so these asked about "population", "mean",
    // "sodium" and "review" alone.
    expect(asking('What is the population of la?')).toEqual(['population', 'la']);
    expect(asking('What does op mean?')).toEqual(['op', 'mean']);
    expect(asking('How much na is in salt?')).toEqual(['na', 'salt']);
    expect(asking('Who wrote the review of nos?')).toEqual(['wrot', 'review', 'nos']);
  });

  it('is a function word of a question in that language', () => {
    expect(asking('Quelle est la population de Paris?')).toEqual(['population', 'paris']);
    expect(asking('Quantos habitantes vivem na cidade?')).toEqual(['habitant', 'vivem', 'cidad']);
    expect(asking('Wanneer gaat de winkel op zondag open?')).toEqual(['gaat', 'winkel', 'zondag', 'open']);
    // With no word of any language's to tell by, it stays one, as before: "la tour eiffel".
    expect(asking('la tour eiffel')).toEqual(['tour', 'eiffel']);
  });
});

describe('a function word written in capitals', () => {
  it('is a name the question asks about', () => {
    // LA, OP, US, IT, WHO: a name or an abbreviation, in a question written in lower case too.
    expect(asking('LA population')).toEqual(['la', 'population']);
    expect(asking('What did the OP say?')).toEqual(['op', 'say']);
    expect(asking('How many IT jobs are in the US?')).toEqual(['it', 'job', 'us']);
    expect(asking('What did the WHO say about masks?')).toEqual(['who', 'say', 'mask']);
  });

  it('is a function word when the whole question is in capitals', () => {
    expect(asking('WHAT IS THE POPULATION OF PARIS?')).toEqual(['population', 'paris']);
  });
});

describe('an Indonesian or Malay question', () => {
  it('asks about its words, not about its apa, yang, dengan, bagaimana cara and di', () => {
    // What is meant by photosynthesis? / How do I plant rice in a field? / Who wrote this book? /
    // What does this word mean? (Malay): no language had these words before, and each question
    // asked about all of them.
    expect(asking('Apa yang dimaksud dengan fotosintesis?')).toEqual(['dimaksud', 'fotosintesis']);
    expect(asking('Bagaimana cara menanam padi di sawah?')).toEqual(['menanam', 'padi', 'sawah']);
    expect(asking('Siapa yang menulis kitab ini?')).toEqual(['menulis', 'kitab']);
    expect(asking('Apakah maksud perkataan ini?')).toEqual(['maksud', 'perkataan']);
  });

  it("leaves an English question's yang, ini and mana to ask about", () => {
    expect(asking('What is the meaning of yin and yang?')).toEqual(['mean', 'yin', 'yang']);
    expect(asking('How do I edit an ini file?')).toEqual(['edit', 'ini', 'fil']);
    expect(asking('How much mana does the spell cost?')).toEqual(['mana', 'spell', 'cost']);
    expect(asking('ini file format')).toEqual(['ini', 'fil', 'format']);
  });
});
