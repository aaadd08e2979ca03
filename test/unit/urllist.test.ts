import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Options } from '../../src/shared/types';
import { detectFormat, formatOptionsLine, isRouteFragment, normalizeUrl, parseList, type ListFormat } from '../../src/shared/urllist';
import { hostLabel } from '../../src/shared/urllist/url';
import { idemKey } from '../../src/main/batch';

const FIXTURES = path.join(__dirname, '..', 'fixtures', 'lists');
const fixture = (name: string): string => readFileSync(path.join(FIXTURES, name), 'utf8');

interface Case {
  file: string;
  format: ListFormat;
  targets: [line: number, url: string, options?: Options][];
  invalid: [line: number, reason: RegExp][];
  duplicates: [line: number, firstLine: number][];
}

const cases: Case[] = [
  {
    file: 'firefox-bookmarks.html',
    format: 'html',
    targets: [
      [14, 'https://support.mozilla.org/en-US/products/firefox'],
      [15, 'https://www.mozilla.org/en-US/firefox/customize/'],
      [20, 'https://news.ycombinator.com/item?id=1&p=2'],
      [22, 'https://www.bbc.co.uk/news'],
      [28, 'https://de.wikipedia.org/wiki/M%C3%BCnchen'],
    ],
    invalid: [
      [19, /^not an http\(s\) URL: place:sort=8&maxResults=10 \(a browser.s saved search or smart folder, not a page\)$/],
      [23, /^not an http\(s\) URL: javascript:/],
    ],
    duplicates: [[25, 22]],
  },
  {
    file: 'chrome-bookmarks.html',
    format: 'html',
    targets: [
      [11, 'https://developer.mozilla.org/en-US/docs/Web/HTTP'],
      [12, 'https://www.nytimes.com/2024/01/01/technology/ai.html?smid=url-share'],
      [15, 'https://arxiv.org/pdf/1706.03762'],
      [17, 'https://xn--bcher-kva.example/katalog?q=a&b=c'],
    ],
    invalid: [
      [16, /^not an http\(s\) URL: chrome:\/\/settings\//],
      [23, /^not an http\(s\) URL: file:\/\/\//],
    ],
    duplicates: [[22, 15]],
  },
  {
    file: 'safari-bookmarks.html',
    format: 'html',
    targets: [
      [8, 'https://www.apple.com/'],
      [13, 'https://www.theatlantic.com/technology/archive/2024/05/article/678000/'],
      [15, 'https://example.org/long?x=%20y&z=1'],
    ],
    invalid: [[17, /^not an http\(s\) URL: feed:/]],
    duplicates: [[9, 8]],
  },
  {
    file: 'sheet.csv',
    format: 'csv',
    targets: [
      [2, 'https://example.org/q3.pdf', { mode: 'text' }],
      [3, 'https://example.org/pricing', { question: 'what does it cost?' }],
    ],
    invalid: [
      [6, /^unknown mode "fancy"/],
      [7, /^no URL in column 2 \(URL\)$/],
      [9, /^not an http\(s\) URL: ftp:/],
    ],
    duplicates: [[8, 2]],
  },
  {
    file: 'reading.tsv',
    format: 'tsv',
    targets: [
      [2, 'https://example.org/annual.pdf', { pages: '1-5', grep: 'net revenue' }],
      [3, 'https://example.org/blog'],
    ],
    invalid: [[4, /^pages must look like 1-3,7,10- \(got "all"\)$/]],
    duplicates: [],
  },
  {
    file: 'reading-list.md',
    format: 'markdown',
    targets: [
      [3, 'https://example.org/archive'],
      [5, 'https://arxiv.org/abs/1706.03762'],
      [6, 'https://en.wikipedia.org/wiki/Rust_(programming_language)'],
      [7, 'https://blog.example.com/posts/42'],
      [8, 'https://www.example.net/page?a=1&b=2'],
      [15, 'https://example.org/with%20space'],
      [17, 'https://example.org/referenced'],
    ],
    invalid: [
      [10, /^relative URL/],
      [11, /^not an http\(s\) URL: mailto:/],
    ],
    duplicates: [[15, 3]],
  },
  {
    file: 'links.uri',
    format: 'uri-list',
    targets: [
      [2, 'https://example.org/a'],
      [4, 'https://example.org/b?x=1'],
    ],
    invalid: [[7, /^not an http\(s\) URL: urn:isbn:/]],
    duplicates: [[6, 2]],
  },
  {
    file: 'list.json',
    format: 'json',
    targets: [
      [2, 'https://example.org/a'],
      [3, 'https://api.example.org/items.json', { jq: '.items[] | .name' }],
      [4, 'https://example.org/report.pdf', { pages: '1-3', context: true }],
      // "link", as a CSV's column may be named.
      [6, 'https://example.org/c'],
      [9, 'https://example.org/d', { question: 'what is new?' }],
    ],
    invalid: [
      [5, /^unknown mode "fancy"/],
      [8, /^not an http\(s\) URL: mailto:/],
    ],
    duplicates: [[7, 2]],
  },
  {
    file: 'options.txt',
    format: 'text',
    targets: [
      [2, 'https://example.org/report.pdf', { pages: '1-5', grep: 'net revenue', context: true }],
      [3, 'https://api.example.org/items.json', { jq: '.items[] | .name' }],
      [4, 'https://example.org/post', { question: 'what does it cost?', mode: 'text' }],
      [6, 'https://example.org/faq', { question: 'say "hi"', context: false, recover: true }],
      [11, 'https://example.org/report.pdf', { pages: '1-5' }],
    ],
    invalid: [
      [7, /^unknown mode "foo": use one of markdown, text/],
      [8, /^unknown option "colour"/],
      [9, /^missing scheme: did you mean https:\/\/example\.com\/page\?$/],
      [12, /^option grep: missing closing "$/],
    ],
    duplicates: [[10, 2]],
  },
  {
    // Chromium's Bookmarks file: folders walked in place; a chrome:// page is no web page.
    file: 'chromium-bookmarks.json',
    format: 'json',
    targets: [
      [15, 'https://tides.example/tables?port=brest&year=2024'],
      [23, 'https://knots.example/bowline'],
    ],
    invalid: [[44, /^not an http\(s\) URL: chrome:/]],
    duplicates: [],
  },
  {
    // Firefox's JSON backup: nested containers, each bookmark's "uri"; separators have none.
    file: 'firefox-bookmarks.json',
    format: 'json',
    targets: [
      [4, 'https://support.mozilla.org/products/firefox'],
      [6, 'https://de.wikipedia.org/wiki/M%C3%BCnchen'],
      [8, 'https://news.ycombinator.com/'],
    ],
    invalid: [[5, /^not an http\(s\) URL: place:/]],
    duplicates: [[10, 8]],
  },
  {
    // A site's own list of its pages: every <loc>, not its images'.
    file: 'sitemap.xml',
    format: 'xml',
    targets: [
      [8, 'https://shop.example/'],
      [14, 'https://shop.example/catalogue?cat=tea&sort=new'],
      [19, 'https://shop.example/about-us'],
    ],
    invalid: [[20, /^relative URL/]],
    duplicates: [[21, 8]],
  },
  {
    // A feed reader's subscriptions: each feed, else the outline's link or site; folders carry none.
    file: 'subscriptions.opml',
    format: 'xml',
    targets: [
      [9, 'https://allotment.example/feeds/posts/default'],
      [10, 'https://harbour.example/feed/?type=rss&full=1'],
      [13, 'https://essays.example/on-tides'],
      [14, 'https://village.example/'],
    ],
    invalid: [[15, /^not an http\(s\) URL: feed:nothing/]],
    duplicates: [],
  },
];

describe('parseList reads each format as browsers and spreadsheets export it', () => {
  for (const c of cases) {
    it(`${c.file}: targets, invalid lines and duplicates with their line numbers`, () => {
      const input = fixture(c.file);
      for (const r of [parseList(input, { filename: c.file }), parseList(input, { format: c.format })]) {
        expect(r.format).toBe(c.format);
        expect(r.targets).toEqual(
          c.targets.map(([line, url, options]) => (options ? { line, url, options } : { line, url })),
        );
        expect(r.invalid.map((p) => p.line)).toEqual(c.invalid.map(([l]) => l));
        r.invalid.forEach((p, i) => expect(p.reason).toMatch(c.invalid[i]![1]));
        expect(r.duplicates.map((p) => [p.line, p.reason])).toEqual(
          c.duplicates.map(([l, first]) => [l, `duplicate of line ${first}`]),
        );
        expect(r.truncated).toBe(false);
      }
    });
  }

  it('detects every fixture format from its content alone, except uri-list which reads as text', () => {
    for (const c of cases) {
      expect(detectFormat(fixture(c.file)), c.file).toBe(c.format === 'uri-list' ? 'text' : c.format);
    }
  });

  it('lets the MIME type win over the file extension, and the extension over the content', () => {
    const text = 'https://example.org/a\n';
    expect(detectFormat(text, 'list.csv', 'text/uri-list; charset=utf-8')).toBe('uri-list');
    expect(detectFormat(text, 'bookmarks.HTM')).toBe('html');
    expect(detectFormat('[{"url":"https://a.org"}]', 'x.unknown')).toBe('json');
  });
});

describe('a saved web page as the list', () => {
  const links = '<body><a href="/story/1">one</a> <a href="story/2?x=1&amp;y=2">two</a> <a href="https://abs.example/3">three</a> <a href="#top">top</a> <a href="//cdn.example/4">four</a></body></html>';
  const urls = (page: string) => parseList(page);
  it('resolves its relative links against the address it names: <base>, the "saved from" mark, its canonical link or og:url', () => {
    const under = (base: string) => ['https://news.example/story/1', `${base}story/2?x=1&y=2`, 'https://abs.example/3', 'https://cdn.example/4'];
    const heads = {
      base: '<html><head><base href="https://news.example/section/"><link rel="canonical" href="https://other.example/"></head>',
      saved: '<!DOCTYPE html>\n<!-- saved from url=(0036)https://news.example/section/today -->\n<html><head><link rel="canonical" href="https://other.example/"></head>',
      canonical: '<html><head><LINK REL="alternate canonical" HREF="https://news.example/section/today"></head>',
      ogUrl: "<html><head><meta property='og:url' content='https://news.example/section/today'></head>",
    };
    for (const [kind, head] of Object.entries(heads)) {
      const r = urls(head + links);
      expect(r.format, kind).toBe('html');
      expect(r.targets.map((t) => t.url), kind).toEqual(under('https://news.example/section/'));
      expect(r.invalid, kind).toEqual([]);
    }
  });
  it('a page that names no web address (or only a relative or non-http one) still says its relative links need one', () => {
    for (const head of ['<html><head>', '<html><head><base href="/docs/"><meta property="og:url" content="file:///home/me/page.html">']) {
      const r = urls(head + links);
      expect(r.targets.map((t) => t.url)).toEqual(['https://abs.example/3']);
      const noBase = expect.stringMatching(/^relative URL: the page names no web address of its own/);
      expect(r.invalid.map((i) => [i.line, i.reason])).toEqual([[1, noBase], [1, noBase], [1, 'missing scheme: did you mean https://cdn.example/4?']]);
    }
  });
});

describe('XML lists', () => {
  const feeds = path.join(__dirname, '..', 'fixtures', 'feeds');
  const feed = (name: string): string => readFileSync(path.join(feeds, `${name}.xml`), 'latin1');
  it("reads a feed's entries as the list: RSS links, RDF items, a microblog's permalink guids, Atom's alternate links", () => {
    const urls = (name: string) => parseList(feed(name), { filename: `${name}.xml` }).targets.map((t) => t.url);
    expect(urls('wordpress-rss2')).toEqual(['https://harbour.example/2024/05/mending-nets/', 'https://harbour.example/2024/03/spring-tides/']);
    expect(urls('rss1-rdf')).toEqual(['https://news.example/story/1', 'https://news.example/story/2']);
    expect(urls('microblog-untitled')).toEqual(['https://social.example/@gwen/112233', 'https://social.example/@gwen/112200']);
    expect(urls('blogger-atom')).toEqual(['https://allotment.example/2024/04/broad-beans.html', 'https://allotment.example/2024/03/sowing.html']);
    // No link: the entry's id, an address.
    expect(parseList('<feed xmlns="http://www.w3.org/2005/Atom"><entry><id>https://a.example/1</id><link rel="edit" href="https://a.example/edit/1"/></entry></feed>').targets.map((t) => t.url)).toEqual(['https://a.example/1']);
  });
  it("resolves a feed's relative links as a feed reader does: against xml:base, else the address the feed came from", () => {
    // An Atom feed as the RFC's examples write one: xml:base on <feed>, a relative alternate link.
    const atom = parseList(feed('xhtml-atom'), { filename: 'xhtml-atom.xml' });
    expect(atom.targets.map((t) => [t.line, t.url])).toEqual([
      [7, 'https://notes.example/blog/owls'],
      [19, 'https://notes.example/blog/bats'],
    ]);
    expect(atom.invalid).toEqual([]);
    // An entry's own xml:base, itself relative to the feed's.
    const nested = parseList('<feed xmlns="http://www.w3.org/2005/Atom" xml:base="https://a.example/blog/"><entry xml:base="2024/"><link href="owls.html"/></entry></feed>');
    expect(nested.targets.map((t) => t.url)).toEqual(['https://a.example/blog/2024/owls.html']);
    // An RSS feed fetched by its address (sift batch URL, the composer's address box) whose links are written from the site's root.
    const rss = '<rss version="2.0"><channel><item><link>/2024/06/tides</link></item><item><link>https://b.example/x</link></item></channel></rss>';
    expect(parseList(rss, { baseUrl: 'https://a.example/feed.xml' }).targets.map((t) => t.url)).toEqual(['https://a.example/2024/06/tides', 'https://b.example/x']);
    // With no address to resolve against, the relative link is still reported, not guessed.
    expect(parseList(rss).invalid.map((p) => [p.line, p.reason])).toEqual([[1, 'relative URL: needs https://host/…']]);
    // A sitemap's <loc> must be absolute (the sitemaps protocol): not resolved.
    expect(parseList('<urlset><url><loc>/contact</loc></url></urlset>', { baseUrl: 'https://a.example/sitemap.xml' }).targets).toEqual([]);
  });
  it('knows XML lists by type, extension and content; an XHTML page stays HTML', () => {
    expect(detectFormat('anything', undefined, 'application/rss+xml')).toBe('xml');
    expect(detectFormat('anything', 'subs.OPML')).toBe('xml');
    expect(detectFormat('<?xml version="1.0"?>\n<urlset>')).toBe('xml');
    expect(detectFormat('<opml version="1.0"><body/></opml>')).toBe('xml');
    expect(detectFormat('<?xml version="1.0"?><!DOCTYPE html><html xmlns="http://www.w3.org/1999/xhtml"><body><a href="https://a.example/">a</a></body></html>')).toBe('html');
    expect(parseList('<?xml version="1.0"?><html><body><a href="https://a.example/">a</a></body></html>', { format: 'xml' }).targets.map((t) => t.url)).toEqual(['https://a.example/']);
  });
  it('says what it reads of XML that is no list, and reads a cut-off sitemap as far as it goes, saying it is cut off', () => {
    const other = parseList('<?xml version="1.0"?>\n<catalog><book id="1"/></catalog>');
    expect(other.targets).toEqual([]);
    expect(other.invalid).toEqual([{ line: 1, text: '<?xml version="1.0"?>', reason: 'not a list Sift reads from XML (its root element is <catalog>): it reads sitemaps, OPML outlines and RSS or Atom feeds' }]);
    expect(parseList('not xml at all', { format: 'xml' }).invalid[0]?.reason).toMatch(/^not a list Sift reads from XML: it reads sitemaps/);
    const cut = parseList('<urlset>\n<url><loc>https://a.example/1</loc></url>\n<url><loc>https://a.example/2</lo', { format: 'xml' });
    expect(cut.targets.map((t) => t.url)).toEqual(['https://a.example/1']);
    expect(cut.invalid).toEqual([
      { line: 3, text: '<url><loc>https://a.example/2</lo', reason: 'the file ends before its closing </urlset>: it looks cut short (a download that stopped?), and any URLs after this point are missing' },
    ]);
    expect(parseList('<rdf:RDF xmlns:rdf="x"><item rdf:about="https://a.example/1"></item></rdf:RDF>\n', { format: 'xml' }).invalid).toEqual([]);
  });
  // A hang guard, not a timing: one pass takes well under a second, a pass per entry minutes.
  it('reads unclosed elements and quotes in one pass (a regex over them went back over the rest of the file for each)', { timeout: 20_000 }, () => {
    const open = 100_000;
    for (const input of [
      `<urlset>${'<url><loc>https://a.example/'.repeat(open)}`,
      `<rss><channel>${'<item><title>t</title><link>https://a.example/'.repeat(open)}`,
      `<feed xmlns="http://www.w3.org/2005/Atom">${'<entry><link href="https://a.example/"/>'.repeat(open)}`,
      `<opml><body>${'<outline text="a > b" xmlUrl="https://a.example/'.repeat(open)}`,
    ]) {
      const r = parseList(input, { format: 'xml' });
      expect(r.targets.length).toBeLessThanOrEqual(1);
    }
  });
  // A hang guard, not a timing: one pass takes a second or two, a pass per entry minutes (27 s at 100,000 on a quiet machine).
  it('reads a list written on one line (minified) in one pass, not a pass over the rest of the file per entry', { timeout: 20_000 }, () => {
    const n = 200_000;
    const sitemap = `<urlset>${Array.from({ length: n }, (_, i) => `<url><loc>https://a.example/${i}</loc></url>`).join('')}</urlset>`;
    const bookmarks = `<DL>${Array.from({ length: n }, (_, i) => `<DT><A HREF="https://a.example/${i}">${i}</A>`).join('')}</DL>`;
    for (const input of [sitemap, bookmarks]) {
      const r = parseList(input);
      expect(r.targets).toHaveLength(n);
      expect(r.targets[n - 1]).toEqual({ line: 1, url: `https://a.example/${n - 1}` });
    }
  });
  it('stops at the target cap and says the list was cut', () => {
    const big = `<urlset>${Array.from({ length: 50 }, (_, i) => `<url><loc>https://a.example/${i}</loc></url>`).join('\n')}</urlset>`;
    const r = parseList(big, { maxTargets: 10 });
    expect(r.targets).toHaveLength(10);
    expect(r.truncated).toBe(true);
  });
});

describe('plain text lines', () => {
  it('handles a BOM and CRLF line endings without counting them into the URL or line numbers', () => {
    const r = parseList('\uFEFFhttps://example.org/a\r\n\r\nhttps://example.org/b mode=text\r\n');
    expect(r.targets).toEqual([
      { line: 1, url: 'https://example.org/a' },
      { line: 3, url: 'https://example.org/b', options: { mode: 'text' } },
    ]);
  });

  it('keeps backslashes that escape nothing, so regexes and jq string interpolation survive', () => {
    const r = parseList(`https://a.org/x grep="\\d+ \\"q\\" \\\\\\\\x" jq='"\\(.name) it\\'s"'`);
    expect(r.invalid).toEqual([]);
    expect(r.targets[0]?.options).toEqual({ grep: '\\d+ "q" \\\\x', jq: '"\\(.name) it\'s"' });
  });

  it('takes a grep that ignores case with a leading (?i), which JavaScript alone would refuse', () => {
    const r = parseList('https://a.org/x grep="(?i)net revenue"');
    expect(r.invalid).toEqual([]);
    expect(r.targets[0]?.options).toEqual({ grep: '(?i)net revenue' });
  });

  it('treats an unquoted word starting with # after the URL as a comment', () => {
    const r = parseList('https://a.org/x context # read this first');
    expect(r.targets).toEqual([{ line: 1, url: 'https://a.org/x', options: { context: true } }]);
  });

  it.each([
    ['https://a.org/x question', /^option question needs a value/],
    ['https://a.org/x context=maybe', /^context must be true or false/],
    ['https://a.org/x grep=( ', /^grep "\(" is not a valid regular expression: a \( has no \) to close it$/],
    ['https://a.org/x q=a question=b', /^option question given twice$/],
    ['https://a.org/x grep=""', /^option grep has an empty value$/],
    ['https://a.org/x q="   "', /^option question has an empty value$/],
    ['https://a.org/x grep="a"b', /^option grep: the " inside the value ends it/],
    [`https://a.org/x q="${'x'.repeat(2001)}"`, /^question: 2001 characters, at most 2000; shorten it$/],
    ['https://a.org/x https://a.org/y', /^more than one URL on this line: put each URL on a line of its own$/],
    ['https://a.org/My Report.pdf pages=1', /^unknown option "Report\.pdf": use mode, .* or render; a space ends the URL, so write a space inside one as %20$/],
    ['https://a.org/x colour=blue', /^unknown option "colour": use mode, question \(q\), pages, grep, jq, context, recover or render$/],
    ['https://a.org/x mode=text Report.pdf', /^unknown option "Report\.pdf": use mode, .* or render$/],
    ['https://a.org/x q="say "hi" please"', /^option question: the " inside the value ends it; write it as \\", or quote the value with '…'$/],
    ["https://a.org/x grep='it's'", /^option grep: the ' inside the value ends it; write it as \\', or quote the value with "…"$/],
    ['https://a.org/x q="a"mode=text', /^option question: text right after the closing "; put a space between options$/],
    ['https://a.org/x q = "what"', /^option question: no space before or after "=": write question=…$/],
    ['https://a.org/r.pdf pages=3-1', /^pages 3-1 runs backwards: write 1-3$/],
    ['https://a.org/r.pdf pages=1,0', /^pages 0: pages count from 1$/],
    ['https://a.org/r.pdf pages=99999999999999999999', /^pages 99999999999999999999: no document has that many pages$/],
    ['https://a.org/x mode=text http://a.org/y', /^more than one URL on this line/],
    ["https://a.org/api mode=raw jq='.items'", /^jq and mode raw do not go together: with jq, the result is jq's output; leave the mode out .* or leave jq out for the document as served\.$/],
    ['https://a.org/x q="what does it cost?" mode=links', /^a question and mode links do not go together: passages are ranked in the readable text; leave the mode out/],
  ])('refuses %s with a reason', (line, reason) => {
    const r = parseList(line);
    expect(r.targets).toEqual([]);
    expect(r.invalid).toHaveLength(1);
    expect(r.invalid[0]?.reason).toMatch(reason);
    expect(r.invalid[0]?.text.length).toBeLessThanOrEqual(200);
  });

  it('merges list-wide defaults under each line, the line winning, and dedupes on the merged options', () => {
    const r = parseList(
      ['https://a.org/1', 'https://a.org/2 mode=text context=false', 'https://a.org/1 mode=markdown context'].join('\n'),
      { defaults: { mode: 'markdown', context: true } },
    );
    expect(r.targets).toEqual([
      { line: 1, url: 'https://a.org/1', options: { mode: 'markdown', context: true } },
      { line: 2, url: 'https://a.org/2', options: { mode: 'text', context: false } },
    ]);
    expect(r.duplicates).toEqual([
      { line: 3, text: 'https://a.org/1 mode=markdown context', reason: 'duplicate of line 1' },
    ]);
  });

  it("refuses a line whose own mode conflicts with the list's jq, and takes one whose mode goes with it", () => {
    const r = parseList(['https://a.org/1.json', 'https://a.org/2.json mode=raw', 'https://a.org/3.json mode=text'].join('\n'), { defaults: { jq: '.items' } });
    expect(r.targets.map((t) => [t.line, t.options])).toEqual([
      [1, { jq: '.items' }],
      [3, { jq: '.items', mode: 'text' }],
    ]);
    expect(r.invalid).toHaveLength(1);
    expect(r.invalid[0]).toMatchObject({ line: 2, reason: expect.stringMatching(/^jq and mode raw do not go together/) });
  });

  it('keeps the same URL with different options as two targets', () => {
    const r = parseList('https://a.org/r.pdf pages=1\nhttps://a.org/r.pdf pages=2\nhttps://a.org/r.pdf');
    expect(r.targets.map((t) => t.line)).toEqual([1, 2, 3]);
    expect(r.duplicates).toEqual([]);
  });
});

describe('Markdown lists', () => {
  it('ends a bare URL at the backtick closing inline code, as READMEs write URLs', () => {
    // A line of lychee's fixtures/TEST_CODE_BLOCKS.md, and one as READMEs write a command's URL.
    const list = parseList('`http://127.0.0.1/inline` will also be excluded by default\nRun `curl https://example.org/install.sh`, then see https://example.org/docs.\n', { format: 'markdown' });
    expect(list.targets.map((t) => t.url)).toEqual(['http://127.0.0.1/inline', 'https://example.org/install.sh', 'https://example.org/docs']);
  });
});

describe('normalizeUrl', () => {
  it.each([
    ['HTTPS://Example.COM:443/a?b=1#frag', 'https://example.com/a?b=1'],
    ['http://example.com:80', 'http://example.com/'],
    ['http://example.com:8080/x', 'http://example.com:8080/x'],
    ['https://bücher.example/ä', 'https://xn--bcher-kva.example/%C3%A4'],
    ['  https://a.org/x  ', 'https://a.org/x'],
    ['https://[::1]:443/', 'https://[::1]/'],
    // An & escaped for HTML in a query, as exports and copies from page source carry it (twice escaped too).
    ['http://news.test/a?utm_content=buffer&amp;utm_medium=social&amp;x=1', 'http://news.test/a?utm_content=buffer&utm_medium=social&x=1'],
    ['http://news.test/a?p=2&AMP;q=3&amp;amp;r=4', 'http://news.test/a?p=2&q=3&amp;r=4'],
    // Only the query: a path may hold anything.
    ['http://news.test/a&amp;b/?q=1', 'http://news.test/a&amp;b/?q=1'],
    // Set off as mail and prose set a URL off: in angle brackets (RFC 3986, appendix C) or quotes.
    ['<https://a.org/x>', 'https://a.org/x'],
    ['<URL:https://a.org/x>', 'https://a.org/x'],
    ['"https://a.org/x"', 'https://a.org/x'],
    ["'https://a.org/x'", 'https://a.org/x'],
    ['“https://a.org/x”', 'https://a.org/x'],
    ['https://a.org/it\'s', "https://a.org/it's"],
  ])('%s → %s', (raw, want) => {
    expect(normalizeUrl(raw)).toBe(want);
  });

  it.each(['ftp://a.org/x', 'javascript:alert(1)', 'example.com/page', '//a.org/x', '/relative', 'https://', '', '<>', '""', '"https://a.org/x', '<https://a.org/x"', `https://a.org/${'a'.repeat(8200)}`])(
    'refuses %s',
    (raw) => {
      expect(normalizeUrl(raw)).toBeNull();
    },
  );

  it("reads a real Pocket export's HTML-escaped queries as their URLs", () => {
    // Four rows of shared/corpora/url-lists' Pocket export: the first two, and the two whose URLs carry &amp;.
    const list = parseList(fixture('pocket-export.csv'), { filename: 'pocket-export.csv' });
    expect(list.targets).toHaveLength(4);
    expect(list.targets.filter((t) => t.url.includes('&amp;'))).toEqual([]);
    expect(list.targets.map((t) => t.url)).toContain('http://www.salon.com/2014/06/28/conspiracy_of_the_plutocrats_secrets_of_the_wealth_inequality_explosion_revealed/?utm_source=hootsuite&utm_campaign=hootsuite');
  });

  it.each([
    ['http://127.0.0.1:99999/x', 'not a valid URL: port 99999 is over 65535'],
    ['http://a.example:8o/x', 'not a valid URL: the port "8o" is not a number'],
    ['https://999.1.1.1/', 'not a valid URL: "999.1.1.1" is not a host name or address'],
    ['https://[::1/', 'not a valid URL: "[::1" is not a host name or address'],
  ])('says which part of %s it cannot read', (raw, reason) => {
    expect(parseList(raw).invalid).toEqual([{ line: 1, text: raw, reason }]);
  });

  it('refuses a URL with a user name or password as the fetch would, so the password is never stored with the job', () => {
    const list = parseList('https://user:s3cret@intranet.example/report\nhttps://anna@intranet.example/wiki\nhttps://intranet.example/ok\n');
    expect(list.targets.map((t) => t.url)).toEqual(['https://intranet.example/ok']);
    expect(list.invalid.map((i) => [i.line, i.reason])).toEqual([
      [1, 'credentials in the URL are not supported: remove the user:password@ part'],
      [2, 'credentials in the URL are not supported: remove the user:password@ part'],
    ]);
  });

  it('shows a refused line with its password hidden, so sift parse, sift batch and the app never print it', () => {
    const list = parseList('https://user:s3cret@intranet.example/report\nhttp://:p%40ss@intranet.example/\nhttps://anna@intranet.example/wiki\n');
    expect(list.invalid.map((i) => i.text)).toEqual(['https://user:***@intranet.example/report', 'http://:***@intranet.example/', 'https://anna@intranet.example/wiki']);
    // A reason that quotes the line (a scheme Sift does not fetch) hides it too.
    expect(parseList('ftp://me:s3cret@files.example/a.txt').invalid[0]?.reason).toBe('not an http(s) URL: ftp://me:***@files.example/a.txt (Sift fetches http and https only)');
  });

  it('refuses a URL that percent-encoding pushes over 8 KiB', () => {
    expect(normalizeUrl(`https://a.org/${'ä'.repeat(4000)}`)).toBeNull();
  });
});

describe("a single-page app's route in the fragment", () => {
  // Two routes of one app, a hashbang route, the same routes again, and anchors into a page.
  const routes = ['https://app.example/#/reports/1', 'https://app.example/#/reports/2', 'https://app.example/#!/item/7'];
  const anchors = ['https://app.example/docs#section', 'https://app.example/docs#top', 'https://app.example/docs'];
  const want = [...routes, 'https://app.example/docs'];
  const all = [...routes, ...anchors, routes[0] as string];
  const lists: [ListFormat, string][] = [
    ['text', all.map((u, i) => (i === 1 ? `${u} mode=text` : u)).join('\n')],
    ['uri-list', all.join('\r\n')],
    ['markdown', all.map((u, i) => (i % 2 ? `- [page ${i}](${u})` : `- see ${u}.`)).join('\n')],
    ['html', `<!DOCTYPE NETSCAPE-Bookmark-file-1>\n<DL><p>\n${all.map((u, i) => `<DT><A HREF="${u}" ADD_DATE="1">r${i}</A>`).join('\n')}\n</DL>`],
    ['csv', `title,url\n${all.map((u, i) => `r${i},${u}`).join('\n')}`],
    ['tsv', `url\ttitle\n${all.map((u, i) => `${u}\tr${i}`).join('\n')}`],
    ['json', JSON.stringify(all.map((u, i) => (i % 2 ? { url: u } : u)), null, 1)],
    ['xml', `<?xml version="1.0"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${all.map((u) => `<url><loc>${u}</loc></url>`).join('\n')}\n</urlset>`],
  ];

  it.each(lists)('%s: keeps #/ and #! routes as targets of their own and drops an anchor', (format, text) => {
    const r = parseList(text, { format });
    expect(r.invalid).toEqual([]);
    expect(r.targets.map((t) => t.url)).toEqual(want);
    // The anchors are one page, and the first route again is a duplicate of line 1's.
    expect(r.duplicates).toHaveLength(3);
    expect(r.duplicates.at(-1)?.reason).toMatch(/^duplicate of line \d+$/);
  });

  it('reads a route fragment in the detected format too', () => {
    expect(parseList(`${routes.join('\n')}\n`).targets.map((t) => t.url)).toEqual(routes);
  });

  it.each([
    ['https://App.Example:443/#/reports/1', 'https://app.example/#/reports/1'],
    ['https://app.example/#!/item/7', 'https://app.example/#!/item/7'],
    ['https://app.example/#!item', 'https://app.example/#!item'],
    ['https://app.example/base/#/a b', 'https://app.example/base/#/a%20b'],
    // A route's own query, escaped for HTML as the query of the URL is.
    ['https://app.example/#/search?q=a&amp;page=2', 'https://app.example/#/search?q=a&page=2'],
    // The root route is the page without a fragment: one target, not two.
    ['https://app.example/#/', 'https://app.example/'],
    ['https://app.example/base/#!', 'https://app.example/base/'],
    ['https://app.example/#!/', 'https://app.example/'],
    ['https://app.example/docs#section', 'https://app.example/docs'],
    ['https://app.example/docs#', 'https://app.example/docs'],
    ['https://app.example/docs#%2Fencoded', 'https://app.example/docs'],
  ])('normalizes %s to %s', (raw, url) => {
    expect(normalizeUrl(raw)).toBe(url);
    expect(normalizeUrl(url)).toBe(url);
  });

  it('makes two lists that differ by a route two jobs, and two that differ by an anchor one job', () => {
    const key = (text: string): string => idemKey({ name: 'cli' }, parseList(text).targets.map(({ url }) => ({ url })));
    expect(key('https://app.example/#/reports/1\n')).not.toBe(key('https://app.example/#/reports/2\n'));
    expect(key('https://app.example/docs#top\n')).toBe(key('https://app.example/docs\n'));
    expect(key('https://app.example/#/\n')).toBe(key('https://app.example/\n'));
    expect(parseList('https://app.example/\nhttps://app.example/#/\nhttps://app.example/#!/\n').targets.map((t) => t.url)).toEqual(['https://app.example/']);
  });

  it('tells a route from an anchor, with or without the #', () => {
    expect(['#/a', '/a', '#!/a', '#!', '!a'].map(isRouteFragment)).toEqual([true, true, true, true, true]);
    expect(['#a', 'top', '#', '', '#%2F', '#?/a'].map(isRouteFragment)).toEqual([false, false, false, false, false, false]);
  });
});

describe('formatOptionsLine', () => {
  it('writes a line that parseList reads back to the same target', () => {
    const targets = [
      { url: 'https://a.org/x' },
      { url: 'https://a.org/y', options: { mode: 'text' as const, context: false, recover: true } },
      { url: 'https://a.org/z', options: { question: 'what "is" it?', jq: `.a | "\\(.b)"`, grep: 'a\\\\', pages: '1-3,7' } },
    ];
    for (const t of targets) {
      const line = formatOptionsLine(t);
      expect(parseList(line, { format: 'text' }).targets).toEqual([{ ...t, line: 1 }]);
    }
    expect(formatOptionsLine(targets[1]!)).toBe('https://a.org/y mode=text context=false recover');
  });

  it('quotes a question that holds an escape, so it is read back as written and not as the character', () => {
    const t = { url: 'https://a.org/', options: { question: 'rate%20limit', grep: '%41' } };
    expect(formatOptionsLine(t)).toBe('https://a.org/ question="rate%20limit" grep="%41"');
    expect(parseList(formatOptionsLine(t), { format: 'text' }).targets).toEqual([{ ...t, line: 1 }]);
  });

  it('turns a line break inside a value into a space, since a list line cannot hold one', () => {
    const line = formatOptionsLine({ url: 'https://a.org/', options: { question: 'a\nb' } });
    expect(line).toBe('https://a.org/ question="a b"');
  });
});

describe('a question written as a URL query writes one', () => {
  it('is read as its words in every format, and an unquoted value with a blank, a quoted one or no escape as written', () => {
    const text = parseList(['https://a.org/1 q=who%20counted%20the%20crates', 'https://a.org/2 q=what%27s+the+cost%3F', 'https://a.org/3 q=50%de', 'https://a.org/4 q=C++', 'https://a.org/5 q="a%20b"'].join('\n'), { format: 'text' });
    expect(text.targets.map((t) => t.options?.question)).toEqual(['who counted the crates', "what's the cost?", '50%de', 'C++', 'a%20b']);
    const csv = parseList('url,question\nhttps://a.org/1,who%20counted\n', { format: 'csv' });
    expect(csv.targets[0]?.options).toEqual({ question: 'who counted' });
    const json = parseList('[{"url":"https://a.org/1","options":{"q":"who%20counted"}}]', { format: 'json' });
    expect(json.targets[0]?.options).toEqual({ question: 'who counted' });
  });

  it('that encodes only blanks has an empty value', () => {
    expect(parseList('https://a.org/1 q=%20%20', { format: 'text' }).invalid.map((p) => p.reason)).toEqual(['option question has an empty value']);
  });
});

describe('JSON lists', () => {
  it('reads JSON Lines, as sift parse prints them', () => {
    const r = parseList('{"url":"https://a.org/1"}\n\n{"url":"https://a.org/2","options":{"mode":"raw"}}\n{"url":', {
      format: 'json',
    });
    expect(r.targets).toEqual([
      { line: 1, url: 'https://a.org/1' },
      { line: 3, url: 'https://a.org/2', options: { mode: 'raw' } },
    ]);
    expect(r.invalid.map((p) => [p.line, p.reason.slice(0, 14)])).toEqual([[4, 'not valid JSON']]);
  });

  it('keeps the good elements of an array with a broken one and reports the broken one by line', () => {
    const r = parseList('[\n"https://a.org/1",\n{"url": nope},\n"https://a.org/2"\n');
    expect(r.targets.map((t) => t.line)).toEqual([2, 4]);
    expect(r.invalid.map((p) => p.line)).toEqual([3, 5]);
    expect(r.invalid[1]?.reason).toMatch(/not closed/);
  });

  it('reports an options value of the wrong type', () => {
    const r = parseList('[{"url":"https://a.org","options":{"context":"yes please"}}]');
    expect(r.invalid[0]?.reason).toMatch(/^context must be true or false/);
  });
});

describe('a JSON object that holds the list', () => {
  it("reads a JSON Feed's items and an object's array of URLs, each target on the line its URL is written", () => {
    const feed = parseList(readFileSync(path.join(__dirname, '..', 'fixtures', 'feeds', 'jsonfeed.json'), 'utf8'));
    expect(feed.format).toBe('json');
    // The second item has no url: no page to fetch.
    // Line 10, its id, is where that address is first written.
    expect(feed.targets).toEqual([{ line: 10, url: 'https://notes.example/2024/06/ferns' }]);
    expect(feed.invalid).toEqual([]);
    const obj = parseList('{\n  "generated": "today",\n  "urls": [\n    "https://a.example/1",\n    {"url": "https://a.example/2", "options": {"mode": "text"}},\n    "https://a.example/1"\n  ]\n}\n');
    expect(obj.targets).toEqual([
      { line: 4, url: 'https://a.example/1' },
      { line: 5, url: 'https://a.example/2', options: { mode: 'text' } },
    ]);
    expect(obj.duplicates.map((d) => [d.line, d.reason])).toEqual([[6, 'duplicate of line 4']]);
  });
  it('reads the URLs of an array with a few wrong entries and reports those, instead of refusing the whole list', () => {
    const r = parseList('{\n  "urls": [\n    "https://a.example/1",\n    5,\n    {"url": 7},\n    null,\n    "https://a.example/2"\n  ]\n}\n', { format: 'json' });
    expect(r.targets).toEqual([
      { line: 3, url: 'https://a.example/1' },
      { line: 7, url: 'https://a.example/2' },
    ]);
    expect(r.invalid.map((p) => [p.text, p.reason])).toEqual([
      ['5', 'expected a URL string or an object {"url": …, "options": {…}}'],
      ['{"url":7}', 'no "url" (or "href", "link") string in this object'],
      ['null', 'expected a URL string or an object {"url": …, "options": {…}}'],
    ]);
  });
  it('says so of an object without a list, and still reads one object a line (JSON Lines)', () => {
    const none = parseList('{\n  "name": "x",\n  "n": [1, 2]\n}\n', { format: 'json' });
    expect(none.targets).toEqual([]);
    expect(none.invalid.map((p) => p.reason)).toEqual(['a JSON object with no list of URLs in it: give an array of URL strings or of {"url": …} objects, or one such object a line']);
    const lines = parseList('{"url": "https://a.example/1"}\n{"url": "https://a.example/2"}\n', { format: 'json' });
    expect(lines.targets.map((t) => t.line)).toEqual([1, 2]);
    expect(parseList('{"url": "https://a.example/1"}', { format: 'json' }).targets).toHaveLength(1);
  });
  it('walks bookmark folders nested ten thousand deep without recursion', () => {
    const depth = 10_000;
    const nested = `${'{"type":"text/x-moz-place-container","children":['.repeat(depth)}{"type":"text/x-moz-place","uri":"https://deep.example/"}${']}'.repeat(depth)}`;
    expect(parseList(nested, { format: 'json' }).targets.map((t) => t.url)).toEqual(['https://deep.example/']);
  });
  it('stops at the line cap', () => {
    const big = `{"urls": [\n${Array.from({ length: 30 }, (_, i) => `"https://a.example/${i}"`).join(',\n')}\n]}`;
    const r = parseList(big, { maxLines: 10 });
    expect(r.targets.length).toBe(9);
    expect(r.truncated).toBe(true);
  });
});

describe('caps', () => {
  it('stops reading at maxLines and says the list was truncated', () => {
    const lines = Array.from({ length: 10 }, (_, i) => `https://a.org/${i}`);
    const r = parseList(lines.join('\n'), { maxLines: 4 });
    expect(r.targets.map((t) => t.line)).toEqual([1, 2, 3, 4]);
    expect(r.truncated).toBe(true);
    expect(parseList(lines.join('\n'), { maxLines: 10 }).truncated).toBe(false);
  });

  it('stops at maxTargets', () => {
    const r = parseList('https://a.org/1\nftp://x\nhttps://a.org/2\nhttps://a.org/3', { maxTargets: 2 });
    expect(r.targets.map((t) => t.line)).toEqual([1, 3]);
    expect(r.truncated).toBe(true);
  });

  it('refuses a line longer than maxLineLength and shows only its start', () => {
    const r = parseList(`https://a.org/${'x'.repeat(100)}\nhttps://a.org/ok`, { maxLineLength: 50 });
    expect(r.targets.map((t) => t.line)).toEqual([2]);
    expect(r.invalid[0]?.reason).toBe('line too long (114 characters; at most 50)');
    expect(r.invalid[0]?.text.length).toBeLessThanOrEqual(200);
  });

  it('applies maxLines to a JSON array by the line its elements start on', () => {
    const r = parseList(`[\n${Array.from({ length: 6 }, (_, i) => `"https://a.org/${i}"`).join(',\n')}\n]`, { maxLines: 3 });
    expect(r.targets.map((t) => t.line)).toEqual([2, 3]);
    expect(r.truncated).toBe(true);
  });
});

describe('a plain-text line without a URL', () => {
  it('is reported for its missing URL, not for an option', () => {
    const list = parseList('not a url at all\nhttps://example.org/ pages=1\n', { format: 'text' });
    expect(list.targets.map((t) => t.url)).toEqual(['https://example.org/']);
    expect(list.invalid).toHaveLength(1);
    expect(list.invalid[0]!.line).toBe(1);
    expect(list.invalid[0]!.reason).not.toMatch(/option/);
    expect(list.invalid[0]!.reason).toMatch(/scheme|URL/i);
  });
});

describe('a CSV row whose URL cell runs over several lines', () => {
  it('is refused with where the quote opens, not fetched as one URL made of the rows after it', () => {
    const list = parseList('url,title\n"https://a.example/1\nhttps://b.example/2",x\nhttps://c.example/3,y\n', { filename: 'list.csv' });
    expect(list.targets.map((t) => [t.line, t.url])).toEqual([[4, 'https://c.example/3']]);
    expect(list.invalid).toHaveLength(1);
    expect(list.invalid[0]).toMatchObject({ line: 2, reason: expect.stringMatching(/runs over several lines: close the quote/) as unknown });
  });

  it('reads the rows after a quote that is never closed instead of losing them in one cell', () => {
    const title = parseList('url,title\nhttps://a.example/1,"Unclosed title\nhttps://b.example/2,B\nhttps://c.example/3,C\n', { filename: 'list.csv' });
    expect(title.targets.map((t) => [t.line, t.url])).toEqual([
      [2, 'https://a.example/1'],
      [3, 'https://b.example/2'],
      [4, 'https://c.example/3'],
    ]);
    expect(title.invalid).toEqual([]);
    const url = parseList('url,title\n"https://a.example/1,oops\nhttps://b.example/2,x\n', { filename: 'list.csv' });
    expect(url.targets.map((t) => [t.line, t.url])).toEqual([[3, 'https://b.example/2']]);
    expect(url.invalid).toEqual([
      { line: 2, text: '"https://a.example/1,oops', reason: 'the quote (") before the URL is never closed: close it after the URL, or remove it' },
    ]);
  });

  it('keeps a quoted URL that only ends in a line break, and a title cell over two lines', () => {
    const list = parseList('url,title\n"https://a.example/1\n","two\nlines"\nhttps://b.example/2,x\n', { filename: 'list.csv' });
    expect(list.invalid).toEqual([]);
    expect(list.targets.map((t) => [t.line, t.url])).toEqual([
      [2, 'https://a.example/1'],
      [5, 'https://b.example/2'],
    ]);
  });
});

describe('a job label from its first URL', () => {
  it('is the host with its port, or the start of what does not parse', () => {
    expect(hostLabel('https://example.org/a/b?c')).toBe('example.org');
    expect(hostLabel('http://127.0.0.2:8080/x')).toBe('127.0.0.2:8080');
    expect(hostLabel('not a url ' + 'x'.repeat(100))).toBe(('not a url ' + 'x'.repeat(100)).slice(0, 60));
    expect(hostLabel('file:///tmp/list.txt')).toBe('file:///tmp/list.txt');
  });
});

describe('a CSV whose separator is not a comma', () => {
  // Excel writes ";" where the comma is the decimal mark, and a tab for "Unicode Text".
  it.each([
    ['semicolons (Excel with a German or French locale)', 'Titel;url;q\r\nA;https://a.example/?x=1,2;was kostet es, netto?\r\nB;nope;\r\n'],
    ['tabs (Excel\'s "Unicode Text" saved as .csv)', 'Titel\turl\tq\r\nA\thttps://a.example/?x=1,2\twas kostet es, netto?\r\nB\tnope\t\r\n'],
    ['the separator Excel names on the first line', 'sep=;\r\nTitel;url;q\r\nA;https://a.example/?x=1,2;was kostet es, netto?\r\nB;nope;\r\n'],
  ])('reads the url column of a file with %s', (_name, input) => {
    const shift = input.startsWith('sep=') ? 1 : 0;
    for (const opts of [{ filename: 'export.csv' }, {}]) {
      const r = parseList(input, opts);
      // Pasted, tab-separated rows are TSV, which reads them the same.
      expect(r.format).toBe(input.includes('\t') && !opts.filename ? 'tsv' : 'csv');
      expect(r.targets).toEqual([{ line: 2 + shift, url: 'https://a.example/?x=1,2', options: { question: 'was kostet es, netto?' } }]);
      expect(r.invalid.map((p) => [p.line, p.reason])).toEqual([[3 + shift, 'not a URL']]);
    }
  });

  it('keeps commas as the separator when the header names url under them, whatever else the cells hold', () => {
    const r = parseList('title,url\r\n"Preise; netto",https://a.example/;jsessionid=1\r\n', { filename: 'list.csv' });
    expect(r.targets.map((t) => t.url)).toEqual(['https://a.example/;jsessionid=1']);
    expect(r.invalid).toEqual([]);
  });

  it('finds the separator that sets a URL in a cell of its own when no header names one', () => {
    const r = parseList('A;https://a.example/?x=1,2\r\nB;https://b.example/\r\n', { filename: 'list.csv' });
    expect(r.targets.map((t) => t.url)).toEqual(['https://a.example/?x=1,2', 'https://b.example/']);
  });
});

describe('a bookmarks file with links in its descriptions', () => {
  // shared/corpora/url-lists/bookmarks-netscape/netscape_extended.htm, a Shaarli export: the
  // <DD> under the bookmark links the thumbnail on the user's own server. Its parser's tests
  // (upstream-expectations) count 1 bookmark.
  const shaarli = [
    '<!DOCTYPE NETSCAPE-Bookmark-file-1>',
    '<META HTTP-EQUIV="Content-Type" CONTENT="text/html; charset=UTF-8">',
    '<TITLE>My local links</TITLE>',
    '<H1>Shaarli export of all bookmarks on Sat, 06 Jun 20 15:50:59 +0200</H1>',
    '<DL><p>',
    '<DT><A HREF="https://www.bbc.com/future/article/20190213-the-dramatic-hunt-for-the-fish-pirates-exploiting-our-seas" ADD_DATE="1591451445" PRIVATE="1" TAGS="story,oceans">The hunt for the fish pirates</A>',
    '<DD>For 10 years, a rogue fishing vessel and its crew plundered the world’s oceans.',
    '<a href="http://localhost.localdomain:8083/Shaarli/?JVvqCA"><img src="http://localhost.localdomain:8083/Shaarli/cache/thumb/290ccda0.jpg"/></a>',
    '<DT>',
    '  <a href="https://example.org/next">Next</a>',
    '</DL><p>',
  ].join('\n');

  it('takes the <A> of each <DT> as a bookmark and not the links in its description', () => {
    const r = parseList(shaarli, { filename: 'bookmarks.htm' });
    expect(r.targets.map((t) => [t.line, t.url])).toEqual([
      [6, 'https://www.bbc.com/future/article/20190213-the-dramatic-hunt-for-the-fish-pirates-exploiting-our-seas'],
      [10, 'https://example.org/next'],
    ]);
    expect(r.invalid).toEqual([]);
  });

  it("says a note's relative link is a bookmark without a web address, not a page's", () => {
    // shaarli_markdown.htm's notes: the page's reason spoke of a <base href> and "saved from".
    const notes = shaarli.replace('<DT><A HREF="https://www.bbc.com', '<DT><A HREF="?Z-mb0g">Markdown - code</A>\n<DT><A HREF="https://www.bbc.com');
    const r = parseList(notes, { filename: 'bookmarks.htm' });
    expect(r.targets).toHaveLength(2);
    expect(r.invalid.map((i) => [i.line, i.text, i.reason])).toEqual([[6, '?Z-mb0g', expect.stringMatching(/^relative URL: a bookmark without a web address \(a note the service that exported the file keeps/)]]);
  });

  it('still takes every link of a web page that is no bookmarks file', () => {
    const page = shaarli.replace('<!DOCTYPE NETSCAPE-Bookmark-file-1>', '<!doctype html>');
    expect(parseList(page, { filename: 'page.html' }).targets).toHaveLength(3);
  });
});

describe('a JSON entry with its options beside "url"', () => {
  it('takes them as its options, checked as in "options", and leaves other keys alone', () => {
    const r = parseList(
      [
        '[',
        '  {"url": "https://a.example/", "mode": "text", "title": "A", "tags": ["x"]},',
        '  {"url": "https://b.example/r.pdf", "pages": "1-3", "options": {"q": "what does it cost?"}},',
        '  {"url": "https://c.example/", "mode": "txt"},',
        '  {"url": "https://d.example/", "q": "a", "options": {"question": "b"}},',
        '  {"url": "https://e.example/", "context": true}',
        ']',
      ].join('\n'),
    );
    expect(r.targets).toEqual([
      { line: 2, url: 'https://a.example/', options: { mode: 'text' } },
      { line: 3, url: 'https://b.example/r.pdf', options: { question: 'what does it cost?', pages: '1-3' } },
      { line: 6, url: 'https://e.example/', options: { context: true } },
    ]);
    expect(r.invalid.map((p) => [p.line, p.reason])).toEqual([
      [4, 'unknown mode "txt": use one of markdown, text, html, raw, links, meta'],
      [5, 'option question given twice: beside "url" and in "options"'],
    ]);
  });
});

describe('options in typographic quotes', () => {
  // What macOS, Word, Google Docs and chat apps type for " and ' ("smart quotes").
  it('reads “…”, ‘…’ and „…“ as quotes, not as part of the value', () => {
    const r = parseList(
      [
        'https://a.example/ q=“what does it cost?”',
        'https://b.example/ grep=“net revenue” context',
        'https://c.example/ q=‘hi’',
        'https://d.example/ q=„Was kostet es?“',
        'https://e.example/ q=“unclosed',
      ].join('\n'),
    );
    expect(r.targets.map((t) => t.options)).toEqual([
      { question: 'what does it cost?' },
      { grep: 'net revenue', context: true },
      { question: 'hi' },
      { question: 'Was kostet es?' },
    ]);
    expect(r.invalid.map((p) => [p.line, p.reason])).toEqual([[5, 'option question: missing closing ”']]);
  });

  it('writes a value that starts with one in quotes, so the line reads back to the same value', () => {
    const t = { url: 'https://a.example/', options: { question: '“hi”', grep: '‘x' } };
    const line = formatOptionsLine(t);
    expect(parseList(line).targets).toEqual([{ line: 1, ...t }]);
  });
});

describe('a list copied out of code or prose', () => {
  it('takes a quoted URL with the comma an array puts after it, and a URL in parentheses', () => {
    const r = parseList(
      ['urls = [', '  "https://a.example/",', "  'https://b.example/';", '  "https://c.example/"', ']', '(https://en.wikipedia.org/wiki/Foo_(bar))', 'https://d.example/,'].join('\n'),
      { format: 'text' },
    );
    expect(r.targets.map((t) => [t.line, t.url])).toEqual([
      [2, 'https://a.example/'],
      [3, 'https://b.example/'],
      [4, 'https://c.example/'],
      [6, 'https://en.wikipedia.org/wiki/Foo_(bar)'],
      // A comma with no quote before it may be the URL's own: kept.
      [7, 'https://d.example/,'],
    ]);
    expect(r.invalid.map((p) => p.line)).toEqual([1, 5]);
  });
});

describe('a JSON list with a comma missing', () => {
  it('names the line whose end lacks the comma, not an offset into the entry', () => {
    const r = parseList(['[', '  {"url": "https://a.example/", "options": {"mode": "text"}}', '  {"url": "https://b.example/"},', '  "https://c.example/"', ']'].join('\r\n'));
    expect(r.targets.map((t) => t.url)).toEqual(['https://c.example/']);
    expect(r.invalid.map((p) => [p.line, p.reason])).toEqual([[2, 'not valid JSON: a "," is missing at the end of line 2 (between two entries)']]);
  });
});

describe('prose with URLs in it, pasted out of an e-mail or a chat', () => {
  const inProse = [
    [3, 'https://example.org/reports/2024-q3.pdf'],
    [4, 'https://news.example.net/markets/summary?id=7&lang=en'],
    [6, 'https://en.wikipedia.org/wiki/Index_(economics)'],
    [7, 'https://blog.example.com/posts/rates'],
  ];

  it('takes the URLs out of the sentences, with the punctuation after them cut, and counts no sentence as an invalid line', () => {
    const r = parseList(fixture('prose-email.txt'));
    expect(r.targets.map((t) => [t.line, t.url])).toEqual(inProse);
    expect(r.invalid).toEqual([]);
    // The same page with an anchor (#comments) is the page already taken.
    expect(r.duplicates).toEqual([{ line: 8, text: 'https://blog.example.com/posts/rates#comments', reason: 'duplicate of line 7' }]);
  });

  it('reads a line of words with URLs in a plain-text list for its URLs, and keeps the list\'s options', () => {
    const r = parseList(['https://a.org/r.pdf pages=1-3', 'See also https://b.org/y, and (https://c.org/z).', 'Title: https://d.org/w', 'nothing to read here'].join('\n'));
    expect(r.format).toBe('text');
    expect(r.targets.map((t) => [t.line, t.url, t.options])).toEqual([
      [1, 'https://a.org/r.pdf', { pages: '1-3' }],
      [2, 'https://b.org/y', undefined],
      [2, 'https://c.org/z', undefined],
      [3, 'https://d.org/w', undefined],
    ]);
    expect(r.invalid.map((p) => [p.line, p.reason])).toEqual([[4, 'not a URL']]);
  });

  it('does not take a sentence whose commas run through every line for a CSV without a URL column', () => {
    const r = parseList('Hi all, please read https://a.org/x, it is short.\nAlso, this one: https://b.org/y, thanks!\n');
    expect(r.targets.map((t) => t.url)).toEqual(['https://a.org/x', 'https://b.org/y']);
    expect(r.invalid).toEqual([]);
  });
});

describe('a read-later or bookmark service\'s JSON export', () => {
  it('reads each entry\'s address from "href" (Pinboard\'s export) as from a CSV\'s href column, and skips its bookmarklet with the reason', () => {
    const r = parseList(fixture('pinboard-export.json'), { filename: 'pinboard-export.json' });
    expect(r.format).toBe('json');
    expect(r.targets.map((t) => [t.line, t.url])).toEqual([
      [1, 'https://example.org/essays/slow-software'],
      [2, 'https://docs.example.net/guide/install?os=linux&arch=x64'],
    ]);
    expect(r.invalid.map((p) => [p.line, p.reason.slice(0, 32)])).toEqual([[3, 'not an http(s) URL: javascript:(']]);
    expect(r.duplicates.map((p) => [p.line, p.reason])).toEqual([[4, 'duplicate of line 1']]);
  });

  it('reads an object\'s "link" list, and a single object naming its address so as one target', () => {
    const feed = parseList(JSON.stringify({ title: 'A feed as JSON', link: 'https://a.example/', items: [{ title: 'one', link: 'https://a.example/1' }, { title: 'two', link: 'https://a.example/2' }] }, null, 2));
    expect(feed.targets.map((t) => t.url)).toEqual(['https://a.example/1', 'https://a.example/2']);
    expect(parseList('{"href": "https://a.example/x", "mode": "text"}').targets).toEqual([{ line: 1, url: 'https://a.example/x', options: { mode: 'text' } }]);
  });
});

describe('a URL with its title after it on each line', () => {
  it('reads a tab saver\'s "URL | title" export for its URLs, the titles left as a CSV\'s title column is', () => {
    const r = parseList(fixture('tab-saver-export.txt'), { filename: 'tab-saver-export.txt' });
    expect(r.targets.map((t) => [t.line, t.url, t.options])).toEqual([
      [1, 'https://example.org/essays/slow-software', undefined],
      [2, 'https://docs.example.net/guide/install?os=linux', undefined],
      [3, 'https://news.example.com/2024/06/tides', undefined],
      [6, 'https://video.example/watch?v=abc123', undefined],
    ]);
    expect(r.invalid).toEqual([]);
    expect(r.duplicates.map((p) => [p.line, p.reason])).toEqual([[5, 'duplicate of line 1']]);
  });

  it('reads two columns pasted from a sheet (URL, tab, title) and a dash before the title, and still names a mistyped option', () => {
    const r = parseList(['https://a.org/1\tThe first', 'https://a.org/2 - The second', 'https://a.org/3\tpages=1-2', 'https://a.org/4 colour=blue'].join('\n'));
    expect(r.targets.map((t) => [t.line, t.url, t.options])).toEqual([
      [1, 'https://a.org/1', undefined],
      [2, 'https://a.org/2', undefined],
      [3, 'https://a.org/3', { pages: '1-2' }],
    ]);
    expect(r.invalid.map((p) => [p.line, p.reason])).toEqual([[4, expect.stringMatching(/^unknown option "colour"/)]]);
  });
});

describe('URLs in Chinese or Japanese prose', () => {
  it('ends a URL at the full-width punctuation after it, which sets no space around a URL, and keeps a path in the script', () => {
    const r = parseList(fixture('notes-ja.txt'));
    expect(r.targets.map((t) => [t.line, t.url])).toEqual([
      [2, 'https://example.jp/docs/setup'],
      [2, 'https://example.jp/faq'],
      [2, 'https://example.jp/contact'],
      [3, 'https://ja.wikipedia.org/wiki/%E6%9D%B1%E4%BA%AC'],
    ]);
    expect(r.invalid).toEqual([]);
  });
});

describe('an entry Sift does not fetch', () => {
  it('says in words what a bookmarklet, a data: or mailto: URL and a browser page are, so a skipped bookmark does not look misread', () => {
    const r = parseList(fixture('firefox-bookmarks.html') + '\n<DT><A HREF="data:text/html,<h1>hi</h1>">d</A>\n<DT><A HREF="mailto:me@example.org">m</A>\n<DT><A HREF="about:config">a</A>\n<DT><A HREF="gopher://old.example/1">g</A>', { format: 'html' });
    const why = r.invalid.map((p) => p.reason.replace(/^not an http\(s\) URL: .*? \((.*)\)$/, '$1'));
    expect(why.slice(1)).toEqual([
      'a bookmarklet: a script the browser runs on the page open in it, not a page to fetch',
      'its content is written in the URL itself: there is no page to fetch',
      'an e-mail address, not a web page',
      "a page of the browser's own, which only the browser opens",
      'not an http(s) URL: gopher://old.example/1',
    ]);
    expect(r.targets.map((t) => t.url).filter((u) => !u.startsWith('http'))).toEqual([]);
  });
});
