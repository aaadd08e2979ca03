/**
 * Turkish questions through the real wiring: `sift batch` fetches a page from a loopback server
 * (a list's q= asks it the question), then Ask this job asks the stored job. A question's ve
 * (and), bu (this), ne (what) are in passages about anything; İ and ı are read as the i people
 * type.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { textJob, type TextJob } from '../helpers/text-job';

// Cats like fish, and this is a fact. / The weather is nice today. / ISTANBUL is a big city.
const CATS = 'Kediler balık sever ve bu bir gerçek.';
const CITY = 'İSTANBUL büyük bir şehir.';
const TR = [CATS, 'Hava bugün güzel.', CITY].join('\n\n');
// Where is Ankara, and how big is this city?
const ANKARA = 'Ankara nerede ve bu şehir ne kadar büyük?';

let job: TextJob;
let results: TextJob['results'];
beforeAll(async () => {
  job = await textJob({ '/tr': TR, '/cats': CATS }, (origin) => [`${origin}/cats q="${ANKARA}"`, `${origin}/tr q="istanbul nerede?"`]);
  results = job.results;
});
afterAll(async () => {
  await job?.close();
});

describe('a Turkish question', () => {
  it('about what no passage holds has no answer, rather than the passage holding its ve and bu', () => {
    // Before, the cats' passage came back for ve and bu.
    expect(results[0]?.content).toBe('');
    expect(job.ask('Ankara nerede ve bu hangi ülkede?')).toEqual([]);
  });

  it('is answered on the words it asks about, with İ read as i', () => {
    expect(results[1]?.content).toBe(CITY);
    expect(job.ask(ANKARA)).toEqual([CITY]);
  });
});
