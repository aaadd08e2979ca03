/**
 * Indonesian and Malay questions through the real wiring: `sift batch` fetches pages from a
 * loopback server (a list's q= asks the question), then Ask this job asks the stored job. A
 * question's apa (what), yang (that), dengan (with), bagaimana (how), di (in) are in passages
 * about anything, and ranked a passage of them as its answer.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { textJob, type TextJob } from '../helpers/text-job';

// Photosynthesis is the process by which green plants make food with the help of sunlight.
const PHOTO = 'Fotosintesis adalah proses pembuatan makanan oleh tumbuhan hijau dengan bantuan cahaya matahari.';
// What we do with the time that there is, that is our own choice, and that is what decides our life.
const CHOICE = 'Apa yang kita lakukan dengan waktu yang ada adalah pilihan kita sendiri, dan itu yang menentukan hidup kita.';
// Rice seedlings are planted in a flooded field twenty days after sowing.
const RICE = 'Bibit padi ditanam di sawah yang tergenang air dua puluh hari setelah disemai.';
// Where there is a will, there is a way: however hard, we can find out how.
const HOW = 'Di mana ada kemauan, di situ ada jalan: bagaimana pun sulitnya, kita bisa tahu bagaimana caranya.';
const PAGE = [CHOICE, PHOTO, HOW, RICE].join('\n\n');
// What is meant by photosynthesis? / How are rice seedlings planted in the field?
const WHAT = 'Apa yang dimaksud dengan fotosintesis?';
const HOW_RICE = 'Bagaimana cara menanam bibit padi di sawah?';

let job: TextJob;
beforeAll(async () => {
  job = await textJob({ '/id': PAGE }, (origin) => [`${origin}/id q="${WHAT}"`, `${origin}/id q="${HOW_RICE}"`]);
});
afterAll(async () => {
  await job?.close();
});

describe('an Indonesian question', () => {
  it('is answered by the passage holding what it asks about, not by one holding its apa, yang and dengan', () => {
    expect(job.results[0]?.content).toBe(PHOTO);
    expect(job.ask(WHAT)).toEqual([PHOTO]);
  });

  it('beginning "Bagaimana cara" is answered by the passage about it, not by one holding bagaimana and di', () => {
    expect(job.results[1]?.content).toBe(RICE);
    expect(job.ask(HOW_RICE)).toEqual([RICE]);
  });

  it('about what no passage holds has no answer', () => {
    // Where is the Borobudur temple?
    expect(job.ask('Di mana letak candi Borobudur?')).toEqual([]);
  });
});
