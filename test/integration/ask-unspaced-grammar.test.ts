/**
 * The grammar of a question written without spaces, through the real wiring: `sift batch`
 * fetches Japanese and Chinese pages from a loopback server into a SQLite file, then Ask this
 * job asks the stored job. A Japanese question's runs of hiragana (です, すか, どう) and a Chinese
 * one's pairs of function characters (是多, 多少, 什么) say nothing of what it asks, as the
 * question option on one page reads them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { textJob, type TextJob } from '../helpers/text-job';

const JA = ['東京は日本の首都です。', '富士山は日本で一番高い山です。', '大阪には城があります。'].join('\n\n');
// How much memory, how many disks: 是多少 in each passage, Shanghai and its population in none.
const ZH = ['这台服务器的内存是多少，取决于型号。', '每个工作站的硬盘是多少，请参阅安装手册。', '网络打印机的设置保存在主服务器上。'].join('\n\n');

let job: TextJob;
beforeAll(async () => {
  job = await textJob({ '/ja': JA, '/zh': ZH }, (origin) => [`${origin}/ja`, `${origin}/zh`]);
});
afterAll(async () => {
  await job?.close();
});

const ask = (question: string): string[] => job.ask(question);

describe('Ask this job, in Japanese', () => {
  it('has no answer to a question about what no result holds, rather than every passage in the polite form', () => {
    // Before, です and すか were words that said what was asked: both passages ending in です came back.
    expect(ask('パリの天気はどうですか')).toEqual([]);
  });

  it('answers on the words that say what is asked', () => {
    expect(ask('富士山の高さはどのくらいですか')).toEqual(['富士山は日本で一番高い山です。']);
  });
});

describe('Ask this job, in Chinese', () => {
  it('has no answer to a question about what no result holds, rather than every passage holding 是多少', () => {
    // Before, 是多 and 多少 matched both passages saying how much of something there is.
    expect(ask('上海的人口是多少？')).toEqual([]);
  });

  it('answers on the words that say what is asked', () => {
    expect(ask('服务器的内存是多少？')).toEqual(['这台服务器的内存是多少，取决于型号。']);
  });
});
