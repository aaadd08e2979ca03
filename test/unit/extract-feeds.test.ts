import { afterAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { classify, createFetcher, FetchError } from '../../src/main/fetch';
import { feedFormat } from '../../src/main/fetch/sniff';
import type { Mode } from '../../src/shared/types';
import { fail } from '../helpers/fetch-server';

// Feeds in the shapes their publishers write them: WordPress's RSS 2.0, Blogger's Atom (HTML
// escaped in type='html'), a hand-written Atom with xml:base and XHTML content, RSS 1.0
// (RDF) in ISO-8859-1, a microblog's untitled items, and markup written straight into a
// <description>.
const FEEDS = path.join(__dirname, '../fixtures/feeds');
const feed = (name: string): Buffer => readFileSync(path.join(FEEDS, `${name}.xml`));
const URL = 'https://feeds.example/feed.xml';

const f = createFetcher({ deadlineMs: 6000 });
afterAll(() => f.close());
const read = (buf: Buffer | string, mode: Mode = 'markdown', type = 'application/rss+xml') => f.extractBuffer(Buffer.from(buf), type, { mode }, { url: URL });

describe('feeds read as their entries', () => {
  it('gives a WordPress feed as its title, then each post as a linked heading, its date and author, and its full content in Markdown', async () => {
    const r = await read(feed('wordpress-rss2'));
    expect(r.meta).toMatchObject({ title: 'Harbour Notes', feed: 'rss', entries: 2, kind: 'text' });
    const md = r.content;
    expect(md).toMatch(/^# Harbour Notes\n\nTides, boats & the people who mend them\n\n## \[Mending nets in the off season\]\(https:\/\/harbour\.example\/2024\/05\/mending-nets\/\)\n\n2024-05-14 08:12 UTC · Morwenna Trelawny\n/);
    // content:encoded, the whole post, over the description's teaser.
    expect(md).toContain('### The tools');
    expect(md).toContain('-   A mesh gauge the width of the _old_ mesh');
    expect(md).not.toContain('appeared first on');
    // A relative link resolves against the feed's address; the post's image stays.
    expect(md).toContain('[last year’s post on knots](https://feeds.example/2023/11/knots/)');
    expect(md).toContain('![Nets drying on the quay](https://harbour.example/wp-content/uploads/nets.jpg)');
    // Nothing that runs, and no tracking pixel.
    expect(md).not.toMatch(/trackRead|pixel\.gif/);
    expect(md).toContain('## [Spring tides & the equinox](https://harbour.example/2024/03/spring-tides/)\n\n2024-03-20 · Morwenna Trelawny');
  });

  it('reads Atom: escaped HTML, XHTML content, xml:base, the alternate link, and a summary where the content is only a reference', async () => {
    const blogger = await read(feed('blogger-atom'), 'markdown', 'application/atom+xml');
    expect(blogger.meta).toMatchObject({ title: 'Allotment Diary', feed: 'atom', entries: 2 });
    expect(blogger.content).toMatch(/^# Allotment Diary\n\nNotes from plot 14\n/);
    // rel='alternate', not the replies, edit or self links; the feed's author stands in for the entry's.
    expect(blogger.content).toContain('## [Broad beans, at last](https://allotment.example/2024/04/broad-beans.html)\n\n2024-04-02 08:30 UTC · Ffion');
    expect(blogger.content).toContain('The broad beans are up: **forty** of fifty');
    // A type='html' title is HTML: its tags go, its references are read.
    expect(blogger.content).toContain('## [Seeds & hope](https://allotment.example/2024/03/sowing.html)');
    const xhtml = await read(feed('xhtml-atom'), 'markdown', 'application/atom+xml');
    expect(xhtml.content).toContain('## [Owls of the valley](https://notes.example/blog/owls)\n\n2024-06-01 12:00 UTC · R. Price\n\nThree **tawny owls** nest in the [valley](https://notes.example/blog/maps/valley).');
    // No link element: the id, an address, is the page.
    expect(xhtml.content).toContain('## [Bats, by reference](https://notes.example/blog/bats)\n\n2024-05-20 12:00 UTC\n\nBats roost in the old mill.');
  });

  it('reads RSS 1.0 (RDF) in its declared charset, its items beside the channel', async () => {
    const r = await read(feed('rss1-rdf'), 'markdown', 'application/rdf+xml');
    // ISO-8859-1 read as windows-1252, as browsers read it.
    expect(r.meta).toMatchObject({ title: 'Village News', feed: 'rdf', entries: 2, charset: 'windows-1252' });
    expect(r.content).toContain('## [Fête raises £400 for the hall roof](https://news.example/story/1)\n\n2024-07-08 10:00 UTC · editor');
    // No <link>: the item's rdf:about names it.
    expect(r.content).toContain('## [Bus times change](https://news.example/story/2)');
  });

  it('heads an untitled item with its first words, and links it through its permalink guid', async () => {
    const r = await read(feed('microblog-untitled'));
    expect(r.content).toContain('## [First swifts of the summer over the square this evening, screaming round …](https://social.example/@gwen/112233)');
    expect(r.content).toContain('## [Rain.](https://social.example/@gwen/112200)');
  });

  it('keeps markup written straight into a description, and trims the blanks around a title and link', async () => {
    const r = await read(feed('unescaped-description'), 'markdown', 'text/html');
    expect(r.content).toContain('## [Report on bridge inspections](https://eng.example/news/2024/bridges/?utm_source=feed&utm_medium=rss)');
    expect(r.content).toContain('Inspectors checked **288** bridges in 101 towns.');
  });

  it("links a podcast episode's file by its name and type; an entry without a page has no link but its file", async () => {
    const r = await read(feed('podcast'));
    expect(r.content).toContain('## [Ep. 12: Mudflats](https://lowwater.example/12)\n\n2024-05-02 05:00 UTC\n\nWho lives in the mud, and why the birds come.\n\n[ep-12 mudflats.mp3](https://cdn.lowwater.example/episodes/ep-12%20mudflats.mp3) (audio/mpeg)');
    expect(r.content).toContain('## Ep. 11: Salt\n\nSalt marshes.\n\n[ep-11.mp3](https://feeds.example/episodes/ep-11.mp3) (audio/mpeg)');
    expect(JSON.parse((await read(feed('podcast'), 'meta')).content).entries[0].enclosures).toEqual([{ url: 'https://cdn.lowwater.example/episodes/ep-12%20mudflats.mp3', type: 'audio/mpeg' }]);
    const atom = await read('<feed xmlns="http://www.w3.org/2005/Atom"><title>A</title><entry><title>E</title><link href="https://a.example/e"/><link rel="enclosure" type="video/mp4" href="https://a.example/e.mp4"/></entry></feed>');
    expect(atom.content).toBe('# A\n\n## [E](https://a.example/e)\n\n[e.mp4](https://a.example/e.mp4) (video/mp4)');
  });

  it('reads a JSON Feed as its entries too; jq and raw still see its JSON', async () => {
    const json = readFileSync(path.join(FEEDS, 'jsonfeed.json'));
    const r = await read(json, 'markdown', 'application/feed+json');
    expect(r.meta).toMatchObject({ title: 'Small Notes', feed: 'json', entries: 2, kind: 'json' });
    expect(r.content).toBe(
      "# Small Notes\n\nShort notes, long walks\n\n## [Ferns in June](https://notes.example/2024/06/ferns)\n\n2024-06-12 06:30 UTC · Idris\n\nThe _hart's-tongue_ ferns are out along the lane.\n\n## No title, just a thought. Two lines of it.\n\n2024-06-10 · Guest\n\nNo title, just a thought.  \nTwo lines of it.\n\n[thought.m4a](https://notes.example/audio/thought.m4a) (audio/x-m4a)",
    );
    expect((await read(json, 'links', 'application/json')).content).toBe('https://notes.example/2024/06/ferns');
    expect((await read(json, 'raw', 'application/json')).content).toBe(json.toString('utf8'));
    const jq = await f.extractBuffer(json, 'application/json', { jq: '.items[0].title' }, { url: URL });
    expect(jq.content).toBe('"Ferns in June"');
    // Other JSON is JSON.
    const other = await read('{"version": "2", "items": []}', 'markdown', 'application/json');
    expect(other.content).toBe('{\n  "version": "2",\n  "items": []\n}');
    expect(other.meta?.feed).toBeUndefined();
  });

  it('resolves the relative links of a feed read from a file against the address it names, not against this disk', async () => {
    const fromFile = (buf: Buffer | string, type: string, url: string) => f.extractBuffer(Buffer.from(buf), type, { mode: 'markdown' }, { url });
    const rss = await fromFile(feed('wordpress-rss2'), 'application/rss+xml', 'file:///home/me/saved/wordpress-rss2.xml');
    expect(rss.content).toContain('[last year’s post on knots](https://harbour.example/2023/11/knots/)');
    expect(rss.content).not.toContain('file:');
    const json = JSON.stringify({
      version: 'https://jsonfeed.org/version/1.1',
      title: 'Saved',
      feed_url: 'https://notes.example/feeds/all.json',
      items: [{ id: '1', title: 'One', url: '/2024/one', content_html: '<p>See <a href="two">the next</a>.</p>' }],
    });
    const j = await fromFile(json, 'application/feed+json', 'file:///home/me/saved/all.json');
    expect(j.content).toContain('## [One](https://notes.example/2024/one)');
    expect(j.content).toContain('[the next](https://notes.example/feeds/two)');
    // A feed that names no web address of its own keeps the file's.
    const bare = await fromFile('<rss version="2.0"><channel><title>T</title><item><title>A</title><description>&lt;a href="b.html"&gt;b&lt;/a&gt;</description></item></channel></rss>', 'application/rss+xml', 'file:///home/me/saved/t.xml');
    expect(bare.content).toContain('[b](file:///home/me/saved/b.html)');
  });

  it('gives the entries as text, as clean HTML, as their links, and as a JSON outline', async () => {
    const text = await read(feed('wordpress-rss2'), 'text');
    expect(text.content).toMatch(/^Harbour Notes\n\nTides, boats & the people who mend them\n\nMending nets in the off season\n\n2024-05-14/);
    expect(text.content).toContain('• A netting needle, filled\n• A mesh gauge the width of the old mesh');
    expect(text.content).not.toMatch(/[<>]|trackRead/);
    const html = await read(feed('wordpress-rss2'), 'html');
    expect(html.content).toContain('<h2><a href="https://harbour.example/2024/05/mending-nets/">Mending nets in the off season</a></h2>');
    expect(html.content).not.toMatch(/<script|onclick|pixel\.gif/);
    const links = await read(feed('wordpress-rss2'), 'links');
    expect(links.content.split('\n')).toEqual(['https://harbour.example/2024/05/mending-nets/', 'https://harbour.example/2024/03/spring-tides/']);
    expect(links.meta).toMatchObject({ links: 2 });
    const meta = await read(feed('blogger-atom'), 'meta');
    expect(JSON.parse(meta.content)).toEqual({
      feed: 'atom',
      title: 'Allotment Diary',
      link: 'https://allotment.example/',
      description: 'Notes from plot 14',
      entries: [
        { title: 'Broad beans, at last', link: 'https://allotment.example/2024/04/broad-beans.html', date: '2024-04-02 08:30 UTC', author: 'Ffion' },
        { title: 'Seeds & hope', link: 'https://allotment.example/2024/03/sowing.html', date: '2024-03-10 18:00 UTC', author: 'Ffion' },
      ],
    });
  });

  it('returns raw as the XML itself, titled by the feed', async () => {
    const r = await read(feed('wordpress-rss2'), 'raw');
    expect(r.content).toBe(feed('wordpress-rss2').toString('utf8'));
    expect(r.meta?.title).toBe('Harbour Notes');
  });

  it('greps and answers questions over the entries, not the markup', async () => {
    const g = await f.extractBuffer(feed('wordpress-rss2'), 'application/rss+xml', { grep: 'equinox' }, { url: URL });
    expect(g.content.split('\n')).toEqual(['## [Spring tides & the equinox](https://harbour.example/2024/03/spring-tides/)', 'The biggest tides of the year come at the equinoxes.']);
  });
});

describe('bad feeds', () => {
  const rss = (inner: string) => `<?xml version="1.0"?><rss version="2.0"><channel>${inner}</channel></rss>`;
  it('reads a feed cut short, and one with bare ampersands and angle brackets, as far as it goes', async () => {
    const cut = await read('<?xml version="1.0"?><rss version="2.0"><channel><title>Cut</title><item><title>One</title><link>https://a.example/1</link><description>&lt;p&gt;Hel');
    expect(cut.content).toBe('# Cut\n\n## [One](https://a.example/1)\n\nHel');
    const sloppy = await read(rss('<title>Tom & Jerry</title><item><title>A & B < C</title><link>https://a.example/?a=1&b=2</link></item>'));
    expect(sloppy.content).toBe('# Tom & Jerry\n\n## [A & B < C](https://a.example/?a=1&b=2)');
  });
  it("reads HTML's named references in titles and authors, which XML alone does not know", async () => {
    const r = await read(rss('<title>Caf&eacute; &mdash; news</title><item><title>Na&iuml;ve&nbsp;title</title><link>https://a.example/1</link><dc:creator>Jos&eacute;</dc:creator></item><item><title>T</title><author>jo@a.example (Jo &lt;the editor&gt;)</author></item>'));
    expect(r.content).toBe('# Café — news\n\n## [Naïve title](https://a.example/1)\n\nJosé\n\n## T\n\njo@a.example (Jo \\<the editor>)');
  });
  it('expands no entities a DTD defines (no billion laughs)', async () => {
    const laughs = `<?xml version="1.0"?><!DOCTYPE rss [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "${'&a;'.repeat(10)}"><!ENTITY c "${'&b;'.repeat(10)}">]>${rss('<title>&c;</title>')}`;
    expect(feedFormat(laughs)).toBe('rss');
    const r = await read(laughs);
    expect(r.content).toBe('# &c;');
  });
  it('says a feed without entries has none', async () => {
    const r = await read(rss('<title>Quiet</title>'));
    expect(r.content).toBe('# Quiet');
    expect(r.meta).toMatchObject({ entries: 0, warnings: ['no_entries'] });
  });
  it('refuses XML nested past the parse limit with 422 too_long, and gives an entry nested past an article’s limit as its text', async () => {
    const e = await fail(read(rss(`<title>Deep</title>${'<x>'.repeat(6000)}`)));
    expect(e).toBeInstanceOf(FetchError);
    expect(e.status).toBe(422);
    expect(e.msg).toBe('document too long: XML nested more than 4096 levels deep');
    expect(e.reason).toBe('too_long');
    const r = await read(rss(`<title>Deep</title><item><title>D</title><description>${'&lt;div&gt;'.repeat(5000)}deep words</description></item>`));
    expect(r.content).toBe('# Deep\n\n## D\n\ndeep words');
  });
  it('keeps no javascript: link, frame or event handler from an entry', async () => {
    const r = await read(rss('<title>J</title><item><title>J</title><link>javascript:alert(1)</link><description>&lt;a href="javascript:alert(1)"&gt;click&lt;/a&gt; &lt;iframe src="https://evil.example/"&gt;&lt;/iframe&gt;&lt;img src="/x.png" onerror="alert(1)"&gt;</description></item>'), 'html');
    expect(r.content).toBe('<h1>J</h1><section><h2>J</h2><div>click <img src="https://feeds.example/x.png"></div></section>');
  });
});

describe('what is a feed', () => {
  it('knows a feed by its root element, after a declaration, style sheets, comments and a doctype', () => {
    expect(feedFormat('<?xml version="1.0"?>\n<?xml-stylesheet href="a.xsl"?>\n<!-- made by hand -->\n<rss version="2.0">')).toBe('rss');
    expect(feedFormat('\uFEFF<feed xmlns="http://www.w3.org/2005/Atom">')).toBe('atom');
    expect(feedFormat("<a:feed xmlns:a='http://www.w3.org/2005/Atom'>")).toBe('atom');
    expect(feedFormat('<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns="http://purl.org/rss/1.0/">')).toBe('rdf');
  });
  it('does not take other XML for one: a "feed" outside Atom, RDF that is not RSS, a sitemap, an XHTML page, an SVG', () => {
    expect(feedFormat('<feed><title>Not atom</title></feed>')).toBeUndefined();
    expect(feedFormat('<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><rdf:Description/></rdf:RDF>')).toBeUndefined();
    expect(feedFormat('<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">')).toBeUndefined();
    expect(feedFormat('<?xml version="1.0"?><html xmlns="http://www.w3.org/1999/xhtml"><body><rss/></body></html>')).toBeUndefined();
    expect(feedFormat('<svg xmlns="http://www.w3.org/2000/svg"></svg>')).toBeUndefined();
    expect(feedFormat('plain words about <rss> feeds')).toBeUndefined();
  });
  it('reads a feed sent as text/html, or with no type, as a feed, not as a page to find an article in', () => {
    expect(classify('text/html; charset=utf-8', feed('unescaped-description'))).toBe('text');
    expect(classify('', feed('wordpress-rss2'))).toBe('text');
    expect(classify('application/octet-stream', feed('blogger-atom'))).toBe('text');
    // A page is still a page.
    expect(classify('text/html', Buffer.from('<!doctype html><html><body><p>rss</p></body></html>'))).toBe('html');
  });
});

describe('the title and links of other text', () => {
  it("titles XML by its <title>, never by its markup, and Markdown by its first line without the heading's marks", async () => {
    const svg = await f.extractBuffer(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><title>Company &amp; logo</title><text>hi</text></svg>'), 'image/svg+xml', {});
    expect(svg.meta?.title).toBe('Company & logo');
    const xml = await f.extractBuffer(Buffer.from('<?xml version="1.0"?><root><a>1</a></root>'), 'application/xml', {});
    expect(xml.meta?.title).toBe('');
    expect(xml.content).toBe('<?xml version="1.0"?><root><a>1</a></root>');
    const md = await f.extractBuffer(Buffer.from('## Read me ##\n\ntext'), 'text/markdown', {});
    expect(md.meta?.title).toBe('Read me');
    const txt = await f.extractBuffer(Buffer.from('\n  # not a heading in plain text\nmore'), 'text/plain', {});
    expect(txt.meta?.title).toBe('# not a heading in plain text');
  });
  it('titles Markdown as its reader does: front matter, else the first level-1 heading outside code, grep or not', async () => {
    const title = async (md: string, type = 'text/markdown', url = 'https://a.example/notes.md', grep?: string) =>
      (await f.extractBuffer(Buffer.from(md), type, grep ? { grep } : {}, { url })).meta?.title;
    // The first line was "---", and the badges over a README's name.
    expect(await title('---\nlayout: post\ntitle: "Dock notes"\n---\n\nMara counted the crates.\n', 'text/markdown', 'https://a.example/notes.md', 'crates')).toBe('Dock notes');
    expect(await title('---\nlayout: post\n---\n\n# Dock notes\n\ntext')).toBe('Dock notes');
    expect(await title('[![build](https://ci.example/b.svg)](https://ci.example/)\n\n# sift\n\nTurns lists into files.')).toBe('sift');
    expect(await title('<p align="center"><img src="logo.png"></p>\n<h1 align="center">Sift &amp; co</h1>\n\ntext')).toBe('Sift & co');
    expect(await title('Intro line\n\nDock notes\n==========\n\ntext')).toBe('Dock notes');
    // A "#" inside code is no heading; with no level-1 heading, the first heading, else the first line outside code.
    expect(await title('```sh\n# install\nnpm i\n```\n\n## Usage\n')).toBe('Usage');
    expect(await title('## Read me ##\n\n### Then\n')).toBe('Read me');
    expect(await title('```\n# install\n```\nMara counted the crates.\n')).toBe('Mara counted the crates.');
    // Raw file hosts send a .md file as text/plain; a .txt stays plain text.
    expect(await title('[![ci](b.svg)](c)\n\n# sift\n', 'text/plain', 'https://raw.example/u/sift/README.md')).toBe('sift');
    expect(await title('[![ci](b.svg)](c)\n\n# sift\n', 'text/plain', 'https://raw.example/u/sift/notes.txt')).toBe('[![ci](b.svg)](c)');
  });

  it('stores a title without the control characters a page, a text or a feed put in it', async () => {
    const page = await f.extractBuffer(Buffer.from('<html><head><title>Red\u001b[31m alert\u0007 \u0000now</title></head><body><article><p>Words.</p></article></body></html>'), 'text/html', { mode: 'raw' });
    expect(page.meta?.title).toBe('Red[31m alert now');
    const txt = await f.extractBuffer(Buffer.from('Line\tone\u0007 begins\nmore'), 'text/plain', {});
    expect(txt.meta?.title).toBe('Line one begins');
    // A backspace strikes over what it follows, as a terminal shows the text (text-bytes asShown).
    const struck = await f.extractBuffer(Buffer.from('Line\tone\u0008 begins\nmore'), 'text/plain', {});
    expect(struck.meta?.title).toBe('Line on begins');
    const svg = await f.extractBuffer(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><title>Logo\u001b</title></svg>'), 'image/svg+xml', {});
    expect(svg.meta?.title).toBe('Logo');
  });
  it("titles a table (CSV, TSV) by its file's name, not by its header row or a comment line", async () => {
    const table = '# prices in pence\nitem,price\ntea,300\n';
    const csv = await f.extractBuffer(Buffer.from(table), 'text/csv; charset=utf-8', {}, { url: 'https://data.example/shop/prices%202024.csv?v=2' });
    expect(csv.meta?.title).toBe('prices 2024.csv');
    expect(csv.content).toBe(table);
    const tsv = await f.extractBuffer(Buffer.from('item\tprice\n'), 'text/tab-separated-values', {}, { url: 'https://data.example/export/' });
    expect(tsv.meta?.title).toBe('');
  });
  // A hang guard, not a timing: one pass is milliseconds; the regexes before it ran minutes on a page of unclosed "<title".
  it('reads a title from markup of unclosed tags and stray "<" in one pass, in XML and in raw HTML', { timeout: 20_000 }, async () => {
    const unclosed = await f.extractBuffer(Buffer.from(`<?xml version="1.0"?><root>${'<title'.repeat(10_000)}`), 'application/xml', {});
    expect(unclosed.meta?.title).toBe('');
    const stray = await f.extractBuffer(Buffer.from(`<root><title>a ${'<'.repeat(60_000)} b</title></root>`), 'application/xml', {});
    // Cut at 200 characters, as every title is.
    expect(stray.meta?.title).toBe(`a ${'<'.repeat(198)}`);
    const raw = await f.extractBuffer(Buffer.from(`<html><head>${'<title '.repeat(1_000_000)}`), 'text/html', { mode: 'raw' });
    expect(raw.meta?.title).toBe('');
  });
  it("gives a sitemap's pages as its links, without the addresses of its namespaces and schemas", async () => {
    const sitemap =
      '<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:schemaLocation="http://www.sitemaps.org/schemas/sitemap/0.9 http://www.sitemaps.org/schemas/sitemap/0.9/sitemap.xsd">\n<url><loc>https://a.example/</loc></url>\n<url><loc>https://a.example/about?x=1&amp;y=2</loc></url>\n</urlset>\n';
    const r = await f.extractBuffer(Buffer.from(sitemap), 'application/xml', { mode: 'links' });
    expect(r.content.split('\n')).toEqual(['https://a.example/', 'https://a.example/about?x=1&y=2']);
    // Plain text keeps what it says: "&amp;" in a text file is those five characters.
    const text = await f.extractBuffer(Buffer.from('see https://a.example/?q=1&amp;r=2 now'), 'text/plain', { mode: 'links' });
    expect(text.content).toBe('https://a.example/?q=1&amp;r=2');
  });
});

describe("a feed's footnotes", () => {
  // kramdown's notes as a blog's feed carries them: each post's marks point at "#fn:1", the same
  // ids in every post, or at the post's own address.
  const post = (n: number, href: string): string =>
    `<item><title>Post ${n}</title><link>https://blog.example/p${n}</link><description><![CDATA[<p>Claim ${n}<sup id="fnref:1"><a href="${href}#fn:1" class="footnote">1</a></sup> here.</p>` +
    `<div class="footnotes"><ol><li id="fn:1"><p>Note of post ${n}. <a href="${href}#fnref:1" class="reversefootnote">↩</a></p></li></ol></div>]]></description></item>`;
  const rss = (items: string): string => `<?xml version="1.0"?><rss version="2.0"><channel><title>Blog</title><link>https://blog.example/</link>${items}</channel></rss>`;

  it("are each post's own Markdown notes, where a second post's mark cited the first post's note and its note stayed a list", async () => {
    const md = (await read(rss(post(1, '') + post(2, '')))).content;
    expect(md).toContain('Claim 1[^1-1] here.\n\n[^1-1]: Note of post 1.');
    expect(md).toContain('Claim 2[^2-1] here.\n\n[^2-1]: Note of post 2.');
    expect(md).not.toContain('↩');
  });

  it("are notes when the marks point at the post's own address, and a feed of one post keeps the page's labels", async () => {
    const md = (await read(rss(post(1, 'https://blog.example/p1')))).content;
    expect(md).toContain('Claim 1[^1] here.\n\n[^1]: Note of post 1.');
  });

  it('leave the html and the text as the feed wrote them', async () => {
    const html = (await read(rss(post(1, '') + post(2, '')), 'html')).content;
    expect(html).not.toContain('data-sift-note');
    expect(html).toContain('<a href="#fn:1" class="footnote">1</a>');
    const text = (await read(rss(post(1, '') + post(2, '')), 'text')).content;
    expect(text).toContain('Note of post 2.');
  });
});
