/**
 * A loopback site for the UI tests: a few HTML articles, a feed of two of them, a CSV file, a
 * JSON document, a 404, and a slow page (so a job can be cancelled or reloaded mid-way).
 */
import http from 'node:http';
import { articlePage } from './ui-app';

export interface TestSite {
  url: string;
  close(): Promise<void>;
}

function article(n: number): string {
  const para = `Paragraph about topic ${n}. Sift keeps the readable part of a page and drops the navigation around it. `.repeat(6);
  return `<!doctype html><html><head><meta charset="utf-8"><title>Article ${n}</title></head><body>
<nav><a href="/">Home</a> <a href="/about">About</a></nav>
<article><h1>Article ${n}</h1><p>${para}</p><p>${para}</p>
<p>An image from far away: <img src="http://203.0.113.9/tracker.png" alt="tracker"> and a <a href="https://example.org/more">link</a>.</p>
<h2>Details</h2><ul><li>first point of article ${n}</li><li>second point</li></ul><p>${para}</p></article>
<footer>footer text</footer></body></html>`;
}

/** An RSS feed of two of the site's articles, their content escaped in the description as RSS has it. */
export function feed(base: string): string {
  const item = (n: number, day: number) =>
    `<item><title>Article ${n}</title><link>${base}/article/${n}</link><pubDate>Mon, ${String(day).padStart(2, '0')} Jun 2024 09:00:00 GMT</pubDate>` +
    `<description>&lt;p&gt;The first lines of &lt;b&gt;article ${n}&lt;/b&gt;.&lt;/p&gt;&lt;script&gt;track()&lt;/script&gt;</description></item>`;
  return `<?xml version="1.0" encoding="UTF-8"?><rss version="2.0"><channel><title>The Test Site</title><link>${base}/</link><description>New articles</description>${item(11, 3)}${item(12, 10)}</channel></rss>`;
}

export async function startTestSite(): Promise<TestSite> {
  const server = http.createServer((req, res) => {
    const u = new URL(req.url ?? '/', 'http://x');
    const m = /^\/article\/(\d+)$/.exec(u.pathname);
    if (m) {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(article(Number(m[1])));
      return;
    }
    if (u.pathname === '/feed.xml') {
      // Sent as text/html, as many servers send feeds.
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(feed(`http://${req.headers.host ?? '127.0.0.1'}`));
      return;
    }
    if (u.pathname === '/prices.csv') {
      res.writeHead(200, { 'content-type': 'text/csv; charset=utf-8' });
      res.end('# prices in pence\nitem,price\ntea,300\n1. coffee,420\n');
      return;
    }
    if (u.pathname === '/data.json') {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ items: [{ name: 'alpha', n: 1 }, { name: 'beta', n: 2 }], total: 2 }));
      return;
    }
    if (u.pathname.startsWith('/slow/')) {
      const ms = Number(u.searchParams.get('ms') ?? 1500);
      const t = setTimeout(() => {
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        res.end(article(900 + (Number(u.pathname.slice(6)) || 0)));
      }, ms);
      req.on('close', () => clearTimeout(t));
      return;
    }
    res.writeHead(404, { 'content-type': 'text/html' });
    res.end('<html><body><h1>Not here</h1></body></html>');
  });
  return listening(server);
}

/** `server` listening on a free loopback port, as a TestSite. */
async function listening(server: http.Server): Promise<TestSite> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * A site of harbour reports: any path ending in /report-N is an article titled by its path,
 * so each row of a list of them has a title of its own; anything else is a 404, as Sift asks
 * for an address that is not there to tell a page from a soft 404.
 */
export async function startReportSite(): Promise<TestSite> {
  const server = http.createServer((req, res) => {
    const report = /\/report-\d+$/.test(req.url ?? '');
    res.writeHead(report ? 200 : 404, { 'content-type': 'text/html; charset=utf-8' });
    res.end(report ? articlePage(`Harbour report ${req.url ?? ''}`) : '<h1>Not here</h1>');
  });
  return listening(server);
}
