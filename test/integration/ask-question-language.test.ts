/**
 * Questions whose words read differently by language, through the real wiring: `sift batch`
 * fetches pages from a loopback server (a list's q= asks each its question), then Ask this job
 * asks the stored job. Korean writes a particle joined to its word, and a word may end in the
 * syllable of one (고양이, cat, is not 고양, Goyang, and 이); German's "die" (the) is an English
 * verb too.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { textJob, type TextJob } from '../helpers/text-job';

// The cat eats fish. / Our cat's name is Nabi.
const CAT = '고양이가 생선을 먹는다.';
const CAT_NAME = '우리 집 고양이 이름은 나비다.';
// Goyang is a city in Gyeonggi province. / The sun shines hot (태양이 holds 양이 of 고양이).
const GOYANG = '고양시는 경기도에 있는 도시이다.';
const SUN = '태양이 뜨겁게 빛난다.';
// What does a cat eat? (고양이가: the cat, as subject) / What is good cat food? (고양이 bare)
const KO_EAT = '고양이가 무엇을 먹나요?';
const KO_FOOD = '좋은 고양이 사료는 무엇인가요?';
// Which province is Goyang in? (고양은: Goyang, as topic; the page writes 고양시, the city of Goyang)
const KO_GOYANG = '고양은 어느 도에 있나요?';

// The old town lies on the Rhine, and the market is old. / The library opens at nine.
const TOWN = 'Die Altstadt liegt am Rhein und der Markt ist sehr alt.';
const LIBRARY = 'Die Bibliothek öffnet um neun Uhr.';
// When does the library open? ("die" in every German passage)
const DE_LIBRARY = 'Wann öffnet die Bibliothek?';
const FILM = 'Die Hard came out in 1988 and made Bruce Willis a star.';
const RIVER = 'The river runs past the old town walls.';

let job: TextJob;
let elsewhere: TextJob;
let results: TextJob['results'];
beforeAll(async () => {
  job = await textJob(
    {
      '/cat': [CAT, CAT_NAME].join('\n\n'),
      '/goyang': GOYANG,
      '/sun': SUN,
      '/town': TOWN,
      '/library': [TOWN, LIBRARY].join('\n\n'),
      '/film': [RIVER, FILM].join('\n\n'),
    },
    (origin) => [
      `${origin}/goyang q="${KO_FOOD}"`,
      `${origin}/sun q="${KO_EAT}"`,
      `${origin}/cat q="${KO_EAT}"`,
      `${origin}/cat q="${KO_FOOD}"`,
      `${origin}/town q="${DE_LIBRARY}"`,
      `${origin}/library q="${DE_LIBRARY}"`,
      `${origin}/film q="When did Die Hard come out?"`,
      `${origin}/goyang q="${KO_GOYANG}"`,
    ],
  );
  results = job.results;
  // A job of the pages about Goyang, the sun and the old town only, stored whole: Ask this job
  // has nothing on the questions' topics to rank above them.
  elsewhere = await textJob({ '/goyang': GOYANG, '/sun': SUN, '/town': TOWN }, (origin) => [`${origin}/goyang`, `${origin}/sun`, `${origin}/town`]);
});
afterAll(async () => {
  await job?.close();
  await elsewhere?.close();
});

const ask = (question: string): string[] => [...new Set(job.ask(question))];

describe('a Korean question', () => {
  it('about a cat has no answer on a page about Goyang or the sun, whose words hold half of 고양이', () => {
    // Before, 고양이 bare was read as 고양 and a particle, so the page about Goyang answered it,
    // and the pair 양이 of 고양이가 found 태양이 (the sun).
    expect(results[0]?.content).toBe('');
    expect(results[1]?.content).toBe('');
    expect(elsewhere.results.map((r) => r.content)).toEqual([GOYANG, SUN, TOWN]);
    expect(elsewhere.ask(KO_FOOD)).toEqual([]);
    expect(elsewhere.ask(KO_EAT)).toEqual([]);
  });

  it('finds 고양이 bare or with its particle, whichever the question writes', () => {
    // CAT_NAME holds 고양이 and no word of eating: it ranks under a quarter of CAT.
    expect(results[2]?.content).toBe(CAT);
    expect(results[3]?.content).toBe([CAT, CAT_NAME].join('\n\n'));
    expect(ask(KO_FOOD).sort()).toEqual([CAT, CAT_NAME].sort());
    expect(ask(KO_EAT)[0]).toBe(CAT);
  });

  it('about Goyang finds the city of Goyang: a stem 은 was taken off is found in a longer word', () => {
    expect(results[7]?.content).toBe(GOYANG);
    expect(elsewhere.ask(KO_GOYANG)).toEqual([GOYANG]);
  });
});

describe("a German question's die", () => {
  it('makes no answer of a passage sharing only it', () => {
    // Before, "die" was a word the question asks about: the old town's passage answered it.
    expect(results[4]?.content).toBe('');
    expect(results[5]?.content).toBe(LIBRARY);
    expect(ask(DE_LIBRARY)).toEqual([LIBRARY]);
    expect(elsewhere.ask(DE_LIBRARY)).toEqual([]);
  });

  it('is still a word an English question asks about', () => {
    expect(results[6]?.content).toBe(FILM);
    expect(ask('Who became a star in Die Hard?')).toEqual([FILM]);
  });
});
