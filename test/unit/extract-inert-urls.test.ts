/**
 * Addresses that lead to no page: a picture written into the page as a data: URI, and a link
 * that runs a script or holds a document of its own. The Markdown carried them whole: a
 * base64 file on one line where the picture was, "[Print](javascript:window.print\(\))".
 */
import { describe, expect, it } from 'vitest';
import { extractArticle, markdownOf } from '../../src/main/fetch/html';

const FILL = 'The harbour office publishes its tide tables every week, with the pilots\u2019 notes on the bar and the berths free at the quay.';
const page = (body: string): string =>
  `<!doctype html><html><head><title>Tides</title></head><body><main><article><h1>Tides</h1><p>${FILL}</p>${body}<p>${FILL}</p></article></main></body></html>`;
// 3 KB of a picture's bytes, as an editor pastes one into a page.
const PNG = `data:image/png;base64,iVBORw0KGgo${'AAAAEUlEQVR42mNk'.repeat(200)}=`;

describe('a picture written into the page (a data: URI)', () => {
  it('is its alt text in the Markdown, or nothing, and never its bytes', () => {
    const a = extractArticle(
      page(`<p>The week at a glance: <img src="${PNG}" alt="Tide chart for the week"> and the moon <img src=" DATA:image/gif;base64,R0lGODlhAQABAAAAACw="> as usual.</p>`),
      'https://tides.example/week',
    );
    expect(a.markdown).toContain('The week at a glance: Tide chart for the week and the moon as usual.');
    expect(a.markdown).not.toMatch(/data:|base64/i);
  });

  it('keeps a link around it with the alt as its words, and drops a link left with none', () => {
    const md = markdownOf(`<p><a href="https://tides.example/"><img src="${PNG}" alt="Tides home"></a> <a href="https://tides.example/print"><img src="${PNG}"></a> end</p>`);
    expect(md).toBe('[Tides home](https://tides.example/) end');
  });

  it('is the srcset\u2019s picture when it has one, as a browser shows it over the src', () => {
    const md = markdownOf(`<p><img src="${PNG}" srcset="https://tides.example/c-400.png 400w, https://tides.example/c-800.png 800w" alt="Chart"></p>`);
    expect(md).toBe('![Chart](https://tides.example/c-800.png)');
  });

  it('leaves a picture on the web as it was', () => {
    expect(markdownOf('<p><img src="https://tides.example/c.png" alt="Chart"></p>')).toBe('![Chart](https://tides.example/c.png)');
  });
});

describe('a link that runs a script or holds a document', () => {
  const links =
    '<p>Print it: <a href="JavaScript:window.print()">Print</a>, <a href="java&#9;script:share()">Share</a>, ' +
    '<a href=" vbscript:msgbox(1)">Old</a>, <a href="data:text/csv;base64,bW9udGgsdGlkZQ==">Download the table</a>, ' +
    'or <a href="/tables/2024">read last year</a>.</p>';
  const words = 'Print it: Print, Share, Old, Download the table, or [read last year](https://tides.example/tables/2024).';

  it('is its words in an article, whatever the case or blanks of its scheme; the Markdown and the html keep no such address', () => {
    const a = extractArticle(page(links), 'https://tides.example/week');
    expect(a.markdown).toContain(words);
    expect(a.markdown).not.toMatch(/script:|data:/i);
    expect(a.html).not.toMatch(/script:|data:/i);
    expect(a.html).toContain('href="https://tides.example/tables/2024"');
  });

  it('is its words on a page with no article (a list of links) too', () => {
    const a = extractArticle(`<!doctype html><html><head><title>Links</title></head><body>${links}</body></html>`, 'https://tides.example/links');
    expect(a.markdown).toContain(words);
    expect(a.markdown).not.toMatch(/script:|data:/i);
  });
});

describe('a web page\u2019s link or picture to a file on the reader\u2019s computer (file:)', () => {
  // A Markdown viewer loads a picture when the file opens: on Windows, file://host/share/… is a
  // share on that host, which the viewer signs in to with the user's Windows credentials.
  const local =
    '<p>See <a href="file:///etc/passwd">the log</a>, <a href="FILE://attacker.test/share/run.exe">the tool</a>, ' +
    'the chart <img src="file://attacker.test/share/chart.png" alt="Tide chart"> and the map <img src=" JavaScript:draw()" alt="Harbour map">.</p>';
  const words = 'See the log, the tool, the chart Tide chart and the map Harbour map.';

  it('is its words, as a browser shows a web page\u2019s link or picture it will not open, in an article and in a list of links', () => {
    for (const html of [page(local), `<!doctype html><html><head><title>Links</title></head><body>${local}</body></html>`]) {
      const a = extractArticle(html, 'https://tides.example/week');
      expect(a.markdown).toContain(words);
      expect(a.markdown).not.toMatch(/file:|script:/i);
      expect(a.html ?? '').not.toMatch(/file:|script:/i);
    }
  });

  it('is its words when the page\u2019s <base> is a local folder', () => {
    const a = extractArticle(page('<p>Read <a href="notes.txt">the notes</a> beside <img src="chart.png" alt="the chart">.</p>').replace('<head>', '<head><base href="file:///C:/Users/Public/">'), 'https://tides.example/week');
    expect(a.markdown).toContain('Read the notes beside the chart.');
    expect(a.markdown).not.toMatch(/file:/i);
  });

  it('stays in a local file read with sift extract, whose pictures sit beside it', () => {
    const a = extractArticle(page('<p>The chart <img src="chart.png" alt="Tide chart"> and <a href="tables.html">the tables</a>.</p>'), 'file:///home/pilot/tides/week.html');
    expect(a.markdown).toContain('The chart ![Tide chart](file:///home/pilot/tides/chart.png) and [the tables](file:///home/pilot/tides/tables.html).');
  });
});

describe('the article as HTML (mode html), a file a browser may open', () => {
  const active =
    '<p>The chart <img src="https://tides.example/c.png" onerror="steal()" alt="Chart" width="400"> and <a href="https://tides.example/t" onclick="steal()">the tables</a>.</p>' +
    '<p>Drawn <svg width="20" height="20" onload="steal()"><a xlink:href="javascript:steal()"><circle r="5" /></a></svg> by hand, <details open ontoggle="steal()"><summary>notes</summary>kept</details>.</p>' +
    '<meta http-equiv="refresh" content="0;url=https://evil.test/"><base href="https://evil.test/"><p>Watch <video src="https://tides.example/v.mp4" onplay="steal()"></video> it.</p>';

  it('keeps the article and nothing that runs, loads another page or moves the reader elsewhere', () => {
    const a = extractArticle(page(active), 'https://tides.example/week');
    expect(a.html).toContain('<img src="https://tides.example/c.png" alt="Chart" width="400">');
    expect(a.html).toContain('<a href="https://tides.example/t">the tables</a>');
    expect(a.html).toContain('notes');
    expect(a.html).not.toMatch(/\son[a-z]+=|steal|<meta|<base|evil\.test/i);
  });

  it('leaves the Markdown as it was', () => {
    const a = extractArticle(page(active), 'https://tides.example/week');
    expect(a.markdown).toContain('The chart ![Chart](https://tides.example/c.png) and [the tables](https://tides.example/t).');
  });
});
