/**
 * What a Chinese or Japanese question shares with a passage, through the real wiring: `sift
 * batch` fetches pages from a loopback server (a list's q= asks each page its question as it
 * is fetched), then Ask this job asks the stored job. Written without spaces, a question is
 * cut into character pairs, and a pair across two words (机的 of 飞机的, 们发 of 我们发, の人 of
 * の人口) is half a word and a function character: a passage sharing only such a pair is about
 * something else, and must not come back as the answer.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { textJob, type TextJob } from '../helpers/text-job';

// A phone's battery; a galaxy they discovered; dolls. None says when a plane leaves, when we are paid, or how many live in Tokyo.
const PHONE = '手机的电池很快就没电了。';
const GALAXY = '他们发现了一个新的星系。';
const ZH = [PHONE, GALAXY, '飞机下午三点起飞。'].join('\n\n');
const DOLLS = '日本の人形は美しい。';
const JA = [DOLLS, '富士山は日本で一番高い山です。'].join('\n\n');

// Off topic: 飞机的 shares 机的 with 手机的 (phone's), 我们发工资 shares 们发 with 他们发现 (they
// discovered), 東京の人口 shares の人 with 日本の人形 (dolls).
const PLANE = '飞机的起飞时间是几点？';
const PAY = '我们发工资的日期是哪天？';
const TOKYO = '東京の人口は何人ですか';

// A GPU and katakana written full-width and half-width, as Japanese input methods and older pages write them.
const WIDE = ['このＧＰＵは速い。', 'ｶﾞｲﾄﾞの説明です。', '猫が好きです。'].join('\n\n');

let job: TextJob;
let results: TextJob['results'];
beforeAll(async () => {
  job = await textJob({ '/zh': ZH, '/ja': JA, '/wide': WIDE, '/phone': PHONE, '/galaxy': GALAXY, '/dolls': DOLLS }, (origin) => [
    `${origin}/phone q="${PLANE}"`,
    `${origin}/galaxy q="${PAY}"`,
    `${origin}/dolls q="${TOKYO}"`,
    `${origin}/zh q="${PLANE}"`,
    `${origin}/ja q="日本の人形について教えてください"`,
    `${origin}/zh`,
    `${origin}/ja`,
    `${origin}/wide q="GPUの性能は"`,
    `${origin}/wide q="ガイドとは"`,
  ]);
  results = job.results;
});
afterAll(async () => {
  await job?.close();
});

const ask = (question: string): string[] => [...new Set(job.ask(question))];

describe('a question that shares half a word and a function character with a passage', () => {
  it('has no answer on a page about something else', () => {
    // Before, each came back with the page's one passage.
    expect(results.slice(0, 3).map((r) => r.content)).toEqual(['', '', '']);
  });

  it('has no answer in Ask this job either', () => {
    expect(ask(PAY)).toEqual([]);
    expect(ask(TOKYO)).toEqual([]);
  });

  it('is answered by the passage that shares its words', () => {
    // 飞机 and 起飞: the plane's passage, not the phone's (机的).
    expect(results[3]?.content).toBe('飞机下午三点起飞。');
    expect(ask(PLANE)).toEqual(['飞机下午三点起飞。']);
    expect(results[4]?.content).toBe(DOLLS);
    expect(ask('日本の人形はどこで買えますか')).toEqual([DOLLS]);
  });
});

describe('letters written full-width or half-width', () => {
  it("answer a list's question typed in their usual width", () => {
    // Before, ＧＰＵ was no GPU and ｶﾞｲﾄﾞ no ガイド: both questions had no answer.
    expect(results.slice(7).map((r) => r.content)).toEqual(['このＧＰＵは速い。', 'ｶﾞｲﾄﾞの説明です。']);
  });
});
