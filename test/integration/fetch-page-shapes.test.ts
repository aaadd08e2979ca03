/**
 * Pages that are not one article, and shapes inside an article that Markdown has no plain
 * way to write, read in markdown and text through the real fetcher against a loopback
 * server: a blog's front page and an archive of several posts; lists numbered in letters,
 * Roman numerals, below zero or past nine digits; ruby readings; a table in a table; a
 * glossary whose terms are grouped with their definitions.
 */
import type { ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createFetcher, type Fetcher } from '../../src/main/fetch';
import { fixedResolver, startServer, type TestServer } from '../helpers/fetch-server';

// Prose with the commas of lists, which Readability counts: it then scores each post's body
// above the list that holds them all.
const GARDEN = [
  'The allotment by the railway, the one with the blue shed, the water butt, the compost bays and the old bath, has had a wet spring, and the beans went in late, after the frost, the hail, and a week of rain.',
  'We dug the trenches deep, lined them with newspaper, cardboard, grass cuttings and a barrow of compost, set the canes, tied the tops, and watered them, morning and evening, until the first shoots showed.',
  'By June the plants had reached the tops of the canes, the flowers, red, white, and a few pink, had brought bees, hoverflies, and wasps, and the first pods, thin, green, and crisp, hung in bunches.',
  'The picking started in July, and it has not stopped: the freezer is full, the neighbours, the postman, and the school have had their share, and the chutney jars, labelled, dated, and stacked, line the shelf.',
  'Next year the beans move to the far bed, where the onions, leeks, and garlic were, and the onions come up to the gate, where the soil, lighter, sandier, and warmer, drains faster after a storm.',
  'We will sow a second row in June, too, so the picking runs on, through August, September, and, with luck, into October, instead of ending, as it did this year, with the first cold night.',
];
const BIKES = [
  'Riding to work through the winter, in the dark, the rain, the sleet, and, twice, the snow, takes better lights, front and back, than the ones the shop sells, and mudguards, long ones, that reach further down.',
  'The chain wants oil, cleaning, and a check for stretch, every week, when the roads are salted, and the brake blocks, front and rear, wear through in a month of rain, grit, and the hill past the station.',
  'A pair of overshoes, a jacket with long sleeves, gloves, a buff, and a cap under the helmet keep most of the weather out, most days, on the nine miles, flat, muddy, and windy, along the canal.',
  'In return, the ride is quicker than the bus, the train, or the car, it costs nothing, once the kit is bought, and there is, truly, no better start to a cold, grey, dark morning in February.',
  'The towpath floods after a week of rain, so, on those days, the route goes over the bridge, up the long hill, past the church, the school, and the shops, and down through the park instead.',
  'That adds a mile, a climb, and two sets of lights, and the park gates, both of them, open only at seven, which means leaving later, riding harder, and arriving, hot, wet, and late, anyway.',
];
const BREAD = [
  'A sourdough starter needs flour and water and a warm shelf, and for the first week it smells of nothing much before it begins to bubble.',
  'Feed it every morning, keep half, and bake when it doubles in four hours: the first loaves are flat, and by the tenth they rise and open well.',
];

const paragraphs = (ps: string[]): string => ps.map((p) => `<p>${p}</p>`).join('\n');
// A header of its own around the post's heading; Readability drops one whose class reads as
// chrome ("entry-header"), heading and all.
const post = (slug: string, heading: string, ps: string[], header = ''): string => `<article class="post">
<header${header && ` class="${header}"`}><h2 class="entry-title"><a href="/${slug}/" rel="bookmark">${heading}</a></h2>
<div class="entry-meta">Posted on <time>3 May</time></div></header>
<div class="entry-content">${paragraphs(ps)}</div>
<footer class="entry-footer">Filed under <a href="/category/notes/">Notes</a></footer></article>`;
const page = (title: string, main: string): string => `<!doctype html><html lang="en"><head><title>${title}</title></head><body>
<div id="page"><header id="masthead"><p class="site-title"><a href="/">Notes from the Plot</a></p><nav><a href="/">Home</a> <a href="/about/">About</a></nav></header>
<div id="content"><main id="main">${main}</main>
<aside id="secondary" class="widget-area"><h2>Recent posts</h2><ul><li><a href="/a/">Earlier</a></li><li><a href="/b/">Older</a></li></ul></aside></div>
<footer id="colophon"><p>© Notes from the Plot</p></footer></div></body></html>`;

// Two posts in full: Readability scores each post's body above the list that holds both.
const FRONT = page('Notes from the Plot', `${post('beans', 'Runner beans at last', GARDEN)}\n${post('winter-riding', 'Riding through the winter', BIKES)}\n<nav class="pagination"><a href="/page/2/">Older posts</a></nav>`);
// The same as cards: each post in a column of its own, its heading inside its link.
const CARDS = FRONT.replace(/<h2 class="entry-title"><a href="([^"]+)" rel="bookmark">([^<]+)<\/a><\/h2>/g, '<a href="$1"><h2>$2</h2></a>')
  .replace(/<article class="post">/g, '<div class="col"><article class="post">')
  .replace(/<\/article>/g, '</article></div>');
// Three short posts, all kept by Readability, but without their headings.
const ARCHIVE = page('May – Notes from the Plot', [post('beans', 'Runner beans at last', GARDEN.slice(0, 2), 'entry-header'), post('winter-riding', 'Riding through the winter', BIKES.slice(0, 2), 'entry-header'), post('starter', 'A starter from scratch', BREAD, 'entry-header')].join('\n'));
// The same archive with plain headers: Readability keeps each post under its heading.
const TAG = page('Tag: notes – Notes from the Plot', [post('beans', 'Runner beans at last', GARDEN.slice(0, 2)), post('winter-riding', 'Riding through the winter', BIKES.slice(0, 2)), post('starter', 'A starter from scratch', BREAD)].join('\n'));
// One post's own page, with the next post shown in full below it: the user asked for this post.
const SINGLE = page('Runner beans at last – Notes from the Plot', `${post('beans', 'Runner beans at last', GARDEN)}\n${post('winter-riding', 'Riding through the winter', BIKES)}`);

const SHAPES = `<!doctype html><html lang="en"><head><title>Reading the club rules</title></head><body><main><article>
<h1>Reading the club rules</h1>
<p>The club's rules were rewritten this winter, and the committee asked for them to be set out here, clause by clause, with the changes marked, so that members can read them before the meeting.</p>
<ol type="a"><li>Members pay their dues by March.</li><li>Guests sign the book at the door.</li></ol>
<ol type="I" start="4"><li>The committee meets monthly.</li><li>Minutes are posted within a week.</li></ol>
<p>The floors of the club house, from the cellar up:</p>
<ol start="-2"><li>Boiler room</li><li>Cellar bar</li><li>Ground floor</li></ol>
<ol start="1234567890"><li>Membership number one</li><li>Membership number two</li></ol>
<p>The club's name is written <ruby>東京<rt>とうきょう</rt></ruby> <ruby>漢<rp>(</rp><rt>kan</rt><rp>)</rp></ruby> on the sign.</p>
<table><tr><th>Night</th><th>Fees</th></tr><tr><td><table><tr><td>Members</td><td>free</td></tr><tr><td>Guests</td><td>£5</td></tr></table></td><td>Quiz</td></tr><tr><td>Friday</td><td>Music</td></tr></table>
<dl><div><dt>Quorum</dt><dd>Ten members present in the room.</dd></div><div><dt>Proxy</dt><dd>A member who votes for another.</dd></div></dl>
<p>Questions about the rules go to the secretary, in writing, at least a week before the meeting in April.</p>
</article></main></body></html>`;

const caller = { name: 'test' };
let srv: TestServer;
let f: Fetcher;

const html = (body: string) => (_q: unknown, r: ServerResponse) => r.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(body);

beforeAll(async () => {
  srv = await startServer({ '/': html(FRONT), '/2024/05/': html(ARCHIVE), '/beans/': html(SINGLE), '/tag/notes/': html(TAG), '/rules/': html(SHAPES), '/cards/': html(CARDS) });
  f = createFetcher({ allowPrivate: true }, { lookup: fixedResolver({}) });
});
afterAll(async () => {
  await f.close();
  await srv.close();
});

const get = async (path: string, mode: 'markdown' | 'text'): Promise<string> =>
  (await f.fetchTarget(new AbortController().signal, caller, { url: `${srv.origin}${path}`, options: { mode } })).content;

describe('a page that lists several posts', () => {
  test.each(['/', '/cards/'])("a blog's front page comes back with every post, each under its linked heading (%s)", async (path) => {
    const md = await get(path, 'markdown');
    expect(md).toContain(`## [Runner beans at last](${srv.origin}/beans/)`);
    expect(md).toContain(`## [Riding through the winter](${srv.origin}/winter-riding/)`);
    for (const p of [...GARDEN, ...BIKES]) expect(md).toContain(p);
    expect(md.indexOf(GARDEN[3]!)).toBeLessThan(md.indexOf('Riding through the winter'));
    expect(md).not.toContain('Recent posts');
    const text = await get(path, 'text');
    expect(text).toContain(`Runner beans at last\n\n${GARDEN[0]}`);
    expect(text).toContain(`Riding through the winter\n\n${BIKES[0]}`);
  });

  test.each(['/2024/05/', '/tag/notes/'])("an archive's posts keep their linked headings, the first one's too (%s)", async (path) => {
    const md = await get(path, 'markdown');
    const headings = md.split('\n').filter((l) => l.startsWith('## '));
    expect(headings).toEqual([
      `## [Runner beans at last](${srv.origin}/beans/)`,
      `## [Riding through the winter](${srv.origin}/winter-riding/)`,
      `## [A starter from scratch](${srv.origin}/starter/)`,
    ]);
    expect(md.indexOf(BREAD[0]!)).toBeGreaterThan(md.indexOf('A starter from scratch'));
  });

  test("a post's own page comes back as that post, not the next one shown below it", async () => {
    const md = await get('/beans/', 'markdown');
    for (const p of GARDEN) expect(md).toContain(p);
    expect(md).not.toContain(BIKES[0]);
  });
});

describe('shapes Markdown has no plain way to write', () => {
  test('a list numbered in letters, Roman numerals, below zero or past nine digits keeps the numbers the page shows', async () => {
    const md = await get('/rules/', 'markdown');
    expect(md).toContain('\n\n-   a\\. Members pay their dues by March.\n-   b\\. Guests sign the book at the door.\n\n');
    // A list right after a list takes the other marker, so Markdown reads two lists, not one.
    expect(md).toContain('\n\n*   IV\\. The committee meets monthly.\n*   V\\. Minutes are posted within a week.\n\n');
    expect(md).toContain('\n\n-   -2\\. Boiler room\n-   -1\\. Cellar bar\n-   0\\. Ground floor\n\n');
    expect(md).toContain('\n\n*   1234567890\\. Membership number one\n*   1234567891\\. Membership number two\n\n');
    const text = await get('/rules/', 'text');
    expect(text).toContain('\n\na. Members pay their dues by March.\nb. Guests sign the book at the door.\n\n');
    expect(text).toContain('\n\n-2. Boiler room\n-1. Cellar bar\n0. Ground floor\n\n');
  });

  test('a ruby reading stands in parentheses after its word, whether or not the page wrote them', async () => {
    for (const mode of ['markdown', 'text'] as const) expect(await get('/rules/', mode)).toContain('written 東京(とうきょう) 漢(kan) on the sign.');
  });

  test("a table in a table: the outer table's cells one after another, none run together", async () => {
    const md = await get('/rules/', 'markdown');
    expect(md).toContain('\n\nNight\n\nFees\n\n');
    expect(md).toMatch(/^\| Members +\| free +\|$/m);
    expect(md).toContain('\n\nQuiz\n\nFriday\n\nMusic\n\n');
  });

  test('a glossary whose terms the page groups with their definitions keeps each definition under its term', async () => {
    expect(await get('/rules/', 'markdown')).toContain('\n\nQuorum\n:   Ten members present in the room.\n\nProxy\n:   A member who votes for another.\n\n');
    expect(await get('/rules/', 'text')).toContain('\nQuorum\n  Ten members present in the room.\nProxy\n  A member who votes for another.\n');
  });
});
