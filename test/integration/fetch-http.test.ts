import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { brotliCompressSync, deflateRawSync, deflateSync, gzipSync } from 'node:zlib';
import { readFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { createServer as createHttpServer, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { createServer as createNetServer, type AddressInfo, type Socket } from 'node:net';
import iconv from 'iconv-lite';
import { createFetcher, FetchError, type Fetcher, type FetchSettings } from '../../src/main/fetch';
import type { Result, Target } from '../../src/shared/types';
import { fail, fixedResolver, startServer, type TestServer } from '../helpers/fetch-server';
import { numberedPdf } from '../helpers/fetch-pdf';
import { formatBytes } from '../../src/shared/bytes';

const ARTICLE = `<!doctype html><html lang="en"><head><title>The Tide Report</title>
<meta name="description" content="How tides work">
<meta property="og:title" content="Tides, explained"><meta name="twitter:card" content="summary">
<meta property="article:published_time" content="2024-05-01T10:00:00Z">
<link rel="canonical" href="/tides"><link rel="alternate" type="application/rss+xml" title="Tides feed" href="/feed">
<link rel="alternate" hreflang="fr" href="/fr/tides"><link rel="alternate" type="application/atom+xml" href="/feed"></head><body>
<nav><a href="/">Home</a> <a href="/about">About</a></nav>
<article><h1>The Tide Report</h1>
<p>${'The moon pulls the oceans and the water rises on the near side of the earth. '.repeat(6)}</p>
<p>Tables of high water are printed every year. See <a href="/tables#2024">the tables</a> and <a href="https://tides.example/">the archive</a>.</p>
<table><thead><tr><th>Port</th><th>High water</th></tr></thead><tbody><tr><td>Brest</td><td>06:12</td></tr><tr><td>Dover</td><td>07:40</td></tr></tbody></table>
<p>${'Spring tides come with the full and the new moon, when the sun and moon align. '.repeat(6)}</p>
<p>${'Neap tides are weaker: the sun and the moon pull at right angles to each other. '.repeat(6)}</p>
</article><footer>© tides</footer></body></html>`;

// Structures a reader keeps: a formula left as TeX for MathJax, a figure's caption beside an
// alt, a table laying the page out, a nested list.
const STRUCTURES = `<!doctype html><html><head><title>Gauges</title></head><body><article><h1>Gauges</h1>
<p>${'A tide gauge reads the height of the water every six minutes, day and night. '.repeat(4)}</p>
<p>The height is <script type="math/tex">h(t) = a \\cos(\\omega t)</script> at the gauge.</p>
<figure><img src="/gauge.jpg" alt="A tide gauge"><figcaption>Figure 1: The gauge at Brest.</figcaption></figure>
<table role="presentation"><tr><td><p>${'Gauges are checked by hand each spring against a staff fixed to the quay. '.repeat(3)}</p></td><td><ul><li>staff</li><li>level</li></ul></td></tr></table>
<ul><li>Brest<ul><li>since 1711</li></ul></li><li>Dover</li></ul>
</article></body></html>`;

const MINIFIED = ARTICLE.replace(/\n/g, '').replace(/<\/?(?:html|head|body)\b[^>]*>/g, '').replace('<!doctype html>', '<!doctype html><html lang=en>');

let srv: TestServer;
let f: Fetcher;
const target = (path: string, options: Target['options'] = {}): Target => ({ url: `${srv.origin}${path}`, options });
const caller = { name: 'test' };
const get = (path: string, options: Target['options'] = {}): Promise<Result> => f.fetchTarget(new AbortController().signal, caller, target(path, options));

function fetcher(s: Partial<FetchSettings> = {}, table: Record<string, string[]> = {}): Fetcher {
  return createFetcher({ allowPrivate: true, ...s }, { lookup: fixedResolver(table) });
}

/** One long paragraph, as a PDF's or a text file's often is, with a sentence of abbreviations and a decimal where a passage ends. */
const HARBOUR = (i: number): string => `Sentence ${i} tells of the harbour and its long history of trade with many ports along the coast. `;
const ORDER = 'The order is valued at $8.8 billion by the U.S. Department of Commerce and Mr. Smith in Washington, D.C. on Monday.';
const MINUTES = `Intro ends here. ${[0, 1, 2, 3, 4].map(HARBOUR).join('')}${ORDER} ${[5, 6, 7, 8, 9, 10, 11].map(HARBOUR).join('')}`.trim();

/** Bangkok in Thai, written as Thai is, without spaces between words: its size, its weather, its traffic. */
const BANGKOK = [
  'กรุงเทพมหานครเป็นเมืองหลวงของประเทศไทย มีประชากรมากกว่าสิบล้านคน',
  'วันนี้อากาศร้อนมาก อุณหภูมิสูงสุดสามสิบเจ็ดองศา กรมอุตุนิยมวิทยาเตือนให้ดื่มน้ำมากๆ',
  'การจราจรในกรุงเทพติดขัดมากในช่วงเย็น โดยเฉพาะบริเวณถนนสุขุมวิท',
];

/** Delhi in Hindi: sentences ended by the danda (।), in one paragraph of 1,600 characters. */
const DELHI = [
  'दिल्ली भारत की राजधानी है और यहाँ दो करोड़ से अधिक लोग रहते हैं जो देश के हर हिस्से से आए हैं',
  'शहर में कई ऐतिहासिक इमारतें हैं जिन्हें देखने के लिए हर साल लाखों पर्यटक आते हैं',
  'आज दिल्ली में मौसम साफ रहेगा और अधिकतम तापमान पैंतीस डिग्री रहने की संभावना है',
  'लाल किला और कुतुब मीनार यहाँ के प्रमुख पर्यटन स्थल हैं जो मुगल काल में बनाए गए थे',
  'यमुना नदी शहर के पूर्वी हिस्से से होकर बहती है और इसका पानी बहुत प्रदूषित हो चुका है',
  'दिल्ली मेट्रो देश की सबसे बड़ी मेट्रो प्रणालियों में से एक है और रोज़ लाखों लोग इससे यात्रा करते हैं',
];

beforeAll(async () => {
  srv = await startServer({
    '/delhi.txt': (_q, r) => r.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' }).end(`${[...DELHI, ...DELHI, ...DELHI].join('। ')}।\n`),
    '/bangkok.txt': (_q, r) => r.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' }).end(BANGKOK.join('\n\n')),
    '/article': (_q, r) => r.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(ARTICLE),
    '/doc.pdf': (_q, r) => r.writeHead(200, { 'content-type': 'application/pdf' }).end(numberedPdf(4, 'Four Pages')),
    '/data.json': (_q, r) => r.writeHead(200, { 'content-type': 'application/json' }).end('{"items":[{"name":"a","n":1},{"name":"b","n":2}],"next":"https://api.example/p2"}'),
    '/notes.txt': (_q, r) => r.writeHead(200, { 'content-type': 'text/plain' }).end('alpha line\nbeta line\ngamma https://x.example/doc\ndelta\nepsilon alpha\n'),
    // The article minified as html-minifier's removeOptionalTags leaves it: no <head>, <body>, </html>.
    '/structures': (_q, r) => r.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(STRUCTURES),
    '/minified': (_q, r) => r.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(MINIFIED),
    '/empty.html': (_q, r) => r.writeHead(200, { 'content-type': 'text/html' }).end(),
    '/minutes.txt': (_q, r) => r.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' }).end(MINUTES),
    '/shy': (_q, r) =>
      r.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(`<html><head><title>Schiffe</title></head><body><article><h1>Schiffe</h1>${'<p>Die Donau&shy;dampf&shy;schiff&shy;fahrts&shy;gesellschaft fuhr jeden Sommer auf der Donau, von Passau bis zum Schwarzen Meer, mit Dampfern.</p>'.repeat(3)}</article></body></html>`),
    '/empty.json': (_q, r) => r.writeHead(200, { 'content-type': 'application/json' }).end('\n'),
    '/no-content': (_q, r) => r.writeHead(204).end(),
    // A feed sent as a page, as many servers send them.
    '/feed': (_q, r) => r.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(readFileSync(path.join(__dirname, '../fixtures/feeds/wordpress-rss2.xml'))),
    // As APIs send them: a 64-bit id, a decimal with its trailing zero, a float written 1.0, keys that look like numbers.
    '/ids.json': (_q, r) => r.writeHead(200, { 'content-type': 'application/json' }).end('{"id": 12345678901234567890, "price": 19.90, "rate": 1.0, "huge": 1e999, "b": 1, "2": "two", "1": "one"}'),
  });
  f = fetcher();
});
afterAll(async () => {
  await f.close();
  await srv.close();
});

describe('HTML', () => {
  it('returns the readable article as markdown with a GFM table, and meta', async () => {
    const r = await get('/article');
    // Readability prefers og:title to <title>.
    expect(r.content).toMatch(/^# Tides, explained\n/);
    expect(r.content).toContain('| Port | High water |');
    expect(r.content).toContain('[the tables](' + srv.origin + '/tables#2024)');
    expect(r.content).not.toContain('© tides');
    expect(r.meta).toMatchObject({ url: `${srv.origin}/article`, final_url: `${srv.origin}/article`, status: 200, content_type: 'text/html', title: 'Tides, explained', recovered: false });
    expect(r.meta?.bytes).toBe(Buffer.byteLength(ARTICLE));
    expect(typeof r.meta?.fetched_ms).toBe('number');
  });
  it("keeps a page's structures: a TeX formula, a figure's caption, a layout table's blocks, a nested list", async () => {
    const md = (await get('/structures')).content;
    expect(md).toContain('The height is $h(t) = a \\cos(\\omega t)$ at the gauge.');
    expect(md).toContain(`![A tide gauge](${srv.origin}/gauge.jpg)\n\nFigure 1: The gauge at Brest.`);
    expect(md).toContain('against a staff fixed to the quay.\n\n-   staff\n-   level');
    expect(md).not.toMatch(/<table|joplin|^\|/m);
    const text = (await get('/structures', { mode: 'text' })).content;
    expect(text).toContain('The height is h(t) = a \\cos(\\omega t) at the gauge.');
    expect(text).toContain('• Brest\n  ◦ since 1711\n• Dover');
    expect(text).not.toContain('Figure 1');
  });

  it('returns text without markup and html without the page chrome', async () => {
    const t = await get('/article', { mode: 'text' });
    expect(t.content).toContain('Spring tides come with the full');
    expect(t.content).not.toMatch(/[<>|#]/);
    const h = await get('/article', { mode: 'html' });
    expect(h.content).toContain('<table');
    expect(h.content).not.toContain('<nav');
    // Readability's own wrapper is no part of the page.
    expect(h.content).not.toMatch(/readability-page|<DIV/);
  });
  it('returns raw as the body itself', async () => {
    expect((await get('/article', { mode: 'raw' })).content).toBe(ARTICLE);
  });
  it('returns links absolute, without fragments, deduplicated, one per line', async () => {
    const r = await get('/article', { mode: 'links' });
    expect(r.content.split('\n')).toEqual([`${srv.origin}/`, `${srv.origin}/about`, `${srv.origin}/tables`, 'https://tides.example/']);
  });
  it('returns meta as JSON with description, canonical, language, published time, the feeds it offers, og and twitter', async () => {
    const m = JSON.parse((await get('/article', { mode: 'meta' })).content) as Record<string, unknown>;
    // A feed offered twice is one; a page in another language is no feed.
    expect(m.feeds).toEqual([{ url: `${srv.origin}/feed`, title: 'Tides feed', type: 'application/rss+xml' }]);
    expect(m).toMatchObject({
      title: 'The Tide Report',
      description: 'How tides work',
      canonical: `${srv.origin}/tides`,
      language: 'en',
      published_time: '2024-05-01T10:00:00Z',
      og: { title: 'Tides, explained' },
      twitter: { card: 'summary' },
    });
  });
  it('greps lines with grep -C context separators and counts matches', async () => {
    const r = await get('/article', { mode: 'text', grep: 'tides? come|Neap', context: true });
    expect(r.meta?.matches).toBe(2);
    expect(r.content).toContain('Spring tides');
    const plain = await get('/article', { mode: 'text', grep: 'Dover' });
    expect(plain.content).toBe('Dover\t07:40'.replace('\t', plain.content.includes('\t') ? '\t' : ' '));
  });
  it('reads a page that leaves out its optional tags (no head, body or end tags) as a browser does', async () => {
    expect(MINIFIED).not.toMatch(/<(?:head|body)\b/);
    const [full, minified] = await Promise.all([get('/article', { mode: 'text' }), get('/minified', { mode: 'text' })]);
    expect(minified.content).toContain('Neap tides are weaker');
    expect(minified.content).toBe(full.content);
    expect(minified.meta).toMatchObject({ title: 'Tides, explained', language: 'en' });
    expect(minified.meta?.warnings).toBeUndefined();
    expect((await get('/minified', { mode: 'links' })).content).toBe((await get('/article', { mode: 'links' })).content);
  });
  it('an empty body (an empty page, a blank JSON file, a 204) is ok with the warning empty, not a bug', async () => {
    for (const p of ['/empty.html', '/empty.json', '/no-content']) {
      const r = await get(p);
      expect(r.content.trim(), p).toBe('');
      expect(r.meta?.warnings, p).toEqual(['empty']);
    }
    expect((await get('/empty.html', { mode: 'meta' })).meta?.warnings).toEqual(['empty']);
  });
  it('says pages were ignored on a document that is not a PDF, and returns all of it', async () => {
    for (const p of ['/article', '/data.json', '/notes.txt', '/empty.html']) {
      const whole = await get(p);
      const r = await get(p, { pages: '1-2' });
      expect(r.content, p).toBe(whole.content);
      expect(r.meta?.warnings, p).toEqual([...((whole.meta?.warnings as string[] | undefined) ?? []), 'pages_ignored']);
    }
    expect((await get('/article', { pages: '' })).meta?.warnings).toBeUndefined();
    expect((await get('/doc.pdf', { pages: '2' })).meta?.warnings).toBeUndefined();
  });
  it('finds a word a page wrote with soft hyphens in it (grep)', async () => {
    const r = await get('/shy', { mode: 'text', grep: 'Donaudampfschifffahrt' });
    expect(r.meta?.matches).toBe(3);
  });
  it('answers a question with the best passages in document order', async () => {
    const r = await get('/article', { mode: 'text', question: 'what are neap tides?' });
    expect(r.meta?.passages).toBeGreaterThan(0);
    expect(r.content.split('\n\n')[0]).not.toBe('');
    expect(r.content).toContain('Neap tides are weaker');
  });
  it('answers a question asked in Thai, whose words are written without spaces', async () => {
    // "How many people live in Bangkok?" and "the evening traffic": one "word" each, that no passage held.
    const people = (await get('/bangkok.txt', { question: 'ประชากรในกรุงเทพมีกี่คน' })).content.split('\n\n');
    expect(people[0]).toBe(BANGKOK[0]);
    expect(people).not.toContain(BANGKOK[1]);
    expect((await get('/bangkok.txt', { question: 'การจราจรช่วงเย็น' })).content).toBe(BANGKOK[2]);
  });
  it('cuts a long Hindi paragraph into passages at its sentence ends (।), not mid-sentence', async () => {
    const r = await get('/delhi.txt', { question: 'यमुना नदी का पानी कैसा है?' });
    const passages = r.content.split('\n\n');
    expect(passages.some((p) => p.includes(DELHI[4]!))).toBe(true);
    for (const p of passages) {
      expect(p.endsWith('।')).toBe(true);
      expect(DELHI.some((d) => p.startsWith(d))).toBe(true);
    }
  });
  it('cuts a long paragraph into passages at sentence ends, not after U.S., Mr., D.C. or inside $8.8', async () => {
    const r = await get('/minutes.txt', { question: 'what is the order valued at?', context: true });
    // Before: '… in Washington, D.C.' ended a passage and 'on Monday. Sentence 5 …' began the next.
    const passages = r.content.split('\n\n');
    expect(passages.some((p) => p.includes(ORDER))).toBe(true);
    for (const p of passages) expect(p).toMatch(/^[A-Z].*\.$/s);
  });
});

describe('PDF', () => {
  it('extracts every page as text, with page counts in meta', async () => {
    const r = await get('/doc.pdf');
    expect(r.content).toContain('item1');
    expect(r.content).toContain('item4');
    expect(r.meta).toMatchObject({ content_type: 'application/pdf', pages_total: 4, pages_returned: 4, title: 'Four Pages' });
    // "Page N of 4" heads every page: furniture, dropped from the reading modes, kept by mode raw.
    expect(r.content).not.toContain('Page 1 of 4');
    expect(r.meta).toMatchObject({ pdf: { furniture_removed: 4 } });
    expect((await get('/doc.pdf', { mode: 'raw' })).content).toContain('Page 1 of 4\nThe word for page 1 is item1.');
  });
  it('selects pages', async () => {
    const r = await get('/doc.pdf', { pages: '2,4-' });
    expect(r.content).not.toContain('Page 1 of 4');
    expect(r.content).toContain('Page 2 of 4');
    expect(r.content).toContain('Page 4 of 4');
    expect(r.meta).toMatchObject({ pages_total: 4, pages_returned: 2 });
  });
  it('rejects a bad page selection with 422 and the syntax', async () => {
    const e = await fail(get('/doc.pdf', { pages: '3-1' }));
    expect(e.status).toBe(422);
    expect(e.hint).toContain('1-3,7,10-');
  });
  it('refuses a PDF over the page limit without a selection: 422 "document too long: N pages"', async () => {
    const small = fetcher({ maxPdfPages: 3 });
    try {
      const e = await fail(small.fetchTarget(new AbortController().signal, caller, target('/doc.pdf')));
      expect(e.status).toBe(422);
      expect(e.msg).toBe('document too long: 4 pages');
      expect(e.hint).toMatch(/pages=/);
      const ok = await small.fetchTarget(new AbortController().signal, caller, target('/doc.pdf', { pages: '1-2' }));
      expect(ok.meta?.pages_returned).toBe(2);
    } finally {
      await small.close();
    }
  });
  it('serves html, links, meta, grep and question modes on a PDF', async () => {
    expect((await get('/doc.pdf', { mode: 'html' })).content).toContain('<section data-page="3"><pre>The word for page 3 is item3.');
    expect(JSON.parse((await get('/doc.pdf', { mode: 'meta' })).content)).toMatchObject({ title: 'Four Pages', pages_total: 4 });
    expect((await get('/doc.pdf', { mode: 'links' })).content).toBe('');
    const g = await get('/doc.pdf', { grep: 'item[23]\\b' });
    expect(g.content.split('\n')).toEqual(['The word for page 2 is item2.', 'The word for page 3 is item3.']);
    const q = await get('/doc.pdf', { question: 'item3' });
    expect(q.content).toContain('item3');
    expect(q.content).not.toContain('item1');
  });
});

describe('JSON and text', () => {
  it('pretty-prints JSON, and runs jq with jq semantics', async () => {
    expect((await get('/data.json')).content).toBe(JSON.stringify(JSON.parse('{"items":[{"name":"a","n":1},{"name":"b","n":2}],"next":"https://api.example/p2"}'), null, 2));
    expect((await get('/data.json', { jq: '.items[] | .name' })).content).toBe('"a"\n"b"');
    expect((await get('/data.json', { jq: '[.items[].n] | add' })).content).toBe('3');
    expect((await get('/data.json', { mode: 'links' })).content).toBe('https://api.example/p2');
    expect(JSON.parse((await get('/data.json', { mode: 'meta' })).content)).toEqual({ type: 'object', keys: ['items', 'next'] });
  });
  it('gives a JSON document the title its top level names, in every mode, and none where it names none', async () => {
    const json = (body: string) => (_q: unknown, r: ServerResponse) => r.writeHead(200, { 'content-type': 'application/json' }).end(body);
    srv.route('/t/repo', json('{"id": 1, "name": "sift", "full_name": "example/sift"}'));
    srv.route('/t/story', json('{"name": "ignored when there is a title", "title": "  Harbour seals\\n return "}'));
    srv.route('/t/long', json(`{"headline": "${'word '.repeat(60)}"}`));
    for (const mode of ['markdown', 'raw', 'meta'] as const) expect((await get('/t/repo', { mode })).meta?.title, mode).toBe('sift');
    expect((await get('/t/repo', { jq: '.id' })).meta?.title).toBe('sift');
    expect((await get('/t/story')).meta?.title).toBe('Harbour seals return');
    expect(((await get('/t/long')).meta?.title as string).length).toBe(200);
    expect((await get('/data.json')).meta?.title).toBeUndefined();
    srv.route('/t/list', json('[{"title": "an item, not the document"}]'));
    srv.route('/t/number', json('{"title": 7, "name": ""}'));
    expect((await get('/t/list')).meta?.title).toBeUndefined();
    expect((await get('/t/number')).meta?.title).toBeUndefined();
  });
  it('a plain-text success that only says "not found" is a soft 404; a text that mentions it is text', async () => {
    const text = (body: string) => (_q: unknown, r: ServerResponse) => r.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' }).end(body);
    srv.route('/nf/go', text('404 page not found\n'));
    srv.route('/nf/bare', text('Not Found'));
    srv.route('/nf/sentence', text('The page you requested could not be found.'));
    for (const p of ['/nf/go', '/nf/bare', '/nf/sentence']) expect(await fail(get(p)), p).toMatchObject({ status: 404, code: 'soft404', reason: 'soft404' });
    srv.route('/nf/log', text(`${'GET /a 200\n'.repeat(30)}GET /b 404 Not Found\n`));
    srv.route('/nf/found', text('Found 3 results.'));
    expect((await get('/nf/log')).content).toContain('GET /b 404 Not Found');
    expect((await get('/nf/found')).content).toBe('Found 3 results.');
  });
  it('reads JSON sent as text/html (a PHP script\'s default type) as JSON, so jq runs on it', async () => {
    const php = (body: string) => (_q: unknown, r: ServerResponse) => r.writeHead(200, { 'content-type': 'text/html; charset=UTF-8' }).end(body);
    srv.route('/php/items', php('{"items":[{"name":"a"},{"name":"b"}]}\n'));
    srv.route('/php/list', php(' [1, 2, 3]'));
    srv.route('/php/page', php('[1] A page that starts with a footnote mark, and <b>is</b> HTML.'));
    expect((await get('/php/items')).content).toBe('{\n  "items": [\n    {\n      "name": "a"\n    },\n    {\n      "name": "b"\n    }\n  ]\n}');
    expect((await get('/php/items', { jq: '.items[].name' })).content).toBe('"a"\n"b"');
    expect((await get('/php/list')).meta).toMatchObject({ kind: 'json' });
    expect((await get('/php/page')).meta).toMatchObject({ kind: 'html' });
  });
  it('lays JSON out without changing a number or the order of its keys', async () => {
    const r = await get('/ids.json');
    expect(r.content).toBe('{\n  "id": 12345678901234567890,\n  "price": 19.90,\n  "rate": 1.0,\n  "huge": 1e999,\n  "b": 1,\n  "2": "two",\n  "1": "one"\n}');
    expect((await get('/ids.json', { mode: 'text' })).content).toBe(r.content);
    // Through JSON.parse the id would be 12345678901234567000 and huge null; jq keeps them too.
    expect((await get('/ids.json', { jq: '.id' })).content).toBe('12345678901234567890');
  });
  it('fails a jq compile error with 422 and jq’s own message', async () => {
    const e = await fail(get('/data.json', { jq: '.items[' }));
    expect(e.status).toBe(422);
    expect(e.msg).toBe('jq: syntax error, unexpected end of the program at column 7 ("[")');
  });
  it('fails jq on a non-JSON document with 422 and a hint', async () => {
    const e = await fail(get('/notes.txt', { jq: '.' }));
    expect(e.status).toBe(422);
    expect(e.hint).toMatch(/jq/);
  });
  it('runs jq on JSON sent as text/plain (as raw file hosts serve a .json) and on JSON Lines, and leaves it as text without jq', async () => {
    srv.route('/raw/data.json', (_q, r) => r.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' }).end('\n  {"items":[{"name":"a"},{"name":"b"}]}\n'));
    srv.route('/raw/log.jsonl', (_q, r) => r.writeHead(200, { 'content-type': 'text/plain' }).end('{"n":1}\n{"n":2}\n'));
    expect((await get('/raw/data.json', { jq: '.items[].name' })).content).toBe('"a"\n"b"');
    expect((await get('/raw/log.jsonl', { jq: '.n' })).content).toBe('1\n2');
    // Read without jq, it is the text the server sent, as a browser shows it.
    expect((await get('/raw/data.json')).content).toBe('\n  {"items":[{"name":"a"},{"name":"b"}]}\n');
  });
  it('reads a feed sent as text/html as its entries, not as a page judged thin or a soft 404', async () => {
    const r = await get('/feed');
    expect(r.content).toMatch(/^# Harbour Notes\n\nTides, boats & the people who mend them\n\n## \[Mending nets in the off season\]\(https:\/\/harbour\.example\/2024\/05\/mending-nets\/\)/);
    expect(r.content).toContain(`[last year’s post on knots](${srv.origin}/2023/11/knots/)`);
    expect(r.meta).toMatchObject({ status: 200, content_type: 'text/html', kind: 'text', feed: 'rss', entries: 2, title: 'Harbour Notes' });
    expect(r.meta?.warnings).toBeUndefined();
    const links = await get('/feed', { mode: 'links' });
    expect(links.content.split('\n')).toEqual(['https://harbour.example/2024/05/mending-nets/', 'https://harbour.example/2024/03/spring-tides/']);
  });
  it('returns text as is, greps it, and finds its links', async () => {
    expect((await get('/notes.txt')).content).toBe('alpha line\nbeta line\ngamma https://x.example/doc\ndelta\nepsilon alpha\n');
    const g = await get('/notes.txt', { grep: 'alpha' });
    expect(g.content).toBe('alpha line\nepsilon alpha');
    expect(g.meta?.matches).toBe(2);
    expect((await get('/notes.txt', { mode: 'links' })).content).toBe('https://x.example/doc');
  });
  it('fails an invalid grep expression with 422', async () => {
    expect((await fail(get('/notes.txt', { grep: '(unclosed' }))).status).toBe(422);
  });
});

describe('charsets', () => {
  const body = (buf: Buffer, type: string) => (_q: unknown, r: ServerResponse) => r.writeHead(200, { 'content-type': type }).end(buf);
  it('decodes windows-1252 from the header', async () => {
    srv.route('/cp1252', body(iconv.encode('café – “quoted”', 'windows-1252'), 'text/plain; charset=windows-1252'));
    expect((await get('/cp1252')).content).toBe('café – “quoted”');
  });
  it('decodes Shift_JIS from the header', async () => {
    srv.route('/sjis', body(iconv.encode('日本語のテキスト', 'Shift_JIS'), 'text/plain; charset=Shift_JIS'));
    expect((await get('/sjis')).content).toBe('日本語のテキスト');
  });
  it('decodes UTF-8 with a BOM and drops the BOM', async () => {
    srv.route('/bom', body(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('naïve', 'utf8')]), 'text/plain'));
    expect((await get('/bom')).content).toBe('naïve');
  });
  it('decodes from a meta charset when the header has none', async () => {
    const html = `<html><head><meta charset="windows-1252"><title>Caf\xe9</title></head><body><p>cr\xe8me br\xfbl\xe9e</p></body></html>`;
    srv.route('/meta-cs', body(Buffer.from(html, 'latin1'), 'text/html'));
    const r = await get('/meta-cs', { mode: 'text' });
    expect(r.content).toContain('crème brûlée');
    expect(r.meta?.title).toBe('Café');
    const sj = `<html><head><meta http-equiv="Content-Type" content="text/html; charset=shift_jis"><title>t</title></head><body><p>`;
    srv.route('/meta-sjis', body(Buffer.concat([Buffer.from(sj), iconv.encode('東京の天気', 'Shift_JIS'), Buffer.from('</p></body></html>')]), 'text/html'));
    expect((await get('/meta-sjis', { mode: 'text' })).content).toContain('東京の天気');
  });
  it('reads a meta charset that comes after the first 1024 bytes of the head, as browsers do, but not one in the body', async () => {
    const page = (head: string, body = '') =>
      `<!doctype html><html><head><style>${'p { margin: 0 } '.repeat(100)}</style>${head}<title>Новости</title></head><body>${body}<p>${'Погода на побережье сегодня ясная. '.repeat(20)}</p></body></html>`;
    srv.route('/late-meta', body(iconv.encode(page('<meta charset="windows-1251">'), 'windows-1251'), 'text/html'));
    const r = await get('/late-meta', { mode: 'text' });
    expect(r.meta?.charset).toBe('windows-1251');
    expect(r.meta?.title).toBe('Новости');
    expect(r.content).toContain('Погода на побережье');
    // A late declaration does not overrule bytes that are UTF-8.
    srv.route('/late-meta-utf8', body(Buffer.from(page('<meta charset="iso-8859-1">'), 'utf8'), 'text/html'));
    expect((await get('/late-meta-utf8')).meta).toMatchObject({ charset: 'utf-8', title: 'Новости' });
    // Past the head (a <p> opened) a meta no longer counts, for a browser either: the page
    // is unlabelled, and its charset is what a detector reads in its text.
    srv.route('/body-meta', body(iconv.encode(page('', '<p>x</p><meta charset="windows-1251">'), 'windows-1251'), 'text/html'));
    expect((await get('/body-meta')).meta).toMatchObject({ charset: 'windows-1251', charset_detected: true });
  });
  it('reads past a charset label it does not know, as browsers do, and a UTF-16 label in ASCII markup as UTF-8', async () => {
    const html = (head: string) => `<html><head>${head}<title>Caf\xe9</title></head><body><p>cr\xe8me br\xfbl\xe9e</p></body></html>`;
    srv.route('/unknown-label', body(Buffer.from(html(''), 'latin1'), 'text/html; charset=x-no-such-charset'));
    expect((await get('/unknown-label')).meta).toMatchObject({ charset: 'windows-1252', title: 'Café' });
    srv.route('/unknown-label-meta', body(Buffer.from(html('<meta charset="windows-1252">'), 'latin1'), 'text/plain; charset=x-no-such-charset'));
    expect((await get('/unknown-label-meta', { mode: 'raw' })).content).toContain('crème brûlée');
    srv.route('/unknown-meta', body(Buffer.from(html('<meta charset="x-no-such-charset">'), 'latin1'), 'text/html'));
    expect((await get('/unknown-meta')).meta).toMatchObject({ charset: 'windows-1252', title: 'Café' });
    srv.route('/meta-utf16', body(Buffer.from(html('<meta charset="utf-16">'), 'utf8'), 'text/html'));
    expect((await get('/meta-utf16')).meta).toMatchObject({ charset: 'utf-8', title: 'Café' });
  });
  it('reads UTF-16 without a byte order mark when the header names it, HTML and text alike', async () => {
    const page = `<html><head><title>Ωmega</title></head><body><article><p>${'Ελληνικά and English words side by side on one page. '.repeat(10)}</p></article></body></html>`;
    srv.route('/utf16le', body(Buffer.from(page, 'utf16le'), 'text/html; charset=UTF-16LE'));
    srv.route('/utf16be', body(Buffer.from(page, 'utf16le').swap16(), 'text/html; charset="utf-16be"'));
    srv.route('/utf16-text', body(Buffer.from('plain ünïcode text', 'utf16le'), 'text/plain; charset=utf-16'));
    for (const p of ['/utf16le', '/utf16be']) {
      const r = await get(p, { mode: 'text' });
      expect(r.content, p).toContain('Ελληνικά and English words');
      expect(r.meta?.title, p).toBe('Ωmega');
    }
    expect((await get('/utf16-text')).content).toBe('plain ünïcode text');
    // Without such a charset, NUL bytes still mean binary.
    srv.route('/nul-binary', body(Buffer.from('a\u0000b\u0000c\u0000', 'latin1'), 'text/plain'));
    expect(await fail(get('/nul-binary'))).toMatchObject({ status: 415 });
  });
  it('reads JSON in UTF-16 without a byte order mark or a label by its NULs (RFC 4627), so --jq runs on it', async () => {
    const doc = '{"name": "Ωmega", "n": [1, 2]}';
    srv.route('/json-utf16le', body(Buffer.from(doc, 'utf16le'), 'application/json'));
    srv.route('/json-utf16be', body(Buffer.from(doc, 'utf16le').swap16(), 'application/json'));
    for (const p of ['/json-utf16le', '/json-utf16be']) {
      const r = await get(p, { jq: '.name' });
      expect({ p, content: r.content, kind: r.meta?.kind, charset: r.meta?.charset }).toEqual({ p, content: '"Ωmega"', kind: 'json', charset: p.endsWith('le') ? 'utf-16le' : 'utf-16be' });
    }
  });
});

describe('redirects', () => {
  it('follows a chain and reports the final URL', async () => {
    srv.route('/r1', (_q, r) => r.writeHead(301, { location: '/r2' }).end());
    srv.route('/r2', (_q, r) => r.writeHead(302, { location: `${srv.origin}/r3` }).end());
    srv.route('/r3', (_q, r) => r.writeHead(307, { location: 'notes.txt' }).end());
    const r = await get('/r1');
    expect(r.meta).toMatchObject({ final_url: `${srv.origin}/notes.txt`, redirects: 3 });
  });
  it('reads a Location written in UTF-8 without escapes as UTF-8, as browsers do', async () => {
    // The bytes of "/café/ünï?q=é" as a server writes them: node sends a latin1 string's chars as bytes.
    const utf8 = (s: string) => Buffer.from(s, 'utf8').toString('latin1');
    srv.route('/moved-utf8', (_q, r) => r.writeHead(302, { location: utf8('/café/ünï?q=é') }).end());
    srv.route('/caf%C3%A9/%C3%BCn%C3%AF', (q, r) => r.writeHead(200, { 'content-type': 'text/plain' }).end(`arrived at ${q.url}`));
    srv.route('/refresh-utf8', (_q, r) => r.writeHead(200, { 'content-type': 'text/html', refresh: utf8('0; url=/café/ünï') }).end('<p>moving</p>'));
    const r = await get('/moved-utf8');
    expect(r.content).toBe('arrived at /caf%C3%A9/%C3%BCn%C3%AF?q=%C3%A9');
    expect(r.meta?.final_url).toBe(`${srv.origin}/caf%C3%A9/%C3%BCn%C3%AF?q=%C3%A9`);
    expect((await get('/refresh-utf8')).content).toBe('arrived at /caf%C3%A9/%C3%BCn%C3%AF');
  });
  it('says where a redirect it cannot follow goes, and what to do, with a hint even for a Location that does not parse', async () => {
    srv.route('/to-ftp', (_q, r) => r.writeHead(302, { location: 'ftp://files.example/report.pdf' }).end());
    srv.route('/to-broken', (_q, r) => r.writeHead(302, { location: 'http://[::1' }).end());
    expect(await fail(get('/to-ftp'))).toMatchObject({ status: 502, reason: 'upstream', msg: 'redirect to an invalid URL (scheme ftp is not supported)', hint: expect.stringMatching(/open the URL in a browser/) });
    expect(await fail(get('/to-broken'))).toMatchObject({ status: 502, msg: 'redirect to an invalid URL (not a valid address)', hint: expect.stringMatching(/open the URL in a browser/) });
  });
  it('reads a header a server sent twice as one: the same Location twice is followed, two different ones are refused, the last Content-Type counts', async () => {
    // node sends an array as one header line per value, as a framework and its proxy each adding one do.
    const twice = (status: number, name: string, values: string[], body = '') => (_q: unknown, r: ServerResponse) => r.setHeader(name, values).writeHead(status).end(body);
    srv.route('/moved-twice', twice(301, 'location', ['/notes.txt', '/notes.txt']));
    srv.route('/moved-both-ways', twice(302, 'location', ['/notes.txt', '/data.json']));
    srv.route('/typed-twice.xml', twice(200, 'content-type', ['application/xml', 'application/xml'], '<?xml version="1.0"?><stock><item sku="a1">rope</item></stock>'));
    srv.route('/typed-two-ways', twice(200, 'content-type', ['text/plain', 'application/json'], '{"a": [1, 2]}'));
    const before = srv.hits.length;
    const r = await get('/moved-twice');
    expect(r.content).toContain('alpha line');
    expect(r.meta).toMatchObject({ final_url: `${srv.origin}/notes.txt`, redirects: 1 });
    expect(await fail(get('/moved-both-ways'))).toMatchObject({
      status: 502,
      reason: 'upstream',
      msg: 'redirect to two different places (two Location headers)',
      hint: expect.stringMatching(/open the URL in a browser/),
    });
    // Neither of the two was asked for.
    expect(srv.hits.slice(before).filter((h) => h === '/data.json' || h.startsWith('/notes.txt'))).toEqual(['/notes.txt']);
    const xml = await get('/typed-twice.xml');
    expect(xml.content).toContain('<item sku="a1">rope</item>');
    expect(xml.meta?.content_type).toBe('application/xml');
    const json = await get('/typed-two-ways', { jq: '.a[1]' });
    expect(json.content.trim()).toBe('2');
    expect(json.meta?.content_type).toBe('application/json');
  });
  it('follows a redirect whose own page stalls, trickles or is shorter than its Content-Length, as a browser follows at the headers', async () => {
    srv.route('/moved-stalling', (_q, r) => {
      r.writeHead(302, { location: '/notes.txt', 'content-type': 'text/html' });
      r.write('<p>Moved to');
    });
    srv.route('/moved-trickling', (_q, r) => {
      r.writeHead(301, { location: '/notes.txt', 'content-type': 'text/html' });
      const t = setInterval(() => r.write('.'), 100);
      r.on('close', () => clearInterval(t));
    });
    srv.route('/moved-short', (_q, r) => r.writeHead(307, { location: '/notes.txt', 'content-length': '120' }).end());
    // Both timeouts past the deadline: the page of the redirect must not be waited for at all.
    const patient = fetcher({ bodyTimeoutMs: 120_000, deadlineMs: 20_000 });
    try {
      for (const p of ['/moved-stalling', '/moved-trickling', '/moved-short']) {
        const r = await patient.fetchTarget(new AbortController().signal, caller, target(p));
        expect(r.content, p).toContain('alpha line');
        expect(r.meta, p).toMatchObject({ final_url: `${srv.origin}/notes.txt`, redirects: 1 });
      }
    } finally {
      await patient.close();
    }
  });
  it('sends a cookie a redirect set back along the same chain, to that site only, and forgets it with the target', async () => {
    const named = fetcher({}, { 'a.test': ['127.0.0.1'], 'b.test': ['127.0.0.1'] });
    const seen: { host: string; url: string; cookie: string }[] = [];
    const check = (q: { headers: Record<string, string | string[] | undefined>; url?: string }, r: ServerResponse) => {
      const cookie = String(q.headers.cookie ?? '');
      seen.push({ host: String(q.headers.host).replace(/:\d+$/, ''), url: q.url ?? '', cookie });
      // A cookie check: set it and redirect to itself; the page once it comes back.
      if (!/(?:^|; )visited=1(?:;|$)/.test(cookie)) {
        return r.writeHead(302, { 'set-cookie': ['visited=1; Path=/; HttpOnly', 'gone=x; Max-Age=0', 'tracking=2; Expires=Wed, 21 Oct 2015 07:28:00 GMT'], location: q.url }).end();
      }
      r.writeHead(200, { 'content-type': 'text/plain' }).end(`in with ${cookie}`);
    };
    srv.route('/cookie-check', check);
    srv.route('/cookie-away', (_q, r) => r.writeHead(302, { 'set-cookie': 'visited=1; Path=/', location: `http://b.test:${srv.port}/cookie-check` }).end());
    const at = (host: string, p: string) => ({ url: `http://${host}:${srv.port}${p}` });
    try {
      const r = await named.fetchTarget(new AbortController().signal, caller, at('a.test', '/cookie-check'));
      expect(r.content).toBe('in with visited=1');
      expect(r.meta?.redirects).toBe(1);
      // Another target starts without it.
      seen.length = 0;
      await named.fetchTarget(new AbortController().signal, caller, at('a.test', '/cookie-check'));
      expect(seen.filter((h) => h.url === '/cookie-check')[0]?.cookie).toBe('');
      // A cookie a.test set is not sent to b.test, which sets its own.
      seen.length = 0;
      expect((await named.fetchTarget(new AbortController().signal, caller, at('a.test', '/cookie-away'))).content).toBe('in with visited=1');
      expect(seen.filter((h) => h.url === '/cookie-check').map((h) => [h.host, h.cookie])).toEqual([
        ['b.test', ''],
        ['b.test', 'visited=1'],
      ]);
    } finally {
      await named.close();
    }
  });
  it('stops a loop as soon as it comes back to an address, and a chain that never ends after 10 redirects, with 502', async () => {
    srv.route('/loop', (_q, r) => r.writeHead(302, { location: '/loop' }).end());
    let n = 0;
    srv.route('/onward', (_q, r) => r.writeHead(302, { location: `/onward?n=${++n}` }).end());
    const before = srv.hits.length;
    const e = await fail(get('/loop'));
    expect(e).toMatchObject({ status: 502, reason: 'upstream' });
    expect(e.msg).toMatch(/^redirect loop/);
    expect(srv.hits.length - before).toBe(1);
    const long = await fail(get('/onward'));
    expect(long).toMatchObject({ status: 502, reason: 'upstream', msg: 'too many redirects (more than 10)' });
    expect(srv.hits.length - before).toBe(12);
  });
  it('fetches an intranet host with an internationalized name listed in its own letters, through its Punycode name', async () => {
    // The URL parser writes 例え.test as xn--r8jz45g.test: that is the name resolved and
    // connected to. Listed as the person types it, the host was never matched, so stayed blocked.
    const table = { 'xn--r8jz45g.test': ['127.0.0.1'], 'wiki.xn--r8jz45g.test': ['127.0.0.1'] };
    for (const listed of ['例え.test', '.例え.test', 'xn--r8jz45g.test']) {
      const guarded = fetcher({ allowPrivate: false, allowHosts: [listed] }, table);
      try {
        const host = listed.startsWith('.') ? 'wiki.例え.test' : '例え.test';
        const r = await guarded.fetchTarget(new AbortController().signal, caller, { url: `http://${host}:${srv.port}/notes.txt` });
        expect(r.content, listed).toContain('alpha line');
        expect(r.meta?.final_url).toBe(`http://${listed.startsWith('.') ? 'wiki.' : ''}xn--r8jz45g.test:${srv.port}/notes.txt`);
      } finally {
        await guarded.close();
      }
    }
    // A listed name that only looks alike is no match.
    const other = fetcher({ allowPrivate: false, allowHosts: ['例え2.test'] }, table);
    try {
      expect(await fail(other.fetchTarget(new AbortController().signal, caller, { url: `http://例え.test:${srv.port}/notes.txt` }))).toMatchObject({ status: 403, reason: 'blocked' });
    } finally {
      await other.close();
    }
  });
  it('blocks a redirect to a private address with 403 before connecting', async () => {
    const guarded = fetcher({ allowPrivate: false, allowHosts: ['site.test'] }, { 'site.test': ['127.0.0.1'], 'inner.test': ['127.0.0.1'] });
    try {
      srv.route('/to-private', (_q, r) => r.writeHead(302, { location: `${srv.origin}/secret` }).end());
      srv.route('/to-private-name', (_q, r) => r.writeHead(302, { location: `http://inner.test:${srv.port}/secret` }).end());
      srv.route('/secret', (_q, r) => r.end('secret'));
      // A literal the guard refuses before any packet leaves: nothing is ever sent to it.
      srv.route('/to-link-local', (_q, r) => r.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data/' }).end());
      const url = (p: string) => ({ url: `http://site.test:${srv.port}${p}` });
      const loopback = await fail(guarded.fetchTarget(new AbortController().signal, caller, url('/to-private')));
      expect(loopback).toMatchObject({ status: 403, reason: 'blocked' });
      // Said as a redirect, in words: the URL asked for is one the person allowed.
      expect(loopback.hint).toMatch(/^The page redirects to an address Sift does not fetch\. The address is a loopback address \(this computer\)\. /);
      expect((await fail(guarded.fetchTarget(new AbortController().signal, caller, url('/to-private-name')))).hint).toMatch(/^The page redirects .* loopback address/);
      expect((await fail(guarded.fetchTarget(new AbortController().signal, caller, url('/to-link-local')))).hint).toMatch(/^The page redirects .*The address is a link-local address\. /);
      expect(srv.hits.filter((h) => h === '/secret')).toHaveLength(0);
    } finally {
      await guarded.close();
    }
  });
  it('follows a page that sends the reader on at once (meta refresh, Refresh header) as a redirect', async () => {
    const html = (head: string, body = 'Moved. <a href="/notes.txt">Follow this link</a>.') => (_q: unknown, r: ServerResponse) =>
      r.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(`<!doctype html><html><head><title>Moved</title>${head}</head><body>${body}</body></html>`);
    srv.route('/refresh/meta', html('<META HTTP-EQUIV="Refresh" CONTENT="0; URL=/notes.txt">'));
    srv.route('/refresh/quoted', html(`<meta content="2;url='/refresh/meta?x=1&amp;y=2'" http-equiv="refresh">`));
    srv.route('/refresh/header', (_q, r) => r.writeHead(200, { 'content-type': 'text/plain', refresh: '0;url=/notes.txt' }).end('moved'));
    const r = await get('/refresh/meta');
    expect(r.content).toContain('alpha line');
    expect(r.meta).toMatchObject({ final_url: `${srv.origin}/notes.txt`, redirects: 1 });
    expect((await get('/refresh/quoted')).meta).toMatchObject({ final_url: `${srv.origin}/notes.txt`, redirects: 2 });
    expect((await get('/refresh/header')).meta).toMatchObject({ final_url: `${srv.origin}/notes.txt`, redirects: 1 });
  });
  it('stays on a page whose refresh only reloads it, waits long, is for browsers without JavaScript, or leaves http', async () => {
    const html = (head: string) => (_q: unknown, r: ServerResponse) =>
      r.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(`<!doctype html><html><head><title>Live</title>${head}</head><body><p>Live scores.</p></body></html>`);
    srv.route('/stay/reload', html('<meta http-equiv="refresh" content="60">'));
    srv.route('/stay/self', html('<meta http-equiv="refresh" content="0; url=/stay/self#top">'));
    srv.route('/stay/slow', html('<meta http-equiv="refresh" content="300; url=/notes.txt">'));
    srv.route('/stay/noscript', html('<noscript><meta http-equiv="refresh" content="0; url=/notes.txt"></noscript>'));
    srv.route('/stay/scheme', html('<meta http-equiv="refresh" content="0; url=javascript:alert(1)">'));
    srv.route('/stay/commented', html('<!-- <meta http-equiv="refresh" content="0; url=/notes.txt"> -->'));
    for (const p of ['/stay/reload', '/stay/self', '/stay/slow', '/stay/noscript', '/stay/scheme', '/stay/commented']) {
      const r = await get(p, { mode: 'text' });
      expect(r.meta?.final_url, p).toBe(`${srv.origin}${p}`);
      expect(r.meta?.redirects, p).toBeUndefined();
      expect(r.content, p).toContain('Live scores.');
    }
  });
  it('stops a refresh loop like a redirect loop, and a refresh to a private address is blocked before connecting', async () => {
    srv.route('/refresh/loop-a', (_q, r) => r.writeHead(200, { 'content-type': 'text/html', refresh: '0; url=/refresh/loop-b' }).end('a'));
    srv.route('/refresh/loop-b', (_q, r) => r.writeHead(200, { 'content-type': 'text/html', refresh: '0; url=/refresh/loop-a' }).end('b'));
    expect(await fail(get('/refresh/loop-a'))).toMatchObject({ status: 502, msg: 'redirect loop: the site sent Sift back to an address it had already asked (after 2 redirects)' });
    const guarded = fetcher({ allowPrivate: false, allowHosts: ['site.test'] }, { 'site.test': ['127.0.0.1'] });
    try {
      srv.route('/refresh/to-private', (_q, r) => r.writeHead(200, { 'content-type': 'text/html' }).end(`<meta http-equiv="refresh" content="0;url=${srv.origin}/refresh/secret">`));
      srv.route('/refresh/secret', (_q, r) => r.end('secret'));
      const e = await fail(guarded.fetchTarget(new AbortController().signal, caller, { url: `http://site.test:${srv.port}/refresh/to-private` }));
      expect(e.status).toBe(403);
      expect(srv.hits.filter((h) => h === '/refresh/secret')).toHaveLength(0);
    } finally {
      await guarded.close();
    }
  });
});

describe('the guard end to end', () => {
  it('blocks a name resolving to loopback before any request, and allow-private lets it through', async () => {
    const table = { 'intranet.test': ['127.0.0.1'] };
    const strict = fetcher({ allowPrivate: false }, table);
    const open = fetcher({ allowPrivate: true }, table);
    try {
      srv.route('/intranet', (_q, r) => r.writeHead(200, { 'content-type': 'text/plain' }).end('inside'));
      const t = { url: `http://intranet.test:${srv.port}/intranet` };
      const e = await fail(strict.fetchTarget(new AbortController().signal, caller, t));
      expect(e).toMatchObject({ status: 403, code: 'blocked' });
      expect(srv.hits).not.toContain('/intranet');
      expect((await open.fetchTarget(new AbortController().signal, caller, t)).content).toBe('inside');
    } finally {
      await strict.close();
      await open.close();
    }
  });
  it('does not let proxy environment variables route around the guard', async () => {
    const proxy = await startServer();
    const saved = { HTTP_PROXY: process.env.HTTP_PROXY, http_proxy: process.env.http_proxy };
    process.env.HTTP_PROXY = proxy.origin;
    process.env.http_proxy = proxy.origin;
    const strict = fetcher({ allowPrivate: false }, { 'public.test': ['127.0.0.1'] });
    try {
      const e = await fail(strict.fetchTarget(new AbortController().signal, caller, { url: `http://public.test:${srv.port}/notes.txt` }));
      expect(e.status).toBe(403);
      expect(proxy.hits).toHaveLength(0);
    } finally {
      process.env.HTTP_PROXY = saved.HTTP_PROXY;
      process.env.http_proxy = saved.http_proxy;
      if (saved.HTTP_PROXY === undefined) delete process.env.HTTP_PROXY;
      if (saved.http_proxy === undefined) delete process.env.http_proxy;
      await strict.close();
      await proxy.close();
    }
  });
  it('fails an unknown name with 502 and a refused connection with 502', async () => {
    expect(await fail(f.fetchTarget(new AbortController().signal, caller, { url: 'http://nowhere.test/' }))).toMatchObject({ status: 502, code: 'dns' });
    const gone = await startServer();
    const port = gone.port;
    await gone.close();
    expect((await fail(f.fetchTarget(new AbortController().signal, caller, { url: `http://127.0.0.1:${port}/` }))).status).toBe(502);
  });
});

describe('bad URLs and options', () => {
  it.each([
    ['', /empty/],
    ['example.org/page', /absolute/],
    ['ftp://example.org/file', /scheme ftp/],
    ['file:///etc/passwd', /scheme file/],
    ['javascript:alert(1)', /scheme javascript/],
    ['http://user:pw@example.org/', /credentials/],
    [`https://example.org/${'a'.repeat(8200)}`, /8192 bytes/],
  ])('rejects a bad URL (%#) with 400 and a hint', async (url, why) => {
    const e = await fail(f.fetchTarget(new AbortController().signal, caller, { url }));
    expect(e.status).toBe(400);
    expect(e.msg).toMatch(why);
    expect(e.hint).not.toBe('');
  });
  it('refuses jq with mode raw, and a question with mode meta, as a bad option with what to do (not jq output in place of the body)', async () => {
    const jq = await fail(f.fetchTarget(new AbortController().signal, caller, { url: `${srv.origin}/notes.txt`, options: { mode: 'raw', jq: '.a' } }));
    expect(jq).toMatchObject({ status: 422, code: 'bad_option', msg: "jq and mode raw do not go together: with jq, the result is jq's output" });
    expect(jq.hint).toMatch(/^Leave the mode out for jq's output as JSON/);
    const q = await fail(f.fetchTarget(new AbortController().signal, caller, { url: `${srv.origin}/notes.txt`, options: { mode: 'meta', question: 'why?' } }));
    expect(q).toMatchObject({ status: 422, code: 'bad_option', msg: 'a question and mode meta do not go together: passages are ranked in the readable text' });
  });
  it('rejects an unknown mode with 422', async () => {
    const e = await fail(f.fetchTarget(new AbortController().signal, caller, { url: `${srv.origin}/notes.txt`, options: { mode: 'pdf' as 'text' } }));
    expect(e.status).toBe(422);
  });
});

describe('hostile and slow servers', () => {
  it('fails a 206 that holds a part of the document Sift asked for whole, and takes one that holds all of it', async () => {
    srv.route('/part', (_q, r) => r.writeHead(206, { 'content-type': 'text/html', 'content-range': 'bytes 0-9/1000' }).end(ARTICLE.slice(0, 10)));
    srv.route('/all', (_q, r) => r.writeHead(206, { 'content-type': 'text/html; charset=utf-8', 'content-range': `bytes 0-${Buffer.byteLength(ARTICLE) - 1}/${Buffer.byteLength(ARTICLE)}` }).end(ARTICLE));
    const e = await fail(get('/part'));
    expect(e).toMatchObject({ status: 502, msg: 'HTTP 206 Partial Content: the server sent bytes 0-9 of 1000 only', code: 'upstream_status' });
    expect(e.hint).toMatch(/try again later/);
    expect((await get('/all')).content).toContain('Spring tides come with the full');
  });
  it('times out stalled headers with 504', async () => {
    srv.route('/stall', () => {});
    const quick = fetcher({ headersTimeoutMs: 300 });
    try {
      const e = await fail(quick.fetchTarget(new AbortController().signal, caller, target('/stall')));
      expect(e).toMatchObject({ status: 504, code: 'timeout' });
    } finally {
      await quick.close();
    }
  });
  it("a caller's own deadline (AbortSignal.timeout) ends the target as a 504 timeout, not a cancel or an internal error", async () => {
    srv.route('/stall-caller', () => {});
    const started = Date.now();
    const e = await fail(f.fetchTarget(AbortSignal.timeout(300), caller, target('/stall-caller')));
    expect(e).toMatchObject({ status: 504, code: 'timeout', msg: "timeout: the target's deadline passed", hint: expect.stringMatching(/raise that time/) });
    expect(Date.now() - started).toBeLessThan(3000);
    // A cancel is still a cancel.
    const ac = new AbortController();
    setTimeout(() => ac.abort(new Error('cancelled by the user')), 100);
    await expect(f.fetchTarget(ac.signal, caller, target('/stall-caller'))).rejects.not.toBeInstanceOf(FetchError);
  });
  it('stops a body trickled past the deadline with 504', async () => {
    srv.route('/trickle', (_q, r) => {
      r.writeHead(200, { 'content-type': 'text/plain' });
      const t = setInterval(() => r.write('.'), 50);
      r.on('close', () => clearInterval(t));
    });
    const quick = fetcher({ deadlineMs: 700 });
    try {
      const started = Date.now();
      const e = await fail(quick.fetchTarget(new AbortController().signal, caller, target('/trickle')));
      expect(e.status).toBe(504);
      // The hint names the limit that ended it and where to raise it: "The server was too slow"
      // left a user whose limit was 5 s to guess (s26 appqa).
      expect(e.hint).toBe('The server took longer than "Time per URL" in Settings allows: try again later, raise that time, or fetch a smaller document.');
      expect(Date.now() - started).toBeLessThan(3000);
    } finally {
      await quick.close();
    }
  });
  it('stops a body trickled a byte at a time once a whole body-timeout window brings almost nothing, not at the deadline, and reads a slow real one whole', async () => {
    srv.route('/drip', (_q, r) => {
      r.writeHead(200, { 'content-type': 'text/html' });
      const t = setInterval(() => r.write('.'), 100);
      r.on('close', () => clearInterval(t));
    });
    // Headers, a length, and no body, the connection held open: a GET answered as a HEAD.
    srv.route('/headers-only', (_q, r) => {
      r.writeHead(200, { 'content-type': 'text/html', 'content-length': '5000' });
      r.flushHeaders();
    });
    srv.route('/drip-then-stop', (_q, r) => {
      r.writeHead(200, { 'content-type': 'text/html' });
      r.write('<p>A little, then nothing more.');
    });
    // 2 KiB every 100 ms for 3 s: slow, but every window of 2 s that brings anything brings more than a trickle.
    srv.route('/slow-page', (_q, r) => {
      r.writeHead(200, { 'content-type': 'text/plain' });
      let left = 30;
      const t = setInterval(() => {
        r.write(`${'slow but steady '.repeat(128)}\n`);
        if (--left === 0) {
          clearInterval(t);
          r.end('the end\n');
        }
      }, 100);
      r.on('close', () => clearInterval(t));
    });
    const slow = fetcher({ bodyTimeoutMs: 2000, deadlineMs: 60_000 });
    try {
      const e = await fail(slow.fetchTarget(new AbortController().signal, caller, target('/drip')));
      expect(e.status).toBe(504);
      expect(e.reason).toBe('timeout');
      expect(e.msg).toMatch(/^timeout: the server sent the body too slowly \(\d+ bytes in 2 s\)$/);
      expect(e.hint).toMatch(/a few bytes at a time/);
      // A little that then stops is a silence, as the body timeout says, not a trickle.
      const stopped = await fail(slow.fetchTarget(new AbortController().signal, caller, target('/drip-then-stop')));
      expect(stopped).toMatchObject({ status: 504, msg: 'timeout: the server stopped sending the body' });
      // Not "or with a smaller document": the size was not the trouble, the silence was.
      expect(stopped.hint).toMatch(/^The server sent part of the document, then nothing more: try again later/);
      // None of it came: not "part of the document".
      const none = await fail(slow.fetchTarget(new AbortController().signal, caller, target('/headers-only')));
      expect(none).toMatchObject({ status: 504, reason: 'timeout', msg: 'timeout: the server sent the headers, then no body' });
      expect(none.hint).toMatch(/^The server answered with headers only and then nothing/);
      const ok = await slow.fetchTarget(new AbortController().signal, caller, target('/slow-page'));
      expect(ok.content.endsWith('the end\n')).toBe(true);
      expect(ok.content.split('\n')).toHaveLength(32);
    } finally {
      await slow.close();
    }
  });
  it('says a server that answers in something other than HTTP answered, not that it could not be reached', async () => {
    const raw = createNetServer((sock) => {
      sock.on('error', () => {});
      sock.once('data', () => sock.end(sock.localPort === rawPort.garbage ? 'SSH-2.0-OpenSSH_9.6\r\n\r\n' : 'HTTP/1.1 200 OK\r\ncontent-type: text/html\r\nx-bad\u0001: y\r\ncontent-length: 2\r\n\r\nhi'));
    });
    const other = createNetServer(raw.listeners('connection')[0] as (s: Socket) => void);
    await Promise.all([raw, other].map((x) => new Promise<void>((resolve) => x.listen(0, '127.0.0.1', resolve))));
    const rawPort = { garbage: (raw.address() as AddressInfo).port, badHeader: (other.address() as AddressInfo).port };
    try {
      for (const port of [rawPort.garbage, rawPort.badHeader]) {
        const err = await fail(f.fetchTarget(new AbortController().signal, caller, { url: `http://127.0.0.1:${port}/page` }));
        expect(err).toMatchObject({ status: 502, msg: 'malformed HTTP response', reason: 'network' });
        expect(err.hint).not.toMatch(/could not reach/);
      }
    } finally {
      await Promise.all([raw, other].map((x) => new Promise((resolve) => x.close(resolve))));
    }
  });
  it('reads an answer in loose HTTP as browsers do: bare LF line ends, a folded header, an unasked 100 Continue, a blank after a chunk size, a length beside chunks', async () => {
    const page = '<html><head><title>Loose</title></head><body><article><h1>Loose HTTP</h1><p>This page comes from a server whose HTTP is loose, as old embedded devices and hand-written CGI send it.</p></article></body></html>';
    const long = page.replace('</article>', `${'<p>More of the page, long enough to come in many packets after the headers.</p>'.repeat(3000)}</article>`);
    const chunked = (text: string): string => `${(text.match(/[\s\S]{1,16384}/g) ?? []).map((c) => `${Buffer.byteLength(c).toString(16)}\r\n${c}\r\n`).join('')}0\r\n\r\n`;
    const answers: Record<string, string> = {
      '/bare-lf': `HTTP/1.1 200 OK\nContent-Type: text/html\nContent-Length: ${page.length}\nConnection: close\n\n${page}`,
      '/folded': `HTTP/1.1 200 OK\r\nContent-Type: text/html;\r\n charset=utf-8\r\nContent-Length: ${page.length}\r\nConnection: close\r\n\r\n${page}`,
      '/continue': `HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: ${page.length}\r\nConnection: close\r\n\r\n${page}`,
      '/chunk': `HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n${page.length.toString(16)} \r\n${page}\r\n0\r\n\r\n`,
      // A length and chunks both: the chunks say where the body ends, as browsers read it.
      '/both': `HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: ${page.length}\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n${page.length.toString(16)}\r\n${page}\r\n0\r\n\r\n`,
      // The same with a body long enough to come in many packets, in chunks of 16 KiB.
      '/both-long': `HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: ${long.length}\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n${chunked(long)}`,
      // A redirect in bare LF to a page in bare LF: each hop is read leniently.
      '/moved': 'HTTP/1.1 302 Found\nLocation: /bare-lf\nContent-Length: 0\nConnection: close\n\n',
      '/gone': `HTTP/1.1 404 Not Found\nContent-Type: text/plain\nContent-Length: 4\nConnection: close\n\ngone`,
    };
    const seen: string[] = [];
    const loose = createNetServer((sock) => {
      sock.on('error', () => {});
      sock.once('data', (d: Buffer) => {
        const [, path = ''] = d.toString('latin1').split(' ');
        seen.push(path);
        // Loose the first time, then silent: the lenient try waits as long as any request.
        if (path === '/then-silent') return seen.filter((p) => p === path).length === 1 ? sock.end(answers['/bare-lf']!) : undefined;
        sock.end(answers[path] ?? 'SSH-2.0-OpenSSH_9.6\r\n\r\n');
      });
    });
    await new Promise<void>((resolve) => loose.listen(0, '127.0.0.1', resolve));
    const at = (p: string): Target => ({ url: `http://loose.test:${(loose.address() as AddressInfo).port}${p}`, options: { mode: 'text' } });
    // loose.test is known to the guard's resolver alone: a lenient try that did not connect
    // through the guard would not find it.
    const lookup = fixedResolver({ 'loose.test': ['127.0.0.1'] });
    const f = createFetcher({ allowPrivate: true }, { lookup });
    try {
      for (const p of ['/bare-lf', '/folded', '/continue', '/chunk', '/both', '/both-long', '/moved']) {
        const r = await f.fetchTarget(new AbortController().signal, caller, at(p));
        expect(r.content, p).toContain('This page comes from a server whose HTTP is loose');
        expect(r.meta, p).toMatchObject({ status: 200, http_lenient: true });
      }
      expect((await f.fetchTarget(new AbortController().signal, caller, at('/folded'))).meta).toMatchObject({ charset: 'utf-8' });
      // An error in loose HTTP is the site's error, not a malformed answer.
      expect(await fail(f.fetchTarget(new AbortController().signal, caller, at('/gone')))).toMatchObject({ status: 404, msg: 'HTTP 404 Not Found' });
      // Each loose answer was asked twice (undici, then Node's lenient parser), never more.
      expect(seen.filter((p) => p === '/chunk')).toHaveLength(2);
      // What is not HTTP at all stays a malformed answer.
      expect(await fail(f.fetchTarget(new AbortController().signal, caller, at('/ssh')))).toMatchObject({ status: 502, msg: 'malformed HTTP response' });
      const patient = createFetcher({ allowPrivate: true, headersTimeoutMs: 300 }, { lookup });
      try {
        expect(await fail(patient.fetchTarget(new AbortController().signal, caller, at('/then-silent')))).toMatchObject({ status: 504, msg: 'timeout: the server sent no response headers in time' });
        const ac = new AbortController();
        const cancelled = patient.fetchTarget(ac.signal, caller, at('/then-silent'));
        await vi.waitFor(() => expect(seen.filter((p) => p === '/then-silent')).toHaveLength(3), { timeout: 20_000 });
        ac.abort(new Error('cancelled by the user'));
        await expect(cancelled).rejects.toThrow('cancelled by the user');
      } finally {
        await patient.close();
      }
    } finally {
      await f.close();
      await new Promise((resolve) => loose.close(resolve));
    }
  });
  it('says a body whose chunked framing breaks part way is a malformed answer, not a connection the server reset', async () => {
    // A chunk size that is no number, after a first good chunk: undici refuses it, and so does
    // Node's lenient parser on the second try, whose body then ended as a bare "aborted" reset.
    const broken = createNetServer((sock) => {
      sock.on('error', () => {});
      sock.once('data', () => sock.end('HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nTransfer-Encoding: chunked\r\n\r\n10\r\n<html><head><tit\r\nZZ\r\nle>x</title>\r\n'));
    });
    await new Promise<void>((resolve) => broken.listen(0, '127.0.0.1', resolve));
    try {
      const err = await fail(f.fetchTarget(new AbortController().signal, caller, { url: `http://127.0.0.1:${(broken.address() as AddressInfo).port}/page` }));
      expect(err).toMatchObject({ status: 502, msg: 'malformed HTTP response', reason: 'network' });
      expect(err.hint).toMatch(/broke its own framing part way through the body/);
    } finally {
      await new Promise((resolve) => broken.close(resolve));
    }
  });
  it('says why a secure connection failed: a self-signed certificate, a server that speaks plain HTTP on an https port', async () => {
    // A throwaway self-signed certificate for 127.0.0.1 (test/fixtures/tls), valid for a century.
    const tlsDir = path.join(__dirname, '../fixtures/tls');
    const secure = createHttpsServer({ key: readFileSync(path.join(tlsDir, 'self-signed.key')), cert: readFileSync(path.join(tlsDir, 'self-signed.crt')) }, (_q, r) => r.end('secret'));
    const plain = createNetServer((sock) => {
      sock.on('error', () => {});
      sock.once('data', () => sock.end('HTTP/1.1 400 Bad Request\r\ncontent-length: 0\r\n\r\n'));
    });
    await Promise.all([secure, plain].map((x) => new Promise<void>((resolve) => x.listen(0, '127.0.0.1', resolve))));
    const at = (x: { address(): unknown }) => `https://127.0.0.1:${(x.address() as AddressInfo).port}/`;
    try {
      const self = await fail(f.fetchTarget(new AbortController().signal, caller, { url: at(secure) }));
      expect(self).toMatchObject({ status: 502, msg: 'TLS handshake failed', reason: 'network' });
      expect(self.hint).toMatch(/self-signed/);
      const notTls = await fail(f.fetchTarget(new AbortController().signal, caller, { url: at(plain) }));
      expect(notTls).toMatchObject({ status: 502, msg: 'TLS handshake failed' });
      expect(notTls.hint).toMatch(/does not speak https on that port/);
    } finally {
      await Promise.all([secure, plain].map((x) => new Promise((resolve) => x.close(resolve))));
    }
  });
  it('reports an HTTP error at once when its page stalls or trickles, not at the body timeout or the deadline', async () => {
    // A trickle never lets the body timeout fire: only the error page's own bound ends it before the deadline.
    const patient = fetcher({ bodyTimeoutMs: 500, deadlineMs: 60_000 });
    srv.route('/err-stall', (_q, r) => r.writeHead(404, { 'content-type': 'text/html' }).write('<html><body><h1>Not found</h1>'));
    srv.route('/err-trickle', (_q, r) => {
      r.writeHead(503, { 'content-type': 'text/html' }).write('<html><body>');
      const t = setInterval(() => (r.destroyed ? clearInterval(t) : r.write(' ')), 50);
    });
    try {
      for (const [p, status] of [['/err-stall', 404], ['/err-trickle', 503]] as const) {
        const started = performance.now();
        expect(await fail(patient.fetchTarget(new AbortController().signal, caller, target(p))), p).toMatchObject({ status, reason: status === 404 ? 'upstream' : 'busy' });
        expect(performance.now() - started, p).toBeLessThan(5_000);
      }
    } finally {
      await patient.close();
    }
  }, 20_000);
  it('says a chunked page the server closed before its last chunk came only in part', async () => {
    // The whole page and then the close, without the 0-size chunk that ends it: nothing says it was all.
    const cut = createNetServer((sock) => {
      sock.on('error', () => {});
      sock.once('data', () => sock.end(`HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nTransfer-Encoding: chunked\r\n\r\n${Buffer.byteLength(ARTICLE).toString(16)}\r\n${ARTICLE}\r\n`));
    });
    await new Promise<void>((resolve) => cut.listen(0, '127.0.0.1', resolve));
    try {
      const err = await fail(f.fetchTarget(new AbortController().signal, caller, { url: `http://127.0.0.1:${(cut.address() as AddressInfo).port}/page` }));
      expect(err).toMatchObject({ status: 502, msg: `body cut short: the server closed the connection after ${formatBytes(Buffer.byteLength(ARTICLE))}, before the end of the document`, reason: 'network' });
      expect(err.hint).toBe('Only part of the document came. Try again later; if it keeps stopping at the same point, the site’s server is at fault.');
    } finally {
      await new Promise((resolve) => cut.close(resolve));
    }
  });
  it('fails a connection reset mid-body with 502', async () => {
    srv.route('/reset', (q, r) => {
      r.writeHead(200, { 'content-type': 'text/plain', 'content-length': '10000' });
      r.write('x'.repeat(1000), () => setTimeout(() => q.socket.destroy(), 20));
    });
    expect(await fail(get('/reset'))).toMatchObject({ status: 502 });
  });
  it('stops a gzip bomb at the decompressed-size cap with 422', async () => {
    const bomb = gzipSync(Buffer.alloc(64 * 1024 * 1024, 0x61));
    expect(bomb.length).toBeLessThan(200 * 1024);
    srv.route('/bomb', (_q, r) => r.writeHead(200, { 'content-type': 'text/plain', 'content-encoding': 'gzip' }).end(bomb));
    const capped = fetcher({ maxBodyBytes: 1024 * 1024 });
    try {
      const e = await fail(capped.fetchTarget(new AbortController().signal, caller, target('/bomb')));
      expect(e).toMatchObject({ status: 422, code: 'too_long' });
      expect(e.msg).toMatch(/^document too long/);
      // At the default limit it is said as what it is: a few bytes that unpack past the limit, which raising the limit only feeds.
      const bomb50 = await fail(get('/bomb'));
      expect(bomb50).toMatchObject({ status: 422, code: 'too_long' });
      expect(bomb50.msg).toMatch(/^document too long: body over 50 MiB once decompressed \(from [\d.]+ kB sent compressed as gzip\)$/);
      expect(bomb50.hint).toMatch(/decompression bomb/);
      // A large document that came compressed is not a bomb: the limit is what to raise.
      srv.route('/big-gzip', (_q, r) => r.writeHead(200, { 'content-type': 'text/plain', 'content-encoding': 'gzip' }).end(gzipSync(randomBytes(1536 * 1024).toString('base64'))));
      const big = await fail(capped.fetchTarget(new AbortController().signal, caller, target('/big-gzip')));
      expect(big).toMatchObject({ status: 422, code: 'too_long' });
      expect(big.hint).toMatch(/Raise "Largest download"/);
    } finally {
      await capped.close();
    }
  });
  it('decompresses a gzip body under the cap', async () => {
    srv.route('/gz', (_q, r) => r.writeHead(200, { 'content-type': 'text/plain', 'content-encoding': 'gzip' }).end(gzipSync('hello gzip')));
    expect((await get('/gz')).content).toBe('hello gzip');
  });
  it('reads brotli and deflate, the bare deflate stream some servers send as deflate too, and says a damaged body is damaged', async () => {
    const send = (body: Buffer, encoding: string) => (_q: unknown, r: ServerResponse) => r.writeHead(200, { 'content-type': 'text/plain', 'content-encoding': encoding }).end(body);
    srv.route('/enc/br', send(brotliCompressSync('hello brotli'), 'br'));
    srv.route('/enc/deflate', send(deflateSync('hello zlib deflate'), 'deflate'));
    srv.route('/enc/raw-deflate', send(deflateRawSync('hello raw deflate'), 'deflate'));
    expect((await get('/enc/br')).content).toBe('hello brotli');
    expect((await get('/enc/deflate')).content).toBe('hello zlib deflate');
    expect((await get('/enc/raw-deflate')).content).toBe('hello raw deflate');
    // Bytes that came whole and do not decompress are the server's doing, not a network failure.
    for (const encoding of ['br', 'gzip', 'deflate']) {
      srv.route(`/enc/bad-${encoding}`, send(Buffer.from('these bytes are not compressed at all'), encoding));
      expect(await fail(get(`/enc/bad-${encoding}`)), encoding).toMatchObject({ status: 422, msg: 'corrupt compressed body', code: 'corrupt_body', reason: 'upstream' });
    }
  });
  it('reads a gzip body followed by stray bytes (a newline, a comment a script printed after it) as browsers do, and still fails one cut in its trailer or whose checksum is wrong', async () => {
    const page = `${'<p>Stray bytes after the compressed page. '.repeat(400)}</p>`;
    const gz = gzipSync(page);
    const send = (body: Buffer, pieces = 0) => (_q: unknown, r: ServerResponse) => {
      r.writeHead(200, { 'content-type': 'text/plain', 'content-encoding': 'gzip' });
      // In small pieces, so a header, a member's end and its trailer fall across reads.
      for (let at = 0; pieces && at < body.length; at += pieces) r.write(body.subarray(at, at + pieces));
      r.end(pieces ? undefined : body);
    };
    srv.route('/gz/newline', send(Buffer.concat([gz, Buffer.from('\n')])));
    srv.route('/gz/comment', send(Buffer.concat([gz, Buffer.from('\r\n<!-- 0.02 s -->\n')]), 7));
    srv.route('/gz/two-members', send(Buffer.concat([gzipSync(page.slice(0, 5000)), gzipSync(page.slice(5000)), Buffer.from('\n')]), 5));
    srv.route('/gz/no-trailer', send(gz.subarray(0, gz.length - 8)));
    const badCrc = Buffer.from(gz);
    badCrc.writeUInt32LE(badCrc.readUInt32LE(gz.length - 8) ^ 1, gz.length - 8);
    srv.route('/gz/bad-crc', send(badCrc));
    for (const p of ['/gz/newline', '/gz/comment', '/gz/two-members']) expect((await get(p)).content, p).toBe(page);
    expect(await fail(get('/gz/no-trailer'))).toMatchObject({ status: 422, msg: 'corrupt compressed body', code: 'corrupt_body', reason: 'upstream', hint: expect.stringMatching(/stops part way/) });
    expect(await fail(get('/gz/bad-crc'))).toMatchObject({ status: 422, msg: 'corrupt compressed body', code: 'corrupt_body', reason: 'upstream' });
  });
  it('reads a deflate body followed by stray bytes (a newline a script printed after it) as browsers do, instead of hanging until the deadline', async () => {
    const send = (body: Buffer) => (_q: unknown, r: ServerResponse) => r.writeHead(200, { 'content-type': 'text/plain', 'content-encoding': 'deflate' }).end(body);
    srv.route('/enc/deflate-newline', send(Buffer.concat([deflateSync('hello zlib deflate'), Buffer.from('\n')])));
    srv.route('/enc/raw-deflate-junk', send(Buffer.concat([deflateRawSync('hello raw deflate'), Buffer.from('\r\n<!-- 0.02 s -->\n')])));
    const quick = fetcher({ deadlineMs: 20_000 });
    try {
      const at = (p: string) => quick.fetchTarget(new AbortController().signal, caller, target(p));
      expect((await at('/enc/deflate-newline')).content).toBe('hello zlib deflate');
      expect((await at('/enc/raw-deflate-junk')).content).toBe('hello raw deflate');
    } finally {
      await quick.close();
    }
  });
  it('reads an empty answer labelled as compressed as empty, as browsers do, not as a corrupt body', async () => {
    for (const [i, encoding] of ['gzip', 'br', 'deflate', 'gzip, br'].entries()) {
      srv.route(`/enc/empty-${i}`, (_q, r) => r.writeHead(200, { 'content-type': 'text/html', 'content-encoding': encoding }).end());
      const r = await get(`/enc/empty-${i}`);
      expect(r.content, encoding).toBe('');
      expect(r.meta?.warnings, encoding).toEqual(['empty']);
    }
  });
  it('takes off codings applied one after another, last first, and reads a name that is no compression as none, as browsers do', async () => {
    const send = (body: Buffer | string, encoding: string) => (_q: unknown, r: ServerResponse) => r.writeHead(200, { 'content-type': 'text/plain', 'content-encoding': encoding }).end(body);
    srv.route('/enc/gzip-br', send(brotliCompressSync(gzipSync('hello gzip then brotli')), 'gzip, br'));
    srv.route('/enc/twice', send(gzipSync(gzipSync('hello gzip twice')), 'gzip,gzip'));
    srv.route('/enc/utf8', send('hello, said to be utf-8', 'UTF-8'));
    srv.route('/enc/bad-inner', send(brotliCompressSync('not gzip inside'), 'gzip, br'));
    expect((await get('/enc/gzip-br')).content).toBe('hello gzip then brotli');
    expect((await get('/enc/twice')).content).toBe('hello gzip twice');
    expect((await get('/enc/utf8')).content).toBe('hello, said to be utf-8');
    expect(await fail(get('/enc/bad-inner'))).toMatchObject({ status: 422, msg: 'corrupt compressed body', code: 'corrupt_body', reason: 'upstream' });
  });
  it('refuses a compression it cannot read with 415, on a page or an error page, and goes on', async () => {
    srv.route('/enc/zstd', (_q, r) => r.writeHead(200, { 'content-type': 'text/html', 'content-encoding': 'zstd' }).end('not read'));
    srv.route('/enc/zstd-500', (_q, r) => r.writeHead(500, { 'content-type': 'text/html', 'content-encoding': 'zstd' }).end('not read'));
    srv.route('/enc/gzip-compress', (_q, r) => r.writeHead(200, { 'content-type': 'text/html', 'content-encoding': 'gzip, compress' }).end('not read'));
    expect(await fail(get('/enc/zstd'))).toMatchObject({ status: 415, msg: 'unsupported: content-encoding zstd', code: 'unsupported' });
    expect(await fail(get('/enc/gzip-compress'))).toMatchObject({ status: 415, msg: 'unsupported: content-encoding compress' });
    expect(await fail(get('/enc/zstd-500'))).toMatchObject({ status: 500 });
    // The body dropped unread must not throw later (an 'error' event nobody hears ends the process).
    await new Promise((resolve) => setImmediate(resolve));
    expect((await get('/notes.txt')).content).toContain('alpha line');
  });
  it('refuses an oversized body, declared or chunked, with 422', async () => {
    srv.route('/big-declared', (_q, r) => r.writeHead(200, { 'content-type': 'text/plain', 'content-length': String(2 * 1024 * 1024) }).end(Buffer.alloc(2 * 1024 * 1024, 0x62)));
    srv.route('/big-chunked', (_q, r) => {
      r.writeHead(200, { 'content-type': 'text/plain' });
      for (let i = 0; i < 40; i++) r.write(Buffer.alloc(64 * 1024, 0x62));
      r.end();
    });
    const capped = fetcher({ maxBodyBytes: 1024 * 1024 });
    try {
      for (const p of ['/big-declared', '/big-chunked']) {
        expect(await fail(capped.fetchTarget(new AbortController().signal, caller, target(p)))).toMatchObject({ status: 422, code: 'too_long' });
      }
    } finally {
      await capped.close();
    }
  });
  it('refuses oversized response headers with 502', async () => {
    srv.route('/fat-headers', (_q, r) => r.writeHead(200, { 'x-fat': 'y'.repeat(100 * 1024) }).end('x'));
    expect((await fail(get('/fat-headers'))).status).toBe(502);
  });
  it('extracts by what the body is when the content type lies', async () => {
    srv.route('/pdf-as-html', (_q, r) => r.writeHead(200, { 'content-type': 'text/html' }).end(numberedPdf(1)));
    srv.route('/html-as-octets', (_q, r) => r.writeHead(200, { 'content-type': 'application/octet-stream' }).end(ARTICLE));
    srv.route('/html-untyped', (_q, r) => {
      r.removeHeader('content-type');
      r.end('<!doctype html><html><head><title>Bare</title></head><body><p>plain page</p></body></html>');
    });
    srv.route('/png-as-html', (_q, r) => r.writeHead(200, { 'content-type': 'text/html' }).end(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0])));
    expect((await get('/pdf-as-html')).meta).toMatchObject({ content_type: 'application/pdf', pages_total: 1 });
    expect((await get('/html-as-octets')).meta?.title).toBe('Tides, explained');
    expect((await get('/html-untyped', { mode: 'text' })).content).toContain('plain page');
    const e = await fail(get('/png-as-html'));
    expect(e).toMatchObject({ status: 415, msg: 'unsupported: image/png' });
  });
  it("names a document that names itself nothing after the server's Content-Disposition file name, as a browser names the download", async () => {
    const untitled = numberedPdf(1, '');
    srv.route('/download', (_q, r) => r.writeHead(200, { 'content-type': 'application/octet-stream', 'content-disposition': 'attachment; filename="Annual report 2024.pdf"' }).end(untitled));
    // RFC 6266's filename* in UTF-8 wins over the ASCII fallback; raw UTF-8 in filename is read as UTF-8.
    srv.route('/download-utf8', (_q, r) => r.writeHead(200, { 'content-type': 'application/pdf', 'content-disposition': `attachment; filename="report.pdf"; filename*=UTF-8''Jahresbericht%20f%C3%BCr%202024.pdf` }).end(untitled));
    // A document's own title stays its title; the file name is in meta beside it.
    srv.route('/titled', (_q, r) => r.writeHead(200, { 'content-type': 'text/html', 'content-disposition': 'inline; filename="page.html"' }).end(ARTICLE));
    expect((await get('/download')).meta).toMatchObject({ title: 'Annual report 2024', title_from: 'filename', filename: 'Annual report 2024.pdf' });
    expect((await get('/download-utf8')).meta).toMatchObject({ title: 'Jahresbericht für 2024', filename: 'Jahresbericht für 2024.pdf' });
    // Raw UTF-8 bytes in filename, as many servers send them (Node's own server will not write them: a socket does).
    const raw = createNetServer((sock) => {
      sock.on('error', () => {});
      sock.once('data', () => {
        const head = Buffer.from(`HTTP/1.1 200 OK\r\nContent-Type: application/pdf\r\nContent-Disposition: inline; filename="Отчёт.pdf"\r\nContent-Length: ${untitled.length}\r\nConnection: close\r\n\r\n`, 'utf8');
        sock.end(Buffer.concat([head, untitled]));
      });
    });
    await new Promise<void>((resolve) => raw.listen(0, '127.0.0.1', resolve));
    try {
      const r = await f.fetchTarget(new AbortController().signal, caller, { url: `http://127.0.0.1:${(raw.address() as AddressInfo).port}/download?id=7` });
      expect(r.meta).toMatchObject({ title: 'Отчёт', filename: 'Отчёт.pdf' });
    } finally {
      await new Promise((resolve) => raw.close(resolve));
    }
    const titled = await get('/titled');
    expect(titled.meta).toMatchObject({ title: 'Tides, explained', filename: 'page.html' });
    expect(titled.meta?.title_from).toBeUndefined();
  });
  it('refuses other types with 415 naming the type', async () => {
    srv.route('/zip', (_q, r) => r.writeHead(200, { 'content-type': 'application/zip' }).end(Buffer.from([0x50, 0x4b, 0x03, 0x04, 1, 2, 3])));
    srv.route('/font', (_q, r) => r.writeHead(200, { 'content-type': 'font/woff2' }).end(Buffer.from('wOF2\0\0\0')));
    expect(await fail(get('/zip'))).toMatchObject({ status: 415, msg: 'unsupported: application/zip' });
    expect(await fail(get('/font'))).toMatchObject({ status: 415, msg: 'unsupported: font/woff2' });
  });
  it("names a type it does not read as the server names it, not by the family its bytes belong to (a Word file is a zip, a WAV a RIFF)", async () => {
    const DOCX = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';
    srv.route('/letter.docx', (_q, r) => r.writeHead(200, { 'content-type': DOCX }).end(Buffer.from([0x50, 0x4b, 0x03, 0x04, 0x14, 0, 6, 0])));
    srv.route('/call.wav', (_q, r) => r.writeHead(200, { 'content-type': 'audio/wav' }).end(Buffer.from('RIFF\x24\0\0\0WAVEfmt ', 'latin1')));
    srv.route('/download', (_q, r) => r.writeHead(200, { 'content-type': 'application/octet-stream' }).end(Buffer.from([0x50, 0x4b, 0x03, 0x04, 0x14, 0, 6, 0])));
    expect(await fail(get('/letter.docx'))).toMatchObject({ status: 415, reason: 'unsupported', msg: `unsupported: ${DOCX}` });
    expect(await fail(get('/call.wav'))).toMatchObject({ status: 415, msg: 'unsupported: audio/wav' });
    // A type that says only "bytes" is named by what the bytes are.
    expect(await fail(get('/download'))).toMatchObject({ status: 415, msg: 'unsupported: application/zip' });
  });
  it('carries Retry-After of a 429 and a 503 as retryAfterMs', async () => {
    srv.route('/slow-down', (_q, r) => r.writeHead(429, { 'retry-after': '7' }).end());
    srv.route('/unavailable', (_q, r) => r.writeHead(503, { 'retry-after': new Date(Date.now() + 30_000).toUTCString() }).end());
    const e = await fail(get('/slow-down'));
    expect(e).toMatchObject({ status: 429, retryAfterMs: 7000 });
    const u = await fail(get('/unavailable'));
    expect(u.status).toBe(503);
    expect(u.retryAfterMs).toBeGreaterThan(25_000);
    // How long the server asked for is said: an hour is not a plain "slow down".
    srv.route('/come-back-in-an-hour', (_q, r) => r.writeHead(429, { 'retry-after': '3600' }).end());
    expect((await fail(get('/come-back-in-an-hour'))).hint).toBe('The server asks Sift to wait 60 min before asking again; Sift retries batch targets later.');
    srv.route('/never', (_q, r) => r.writeHead(429, { 'retry-after': '999999999' }).end());
    expect((await fail(get('/never'))).hint).toBe('The server asks Sift to wait more than a year before asking again; Sift retries batch targets later.');
    srv.route('/no-wait', (_q, r) => r.writeHead(503, { 'retry-after': 'soon' }).end());
    expect((await fail(get('/no-wait'))).hint).toBe('The server asks to slow down; Sift retries batch targets later.');
  });
  it('reads a gzip file that is the page as the page: judged like one (a packed challenge is a challenge), never rendered', async () => {
    const fixture = (name: string): string => readFileSync(path.resolve(__dirname, '../fixtures/outcomes/batch', name), 'utf8');
    srv.route('/packed/article.html.gz', (_q, r) => r.writeHead(200, { 'content-type': 'application/gzip' }).end(gzipSync(ARTICLE)));
    srv.route('/packed/check.html.gz', (_q, r) => r.writeHead(200, { 'content-type': 'application/gzip' }).end(gzipSync(fixture('cf_uam_just_a_moment_2021.html'))));
    srv.route('/packed/shell.html.gz', (_q, r) => r.writeHead(200, { 'content-type': 'application/gzip' }).end(gzipSync(fixture('needs_js_cra_react_app.html'))));
    const ok = await get('/packed/article.html.gz');
    expect(ok.content).toMatch(/^# Tides, explained\n\n## The Tide Report\n/);
    expect(ok.meta).toMatchObject({ kind: 'html', content_type: 'text/html', compressed: 'gzip', rendered: false });
    expect(await fail(get('/packed/check.html.gz'))).toMatchObject({ reason: 'challenge', status: 403 });
    // An app shell packed in a file: a browser would download it, not run it, so it is not rendered.
    expect(await fail(get('/packed/shell.html.gz', { render: 'always' }))).toMatchObject({ reason: 'needs_js' });
  });
  it('passes upstream 4xx and 5xx through with their status', async () => {
    srv.route('/gone', (_q, r) => r.writeHead(410).end());
    srv.route('/boom', (_q, r) => r.writeHead(500).end());
    expect(await fail(get('/missing'))).toMatchObject({ status: 404, msg: 'HTTP 404 Not Found' });
    expect(await fail(get('/gone'))).toMatchObject({ status: 410 });
    expect(await fail(get('/boom'))).toMatchObject({ status: 500, code: 'upstream_5xx' });
  });
  it('says what a 4xx, a 3xx with nowhere to go, a 304 and a status past 5xx mean and what to do, not that Sift does not handle the status', async () => {
    for (const [status, hint] of [
      [451, /legal reasons/],
      [400, /check the URL/],
      [405, /refused the request; open the URL in a browser/],
      [408, /try again later/],
      [414, /refuses addresses this long: shorten the URL/],
      [431, /too long for it\. Shorten the URL/],
    ] as const) {
      srv.route(`/status-${status}`, (_q, r) => r.writeHead(status, { 'content-type': 'text/plain' }).end('no'));
      const e = await fail(get(`/status-${status}`));
      expect(e, String(status)).toMatchObject({ status, reason: 'upstream' });
      expect(e.hint, String(status)).toMatch(hint);
      expect(e.hint, String(status)).not.toMatch(/does not handle/);
    }
    srv.route('/status-302-nowhere', (_q, r) => r.writeHead(302, { 'content-type': 'text/html' }).end('<p>moved</p>'));
    const nowhere = await fail(get('/status-302-nowhere'));
    expect(nowhere.hint).toMatch(/redirect that does not say where/);
    expect(nowhere.msg).toBe('HTTP 302 Found');
    // Sift asks unconditionally: a 304 is a confused cache's, named as what it is, not "Unexpected Status".
    srv.route('/status-304', (_q, r) => r.writeHead(304).end());
    const notModified = await fail(get('/status-304'));
    expect(notModified).toMatchObject({ status: 502, msg: 'HTTP 304 Not Modified', reason: 'upstream' });
    expect(notModified.hint).toMatch(/"not modified" though Sift asked for the whole page/);
    expect(notModified.hint).not.toMatch(/does not handle/);
    // LinkedIn's refusal: no server failed, and trying again later does not help.
    srv.route('/status-999', (_q, r) => r.writeHead(999, 'Request denied', { 'content-type': 'text/plain' }).end('no'));
    const denied = await fail(get('/status-999'));
    expect(denied).toMatchObject({ status: 999, msg: 'HTTP 999 (a status HTTP does not define)', reason: 'upstream' });
    expect(denied.hint).toMatch(/outside HTTP’s/);
    expect(denied.hint).not.toMatch(/server failed/);
  });
  it('sends a real User-Agent', async () => {
    const n = srv.headers.length;
    await get('/notes.txt');
    expect(srv.headers[n]?.['user-agent']).toMatch(/^Sift\/\d+\.\d+\.\d+ \(\+https:\/\//);
  });
});

describe('the soft-404 probe', () => {
  it('says a page that is the host\'s answer for any address is that, not that it says it does not exist', async () => {
    const shop = `<!doctype html><html><head><title>Harbour Shop</title></head><body><article><h1>Welcome to the Harbour Shop</h1>${'<p>Nets, ropes and boats of every size, shipped from the harbour to your door within two days.</p>'.repeat(8)}</article></body></html>`;
    const any = createHttpServer((_q, r) => r.writeHead(200, { 'content-type': 'text/html' }).end(shop));
    await new Promise<void>((resolve) => any.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(any.address() as AddressInfo).port}/products/boat-123`;
      const e = await fail(f.fetchTarget(new AbortController().signal, { name: 'probe-test' }, { url }));
      expect(e).toMatchObject({ status: 404, reason: 'soft404' });
      expect(e.msg).toBe('soft 404: the site answers every address with this same page, so this one does not exist there');
    } finally {
      await new Promise((resolve) => any.close(resolve));
    }
  });
});

describe('recover', () => {
  it('extracts the archived snapshot of a 404 and says so in meta', async () => {
    srv.route('/wayback', (q, r) => {
      const asked = new URL(q.url ?? '', srv.origin).searchParams.get('url');
      const found = asked === `${srv.origin}/lost`;
      r.writeHead(200, { 'content-type': 'application/json' }).end(
        JSON.stringify({ url: asked, archived_snapshots: found ? { closest: { available: true, status: '200', url: `${srv.origin}/snap/lost`, timestamp: '20230102030405' } } : {} }),
      );
    });
    srv.route('/snap/lost', (_q, r) => r.writeHead(200, { 'content-type': 'text/plain' }).end('the archived words'));
    const rec = fetcher({ archiveService: `${srv.origin}/wayback` });
    try {
      const r = await rec.fetchTarget(new AbortController().signal, caller, target('/lost', { recover: true }));
      expect(r.content).toBe('the archived words');
      expect(r.meta).toMatchObject({ recovered: true, snapshot_url: `${srv.origin}/snap/lost`, snapshot_time: '2023-01-02T03:04:05Z', recovered_from: 404 });
      const e = await fail(rec.fetchTarget(new AbortController().signal, caller, target('/also-lost', { recover: true })));
      expect(e.status).toBe(404);
      expect(e.hint).toMatch(/No archived copy/);
      const plain = await fail(rec.fetchTarget(new AbortController().signal, caller, target('/lost')));
      expect(plain.status).toBe(404);
    } finally {
      await rec.close();
    }
  });
});

describe('recover from an archive service the guard refuses', () => {
  it('says the archive is at an address Sift does not fetch, and never connects to it', async () => {
    let connections = 0;
    const archive = createNetServer((s) => {
      connections++;
      s.destroy();
    });
    await new Promise<void>((resolve) => archive.listen(0, '127.0.0.2', resolve));
    const rec = fetcher({ allowPrivate: false, allowHosts: ['127.0.0.1'], archiveService: `http://127.0.0.2:${(archive.address() as AddressInfo).port}/wayback` });
    try {
      const e = await fail(rec.fetchTarget(new AbortController().signal, caller, target('/lost-too', { recover: true })));
      expect(e.status).toBe(404);
      // Said where it is read: the app names its Settings, the command line its flag.
      expect(e.hint).toMatch(/No archived copy: the archive service is at an address Sift does not fetch; allow its host in Settings, under Network\.$/);
      const cli = await fail(rec.fetchTarget(new AbortController().signal, { name: 'cli' }, target('/lost-too', { recover: true })));
      expect(cli.hint).toMatch(/No archived copy: the archive service is at an address Sift does not fetch; allow its host with --allow-host HOST\.$/);
      expect(connections).toBe(0);
    } finally {
      await rec.close();
      await new Promise((resolve) => archive.close(resolve));
    }
  });
});

describe('the gate', () => {
  it('fails a fetch that waits too long for one of the slots with 503 busy', async () => {
    const g = fetcher({ gateSize: 2, gateWaitMs: 150 });
    try {
      const held = [await g.gate.acquire(new AbortController().signal), await g.gate.acquire(new AbortController().signal)];
      expect(g.gate.inFlight()).toBe(2);
      const e = await fail(g.fetchTarget(new AbortController().signal, caller, target('/notes.txt')));
      expect(e).toMatchObject({ status: 503, code: 'busy' });
      held[0]?.();
      expect((await g.fetchTarget(new AbortController().signal, caller, target('/notes.txt'))).content).toContain('alpha');
      held[1]?.();
      expect(g.gate.inFlight()).toBe(0);
    } finally {
      await g.close();
    }
  });
  it("fails a fetch that never got a slot busy (retried), not as a timeout, when its time per URL is shorter than the gate's wait", async () => {
    // Time per URL 0.2 s, the gate's wait 0.6 s: the target's own time ran out at the gate,
    // and it failed "timeout: waiting for a fetch slot" though it never got its turn.
    const g = fetcher({ gateSize: 1, gateWaitMs: 600, deadlineMs: 200 });
    const held = await g.gate.acquire(new AbortController().signal);
    try {
      const e = await fail(g.fetchTarget(new AbortController().signal, caller, target('/notes.txt')));
      expect(e).toMatchObject({ status: 503, code: 'busy' });
    } finally {
      held();
      await g.close();
    }
  });
  it('counts fetched_ms from when the target got its slot, not the wait for one', async () => {
    let clock = 1_000_000;
    const g = createFetcher({ allowPrivate: true, gateSize: 1 }, { lookup: fixedResolver({}), now: () => clock });
    const held = await g.gate.acquire(new AbortController().signal);
    try {
      const fetching = g.fetchTarget(new AbortController().signal, caller, target('/notes.txt'));
      await vi.waitFor(() => expect(g.gate.waiting()).toBe(1));
      // It waited 4 s for the slot.
      clock += 4_000;
      held();
      const r = await fetching;
      expect(r.meta?.fetched_ms).toBeLessThan(4_000);
    } finally {
      held();
      await g.close();
    }
  });
});

describe('a page saying the site has banned the address Sift connects from', () => {
  const BANS = ['cf_error_1006_ip_banned.html', 'ncbi_blocked_diagnostic.html'];
  let bans: TestServer;
  beforeAll(async () => {
    bans = await startServer(Object.fromEntries(BANS.map((file) => [`/${file}`, (_q, r) => r.writeHead(403, { 'content-type': 'text/html; charset=utf-8' }).end(readFileSync(path.join(__dirname, '../fixtures/bans', file)))])));
  });
  afterAll(async () => {
    await bans.close();
  });
  it.each(BANS)("%s: says it is a ban, that a browser on this network may be refused too, and to try later or elsewhere, not 'pass the check'", async (file) => {
    const e = await fail(f.fetchTarget(new AbortController().signal, caller, { url: `${bans.origin}/${file}` }));
    expect(e).toMatchObject({ status: 403, reason: 'challenge' });
    expect(e.message).toMatch(/blocked the address Sift connects from/);
    expect(e.hint).not.toMatch(/pass the check/);
    expect(e.hint).toMatch(/browser on this network/);
    expect(e.hint).toMatch(/later|another network/);
  });
});

