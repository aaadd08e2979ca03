/**
 * A loopback site for batch tests: articles, a PDF, JSON, errors, a slow page. Each route
 * is what a real site sends; tests point targets at `${base}/path`.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { makePdf } from './fetch-pdf';

export interface Site {
  base: string;
  port: number;
  hits: Map<string, number>;
  close(): Promise<void>;
}

export function articleHtml(n: number, extra = ''): string {
  const paras = Array.from(
    { length: 6 },
    (_, i) =>
      `<p>Paragraph ${i + 1} of article ${n}. Sift keeps what matters from a page and drops the rest: the navigation, the ads and the footer are not the article. ${extra}</p>`,
  ).join('\n');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Article ${n}</title>
<meta name="description" content="About article ${n}"></head>
<body><nav><a href="/">Home</a> <a href="/about">About</a></nav>
<main><article><h1>Article ${n}</h1>${paras}</article></main>
<footer>Copyright the example site</footer></body></html>`;
}

/** A page of paragraphs under its title in an article, as a small news site sends one. */
const paragraphsPage = (title: string, paras: string[]): string =>
  `<!doctype html><html><head><title>${title}</title></head><body><main><article><h1>${title}</h1>${paras.map((p) => `<p>${p}</p>`).join('')}</article></main></body></html>`;

const htmlRoute =
  (html: string) =>
  (_req: http.IncomingMessage, res: http.ServerResponse): void => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(html);
  };

/** Two routes for startSite: /tides ("Tide tables", the one that says "water") and /fares ("Ferry fares"). */
export const FERRY_PAGES = {
  '/tides': htmlRoute(paragraphsPage('Tide tables', ['High water at the quay is at 06:12 today and the ferry leaves an hour after.', 'Pilots can be reached on channel 14 through the harbour office.'])),
  '/fares': htmlRoute(paragraphsPage('Ferry fares', ['Fares for foot passengers rise by ten percent from January, the operator said.', "Season tickets stay at last year's price for residents of the islands."])),
};

export async function startSite(routes: Record<string, (req: http.IncomingMessage, res: http.ServerResponse) => void> = {}): Promise<Site> {
  const hits = new Map<string, number>();
  const pdf = makePdf({ pages: [['Quarterly report', 'Net revenue grew 12%'], ['Outlook', 'More growth ahead']], title: 'Report' });
  const server = http.createServer((req, res) => {
    const u = new URL(req.url ?? '/', 'http://x');
    hits.set(u.pathname, (hits.get(u.pathname) ?? 0) + 1);
    const custom = routes[u.pathname];
    if (custom) return custom(req, res);
    let m: RegExpExecArray | null;
    if ((m = /^\/article\/(\d+)$/.exec(u.pathname))) {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      return res.end(articleHtml(Number(m[1])));
    }
    if (/^\/doc\/\d+\.pdf$/.test(u.pathname)) {
      res.writeHead(200, { 'content-type': 'application/pdf' });
      return res.end(pdf);
    }
    if ((m = /^\/data\/(\d+)\.json$/.exec(u.pathname))) {
      res.writeHead(200, { 'content-type': 'application/json' });
      return res.end(JSON.stringify({ items: [{ name: `item-${m[1]}-a` }, { name: `item-${m[1]}-b` }] }));
    }
    if (u.pathname.startsWith('/missing')) {
      res.writeHead(404, { 'content-type': 'text/html' });
      return res.end('<h1>Not found</h1>');
    }
    if (u.pathname === '/broken') {
      res.writeHead(500, { 'content-type': 'text/plain' });
      return res.end('oops');
    }
    if (u.pathname === '/binary') {
      res.writeHead(200, { 'content-type': 'application/octet-stream' });
      return res.end(Buffer.from([0, 1, 2, 3, 0, 0, 255, 254, 0, 7]));
    }
    if (u.pathname === '/busy') {
      res.writeHead(503, { 'content-type': 'text/plain', 'retry-after': '0' });
      return res.end('busy');
    }
    if ((m = /^\/slow\/(\d+)$/.exec(u.pathname))) {
      const t = setTimeout(() => {
        res.writeHead(200, { 'content-type': 'text/plain' });
        res.end('finally');
      }, Number(m[1]));
      res.on('close', () => clearTimeout(t));
      return;
    }
    if (u.pathname === '/big') {
      res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' });
      return res.end('a line of a long plain text document\n'.repeat(500));
    }
    if (u.pathname === '/text') {
      res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' });
      return res.end('alpha\nbeta\ngamma\n');
    }
    res.writeHead(404).end();
  });
  server.keepAliveTimeout = 1000;
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  return {
    base: `http://127.0.0.1:${port}`,
    port,
    hits,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
