/**
 * What a user gets from an article page in markdown and text mode, through the real fetcher
 * against a loopback server: a countdown's numbers as the page shows them, a quotation marked
 * as one, a data table's rows on one line each, a roundup's linked headings, no backslash
 * a renderer does not need.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createFetcher, type Fetcher } from '../../src/main/fetch';
import { fixedResolver, startServer, type TestServer } from '../helpers/fetch-server';

const PAGE = `<!doctype html><html lang="en"><head><title>Three harbours worth the trip</title></head><body>
<header><a href="/">The Harbour Times</a></header>
<main><article><h1>Three harbours worth the trip</h1>
<p>We sailed into every harbour on the coast this summer and ranked them by shelter, water and the welcome at the quay.</p>
<ol reversed><li>Old Mill, for its shelter from the west</li><li>Quay Town, for its fuel berth</li><li>Port Estuary, for its welcome</li></ol>
<blockquote><p>The best harbour is the one you reach before the storm.</p><p>Every skipper we met</p></blockquote>
<h3><a href="https://charts.example/port-estuary">Port Estuary</a></h3>
<p><b>1. Arrive</b> on the flood; the bar has two metres at half tide and the pilots answer on channel 12 all night.</p>
<table><thead><tr><th>Harbour</th><th>Berth change</th></tr></thead><tbody><tr><td><p>Old Mill</p><p>(north quay)</p></td><td>-2</td></tr></tbody></table>
<p>That is the list for this year; next year we go further north along the coast and into the fjords.</p>
</article></main><footer><p>© The Harbour Times</p></footer></body></html>`;

// 2 KB of a picture's bytes pasted into the page, a print button and a table of crews by club.
const CHART = `data:image/png;base64,${'iVBORw0KGgoAAAANSUhEUgAA'.repeat(90)}`;
const RESULTS = `<!doctype html><html lang="en"><head><title>Autumn regatta results</title></head><body>
<main><article><h1>Autumn regatta results</h1>
<p>Four crews from two clubs sailed the autumn regatta in a stiff westerly; the results are below, crew by crew.</p>
<p>The finishing times: <img src="${CHART}" alt="Chart of the finishing times">; <a href="JavaScript:window.print()">print the results</a> to pin them up at the club house.</p>
<table><thead><tr><th>Club</th><th>Crew</th><th>Place</th></tr></thead><tbody>
<tr><td rowspan="2">North</td><td>Gig</td><td>1</td></tr><tr><td>Skiff</td><td>3</td></tr>
<tr><td>South</td><td>Gig</td><td>2</td></tr></tbody></table>
<p>The spring regatta is in April; entries open in January at the club house and on the club's pages.</p>
</article></main></body></html>`;

// Chinese and Japanese as authors and Markdown or reST sources wrap them: a line may end
// inside a word (交通|拥堵, 忘れ|ずに), also at a link's or an emphasis's edge. Korean and
// English lines wrapped the same way keep their spaces.
const WRAPPED = `<!doctype html><html lang="zh"><head><meta charset="utf-8"><title>城市交通
新闻</title></head><body><main><article><h1>城市交通新闻</h1>
<p>北京市今天发布了新的<a href="/rules">交通规定</a>
。新规定将于下个月
  开始实施。据报道，这项规定旨在缓解城市<b>交通</b>
拥堵问题。市民对此反应不一，专家表示效果还需要时间来检验。</p>
<p>週末は全国的に天気が崩れる見込みです。傘を忘れ
ずにお持ちください。気象庁によると、来週は気温が平年より
高くなる予想です。</p>
<p>서울시는 오늘 새로운 교통
정책을 발표했습니다. The English summary
follows on the next line, with its words apart.</p>
<pre>代码块
保持原样</pre>
</article></main></body></html>`;

// A page that names no title: no <title>, no og:title, its headline its one <h1>.
const UNTITLED = `<!doctype html><html lang="en"><head><meta charset="utf-8"></head><body>
<header><a href="/">Harbour Notes</a></header><main><article><h1>Tides</h1>
<p>The estuary fills twice a day, and the pilots who bring ships up the channel read the water as closely as the charts.</p>
<p>The sandbanks shift with every winter storm, so last year's chart is a guide to where the channel was, not where it is.</p>
<h2>Reading the bar</h2>
<p>At half tide the bar has two metres over it, and the pilots answer on channel 12 all night for anyone who asks.</p>
</article></main></body></html>`;

// Emphasis inside emphasis of its kind, empty: an icon's <i> in a note's <em>, an editor's
// leftover <b> in a label's <b>. Bold ending in a footnote's "*", bold before a <span>
// starting with emphasis, and a bold label before an anchor's empty link.
const NOTES = `<!doctype html><html lang="en"><head><title>Tide tables for the estuary</title></head><body>
<main><article><h1>Tide tables for the estuary</h1>
<p>The estuary fills twice a day, and the pilots who bring ships up the channel read the water as closely as the charts.</p>
<p><em><i class="icon-info"></i>Note: the tables below are for spring tides only.</em></p>
<p>The sandbanks shift with every winter storm, so last year's chart is a guide to where the channel was, not where it is.</p>
<p><b><b></b>Warning:</b> check the local almanac before you sail.</p>
<p><strong>Day ticket £12 * </strong>for the tide tables' boat trip, children half price.</p>
<p><b>Tip:</b><span><em>Neap</em>s are the gentler tides, a week after the springs.</span></p>
<p><b>Note:</b><a id="note-1"></a>Neaps come a week after the springs, when the moon is at a right angle to the sun.</p>
</article></main></body></html>`;

// A feed whose entry links on to further reading as a card does, the link's title and summary
// two line breaks apart (a feed's entries are not read by Readability, which makes paragraphs of
// such breaks).
const CARDS = `<?xml version="1.0" encoding="UTF-8"?><rss version="2.0"><channel><title>Pilots' notes</title><link>/</link>
<item><title>Reading the estuary</title><link>/reading</link><description><![CDATA[<p>The sandbanks shift with every winter storm.</p>
<p>Further reading: <a href="/spring-tides">Spring tides<br><br>Why the water climbs higher twice a month</a></p>]]></description></item>
</channel></rss>`;

const caller = { name: 'test' };
let srv: TestServer;
let f: Fetcher;

beforeAll(async () => {
  srv = await startServer({
    '/harbours': (_q, r) => r.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(PAGE),
    '/results': (_q, r) => r.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(RESULTS),
    '/untitled': (_q, r) => r.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(UNTITLED),
    '/wrapped': (_q, r) => r.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(WRAPPED),
    '/notes': (_q, r) => r.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(NOTES),
    '/cards': (_q, r) => r.writeHead(200, { 'content-type': 'application/rss+xml' }).end(CARDS),
  });
  f = createFetcher({ allowPrivate: true }, { lookup: fixedResolver({}) });
});
afterAll(async () => {
  await f.close();
  await srv.close();
});

const get = async (mode: 'markdown' | 'text', path = '/harbours'): Promise<string> =>
  (await f.fetchTarget(new AbortController().signal, caller, { url: `${srv.origin}${path}`, options: { mode } })).content;

describe('an article page fetched', () => {
  test('as Markdown: the countdown numbered as shown, the linked heading kept, no backslash inside a line', async () => {
    const md = await get('markdown');
    expect(md).toContain('\n\n3.  Old Mill, for its shelter from the west\n2)  Quay Town, for its fuel berth\n1.  Port Estuary, for its welcome\n\n');
    expect(md).toContain('\n\n> The best harbour is the one you reach before the storm.\n>\n> Every skipper we met\n\n');
    expect(md).toContain(`\n\n### [Port Estuary](https://charts.example/port-estuary)\n\n**1. Arrive** on the flood;`);
    expect(md).toMatch(/^\| Old Mill<br><br>\(north quay\) \| -2 +\|$/m);
  });

  test('as text: the countdown numbered, the quote marked "> ", the table row on one line', async () => {
    const t = await get('text');
    expect(t).toContain('\n\n3. Old Mill, for its shelter from the west\n2. Quay Town, for its fuel berth\n1. Port Estuary, for its welcome\n\n');
    expect(t).toContain('\n\n> The best harbour is the one you reach before the storm.\n>\n> Every skipper we met\n\nPort Estuary\n\n1. Arrive on the flood;');
    expect(t).toContain('\nHarbour\tBerth change\nOld Mill (north quay)\t-2\n');
  });
});

describe('a page with empty emphasis inside emphasis of its kind, fetched as Markdown', () => {
  test('keeps the words after it, emphasized (the note and "Warning:" were missing from the file)', async () => {
    const md = await get('markdown', '/notes');
    expect(md).toContain('\n\n_Note: the tables below are for spring tides only._\n\n');
    expect(md).toContain('\n\n**Warning:** check the local almanac before you sail.');
  });
});

describe('a page with bold ending in a lone "*", and bold before emphasis in a <span>, fetched as Markdown', () => {
  test('keeps both bold (their "**" showed, in a run of three with the "*" beside)', async () => {
    const md = await get('markdown', '/notes');
    expect(md).toContain("\n\n**Day ticket £12 \\*** for the tide tables' boat trip");
    expect(md).toContain('\n\n__Tip:__*Neap*s are the gentler tides');
  });

  test('keeps a bold label before an anchor\'s empty link (its "**" showed, the word after it unseen)', async () => {
    const md = await get('markdown', '/notes');
    expect(md).toContain('\n\n**Note**:Neaps come a week after the springs');
  });
});

describe('a feed whose entry holds a link with two line breaks in a row, fetched as Markdown', () => {
  test('keeps the link, its summary on a line of its own (the blank line showed its "[" and "](url)" as text)', async () => {
    const md = await get('markdown', '/cards');
    expect(md).toContain(`\n\nFurther reading: [Spring tides  \nWhy the water climbs higher twice a month](${srv.origin}/spring-tides)`);
  });
});

describe('a page that names no title, fetched as Markdown', () => {
  test('is titled by its one <h1>, which heads the file as "# Tides" (it was "## Tides" under no title)', async () => {
    const r = await f.fetchTarget(new AbortController().signal, caller, { url: `${srv.origin}/untitled`, options: {} });
    expect(r.meta?.title).toBe('Tides');
    expect(r.content.startsWith('# Tides\n\nThe estuary fills twice a day')).toBe(true);
    expect(r.content.match(/^#+ .*$/gm)).toEqual(['# Tides', '## Reading the bar']);
  });
});

describe('a results page fetched', () => {
  test('as Markdown: the pasted chart is its alt text, the print button its words, no bytes or script in the file', async () => {
    const md = await get('markdown', '/results');
    expect(md).toContain('\n\nThe finishing times: Chart of the finishing times; print the results to pin them up at the club house.\n\n');
    expect(md).not.toMatch(/data:|base64|script:/i);
  });

  test('as text: the row under a rowspan keeps its columns (its crew was under Club, its place under Crew)', async () => {
    const t = await get('text', '/results');
    expect(t).toContain('\nClub\tCrew\tPlace\nNorth\tGig\t1\n\tSkiff\t3\nSouth\tGig\t2\n');
  });
});

describe('a Chinese and Japanese page whose source lines break inside words', () => {
  const fetchWrapped = async (options: Record<string, string>): Promise<{ content: string; title: unknown }> => {
    const r = await f.fetchTarget(new AbortController().signal, caller, { url: `${srv.origin}/wrapped`, options });
    return { content: r.content, title: r.meta?.title };
  };

  test('reads each paragraph without a space where a line broke between two CJK characters, in text and Markdown', async () => {
    const text = (await fetchWrapped({ mode: 'text' })).content;
    expect(text).toContain('北京市今天发布了新的交通规定。新规定将于下个月开始实施。据报道，这项规定旨在缓解城市交通拥堵问题。');
    expect(text).toContain('傘を忘れずにお持ちください。気象庁によると、来週は気温が平年より高くなる予想です。');
    // Korean sets spaces between words, and so does English: their breaks stay spaces.
    expect(text).toContain('서울시는 오늘 새로운 교통 정책을 발표했습니다. The English summary follows on the next line');
    expect(text).toContain('代码块\n保持原样');
    const { content: md, title } = await fetchWrapped({});
    expect(title).toBe('城市交通新闻');
    expect(md).toContain('北京市今天发布了新的[交通规定](');
    expect(md).toContain(')。新规定将于下个月开始实施。据报道，这项规定旨在缓解城市**交通**拥堵问题。');
    expect(md).toContain('傘を忘れずにお持ちください。');
  });

  test('grep finds a word a line break split in the source', async () => {
    expect((await fetchWrapped({ mode: 'text', grep: '交通拥堵' })).content).toBe('北京市今天发布了新的交通规定。新规定将于下个月开始实施。据报道，这项规定旨在缓解城市交通拥堵问题。市民对此反应不一，专家表示效果还需要时间来检验。');
    expect((await fetchWrapped({ mode: 'text', grep: '忘れずに' })).content).toContain('傘を忘れずに');
  });
});
