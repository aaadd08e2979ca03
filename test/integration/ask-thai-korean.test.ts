/**
 * Thai and Korean questions through the real wiring: `sift batch` fetches the pages from a
 * loopback server (a list's q= asks each its question), then Ask this job asks the stored job.
 * Thai has no spaces between words and Korean writes its particles and endings joined to the
 * word before: a question's ของ (of), 입니까 (is it?) or the 울의 of 서울의 (Seoul's) is in
 * passages about anything, and must not make one an answer.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { textJob, type TextJob } from '../helpers/text-job';

// Bangkok is the capital of Thailand. / Cats like to eat fish.
const BANGKOK = 'กรุงเทพเป็นเมืองหลวงของประเทศไทย';
const TH = [BANGKOK, 'แมวชอบกินปลา'].join('\n\n');
// Seoul is the capital of Korea. / Winter's cold is hard.
const SEOUL = '서울은 한국의 수도입니다.';
const WINTER = '겨울의 추위는 힘듭니다.';
const KO = [SEOUL, WINTER].join('\n\n');

// What is the price of a car? (ราคา, รถยนต์ in no passage; ของ, คือ, เท่าไร in the question)
const TH_CAR = 'ราคาของรถยนต์คือเท่าไร';
// What is the price of a car? (자동차의 가격은 얼마입니까: 입니 in SEOUL)
const KO_CAR = '자동차의 가격은 얼마입니까?';
// How is Seoul's weather? (서울의 shares 울의 with 겨울의; 서울 is in SEOUL only)
const KO_WEATHER = '서울의 날씨는 어떻습니까?';

let job: TextJob;
let results: TextJob['results'];
beforeAll(async () => {
  job = await textJob({ '/th': TH, '/ko': KO, '/winter': WINTER }, (origin) => [
    `${origin}/th q="${TH_CAR}"`,
    `${origin}/ko q="${KO_CAR}"`,
    `${origin}/winter q="${KO_WEATHER}"`,
    `${origin}/th q="เมืองหลวงของไทยคืออะไร"`,
    `${origin}/ko q="${KO_WEATHER}"`,
  ]);
  results = job.results;
});
afterAll(async () => {
  await job?.close();
});

const ask = (question: string): string[] => [...new Set(job.ask(question))];

describe('a Thai or Korean question about what no passage holds', () => {
  it('has no answer, rather than the passages holding its grammar', () => {
    // Before, each came back with a passage: ของ, 입니 and 니까, 울의.
    expect(results.slice(0, 3).map((r) => r.content)).toEqual(['', '', '']);
    expect(ask(TH_CAR)).toEqual([]);
    expect(ask(KO_CAR)).toEqual([]);
  });

  it('is answered on the words it asks about', () => {
    expect(results[3]?.content).toBe(BANGKOK);
    expect(ask('เมืองหลวงของไทยคืออะไร')).toEqual([BANGKOK]);
    expect(results[4]?.content).toBe(SEOUL);
    expect(ask(KO_WEATHER)).toEqual([SEOUL]);
  });
});
