import Database from 'better-sqlite3';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { askJob, askScope, markedText, MAX_SEARCH_TERMS, parseQuery, searchStore, type SearchHit } from '../../src/main/search';
import { englishForms } from '../../src/main/fetch/word-forms';
import { foldForIndex, foldWithMap, segmentWords } from '../../src/main/search/fold';
import { makeSnippet, pageOfLine } from '../../src/main/search/snippet';
import { searchableText } from '../../src/main/search/text';
import { openStore, type Store } from '../../src/main/store';
import { SiftError } from '../../src/shared/errors';
import { askScopeNote, formatScore, searchHelp } from '../../src/shared/search';
import { tempStore } from '../helpers/store';
import { hitsCsv, hitsMarkdown } from '../../src/main/export/hits';
import { TOKYO_PASSAGES } from '../helpers/cjk-passages';

let db: ReturnType<typeof tempStore>;
let store: Store;
beforeEach(() => {
  db = tempStore();
  store = db.store;
});
afterEach(() => db.close());

interface Doc {
  url: string;
  title: string;
  content: string;
  meta?: Record<string, unknown>;
}

/** A finished job whose targets hold these results, stored the way the runner stores them. */
function storeJob(id: string, docs: Doc[], leaseExpires = 60_000, createdAt = 1_000): void {
  store.insertJob({ id, caller: 'alice', callerClass: 'user', idemKey: `k-${id}`, targetsTotal: docs.length, nowMs: createdAt, leaseExpires }, docs.map((d) => ({ url: d.url })));
  store.transition(id, 'queued', 'running', '', 1_000);
  docs.forEach((d, idx) => {
    expect(store.startTarget(id, idx, 2_000)).toBe(true);
    const result = { content: d.content, meta: { title: d.title, ...d.meta } };
    const outcome = { status: 'done' as const, result, error: '', hint: '', bytes: d.content.length, title: d.title, errorStatus: 0 };
    expect(store.finishTarget(id, idx, outcome, 2_000, leaseExpires)).toBeDefined();
  });
}

/** Each hit of a search in one job, in target order: its target and its snippet with the matches «marked». */
const markedHits = (jobId: string, q: string): [number, string][] =>
  searchStore(store, q, { jobId }).hits.sort((a, b) => a.idx - b.idx).map((h) => [h.idx, markedText({ text: h.snippet, marks: h.marks })]);

const REPORTS: Doc[] = [
  {
    url: 'https://reports.test/2023',
    title: 'Annual report 2023',
    content: 'Overview\n\nThe company grew in every region.\nNet revenue rose to 4.2 billion, while costs fell.\n\nOutlook\n\nWe expect steady growth.',
  },
  {
    url: 'https://reports.test/2022',
    title: 'Annual report 2022',
    content: 'Overview\n\nRevenue stayed flat. The net effect of currency moves was small.\nCosts rose.',
  },
  {
    url: 'https://news.test/cafe',
    title: 'Le café de la gare',
    content: 'Un petit café près de la gare.\nLe crème brûlée y est célèbre depuis 1920.',
  },
  {
    url: 'https://news.test/tokyo',
    title: '首都の紹介',
    content: '東京都は日本の首都です。\n人口は約一千四百万人です。',
  },
  {
    url: 'https://news.test/arabic',
    title: 'مقالة',
    content: 'كَتَبَ الطالبُ الدرسَ في المكتبة.\nثم ذهب إلى البيت.',
  },
  {
    url: 'https://news.test/seoul',
    title: '서울 안내',
    content: '우리는 서울에서 만나요.',
  },
];

const ids = (hits: SearchHit[]): string[] => hits.map((h) => `${h.jobId}:${h.idx}`);

/** Each query as typed asks FTS5 what the other of its pair does. */
function readAlike(pairs: [typed: string, meant: string][]): void {
  for (const [typed, meant] of pairs) expect(parseQuery(typed)?.match, typed).toBe(parseQuery(meant)?.match);
}

/** A word typed bare as FTS5 is asked for it: any of its forms (englishForms), or the word alone. */
function anyForm(word: string): string {
  const forms = englishForms(word.toLowerCase());
  return forms.length > 1 ? `( ${forms.map((f) => `"${f}"`).join(' OR ')} )` : `"${word}"`;
}

/** Words typed bare as FTS5 is asked for them: all of them (`match`), the results holding them in the order typed first. */
const inOrder = (match: string, words: string): string => `( ${match} ) OR "${words}"`;

describe('search over stored results', () => {
  beforeEach(() => storeJob('j1', REPORTS));

  it("cuts a page's snippet from its Markdown as it reads: link text without the link, alt text, no bold marks or escapes", () => {
    storeJob('md', [
      {
        url: 'https://tennis.test/davis',
        title: 'Davis Cup',
        content: '# Davis Cup\n\nMADRID — [Rafael Nadal](https://tennis.test/players/rafael-nadal/184442) kept **Spain** alive at 10<sup>6</sup>. ![Nadal serving (left)](https://img.test/n.jpg "Nadal") Score 6\\-3.',
        meta: { kind: 'html' },
      },
    ]);
    const h = searchStore(store, 'nadal', { jobId: 'md' }).hits[0] as SearchHit;
    expect(h).toMatchObject({ field: 'body', line: 3 });
    expect(markedText({ text: h.snippet, marks: h.marks })).toBe('MADRID — Rafael «Nadal» kept Spain alive at 10^6. «Nadal» serving (left) Score 6-3.');
    // Found only in a link's address: the line as it reads, each link's address after its text
    // with the match marked. Cut from the Markdown itself, it read "[Rafael Nadal](https://…/«184442»)
    // kept **Spain** alive at 10<sup>6</sup>. ![Nadal serving (left)](…", marks and all.
    const inLink = searchStore(store, '184442', { jobId: 'md' }).hits[0] as SearchHit;
    expect(inLink).toMatchObject({ idx: 0, field: 'body', line: 3 });
    expect(markedText({ text: inLink.snippet, marks: inLink.marks })).toBe(
      'MADRID — Rafael Nadal (https://tennis.test/players/rafael-nadal/«184442») kept Spain alive at 10^6. Nadal serving (left) (https://img.test/n.jpg) Score 6-3.',
    );
    const inImage = searchStore(store, 'img', { jobId: 'md' }).hits[0] as SearchHit;
    expect(markedText({ text: inImage.snippet, marks: inImage.marks })).toContain('Nadal serving (left) (https://«img».test/n.jpg) Score 6-3.');
  });

  it("shows a page's italics and code as they read, without the extractor's underscores and backticks", () => {
    // As the extractor writes <em> and <code>, escaping the page's own underscores and backticks.
    storeJob('em', [
      {
        url: 'https://hike.test/boulder',
        title: 'Hiking',
        content:
          '# Hiking\n\nWater is a _must_ here, says the _Daily Camera_. Set `max_water_litres` to 3 in the app.\n\n_Cover image: the Flatirons at dawn_\n\nThe file is \\_config\\_.yml, a name with \\`ticks\\`; snake_case_words stay.',
        meta: { kind: 'html' },
      },
    ]);
    const snippet = (q: string): string => {
      const h = searchStore(store, q, { jobId: 'em' }).hits[0] as SearchHit;
      return markedText({ text: h.snippet, marks: h.marks });
    };
    expect(snippet('must')).toMatch(/^Water is a «must» here, says the Daily Camera\. Set max_water_litres to 3 in the app\. Cover image: /);
    expect(snippet('stay')).toMatch(/ The file is _config_\.yml, a name with `ticks`; snake_case_words «stay»\.$/);
    expect(snippet('"daily camera"')).toContain('says the «Daily Camera». Set');
    expect(snippet('dawn')).toContain('Cover image: the Flatirons at «dawn» The file');
    expect(snippet('litres')).toContain('Set max_water_«litres» to 3');
  });

  it('finds the target a phrase comes from first, with a marked snippet and the line', () => {
    const { hits } = searchStore(store, '"net revenue"');
    expect(ids(hits)).toEqual(['j1:0']);
    const h = hits[0] as SearchHit;
    expect(h).toMatchObject({ url: 'https://reports.test/2023', title: 'Annual report 2023', field: 'body', line: 4 });
    expect(markedText({ text: h.snippet, marks: h.marks })).toContain('«Net revenue» rose to 4.2 billion');
    expect(h.score).toBeGreaterThan(0);
  });

  it('finds every phrase cut from the stored results in its own target first', () => {
    const phrases = ['company grew in every region', 'currency moves', 'petit café près', 'steady growth'];
    const expected = [0, 1, 2, 0];
    phrases.forEach((p, i) => expect(searchStore(store, `"${p}"`).hits[0]?.idx).toBe(expected[i]));
  });

  it('ranks all words: both reports for plain words, the one with both words nearer first', () => {
    expect(ids(searchStore(store, 'net revenue').hits).sort()).toEqual(['j1:0', 'j1:1']);
  });

  it('ranks first the result that holds words typed bare in the order typed, as a line pasted from it', () => {
    storeJob('line', [
      { url: 'https://line.test/apart', title: 'River', content: 'Close to the river. Of course its banks are wide.' },
      { url: 'https://line.test/line', title: 'Council', content: 'The council met on Monday and heard the mayor, the clerk and two residents. The vote came at the close of its session, after the budget.' },
      { url: 'https://line.test/other', title: 'Field', content: 'Nothing of the kind here.' },
    ]);
    expect(ids(searchStore(store, 'close of its', { jobId: 'line' }).hits)).toEqual(['line:1', 'line:0']);
    // The line pasted with its punctuation and an open quote (searched as plain words) alike.
    expect(ids(searchStore(store, 'the close of its session,', { jobId: 'line' }).hits)).toEqual(['line:1']);
    expect(ids(searchStore(store, '“close of its', { jobId: 'line' }).hits)).toEqual(['line:1', 'line:0']);
  });

  it('finds the other forms of a word typed bare, marked as written, and a "quoted" word or a phrase as typed only', () => {
    storeJob('en', [
      { url: 'https://en.test/0', title: 'Audit', content: 'Intro\nThe auditors reported a loss.' },
      { url: 'https://en.test/1', title: 'Filings', content: 'Intro\nTwo reports were filed.\nThe studies stopped.' },
      { url: 'https://en.test/2', title: 'Interview', content: 'Intro\nA reporter asked about the study.' },
      { url: 'https://en.test/3', title: 'Season', content: 'Intro\nReporting season starts; the report is due and we stop.' },
    ]);
    const found = (q: string): [number, string[]][] =>
      searchStore(store, q, { jobId: 'en' })
        .hits.map((h): [number, string[]] => [h.idx, h.marks.map(([a, b]) => h.snippet.slice(a, b))])
        .sort((a, b) => a[0] - b[0]);
    // Before, report found the one result writing "report" alone.
    for (const q of ['report', 'reports', 'REPORTED']) expect(found(q), q).toEqual([[0, ['reported']], [1, ['reports']], [3, ['Reporting', 'report']]]);
    expect(found('study')).toEqual([[1, ['studies']], [2, ['study']]]);
    expect(found('stopping')).toEqual([[1, ['stopped']], [3, ['stop']]]);
    expect(found('"report"')).toEqual([[3, ['report']]]);
    expect(found('"reports were"')).toEqual([[1, ['reports were']]]);
    expect(found('reports -study')).toEqual([[0, ['reported']], [3, ['Reporting', 'report']]]);
    // A prefix is what it was: every word beginning so.
    expect(found('report*').map(([i]) => i)).toEqual([0, 1, 2, 3]);
  });

  it("finds a word's other forms when it is typed with a sentence's punctuation around it", () => {
    storeJob('dot', [
      { url: 'https://en.test/0', title: 'Audit', content: 'Intro\nThe auditors reported a loss.' },
      { url: 'https://en.test/1', title: 'Filings', content: 'Intro\nTwo reports were filed.' },
      { url: 'https://en.test/2', title: 'Season', content: 'Intro\nReporting season starts.' },
    ]);
    const urls = (q: string): number[] => searchStore(store, q, { jobId: 'dot' }).hits.map((h) => h.idx).sort();
    // Before, "report." and "(report)" looked for report alone, as a "quoted" word, and found none.
    for (const q of ['report.', 'report,', '(report)', 'report?', 'the auditors report.']) expect(urls(q), q).toEqual(q.startsWith('the') ? [0] : [0, 1, 2]);
    // A signed word keeps its sign, an abbreviation its dots.
    expect(parseQuery('C#.')?.match).toBe('"C#."');
    expect(parseQuery('e.g.')?.match).toBe('"e.g."');
  });

  it('finds no other word that a form of the typed one is spelled like: added is no ad, see no seed, argued no argus', () => {
    storeJob('other', [
      { url: 'https://en.test/ad', title: 'Notes', content: 'Intro\nAn ad ran on the radio; the ads ran twice.' },
      { url: 'https://en.test/add', title: 'Notes', content: 'Intro\nThey added a chapter and kept adding more.' },
      { url: 'https://en.test/seed', title: 'Notes', content: 'Intro\nA seed fell on the path.' },
      { url: 'https://en.test/see', title: 'Notes', content: 'Intro\nWe see the hills and she sees the sea.' },
      { url: 'https://en.test/argue', title: 'Notes', content: 'Intro\nThey argue; he argues and argued.' },
    ]);
    const urls = (q: string): string[] => searchStore(store, q, { jobId: 'other' }).hits.map((h) => h.url).sort();
    // Before, added and adding found the ad ("add" lost a d as "stopp" does), see found the
    // seed (a regular past of see), and argued was "argu", whose plural "argus" it asked for.
    expect(urls('added')).toEqual(['https://en.test/add']);
    expect(urls('ads')).toEqual(['https://en.test/ad']);
    expect(urls('see')).toEqual(['https://en.test/see']);
    expect(urls('seed')).toEqual(['https://en.test/seed']);
    expect(urls('argued')).toEqual(['https://en.test/argue']);
  });

  it('weights a match in the title above one in the body', () => {
    storeJob('j2', [
      { url: 'https://t.test/body', title: 'Something else', content: 'This page mentions a lighthouse once among many other words about the coast and the sea.' },
      { url: 'https://t.test/title', title: 'Lighthouse', content: 'A page about the coast and the sea, with many other words in its body text.' },
    ]);
    expect(ids(searchStore(store, 'lighthouse', { jobId: 'j2' }).hits)).toEqual(['j2:1', 'j2:0']);
    expect(searchStore(store, 'lighthouse', { jobId: 'j2' }).hits[0]?.field).toBe('title');
  });

  it('finds words without their accents and with them', () => {
    expect(ids(searchStore(store, 'creme brulee').hits)).toEqual(['j1:2']);
    expect(ids(searchStore(store, 'célèbre').hits)).toEqual(['j1:2']);
    const h = searchStore(store, 'celebre').hits[0] as SearchHit;
    expect(markedText({ text: h.snippet, marks: h.marks })).toContain('«célèbre»');
    expect(h.line).toBe(2);
  });

  it('finds Chinese and Japanese words inside unspaced sentences, of two characters too', () => {
    for (const q of ['東京', '首都', '日本の首都', '人口']) expect(ids(searchStore(store, q).hits)).toEqual(['j1:3']);
    const h = searchStore(store, '人口').hits[0] as SearchHit;
    expect(h.line).toBe(2);
    expect(markedText({ text: h.snippet, marks: h.marks })).toContain('«人口»は');
    expect(searchStore(store, '京都').hits.map((x) => x.idx)).toEqual([3]); // a substring across words, as a reader of CJK expects
    expect(searchStore(store, '大阪').hits).toEqual([]);
  });

  it('finds Korean words with their particles attached', () => {
    expect(ids(searchStore(store, '서울').hits)).toEqual(['j1:5']);
  });

  it('finds Arabic words typed without vowel marks in voweled text, and with them', () => {
    for (const q of ['كتب', 'كَتَبَ', 'المكتبة', 'الطالب']) expect(ids(searchStore(store, q).hits)).toEqual(['j1:4']);
    const h = searchStore(store, 'كتب').hits[0] as SearchHit;
    expect(markedText({ text: h.snippet, marks: h.marks })).toContain('«كَتَبَ»');
  });

  it('supports prefix*, OR, NOT and parentheses', () => {
    expect(ids(searchStore(store, 'revenu*').hits).sort()).toEqual(['j1:0', 'j1:1']);
    expect(ids(searchStore(store, 'revenue NOT currency').hits)).toEqual(['j1:0']);
    expect(ids(searchStore(store, 'café OR 東京').hits).sort()).toEqual(['j1:2', 'j1:3']);
    expect(ids(searchStore(store, '(gare OR outlook) AND steady').hits)).toEqual(['j1:0']);
    // A leading minus leaves out, as in web searches: it found, and marked, "currency".
    expect(ids(searchStore(store, 'revenue -currency').hits)).toEqual(['j1:0']);
    expect(ids(searchStore(store, 'revenue -"currency moves"').hits)).toEqual(['j1:0']);
  });

  it('leaves out a -word typed first: -a b is b without a, as b -a is', () => {
    // Typed first, the minus was read as part of the word: -currency revenue found only the page with currency.
    expect(ids(searchStore(store, '-currency revenue').hits)).toEqual(['j1:0']);
    expect(ids(searchStore(store, '-"currency moves" revenue').hits)).toEqual(['j1:0']);
    expect(ids(searchStore(store, '-title:2022 revenue').hits)).toEqual(['j1:0']);
    expect(ids(searchStore(store, '-title:2023 -currency overview').hits)).toEqual([]);
    expect(ids(searchStore(store, '-title:2023 revenue').hits)).toEqual(['j1:1']);
    // NOT binds closer than AND, AND than OR, wherever the minus stands: (revenue NOT currency) OR café.
    expect(ids(searchStore(store, '-currency revenue OR café').hits).sort()).toEqual(['j1:0', 'j1:2']);
    expect(ids(searchStore(store, 'revenue -currency OR café').hits).sort()).toEqual(['j1:0', 'j1:2']);
    // First in a group, or after OR, it leaves out of that group's words only.
    expect(ids(searchStore(store, 'café OR -currency revenue').hits).sort()).toEqual(['j1:0', 'j1:2']);
    expect(ids(searchStore(store, '(-currency revenue) OR café').hits).sort()).toEqual(['j1:0', 'j1:2']);
    // A group that only leaves out leaves out of the words beside it, wherever it stands.
    expect(ids(searchStore(store, 'revenue (-currency)').hits)).toEqual(['j1:0']);
    expect(ids(searchStore(store, '(-currency) revenue').hits)).toEqual(['j1:0']);
    expect(ids(searchStore(store, '(-currency -steady) overview').hits)).toEqual([]);
    expect(ids(searchStore(store, 'overview (-currency OR -steady)').hits).sort()).toEqual(['j1:0', 'j1:1']);
    expect(ids(searchStore(store, 'overview (-currency OR -revenue)').hits).sort()).toEqual(['j1:0']);
  });

  it('searches a title:(group) or url:(group) in that column, -words and all', () => {
    // title:( was the word "title" before a group: title:(-annual) found the pages holding "title" without annual.
    expect(ids(searchStore(store, 'café title:(-annual)').hits)).toEqual(['j1:2']);
    expect(ids(searchStore(store, 'revenue title:(-annual)').hits)).toEqual([]);
    expect(ids(searchStore(store, 'title:(annual 2022)').hits)).toEqual(['j1:1']);
    expect(ids(searchStore(store, 'title:(2022 OR café)').hits).sort()).toEqual(['j1:1', 'j1:2']);
    expect(ids(searchStore(store, 'title:("annual report" NOT 2023)').hits)).toEqual(['j1:1']);
    expect(ids(searchStore(store, 'url:(reports NOT 2023)').hits)).toEqual(['j1:1']);
    // The column holds inside its parentheses only; currency is in a page's text, not its title.
    expect(ids(searchStore(store, 'title:(annual) currency').hits)).toEqual(['j1:1']);
    expect(ids(searchStore(store, 'title:(annual (2022 OR 2023)) -currency').hits)).toEqual(['j1:0']);
    expect(ids(searchStore(store, 'overview -title:(2022 OR café)').hits)).toEqual(['j1:0']);
    expect(parseQuery('title:(a -"b c")')?.match).toBe('( title : "a" NOT title : "b c" )');
  });

  it('leaves out a number typed with a minus before it, as a word: annual -2022; a minus inside a word stays part of it', () => {
    // The index drops the minus, so -2022 was the number 2022: annual -2022 found only the 2022 report.
    expect(ids(searchStore(store, 'annual -2022').hits)).toEqual(['j1:0']);
    expect(ids(searchStore(store, '-2022 annual report').hits)).toEqual(['j1:0']);
    expect(ids(searchStore(store, 'title:(annual -2023)').hits)).toEqual(['j1:1']);
    expect(ids(searchStore(store, '(-2022) overview').hits)).toEqual(['j1:0']);
    expect(parseQuery('annual -2022')?.match).toBe(`${anyForm('annual')} NOT "2022"`);
    // Inside a word a hyphen joins: covid-19 and 2021-2022 are one term each, not a word without a number.
    expect(parseQuery('covid-19')?.match).toBe('( "covid-19" OR "covid19" )');
    expect(parseQuery('report 2021-2022')?.match).toBe(inOrder(`${anyForm('report')} AND "2021-2022"`, 'report 2021-2022'));
    expect(parseQuery('x NOT -5')?.match).toBe('"x" NOT "-5"');
  });

  it('leaves out a group typed with a minus before it: revenue -(currency moves)', () => {
    // The minus before ( was dropped: revenue -(currency moves) found the page holding currency moves, and only it.
    expect(ids(searchStore(store, 'revenue -(currency moves)').hits)).toEqual(['j1:0']);
    expect(ids(searchStore(store, '-(currency moves) revenue').hits)).toEqual(['j1:0']);
    expect(ids(searchStore(store, 'overview -(2022 OR café)').hits)).toEqual(['j1:0']);
    expect(ids(searchStore(store, 'revenue -(currency steady)').hits).sort()).toEqual(['j1:0', 'j1:1']);
    expect(parseQuery('revenue -(currency moves)')?.match).toBe(`${anyForm('revenue')} NOT ( ${anyForm('currency')} AND ${anyForm('moves')} )`);
  });

  it('searches a column named inside a title:( or url:( group in that inner column: title:(url:news) is url:news', () => {
    // No title says news; the URLs of four results do. Each hit shows the URL it matched on, marked.
    const r = searchStore(store, 'title:(url:news)');
    expect(ids(r.hits).sort()).toEqual(['j1:2', 'j1:3', 'j1:4', 'j1:5']);
    expect(r.hits.map((h) => [h.field, markedText({ text: h.snippet, marks: h.marks })])).toEqual(r.hits.map((h) => ['url', h.url.replace('news', '«news»')]));
    // Beside it, the group's other words stay in the title.
    expect(ids(searchStore(store, 'title:(url:news café)').hits)).toEqual(['j1:2']);
    expect(ids(searchStore(store, 'url:(title:café news)').hits)).toEqual(['j1:2']);
    expect(parseQuery('title:(url:news café)')?.match).toMatch(/^\( url : \( "news" .*\) AND title : \( "cafe" .*\) \)$/);
  });

  it('says why a query was searched as plain words, and what to type instead', () => {
    // Before, every one was "searched as plain words (the query is not valid search syntax)".
    const why = (q: string): string | undefined => {
      const r = searchStore(store, q);
      expect(r.plain, q).toBe(true);
      return r.why;
    };
    expect(why('"net revenue')).toBe('the " is not closed; add the closing " to search the exact phrase');
    expect(why('„net revenue')).toBe('the „ is not closed; add the closing “ to search the exact phrase');
    expect(why('revenue (net OR currency')).toBe('the ( is not closed; add the closing ) to search the group');
    expect(why('revenue)')).toBe('the ) has no ( before it; add the ( or remove the )');
    expect(why('revenue OR')).toBe('OR at the end has nothing after it; add a word after it, or remove it');
    expect(why('revenue NOT')).toBe('NOT at the end has nothing after it; add a word after it, or remove it');
    expect(why('revenue AND')).toBe('AND at the end has nothing after it; add a word after it, or remove it');
    expect(why('OR revenue')).toBe('OR at the start has nothing before it; add a word before it, or remove it');
    expect(why('NOT currency')).toBe('NOT at the start has nothing before it; type the word to find first, as in revenue NOT draft');
    expect(why('(revenue OR) net')).toBe('OR has no word on one side; add a word, or remove it');
    expect(why('revenue AND OR net')).toBe('AND OR has no word between them; remove one');
    expect(why('revenue ()')).toBe('the ( ) holds no words; put words in it, or remove it');
    expect(why(`${'('.repeat(200)}revenue${')'.repeat(200)}`)).toBe('the parentheses nest deeper than 100; remove some');
    // The first thing wrong is said: the open quote, then the group.
    expect(why('(net "revenue')).toBe('the " is not closed; add the closing " to search the exact phrase');
    expect(searchStore(store, 'revenue').why).toBeUndefined();
  });

  it('keeps a -word left out when the query is searched as plain words: revenue -(currency, typed on the way to a group', () => {
    // The fallback read every run of letters as a word to find: revenue -(currency showed the very page it was to leave out.
    expect(ids(searchStore(store, 'revenue -(currency').hits)).toEqual(['j1:0']);
    expect(ids(searchStore(store, 'revenue -currency (net').hits)).toEqual(['j1:0']);
    expect(ids(searchStore(store, 'annual -2022 (report').hits)).toEqual(['j1:0']);
    expect(ids(searchStore(store, 'revenue -"currency moves" (').hits)).toEqual(['j1:0']);
    // A group of several words still being typed might be any of them or all: none is found, none left out.
    expect(ids(searchStore(store, 'revenue -(currency moves').hits).sort()).toEqual(['j1:0', 'j1:1']);
    // Inside a quote not yet closed the minus is the phrase's: "net -draft is searched as its words.
    expect(ids(searchStore(store, '"revenue -currency').hits)).toEqual(['j1:1']);
    expect(searchStore(store, 'revenue -(currency').plain).toBe(true);
    // Nothing left to find: said as -draft is.
    for (const q of ['-(currency', '-currency (']) {
      let err: unknown;
      try {
        searchStore(store, q);
      } catch (e) {
        err = e;
      }
      expect((err as SiftError).hint, q).toBe('Add a word to find, and the -word leaves out the results that hold it: revenue -draft.');
    }
  });

  it('reads title: or url: with no word after it as nothing typed yet for that column, not the word "title"', () => {
    // It was searched as the word title, and said "no stored result matches title:".
    expect(parseQuery('title:')).toBeUndefined();
    expect(parseQuery('url:')).toBeUndefined();
    expect(ids(searchStore(store, 'currency title:').hits)).toEqual(['j1:1']);
    expect(searchStore(store, 'currency title:').plain).toBe(false);
    expect(parseQuery('currency title:')?.match).toBe(parseQuery('currency')?.match);
    expect(parseQuery('(net revenue title:')?.terms.map((t) => t.text)).toEqual(['net', 'revenue']);
    // Quoted, it is the word, as it is inside a quote still open.
    expect(parseQuery('"net revenue title:')?.terms.map((t) => t.text)).toEqual(['net', 'revenue', 'title']);
    expect(parseQuery('"title:"')?.match).toBe('"title:"');
    for (const [q, hint] of [
      ['title:', 'Type the word right after the colon: title:report finds the results with report in their title.'],
      ['url:', 'Type the word right after the colon: url:blog finds the results with blog in their URL.'],
    ]) {
      let err: unknown;
      try {
        searchStore(store, q as string);
      } catch (e) {
        err = e;
      }
      expect(err, q).toBeInstanceOf(SiftError);
      expect((err as SiftError).message).toBe(`"${q}" names where to search, with no word after it to find there.`);
      expect((err as SiftError).hint).toBe(hint);
    }
  });

  it('keeps a NOT word left out when the query is searched as plain words: revenue NOT (currency, typed on the way to a group', () => {
    // The fallback kept NOT as a word: revenue NOT (currency searched "revenue not currency" and lost the page it was to find.
    expect(ids(searchStore(store, 'revenue NOT (currency').hits)).toEqual(['j1:0']);
    expect(parseQuery('revenue NOT (currency')?.match).toBe(parseQuery('revenue -(currency')?.match);
    expect(ids(searchStore(store, 'revenue NOT currency (net').hits)).toEqual(['j1:0']);
    expect(ids(searchStore(store, 'revenue NOT "currency moves" (').hits)).toEqual(['j1:0']);
    expect(ids(searchStore(store, 'revenue NOT (currency) OR').hits)).toEqual(['j1:0']);
    expect(searchStore(store, 'revenue NOT (currency').why).toBe('the ( is not closed; add the closing ) to search the group');
    // NOT binds to the word after it only, as FTS5 reads it: net is still to find.
    expect(parseQuery('revenue NOT currency net (')?.match).toBe(parseQuery('revenue net -currency (')?.match);
    // A group of several words still being typed might be any of them or all: none is found, none left out.
    expect(ids(searchStore(store, 'revenue NOT (currency moves').hits).sort()).toEqual(['j1:0', 'j1:1']);
    // With no word to find before it, or an operator right before it, NOT stays a word as before.
    expect(parseQuery('NOT currency')?.terms.map((t) => t.text)).toEqual(['NOT', 'currency']);
    expect(parseQuery('revenue OR NOT currency')?.terms.map((t) => t.text)).toEqual(['revenue', 'NOT', 'currency']);
  });

  it('leaves out a phrase still being typed after NOT or a minus: revenue NOT "currency moves', () => {
    // NOT stayed a word, and a minus the phrase's: each found only the page it was to leave out, or none.
    for (const q of ['revenue NOT "currency moves', 'revenue NOT"currency moves', 'revenue -"currency moves', 'revenue -“currency moves']) {
      const r = searchStore(store, q);
      expect(ids(r.hits), q).toEqual(['j1:0']);
      expect(r.why, q).toMatch(/^the [“"] is not closed/);
    }
    expect(parseQuery('revenue NOT "currency moves')?.match).toBe(parseQuery('revenue NOT "currency moves" (')?.match);
    // A quote opened first is the phrase's, its minus too, as before.
    expect(ids(searchStore(store, '"revenue -currency').hits)).toEqual(['j1:1']);
  });

  it('keeps title:word and url:word in their column when the query is searched as plain words', () => {
    // Both reports say overview; only one title says 2022. It was "title 2022 overview" anywhere, and found neither (no text says title).
    for (const q of ['title:2022 overview (', 'title: 2022 "overview', 'title:"report 2022" (overview', 'overview title:-2023 (', 'overview -title:2023 (']) {
      const r = searchStore(store, q);
      expect(r.plain, q).toBe(true);
      expect(ids(r.hits), q).toEqual(['j1:1']);
    }
    // url:news names the four news results; the one with café: the café page alone.
    expect(ids(searchStore(store, 'url:news café (').hits)).toEqual(['j1:2']);
    expect(parseQuery('title:2022 (')?.terms).toEqual([{ text: '2022', prefix: false, column: 'title' }]);
  });

  it('reads AND NOT as NOT, as library catalogues and Lucene write it', () => {
    // Searched as plain words, it found the results that say "not", currency among them: none here.
    expect(ids(searchStore(store, 'overview AND NOT currency').hits)).toEqual(['j1:0']);
    expect(searchStore(store, 'overview AND NOT currency').plain).toBe(false);
    expect(parseQuery('overview AND NOT (currency OR 1920)')?.match).toBe(parseQuery('overview NOT (currency OR 1920)')?.match);
    // Still being typed, it leaves out as a NOT does.
    expect(ids(searchStore(store, 'overview AND NOT currency (net').hits)).toEqual(['j1:0']);
    expect(searchStore(store, 'overview AND NOT').why).toBe('NOT at the end has nothing after it; add a word after it, or remove it');
    expect(searchStore(store, 'overview AND NOT NOT currency').why).toBe('NOT NOT has no word between them; remove one');
  });

  it('reads title: with a space before its word as title:word, the word right after the colon', () => {
    storeJob('j2', [
      { url: 'https://t.test/body', title: 'Something else', content: 'This page mentions a lighthouse once among many other words about the coast and the sea.' },
      { url: 'https://t.test/title', title: 'Lighthouse', content: 'A page about the coast and the sea, with many other words in its body text.' },
    ]);
    // It searched lighthouse everywhere, and found the page that only mentions one.
    expect(ids(searchStore(store, 'title: lighthouse', { jobId: 'j2' }).hits)).toEqual(['j2:1']);
    readAlike([
      ['title: annual', 'title:annual'],
      ['title:   annual', 'title:annual'],
      ['url: news revenue', 'url:news revenue'],
      ['title: "annual report"', 'title:"annual report"'],
      ['title: (annual 2022)', 'title:(annual 2022)'],
      ['revenue title: annual*', 'revenue title:annual*'],
    ]);
    // Before an operator or another column there is no word for it: the column is dropped, as at the end.
    expect(parseQuery('revenue title: OR annual')?.match).toBe(parseQuery('revenue OR annual')?.match);
    expect(parseQuery('title: url: news')?.match).toBe(parseQuery('url:news')?.match);
  });

  it('leaves title:-word and title: -word out of the title alone, as title:(-word)', () => {
    // Only the 2022 report's text says currency; neither title does. title: -currency dropped the column and left that report out.
    expect(ids(searchStore(store, 'overview title: -currency').hits).sort()).toEqual(['j1:0', 'j1:1']);
    // title:-currency was the word currency in the title (the index drops the minus), and found nothing.
    expect(ids(searchStore(store, 'overview title:-currency').hits).sort()).toEqual(['j1:0', 'j1:1']);
    expect(ids(searchStore(store, 'overview title:-2023').hits)).toEqual(['j1:1']);
    expect(ids(searchStore(store, 'overview title: -"report 2023"').hits)).toEqual(['j1:1']);
    readAlike([
      ['revenue title: -currency', 'revenue title:(-currency)'],
      ['revenue title:-currency', 'revenue title:(-currency)'],
      ['revenue url: -"net effect"', 'revenue url:(-"net effect")'],
      ['revenue url: -(currency moves)', 'revenue -url:(currency moves)'],
    ]);
    // A minus with nothing after it to leave out is no word, with or without its column.
    expect(parseQuery('revenue title:-')?.match).toBe(parseQuery('revenue')?.match);
    expect(parseQuery('revenue title: -')?.match).toBe(parseQuery('revenue')?.match);
  });

  it('reads x NOT (-a) as x NOT a: the minus in the group says again what NOT says', () => {
    // Strictly a double negation (x AND a); no one types it for that, and web searches read -a as "without a".
    expect(ids(searchStore(store, 'revenue NOT (-currency)').hits)).toEqual(['j1:0']);
    expect(parseQuery('revenue NOT (-currency)')?.match).toBe(parseQuery('revenue NOT currency')?.match);
    // Each -word in the group is left out, as beside the words: it was revenue NOT currency AND moves, (revenue NOT currency) AND moves to FTS5.
    expect(parseQuery('revenue NOT (-currency -moves)')?.match).toBe(parseQuery('revenue -currency -moves')?.match);
    expect(ids(searchStore(store, 'overview NOT (-currency -steady)').hits)).toEqual([]);
    expect(ids(searchStore(store, 'overview NOT (-currency OR -steady)').hits).sort()).toEqual(['j1:0', 'j1:1']);
  });

  it('says a query that only leaves out needs a word to find', () => {
    // In parentheses too: (-currency) was read as a group to find, and found the page with currency.
    const inGroups = ['(-currency)', '((-currency))', '(-draft -currency)', '(-draft) (-currency)', '(-draft OR -currency)', '(-draft) OR (-currency)', '(-draft) NOT currency', 'title:(-currency)', '-title:(currency)', '-(currency moves)', '(-2022)', '-2022 -(café)'];
    for (const q of ['-currency', '-2022', '-title:NASA', '-"currency moves"', '-draft -currency', '-draft OR -currency', ...inGroups]) {
      let err: unknown;
      try {
        searchStore(store, q);
      } catch (e) {
        err = e;
      }
      expect(err, q).toBeInstanceOf(SiftError);
      expect(err, q).toMatchObject({ code: 'empty_query', status: 400 });
      expect((err as SiftError).message, q).toMatch(/only says what to leave out/);
      expect((err as SiftError).hint, q).toMatch(/Add a word to find/);
    }
  });

  it('finds C++, C#, F# and .NET with their signs: not every page with a lone c, f or net', () => {
    storeJob('lang', [
      { url: 'https://food.test/vitamins', title: 'Vitamin C', content: 'Vitamin C, a.k.a. c, is in citrus.\nc) the third point: c and C again.\nA net of fish.' },
      { url: 'https://dev.test/cpp', title: 'Templates', content: 'Notes\nModern C++17 templates, in depth.\nBuilt with g++ and Notepad++.' },
      { url: 'https://dev.test/cs', title: 'Records', content: 'Records in C# and F#, on ASP.NET Core.' },
      { url: 'https://dev.test/plus', title: 'Arithmetic', content: 'c+d and C+++ are not the language; C#m is a chord.' },
    ]);
    const found = (q: string): string[] => ids(searchStore(store, q, { jobId: 'lang' }).hits);
    expect(found('C++')).toEqual(['lang:1']);
    expect(found('c#')).toEqual(['lang:2']);
    expect(found('F#')).toEqual(['lang:2']);
    expect(found('.NET')).toEqual(['lang:2']);
    expect(found('"C++17 templates"')).toEqual(['lang:1']);
    expect(found('notepad++ templates')).toEqual(['lang:1']);
    // The letters alone still find every page that holds them, C++'s too.
    expect(found('c').sort()).toEqual(['lang:0', 'lang:1', 'lang:2', 'lang:3']);
    expect(found('net').sort()).toEqual(['lang:0', 'lang:2']);
    // The match is marked with its signs, on the line that holds it.
    const h = searchStore(store, 'C++', { jobId: 'lang' }).hits[0] as SearchHit;
    expect(h).toMatchObject({ field: 'body', line: 2 });
    expect(markedText({ text: h.snippet, marks: h.marks })).toContain('Modern «C++»17 templates, in depth.');
    const r = searchStore(store, 'c# records', { jobId: 'lang' }).hits[0] as SearchHit;
    expect(markedText({ text: r.snippet, marks: r.marks })).toBe('«Records» in «C#» and F#, on ASP.NET Core.');
  });

  it('finds C++, C# and F# with their signs under OR, in parentheses and after NOT too', () => {
    storeJob('lang', [
      { url: 'https://food.test/vitamins', title: 'Vitamin C', content: 'Vitamin C, a.k.a. c, is in citrus.\nf) the sixth point: f and c again.' },
      { url: 'https://dev.test/cpp', title: 'Templates', content: 'Notes\nModern C++17 templates, in depth.' },
      { url: 'https://dev.test/cs', title: 'Records', content: 'Records in C# and F#, on ASP.NET Core.' },
      { url: 'https://dev.test/java', title: 'Interop', content: 'Calling F# from Java: records in depth.' },
      { url: 'https://dev.test/rust', title: 'Ownership', content: 'Rust has ownership; section c explains it.' },
    ]);
    const found = (q: string): string[] => ids(searchStore(store, q, { jobId: 'lang' }).hits).sort();
    // Each found every page with a lone c or f: the vitamins page first, as it holds the most.
    expect(found('C++ OR Rust')).toEqual(['lang:1', 'lang:4']);
    expect(found('(C++)')).toEqual(['lang:1']);
    expect(found('(C# OR F#) NOT java')).toEqual(['lang:2']);
    expect(found('(C# OR F#) records')).toEqual(['lang:2', 'lang:3']);
    expect(found('depth (C++ OR java)')).toEqual(['lang:1', 'lang:3']);
    // Leaving out C++ left out every page with a lone c: the Rust page here.
    expect(found('ownership -C++')).toEqual(['lang:4']);
    expect(found('depth NOT C++')).toEqual(['lang:3']);
    expect(found('depth NOT (C++ OR records)')).toEqual([]);
    expect(found('in NOT (C# AND records)')).toEqual(['lang:0', 'lang:1', 'lang:3']);
    // A query not valid as typed ("C++ AND" while the next word is typed) is its plain words, C++ with its signs.
    expect(found('C++ AND')).toEqual(['lang:1']);
    expect(found('"C# records')).toEqual(['lang:2']);
    const h = searchStore(store, 'Rust OR C++', { jobId: 'lang' }).hits.find((x) => x.idx === 1) as SearchHit;
    expect(markedText({ text: h.snippet, marks: h.marks })).toContain('Modern «C++»17 templates');
    // What FTS5 is asked holds the letters of what is to be found, and nothing of a signed word to leave out.
    expect(parseQuery('ownership -C++')?.match).toBe(anyForm('ownership'));
    expect(parseQuery('(C# OR F#) NOT java')?.literal?.needles).toEqual([[{ word: 'c#' }, { word: 'f#' }]]);
    expect(parseQuery('title:C# OR f#')?.literal?.needles).toEqual([[{ word: 'c#', column: 'title' }, { word: 'f#' }]]);
  });

  it('finds an emoji as a word of its own: inside a word, with a skin tone, a flag, a family; and says what a query of signs alone lacks', () => {
    storeJob('emoji', [
      { url: 'https://food.test/menu', title: 'Menu', content: 'Specials\nOur 🍕 is baked daily.\nhello😀world' },
      { url: 'https://food.test/reviews', title: 'Reviews', content: 'Great 👍🏽 service ❤️\nFrom 🇫🇷 with 👨‍👩‍👧 in tow.' },
      { url: 'https://food.test/weather', title: 'Weather', content: 'It was 25°C © the office → outside.' },
    ]);
    const found = (q: string): string[] => ids(searchStore(store, q, { jobId: 'emoji' }).hits);
    expect(found('🍕')).toEqual(['emoji:0']);
    expect(found('pizza 🍕 baked')).toEqual([]);
    expect(found('🍕 baked')).toEqual(['emoji:0']);
    expect(found('😀')).toEqual(['emoji:0']);
    expect(found('hello')).toEqual(['emoji:0']);
    expect(found('👍')).toEqual(['emoji:1']);
    expect(found('👍🏽')).toEqual(['emoji:1']);
    expect(found('❤')).toEqual(['emoji:1']);
    expect(found('🇫🇷')).toEqual(['emoji:1']);
    expect(found('👨‍👩‍👧')).toEqual(['emoji:1']);
    expect(found('🇩🇪')).toEqual([]);
    // A minus before an emoji leaves it out, as before a word: -❤ 🍕 was the emoji ❤ and 🍕, found in no result.
    expect(found('-❤ 🍕')).toEqual(['emoji:0']);
    expect(found('🍕 -😀')).toEqual([]);
    expect(found('service -🇫🇷')).toEqual([]);
    // A sign next to a number stays apart from it.
    expect(found('25')).toEqual(['emoji:2']);
    const h = searchStore(store, '🍕', { jobId: 'emoji' }).hits[0] as SearchHit;
    expect(h).toMatchObject({ field: 'body', line: 2 });
    expect(markedText({ text: h.snippet, marks: h.marks })).toBe('Specials Our «🍕» is baked daily. hello😀world');
    // Signs alone are no words: the answer says so, not that nothing was typed.
    let err: unknown;
    try {
      searchStore(store, '→ ±');
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(SiftError);
    expect((err as SiftError).message).toBe('Search finds words, numbers and emoji; "→ ±" has none of them.');
  });

  it('searches a query FTS5 would reject as plain words, never an error', () => {
    for (const q of ['"net revenue', 'revenue AND', 'NOT revenue', '(revenue', 'revenue)', 'rev(enue', 'OR OR', 'a ) ( b', 'net*revenue', '***', 'title:revenue', '^revenue', 'NEAR(net revenue)', '"', "'; DROP TABLE targets; --"]) {
      expect(() => searchStore(store, q), q).not.toThrow(/fts5|syntax/);
    }
    expect(searchStore(store, '"net revenue').plain).toBe(true);
    expect(ids(searchStore(store, '"net revenue').hits).sort()).toEqual(['j1:0', 'j1:1']);
    expect(ids(searchStore(store, 'NOT currency').hits)).toEqual([]);
    expect(ids(searchStore(store, 'revenue)').hits).sort()).toEqual(['j1:0', 'j1:1']);
    expect(store.targetRows('j1')).toHaveLength(REPORTS.length);
  });

  it('searches a query nested in parentheses past any meaning as plain words, not a crash', () => {
    // Before, 3,000 levels ran the stack out: a RangeError, which sift search reported as a bug.
    for (const q of [`${'('.repeat(3000)}revenue${')'.repeat(3000)}`, `${'('.repeat(5000)}revenue`, `net ${'(('.repeat(2000)}revenue`]) {
      const r = searchStore(store, q);
      expect(r.plain, q.slice(-20)).toBe(true);
      expect(ids(r.hits).sort()).toEqual(['j1:0', 'j1:1']);
    }
    // Nested as people nest a query, it is read as its syntax says.
    const nested = searchStore(store, '(((revenue OR café) NOT currency))');
    expect(nested.plain).toBe(false);
    expect(ids(nested.hits).sort()).toEqual(['j1:0', 'j1:2']);
  });

  it('reads a long query with no spaces (a pasted Chinese or Thai paragraph) in time that grows with its length, not its square', () => {
    // Before, the 20,400 characters of Chinese took 20.6 s to search here (SIGNED_WORD tried at every letter of the run); 0.5 s now.
    for (const q of ['首都'.repeat(10_200), 'ภาษาไทย'.repeat(2_900), `首都${'の首都'.repeat(6_800)}*`]) {
      const t0 = performance.now();
      expect(searchStore(store, q).hits).toEqual([]);
      expect(performance.now() - t0, q.slice(0, 10)).toBeLessThan(4_000);
    }
  });

  it('names the characters that do not print in its answer to a query without words, and reads a lone accent as none', () => {
    const said = (q: string): string => {
      try {
        searchStore(store, q);
      } catch (e) {
        expect(e, JSON.stringify(q)).toMatchObject({ code: 'empty_query', status: 400 });
        return (e as SiftError).message;
      }
      throw new Error(`${JSON.stringify(q)} was searched`);
    };
    // Before, the message held the NUL itself, an invisible zero-width space, a right-to-left
    // override that turned the rest of the sentence around, and a line break.
    expect(said('\0')).toBe('Search finds words, numbers and emoji; "U+0000" has none of them.');
    expect(said('\u200B → \u202E')).toBe('Search finds words, numbers and emoji; "U+200B → U+202E" has none of them.');
    expect(said('→\n\t→')).toBe('Search finds words, numbers and emoji; "→ →" has none of them.');
    // A combining accent with no letter under it: before, it was searched as plain words, and matched nothing.
    expect(said('\u0301')).toBe('Search finds words, numbers and emoji; "U+0301" has none of them.');
    expect(said('\uD800')).toBe('Search finds words, numbers and emoji; "U+D800" has none of them.');
  });

  it('answers an empty query by saying what to type, in the words of the box it was typed in', () => {
    for (const q of ['', '   ', '"" ()', '*']) {
      let err: unknown;
      try {
        searchStore(store, q);
      } catch (e) {
        err = e;
      }
      expect(err, q).toBeInstanceOf(SiftError);
      expect(err).toMatchObject({ code: 'empty_query', status: 400 });
      // The app's box shows searchHelp while empty: the answer said it in other words ("the address", an example), two texts for one syntax.
      expect((err as SiftError).hint).toBe(searchHelp('every stored result'));
      expect(() => searchStore(store, q, { jobId: 'j1' })).toThrow(expect.objectContaining({ hint: searchHelp("this job's results") }));
    }
  });

  it('refuses a query of more words than it can search at once, saying what to do', () => {
    const words = (n: number, sep = ' ') => Array.from({ length: n }, (_, i) => `revenue${i}*`).join(sep);
    expect(() => searchStore(store, words(MAX_SEARCH_TERMS, ' OR '))).not.toThrow();
    for (const q of [words(MAX_SEARCH_TERMS + 1), words(3000, ' OR '), `(${words(MAX_SEARCH_TERMS + 1)}`, `revenue NOT (${words(MAX_SEARCH_TERMS)})`]) {
      let err: unknown;
      try {
        searchStore(store, q);
      } catch (e) {
        err = e;
      }
      expect(err, q.slice(0, 40)).toBeInstanceOf(SiftError);
      expect(err).toMatchObject({ code: 'query_too_long', status: 400 });
      expect((err as SiftError).message).toMatch(new RegExp(`at most ${MAX_SEARCH_TERMS} words and phrases; this one has \\d+`));
      expect((err as SiftError).hint).toMatch(/exact phrase/);
    }
  });

  it('scopes a query to one job or searches all of them', () => {
    storeJob('j2', [{ url: 'https://other.test/', title: 'Other', content: 'Net revenue elsewhere.' }]);
    expect(ids(searchStore(store, '"net revenue"').hits).sort()).toEqual(['j1:0', 'j2:0']);
    expect(ids(searchStore(store, '"net revenue"', { jobId: 'j2' }).hits)).toEqual(['j2:0']);
    expect(ids(searchStore(store, '"net revenue"', { jobId: 'nope' }).hits)).toEqual([]);
    expect(searchStore(store, 'revenue', { limit: 1 }).hits).toHaveLength(1);
  });

  it('cites the PDF page of a match in a PDF result', () => {
    storeJob('pdf', [
      {
        url: 'https://pdf.test/a.pdf',
        title: 'Three pages',
        content: 'First page text.\n\nSecond page\nhas the needle here.\n\nThird page.',
        meta: { page_lines: [[1, 1], [2, 3], [3, 6]] },
      },
    ]);
    expect(searchStore(store, 'needle', { jobId: 'pdf' }).hits[0]).toMatchObject({ line: 4, page: 2 });
    expect(searchStore(store, 'third', { jobId: 'pdf' }).hits[0]).toMatchObject({ line: 6, page: 3 });
    // Ask this job cites the passage's first line and its page the same way.
    expect(askJob(store, 'pdf', 'where is the needle?')[0]).toMatchObject({ line: 3, page: 2, text: 'Second page\nhas the needle here.' });
  });
});

/** Rows the index holds for a job, read straight from the file. */
function indexRows(path: string, jobId: string): { docs: number; fts: number } {
  const raw = new Database(path, { readonly: true });
  const docs = (raw.prepare('SELECT count(*) AS n FROM search_docs WHERE job_id = ?').get(jobId) as { n: number }).n;
  const fts = (raw.prepare("SELECT count(*) AS n FROM search_fts WHERE search_fts MATCH ?").get(`job : "${jobId}"`) as { n: number }).n;
  raw.close();
  return { docs, fts };
}

describe("a snippet of a book's contents page", () => {
  it("shows the words in the text, not the contents page's line of dot leaders, when both hold them", () => {
    const toc = ['Contents', '1 Trace trees . . . . . . . . . . . . . . . . 3', '2 Results ........................ 9', '3.2.1 安装 . . . . . . . . . . . . . . . 5', ''];
    const body = ['Body', 'Trace trees are the unit of compilation: each covers a loop.', '在你安装 Debian Edu 时，你有一些要选择的选项。'];
    const content = [...toc, ...body].join('\n');
    const at = (q: string) => {
      const s = makeSnippet(content, [{ text: q, prefix: false }]);
      return s && { line: s.line, text: markedText(s) };
    };
    // The contents page comes first in a book: every hit showed a row of dots and a page number.
    expect(at('trace trees')).toMatchObject({ line: 7 });
    expect(at('trace trees')?.text).toContain('«Trace trees» are the unit of compilation');
    expect(at('安装')).toMatchObject({ line: 8 });
    // A word only the contents page holds is shown there.
    expect(at('results')).toMatchObject({ line: 3 });
  });
});

describe('the index lives and dies with the store', () => {
  it('removes a deleted job from the index', () => {
    storeJob('gone', REPORTS.slice(0, 2));
    storeJob('kept', REPORTS.slice(0, 2));
    expect(store.deleteJob('gone')).toBe(true);
    expect(searchStore(store, 'revenue').hits.map((h) => h.jobId)).toEqual(['kept', 'kept']);
    store.close();
    expect(indexRows(db.path, 'gone')).toEqual({ docs: 0, fts: 0 });
    expect(indexRows(db.path, 'kept')).toEqual({ docs: 2, fts: 2 });
    db.store = store = openStore(db.path);
  });

  it('removes an expired job from the index in the sweep', () => {
    storeJob('old', REPORTS.slice(0, 2), 5_000);
    store.transition('old', 'running', 'done', '', 3_000);
    storeJob('new', REPORTS.slice(0, 2), 90_000);
    expect(store.sweepExpired(10_000)).toEqual(['old']);
    expect(searchStore(store, 'revenue').hits.map((h) => h.jobId)).toEqual(['new', 'new']);
    store.close();
    expect(indexRows(db.path, 'old')).toEqual({ docs: 0, fts: 0 });
    db.store = store = openStore(db.path);
  });

  it('stores a result and its index entry in one transaction: a failing index write leaves the target unwritten', () => {
    storeJob('j1', REPORTS.slice(0, 1));
    store.insertJob({ id: 'j2', caller: 'alice', callerClass: 'user', idemKey: 'k-j2', targetsTotal: 1, nowMs: 1_000, leaseExpires: 60_000 }, [{ url: 'https://x.test/' }]);
    store.startTarget('j2', 0, 2_000);
    store.close();
    // Make every later index write fail, as a full disk or a crash mid-write would.
    const raw = new Database(db.path);
    raw.exec("CREATE TRIGGER fail_index BEFORE INSERT ON search_docs BEGIN SELECT RAISE(ABORT, 'index write failed'); END");
    raw.close();
    db.store = store = openStore(db.path);
    const outcome = { status: 'done' as const, result: { content: 'unicorn text' }, error: '', hint: '', bytes: 12, title: 'U', errorStatus: 0 };
    expect(() => store.finishTarget('j2', 0, outcome, 3_000, 60_000)).toThrow(/index write failed/);
    expect(store.targetRows('j2')[0]?.status).toBe('running');
    expect(store.targetResult('j2', 0)?.result).toBeUndefined();
    expect(store.getJob('j2')?.targetsDone).toBe(0);
    expect(searchStore(store, 'unicorn').hits).toEqual([]);
  });

  it('indexes every stored result: the index holds one entry per done target', () => {
    storeJob('j1', REPORTS);
    store.close();
    expect(indexRows(db.path, 'j1')).toEqual({ docs: REPORTS.length, fts: REPORTS.length });
    db.store = store = openStore(db.path);
  });
});

describe('Ask this job', () => {
  it('returns the passages that answer a question across the job, with citations', () => {
    // Prose around the reports, as a real job has: words like "was" and "how" are common in it,
    // so they weigh little against the words that carry the question.
    const prose = Array.from({ length: 8 }, (_, i) => ({
      url: `https://blog.test/${i}`,
      title: `Post ${i}`,
      content: `It was a quiet day, and how it was spent was up to us.\n\nThe weather was mild and the town was calm (${i}).`,
    }));
    storeJob('j1', [...REPORTS, ...prose]);
    storeJob('j2', [{ url: 'https://other.test/', title: 'Other', content: 'Net revenue rose elsewhere too.' }]);
    const a = askJob(store, 'j1', 'how many billion was net revenue?');
    expect(a.length).toBeGreaterThan(0);
    expect(a[0]).toMatchObject({ jobId: 'j1', idx: 0, url: 'https://reports.test/2023', line: 3 });
    expect(a[0]?.text).toContain('Net revenue rose to 4.2 billion');
    expect(a.every((p) => p.jobId === 'j1')).toBe(true);
    expect(askJob(store, 'j1', 'unicorns and dragons')).toEqual([]);
    expect(() => askJob(store, 'j1', '  ')).toThrow(SiftError);
    // A question of signs says so in a question's terms: it had search's hint about OR, NOT and "exact phrases".
    expect(() => askJob(store, 'j1', '???')).toThrow(
      expect.objectContaining({ code: 'empty_query', message: 'A question is read by its words, numbers and emoji; "???" has none of them.', hint: 'Ask in words, e.g. what did net revenue rise to?' }),
    );
    // A pasted page is not a question: it says so rather than holding the app.
    const long = Array.from({ length: 2 * MAX_SEARCH_TERMS + 1 }, (_, i) => `word${i}`).join(' ');
    expect(() => askJob(store, 'j1', long)).toThrow(expect.objectContaining({ code: 'query_too_long', status: 400 }));
    expect(() => askJob(store, 'j1', long.split(' ').slice(0, 2 * MAX_SEARCH_TERMS).join(' '))).not.toThrow();
  });

  it('says what it read of a job with failed, empty and unfinished targets, with an answer and without one', () => {
    const docs = ['Tides rise twice a day.', '', 'x', 'y', 'z'].map((content, i) => ({ url: `https://tides.test/${i}`, title: `T${i}`, content }));
    store.insertJob({ id: 'tides', caller: 'alice', callerClass: 'user', idemKey: 'k-tides', targetsTotal: docs.length, nowMs: 1_000, leaseExpires: 60_000 }, docs.map((d) => ({ url: d.url })));
    store.transition('tides', 'queued', 'running', '', 1_000);
    // Done with text, done empty, failed twice; the last is still pending.
    for (const [idx, status] of [[0, 'done'], [1, 'done'], [2, 'failed'], [3, 'failed']] as const) {
      const content = docs[idx]!.content;
      expect(store.startTarget('tides', idx, 2_000)).toBe(true);
      const outcome = status === 'done'
        ? { status, result: { content, meta: {} }, error: '', hint: '', bytes: content.length, title: '', errorStatus: 0 }
        : { status, error: 'HTTP 404', hint: '', bytes: 0, title: '', errorStatus: 404 };
      expect(store.finishTarget('tides', idx, outcome, 2_000, 60_000)).toBeDefined();
    }
    const scope = askScope(store, 'tides');
    expect(scope).toEqual({ read: 1, empty: 1, failed: 2, unfinished: 1, ended: false });
    expect(askJob(store, 'tides', 'when do tides rise?')).toHaveLength(1);
    expect(askScopeNote(scope, true)).toBe('Read 1 result of 5 targets. Not read: 2 failed, 1 came back empty, 1 is not fetched yet.');
    // Before, the app said only 'No result in this job shares words with the question', whatever it had read.
    expect(askScopeNote(scope, false)).toBe('No passage of the 1 result read shares words with the question; try other words, ones the pages would use. Not read: 2 failed, 1 came back empty, 1 is not fetched yet.');
    expect(askScopeNote({ read: 0, empty: 0, failed: 3, unfinished: 0 }, false)).toBe('Nothing to ask yet: no target of this job has a result with text. Not read: 3 failed. Run the failed ones again, then ask.');
    expect(askScopeNote({ read: 0, empty: 0, failed: 0, unfinished: 2 }, false)).toBe('Nothing to ask yet: no target of this job has a result with text. Not read: 2 are not fetched yet. Ask again when they are fetched.');
    // Every target read: an answer needs no note.
    expect(askScopeNote({ read: 3, empty: 0, failed: 0, unfinished: 0 }, true)).toBe('');
  });

  it('says of a cancelled job that its unfetched targets were not fetched, and how to fetch them: not "ask again when they are fetched"', () => {
    store.insertJob({ id: 'stopped', caller: 'alice', callerClass: 'user', idemKey: 'k-stopped', targetsTotal: 2, nowMs: 1_000, leaseExpires: 60_000 }, [{ url: 'https://tides.test/0' }, { url: 'https://tides.test/1' }]);
    store.transition('stopped', 'queued', 'running', '', 1_000);
    const content = 'Tides rise twice a day.';
    expect(store.startTarget('stopped', 0, 2_000)).toBe(true);
    store.finishTarget('stopped', 0, { status: 'done', result: { content, meta: {} }, error: '', hint: '', bytes: content.length, title: '', errorStatus: 0 }, 2_000, 60_000);
    expect(store.transition('stopped', 'running', 'cancelled', '', 3_000)).toBeDefined();
    const scope = askScope(store, 'stopped');
    expect(scope).toEqual({ read: 1, empty: 0, failed: 0, unfinished: 1, ended: true });
    expect(askScopeNote(scope, true)).toBe('Read 1 result of 2 targets. Not read: 1 was not fetched, as the job ended first.');
    expect(askScopeNote({ ...scope, read: 0 }, false)).toBe('Nothing to ask yet: no target of this job has a result with text. Not read: 1 was not fetched, as the job ended first. Run the rest again to fetch them, then ask.');
    expect(askScopeNote({ ...scope, read: 0, unfinished: 3 }, false)).toMatch(/Not read: 3 were not fetched, as the job ended first\./);
  });

  it('counts a target cut short as not fetched, as the job header does, not as failed', () => {
    store.insertJob({ id: 'cut2', caller: 'alice', callerClass: 'user', idemKey: 'k-cut2', targetsTotal: 2, nowMs: 1_000, leaseExpires: 60_000 }, [{ url: 'https://tides.test/0' }, { url: 'https://tides.test/1' }]);
    store.transition('cut2', 'queued', 'running', '', 1_000);
    const content = 'Tides rise twice a day.';
    expect(store.startTarget('cut2', 0, 2_000)).toBe(true);
    store.finishTarget('cut2', 0, { status: 'done', result: { content, meta: {} }, error: '', hint: '', bytes: content.length, title: '', errorStatus: 0 }, 2_000, 60_000);
    // In flight when Sift stopped: stored as failed "restart", and run again by "run the rest again".
    expect(store.startTarget('cut2', 1, 3_000)).toBe(true);
    store.markInFlightFailed('restart', 4_000);
    // It said "Not read: 1 failed" under a header that said "Failed 0" and "1 not fetched".
    expect(askScope(store, 'cut2')).toMatchObject({ read: 1, empty: 0, failed: 0, unfinished: 1 });
  });

  it("finds a result holding other forms of the question's words: -ed and -ing, plurals", () => {
    storeJob('forms', [
      { url: 'https://forms.test/rocket', title: 'Rocket', content: 'Strong winds delayed the launch twice.\n\nEngineers tested two engines.' },
      { url: 'https://forms.test/barn', title: 'Barn', content: 'The old barn by the river was painted red.' },
    ]);
    // Before, the index found no result holding "launches" or "delaying", and nothing came back.
    expect(askJob(store, 'forms', 'what is delaying the launches?')[0]).toMatchObject({ url: 'https://forms.test/rocket', text: 'Strong winds delayed the launch twice.', line: 1 });
    expect(askJob(store, 'forms', 'which engine was testing')[0]).toMatchObject({ url: 'https://forms.test/rocket', text: 'Engineers tested two engines.', line: 3 });
    expect(askJob(store, 'forms', 'rivers painting')[0]).toMatchObject({ url: 'https://forms.test/barn' });
  });

  it("ranks on the question's own words, not on the words every question has, in a job too small to tell them", () => {
    storeJob('small', [
      { url: 'https://small.test/weather', title: 'Weather', content: 'What is the weather like? It is the best of the year.' },
      { url: 'https://small.test/capital', title: 'Capital', content: 'Paris became the capital of France in 987.' },
    ]);
    // Before, with under 10 passages nothing was left out: the weather passage answered too, on "what", "is" and "the".
    const a = askJob(store, 'small', 'what is the capital of France?');
    expect(a.map((p) => p.url)).toEqual(['https://small.test/capital']);
    // A question of such words only asks nothing: it was answered with the weather passage, for its "what", "is" and "it".
    expect(() => askJob(store, 'small', 'what is it?')).toThrow(expect.objectContaining({ code: 'vague_question', status: 400 }));
  });

  it('answers on the words a question has when every one of them is in most passages, rather than with nothing', () => {
    const notes = Array.from({ length: 12 }, (_, i) => ({ url: `https://garden.test/${i}`, title: `Day ${i}`, content: `The garden weather on day ${i} was mild.` }));
    storeJob('garden', [...notes, { url: 'https://garden.test/storm', title: 'Storm', content: 'Garden weather: a storm broke the fence.' }]);
    // "garden" and "weather" are in every passage: each was left out, and the app said no result shared a word with the question.
    const a = askJob(store, 'garden', 'garden weather?');
    expect(a.length).toBeGreaterThan(0);
    expect(a[0]).toMatchObject({ url: 'https://garden.test/storm' });
  });

  it('answers on those words though the question has one more that no passage holds', () => {
    const notes = Array.from({ length: 12 }, (_, i) => ({ url: `https://garden.test/${i}`, title: `Day ${i}`, content: `The garden weather on day ${i} was mild.` }));
    storeJob('garden', [...notes, { url: 'https://garden.test/storm', title: 'Storm', content: 'Garden weather: a storm broke the fence.' }]);
    // Before, "zebra", in no passage, counted as the one rare word, and was all the question was asked on: no answer.
    expect(askJob(store, 'garden', 'garden weather zebra?')[0]).toMatchObject({ url: 'https://garden.test/storm' });
  });

  it('answers with a passage two results hold word for word once, leaving room for others', () => {
    const para = 'The installer asks for a profile: main server, workstation or thin client server.';
    storeJob('manual', [
      { url: 'https://docs.test/manual.pdf', title: 'Manual', content: `Installing\n\n${para}\n\nA profile can be changed after installing.` },
      { url: 'https://docs.test/manual.html', title: 'Manual', content: `Installing\n\n${para}\n\nThe profile decides what is installed.` },
    ]);
    // A question every profile passage answers alike ("which profile does the installer ask
    // for?" now finds "asks" too, and that passage leads the others by over four times).
    const a = askJob(store, 'manual', 'which profile to choose?');
    // The same passage came back once per copy of the manual.
    expect(a.filter((p) => p.text === para)).toHaveLength(1);
    expect(a.find((p) => p.text === para)).toMatchObject({ line: 3 });
    expect(a.length).toBeGreaterThan(1);
  });

  it('lets the function words of a question break ties only, in a job with passages enough to count them', () => {
    const filler = Array.from({ length: 12 }, (_, i) => ({ url: `https://rivers.test/${i}`, title: `River ${i}`, content: `The rivers of town ${i} were written on old maps.` }));
    storeJob('vm', [
      ...filler,
      { url: 'https://book.test/', title: 'Book', content: 'What is it? It is what it is: what is in it is in it, and what is not in it is not.' },
      {
        url: 'https://paper.test/',
        title: 'Paper',
        content: 'SpiderMonkey runs scripts.\n\nSpiderMonkey has a tracing compiler.\n\nSpiderMonkey is implemented in C++, and its interpreter is one large loop over bytecodes.',
      },
    ]);
    // "written" is in most passages, so it tells nothing; "is", "in" and "what" are in 2 of 16,
    // so they counted in full: the passage thick with them answered first.
    const a = askJob(store, 'vm', 'what is SpiderMonkey written in?');
    expect(a[0]).toMatchObject({ url: 'https://paper.test/', line: 5 });
    // And a passage holding none of the words that say what is asked is no answer.
    expect(a.map((p) => p.url)).not.toContain('https://book.test/');
  });

  it("quotes a page's passage as it reads, without its links' addresses or bold marks, at its line", () => {
    storeJob('md', [
      {
        url: 'https://news.test/moon',
        title: 'Moon shot',
        content: '# Moon shot\n\nThe [United States](https://news.test/topics/united-states.html) space agency **NASA** plans a crewed\nlanding in 2024.\n\nOther news of the week.',
        meta: { kind: 'html' },
      },
    ]);
    const a = askJob(store, 'md', 'when does NASA plan the crewed landing?');
    expect(a[0]).toMatchObject({ idx: 0, line: 3, text: 'The United States space agency NASA plans a crewed\nlanding in 2024.' });
  });

  it("quotes a passage without Markdown's heading, quote and list marks, which the page does not show", () => {
    storeJob('marks', [
      {
        url: 'https://zoo.test/',
        title: 'Zoo',
        content: '# Zoo animals\n\nThe zoo keeps many animals.\n\n- a marmoset from Brazil\n- a wombat from Tasmania\n\n> > The quokka smiles, visitors say.',
        meta: { kind: 'html' },
      },
    ]);
    const one = (q: string) => askJob(store, 'marks', q)[0];
    // The heading comes back over the passage under it, which it opens at.
    expect(one('which zoo animals?')).toMatchObject({ line: 3, text: 'Zoo animals\nThe zoo keeps many animals.' });
    expect(one('where is the wombat from?')).toMatchObject({ line: 5, text: 'a marmoset from Brazil\na wombat from Tasmania' });
    expect(one('does the quokka smile?')).toMatchObject({ line: 8, text: 'The quokka smiles, visitors say.' });
  });

  it('reads C#, C++, .NET and emoji in a question as search does: not as the letters c and net, or nothing', () => {
    // 40 short results that hold a lone c (and the other words) often: BM25 put them all
    // before the pages about C# and C++, and Ask read only its 30 best results.
    const lone = Array.from({ length: 40 }, (_, i) => ({
      url: `https://notes.test/${i}`,
      title: `Note ${i}`,
      content: `Section c records: see c, c and c (${i}). Templates c.\n\nThe net of point c in part ${i}.`,
    }));
    storeJob('lang', [
      ...lone,
      { url: 'https://dev.test/cs', title: 'Records', content: 'Intro.\n\nRecords in C# are immutable by default.\n\nEnd.' },
      { url: 'https://dev.test/cpp', title: 'Templates', content: 'Intro.\n\nTemplates in C++ are resolved at compile time.\n\nEnd.' },
      { url: 'https://dev.test/asp', title: 'Web', content: 'Intro.\n\nThe site runs on ASP.NET Core 8.\n\nEnd.' },
      { url: 'https://food.test/menu', title: 'Menu', content: 'Intro.\n\nToday:🍕baked in the wood oven.\n\nEnd.' },
    ]);
    const first = (q: string) => askJob(store, 'lang', q)[0];
    expect(first('what is C# for?')).toMatchObject({ url: 'https://dev.test/cs', line: 3 });
    expect(first('why C++?')).toMatchObject({ url: 'https://dev.test/cpp', line: 3 });
    expect(first('who uses .NET?')).toMatchObject({ url: 'https://dev.test/asp', line: 3 });
    expect(first('where is the 🍕 baked?')).toMatchObject({ url: 'https://food.test/menu', text: 'Today:🍕baked in the wood oven.' });
    // The letter alone is still the letter, not C# or C++.
    const c = askJob(store, 'lang', 'c?');
    expect(c.length).toBeGreaterThan(0);
    expect(c.every((p) => p.url.startsWith('https://notes.test/'))).toBe(true);
  });

  it('answers a question asked in Japanese or Chinese, written without spaces', () => {
    storeJob('ja', TOKYO_PASSAGES.map((content, i) => ({ url: `https://ja.test/${i}`, title: `記事 ${i}`, content })));
    storeJob('zh', [
      { url: 'https://zh.test/0', title: '上海', content: '上海位于长江入海口，是中国最大的港口城市。' },
      { url: 'https://zh.test/1', title: '人口', content: '上海的常住人口约为两千四百万。' },
    ]);
    // The whole question is one "word" to the query parser; as one phrase it matched nothing.
    const a = askJob(store, 'ja', '東京の人口は何人ですか');
    expect(a[0]).toMatchObject({ jobId: 'ja', idx: 1, url: 'https://ja.test/1' });
    expect(askJob(store, 'ja', '観光客はどこへ行く')[0]).toMatchObject({ idx: 3 });
    expect(askJob(store, 'zh', '上海有多少人口？')[0]).toMatchObject({ jobId: 'zh', idx: 1 });
  });

  it('answers a question asked in Thai, written without spaces between words', () => {
    storeJob('th', [
      { url: 'https://th.test/0', title: 'กรุงเทพ', content: 'กรุงเทพมหานครเป็นเมืองหลวงของประเทศไทย มีประชากรมากกว่าสิบล้านคน' },
      { url: 'https://th.test/1', title: 'อากาศ', content: 'วันนี้อากาศร้อนมาก อุณหภูมิสูงสุดสามสิบเจ็ดองศา' },
      { url: 'https://th.test/2', title: 'จราจร', content: 'การจราจรในกรุงเทพติดขัดมากในช่วงเย็น โดยเฉพาะบริเวณถนนสุขุมวิท' },
    ]);
    // As one phrase, the question matched no result, and no passage shared its one "word".
    expect(askJob(store, 'th', 'ประชากรในกรุงเทพมีกี่คน')[0]).toMatchObject({ jobId: 'th', idx: 0 });
    expect(askJob(store, 'th', 'อุณหภูมิวันนี้เท่าไร')[0]).toMatchObject({ jobId: 'th', idx: 1 });
  });
});

describe('query syntax', () => {
  it('finds, for words and -words in any order with an OR after them, what holds every word and no -word, or the OR\'s word', () => {
    // Every set of four words as a page of its own: what a query finds is exactly which sets it matches.
    const WORDS = ['alpha', 'beta', 'gamma', 'delta'];
    const pages = Array.from({ length: 16 }, (_, bits) => WORDS.filter((_, w) => bits & (1 << w)));
    storeJob('p', pages.map((words, i) => ({ url: `https://p.test/${i}`, title: `Page ${i}`, content: `Page ${i} holds ${words.join(' ')}.` })));
    fc.assert(
      fc.property(fc.shuffledSubarray(WORDS, { minLength: 2, maxLength: 4 }), fc.nat(), fc.nat(), fc.option(fc.constantFrom(...WORDS)), (words, leaving, order, orWord) => {
        const out = words.slice(0, 1 + (leaving % (words.length - 1)));
        const typed = words.map((w) => (out.includes(w) ? `-${w}` : w));
        // One rotation of the words, so -words come first, last or between.
        const k = order % typed.length;
        const q = [...typed.slice(k), ...typed.slice(0, k)].join(' ') + (orWord ? ` OR ${orWord}` : '');
        const want = pages.flatMap((p, i) => ((words.every((w) => p.includes(w) !== out.includes(w)) || (orWord && p.includes(orWord)) ? [`p:${i}`] : [])));
        expect(ids(searchStore(store, q, { jobId: 'p', limit: 100 }).hits).sort(), q).toEqual(want.sort());
      }),
      { numRuns: 200 },
    );
  });

  /** A query as typed, and whether a page of these words matches it. */
  interface Typed {
    text: string;
    holds: (page: readonly string[]) => boolean;
  }

  it('finds, for nested groups and -groups, -numbers and NOT, what holds each group\'s words and none of what it leaves out', () => {
    // A number, and a word with a hyphen in it, among the words: -2022 leaves out the year, -covid-19 the phrase.
    const WORDS = ['alpha', 'beta', '2022', 'covid-19'];
    const pages = Array.from({ length: 16 }, (_, bits) => WORDS.filter((_, w) => bits & (1 << w)));
    storeJob('g', pages.map((words, i) => ({ url: `https://g.test/${i}`, title: `Page ${i}`, content: `Page ${i} holds ${words.join(' ')}.` })));
    const word = fc.constantFrom(...WORDS).map((w): Typed => ({ text: w, holds: (p) => p.includes(w) }));
    // Words joined by AND (typed or not), each part to find or to leave out (-x, or NOT x after one to find), one at least to find; groups of them joined by OR.
    const and = (depth: number): fc.Arbitrary<Typed> =>
      fc.tuple(fc.array(part(depth), { minLength: 1, maxLength: 2 }), fc.array(fc.tuple(part(depth), fc.boolean()), { maxLength: 2 }), fc.nat(), fc.boolean()).map(([find, leave, order, typedAnd]): Typed => {
        const all = [...find.map((f) => ({ f, out: false, not: false })), ...leave.map(([f, not]) => ({ f, out: true, not }))];
        const k = order % all.length;
        const rotated = [...all.slice(k), ...all.slice(0, k)];
        const text = rotated
          .map(({ f, out, not }, i) => {
            if (!out) return `${i > 0 && typedAnd ? 'AND ' : ''}${f.text}`;
            const afterFound = i > 0 && !(rotated[i - 1] as { out: boolean }).out;
            return not && afterFound ? `NOT ${f.text}` : `-${f.text}`;
          })
          .join(' ');
        return { text, holds: (p) => find.every((f) => f.holds(p)) && !leave.some(([f]) => f.holds(p)) };
      });
    const or = (depth: number): fc.Arbitrary<Typed> =>
      fc.array(and(depth), { minLength: 1, maxLength: 2 }).map((gs): Typed => ({ text: gs.map((g) => g.text).join(' OR '), holds: (p) => gs.some((g) => g.holds(p)) }));
    // Parentheses three deep at most; a word three times as often as a group.
    const part = (depth: number): fc.Arbitrary<Typed> =>
      depth === 0 ? word : fc.oneof({ arbitrary: word, weight: 3 }, { arbitrary: or(depth - 1).map((g): Typed => ({ text: `(${g.text})`, holds: g.holds })), weight: 1 });
    // Past MAX_SEARCH_TERMS words a query is refused; the next property checks that answer.
    const query = or(3).filter((q) => (q.text.match(/alpha|beta|2022|covid-19/g) ?? []).length <= MAX_SEARCH_TERMS);
    fc.assert(
      fc.property(query, (q) => {
        const want = pages.flatMap((p, i) => (q.holds(p) ? [`g:${i}`] : []));
        const r = searchStore(store, q.text, { jobId: 'g', limit: 100 });
        expect(r.plain, q.text).toBe(false);
        expect(ids(r.hits).sort(), q.text).toEqual(want.sort());
      }),
      { numRuns: 200 },
    );
  });

  it('searches any query typed of words, groups, columns, minuses, quotes and operators, or says what to type; never an FTS5 error or a throw', () => {
    storeJob('s', REPORTS);
    const piece = fc.constantFrom(
      ...['annual', 'report', '2022', '-2022', '2021-2022', 'covid-19', 'café', '首都', '🍕', 'C++', 'ال', 'revenue*', '"net revenue"', '"net', '*'],
      ...['(', ')', '-(', 'title:(', 'url:(', '-title:(', '-url:(', 'title:', 'url:', 'title:annual', '-url:reports', '-', '--', '"', '“', 'OR', 'AND', 'NOT', 'NEAR', 'NEAR(', '^', ':', '-5', '½', '\u202E'],
    );
    const typed = fc.array(fc.tuple(piece, fc.constantFrom(' ', '', '  ')), { maxLength: 12 }).map((ps) => ps.map(([p, sep]) => p + sep).join(''));
    fc.assert(
      fc.property(typed, (q) => {
        let r: ReturnType<typeof searchStore>;
        try {
          r = searchStore(store, q, { jobId: 's' });
        } catch (err) {
          // A query with nothing to find is answered with what to type.
          expect(err, JSON.stringify(q)).toBeInstanceOf(SiftError);
          expect(['empty_query', 'query_too_long'], JSON.stringify(q)).toContain((err as SiftError).code);
          expect((err as SiftError).message.length).toBeGreaterThan(0);
          expect((err as SiftError).hint).toMatch(/\w/);
          return;
        }
        // FTS5 took what the parser made of it: a query it rejects falls back to plain words (runQuery).
        expect(r.plain, JSON.stringify(q)).toBe(parseQuery(q)?.plain);
      }),
      { numRuns: 300 },
    );
  });

  it('quotes every term, so nothing typed reaches FTS5 as syntax', () => {
    expect(parseQuery('net revenue')?.match).toBe(inOrder(`${anyForm('net')} AND ${anyForm('revenue')}`, 'net revenue'));
    expect(parseQuery('"net revenue" OR profit*')?.match).toBe('"net revenue" OR "profit"*');
    expect(parseQuery('a NOT (b OR c)')).toMatchObject({ match: '"a" NOT ( "b" OR "c" )', terms: [{ text: 'a', prefix: false }], plain: false });
    expect(parseQuery('say "hi')).toMatchObject({ match: inOrder(`${anyForm('say')} AND "hi"`, 'say hi'), plain: true });
    expect(parseQuery('東京')?.match).toBe('"東  京"');
    // -word leaves out. A hyphen inside a word and a minus before a number stay part of the
    // word; -words with nothing to find beside them after OR are found, as before.
    expect(parseQuery('trees -forests')).toMatchObject({ match: `${anyForm('trees')} NOT ${anyForm('forests')}`, terms: [{ text: 'trees' }], plain: false });
    expect(parseQuery('a -"b c" d')?.match).toBe('"a" NOT "b c" AND "d"');
    expect(parseQuery('a OR -b')?.match).toBe('"a" OR "b"');
    // Typed first, a -word leaves out of the words after it, and binds as one typed after them does.
    expect(parseQuery('-a b')).toMatchObject({ match: '"b" NOT "a"', terms: [{ text: 'b' }], plain: false });
    expect(parseQuery('-a b OR c')?.match).toBe('"b" NOT "a" OR "c"');
    expect(parseQuery('-a b OR c')?.match).toBe(parseQuery('b -a OR c')?.match);
    expect(parseQuery('-a -b c d')?.match).toBe('"c" AND "d" NOT "a" NOT "b"');
    expect(parseQuery('-title:a b')?.match).toBe('"b" NOT title : "a"');
    // Only leaving out, there is nothing to find.
    expect(parseQuery('-forests')).toBeUndefined();
    expect(parseQuery('(-forests)')).toBeUndefined();
    expect(parseQuery('(-a -b)')).toBeUndefined();
    // A group that only leaves out leaves out of the words beside it; -a OR -b leaves out what holds both.
    expect(parseQuery('b (-a)')).toMatchObject({ match: '"b" NOT "a"', terms: [{ text: 'b' }] });
    expect(parseQuery('(-a -b) c')?.match).toBe('"c" NOT "a" NOT "b"');
    expect(parseQuery('c (-a OR -b -d)')?.match).toBe('"c" NOT ( "a" AND ( "b" OR "d" ) )');
    expect(parseQuery('   ')).toBeUndefined();
  });

  it('reads a phrase in the quotation marks of print as a phrase: “…”, „…“, «…», 「…」, as a quote pasted from a document has them', () => {
    storeJob('j1', REPORTS);
    for (const q of ['“net revenue”', '„net revenue“', '« net revenue »', '»net revenue«', '「net revenue」', '”net revenue”']) {
      expect(parseQuery(q), q).toMatchObject({ match: '"net revenue"', terms: [{ text: expect.stringContaining('net revenue') }], plain: false });
      expect(ids(searchStore(store, q).hits), q).toEqual(['j1:0']);
    }
    // The words of a quote in another order are not the quote: j1:1 holds "net" and "revenue" apart.
    expect(ids(searchStore(store, '“revenue net”').hits)).toEqual([]);
    expect(ids(searchStore(store, 'revenue net').hits).sort()).toEqual(['j1:0', 'j1:1']);
    expect(parseQuery('costs -“net effect”')?.match).toBe(`${anyForm('costs')} NOT "net effect"`);
    // Unclosed, it is plain words, as an unclosed " is; an apostrophe is part of its word.
    expect(parseQuery('“net revenue')).toMatchObject({ match: inOrder(`${anyForm('net')} AND ${anyForm('revenue')}`, 'net revenue'), plain: true });
    expect(parseQuery('don’t panic')?.match).toBe(inOrder(`"don’t" AND ${anyForm('panic')}`, 'don’t panic'));
  });

  it('a query that ends in AND, OR or NOT (as one does while typing it) is its other words, not a search for "or"', () => {
    storeJob('j1', REPORTS);
    for (const q of ['revenue OR', 'revenue AND', 'revenue NOT', 'OR revenue', '(revenue OR', 'revenue OR OR']) {
      expect(parseQuery(q), q).toMatchObject({ match: anyForm('revenue'), plain: true });
      expect(ids(searchStore(store, q).hits).sort(), q).toEqual(['j1:0', 'j1:1']);
    }
    // Alone, the word is what there is to find; in lower case it is always a word.
    expect(parseQuery('OR')).toMatchObject({ match: '"OR"', plain: true });
    expect(parseQuery('revenue or')?.match).toBe(inOrder(`${anyForm('revenue')} AND "or"`, 'revenue or'));
  });

  it('searches a word repeated in a query once (FTS5 would read and rank it once per repeat)', () => {
    // "net" quoted is net alone, where net typed bare is any of its forms: two terms.
    expect(parseQuery('net revenue Net "net"')).toMatchObject({ match: `${anyForm('net')} AND ${anyForm('revenue')} AND "net"`, terms: [{ text: 'net' }, { text: 'revenue' }, { text: 'net' }] });
    expect(parseQuery('net revenue Net')).toMatchObject({ match: inOrder(`${anyForm('net')} AND ${anyForm('revenue')}`, 'net revenue'), terms: [{ text: 'net' }, { text: 'revenue' }] });
    expect(parseQuery('net net*')?.match).toBe(`${anyForm('net')} AND "net"*`);
    // Only where every word must match: with OR or NOT a repeat can mean something.
    expect(parseQuery('net OR net')?.match).toBe(`${anyForm('net')} OR ${anyForm('net')}`);
    expect(parseQuery('say "hi say')).toMatchObject({ match: inOrder(`${anyForm('say')} AND "hi"`, 'say hi say'), plain: true });
  });

  it('shows the line holding the most distinct terms, though an earlier line holds the first match', () => {
    const text = 'Revenue alone here, revenue again.\nNothing.\nNet revenue and net costs.\nNet revenue last.';
    const s = makeSnippet(text, [{ text: 'revenue', prefix: false }, { text: 'net', prefix: false }]);
    expect(s?.line).toBe(3);
    expect(markedText(s ?? { text: '', marks: [] })).toBe('«Revenue» alone here, «revenue» again. Nothing. «Net» «revenue» and «net» costs. «Net» «revenue» last.');
  });

  it('marks every match in a snippet and cuts it at word boundaries', () => {
    const text = `${'filler words here '.repeat(20)}\nthe needle and another needle\n${'more words after '.repeat(20)}`;
    const s = makeSnippet(text, [{ text: 'needle', prefix: false }]);
    expect(s?.line).toBe(2);
    expect(markedText(s!)).toContain('the «needle» and another «needle»');
    expect(s?.text.startsWith('… ')).toBe(true);
    expect(s?.text.endsWith(' …')).toBe(true);
    expect(pageOfLine({ page_lines: [[3, 1], [4, 10]] }, 12)).toBe(4);
    // Markdown's heading and quote marks are not shown; a '#' inside a line is.
    const md = makeSnippet('# Le café\n\n## Menu\n\n> Sa crème brûlée, plat #1', [{ text: 'creme', prefix: false }]);
    expect(markedText(md!)).toBe('Le café Menu Sa «crème» brûlée, plat #1');
    expect(pageOfLine({}, 12)).toBeUndefined();
  });
});

describe('letters that lower case keeps apart and the index folds alike', () => {
  it('are marked and cited by their line, not "in the url": a final sigma, the micro sign, a long s', () => {
    storeJob('fold', [
      { url: 'https://el.test/b', title: 'Βιβλιοθήκη', content: 'Η βιβλιοθήκη.\nΟ ΑΡΙΣΤΟΤΕΛΗΣ έγραψε πολλά βιβλία.' },
      { url: 'https://lab.test/cells', title: 'Cells', content: 'Method\nThe cells measured 5 µm across.' },
      { url: 'https://old.test/book', title: 'Book', content: 'Preface\n\nThe ſtar of the ſhow.' },
    ]);
    const marked = (q: string, idx: number, line: number): string => {
      const h = searchStore(store, q, { jobId: 'fold' }).hits[0] as SearchHit;
      expect(h, q).toMatchObject({ idx, field: 'body', line });
      return markedText({ text: h.snippet, marks: h.marks });
    };
    expect(marked('αριστοτελης', 0, 2)).toContain('Ο «ΑΡΙΣΤΟΤΕΛΗΣ» έγραψε');
    expect(marked('μm', 1, 2)).toContain('5 «µm» across');
    expect(marked('star', 2, 3)).toContain('The «ſtar» of');
    expect(markedText(makeSnippet('Ο Αριστοτελης έγραψε', [{ text: 'ΑΡΙΣΤΟΤΕΛΗΣ', prefix: false }])!)).toBe('Ο «Αριστοτελης» έγραψε');
  });
});

describe('words typed in their usual form', () => {
  // Each word is on its line 2 or 3, so a hit cited "in the url" or at line 1 shows.
  const FORMS: Doc[] = [
    { url: 'https://el.test/a', title: 'Άρθρο', content: 'Εισαγωγή\nΗ βιβλιοθήκη της πόλης.\nΗ πρωτεΐνη του γάλακτος και το ταΰγετο.' },
    { url: 'https://ru.test/a', title: 'Праздник', content: 'Праздник\nНовогодняя ёлка стояла в зале.' },
    { url: 'https://ru.test/b', title: 'Лес', content: 'Лес\nЕлка росла у дороги.\nҐанок будинку.' },
    { url: 'https://de.test/a', title: 'Verkehr', content: 'Verkehr\nDie Straßenbahn fährt um acht.' },
    { url: 'https://ch.test/a', title: 'Verkehr', content: 'Verkehr\nDie Strassenbahn in Zürich.\nDIE STRAẞENBAHN IN BERN.' },
    { url: 'https://ar.test/a', title: 'مقالة', content: 'مقدمة\nأنواع الكتب في المكتبة.\nذهب إلى المستشفى مع آخر إسلامي.' },
    { url: 'https://th.test/a', title: 'บทนำ', content: 'บทนำ\nฉันกินข้าวที่บ้าน\nພາສາລາວເປັນພາສາ ភាសាខ្មែរជាភាសា မြန်မာဘာသာစကား\nព្រះរាជាណាចក្រ\u200Bកម្ពុជា' },
    { url: 'https://en.test/a', title: 'Typesetting', content: 'Typesetting\nHyphen\u00ADation and super\u200Bcalifragilistic words.\nThe Auf\u200Clage, a word\u2060joiner, a zero\u200Dwidth joiner and a \uFEFFbyte order mark.\nکتاب\u200Cها' },
  ];
  beforeEach(() => storeJob('forms', FORMS));
  /** The best hit's target, line and marked snippet; only that target matches. */
  const found = (q: string): { idx: number; line: number | undefined; text: string } => {
    const hits = searchStore(store, q, { jobId: 'forms' }).hits;
    expect(hits.length, q).toBeGreaterThan(0);
    const h = hits[0] as SearchHit;
    expect(h.field, q).toBe('body');
    return { idx: h.idx, line: h.line, text: markedText({ text: h.snippet, marks: h.marks }) };
  };
  const idxs = (q: string): number[] => searchStore(store, q, { jobId: 'forms' }).hits.map((h) => h.idx).sort();

  it('Greek without its accents, with a final sigma typed as σ, and with dialytika and tonos', () => {
    expect(found('βιβλιοθηκη')).toEqual({ idx: 0, line: 2, text: 'Εισαγωγή Η «βιβλιοθήκη» της πόλης. Η πρωτεΐνη του γάλακτος και το ταΰγετο.' });
    for (const q of ['πολης', 'ΠΟΛΗΣ', 'πολησ']) expect(found(q), q).toMatchObject({ idx: 0, line: 2, text: expect.stringContaining('της «πόλης».') });
    for (const q of ['πρωτεινη', 'ΠΡΩΤΕΪΝΗ', 'πρωτεϊνη', 'ταυγετο']) expect(found(q), q).toMatchObject({ idx: 0, line: 3 });
    expect(found('πρωτεινη').text).toContain('Η «πρωτεΐνη» του');
  });

  it('Russian and Belarusian ё as е and the other way round, Ukrainian ґ as г', () => {
    expect(idxs('елка')).toEqual([1, 2]);
    expect(idxs('ёлка')).toEqual([1, 2]);
    expect(idxs('ЁЛКА')).toEqual([1, 2]);
    const hits = searchStore(store, 'елка', { jobId: 'forms' }).hits;
    expect(hits.map((h) => [h.idx, h.line, markedText({ text: h.snippet, marks: h.marks })]).sort()).toEqual([
      [1, 2, 'Новогодняя «ёлка» стояла в зале.'],
      [2, 2, '«Елка» росла у дороги. Ґанок будинку.'],
    ]);
    expect(found('ганок')).toMatchObject({ idx: 2, line: 3, text: expect.stringContaining('«Ґанок» будинку.') });
    // й is a letter of its own, not и with a mark.
    expect(idxs('стоиала')).toEqual([]);
  });

  it('German ß as ss and the other way round', () => {
    expect(idxs('strassenbahn')).toEqual([3, 4]);
    expect(idxs('straßenbahn')).toEqual([3, 4]);
    expect(found('STRAẞENBAHN')).toMatchObject({ line: 2 });
    const hits = searchStore(store, 'strassenbahn', { jobId: 'forms' }).hits;
    expect(hits.map((h) => [h.idx, h.line, markedText({ text: h.snippet, marks: h.marks })]).sort()).toEqual([
      [3, 2, 'Die «Straßenbahn» fährt um acht.'],
      [4, 2, 'Die «Strassenbahn» in Zürich. DIE «STRAẞENBAHN» IN BERN.'],
    ]);
  });

  it('Arabic alef with hamza or madda as the bare alef, final ى as ي, ة as ه', () => {
    for (const q of ['انواع', 'أنواع']) expect(found(q), q).toMatchObject({ idx: 5, line: 2, text: expect.stringContaining('«أنواع» الكتب') });
    for (const q of ['المكتبه', 'المكتبة']) expect(found(q), q).toMatchObject({ idx: 5, line: 2, text: expect.stringContaining('في «المكتبة».') });
    for (const q of ['المستشفي', 'اخر', 'اسلامي', 'ٱخر']) expect(found(q), q).toMatchObject({ idx: 5, line: 3 });
    expect(found('المستشفي').text).toContain('إلى «المستشفى» مع آخر');
    expect(found('اخر').text).toContain('«آخر» إسلامي');
  });

  it('a letter whose mark is its own, which the index keeps (ئ ؤ, й), is marked and answered only where it is written', () => {
    storeJob('own-mark', [
      { url: 'https://ar.test/menu', title: 'مطعم', content: 'مقدمة\nقايمة المشروبات على الطاولة.\n\nقائمة الطعام في المطعم.\n\nرويس الاقسام ورؤوس الفصول.' },
      { url: 'https://ru.test/home', title: 'Дом', content: 'Вступление\nМои книги на полке.\n\nМой дом у реки.' },
    ]);
    /** The best hit's line and the words its snippet marks. */
    const hit = (q: string): { line: number | undefined; marked: string[] } => {
      const h = searchStore(store, q, { jobId: 'own-mark' }).hits[0] as SearchHit;
      expect(h, q).toMatchObject({ field: 'body' });
      return { line: h.line, marked: h.marks.map(([a, b]) => h.snippet.slice(a, b)) };
    };
    // The index holds قائمة with its hamza, and only it matched: the snippet read قايمة as
    // قائمة too, marked both and cited line 2, where the word searched for is not.
    expect(hit('قائمة')).toEqual({ line: 4, marked: ['قائمة'] });
    expect(hit('رؤوس')).toEqual({ line: 6, marked: ['ورؤوس'] });
    expect(hit('мой')).toEqual({ line: 4, marked: ['Мой'] });
    // Ask ranks passages on the letters as written too: the passage holding قايمة shared no word with the question.
    expect(askJob(store, 'own-mark', 'أين قائمة الطعام؟').map((a) => a.line)).toEqual([4]);
    expect(askJob(store, 'own-mark', 'где мой дом?').map((a) => a.line)).toEqual([4]);
  });

  it('Arabic stretched with tatweel (ـ) as the word without it, marked where it stands', () => {
    storeJob('kashida', [{ url: 'https://ar.test/k', title: 'مقالة', content: 'مقدمة\nاشترى المعلم الكـتاب من السوق.' }]);
    const [hit] = searchStore(store, 'الكتاب', { jobId: 'kashida' }).hits;
    // Before, the index found it but the snippet had no match to mark, and cited it "in the url".
    expect(hit).toMatchObject({ field: 'body', line: 2 });
    expect(markedText({ text: hit!.snippet, marks: hit!.marks })).toContain('«الكـتاب»');
  });

  it('Thai, Lao, Khmer and Burmese words inside a run without spaces', () => {
    expect(found('กิน')).toEqual({ idx: 6, line: 2, text: 'ฉัน«กิน»ข้าวที่บ้าน ພາສາລາວເປັນພາສາ ភាសាខ្មែរជាភាសា မြန်မာဘာသာစကား ព្រះរាជាណាចក្រ\u200Bកម្ពុជា' });
    expect(found('ข้าว')).toMatchObject({ idx: 6, line: 2 });
    expect(found('ລາວ')).toMatchObject({ idx: 6, line: 3, text: expect.stringContaining('ພາສາ«ລາວ»ເປັນພາສາ') });
    expect(found('ជា')).toMatchObject({ idx: 6, line: 3, text: expect.stringContaining('ភាសាខ្មែរ«ជា»ភាសា') });
    expect(found('စကား')).toMatchObject({ idx: 6, line: 3, text: expect.stringContaining('မြန်မာဘာသာ«စကား»') });
    // Khmer writes a zero-width space between words: there it parts them, as a space would.
    expect(found('កម្ពុជា')).toMatchObject({ idx: 6, line: 4, text: expect.stringContaining('ព្រះរាជាណាចក្រ\u200B«កម្ពុជា»') });
    // A phrase of two words typed without a space, as they are written.
    expect(found('กินข้าว').text).toContain('ฉัน«กินข้าว»ที่บ้าน');
  });

  it('a Thai or Chinese run of 200,000 characters without a space: read in windows, the same words as ICU reads it whole', () => {
    const thai = 'ภาษาไทยเป็นภาษาที่มีระดับเสียงของคำแน่นอนหรือวรรณยุกต์เช่นเดียวกับภาษาจีน';
    const texts = [thai, 'ประเทศไทยมีประชากรประมาณหกสิบหกล้านคนกรุงเทพมหานครเป็นเมืองหลวง', '中文是一种语言我们今天去学校学习数学和物理因为明天有考试', 'ພາສາລາວເປັນພາສາທີ່ໃຊ້ໃນປະເທດລາວ', 'ភាសាខ្មែរជាភាសាផ្លូវការរបស់ប្រទេសកម្ពុជា'];
    // Where reading the whole is still quick, a window's edge moves no break: each text turned
    // so that its edges fall at other places in its words.
    const icu = new Intl.Segmenter('th', { granularity: 'word' });
    for (const base of texts) {
      for (const turn of [0, 5]) {
        const text = (base.slice(turn) + base.slice(0, turn)).repeat(Math.ceil(12_000 / base.length));
        // Mapped as read: ICU's segment objects each hold a copy of the whole text while kept.
        const whole = Array.from(icu.segment(text), (x) => [x.index, x.segment, x.isWordLike]);
        expect(Array.from(segmentWords(text), (x) => [x.index, x.segment, x.isWordLike]), `${base} turned ${turn}`).toEqual(whole);
      }
    }
    // ICU read 100,000 characters of Thai in 21 s at once, 200,000 in minutes (or ran out of
    // memory); in windows 200,000 take about a second: the run is indexed and found, as a short one is.
    const run = `${thai.repeat(Math.ceil(200_000 / thai.length))}ฉันกินข้าว`;
    storeJob('th-long', [{ url: 'https://th.test/long', title: 'ยาว', content: `บทนำ\n${run}` }]);
    const hit = searchStore(store, 'ข้าว', { jobId: 'th-long' }).hits[0];
    expect(hit).toMatchObject({ field: 'body', line: 2 });
    expect(markedText({ text: hit!.snippet, marks: hit!.marks })).toMatch(/ฉันกิน«ข้าว»$/);
  }, 30_000);

  it('a word a soft hyphen or a zero-width character splits, but a Persian half-space still parts a word from its suffix', () => {
    for (const q of ['hyphenation', 'supercalifragilistic']) expect(found(q), q).toMatchObject({ idx: 7, line: 2 });
    expect(found('hyphenation').text).toContain('«Hyphen\u00ADation» and super\u200Bcalifragilistic words.');
    expect(found('supercalifragilistic').text).toContain('and «super\u200Bcalifragilistic» words.');
    for (const q of ['auflage', 'wordjoiner', 'zerowidth', 'byte']) expect(found(q), q).toMatchObject({ idx: 7, line: 3 });
    expect(found('wordjoiner').text).toContain('a «word\u2060joiner»,');
    expect(found('کتاب')).toMatchObject({ idx: 7, line: 4, text: expect.stringMatching(/ mark\. «کتاب»\u200Cها$/) });
  });

  it('cites the PDF page of such a hit', () => {
    storeJob('pdf-el', [{ url: 'https://el.test/a.pdf', title: 'Τόμος', content: 'Πρώτη σελίδα.\n\nΔεύτερη σελίδα\nγια την Straßenbahn και την ёлка.', meta: { page_lines: [[1, 1], [2, 3]] } }]);
    for (const q of ['δευτερη', 'strassenbahn', 'елка']) expect(searchStore(store, q, { jobId: 'pdf-el' }).hits[0], q).toMatchObject({ field: 'body', line: q === 'δευτερη' ? 3 : 4, page: 2 });
  });
});

describe('Hindi (Devanagari) words, whose vowel signs are marks', () => {
  // The language names of a real page's menu (corpora/outcomes), and the first article of the
  // Universal Declaration of Human Rights in Hindi; हिंदू (Hindu) differs from हिंदी (Hindi) only in its last vowel sign.
  beforeEach(() => {
    storeJob('hi', [
      { url: 'https://hi.test/0', title: 'भाषाएँ', content: 'सूची\nमराठी और हिंदी में पढ़ें।' },
      { url: 'https://hi.test/1', title: 'धर्म', content: 'सूची\nहिंदू धर्म के त्योहार।' },
      { url: 'https://hi.test/2', title: 'अनुच्छेद 1', content: 'सूची\nसभी मनुष्यों को गौरव और अधिकारों के मामले में जन्मजात स्वतन्त्रता और समानता प्राप्त है।' },
      { url: 'https://hi.test/3', title: 'काम', content: 'सूची\nकम समय में कुम्हार ने घड़ा बनाया।' },
    ]);
  });

  it('finds a word whole, with its vowel signs, and marks it whole', () => {
    // Before, the index cut हिंदी at its signs into ह and द, and found हिंदू as well.
    expect(markedHits('hi', 'हिंदी')).toEqual([[0, 'सूची मराठी और «हिंदी» में पढ़ें।']]);
    expect(markedHits('hi', 'हिंदू')).toEqual([[1, 'सूची «हिंदू» धर्म के त्योहार।']]);
    expect(markedHits('hi', 'स्वतन्त्रता')).toEqual([[2, 'सूची सभी मनुष्यों को गौरव और अधिकारों के मामले में जन्मजात «स्वतन्त्रता» और समानता प्राप्त है।']]);
    // कम (less) is no काम (work), nor is कुम्हार; the title's काम is found, and कम alone.
    expect(searchStore(store, 'काम', { jobId: 'hi' }).hits.map((h) => [h.idx, h.field])).toEqual([[3, 'title']]);
    expect(markedHits('hi', 'कम')).toEqual([[3, 'सूची «कम» समय में कुम्हार ने घड़ा बनाया।']]);
  });

  it('is read whole by Ask this job too: a question about Hindi is not answered with Hindu', () => {
    expect(askJob(store, 'hi', 'हिंदी?').map((a) => a.idx)).toEqual([0]);
  });

  it('finds a phrase and a prefix typed with vowel signs', () => {
    expect(markedHits('hi', '"हिंदी में"')).toEqual([[0, 'सूची मराठी और «हिंदी में» पढ़ें।']]);
    expect(markedHits('hi', 'हिं*')).toEqual([
      [0, 'सूची मराठी और «हिंदी» में पढ़ें।'],
      [1, 'सूची «हिंदू» धर्म के त्योहार।'],
    ]);
    expect(markedHits('hi', 'स्वतन्*').map(([i]) => i)).toEqual([2]);
  });
});

describe('Indic letters with a nukta, written as one character or as the letter and the nukta', () => {
  // ज़्यादा (more) and सज़ा (punishment) with ज़ as U+095B, and as ज and the nukta U+093C; NFC
  // keeps both (U+095B is a composition exclusion). Bengali সময় (time) with য় as U+09DF and as য and ়.
  const ZA = '\u095B';
  const JA_NUKTA = '\u091C\u093C';
  const YYA = '\u09DF';
  const YA_NUKTA = '\u09AF\u09BC';
  beforeEach(() => {
    storeJob('nukta', [
      { url: 'https://hi.test/one', title: 'लेख', content: `सूची\nउसे ${ZA}्यादा स${ZA}ा मिली।` },
      { url: 'https://hi.test/two', title: 'लेख', content: `सूची\nउसे ${JA_NUKTA}्यादा स${JA_NUKTA}ा मिली।` },
      { url: 'https://bn.test/one', title: 'প্রবন্ধ', content: `সূচি\nসম${YYA} নেই।` },
      { url: 'https://bn.test/two', title: 'প্রবন্ধ', content: `সূচি\nসম${YA_NUKTA} নেই।` },
    ]);
  });

  it('finds either spelling by the other, and marks the word as each page writes it', () => {
    for (const za of [ZA, JA_NUKTA]) {
      expect(markedHits('nukta', `${za}्यादा`), za).toEqual([
        [0, `सूची उसे «${ZA}्यादा» स${ZA}ा मिली।`],
        [1, `सूची उसे «${JA_NUKTA}्यादा» स${JA_NUKTA}ा मिली।`],
      ]);
      expect(markedHits('nukta', `"${za}्यादा स${za}ा"`).map(([i]) => i), za).toEqual([0, 1]);
    }
    for (const yya of [YYA, YA_NUKTA]) {
      expect(markedHits('nukta', `সম${yya}`), yya).toEqual([
        [2, `সূচি «সম${YYA}» নেই।`],
        [3, `সূচি «সম${YA_NUKTA}» নেই।`],
      ]);
    }
  });

  it('finds a Hindi word typed without its nukta, as many type it, and a word typed with one finds it written without (as Lucene reads Hindi)', () => {
    // क़लम (pen) with क़ as U+0958, ज़रूर (surely) with ज and the nukta, पेड़ (tree) with ड़ as U+095C;
    // and the three as people often type them, without the nukta. Before, each spelling found itself alone.
    const QA = '\u0958';
    storeJob('bare', [
      { url: 'https://hi.test/with', title: 'लेख', content: `सूची\nउसने ${QA}लम से ${JA_NUKTA}रूर लिखा।\n\nपे\u095C के नीचे।` },
      { url: 'https://hi.test/without', title: 'लेख', content: 'सूची\nउसने कलम से जरूर लिखा।\n\nपेड के नीचे।' },
      { url: 'https://bn.test/ya', title: 'প্রবন্ধ', content: `সূচি\nযে সম${YYA} নেই।` },
    ]);
    const both = (word: string, withNukta: string): [number, string][] => [
      [0, `सूची उसने ${QA}लम से ${JA_NUKTA}रूर लिखा। पे\u095C के नीचे।`.replace(withNukta, `«${withNukta}»`)],
      [1, 'सूची उसने कलम से जरूर लिखा। पेड के नीचे।'.replace(word, `«${word}»`)],
    ];
    for (const q of ['कलम', `${QA}लम`, `\u0915\u093Cलम`]) expect(markedHits('bare', q), q).toEqual(both('कलम', `${QA}लम`));
    for (const q of ['जरूर', `${ZA}रूर`]) expect(markedHits('bare', q), q).toEqual(both('जरूर', `${JA_NUKTA}रूर`));
    expect(markedHits('bare', 'पेड').map(([i]) => i)).toEqual([0, 1]);
    expect(markedHits('bare', '"कलम से जरूर"').map(([i]) => i)).toEqual([0, 1]);
    expect(markedHits('bare', 'कल*').map(([i]) => i)).toEqual([0, 1]);
    expect(askJob(store, 'bare', 'कलम?').map((a) => a.idx).sort()).toEqual([0, 1]);
    // Bengali য় is a letter of its own, not য with a mark people leave off: যে (that) is no য়ে.
    expect(markedHits('bare', `সম${YYA}`).map(([i]) => i)).toEqual([2]);
    expect(markedHits('bare', 'সময')).toEqual([]);
  });

  it('is read alike by Ask this job', () => {
    expect(askJob(store, 'nukta', `${ZA}्यादा?`).map((a) => a.idx).sort()).toEqual([0, 1]);
    expect(askJob(store, 'nukta', `${JA_NUKTA}्यादा?`).map((a) => a.idx).sort()).toEqual([0, 1]);
  });
});

describe('Thai, Lao, Khmer and Burmese words, whose vowel signs and tone marks are marks', () => {
  // ที่ (at) and ทุก (every) share only their first letter, ไม่ (not) and ไม้ (wood) differ in
  // their tone mark alone; Khmer ទឹក (water) and ទូក (boat) in their vowel sign alone.
  beforeEach(() => {
    storeJob('sea', [
      { url: 'https://th.test/0', title: 'บทนำ', content: 'สารบัญ\nขอให้ทุกคนอยู่ที่นี่' },
      { url: 'https://th.test/1', title: 'บทนำ', content: 'สารบัญ\nขอให้ทุกคนมีความสุข' },
      { url: 'https://th.test/2', title: 'บทนำ', content: 'สารบัญ\nฉันไม่ชอบฝนตก' },
      { url: 'https://th.test/3', title: 'บทนำ', content: 'สารบัญ\nไม้ แข็ง' },
      { url: 'https://km.test/4', title: 'ទំព័រ', content: 'មាតិកា\nទឹកនេះស្អាត' },
      { url: 'https://km.test/5', title: 'ទំព័រ', content: 'មាតិកា\nយើងទិញទូកថ្មី' },
    ]);
  });

  it('finds a word by its own spelling, marks and all, and not a word sharing its letters', () => {
    // Before, the index cut ที่ at its marks into ท, which every word starting ท matched (ทุก too).
    expect(markedHits('sea', 'ที่')).toEqual([[0, 'สารบัญ ขอให้ทุกคนอยู่«ที่»นี่']]);
    expect(markedHits('sea', 'ทุก')).toEqual([
      [0, 'สารบัญ ขอให้«ทุก»คนอยู่ที่นี่'],
      [1, 'สารบัญ ขอให้«ทุก»คนมีความสุข'],
    ]);
    expect(markedHits('sea', 'ไม่')).toEqual([[2, 'สารบัญ ฉัน«ไม่»ชอบฝนตก']]);
    expect(markedHits('sea', 'ไม้')).toEqual([[3, 'สารบัญ «ไม้» แข็ง']]);
    expect(markedHits('sea', 'ទឹក')).toEqual([[4, 'មាតិកា «ទឹក»នេះស្អាត']]);
    expect(markedHits('sea', 'ទូក')).toEqual([[5, 'មាតិកា យើងទិញ«ទូក»ថ្មី']]);
  });

  it('finds a phrase and a prefix typed with marks', () => {
    expect(markedHits('sea', '"อยู่ที่"')).toEqual([[0, 'สารบัญ ขอให้ทุกคน«อยู่ที่»นี่']]);
    expect(markedHits('sea', 'ไม่*')).toEqual([[2, 'สารบัญ ฉัน«ไม่»ชอบฝนตก']]);
  });
});

describe('Arabic words with what is written joined to their start', () => {
  // الكتاب (the book) as a page writes it after و (and), ف (so), ب (with), ك (as), ل (for), and bare; each on line 2 of its own result.
  const FORMS = ['الكتاب', 'والكتاب', 'فالكتاب', 'بالكتاب', 'كالكتاب', 'للكتاب', 'وبالكتاب', 'كتاب'];
  beforeEach(() => {
    storeJob('book', FORMS.map((w, i) => ({ url: `https://ar.test/${i}`, title: 'مقالة', content: `مقدمة\nقرأ الطالب ${w} الجديد في المساء.` })));
    storeJob('short', [
      { url: 'https://ar.test/god', title: 'مقالة', content: 'مقدمة\nالله أكبر.' },
      { url: 'https://ar.test/him', title: 'مقالة', content: 'مقدمة\nقال له صديقه.' },
      { url: 'https://ar.test/boy', title: 'مقالة', content: 'مقدمة\nولد صغير.' },
    ]);
  });

  it('reads a lone article ال as no word: alone, search says so and how to search; beside a word, it is left out', () => {
    // Before, ال alone asked the index for a word it never holds (it keeps كتاب of الكتاب), and
    // found nothing with no word why; "ال كتاب", the article typed apart, found nothing either.
    for (const q of ['ال', 'اَل', 'ال ال']) {
      let err: unknown;
      try {
        searchStore(store, q, { jobId: 'book' });
      } catch (e) {
        err = e;
      }
      expect(err, q).toMatchObject({ code: 'empty_query', status: 400 });
      expect((err as SiftError).message, q).toBe(`"${q}" is the Arabic article, which is written joined to its word (الكتاب) and is no word to search for alone.`);
      expect((err as SiftError).hint, q).toBe('Search for the word, with the article or without it: الكتاب or كتاب finds الكتاب, والكتاب and بالكتاب.');
    }
    const all = FORMS.map((w, i) => [i, `مقدمة قرأ الطالب «${w}» الجديد في المساء.`]);
    expect(markedHits('book', 'ال كتاب')).toEqual(all);
    expect(markedHits('book', 'كتاب ال')).toEqual(all);
  });

  it('reads the article typed with a star or inside a phrase as it reads it alone: ال* says what to type instead, "ال كتاب" finds what "الكتاب" finds', () => {
    // Before, ال* asked for the few words the index keeps with the article (الله, الآن) and
    // found none here, with no word why; "ال كتاب" in quotes and ال* beside a word found nothing.
    const failure = (q: string): SiftError => {
      let err: unknown;
      try {
        searchStore(store, q, { jobId: 'book' });
      } catch (e) {
        err = e;
      }
      expect(err, q).toBeInstanceOf(SiftError);
      return err as SiftError;
    };
    for (const q of ['ال*', 'اَل*', '"ال"*']) {
      expect(failure(q), q).toMatchObject({ code: 'empty_query', status: 400 });
      expect(failure(q).message, q).toBe(`"${q}" asks for every word written with the Arabic article, which is nearly every word of an Arabic page: search reads the word the article is joined to (الكتاب as كتاب), not the article.`);
      expect(failure(q).hint, q).toBe('Search for the word, or type its first letters after the article: الكت* finds الكتاب, بالكتاب and الكتب.');
    }
    const quoted = '"ال"';
    expect(failure(quoted).message).toBe(`"${quoted}" is the Arabic article, which is written joined to its word (الكتاب) and is no word to search for alone.`);
    // What the hint promises.
    storeJob('books', [{ url: 'https://ar.test/books', title: 'مقالة', content: 'مقدمة\nرتب الكتب على الرف.' }]);
    expect(markedHits('books', 'الكت*')).toEqual([[0, 'مقدمة رتب «الكتب» على الرف.']]);
    const all = FORMS.map((w, i) => [i, `مقدمة قرأ الطالب «${w}» الجديد في المساء.`]);
    for (const q of ['"ال كتاب"', 'ال* كتاب', 'كتاب ال*']) expect(markedHits('book', q), q).toEqual(all);
    expect(markedHits('book', '"ال كتاب"')).toEqual(markedHits('book', '"الكتاب"'));
    // A phrase that ends in the article with a star: the words before it, as a phrase.
    expect(markedHits('book', '"قرأ الطالب ال"*')).toEqual(FORMS.map((w, i) => [i, `مقدمة «قرأ الطالب» ${w} الجديد في المساء.`]));
  });

  it('finds the word after each of و ف ب ك ل and the article, and marks the whole word as the page writes it', () => {
    for (const q of ['الكتاب', 'كتاب', 'والكتاب', 'بالكتاب', 'لِلْكِتَابِ']) {
      expect(markedHits('book', q), q).toEqual(FORMS.map((w, i) => [i, `مقدمة قرأ الطالب «${w}» الجديد في المساء.`]));
    }
    const hits = searchStore(store, 'الكتاب', { jobId: 'book' }).hits;
    expect(hits.every((h) => h.field === 'body' && h.line === 2)).toBe(true);
  });

  it('never takes letters off a short word: الله is no ال before له, ولد no و before لد', () => {
    expect(markedHits('short', 'له')).toEqual([[1, 'مقدمة قال «له» صديقه.']]);
    expect(markedHits('short', 'الله')).toEqual([[0, 'مقدمة «الله» أكبر.']]);
    expect(markedHits('short', 'لد')).toEqual([]);
    expect(markedHits('short', 'ولد')).toEqual([[2, 'مقدمة «ولد» صغير.']]);
    expect(foldForIndex('الله له ولد')).toBe('الله له ولد');
  });

  it('finds a word of two letters with the article and without it, as typed either way: أب (father) finds الأب and والأب', () => {
    storeJob('two', [
      { url: 'https://ar.test/f0', title: 'مقالة', content: 'مقدمة\nجاء الأب مبكرا.' },
      { url: 'https://ar.test/f1', title: 'مقالة', content: 'مقدمة\nسافر أب وابنه.' },
      { url: 'https://ar.test/f2', title: 'مقالة', content: 'مقدمة\nتحدث الابن والأب معا.' },
      { url: 'https://ar.test/f3', title: 'مقالة', content: 'مقدمة\nوصل الآن.' },
      { url: 'https://ar.test/f4', title: 'مقالة', content: 'مقدمة\nقال إن الطقس جميل.' },
    ]);
    // Before, the index held الأب whole (its rest is too short to take the article off, as الله is
    // kept), so أب found f1 alone and الأب f0 alone.
    for (const q of ['أب', 'الأب', 'اب']) {
      expect(markedHits('two', q), q).toEqual([
        [0, 'مقدمة جاء «الأب» مبكرا.'],
        [1, 'مقدمة سافر «أب» وابنه.'],
        [2, 'مقدمة تحدث الابن «والأب» معا.'],
      ]);
    }
    // A prefix of two letters too: أب* is also the word after the article (f2 by الابن and والأب).
    expect(searchStore(store, 'أب*', { jobId: 'two' }).hits.map((h) => h.idx).sort()).toEqual([0, 1, 2]);
    expect(markedHits('two', 'أب*')[0]).toEqual([0, 'مقدمة جاء «الأب» مبكرا.']);
    // A rest that is a particle of its own stays apart: الآن (now) is no إن (if), الله no له.
    expect(markedHits('two', 'الآن')).toEqual([[3, 'مقدمة وصل «الآن».']]);
    expect(markedHits('two', 'إن')).toEqual([[4, 'مقدمة قال «إن» الطقس جميل.']]);
    expect(markedHits('short', 'له')).toEqual([[1, 'مقدمة قال «له» صديقه.']]);
    expect(markedHits('short', 'الله')).toEqual([[0, 'مقدمة «الله» أكبر.']]);
  });

  it('keeps every word in its place, so an exact phrase matches across a word that lost its letters and nowhere else', () => {
    const idxs = (q: string): number[] => searchStore(store, q, { jobId: 'book' }).hits.map((h) => h.idx).sort();
    expect(idxs('"الكتاب الجديد"')).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    expect(idxs('"الطالب والكتاب الجديد"')).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    // الطالب and الجديد are two words apart.
    expect(idxs('"الطالب الجديد"')).toEqual([]);
    expect(markedHits('book', '"الطالب بالكتاب"')[1]).toEqual([1, 'مقدمة قرأ «الطالب والكتاب» الجديد في المساء.']);
  });

  it('finds a prefix typed with the article or و before one or two letters, as it found them when the index held words as written', () => {
    // الك* is ال before ك: the index holds الكتاب as كتاب, and الله, whose rest is short, as it is.
    for (const q of ['الك*', 'والك*', 'الكت*', 'الكتا*']) {
      expect(markedHits('book', q).slice(0, 7), q).toEqual(FORMS.slice(0, 7).map((w, i) => [i, `مقدمة قرأ الطالب «${w}» الجديد في المساء.`]));
    }
    // ل* finds له too, as الكتاب finds كتاب.
    expect(markedHits('short', 'الل*')).toContainEqual([0, 'مقدمة «الله» أكبر.']);
  });

  it('finds a phrase whose last word is typed so far as the article and a letter or two, and marks the phrase', () => {
    // Asked as "الطالب الك"*, it found nothing: the index holds الطالب كتاب.
    for (const q of ['"الطالب الك"*', '"الطالب والك"*', '"قرأ الطالب الكت"*']) {
      expect(markedHits('book', q).slice(0, 7), q).toEqual(FORMS.slice(0, 7).map((w, i) => [i, q.startsWith('"قرأ') ? `مقدمة «قرأ الطالب ${w}» الجديد في المساء.` : `مقدمة قرأ «الطالب ${w}» الجديد في المساء.`]));
    }
  });

  it('leaves Latin, Chinese, Persian and a word joined to a digit as the fold had them', () => {
    const latin = 'The book and the library, كتاب apart.';
    expect(foldForIndex(latin)).toBe(latin);
    expect(foldForIndex('東京の本')).toBe(' 東  京  の  本 ');
    // Persian writes و apart: واژه (word) is no و + اژه; a word joined to a digit is one word to the index.
    // A mathematical bold 𝐀 is read as the A it is (fold.ts COMPAT), and is joined to its word as A is.
    expect(foldForIndex('واژه والكتاب2 2والكتاب 𝐀والكتاب')).toBe('واژه والكتاب2 2والكتاب Aوالكتاب');
  });

  it('is read the same by Ask this job: a question with الكتاب answers from passages holding والكتاب and بالكتاب', () => {
    storeJob('ask', [
      { url: 'https://ar.test/a0', title: 'درس', content: 'ذهب المعلم إلى السوق صباحا.' },
      { url: 'https://ar.test/a1', title: 'درس', content: 'اشترى الطالب الدفتر والكتاب من المكتبة.' },
      { url: 'https://ar.test/a2', title: 'درس', content: 'كتبت الرسالة بالقلم الأزرق.' },
    ]);
    expect(askJob(store, 'ask', 'أين الكتاب؟').map((a) => a.idx)).toEqual([1]);
  });
});
describe('the fold of plain ASCII text', () => {
  it('is the text itself, with no copy made, and maps no offsets', () => {
    const text = 'Net revenue rose to 4.2 billion.\n'.repeat(200);
    expect(foldForIndex(text)).toBe(text);
    expect(foldWithMap(text)).toEqual({ folded: text.toLowerCase(), at: undefined });
    // Accented Latin is unicode61's to fold: left as it is.
    expect(foldForIndex('crème brûlée à Zürich')).toBe('crème brûlée à Zürich');
  });
});

describe('a snippet of text without spaces', () => {
  // A lone surrogate is what makes "\ufffd" on a terminal and "\udxxx" in --json.
  const LONE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
  it('never cuts an emoji or a rare ideograph in two, wherever the window falls', () => {
    for (const wide of ['😀', '𠀋']) {
      for (const pad of ['', '好', '好好', '好好好']) {
        const text = `${wide.repeat(90)}${pad}東京${pad}${wide.repeat(200)}`;
        const s = makeSnippet(text, [{ text: '東京', prefix: false }]);
        expect(s, `${wide} ${pad.length}`).toBeDefined();
        expect(LONE.test(s!.text), `${wide} ${pad.length}: ${JSON.stringify(s!.text.slice(0, 4))}…${JSON.stringify(s!.text.slice(-4))}`).toBe(false);
        expect(markedText(s!)).toContain(`${pad}«東京»${pad}`);
      }
    }
  });
});

describe('a snippet of a stored result without spaces around its match', () => {
  const graphemes = new Intl.Segmenter('en', { granularity: 'grapheme' });
  const breaks = (seg: Intl.Segmenter, text: string): Set<number> => new Set([...[...seg.segment(text)].map((s) => s.index), text.length]);
  /** Stores `content` as a job of its own, searches it for `q` and says where its snippet was cut (without "… " and " …"). */
  function cut(jobId: string, content: string, q: string): { start: number; end: number; text: string } {
    storeJob(jobId, [{ url: `https://posts.test/${jobId}`, title: 'Post', content }]);
    const hit = searchStore(store, q, { jobId }).hits[0];
    expect(hit, `${jobId}: ${q}`).toMatchObject({ field: 'body', line: 1 });
    const text = hit!.snippet.replace(/^… /, '').replace(/ …$/, '');
    const start = content.indexOf(text);
    expect(start, `${jobId}: ${text}`).toBeGreaterThanOrEqual(0);
    return { start, end: start + text.length, text };
  }

  it('starts and ends on whole characters: no lone vowel sign, half a flag or part of a family emoji', () => {
    const family = '\u{1F468}\u200D\u{1F469}\u200D\u{1F467}\u200D\u{1F466}';
    // Thai writes words without spaces, and its vowels and tone marks combine with the letter before.
    const thai = 'ที่นี่มีน้ำใสและปลาเยอะ';
    const rows: [string, (pad: number) => string][] = [
      ['quokka', (pad) => `${'x'.repeat(pad)}${family.repeat(40)}quokka${family.repeat(60)}`],
      ['quokka', (pad) => `${'x'.repeat(pad)}${'🇫🇷'.repeat(45)}quokka${'🇩🇪'.repeat(90)}`],
      ['กิน', (pad) => `${'ก'.repeat(pad)}${thai.repeat(6)}กิน${thai.repeat(12)}`],
    ];
    // The window falls at every place of a cluster as the padding before it grows.
    for (let pad = 0; pad < 12; pad++) {
      rows.forEach(([q, row], i) => {
        const content = row(pad);
        const c = cut(`row-${i}-${pad}`, content, q);
        const at = breaks(graphemes, content);
        expect(at.has(c.start) && at.has(c.end), `${i}/${pad}: ${JSON.stringify(c.text.slice(0, 3))}…${JSON.stringify(c.text.slice(-3))}`).toBe(true);
      });
    }
  });

  it('starts and ends on a word of Thai, as the index cuts them', () => {
    const sentence = 'วันหยุดเราไปเที่ยวทะเลกับเพื่อนหลายคน';
    const content = `${sentence.repeat(5)}ฉันกินข้าวที่บ้าน${sentence.repeat(10)}`;
    const c = cut('thai', content, 'กินข้าว');
    const at = breaks(new Intl.Segmenter('th', { granularity: 'word' }), content);
    expect(at.has(c.start) && at.has(c.end), `${JSON.stringify(c.text.slice(0, 4))}…${JSON.stringify(c.text.slice(-4))}`).toBe(true);
    expect(c.text).toContain('ฉันกินข้าวที่บ้าน');
  });
});

describe('a Latin word written against Chinese or Japanese', () => {
  it('is found in the text and cited by its line, not "in the url"', () => {
    storeJob('mixed', [
      { url: 'https://blog.test/kindle', title: 'ショートカットキー', content: '設定\nパスワード管理ソフトKeePassの起動キー\n楽天koboにはアプリがあります' },
      { url: 'https://docs.test/manual', title: '手册', content: '第一章\n教师可以使用Veyon的功能' },
    ]);
    const hit = (q: string) => searchStore(store, q).hits[0];
    expect(hit('keepass')).toMatchObject({ idx: 0, field: 'body', line: 2 });
    const kp = hit('keepass')!;
    expect(markedText({ text: kp.snippet, marks: kp.marks })).toBe('設定 パスワード管理ソフト«KeePass»の起動キー 楽天koboにはアプリがあります');
    expect(hit('kobo')).toMatchObject({ idx: 0, field: 'body', line: 3 });
    expect(hit('Veyon')).toMatchObject({ idx: 1, field: 'body', line: 2 });
  });
  it('a prefix marks only what the index matched: a CJK character is a word of its own', () => {
    const s = makeSnippet('19 教学与学习 HowTo\nDebian手册', [{ text: '教', prefix: true }, { text: 'Debian', prefix: true }]);
    expect(markedText(s!)).toBe('19 «教»学与学习 HowTo «Debian»手册');
  });
});

describe('Export hits', () => {
  const hits: SearchHit[] = [
    { jobId: 'j1', idx: 0, url: 'https://r.test/a', title: 'Report *2023*', score: 2.5, field: 'body', snippet: 'so net revenue rose', marks: [[3, 14]], line: 4, page: 2, sameIn: [{ jobId: 'j0', idx: 2 }] },
    { jobId: 'j1', idx: 4, url: 'https://r.test/b', title: '=HYPERLINK("x")', score: 1, field: 'title', snippet: 'net', marks: [[0, 3]] },
  ];
  it('writes Markdown with the matches in bold and a citation per hit', () => {
    const md = hitsMarkdown({ query: 'net revenue', jobId: 'j1', hits, at: 0 });
    expect(md).toContain('# Search: net revenue\n\n2 hits in job j1, best first (1970-01-01T00:00:00.000Z).');
    expect(md).toContain('## 1. Report \\*2023\\*\n\n> so **net revenue** rose\n\n<https://r.test/a> — job j1, target #1, line 4, page 2, also in job j0 #3');
    expect(md).toContain('— job j1, target #5, in the title');
  });
  it("writes a title or snippet with a bidi override without it, so the heading and the quote do not read backwards", () => {
    const spoof: SearchHit = { jobId: 'j1', idx: 0, url: 'https://r.test/a', title: 'Invoice \u202Efdp.exe', score: 1, field: 'body', snippet: 'pay \u202Ethe net total', marks: [[9, 12]], line: 2 };
    const md = hitsMarkdown({ query: 'net', hits: [spoof], at: 0 });
    expect(md).toContain('## 1. Invoice fdp.exe\n\n> pay the **net** total\n');
    expect(md).not.toMatch(/[\u202a-\u202e\u2066-\u2069]/);
  });
  it('writes CSV with a BOM, CRLF, «marks», and formula-looking cells neutralised', () => {
    const lines = hitsCsv({ query: 'net', hits, at: 0 }).split('\r\n');
    expect(lines[0]).toBe('\uFEFFrank,job,target,url,title,field,line,page,score,snippet,also_in');
    expect(lines[1]).toBe('1,j1,1,https://r.test/a,Report *2023*,body,4,2,2.500,so «net revenue» rose,job j0 #3');
    expect(lines[2]).toBe(`2,j1,5,https://r.test/b,"'=HYPERLINK(""x"")",title,,,1.000,«net»,`);
  });
});

describe('scores as people read them', () => {
  it('keep their digits below 1, where BM25 puts a word nearly every result holds', () => {
    expect(formatScore(2.5, 3)).toBe('2.500');
    expect(formatScore(0.000012345, 2)).toBe('0.000012');
    expect(formatScore(0.5, 2)).toBe('0.5');
    expect(formatScore(0, 2)).toBe('0.00');
  });
});

describe('what search reads of a result in markup', () => {
  const html = (content: string) => ({ content, meta: { kind: 'html' } });

  it('a page in mode raw or html: its text, line for line, entities decoded', () => {
    const page = html(
      '<html><head><script>\nvar a = "<p>secret</p>";\n</script><style>.x { }</style></head>\n<body><a\n href="/hidden-word">Link</a> one &amp; two&#10;three<!-- a\ncomment --> four</body>\n</html>',
    );
    const text = searchableText(page, 'raw');
    expect(text.split('\n')).toHaveLength(page.content.split('\n').length);
    expect(text).not.toMatch(/secret|hidden|comment|<|>/);
    expect(text.replace(/\s+/g, ' ').trim()).toBe('Link one & two three four');
    // The words stay on the lines they are on in the stored result.
    expect(text.split('\n')[4]).toContain('Link');
    expect(text.split('\n')[5]).toContain('four');
    expect(searchableText(page, 'html')).toBe(text);
  });

  // A hang guard, not a timing: milliseconds each; the regex before read to the end of the page from every unclosed start (6.6 s for <script).
  it('reads a stored page of unclosed <script, <style, <svg and CDATA starts in one pass', { timeout: 20_000 }, () => {
    for (const start of ['<script ', '<style ', '<svg ', '<textarea ', '<![CDATA[']) {
      const text = searchableText(html(`<p>kept</p>${start.repeat(40_000)}`), 'raw');
      expect(text.trim().startsWith('kept'), start).toBe(true);
    }
  });

  it('end tags in any case end their element', () => {
    const page = html('<p>one</p><SCRIPT>var s = "secret";</Script ><p>two</p><Style>.hidden{}</STYLE><p>three</p><script>"</scrip" + "t>"</script><p>four</p>');
    expect(searchableText(page, 'raw').replace(/\s+/g, ' ').trim()).toBe('one two three four');
  });

  it('a tag whose quoted attribute holds a > ends at its own >, as a browser reads it', () => {
    // An embed's title held a link's markup; Ask's best passage for a question was `View in editor" src="…png">`.
    const page = html(`<p>before</p><iframe title="<a href='https://x.test/q?a=1'>View in editor</a>" src="https://x.test/plot.png"></iframe><p>after, it's "quoted" > there</p><img alt='1 > 0'>`);
    expect(searchableText(page, 'html').replace(/\s+/g, ' ').trim()).toBe('before after, it\'s "quoted" > there');
  });

  it('an unclosed comment or tag hides the rest, as a browser would; a lone < is text', () => {
    expect(searchableText(html('<p>kept</p><!-- open\nto the end'), 'raw').trim()).toBe('kept');
    expect(searchableText(html('<p>a < b and 3<4</p>'), 'raw').trim()).toBe('a < b and 3<4');
  });

  it('everything else as stored: markdown and text of a page, a JSON or text document in mode raw', () => {
    for (const mode of [undefined, 'markdown', 'text'] as const) expect(searchableText(html('<b>kept</b> as is'), mode)).toBe('<b>kept</b> as is');
    expect(searchableText({ content: '{"a":"<b>"}', meta: { kind: 'json' } }, 'raw')).toBe('{"a":"<b>"}');
    expect(searchableText(undefined, 'raw')).toBe('');
  });

  it('reads no picture written into the page as a data: URI, in Markdown or in markup', () => {
    const svg = "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' width='10'%3E%3C/svg%3E";
    const md = `Tide tables\n![logo](<${svg}>) weekly\n![dot](data:image/png;base64,iVBORw0KGgoAAAANSUhEUg==) soundings`;
    const text = searchableText(html(md), 'markdown');
    expect(text).not.toMatch(/w3|svg|base64|iVBOR/);
    expect(text.split('\n')).toEqual(['Tide tables', '![logo]() weekly', '![dot]() soundings']);
    expect(searchableText(html(`<p>Tide <img src="${svg.replace(/'/g, '&#39;')}"> tables</p>`), 'raw').replace(/\s+/g, ' ').trim()).toBe('Tide tables');
    // A URL that merely holds the letters is a URL.
    expect(searchableText(html('see https://example.org/data:x and metadata:1'), 'markdown')).toBe('see https://example.org/data:x and metadata:1');
  });
});

describe('the same list run again', () => {
  const report = (n: number, content = `Report ${n}: the harbour tolls rose again.`): Doc => ({ url: `https://reports.test/${n}`, title: `Report ${n}`, content });

  it('is one hit per result every run stored alike, the newest job’s, with the others under it', () => {
    storeJob('old', [report(1), report(2), report(3)], 60_000, 1_000);
    storeJob('new', [report(1), report(2), report(3)], 60_000, 3_000);
    storeJob('mid', [report(1), report(2), report(3)], 60_000, 2_000);
    const { hits } = searchStore(store, 'tolls', { limit: 3 });
    expect(ids(hits).sort()).toEqual(['new:0', 'new:1', 'new:2']);
    for (const h of hits) {
      expect(h.sameIn).toEqual([
        { jobId: 'mid', idx: h.idx },
        { jobId: 'old', idx: h.idx },
      ]);
    }
    // One job's own results are never folded into each other, and a job's search has no copies.
    expect(searchStore(store, 'tolls', { jobId: 'old' }).hits.map((h) => h.sameIn)).toEqual([undefined, undefined, undefined]);
  });

  it('keeps a result that changed since, and the same URL in one job twice, as hits of their own', () => {
    storeJob('old', [report(1), report(1)], 60_000, 1_000);
    storeJob('new', [report(1, 'Report 1: the harbour tolls fell at last.')], 60_000, 2_000);
    const { hits } = searchStore(store, 'tolls');
    expect(ids(hits).sort()).toEqual(['new:0', 'old:0', 'old:1']);
    expect(hits.every((h) => h.sameIn === undefined)).toBe(true);
  });
});

describe('a compound written with a hyphen or without', () => {
  const COMPOUNDS: Doc[] = [
    { url: 'https://mail.test/hyphen', title: 'Contact', content: 'Send us an e-mail.\nWe co-operate with schools on-line.' },
    { url: 'https://mail.test/joined', title: 'Support', content: 'Write an email to the desk.\nThe desk will cooperate online.' },
    { url: 'https://mail.test/prose', title: 'Diary', content: 'From day to day the e mail came.\nWe went to day school.' },
    { url: 'https://mail.test/old', title: 'Letters', content: 'It is warm to-day.\nThe e-mails piled up.' },
    { url: 'https://mail.test/re', title: 'Bottles', content: 'Re-use every jar.' },
  ];
  beforeEach(() => storeJob('c', COMPOUNDS));
  /** Each hit of a search in job `job`, in target order: its target and the words marked in its snippet. */
  const marked = (q: string, job = 'c'): [number, string[]][] => markedHits(job, q).map(([idx, text]) => [idx, Array.from(text.matchAll(/«(.*?)»/g), (m) => m[1] as string)]);

  it('finds either spelling by the other, marked as written, and no prose for a word typed joined', () => {
    expect(marked('email')).toEqual([
      [0, ['e-mail']],
      [1, ['email']],
      [3, ['e-mails']],
    ]);
    // Typed with its hyphen it finds the phrase it found before ("e mail") and the joined spelling.
    expect(marked('e-mail')).toEqual([
      [0, ['e-mail']],
      [1, ['email']],
      [2, ['e mail']],
      [3, ['e-mails']],
    ]);
    expect(marked('cooperate').map(([i]) => i)).toEqual([0, 1]);
    expect(marked('co-operate').map(([i]) => i)).toEqual([0, 1]);
    expect(marked('online')).toEqual([
      [0, ['on-line']],
      [1, ['online']],
    ]);
    expect(marked('reuse')).toEqual([[4, ['Re-use']]]);
    expect(marked('re-use').map(([i]) => i)).toEqual([4]);
    // "to day" in prose is no today; to-day is.
    expect(marked('today')).toEqual([[3, ['to-day']]]);
    expect(marked('"today"')).toEqual([[3, ['to-day']]]);
  });

  it('keeps a phrase a phrase: the joined spelling is no neighbour of the words around the compound', () => {
    expect(marked('"e-mail to the desk"')).toEqual([[1, ['email to the desk']]]);
    expect(marked('"an e-mail"')).toEqual([
      [0, ['an e-mail']],
      [1, ['an email']],
    ]);
    // The joined spellings stand after the text's last word, apart from it and from each other.
    expect(marked('"on line email"')).toEqual([]);
    expect(marked('"email cooperate"')).toEqual([]);
  });

  it('finds a compound of three parts or more written with its hyphens, with some, or as one word', () => {
    storeJob('c3', [
      { url: 'https://art.test/hyphens', title: 'Lab', content: 'A state-of-the-art lab.' },
      { url: 'https://art.test/joined', title: 'Shop', content: 'Our stateoftheart shop.' },
      { url: 'https://art.test/spaced', title: 'Museum', content: 'The state of the art museum.' },
      { url: 'https://art.test/address', title: 'Form', content: 'Type your email-address here.' },
      { url: 'https://art.test/apart', title: 'Notes', content: 'The state of affairs in art.' },
    ]);
    const marks = (q: string): [number, string[]][] => marked(q, 'c3');
    expect(marks('state-of-the-art')).toEqual([
      [0, ['state-of-the-art']],
      [1, ['stateoftheart']],
      [2, ['state of the art']],
    ]);
    expect(marks('e-mail-address')).toEqual([[3, ['email-address']]]);
    expect(marks('"a state-of-the-art lab"').map(([i]) => i)).toEqual([0]);
    expect(marks('"our state-of-the-art shop"').map(([i]) => i)).toEqual([1]);
    // Searched as plain words (an open bracket), as the syntax reads it.
    expect(marks('state-of-the-art (').map(([i]) => i)).toEqual([0, 1, 2]);
    // Typed as one word, it finds the compound written with its hyphens (before, only the one written so), and a run of its parts too.
    expect(marks('stateoftheart')).toEqual([
      [0, ['state-of-the-art']],
      [1, ['stateoftheart']],
    ]);
    expect(marks('emailaddress')).toEqual([[3, ['email-address']]]);
  });

  it("finds a name or word with an apostrophe before three letters typed without it, and the other way round; a contraction stays two words", () => {
    storeJob('ap', [
      { url: 'https://names.test/curly', title: 'Letters', content: 'Dear Mr O’Brien, thank you.' },
      { url: 'https://names.test/joined', title: 'Post', content: 'OBrien replied.' },
      { url: 'https://names.test/french', title: 'Livre', content: "Le livre de l'homme." },
      { url: 'https://names.test/contraction', title: 'Diary', content: 'It’s late.' },
      { url: 'https://names.test/possessive', title: 'Notes', content: 'The dog wagged its tail.' },
    ]);
    const marks = (q: string): [number, string[]][] => marked(q, 'ap');
    // Before, OBrien found only the page writing OBrien, and O'Brien only those writing it so.
    expect(marks('OBrien')).toEqual([
      [0, ['O’Brien']],
      [1, ['OBrien']],
    ]);
    expect(marks("O'Brien").map(([i]) => i)).toEqual([0, 1]);
    expect(marks('lhomme')).toEqual([[2, ["l'homme"]]]);
    expect(marks('its').map(([i]) => i)).toEqual([4]);
  });

  it('reads a compound or a word with an apostrophe in a query searched as plain words as the syntax reads it', () => {
    storeJob('p', [
      { url: 'https://plain.test/joined', title: 'Support', content: 'Write an email to the desk.' },
      { url: 'https://plain.test/apart', title: 'Post', content: 'An e-mail came.\nThe mail van is here.' },
      { url: 'https://plain.test/its', title: 'Diary', content: 'It is what it is, said the cat.' },
      { url: 'https://plain.test/apostrophe', title: 'Letters', content: 'It’s here.' },
    ]);
    for (const typed of ['e-mail', 'it’s', "it's"]) expect(parseQuery(`${typed} (`)?.match, typed).toBe(parseQuery(typed)?.match);
    expect(parseQuery('e-mail (')?.plain).toBe(true);
    expect(ids(searchStore(store, 'e-mail (', { jobId: 'p' }).hits).sort()).toEqual(['p:0', 'p:1']);
    // Read as it and a lone s, it's found every page with "it" in it.
    expect(ids(searchStore(store, "it's (", { jobId: 'p' }).hits)).toEqual(['p:3']);
  });

  it('writes a typed compound as its phrase or its joined spelling; numbers alone stay one phrase', () => {
    expect(parseQuery('e-mail')?.match).toBe('( "e-mail" OR "email" OR "emails" OR "emailed" OR "emailing" )');
    // The forms are its last word's: known's, as "known" typed bare has them.
    expect(parseQuery('well-known -5')?.match).toBe(`( "well-known" OR ${englishForms('known').map((f) => `"well${f}"`).join(' OR ')} ) NOT "5"`);
    expect(parseQuery('covid-19')?.match).toBe('( "covid-19" OR "covid19" )');
    expect(parseQuery('"e-mail address"')?.match).toBe('( "e-mail address" OR "email address" )');
    expect(parseQuery('2021-2022')?.match).toBe('"2021-2022"');
  });
});
