/**
 * Which passages a Korean question is answered by (answersQuestion): its words as a passage
 * holds them, without the particles joined to them, and without the words every question is
 * built with.
 */
import { describe, expect, it } from 'vitest';
import { answersQuestion, questionTerms, rankPassages, splitPassages } from '../../src/main/fetch/question';

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
    expect(questionTerms('고양이는')).toEqual(['고양', '고양이']);
    expect(questionTerms('내에만')).toEqual(['내']);
  });

  it('is whole when its ending may be its own last syllable', () => {
    // 고양이 (cat) is not 고양 (Goyang) and 이, though it holds 고양; 국가 (country) not 국 and 가.
    expect(questionTerms('고양이')).toEqual(['고양', '고양이']);
    expect(questionTerms('국가')).toEqual(['국가']);
  });
});

describe('a Korean word whose last syllable may be a particle or its own', () => {
  const first = (question: string, passages: string[]): string => {
    const ranked = rankPassages(splitPassages(passages.join('\n\n')), question);
    return ranked.length > 0 ? splitPassages(passages.join('\n\n'))[ranked[0]!.id]!.text : '';
  };

  it('ranks the passage holding the word above one sharing only words ending as it does', () => {
    // What does the cat eat? A passage about the cat, and one whose words only end in 이가
    // (아이가 a child, 차이가 a difference, 놀이가 play) as 고양이가 does, holding 먹어요 (eat).
    const cat = '우리 고양이는 생선을 좋아해요.';
    const others = '아이가 밥을 먹어요. 차이가 크다. 놀이가 재미있다.';
    expect(first('고양이가 뭘 먹어요?', [others, cat])).toBe(cat);
    expect(first('고양이가 뭘 먹어요?', [cat, others])).toBe(cat);
  });

  it("ranks a passage about Seoul above one about winter's", () => {
    // What is Seoul's weather like? 서울의 (Seoul's) and 겨울의 (winter's) end in 울의; both
    // passages tell of the weather (날씨), one of Seoul's.
    const seoul = '서울 날씨는 여름에 덥다.';
    const winter = '겨울의 날씨는 춥다. 겨울의 바람, 겨울의 눈.';
    expect(first('서울의 날씨는?', [winter, seoul])).toBe(seoul);
  });

  it('is found whether the syllable is a particle or its own', () => {
    // 고양이 (cat) as subject, as topic and alone share a term; the sun (태양이) shares none.
    const shared = (a: string, b: string): string[] => questionTerms(a).filter((t) => questionTerms(b).includes(t));
    expect(shared('고양이가', '고양이는')).toContain('고양이');
    expect(shared('고양이', '고양이를')).toContain('고양이');
    expect(shared('고양이가', '태양이')).toEqual([]);
    expect(shared('서울의', '겨울의')).toEqual([]);
  });
});

describe('a Korean bound noun', () => {
  it('makes no answer of a passage holding only it', () => {
    // Can a cat eat fish (먹을 수 있나요)? / It cannot be used here (사용할 수 없습니다): 수 stands in
    // 691 of the 2,120 messages of TypeScript's Korean diagnostics, always after a verb.
    expect(answers('고양이는 생선을 먹을 수 있나요?', '여기서는 사용할 수 없습니다.')).toBe(false);
    expect(answers('고양이는 생선을 먹을 수 있나요?', '고양이는 생선을 좋아한다.')).toBe(true);
    // Is it good to wrap it (묶는 것이)? Is it used to detect (감지하는 데)? Because (때문에) of what?
    expect(answers('괄호로 묶는 것이 좋나요?', '이 파일은 이진 파일인 것 같습니다.')).toBe(false);
    expect(answers('모듈을 감지하는 데 쓰이나요?', '프로젝트를 정리하는 데 도움이 됩니다.')).toBe(false);
    expect(answers('오류는 무엇 때문에 나나요?', '겹치지 않기 때문입니다.')).toBe(false);
  });

  it('is a word a question asks about where it is one: 줄 (a line)', () => {
    // 줄 바꿈 (line break): 5 of 5 times in TypeScript's Korean messages 줄 is a line, never bound.
    expect(answers('줄 바꿈은 어떻게 하나요?', '여기서는 줄 바꿈이 허용되지 않습니다.')).toBe(true);
  });
});
