/**
 * A letter written with a nukta as one character or as its letter and the nukta, through the
 * real wiring: `sift batch` fetches the pages from a loopback server (a list's q= asks each its
 * question), then Ask this job and search read the stored job. Punjabi ਸ਼ (U+0A36) is ਸ and ਼
 * (U+0A38 U+0A3C), Hindi क़ (U+0958) is क and ़; keyboards and converters write either, and NFC
 * makes neither one (both are composition exclusions), so each spelling must find the other.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { textJob, type TextJob } from '../helpers/text-job';
import { hitText, searchStore } from '../../src/main/search';

const SH = '\u0A36';
const S_NUKTA = '\u0A38\u0A3C';
const QA = '\u0958';
const K_NUKTA = '\u0915\u093C';

// "The city is very big." / "The weather is good." (Punjabi); "The pen is on the table." / "The weather is good." (Hindi)
const pa = (sh: string): string => [`${sh}ਹਿਰ ਬਹੁਤ ਵੱਡਾ ਹੈ।`, 'ਮੌਸਮ ਚੰਗਾ ਹੈ।'].join('\n\n');
const hi = (qa: string): string => [`${qa}लम मेज़ पर है।`, 'मौसम अच्छा है।'].join('\n\n');

let job: TextJob;
let results: TextJob['results'];
beforeAll(async () => {
  job = await textJob({ '/pa-one': pa(SH), '/pa-two': pa(S_NUKTA), '/hi-one': hi(QA), '/hi-two': hi(K_NUKTA) }, (origin) => [
    `${origin}/pa-one q="${S_NUKTA}ਹਿਰ"`,
    `${origin}/pa-two q="${SH}ਹਿਰ"`,
    `${origin}/hi-one q="${K_NUKTA}लम"`,
    `${origin}/hi-two q="${QA}लम"`,
  ]);
  results = job.results;
});
afterAll(async () => {
  await job?.close();
});

const ask = (question: string): string[] => [...new Set(job.ask(question))].sort();
const search = (query: string): string[] => job.read((store, jobId) => searchStore(store, query, { jobId }).hits.map(hitText).sort());

describe('a word with a nukta, spelled as one character or as two', () => {
  it("answers a list's question spelled the other way", () => {
    expect(results.map((r) => r.content)).toEqual([`${SH}ਹਿਰ ਬਹੁਤ ਵੱਡਾ ਹੈ।`, `${S_NUKTA}ਹਿਰ ਬਹੁਤ ਵੱਡਾ ਹੈ।`, `${QA}लम मेज़ पर है।`, `${K_NUKTA}लम मेज़ पर है।`]);
  });

  it('Ask this job finds both spellings with either', () => {
    for (const q of [`${SH}ਹਿਰ`, `${S_NUKTA}ਹਿਰ`]) expect(ask(q)).toEqual([`${SH}ਹਿਰ ਬਹੁਤ ਵੱਡਾ ਹੈ।`, `${S_NUKTA}ਹਿਰ ਬਹੁਤ ਵੱਡਾ ਹੈ।`].sort());
    for (const q of [`${QA}लम`, `${K_NUKTA}लम`]) expect(ask(q)).toEqual([`${QA}लम मेज़ पर है।`, `${K_NUKTA}लम मेज़ पर है।`].sort());
  });

  it('search finds and marks both spellings with either', () => {
    for (const q of [`${SH}ਹਿਰ`, `${S_NUKTA}ਹਿਰ`]) expect(search(q)).toEqual([`«${SH}ਹਿਰ» ਬਹੁਤ ਵੱਡਾ ਹੈ।`, `«${S_NUKTA}ਹਿਰ» ਬਹੁਤ ਵੱਡਾ ਹੈ।`].sort());
    for (const q of [`${QA}लम`, `${K_NUKTA}लम`]) expect(search(q)).toEqual([`«${QA}लम» मेज़ पर है।`, `«${K_NUKTA}लम» मेज़ पर है।`].sort());
  });
});
