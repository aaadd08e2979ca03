import { describe, expect, it } from 'vitest';
import { extractArticle } from '../../src/main/fetch/html';
import { classWords, namesConsentPrompt } from '../../src/main/fetch/prune';
import { largestCandidate } from '../../src/main/fetch/html';

// One rule per fixture: an article long enough for Readability to take its container, with
// one block inside that container that is not the article's text.
const PROSE = [
  'The estuary fills twice a day, and the pilots who bring ships up the channel read the water as much as the charts, because the sandbanks move with every winter storm.',
  'At low water the banks show as pale ribs under the surface; at high water nothing shows at all, and a vessel drawing nine metres has a margin of less than one.',
  'The harbour master publishes the soundings each week, but the older pilots still keep their own notebooks, filled with bearings taken on church towers and chimneys.',
  'When the spring tides come in September the current through the narrows runs at four knots, and even the tugs wait for slack water before they turn a ship.',
  'None of this appears on the tourist maps, which show the river as a calm blue ribbon between two towns that have argued over the ferry for two hundred years.',
];
const prose = PROSE.map((p) => `<p>${p}</p>`);

function page(inside: string, at = 2): string {
  const body = [...prose];
  body.splice(at, 0, inside);
  return `<!doctype html><html lang="en"><head><title>Reading the estuary</title></head><body>
<header><a href="/">The Harbour Times</a></header>
<main><article class="story"><h1>Reading the estuary</h1>${body.join('\n')}</article></main>
<footer><p>© The Harbour Times</p></footer></body></html>`;
}

const text = (html: string): string => extractArticle(html, 'https://news.example/estuary').text;
const keepsProse = (t: string): void => {
  for (const p of PROSE) expect(t).toContain(p);
};

describe('the article pruning pass', () => {
  it('keeps a link-dense block out of the article', () => {
    const related = `<div><a href="/a">Ferry fares rise again this spring</a> <a href="/b">Dredging plan delayed to next year</a> <a href="/c">Lighthouse keepers remember the great gale</a> <a href="/d">Harbour wall repairs finished early</a></div>`;
    const t = text(page(related));
    keepsProse(t);
    expect(t).not.toContain('Ferry fares');
    expect(t).not.toContain('Dredging plan');
  });

  it("keeps a heading that is a link once the article's text has begun: a roundup's names of what it reviews", () => {
    const md = (html: string): string => extractArticle(html, 'https://news.example/estuary').markdown;
    const item = (name: string, href: string): string => `<h3><a href="${href}">${name}</a></h3>`;
    const html = page(`${item('Tidemaster 3 Chart Plotter', 'https://shop.example/tidemaster')}${prose[1]}${item('Harbour Pro Binoculars', 'https://shop.example/binoculars')}`, 1);
    const m = md(html);
    expect(m).toContain(`\n\n### [Tidemaster 3 Chart Plotter](https://shop.example/tidemaster)\n\n${PROSE[1]}`);
    expect(m).toContain('\n\n### [Harbour Pro Binoculars](https://shop.example/binoculars)\n\n');
    expect(text(html)).toContain('\n\nTidemaster 3 Chart Plotter\n\n');
  });

  it("drops a linked heading before any of the article's text (the section's name over it), and a rail of linked headings", () => {
    const kicker = '<h3><a href="/estuary-news/">Estuary News: the week on the water</a></h3>';
    const rail = '<div><h4>More:</h4><ul><li><h4><a href="/a">Ferry fares rise again this spring</a></h4></li><li><h4><a href="/b">Dredging plan delayed to next year</a></h4></li></ul></div>';
    const t = text(page(kicker, 0).replace(PROSE[3]!, `${PROSE[3]}</p>${rail}<p>`));
    keepsProse(t);
    expect(t).not.toContain('Estuary News');
    expect(t).not.toContain('Ferry fares');
    expect(t).not.toContain('More:');
  });

  it('keeps a paragraph that merely holds a link', () => {
    const p = '<p>The soundings are published weekly by <a href="/hm">the harbour master</a>, whose office keeps records back to 1850 for anyone who asks at the desk.</p>';
    const t = text(page(p));
    keepsProse(t);
    expect(t).toContain('whose office keeps records back to 1850');
  });

  it('drops figure captions and photo credits', () => {
    const fig = '<figure><img src="/img/banks.jpg" alt=""><figcaption>The sandbanks at low water, seen from the ferry.</figcaption></figure><p class="photo-credit">Photo: Anna Pilot for the Harbour Times</p>';
    const t = text(page(fig));
    keepsProse(t);
    expect(t).not.toContain('sandbanks at low water, seen');
    expect(t).not.toContain('Photo: Anna Pilot');
  });

  it('drops a caption or credit written as a <div> of text, which Readability makes a bare paragraph', () => {
    const fig = '<figure><img src="/img/banks.jpg"><div class="image-caption">The sandbanks at low water, seen <em>from the ferry</em>.</div></figure>';
    const credit = '<div class="photo-credit">Photo: <a href="/anna">Anna Pilot</a> for the Harbour Times</div>';
    const a = extractArticle(page(fig + credit), 'https://news.example/estuary');
    keepsProse(a.text);
    expect(a.text).not.toContain('sandbanks at low water, seen');
    expect(a.text).not.toContain('Anna Pilot');
    // The caption names the picture it was under, which had no alt.
    expect(a.markdown).toContain('![The sandbanks at low water, seen from the ferry.](https://news.example/img/banks.jpg)');
  });

  it('keeps a <div> of text whose class says nothing of captions or chrome', () => {
    const t = text(page('<div class="story-text">The pilots still meet at the <em>Anchor</em> on Fridays to compare their notebooks.</div>'));
    keepsProse(t);
    expect(t).toContain('The pilots still meet at the Anchor on Fridays');
  });

  it('drops share and newsletter widgets by their class words', () => {
    const share = '<div class="social-share-bar"><span>Share this article on the networks you use</span></div>';
    const news = '<div class="newsletterSignup"><p>Get the tide tables in your inbox every Friday morning, free of charge.</p></div>';
    const t = text(page(share + news));
    keepsProse(t);
    expect(t).not.toContain('networks you use');
    expect(t).not.toContain('tide tables in your inbox');
  });

  it('drops a comment section and an author box', () => {
    const comments = '<section id="comments"><h3>Readers respond</h3><p>Great piece, my grandfather was a pilot on this river for thirty years and said the same.</p></section>';
    const bio = '<div class="author-bio"><p>Jo Tide writes about rivers and the people who work on them for the Harbour Times.</p></div>';
    const t = text(page(comments + bio, 5));
    keepsProse(t);
    expect(t).not.toContain('grandfather was a pilot');
    expect(t).not.toContain('writes about rivers');
  });

  it('drops "read more" pointers and cookie notices by their words', () => {
    const more = '<p><strong>READ MORE:</strong> Why the ferry still runs on the old timetable</p>';
    const cookies = '<p>This website uses cookies to improve your experience. Accept or manage them in settings.</p>';
    const t = text(page(more + cookies));
    keepsProse(t);
    expect(t).not.toContain('old timetable');
    expect(t).not.toContain('uses cookies');
  });

  it("drops an ad slot's label, a widget's notice that it needs scripts and a gallery's counter and buttons, and keeps prose about them", () => {
    const labels = [
      '<p>Advert</p>', '<p>ADVERTISEMENT</p>', '<div>Anzeige</div>', '<p>Sponsored</p>', '<p>This slideshow requires JavaScript.</p>', '<p>The video player needs JavaScript enabled to play.</p>',
      '<p>Image 1 of / 23</p>', '<div>Photo 4 of 12</div>', '<p>Caption</p>', '<p>Enlarge this image</p>', '<div>Next</div>', '<p>Close</p>', '<p>3 of 6</p>',
      '<p>Iklan</p>', '<p>Loading content ...</p>', '<h3>You may also like...</h3>', "<p><strong>DON'T MISS</strong></p>",
    ];
    const t = text(page(labels.join('\n')));
    keepsProse(t);
    for (const l of ['Advert', 'ADVERTISEMENT', 'Anzeige', 'Sponsored', 'requires JavaScript', 'needs JavaScript', ' of / 23', 'Photo 4', 'Caption', 'Enlarge', 'Next', 'Close', '3 of 6', 'Iklan', 'Loading', 'also like', 'MISS']) expect(t).not.toContain(l);
    const about = '<p>Advertising paid for the ferry until 1990.</p><p>This site requires JavaScript for nothing: the tide tables are plain pages.</p><p>Photo 4 of the series shows the old quay.</p><p>Next year the quay reopens.</p><p>Loading the ferry takes an hour.</p><p>Most popular with visitors is the lighthouse walk.</p>';
    const kept = text(page(about));
    expect(kept).toContain('Advertising paid for the ferry');
    expect(kept).toContain('This site requires JavaScript for nothing');
    expect(kept).toContain('Photo 4 of the series');
    expect(kept).toContain('Next year the quay reopens.');
    expect(kept).toContain('Loading the ferry takes an hour.');
    expect(kept).toContain('Most popular with visitors is the lighthouse walk.');
  });

  it('drops asides, navigation roles and print-only copies', () => {
    const aside = '<aside><p>Most read this week: the lighthouse auction and the new ferry timetable.</p></aside>';
    const nav = '<div role="navigation"><p>Home / Rivers / Estuaries / This story in the archive</p></div>';
    const print = '<div class="print-header">https://news.example/estuary printed edition header</div>';
    const t = text(page(aside + nav + print));
    keepsProse(t);
    expect(t).not.toContain('lighthouse auction');
    expect(t).not.toContain('Estuaries / This story');
    expect(t).not.toContain('printed edition header');
  });

  it('never drops the container that holds the article, whatever its class words say', () => {
    const html = page('').replace('<article class="story">', '<article class="story has-share-buttons field-label-hidden">');
    keepsProse(text(html));
  });

  it('takes the classes off the article it returns', () => {
    const a = extractArticle(page('<p class="lede">Pilots have read this river for three centuries, and they still disagree about it.</p>'), 'https://news.example/estuary');
    expect(a.html).toContain('Pilots have read this river');
    expect(a.html).not.toMatch(/class="(?!page")/);
  });

  it("keeps a code block's language for the fence, wherever the page names it, and no other class", () => {
    const blocks = [
      '<pre class="line-numbers language-python"><code>print("tide")</code></pre>',
      '<pre><code class="hljs lang-Rust">fn main() {}</code></pre>',
      '<pre class="language-sh">\n<code>ls</code></pre>',
      '<pre><code class="language-&quot;x highlight">plain()</code></pre>',
    ];
    const a = extractArticle(page(blocks.join('\n')), 'https://news.example/estuary');
    expect(a.markdown).toContain('```python\nprint("tide")\n```');
    expect(a.markdown).toContain('```rust\nfn main() {}\n```');
    expect(a.markdown).toContain('```\nplain()\n```');
    expect(a.html).not.toMatch(/line-numbers|hljs|highlight/);
    // The line break after <pre> is not the block's text (HTML's parser drops it).
    expect(a.markdown).toContain('```sh\nls\n```');
  });

  it('writes "<pre>" then a line break then "<code>" as a fenced block of its lines', () => {
    const a = extractArticle(page('<pre>\n<code>first line\n  second line</code></pre>'), 'https://news.example/estuary');
    expect(a.markdown).toContain('```\nfirst line\n  second line\n```');
    expect(a.text).toContain('first line\n  second line');
  });

  it('reads a page whose <html> has a class Readability takes for chrome as any other page', () => {
    const inside = '<p>The tide tables are at <a href="/tides">the harbour office</a> and on the quay, printed fresh every Monday morning for the pilots and the ferry crews.</p>';
    const sidebar = '<div class="sidebar"><p>Most read this week: the ferry timetable, the regatta results, the lifeboat appeal and the new fish market plans.</p></div>';
    const html = page(inside + sidebar).replace('<html lang="en">', '<html lang="en" class="header-spacing" id="top">');
    const a = extractArticle(html, 'https://news.example/estuary');
    keepsProse(a.text);
    expect(a.markdown).toContain('[the harbour office](https://news.example/tides)');
    expect(a.text).not.toContain('Most read this week');
    expect(a.lang).toBe('en');
  });

  it('makes links absolute in a page kept whole because it has no article', () => {
    // Readability finds no article in a page that is one <aside>, and Sift keeps the body.
    const a = extractArticle('<html><head><title>Index</title></head><body><aside><a href="/a">A</a> and <a href="b.html">B</a>, or <a href="javascript:void(0)">the menu</a></aside></body></html>', 'https://news.example/dir/');
    expect(a.markdown).toContain('[A](https://news.example/a) and [B](https://news.example/dir/b.html), or the menu');
  });

  it('writes no "[](url)" for a link without text, and keeps a link around an image', () => {
    const icons = '<p>The pilots keep a log online <a href="/log/fb"><span class="icon"></span></a> <a href="/log/x"> </a> and you can look at <a href="/map"><img src="/map.png" alt=""></a> the map of the channel and its banks.</p>';
    const md = extractArticle(page(icons), 'https://news.example/estuary').markdown;
    expect(md).not.toMatch(/(?<!!)\[\]\(/);
    expect(md).toContain('[![](https://news.example/map.png)](https://news.example/map)');
  });

  it('keeps an exponent an exponent (10^6, not 106), and a footnote marker or a subscript as it reads', () => {
    const a = extractArticle(page('<p>The basin holds 10<sup>6</sup> m<sup>3</sup> at 10<sup>-3</sup> salinity, as H<sub>2</sub>O goes, say the surveys<sup><a href="#fn1">[1]</a></sup> of the pilots.</p>'), 'https://news.example/estuary');
    expect(a.text).toContain('The basin holds 10^6 m^3 at 10^-3 salinity, as H2O goes, say the surveys[1] of the pilots.');
    // No backslash before the minus that opens the tag's text: it is inside a line.
    expect(a.markdown).toContain('The basin holds 10<sup>6</sup> m<sup>3</sup> at 10<sup>-3</sup> salinity, as H<sub>2</sub>O goes, say the surveys[\\[1\\]](https://news.example/estuary#fn1) of the pilots.');
  });

  it('keeps an index or exponent of several parts parted by commas marked (x<sub>i,j</sub> was "xi,j")', () => {
    const a = extractArticle(page('<p>The grid cell x<sub>i,j</sub> holds the depth, and the tensor T<sup>a,b</sup> its slope, as the survey of the pilots gives them.</p>'), 'https://news.example/estuary');
    expect(a.markdown).toContain('x<sub>i,j</sub> holds the depth, and the tensor T<sup>a,b</sup> its slope');
    expect(a.text).toContain('xi,j holds the depth, and the tensor T^a,b its slope');
  });

  it('reads a note\u2019s raised number as "[1]" and an ordinal\u2019s raised suffix as part of it, not as exponents ("surveys^1", "the 21^st century")', () => {
    const a = extractArticle(
      page('<p>The 21<sup>st</sup> survey, the 2<sup>nd</sup> of its kind and the 3<sup>e</sup> in French, put the basin at 10<sup>6</sup> m<sup>3</sup>, say the pilots<sup class="footnote-ref"><a href="#fn1" id="fnref1">1</a></sup> and the harbour master<sup><a href="#fn2">b</a></sup>.</p>'),
      'https://news.example/estuary',
    );
    expect(a.text).toContain('The 21st survey, the 2nd of its kind and the 3e in French, put the basin at 10^6 m^3, say the pilots[1] and the harbour master[b].');
    expect(a.markdown).toContain('The 21<sup>st</sup> survey, the 2<sup>nd</sup> of its kind and the 3<sup>e</sup> in French, put the basin at 10<sup>6</sup> m<sup>3</sup>, say the pilots<sup>[1](https://news.example/estuary#fn1)</sup>');
  });

  it('lays text out as it reads: a <br>, a list item, a row or a term ends a line, a paragraph or a list ends a paragraph', () => {
    const blocks = [
      '<p>Harbour Office<br>1 Quay Street<br>Port Estuary</p>',
      '<p>The first notice.<br><br>The second notice, parted by two breaks as old pages do.</p>',
      '<ul>\n  <li>Flood tide</li>\n  <li>Ebb tide<ul><li>Slack water</li></ul></li>\n</ul>',
      '<dl><dt>Neap</dt><dd>A weak tide.</dd><dt>Spring</dt><dd>A strong tide.</dd></dl>',
      '<table><tr><td>Brest</td><td>06:12</td></tr><tr><td>Dover</td><td>07:40</td></tr></table>',
    ].join('\n');
    const t = text(page(blocks));
    keepsProse(t);
    expect(t).toContain('Harbour Office\n1 Quay Street\nPort Estuary\n\n');
    expect(t).toContain('The first notice.\n\nThe second notice');
    expect(t).toContain('\n\n• Flood tide\n• Ebb tide\n  ◦ Slack water\n\nNeap\n  A weak tide.\nSpring\n  A strong tide.\n\nBrest\t06:12\nDover\t07:40\n\n');
  });

  it('gives an image that has only a srcset its largest candidate, a URL with commas whole', () => {
    const imgs =
      '<p>The channel at dawn, seen from the pier, where the pilots wait for the first ship of the day: <img srcset="/img/dawn-400.jpg 400w, /img/dawn-800.jpg 800w" alt="Dawn"> ' +
      'and at dusk <img src="" srcset="https://cdn.example/i.jpg?w=400,h=300 1x, https://cdn.example/i.jpg?w=800,h=600 2x" alt="Dusk"> from the same place.</p>';
    const md = extractArticle(page(imgs), 'https://news.example/estuary').markdown;
    expect(md).toContain('![Dawn](https://news.example/img/dawn-800.jpg)');
    expect(md).toContain('![Dusk](https://cdn.example/i.jpg?w=800,h=600)');
    expect(largestCandidate('a.jpg 800w,b.jpg 400w')).toBe('a.jpg');
    expect(largestCandidate('a.jpg')).toBe('a.jpg');
    expect(largestCandidate(' , ')).toBeUndefined();
  });

  it('writes a line break in a table cell as <br>, without the blanks of a Markdown line end', () => {
    const table = '<table><thead><tr><th>Port</th><th>Pilot</th></tr></thead><tbody><tr><td>Brest<br>Quai 4</td><td>On call<br/>day and night</td></tr></tbody></table>';
    const md = extractArticle(page(table), 'https://news.example/estuary').markdown;
    expect(md).toContain('| Brest<br>Quai 4 | On call<br>day and night |');
  });

  it('reads class words across camelCase and punctuation', () => {
    expect(classWords('newsletterSignup social-share_bar')).toEqual(['newsletter', 'signup', 'social', 'share', 'bar']);
  });
});

describe('cookie and consent prompts', () => {
  // A forum post of one short paragraph, and a custom element's cookie notice with more prose
  // than the post: the shape of a real post page of the outcomes corpus.
  const notice = [
    'We and our partners use cookies and similar technologies to give you a better experience on this site.',
    'By accepting all cookies, you agree to our use of cookies to deliver and maintain our services, to improve them, to personalise content and advertising, and to measure how well that advertising works.',
    'By rejecting non-essential cookies, we may still use certain cookies to make sure the site works as it should.',
  ];
  const post = 'The ferry will not run on Saturday: the channel is closed for dredging until the spring tide has passed.';
  const forum = (banner: string): string => `<!doctype html><html lang="en"><head><title>Ferry cancelled</title></head><body>
${banner}
<div class="layout"><div class="main-col"><div class="post"><h2>Ferry cancelled this weekend</h2><div class="post-body"><p>${post} <a href="https://ferry.example/notices/2026-03">https://ferry.example/notices/2026-03</a></p></div></div></div></div>
</body></html>`;

  it('reads the post, not a custom element\u2019s cookie notice that Readability took for the article', () => {
    const banner = `<acme-cookie-banner class="block relative"><div slot="text">${notice.map((p) => `<p>${p}</p>`).join('')}</div><button>Accept all</button></acme-cookie-banner>`;
    const a = extractArticle(forum(banner), 'https://forum.example/t/1');
    expect(a.text).toContain(post);
    expect(a.text).not.toContain('similar technologies');
  });

  it('keeps an article about cookies, and a prompt-named block that holds the page\u2019s heading', () => {
    const about = `<!doctype html><html><head><title>Cookies</title></head><body><article><h1>Why sites ask about cookies</h1>${notice.map((p) => `<p>${p}</p>`).join('')}</article></body></html>`;
    expect(extractArticle(about, 'https://news.example/cookies').text).toContain(notice[1]);
    const wrapper = `<!doctype html><html><head><title>Cookies</title></head><body><div class="cookie-banner-layout"><h1>Why sites ask about cookies</h1>${notice.map((p) => `<p>${p}</p>`).join('')}</div></body></html>`;
    expect(extractArticle(wrapper, 'https://news.example/cookies').text).toContain(notice[1]);
  });

  it('names a prompt by its words together: a consent word and a box word', () => {
    expect(namesConsentPrompt(classWords('acme-cookie-banner'))).toBe(true);
    expect(namesConsentPrompt(classWords('ConsentNotice'))).toBe(true);
    expect(namesConsentPrompt(classWords('gdpr_overlay'))).toBe(true);
    expect(namesConsentPrompt(classWords('cookie-recipe'))).toBe(false);
    expect(namesConsentPrompt(classWords('notice-board'))).toBe(false);
  });
});
