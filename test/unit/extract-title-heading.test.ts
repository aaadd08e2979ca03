/**
 * An article's heading that only repeats its title goes (the markdown starts with the title),
 * in every script: Readability's own test splits words at \W and sees no words in a
 * Cyrillic, Greek, Arabic, Hebrew or CJK title, so those articles began with their title twice.
 */
import { describe, expect, it } from 'vitest';
import { extractArticle } from '../../src/main/fetch/html';
import { dropTitleHeading } from '../../src/main/fetch/html';

function article(lang: string, title: string, heading: string, paragraph: string): string {
  const body = Array.from({ length: 6 }, (_, i) => `<p>${paragraph} (${i + 1})</p>`).join('\n');
  return `<!doctype html><html lang="${lang}"><head><meta charset="utf-8"><title>${title}</title></head><body>
<header><a href="/">Site</a></header><main><article><h1>${heading}</h1>${body}</article></main><footer>©</footer></body></html>`;
}

const TEXTS: [string, string, string][] = [
  ['ru', 'Как читать устье реки', 'Устье наполняется дважды в день, и лоцманы, которые проводят суда по каналу, читают воду так же внимательно, как карты, потому что мели сдвигаются с каждым зимним штормом.'],
  ['el', 'Πώς διαβάζεται η εκβολή', 'Η εκβολή γεμίζει δύο φορές την ημέρα, και οι πλοηγοί που φέρνουν τα πλοία στο κανάλι διαβάζουν το νερό όσο και τους χάρτες, γιατί οι αμμοσύρσεις μετακινούνται με κάθε χειμωνιάτικη καταιγίδα.'],
  ['ar', 'كيف نقرأ مصب النهر', 'يمتلئ المصب مرتين في اليوم، ويقرأ المرشدون الذين يقودون السفن عبر القناة الماء بقدر ما يقرؤون الخرائط، لأن الضفاف الرملية تتحرك مع كل عاصفة شتوية.'],
  ['he', 'איך קוראים שפך נהר', 'השפך מתמלא פעמיים ביום, והנווטים שמובילים ספינות בתעלה קוראים את המים כמו את המפות, כי שרטונות החול זזים עם כל סערת חורף.'],
  ['ja', '河口の読み方', '河口は一日に二度満ち、水路を通って船を導く水先案内人は、冬の嵐のたびに砂州が動くため、海図と同じくらい水そのものを読む。'],
  ['zh', '如何阅读河口', '河口每天涨潮两次，引导船只通过航道的引航员既看海图也看水面，因为每次冬季风暴之后沙洲都会移动。'],
];

describe('a heading that repeats the title', () => {
  it.each(TEXTS)('is not kept below the title (%s)', (lang, title, paragraph) => {
    const a = extractArticle(article(lang, title, title, paragraph), 'https://news.example/estuary');
    expect(a.title).toBe(title);
    expect(a.markdown.startsWith(`# ${title}\n\n`)).toBe(true);
    expect(a.markdown.split(title).length - 1, a.markdown).toBe(1);
    expect(a.text).not.toContain(title);
    expect(a.markdown).toContain(paragraph);
  });

  it('is kept when it says something else (a Japanese section heading, a Russian subtitle)', () => {
    const [, jaTitle, ja] = TEXTS[4]!;
    const jaArticle = extractArticle(article('ja', jaTitle, '砂州と潮の流れ', ja), 'https://news.example/a');
    expect(jaArticle.markdown).toContain('砂州と潮の流れ');
    const [, ruTitle, ru] = TEXTS[0]!;
    const ruArticle = extractArticle(article('ru', ruTitle, 'Записки старого лоцмана о мелях', ru), 'https://news.example/b');
    expect(ruArticle.markdown).toContain('Записки старого лоцмана о мелях');
  });

  it('in Latin letters follows Readability, and an exact repeat it kept goes too', () => {
    const heading = (text: string) => ({ textContent: text, removed: false, remove() { this.removed = true; } });
    const run = (title: string, text: string): boolean => {
      const h = heading(text);
      dropTitleHeading({ querySelector: () => h }, title);
      return h.removed;
    };
    // Readability compared these itself: a paraphrase it kept stays.
    expect(run('Best tech gadgets of 2019', "Some of 2019's best tech gadgets")).toBe(false);
    expect(run('How to retire early so you can travel', 'How to retire early')).toBe(false);
    // The same words, whatever the case and punctuation.
    expect(run('Esper accuses China of intimidating smaller Asian nations', 'Esper accuses China of intimidating smaller Asian nations.')).toBe(true);
    // Words in another script than ASCII: compared here, where Readability saw none.
    expect(run('Как читать устье реки', 'Как читать устье')).toBe(true);
    expect(run('Как читать устье реки', 'Мели')).toBe(false);
    expect(run('', 'Anything')).toBe(false);
  });
});

describe('the title and byline Readability reads from JSON-LD', () => {
  it('have every HTML reference decoded: "win this&nbsp;game" was a title and an export file name', () => {
    const ld = JSON.stringify({
      '@context': 'https://schema.org',
      '@type': 'NewsArticle',
      headline: 'Lynn: &#8220;We needed to win this&nbsp;game&#8221; &hellip; caf&eacute; &notareference; a &lt;b&gt;',
      author: { '@type': 'Person', name: 'Ren&eacute;e Dupr&eacute;' },
    });
    const html = `<!doctype html><html><head><title>Lynn</title><script type="application/ld+json">${ld}</script></head>
<body><article><h1>Lynn</h1>${'<p>Words of the article, enough of them to be one. </p>'.repeat(12)}</article></body></html>`;
    const a = extractArticle(html, 'https://news.test/lynn');
    // The parser decodes the references, and only them: "<b>" stays text, an unknown name stays.
    expect(a.title).toBe('Lynn: “We needed to win this\u00a0game” … café &notareference; a <b>');
    expect(a.byline).toBe('Renée Dupré');
    expect(a.markdown.startsWith('# Lynn: “We needed to win this\u00a0game”')).toBe(true);
  });
});

describe("the site's name beside the title", () => {
  const page = (title: string, h1s: string[], lang = 'en'): string =>
    article(lang, title, h1s[0] ?? '', 'The tide fills the estuary twice a day, and the pilots who bring ships up the channel read the water as closely as the charts.').replace(
      '<header><a href="/">Site</a></header>',
      `<header>${h1s
        .slice(1)
        .map((h) => `<h1>${h}</h1>`)
        .join('')}<a href="/">Site</a></header>`,
    );

  it('goes when the page’s headline is the title with the name added, after it or before it', () => {
    for (const [title, headline] of [
      ['Storm hits the coast | Example News', 'Storm hits the coast'],
      ['Storm hits the coast - example.com', 'Storm hits the coast'],
      ['Storm hits the coast – Example Weekly', 'Storm hits the coast'],
      ['Storm hits the coast | Weather | Example News', 'Storm hits the coast'],
      ['Example News » Storm hits the coast', 'Storm hits the coast'],
      ['Как читать устье реки — Лоцман', 'Как читать устье реки'],
    ] as const) {
      const a = extractArticle(page(title, [headline]), 'https://news.example/storm');
      expect(a.title, title).toBe(headline);
      expect(a.markdown.startsWith(`# ${headline}\n\n`), title).toBe(true);
      expect(a.markdown.split(headline).length - 1, title).toBe(1);
    }
  });

  it('stays when the fitting <h1> is a logo or the shorter part, when a colon joins the parts, or a hyphen has no spaces', () => {
    // Readability keeps a title of four words or fewer whole; `logo` is put before the article.
    const titled = (title: string, logo: string, head = '') =>
      extractArticle(page(title, ['The tide report']).replace('<header>', `${logo}<header>`).replace('</head>', `${head}</head>`), 'https://news.example/a').title;
    // An <h1> that nothing marks as a logo is taken for the page's headline.
    expect(titled('About | Example News', '<div><h1>Example News</h1></div>')).toBe('Example News');
    expect(titled('About | Example News', '<div><a href="/"><h1>Example News</h1></a></div>')).toBe('About | Example News');
    expect(titled('About | Example News', '<header><h1>Example News</h1></header>')).toBe('About | Example News');
    expect(titled('About | Example News', '<div role="banner"><h1>Example News</h1></div>')).toBe('About | Example News');
    // Named as the site in the meta tags, the <h1> is no headline, and the name goes.
    expect(titled('About | Example News', '<div><h1>Example News</h1></div>', '<meta property="og:site_name" content="Example News">')).toBe('About');
    expect(titled('Tides | Example News', '<div><h1>Tides</h1></div>')).toBe('Tides | Example News');
    expect(titled('Storm hits the coast: what we know', '<div><h1>Storm hits the coast</h1></div>')).toBe('Storm hits the coast: what we know');
    expect(titled('Audi e-tron Sportback', '<div><h1>Audi e</h1></div>')).toBe('Audi e-tron Sportback');
  });

  it('goes when it is the name the page gives its site (og:site_name), with no headline to tell', () => {
    const titled = (title: string, site: string) =>
      extractArticle(page(title, ['The tide report']).replace('</head>', `<meta property="og:site_name" content="${site}"></head>`), 'https://news.example/f').title;
    // Readability keeps a title of four words or fewer beside a name whole.
    expect(titled('Storm hits the coast - Example Times', 'Example Times')).toBe('Storm hits the coast');
    expect(titled('Example Times | Storm hits the coast', 'Example Times')).toBe('Storm hits the coast');
    expect(titled('Storm hits the coast · Example Times', 'Example Times')).toBe('Storm hits the coast');
    // Not a name that is no part set apart by a separator, or the whole title.
    expect(titled('Readers of the Example Times', 'Example Times')).toBe('Readers of the Example Times');
    expect(titled('Example Times', 'Example Times')).toBe('Example Times');
  });

  it('Readability cut from the <title> comes back when it is no site name: not the host, og:site_name, and no <h1> or og:title names the rest', () => {
    const titled = (title: string, url: string, head = '') => extractArticle(page(title, ['The tide report']).replace('</head>', `${head}</head>`), url).title;
    // Readability took the part before " \\ " for the title and the rest for the site's name.
    expect(titled('Q1/Q2 report: costs \\ revenue', 'https://news.example/q')).toBe('Q1/Q2 report: costs \\ revenue');
    expect(titled('Tide tables for the estuary / Spring and neap', 'https://news.example/t')).toBe('Tide tables for the estuary / Spring and neap');
    // The rest is the site's host or one of its labels.
    // (Readability keeps a part of four words or fewer whole; these have five.)
    const storm = 'Storm hits the coast overnight';
    expect(titled(`${storm} - News Example`, 'https://www.news.example/s')).toBe(storm);
    expect(titled(`${storm} | Harbour`, 'https://harbour.example.org/s')).toBe(storm);
    // Readability cuts at the last separator only.
    expect(titled(`${storm} | Weather | harbour.example`, 'https://harbour.example/s')).toBe(`${storm} | Weather`);
    expect(titled(`${storm} | Harbour Desk`, 'https://news.example/s', '<meta property="og:site_name" content="Harbour Desk">')).toBe(storm);
    // Or the page names the part kept its title.
    expect(titled(`${storm} | Harbour Desk`, 'https://news.example/s', `<meta property="og:title" content="${storm}">`)).toBe(storm);
    expect(extractArticle(page(`${storm} | Harbour Desk`, [storm]), 'https://news.example/s').title).toBe(storm);
  });

  it("is found in an article's own <header>, beside the page's logo", () => {
    const body = Array.from({ length: 6 }, (_, i) => `<p>The pilots read the water as closely as the charts, as the sandbanks move with every storm (${i}).</p>`).join('');
    const a = extractArticle(
      `<!doctype html><html><head><title>Storm hits the coast | Example News</title></head><body><header><a href="/"><h1>Example News</h1></a></header>` +
        `<main><article><header><h1>Storm hits the coast</h1><p>By A. Pilot</p></header>${body}</article></main></body></html>`,
      'https://news.example/e',
    );
    expect(a.title).toBe('Storm hits the coast');
  });

  it('is read from any <h1>, with white space as a browser shows it', () => {
    const a = extractArticle(page('Storm  hits the\tcoast | Example News', ['The tide report', 'Storm hits\n   the coast']).replace('<header><h1>', '<header></header><div><h1>').replace('</h1><a href="/">Site</a></header>', '</h1></div><header><a href="/">Site</a></header>'), 'https://news.example/d');
    expect(a.title).toBe('Storm hits the coast');
  });
});

/**
 * The Markdown's first line is the article's title as "# Title", wherever the page names it:
 * its <title>, og:title, or, on a page that names none, its one <h1>. Readability turns the
 * article's <h1>s into <h2>s and takes a lone <h1> for the title only when it has more than 4
 * words: a page with no <title> whose headline was "Tides" began "## Tides".
 */
describe("the Markdown's title", () => {
  const PARA = '<p>The estuary fills twice a day, and the pilots who bring ships up the channel read the water as closely as the charts, because the sandbanks shift with every winter storm.</p>';
  const pageOf = (head: string, article: string): string =>
    `<!doctype html><html lang="en"><head><meta charset="utf-8">${head}</head><body><header><a href="/">Harbour Notes</a></header>` +
    `<main><article>${article}${PARA.repeat(4)}<h2>Reading the bar</h2>${PARA.repeat(2)}</article></main><footer>© Harbour Notes</footer></body></html>`;
  const headings = (md: string): string[] => md.split('\n').filter((l) => l.startsWith('#'));

  it.each([
    ['a <title> the <h1> repeats', '<title>Tides</title>', '<h1>Tides</h1>'],
    ['og:title alone, and the <h1>', '<meta property="og:title" content="Tides">', '<h1>Tides</h1>'],
    ['og:title alone, no <h1>', '<meta property="og:title" content="Tides">', ''],
    ['a <title> alone', '<title>Tides</title>', ''],
    ['the <h1> alone, of one word', '', '<h1>Tides</h1>'],
    ['the <h1> alone, of three words', '', '<h1>Reading the estuary</h1>'],
    ['the <h1> alone, of seven words', '', '<h1>Reading the estuary when the tide turns</h1>'],
    ['the <h1> alone, under an empty <title>', '<title> </title>', '<h1>Tides</h1>'],
  ])('heads the page once, as "# Title", from %s', (_case, head, h1) => {
    const a = extractArticle(pageOf(head, h1), 'https://harbour.example/tides');
    const title = /<h1>([^<]*)<\/h1>/.exec(h1)?.[1] ?? 'Tides';
    expect(a.title).toBe(title);
    expect(headings(a.markdown)).toEqual([`# ${title}`, '## Reading the bar']);
    expect(a.markdown.startsWith(`# ${title}\n\n`)).toBe(true);
  });

  it('is no <h1> of several on a page that names no title: each stays a section, and nothing heads the page', () => {
    const a = extractArticle(pageOf('', `<h1>Tides</h1>${PARA}<h1>Currents</h1>`), 'https://harbour.example/tides');
    expect(a.title).toBe('');
    expect(headings(a.markdown)).toEqual(['## Tides', '## Currents', '## Reading the bar']);
  });

  it("is not the site's logo, when the article has no <h1> of its own", () => {
    const a = extractArticle(pageOf('', '').replace('<header><a href="/">Harbour Notes</a></header>', '<header><a href="/"><h1>Harbour Notes</h1></a></header>'), 'https://harbour.example/tides');
    expect(a.title).toBe('');
    expect(a.markdown).not.toContain('Harbour Notes');
    expect(headings(a.markdown)).toEqual(['## Reading the bar']);
  });

  it('is none on a page that names none and has no <h1>', () => {
    const a = extractArticle(pageOf('', ''), 'https://harbour.example/tides');
    expect(a.title).toBe('');
    expect(headings(a.markdown)).toEqual(['## Reading the bar']);
  });
});
