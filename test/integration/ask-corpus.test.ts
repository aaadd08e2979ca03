/**
 * Questions and grep patterns people would put to real pages (the article-extraction corpus:
 * news pages nobody here wrote, with their links, typography and boilerplate), fetched from a
 * loopback server through the fetcher, as `sift fetch URL --question Q` and a list's q= do.
 * Skipped where the corpus is not beside the checkout (SIFT_CORPORA names it elsewhere).
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { createFetcher, type Fetcher } from '../../src/main/fetch';
import type { Options, Result } from '../../src/shared/types';
import { fixedResolver, startServer, type Handler, type TestServer } from '../helpers/fetch-server';
import { articleCorpusDir } from '../helpers/corpora';


const dir = articleCorpusDir();
// A space news page (Europa's plumes) and a business page (an airline's order), by their corpus ids.
const PAGES = {
  europa: '686bb170effe273eaff1c0f88e412172e8d972518a6d1454c896f52aafaa9643',
  airline: '374ac9a59a85196cdacc1679fb8993521a7b7d9d6533720f102300be1c7face4',
} as const;
const pageFile = (id: string): string => path.join(dir ?? '', `${id}.html.gz`);
const present = dir !== undefined && Object.values(PAGES).every((id) => existsSync(pageFile(id)));

let srv: TestServer;
let f: Fetcher;
const caller = { name: 'test' };

describe.runIf(present)('questions and grep on real news pages', () => {
  beforeAll(async () => {
    const routes: Record<string, Handler> = {};
    for (const [name, id] of Object.entries(PAGES)) {
      const html = gunzipSync(readFileSync(pageFile(id)));
      routes[`/${name}`] = (_q, r) => r.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(html);
    }
    srv = await startServer(routes);
    f = createFetcher({ allowPrivate: true }, { lookup: fixedResolver({}) });
  });
  afterAll(async () => {
    await f?.close();
    await srv?.close();
  });
  const ask = (page: keyof typeof PAGES, options: Options): Promise<Result> => f.fetchTarget(new AbortController().signal, caller, { url: `${srv.origin}/${page}`, options: { render: 'never', ...options } });

  test('the passage that answers comes back, without the ones that only name the subject before it', async () => {
    // Before: the title and the first paragraph, each naming Europa once, came first (in the
    // page's order), and the answer third; they scored 0.7 to its 25.
    const launch = await ask('europa', { question: 'When will Europa Clipper launch?' });
    expect(launch.content).toMatch(/^NASA is developing a mission called \[Europa Clipper\]\(.*\), which is scheduled to launch in the mid-2020s\./);
    expect(launch.meta?.passages).toBe(1);
    const a380 = await ask('airline', { question: 'How many A380 does Emirates have?' });
    expect(a380.content).toMatch(/^Emirates is the number one buyer of Airbus' iconic A380, the world's largest airliner, with 123 of the planes in its fleet\./);
    expect(a380.meta?.passages).toBe(1);
    // A question several passages answer keeps them, in the page's order.
    const worth = await ask('airline', { question: 'How much is the Boeing order worth?' });
    expect(worth.content).toContain('The order is valued at $8.8 billion at list prices');
    expect(worth.meta?.passages).toBe(3);
  });

  test("a question in other forms of the page's words (-ed, -ing, plurals) finds the passage that has them", async () => {
    // Before: 'cancelled' shared no word with the page's 'cancel', and the page had no answer.
    const cancelled = await ask('airline', { question: 'What was cancelled?' });
    expect(cancelled.content).toContain('The A350 order had been revised to cancel a prior order of A330neo jets');
    expect(cancelled.meta?.warnings).toBeUndefined();
    // 'delaying' and 'tests' did not meet 'delays' and 'testing': no answer either.
    const delays = await ask('airline', { question: 'What is delaying the tests?' });
    expect(delays.content).toMatch(/^The deal sets up .*The 777 program has faced delays due to engine problems and other technical issues in its testing phase\./);
    expect(delays.meta?.passages).toBe(1);
  });

  test('a question the page has nothing on is said to have no answer, not answered with its "the"s', async () => {
    const r = await ask('europa', { question: 'When do the trains leave the station?' });
    expect(r).toMatchObject({ content: '', meta: { passages: 0, warnings: ['no_answer'] } });
  });

  test('grep finds a phrase as the page reads, across a link and its apostrophe', async () => {
    const r = await ask('airline', { grep: "Boeing's 787" });
    expect(r.meta?.matches).toBe(1);
    expect(r.content).toMatch(/^DUBAI, United Arab Emirates — Dubai's flagship carrier Emirates Airline finalized a deal to purchase 30 of \[Boeing\]\(/);
  });
});
