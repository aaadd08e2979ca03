/**
 * `sift search` end to end: a real `sift batch` against a loopback site fills a database in
 * a temp SIFT_HOME, then the real command searches it as a child process.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import type http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { makePdf } from '../helpers/fetch-pdf';
import { startSite, type Site } from '../helpers/sites';
import { collect, jsonLines, runSift, startSift } from '../helpers/cli';
import { openStore } from '../../src/main/store';
import { searchHelp } from '../../src/shared/search';

let site: Site;
let home: string;
let env: NodeJS.ProcessEnv;
let db: string;
let jobA: string;
let jobB: string;
let jobBook: string;
let jobEn: string;

/**
 * A book of 8 pages with a running head and a page number on each (furniture, which text
 * modes drop) and a word broken across a line end on page 3: the lines a page starts on must
 * be counted in the text stored, or every later page is cited too late.
 */
const book = makePdf({
  title: 'Harbour Almanac',
  pages: Array.from({ length: 8 }, (_, i) => [
    'Harbour Almanac — Notes of the Season',
    i === 5 ? 'The lighthouse keeper writes the tide tables by hand.' : `Chapter ${i + 1} tells of the boats that came in.`,
    i === 2 ? 'The fishermen mended their nets in the ware-' : 'Gulls followed the boats along the quay.',
    i === 2 ? 'house before the storm.' : 'The wind turned in the evening.',
    String(i + 1),
  ]),
});

const page = (title: string, body: string) => (_req: http.IncomingMessage, res: http.ServerResponse) => {
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
  res.end(`<!doctype html><html><head><meta charset="utf-8"><title>${title}</title></head><body><main><article><h1>${title}</h1>${body}</article></main></body></html>`);
};

const paras = (...ps: string[]): string => ps.map((p) => `<p>${p}</p>`).join('');

beforeAll(async () => {
  site = await startSite({
    '/cafe': page('Le café de la gare', paras('Un petit café près de la gare, ouvert depuis longtemps et connu de tous les voyageurs.', 'Sa crème brûlée est célèbre dans toute la région depuis 1920, et les habitués la commandent chaque matin.', '🥐 Le patron dit : «Bonjour à tous» aux voyageurs.')),
    '/tokyo': page('首都の紹介', paras('東京都は日本の首都です。人口は約一千四百万人で、世界でも有数の大都市として知られています。', '交通機関が発達しており、電車で多くの場所に行くことができます。')),
    '/book.pdf': (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/pdf' });
      res.end(book);
    },
    // A page kept as its markup (mode raw): the tracker's script, the styles and the class
    // names say "quokka", the text a person reads does not.
    '/shop': (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(
        '<!doctype html><html><head><title>Corner shop</title>\n<script>window.quokka = { id: "quokka-tag" };</script>\n<style>.quokka-menu { color: red }</style></head>\n' +
          '<body><nav class="quokka-menu"><a href="/quokka">Home</a></nav>\n<main><h1>Corner shop</h1>\n<p>The corner shop sells fresh bread &amp; wombat-shaped biscuits every morning, and the owner knows each customer by name.</p></main></body></html>',
      );
    },
    // Words as people type them differ from these: accents, ё, ß, hamza, no spaces in Thai, a zero-width space (the page's soft hyphen the extractor drops).
    '/forms/el': page('Πόλη', paras('Η βιβλιοθήκη της πόλης άνοιξε ξανά μετά από δύο χρόνια εργασιών και περιμένει τους αναγνώστες της κάθε πρωί.', 'Οι επισκέπτες βρίσκουν εκεί χιλιάδες βιβλία, περιοδικά και παλιούς χάρτες της περιοχής.')),
    '/forms/ru': page('Праздник', paras('Новогодняя ёлка стояла в большом зале городской библиотеки, и дети пели песни вокруг неё весь вечер.', 'Родители фотографировали детей и пили горячий чай с пирогами.')),
    '/forms/de': page('Verkehr', paras('Die Straßenbahn fährt jeden Morgen um sechs Uhr durch die Altstadt bis zum Hauptbahnhof und zurück.', 'Im Winter fährt sie seltener, weil die Gleise oft vereist sind.')),
    '/forms/ar': page('المكتبة', paras('أنواع الكتب في المكتبة كثيرة، ويجد القارئ فيها ما يريد من الأدب والتاريخ والعلوم.', 'وتفتح المكتبة أبوابها كل يوم من الصباح حتى المساء.')),
    '/forms/th': page('บ้าน', paras('ฉันกินข้าวที่บ้านกับครอบครัวทุกวันก่อนไปทำงานที่สำนักงานในเมือง', 'วันหยุดเราไปเที่ยวทะเลกับเพื่อนหลายคน')),
    '/forms/shy': page('Typesetting', paras('Typesetting rules: long words such as hyphen&shy;ation and super&#x200B;califragilistic may break at the end of a line.', 'The reader never sees the marks that allow it.')),
    // Letters and digits in Unicode's compatibility forms: full-width and half-width input, a PDF's ligatures, a footnote mark.
    '/compat/ja': page('スペック', paras('このＧＰＵは１０倍速いので、ｶﾞｲﾄﾞを読んでから設定してください。', '詳しくはサポートまで。')),
    '/compat/en': page('Report', paras('The ﬁnal ﬁgures of the season were ﬂat, as Einstein¹ would have said of them.', 'Chapter Ⅻ tells the rest.')),
    // C++ and C# in full-width forms, and a page with only the letter C.
    '/compat/cpp': page('開発環境', paras('このライブラリはＣ＋＋とＣ＃で書かれていて、ビルドにはＣＭａｋｅを使います。', '詳しくはサポートまで。')),
    '/compat/vitamin': page('Oranges', paras('An orange holds vitamin C, and a C grade is a pass; the crate is marked c/o the grocer.')),
    // One word in its forms, and another word it begins.
    '/en/report': page('Audit', paras('The audit report on the harbour accounts was published this week by the city council.')),
    '/en/reported': page('Loss', paras('The harbour authority reported a loss for the third year running, the council said.')),
    '/en/reports': page('Filings', paras('Two reports on the harbour dredging were filed before the deadline in March.')),
    '/en/reporter': page('Interview', paras('A reporter asked the harbour master about the dredging contract and its cost.')),
    // A compound of four parts and a name with an apostrophe, each typed another way in the search.
    '/joined/lab': page('Lab', paras('The river board opened a state-of-the-art lab for testing the water this spring.')),
    '/joined/letter': page('Letter', paras('Dear Mr O’Brien, the river board thanks you for the results of the survey.')),
    // C++ in a title; and a title with a lone C over a text that says C++.
    '/cpp/guide': page('C++ for gardeners', paras('Plant the seedlings when the frost is over, and water them every morning.')),
    '/cpp/notes': page('Notes from greenhouse C', paras('The greenhouse controller runs on C++ and wakes the pumps at six.')),
    // A page whose only 4471 is in a link's address.
    '/links': page('Island news', paras('Read more about <a href="/stories/quokka-mascot-4471">the island’s mascot</a> in our archive.', 'The ferry leaves at nine.')),
    // Timetables of two years, and works over both: a year to leave out, a year range to find.
    '/tram/2021': page('Tram timetable 2021', paras('The tram timetable for 2021 adds a night service on the river line.')),
    '/tram/2022': page('Tram timetable 2022', paras('The tram timetable for 2022 ends the night service after the covid-19 cuts.')),
    '/tram/works': page('Tram works 2021-2022', paras('The tram works of 2021-2022 closed the river line for a winter.')),
    '/arabic': page('مقالة عن المكتبة', paras('كَتَبَ الطالبُ الدرسَ في المكتبة الكبيرة في وسط المدينة، ثم ذهب إلى البيت مساءً.', 'وكانت المكتبة مزدحمة بالقراء في ذلك اليوم الجميل من أيام الربيع.')),
  });
  home = mkdtempSync(path.join(os.tmpdir(), 'sift-cli-search-'));
  writeFileSync(path.join(home, 'settings.json'), JSON.stringify({ allowHosts: ['127.0.0.1'], deadlineSeconds: 20 }));
  env = { SIFT_HOME: home };
  db = path.join(home, 'search.db');
  const listA = [`${site.base}/article/1`, `${site.base}/article/2`, `${site.base}/doc/1.pdf`, `${site.base}/cafe`, `${site.base}/tokyo`, `${site.base}/arabic`, `${site.base}/missing/1`].join('\n');
  const a = await runSift(['batch', '-', '--db', db], { env, input: `${listA}\n` });
  if (!/^job /.test(a.stderr)) throw new Error(a.stderr);
  jobA = /^job (\S+)/.exec(a.stderr)![1]!;
  const b = await runSift(['batch', '-', '--db', db], { env, input: `${site.base}/doc/2.pdf\n` });
  jobB = /^job (\S+)/.exec(b.stderr)![1]!;
  const c = await runSift(['batch', '-', '--db', db], { env, input: `${site.base}/book.pdf\n${site.base}/book.pdf grep="keeper|storm" context\n` });
  jobBook = /^job (\S+)/.exec(c.stderr)![1]!;
  const en = await runSift(['batch', '-', '--db', db], { env, input: ['report', 'reported', 'reports', 'reporter'].map((p) => `${site.base}/en/${p}`).join('\n') + '\n' });
  jobEn = /^job (\S+)/.exec(en.stderr)![1]!;
  const tram = await runSift(['batch', '-', '--db', db], { env, input: ['2021', '2022', 'works'].map((p) => `${site.base}/tram/${p}`).join('\n') + '\n' });
  if (!/^job /.test(tram.stderr)) throw new Error(tram.stderr);
  const links = await runSift(['batch', '-', '--db', db], { env, input: `${site.base}/links\n` });
  if (!/^job /.test(links.stderr)) throw new Error(links.stderr);
}, 120_000);
afterAll(async () => {
  await site.close();
});

/**
 * `sift batch` of these pages (paths on the site) as a new job, then a search of that job alone:
 * what a query found, each hit's index, field and the words its snippet marks.
 */
async function searchOfNewJob(...paths: string[]): Promise<(q: string) => Promise<unknown[][]>> {
  const run = await runSift(['batch', '-', '--db', db], { env, input: paths.map((p) => `${site.base}${p}\n`).join('') });
  expect(run.code, run.stderr).toBe(0);
  const job = /^job (\S+)/.exec(run.stderr)![1]!;
  return async (q) => {
    const r = await runSift(['search', q, '--job', job, '--json', '--db', db], { env });
    expect(r.code, r.stderr).toBe(0);
    return jsonLines(r.stdout).map((h) => [h.idx, h.field, String(h.snippet).match(/«[^»]+»/g)]);
  };
}

// Each test spawns `sift` a few times; each spawn compiles the CLI through tsx.
describe('sift search', { timeout: 180_000 }, () => {
  test('a phrase from a stored PDF finds it first, with its job, target, line and page', async () => {
    const r = await runSift(['search', '"more growth ahead"', '--job', jobA, '--json', '--db', db], { env });
    expect(r.code).toBe(0);
    const hits = jsonLines(r.stdout);
    expect(hits).toHaveLength(1);
    expect(hits[0]).toMatchObject({ jobId: jobA, idx: 2, url: `${site.base}/doc/1.pdf`, title: 'Report', field: 'body', page: 2 });
    expect(hits[0]!.snippet).toContain('«More growth ahead»');
    expect(typeof hits[0]!.score).toBe('number');
    expect(hits[0]!.line).toBeGreaterThan(1);
  });

  test("cites a PDF hit's page as printed, though running heads are dropped and words joined, and in a grep's lines too", async () => {
    const cited = async (word: string) =>
      jsonLines((await runSift(['search', word, '--job', jobBook, '--json', '--db', db], { env })).stdout)
        .map((h) => ({ idx: h.idx, page: h.page, found: String(h.snippet).includes(`«${word}»`) }))
        .sort((a, b) => Number(a.idx) - Number(b.idx));
    // Page 6 comes after five pages of dropped furniture; page 3 holds the joined "warehouse".
    expect(await cited('lighthouse')).toEqual([
      { idx: 0, page: 6, found: true },
      { idx: 1, page: 6, found: true },
    ]);
    expect(await cited('warehouse')).toEqual([
      { idx: 0, page: 3, found: true },
      { idx: 1, page: 3, found: true },
    ]);
    const status = jsonLines((await runSift(['status', jobBook, '--json', '--db', db], { env })).stdout);
    expect(status.slice(1).map((t) => t.status)).toEqual(['done', 'done']);
  });

  test('says on stderr when more results match than --limit printed, and not when they are all', async () => {
    const cut = await runSift(['search', 'lighthouse', '--job', jobBook, '--limit', '1', '--db', db], { env });
    expect(cut.code, cut.stderr).toBe(0);
    expect(cut.stdout.match(/^\d+\. /gm)).toHaveLength(1);
    expect(cut.stderr).toBe('sift search: the best 1 hit is shown; more stored results match: --limit N (up to 1000) shows more, or add a word to narrow them\n');
    const whole = await runSift(['search', 'lighthouse', '--job', jobBook, '--limit', '2', '--json', '--db', db], { env });
    expect(jsonLines(whole.stdout)).toHaveLength(2);
    expect(whole.stderr).toBe('');
  });

  test('a word typed bare finds its other forms (report: reports, reported), not a longer word (reporter); "quoted", only itself', async () => {
    const found = async (q: string) =>
      jsonLines((await runSift(['search', q, '--job', jobEn, '--json', '--db', db], { env })).stdout)
        .map((h) => [String(h.url).split('/').pop(), String(h.snippet).match(/«[^»]+»/g)])
        .sort();
    const forms = [
      ['report', ['«report»']],
      ['reported', ['«reported»']],
      ['reports', ['«reports»']],
    ];
    expect(await found('report')).toEqual(forms);
    expect(await found('reported')).toEqual(forms);
    expect(await found('"report"')).toEqual([['report', ['«report»']]]);
    expect((await found('report*')).map(([u]) => u)).toEqual(['report', 'reported', 'reporter', 'reports']);
  });

  test('searches every job unless --job names one, best first', async () => {
    const all = jsonLines((await runSift(['search', 'revenue', '--json', '--db', db], { env })).stdout);
    expect(all.map((h) => h.jobId).sort()).toEqual([jobA, jobB].sort());
    const scores = all.map((h) => h.score as number);
    expect([...scores].sort((x, y) => y - x)).toEqual(scores);
    const one = jsonLines((await runSift(['search', 'revenue', '--job', jobB, '--json', '--db', db], { env })).stdout);
    expect(one.map((h) => h.jobId)).toEqual([jobB]);
  });

  test('a job is named by the start of its ID too, as git names a commit; a start several IDs share says which', async () => {
    const short = jobB.slice(0, 5);
    const one = jsonLines((await runSift(['search', 'revenue', '--job', short, '--json', '--db', db], { env })).stdout);
    expect(one.length).toBeGreaterThan(0);
    expect(one.every((h) => h.jobId === jobB)).toBe(true);
    const [job] = jsonLines((await runSift(['status', short, '--json', '--db', db], { env })).stdout);
    expect(job).toMatchObject({ id: jobB });
    const out = mkdtempSync(path.join(os.tmpdir(), 'sift-prefix-'));
    const exported = await runSift(['export', short, '--out', out, '--format', 'csv', '--db', db], { env });
    expect(exported.code, exported.stderr).toBe(0);
    expect(exported.stderr).toContain(`sift-${jobB}.csv`);
    // Three characters name no job, however few jobs there are.
    const tooShort = await runSift(['status', jobB.slice(0, 3), '--db', db], { env });
    expect(tooShort.code).toBe(2);
    expect(tooShort.stderr).toMatch(/^sift status: no job /);
    // It says how much of the ID to give, not that the job may have expired.
    expect(tooShort.stderr).toContain('at least its first 4 characters');
    expect(tooShort.stderr).not.toContain('expired');

    const twins = path.join(home, 'twins.db');
    const store = openStore(twins);
    for (const id of ['3f2a9c0000000001', '3f2a9c0000000002']) {
      store.insertJob({ id, caller: 'cli', callerClass: 'cli/batch', idemKey: id, targetsTotal: 1, nowMs: Date.now(), leaseExpires: Date.now() + 86_400_000 }, [{ url: 'https://x.example/' }]);
    }
    store.close();
    for (const cmd of [['status', '3f2a'], ['export', '3f2a', '--out', out], ['cancel', '3f2a'], ['search', 'revenue', '--job', '3f2a']]) {
      const r = await runSift([...cmd, '--db', twins], { env });
      expect(r.code, cmd.join(' ')).toBe(2);
      expect(r.stderr).toBe(`sift ${cmd[0]}: several jobs' IDs start with 3f2a (3f2a9c0000000002, 3f2a9c0000000001); give more of the ID\n`);
    }
    const whole = await runSift(['status', '3f2a9c0000000001', '--json', '--db', twins], { env });
    expect(jsonLines(whole.stdout)[0]).toMatchObject({ id: '3f2a9c0000000001' });
    // Copied in capitals, or with the spaces of a selection around it: the same job.
    const copied = await runSift(['status', ' 3F2A9C0000000001 ', '--json', '--db', twins], { env });
    expect(copied.code, copied.stderr).toBe(0);
    expect(jsonLines(copied.stdout)[0]).toMatchObject({ id: '3f2a9c0000000001' });
  });

  test('finds accents, CJK and Arabic text, and prints a readable hit', async () => {
    // One spawn per query costs seconds on a busy machine; the unit tests try each script alone.
    const hits = jsonLines((await runSift(['search', 'creme brulee OR 人口 OR كتب', '--json', '--db', db], { env })).stdout);
    expect(hits.map((h) => String(h.url).replace(site.base, '')).sort()).toEqual(['/arabic', '/cafe', '/tokyo']);
    expect(hits.find((h) => String(h.url).endsWith('/tokyo'))?.snippet).toContain('«人口»');
    expect(hits.find((h) => String(h.url).endsWith('/arabic'))?.snippet).toContain('«كَتَبَ»');
    const text = await runSift(['search', 'crème', 'brûlée', '--db', db], { env });
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/^1\. Le café de la gare {2}http:\/\/127\.0\.0\.1:\d+\/cafe\n {3}job \w+ #4 · line \d+ · score \d/);
    expect(text.stdout).toContain('Sa «crème» «brûlée» est célèbre');
  });

  test('finds words typed as people type them: Greek without accents, е for ё, ss for ß, the bare alef, a Thai word in its run, a word a zero-width space splits', async () => {
    const forms = ['el', 'ru', 'de', 'ar', 'th', 'shy'];
    const run = await runSift(['batch', '-', '--db', db], { env, input: forms.map((f) => `${site.base}/forms/${f}\n`).join('') });
    expect(run.code, run.stderr).toBe(0);
    const job = /^job (\S+)/.exec(run.stderr)![1]!;
    const r = await runSift(['search', 'βιβλιοθηκη OR елка OR strassenbahn OR انواع OR กิน OR supercalifragilistic', '--job', job, '--json', '--db', db], { env });
    expect(r.code, r.stderr).toBe(0);
    const hits = jsonLines(r.stdout).sort((a, b) => Number(a.idx) - Number(b.idx));
    expect(hits.map((h) => [h.idx, h.field])).toEqual(forms.map((_, i) => [i, 'body']));
    const marked = ['«βιβλιοθήκη» της πόλης', 'Новогодняя «ёлка» стояла', 'Die «Straßenbahn» fährt', '«أنواع» الكتب', 'ฉัน«กิน»ข้าว', 'and «super\u200Bcalifragilistic» may'];
    hits.forEach((h, i) => {
      expect(h.snippet, forms[i]).toContain(marked[i]);
      // Cited at the paragraph's line below the heading, not "in the url" or at the title.
      expect(h.line, forms[i]).toBeGreaterThan(1);
    });
  });

  test('finds full-width ＧＰＵ by GPU, half-width ｶﾞｲﾄﾞ by ガイド, a ligature\'s ﬁnal by final, a word with its footnote mark, marked as the page writes them', async () => {
    const search = await searchOfNewJob('/compat/ja', '/compat/en');
    expect(await search('GPU ガイド')).toEqual([[0, 'body', ['«ＧＰＵ»', '«ｶﾞｲﾄﾞ»']]]);
    expect(await search('"final figures" einstein XII')).toEqual([[1, 'body', ['«ﬁnal ﬁgures»', '«Einstein»', '«Ⅻ»']]]);
  });

  test("finds a compound typed as one word, a name typed without its apostrophe, and a word typed with a sentence's period in its other forms", async () => {
    const search = await searchOfNewJob('/joined/lab', '/joined/letter');
    // Before, stateoftheart and OBrien found nothing, and "results." not the page saying "result".
    expect(await search('stateoftheart')).toEqual([[0, 'body', ['«state-of-the-art»']]]);
    expect(await search('OBrien')).toEqual([[1, 'body', ['«O’Brien»']]]);
    expect(await search('result.')).toEqual([[1, 'body', ['«results»']]]);
  });

  test('finds full-width Ｃ＋＋ and Ｃ＃ by C++ and C#, and the other way round, not the page with a lone C', async () => {
    const search = await searchOfNewJob('/compat/cpp', '/compat/vitamin');
    // 'Ｃ＋＋ AND' and '(Ｃ＃ Ｃ＋＋' are malformed, searched as plain words: there Ｃ＋＋ was the letter Ｃ.
    for (const q of ['C++', 'Ｃ＋＋', 'c++ AND C#', 'Ｃ＋＋ AND', '(Ｃ＃ Ｃ＋＋']) expect(await search(q), q).toEqual([[0, 'body', /[#＃]/.test(q) ? ['«Ｃ＋＋»', '«Ｃ＃»'] : ['«Ｃ＋＋»']]]);
    expect(await search('C')).toHaveLength(2);
  });

  test('--json marks the matched words by offsets a page\'s own «» cannot be taken for', async () => {
    const [hit] = jsonLines((await runSift(['search', 'bonjour', '--json', '--db', db], { env })).stdout);
    expect(hit!.snippet).toContain('««Bonjour» à tous»');
    const text = Array.from(String(hit!.text));
    expect(text.join('')).toContain('🥐 Le patron dit : «Bonjour à tous» aux voyageurs.');
    expect((hit!.marks as [number, number][]).map(([a, b]) => text.slice(a, b).join(''))).toEqual(['Bonjour']);
  });

  test('a page stored as markup (mode raw) is found by its text, not its tags, scripts or styles', async () => {
    const run = await runSift(['batch', '-', '--db', db, '--mode', 'raw'], { env, input: `${site.base}/shop\n` });
    const job = /^job (\S+)/.exec(run.stderr)![1]!;
    expect(jsonLines((await runSift(['search', 'quokka', '--job', job, '--json', '--db', db], { env })).stdout)).toEqual([]);
    const [hit, ...rest] = jsonLines((await runSift(['search', 'biscuits', '--job', job, '--json', '--db', db], { env })).stdout);
    expect(rest).toEqual([]);
    // The line of the stored HTML the words are on, and a snippet that reads as text.
    expect(hit).toMatchObject({ jobId: job, idx: 0, line: 6 });
    expect(hit!.snippet).toBe('… Home Corner shop The corner shop sells fresh bread & wombat-shaped «biscuits» every morning, and the owner knows each customer by name.');
  });

  test('a query FTS5 would reject is searched as plain words; no words says what to type', async () => {
    const bad = await runSift(['search', '"net revenue', '--json', '--db', db], { env });
    expect(bad.code).toBe(0);
    expect(bad.stderr).toMatch(/plain words/);
    expect(jsonLines(bad.stdout).length).toBeGreaterThan(0);
    const none = await runSift(['search', 'zzyzx', '--db', db], { env });
    expect(none.code).toBe(0);
    expect(none.stdout).toBe('');
    expect(none.stderr).toMatch(/no stored result matches zzyzx/);
    expect(none.stderr).not.toMatch(/narrows/);
    // Said on one line, as it can be read: before, a line break in the query broke the message,
    // a right-to-left override turned it around, and a cut through an emoji left half of it (�).
    const odd = await runSift(['search', 'zzyzx\nqwv\u202E', '--db', db], { env });
    expect(odd.stderr).toBe('sift search: no stored result matches zzyzx qwvU+202E\n');
    const long = await runSift(['search', `${'z'.repeat(78)}😀 tail`, '--db', db], { env });
    expect(long.stderr).toBe(`sift search: no stored result matches ${'z'.repeat(78)}…\n`);
    // A word written as a filter is searched as its words, and stderr says so.
    const filter = await runSift(['search', 'page:3', '--db', db], { env });
    expect(filter.code).toBe(0);
    expect(filter.stderr).toMatch(/sift search: The search narrows by title: and url: only: page:3 was searched as the words “page 3”/);
    // A Windows path is no filter: its drive letter was said to be one ("C:\Users\me\tram.txt was searched as the words “C \Users…”").
    expect((await runSift(['search', 'C:\\Users\\me\\tram.txt', '--db', db], { env })).stderr).not.toMatch(/narrows/);
    const empty = await runSift(['search', '--db', db], { env });
    expect(empty.code).toBe(2);
    // The app's help in the app's words (it had its own: "the address", an example); title:WORD among it, as the usage says.
    expect(empty.stderr).toBe(`sift search: give the words to find. ${searchHelp('every stored result')}\n`);
    expect(empty.stderr).toMatch(/title:WORD and url:WORD search the title or the URL alone/);
    const punct = await runSift(['search', '()', '--job', 'abc', '--db', db], { env });
    expect(punct.code).toBe(2);
    expect(punct.stderr).toBe(`sift search: give the words to find. ${searchHelp("this job's results")}\n`);
    const article = await runSift(['search', 'ال', '--db', db], { env });
    expect(article.code).toBe(2);
    expect(article.stderr).toMatch(/^sift search: give the words to find\. "ال" is the Arabic article, .* Search for the word, with the article or without it/);
    // The article with a star asked for the few words kept with it, found none and said nothing.
    const articleStar = await runSift(['search', 'ال*', '--db', db], { env });
    expect(articleStar.code).toBe(2);
    expect(articleStar.stderr).toMatch(/^sift search: give the words to find\. "ال\*" asks for every word written with the Arabic article, .* type its first letters after the article: الكت\* finds/);
    const noJob = await runSift(['search', 'revenue', '--job', 'nope', '--db', db], { env });
    expect(noJob.code).toBe(2);
    expect(noJob.stderr).toMatch(/no job nope/);
    const badLimit = await runSift(['search', 'revenue', '--limit', '0', '--db', db], { env });
    expect(badLimit.code).toBe(2);
    expect(badLimit.stderr).toMatch(/--limit takes a whole number/);
  });

  test('title:, url: and a web search\'s intitle:, inurl: and site: search that column of the index; page:3 is still said to be words', async () => {
    const urls = async (...words: string[]) => {
      const r = await runSift(['search', ...words, '--json', '--db', db], { env });
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr, words.join(' ')).not.toMatch(/narrows/);
      return [...new Set(jsonLines(r.stdout).map((h) => String(h.url).replace(site.base, '')))].sort();
    };
    // The book's title is Harbour Almanac; the four /en pages say harbour in their text only.
    // Before, title:harbour was the phrase "title harbour" and found nothing.
    expect(await urls('harbour')).toEqual(['/book.pdf', '/en/report', '/en/reported', '/en/reporter', '/en/reports']);
    expect(await urls('title:harbour')).toEqual(['/book.pdf']);
    expect(await urls('INTITLE:"harbour almanac"')).toEqual(['/book.pdf']);
    expect(await urls('harbour', '-title:harb*')).toEqual(['/en/report', '/en/reported', '/en/reporter', '/en/reports']);
    expect(await urls('dredging', '-url:reporter')).toEqual(['/en/reports']);
    // Typed first, the minus was part of the word: -title:harb* harbour found only the book, the one it left out.
    expect(await urls('-title:harb*', 'harbour')).toEqual(['/en/report', '/en/reported', '/en/reporter', '/en/reports']);
    expect(await urls('-url:reporter', 'dredging', 'OR', 'title:almanac')).toEqual(['/book.pdf', '/en/reports']);
    const onlyOut = await runSift(['search', '-title:harbour', '--db', db], { env });
    expect(onlyOut.code).toBe(2);
    expect(onlyOut.stderr).toBe('sift search: give the words to find. "-title:harbour" only says what to leave out, and there is no word to find to leave it out of. Add a word to find, and the -word leaves out the results that hold it: revenue -draft.\n');
    // In parentheses, the same: (-title:harbour) was a group to find, and found the book.
    const groupOut = await runSift(['search', '(-title:harbour)', '--db', db], { env });
    expect(groupOut.code).toBe(2);
    expect(groupOut.stderr).toBe('sift search: give the words to find. "(-title:harbour)" only says what to leave out, and there is no word to find to leave it out of. Add a word to find, and the -word leaves out the results that hold it: revenue -draft.\n');
    expect(await urls('harbour', '(-title:harb*)')).toEqual(['/en/report', '/en/reported', '/en/reporter', '/en/reports']);
    expect(await urls('site:127.0.0.1', 'inurl:tokyo')).toEqual(['/tokyo']);
    // A word the column does not hold finds nothing there, though the text holds it.
    expect(await urls('title:dredging')).toEqual([]);
  });

  test('a title: or url: hit shows the title or URL it matched on, marked, though the text holds the word too', async () => {
    const hits = async (...words: string[]) => {
      const r = await runSift(['search', ...words, '--json', '--db', db], { env });
      expect(r.code, r.stderr).toBe(0);
      return jsonLines(r.stdout).map(({ url, field, snippet, line }) => ({ url: String(url).replace(site.base, ''), field, snippet, line }));
    };
    // /en/report is titled Audit and its text says "The audit report …": before, the hit showed
    // that line of the text, cited by its line, as if the text had matched.
    expect(await hits('title:audit')).toEqual([{ url: '/en/report', field: 'title', snippet: '«Audit»', line: undefined }]);
    // /cafe's text says café, which the index reads as cafe.
    expect(await hits('url:cafe')).toEqual([{ url: '/cafe', field: 'url', snippet: `${site.base}/«cafe»`, line: undefined }]);
    // A word of the text beside it is shown in the text, as it is without the column.
    expect((await hits('title:audit', 'council')).map((h) => [h.field, h.snippet])).toEqual([['body', expect.stringContaining('«council»')]]);
    const plain = await runSift(['search', 'title:audit', '--db', db], { env });
    expect(plain.stdout).toMatch(/in the title/);
  });

  test("a hit found only in a link's address shows the link's text, then its address with the match marked, not the Markdown's brackets", async () => {
    const r = await runSift(['search', '4471', '--json', '--db', db], { env });
    expect(r.code, r.stderr).toBe(0);
    const [hit, ...rest] = jsonLines(r.stdout);
    expect(rest).toEqual([]);
    expect(hit).toMatchObject({ url: `${site.base}/links`, field: 'body' });
    // It read "Read more about [the island’s mascot](http://…/quokka-mascot-«4471») in our archive."
    expect(hit!.snippet).toContain(`the island’s mascot (${site.base}/stories/quokka-mascot-«4471») in our archive.`);
    expect(hit!.snippet).not.toMatch(/[[\]]/);
  });

  test('title:C++ and url:C++ look for C++ in that column only, not in the text', async () => {
    const urls = async (...words: string[]) => {
      const r = await runSift(['search', ...words, '--json', '--db', db], { env });
      expect(r.code, r.stderr).toBe(0);
      return jsonLines(r.stdout)
        .map((h) => [String(h.url).replace(site.base, ''), h.field, h.snippet])
        .sort((a, b) => String(a[0]).localeCompare(String(b[0])));
    };
    // /cpp/notes is titled "Notes from greenhouse C" and says C++ in its text only: before,
    // title:C++ found it, as the index's title holds the c and the check for C++ read the text.
    const stored = await runSift(['batch', '-', '--db', db], { env, input: `${site.base}/cpp/guide\n${site.base}/cpp/notes\n` });
    expect(stored.code, stored.stderr).toBe(0);
    expect((await urls('C++', 'greenhouse OR gardeners')).map(([u]) => u)).toEqual(['/cpp/guide', '/cpp/notes']);
    expect(await urls('title:C++')).toEqual([['/cpp/guide', 'title', '«C++» for gardeners']]);
    expect(await urls('url:C++')).toEqual([]);
    // Leaving out a title's C++ keeps the page that says it in its text only.
    expect((await urls('C++', 'greenhouse OR gardeners', '-title:C++')).map(([u]) => u)).toEqual(['/cpp/notes']);
  });

  test('a minus that starts a word leaves out a year (-2022) or a group (-(night service)); inside a word (covid-19, 2021-2022) it is part of it', async () => {
    const urls = async (...words: string[]) => {
      const r = await runSift(['search', ...words, '--json', '--db', db], { env });
      expect(r.code, r.stderr).toBe(0);
      return [...new Set(jsonLines(r.stdout).map((h) => String(h.url).replace(site.base, '')))].sort();
    };
    // The index drops a number's minus: timetable -2022 found the 2022 timetable, the one it left out.
    expect(await urls('timetable', '-2022')).toEqual(['/tram/2021']);
    expect(await urls('-2021', 'tram')).toEqual(['/tram/2022']);
    expect(await urls('tram', 'title:(-2021)')).toEqual(['/tram/2022']);
    // The minus before ( was dropped: tram -(night service) found the two pages with a night service.
    expect(await urls('tram', '-(night service)')).toEqual(['/tram/works']);
    expect(await urls('tram -(2021 OR covid)')).toEqual([]);
    expect(await urls('tram', '-(river night)')).toEqual(['/tram/2022', '/tram/works']);
    // An emoji is a word to the index: -🥐 was the croissant to find.
    expect(await urls('voyageurs')).toEqual(['/cafe']);
    expect(await urls('voyageurs', '-🥐')).toEqual([]);
    expect(await urls('covid-19')).toEqual(['/tram/2022']);
    expect(await urls('2021-2022')).toEqual(['/tram/works']);
    // A year alone to leave out is answered as -draft is, not searched for.
    const onlyOut = await runSift(['search', '-2022', '--db', db], { env });
    expect(onlyOut.code).toBe(2);
    expect(onlyOut.stderr).toBe('sift search: give the words to find. "-2022" only says what to leave out, and there is no word to find to leave it out of. Add a word to find, and the -word leaves out the results that hold it: revenue -draft.\n');
    const groupOut = await runSift(['search', '-(night service)', '--db', db], { env });
    expect(groupOut.code).toBe(2);
    expect(groupOut.stderr).toMatch(/^sift search: give the words to find\. "-\(night service\)" only says what to leave out/);
  });

  test('a query searched as plain words says what was wrong and what to type, keeps its -word left out, and title: alone asks for the word', async () => {
    const run = async (...words: string[]) => {
      const r = await runSift(['search', ...words, '--json', '--db', db], { env });
      return { code: r.code, stderr: r.stderr, urls: [...new Set(jsonLines(r.stdout).map((h) => String(h.url).replace(site.base, '')))].sort() };
    };
    // Typed on the way to -(2022 OR 2023): it said only "(the query is not valid search syntax)" and found the 2022 pages it was to leave out.
    const group = await run('tram', '-(2022');
    expect(group.urls).toEqual(['/tram/2021']);
    expect(group.stderr).toBe('sift search: searched as plain words: the ( is not closed; add the closing ) to search the group\n');
    expect((await run('"night service')).stderr).toBe('sift search: searched as plain words: the " is not closed; add the closing " to search the exact phrase\n');
    const or = await run('timetable', 'OR');
    expect(or.urls).toEqual(['/tram/2021', '/tram/2022']);
    expect(or.stderr).toBe('sift search: searched as plain words: OR at the end has nothing after it; add a word after it, or remove it\n');
    // title: with its word still to come: it was the word "title", and nothing matched.
    expect(await run('tram', 'title:')).toEqual({ code: 0, stderr: '', urls: ['/tram/2021', '/tram/2022', '/tram/works'] });
    const alone = await run('title:');
    expect(alone.code).toBe(2);
    expect(alone.stderr).toBe('sift search: give the words to find. "title:" names where to search, with no word after it to find there. Type the word right after the colon: title:report finds the results with report in their title.\n');
  });

  test('a NOT before a word or a one-word ( still being typed leaves it out of the plain words; title: with a space before its word is title:word', async () => {
    const run = async (...words: string[]) => {
      const r = await runSift(['search', ...words, '--json', '--db', db], { env });
      return { code: r.code, stderr: r.stderr, urls: [...new Set(jsonLines(r.stdout).map((h) => String(h.url).replace(site.base, '')))].sort() };
    };
    // Typed on the way to NOT (2022 OR 2023): searched as "tram not 2022", it found none of the pages it was to keep.
    expect(await run('tram', 'NOT', '(2022')).toEqual({ code: 0, stderr: 'sift search: searched as plain words: the ( is not closed; add the closing ) to search the group\n', urls: ['/tram/2021'] });
    // title: harbour searched harbour everywhere, the four reports with it.
    expect(await run('title:', 'harbour')).toEqual({ code: 0, stderr: '', urls: ['/book.pdf'] });
    expect(await run('title: harbour')).toEqual({ code: 0, stderr: '', urls: ['/book.pdf'] });
  });

  test('title:-word and title: -word leave the word out of the title alone', async () => {
    const urls = async (...words: string[]) => [...new Set(jsonLines((await runSift(['search', ...words, '--json', '--db', db], { env })).stdout).map((h) => String(h.url).replace(site.base, '')))].sort();
    // No title says night; two texts do. title: -night left those two out; title:-night found no title with night, so nothing.
    expect(await urls('tram', 'title:', '-night')).toEqual(['/tram/2021', '/tram/2022', '/tram/works']);
    expect(await urls('tram', 'title:-night')).toEqual(['/tram/2021', '/tram/2022', '/tram/works']);
    expect(await urls('tram', 'title:-2022')).toEqual(['/tram/2021']);
  });

  test('NOT or a minus before a phrase still being typed leaves it out: tram NOT"night service', async () => {
    const urls = async (q: string) => jsonLines((await runSift(['search', q, '--json', '--db', db], { env })).stdout).map((h) => String(h.url).replace(site.base, ''));
    // NOT stayed a word, and none of the pages says "not"; a minus was the phrase's, and found the two it was to leave out.
    expect(await urls('tram NOT"night service')).toEqual(['/tram/works']);
    expect(await urls('tram -"night service')).toEqual(['/tram/works']);
  });

  test('a query searched as plain words keeps title:word in the title: title:works (tram', async () => {
    const r = await runSift(['search', 'title:works (tram', '--json', '--db', db], { env });
    // It was the words title, works and tram anywhere, and no page says title.
    expect(jsonLines(r.stdout).map((h) => String(h.url).replace(site.base, ''))).toEqual(['/tram/works']);
    expect(r.stderr).toBe('sift search: searched as plain words: the ( is not closed; add the closing ) to search the group\n');
  });

  test('AND NOT is NOT: tram AND NOT night finds the tram pages without a night service', async () => {
    const r = await runSift(['search', 'tram AND NOT night', '--json', '--db', db], { env });
    // Searched as plain words ("AND NOT has no word between them"), it found no page: none says "not".
    expect(r.stderr).toBe('');
    expect(jsonLines(r.stdout).map((h) => String(h.url).replace(site.base, ''))).toEqual(['/tram/works']);
  });

  test('a column named inside title:( or url:( is the one searched: title:(url:tram) finds the URLs, each hit shown in the url', async () => {
    const r = await runSift(['search', 'title:(url:tram)', '--json', '--db', db], { env });
    expect(r.code, r.stderr).toBe(0);
    const hits = jsonLines(r.stdout).map((h) => [String(h.url).replace(site.base, ''), h.field, String(h.snippet).replace(site.base, '')]);
    expect(hits.sort()).toEqual([
      ['/tram/2021', 'url', '/«tram»/2021'],
      ['/tram/2022', 'url', '/«tram»/2022'],
      ['/tram/works', 'url', '/«tram»/works'],
    ]);
    // The group's other words stay in the title: works is in one title.
    expect(jsonLines((await runSift(['search', 'title:(url:tram works)', '--json', '--db', db], { env })).stdout).map((h) => String(h.url).replace(site.base, ''))).toEqual(['/tram/works']);
    const shown = await runSift(['search', 'title:(url:tram)', '--db', db], { env });
    expect(shown.stdout).toMatch(/in the url/);
  });

  test('a query past 2,000 characters is refused as the app refuses it, with its length, on one line', async () => {
    // A pasted paragraph of 2,100 Chinese characters: the app said so; sift search read it (1.4 s of FTS5 for 10,200).
    const long = await runSift(['search', '东'.repeat(2_100), '--db', db], { env });
    expect(long.code).toBe(2);
    expect(long.stdout).toBe('');
    expect(long.stderr).toBe('sift search: A search takes at most 2,000 characters; this one has 2,100. Keep the few words that tell the results apart: a name, a figure, "an exact phrase".\n');
    // Its words joined by spaces count too; at the limit it searches.
    const atLimit = await runSift(['search', ...Array.from({ length: 400 }, () => 'abcd'), '--db', db], { env });
    expect(atLimit.stderr).not.toMatch(/at most 2,000 characters/);
    const past = await runSift(['search', ...Array.from({ length: 401 }, () => 'abcd'), '--db', db], { env });
    expect(past.code).toBe(2);
    expect(past.stderr).toMatch(/^sift search: A search takes at most 2,000 characters; this one has 2,004\. /);
  });

  test('with nothing stored yet, says so and how to fetch, and leaves no database behind', async () => {
    const fresh = mkdtempSync(path.join(os.tmpdir(), 'sift-cli-search-fresh-'));
    const r = await runSift(['search', 'harbour'], { env: { SIFT_HOME: fresh } });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe('sift search: nothing has been stored yet: sift batch FILE fetches a list and stores its results to search\n');
    // Before, it made the app's database (and a log) and said "no stored result matches harbour".
    expect(readdirSync(fresh)).toEqual([]);
  });

  test('sift jobs, status, export and cancel in an empty data folder say nothing is stored yet, and make no database', async () => {
    const fresh = mkdtempSync(path.join(os.tmpdir(), 'sift-cli-jobs-fresh-'));
    const out = path.join(os.tmpdir(), `sift-cli-jobs-fresh-out-${process.pid}`);
    const run = (...args: string[]) => runSift(args, { env: { SIFT_HOME: fresh } });
    // Before, each made sift.db and sift.log there, and status said the job "may have expired, or been deleted in the app".
    const jobs = await run('jobs');
    expect([jobs.code, jobs.stdout, jobs.stderr]).toEqual([0, '', 'sift jobs: nothing has been stored yet: sift batch FILE fetches a list and stores its results\n']);
    const json = await run('jobs', '--json');
    expect([json.code, json.stdout]).toEqual([0, '']);
    for (const args of [['status', 'abcd1234'], ['export', 'abcd1234', '--out', out], ['cancel', 'abcd1234']]) {
      const r = await run(...args);
      expect([r.code, r.stdout, r.stderr], args[0]).toEqual([2, '', `sift ${args[0]}: no job abcd1234: nothing has been stored yet: sift batch FILE fetches a list and stores its results\n`]);
    }
    expect(readdirSync(fresh)).toEqual([]);
    expect(existsSync(out)).toBe(false);
  });

  test('a -word typed as an argument of its own leaves out what holds it, as the usage says; a dash word that names an option stays that option', async () => {
    // `sift search voyageurs -brûlée` was "unknown option -brûlée": only quoted as one argument did the usage's "a -b" work.
    const kept = await runSift(['search', 'voyageurs', '-zzyzx', '--json', '--db', db], { env });
    expect(kept.code, kept.stderr).toBe(0);
    expect(jsonLines(kept.stdout).map((h) => h.url)).toEqual([`${site.base}/cafe`]);
    const left = await runSift(['search', 'voyageurs', '-brûlée', '--db', db], { env });
    expect(left.code, left.stderr).toBe(0);
    expect(left.stdout).toBe('');
    expect(left.stderr).toMatch(/no stored result matches voyageurs -brûlée/);
    const flag = await runSift(['search', 'voyageurs', '-json', '--db', db], { env });
    expect(flag.code).toBe(2);
    expect(flag.stderr).toMatch(/unknown option -json; did you mean --json\?/);
  });

  test('an export whose --out is named .zip, .jsonl, .csv or .md, without --format, is that file', async () => {
    const out = mkdtempSync(path.join(os.tmpdir(), 'sift-out-named-'));
    const run = (name: string, ...more: string[]) => runSift(['export', jobB, '--out', path.join(out, name), ...more, '--db', db], { env });
    for (const name of ['results.zip', 'results.jsonl', 'Results.CSV', 'notes.md']) {
      const r = await run(name);
      expect(r.code, r.stderr).toBe(0);
      expect(statSync(path.join(out, name)).isFile(), name).toBe(true);
    }
    expect(readFileSync(path.join(out, 'results.zip')).subarray(0, 2).toString()).toBe('PK');
    expect(jsonLines(readFileSync(path.join(out, 'results.jsonl'), 'utf8')).length).toBeGreaterThan(0);
    expect(readFileSync(path.join(out, 'Results.CSV'), 'utf8')).toMatch(/^\ufeffidx,url,/);
    // One Markdown document of every result, with its table of contents.
    expect(readFileSync(path.join(out, 'notes.md'), 'utf8')).toMatch(/^# .+\n[\s\S]*## Contents/);
    // A folder of that name already there is where a folder export goes.
    mkdirSync(path.join(out, 'old.zip'));
    expect((await run('old.zip')).code).toBe(0);
    expect(readdirSync(path.join(out, 'old.zip'))).toEqual([`sift-${jobB}`]);
    // A --format that writes another file is refused: it made a folder "named.zip" holding a JSONL file.
    const other = await run('named.zip', '--format', 'jsonl');
    expect(other.code).toBe(2);
    expect(other.stderr).toMatch(/^sift export: --out named\.zip names one \.zip file, but --format jsonl writes one \.jsonl file/);
    expect(existsSync(path.join(out, 'named.zip'))).toBe(false);
    const bad = await run('x', '--format', 'pdf');
    expect(bad.code).toBe(2);
    expect(bad.stderr).toBe('sift export: unknown export format "pdf". Use --format md, txt, json, folder, jsonl, csv, combined or zip.\n');
    // Each format the hint names is one the helps name: it named folder, which no --help did.
    const named = /Use --format (.*)\./.exec(bad.stderr)![1]!.split(/, | or /);
    for (const cmd of ['export', 'batch']) {
      const help = (await runSift([cmd, '--help'], { env })).stdout;
      const formats = /--format FORMAT {2,}([\s\S]*?)\(default:|--format ([a-z|-]+)\]/.exec(help)!;
      for (const f of named) expect(formats[1] ?? formats[2], `${cmd}: ${f}`).toMatch(new RegExp(`(^|[\\s|,])${f}([\\s|,]|$)`));
    }
  });

  test('a --db that names no file is an error for the commands that read, and makes nothing', async () => {
    const typo = path.join(home, 'no-such-folder', 'typo.db');
    for (const args of [['search', 'revenue'], ['jobs'], ['status', 'abc'], ['export', 'abc', '--out', path.join(home, 'typo-out')], ['cancel', 'abc']]) {
      const r = await runSift([...args, '--db', typo], { env });
      expect(r.code, args[0]).toBe(2);
      expect(r.stderr, args[0]).toBe(`sift ${args[0]}: no database at ${typo}\n  Check the --db path: sift batch --db PATH makes one, and without --db Sift uses the app’s.\n`);
    }
    expect(existsSync(path.dirname(typo))).toBe(false);
  });

  test('a --db that is no SQLite file is named so by the command given it: it said "sift:" where every other line says "sift export:"', async () => {
    const notDb = path.join(home, 'notes.db');
    writeFileSync(notDb, 'not a database at all\n');
    for (const args of [['search', 'revenue'], ['jobs'], ['status', 'abcd'], ['export', 'abcd', '--out', path.join(home, 'not-db-out')], ['cancel', 'abcd'], ['batch', '-']]) {
      const r = await runSift([...args, '--db', notDb], { env, input: 'http://127.0.0.1:9/\n' });
      expect(r.code, args[0]).toBe(2);
      expect(r.stderr, args[0]).toMatch(new RegExp(`^sift ${args[0]}: ${notDb.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} is not a Sift database: .*\n  Pass --db with the path of a Sift database`));
    }
  });

  test('a job the expiry sweep deletes is gone from search', async () => {
    const before = jsonLines((await runSift(['search', 'revenue', '--json', '--db', db], { env })).stdout);
    expect(before.some((h) => h.jobId === jobB)).toBe(true);
    // The job's lease lapses; the next `sift batch` starts a runner, whose sweep deletes it.
    const Database = (await import('better-sqlite3')).default;
    const raw = new Database(db);
    raw.prepare('UPDATE jobs SET lease_expires = 1 WHERE id = ?').run(jobB);
    raw.close();
    expect((await runSift(['batch', '-', '--db', db], { env, input: `${site.base}/article/3\n` })).code).toBe(0);
    const after = await runSift(['search', 'revenue', '--json', '--db', db], { env });
    expect(jsonLines(after.stdout).map((h) => h.jobId)).toEqual([jobA]);
  });

  test('a reader that stops early (`sift search … | head`) ends sift quietly, not with a stack trace', async () => {
    const child = startSift(['search', 'revenue OR café', '--db', db], { env });
    child.stdin!.end();
    // The reader is gone before sift prints a line, so its first write fails with EPIPE.
    child.stdout!.destroy();
    const run = await collect(child);
    expect(run.signal).toBeNull();
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).not.toMatch(/EPIPE|Error:| {4}at /);
  });
});
