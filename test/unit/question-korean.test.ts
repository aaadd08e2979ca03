/**
 * Which passages a Korean question is answered by (answersQuestion): its words as a passage
 * holds them, without the particles joined to them, and without the words every question is
 * built with.
 */
import { describe, expect, it } from 'vitest';
import { answersQuestion, questionTerms } from '../../src/main/fetch/question';

const answers = (question: string, passage: string): boolean => answersQuestion(question)([], passage);

describe('a Korean word with two particles stacked on it', () => {
  it('is the word: another form of it answers', () => {
    // Can it be exported in modules only? / A module's top level. Before, 모듈에서만 was read as
    // 모듈에서 and 만, and no passage writing 모듈의 (of a module) answered.
    expect(answers('모듈에서만 되나요?', '모듈의 최상위 수준에 있어야 합니다.')).toBe(true);
    // Only within a file? / Declared in a file. 내에만 was 내에, not 내 (within).
    expect(answers('파일 내에만 있나요?', '함수 내에서 선언된 변수입니다.')).toBe(true);
    // Living costs in Seoul? / Seoul is the capital. A promise with a friend? / A friend came.
    expect(answers('서울에서의 생활비는?', '서울은 한국의 수도이다.')).toBe(true);
    expect(answers('친구와의 약속은?', '친구가 집에 왔다.')).toBe(true);
  });

  it('is not cut where the word may end in a particle itself', () => {
    // 고양이는 (the cat, as topic) is 고양이 and 는, not 고양 (Goyang) and 이는.
    expect(answers('고양이는 무엇을 먹나요?', '고양시는 경기도에 있는 도시이다.')).toBe(false);
    // 가게에만 (only at the shop) is 가게, not 가 and 게에만: a singer (가수가) is no answer.
    expect(answers('가게에만 있나요?', '가게가 문을 열었다.')).toBe(true);
    expect(answers('가게에만 있나요?', '가수가 노래했다.')).toBe(false);
  });
});

describe('the words a Korean question is built with', () => {
  it('make no answer of a passage holding only them', () => {
    // What does the cat eat (뭘, what, contracted)? / I do not know what (뭘) to do.
    expect(answers('고양이는 뭘 먹나요?', '뭘 해야 할지 모르겠다.')).toBe(false);
    expect(answers('고양이는 뭘 먹나요?', '고양이가 생선을 먹는다.')).toBe(true);
    // Which (어떤) cat is good? / Some (어떤) person came.
    expect(answers('어떤 고양이가 좋아요?', '어떤 사람이 왔다.')).toBe(false);
    expect(answers('어떤 고양이가 좋아요?', '우리 집 고양이 이름은 나비다.')).toBe(true);
    // How much (얼마나) does a cat sleep? Where from (어디서) does the cat come? What is (뭔가요) a cat's food?
    expect(answers('고양이는 얼마나 자나요?', '얼마나 기다려야 하나요?')).toBe(false);
    expect(answers('고양이는 어디서 오나요?', '어디서 만날까요?')).toBe(false);
    expect(answers('고양이 사료가 뭔가요?', '이게 뭔가요?')).toBe(false);
  });
});

describe('a Korean word as ranking pairs it', () => {
  it('is without the particles joined to it: no pair across the word and its particle, none of the particle', () => {
    // 선언에서 (in a declaration) gave 선언, 언에 and 에서, the last in most passages of a page.
    expect(questionTerms('선언에서')).toEqual(['선언']);
    expect(questionTerms('고양이는')).toEqual(['고양', '양이']);
    expect(questionTerms('내에만')).toEqual(['내']);
  });

  it('is whole when its ending may be its own last syllable', () => {
    // 고양이 (cat) is not 고양 (Goyang) and 이; 국가 (country) not 국 and 가.
    expect(questionTerms('고양이')).toEqual(['고양', '양이']);
    expect(questionTerms('국가')).toEqual(['국가']);
  });
});
