import iconv from 'iconv-lite';
import { readFileSync, readdirSync } from 'node:fs';
import { createSocket } from 'node:dgram';
import { createServer, type Server, type ServerResponse } from 'node:http';
import { gzipSync } from 'node:zlib';
import type { AddressInfo, Socket } from 'node:net';
import path from 'node:path';

const FIXTURES = path.resolve(__dirname, '../fixtures/render');
const TYPES: Record<string, string> = { '.html': 'text/html; charset=utf-8', '.js': 'text/javascript', '.json': 'application/json' };

export interface Site {
  origin: string;
  /** Paths requested, in order. */
  hits: string[];
  /** TCP connections accepted: a forbidden host must see none, of any kind. */
  connections: number;
  /** Resolves once a request for this path has come (at once if one has). */
  hit(path: string): Promise<void>;
  /** Resolves when the next request for this path comes (not one that came before). */
  next(path: string): Promise<void>;
  close(): Promise<void>;
}

export interface RenderSites {
  /** 127.0.0.1: the fixtures; the one origin a test allows. */
  allowed: Site;
  /** 127.0.0.2: the host no channel of a rendered page may reach. */
  forbidden: Site;
  /** A UDP port on 127.0.0.2 (WebRTC, WebTransport): it must receive no datagram. */
  forbiddenUdp: { port: number; datagrams: number };
  close(): Promise<void>;
}

async function listen(host: string, handle: (url: string, res: ServerResponse) => void): Promise<Site> {
  const hits: string[] = [];
  const waiting: Array<{ path: string; resolve: () => void }> = [];
  const sockets = new Set<Socket>();
  const site: Site = {
    origin: '',
    hits,
    connections: 0,
    hit: (p) => (hits.includes(p) ? Promise.resolve() : new Promise((resolve) => waiting.push({ path: p, resolve }))),
    next: (p) => new Promise((resolve) => waiting.push({ path: p, resolve })),
    close: async () => {},
  };
  const server: Server = createServer((req, res) => {
    hits.push(req.url ?? '/');
    for (const w of waiting.filter((x) => x.path === req.url)) {
      waiting.splice(waiting.indexOf(w), 1);
      w.resolve();
    }
    handle(req.url ?? '/', res);
  });
  server.on('upgrade', (req, socket) => {
    hits.push(`upgrade ${req.url ?? '/'}`);
    socket.destroy();
  });
  server.on('connection', (s) => {
    site.connections++;
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, host, resolve);
  });
  site.origin = `http://${host}:${(server.address() as AddressInfo).port}`;
  site.close = () =>
    new Promise<void>((resolve) => {
      for (const s of sockets) s.destroy();
      server.close(() => resolve());
    });
  return site;
}

/**
 * The render fixtures (test/fixtures/render) on 127.0.0.1, and a second server on
 * 127.0.0.2 that the fixtures try to reach through every channel a page has.
 */
export async function startRenderSites(): Promise<RenderSites> {
  const forbidden = await listen('127.0.0.2', (_url, res) => res.writeHead(200, { 'content-type': 'text/plain' }).end('forbidden host reached'));
  const udp = createSocket('udp4');
  const forbiddenUdp = { port: 0, datagrams: 0 };
  udp.on('message', () => forbiddenUdp.datagrams++);
  await new Promise<void>((resolve) => udp.bind(0, '127.0.0.2', resolve));
  forbiddenUdp.port = udp.address().port;
  const files = new Map(
    readdirSync(FIXTURES).map((f) => [`/${f}`, readFileSync(path.join(FIXTURES, f), 'utf8').split('{{FORBIDDEN}}').join(forbidden.origin).split('{{FORBIDDEN_UDP}}').join(String(forbiddenUdp.port))]),
  );
  files.set('/api/article.json', files.get('/article.json') ?? '');
  let answeredOnce = false;
  const allowed = await listen('127.0.0.1', (url, res) => {
    const p = url.split('?')[0] ?? '/';
    if (p === '/redirect') return void res.writeHead(302, { location: `${forbidden.origin}/redirected` }).end();
    if (p === '/download.bin') return void res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-disposition': 'attachment; filename="x.bin"' }).end(Buffer.alloc(4096));
    // A page served as a file to download: a browser saves it instead of showing it.
    if (p === '/attachment.html') return void res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'content-disposition': 'attachment; filename="page.html"' }).end(files.get('/inline.html'));
    // A URL with no page: the server says so with 204 No Content (205 asks the reader to reset its form).
    if (p === '/no-content' || p === '/reset-content') return void res.writeHead(p === '/no-content' ? 204 : 205, { 'content-type': 'text/html; charset=utf-8' }).end();
    if (p === '/popup-target' || p === '/popup-target-frame') return void res.writeHead(200, { 'content-type': 'text/html' }).end('<p>popup</p>');
    // A stream of server-sent events that never ends: a comment now, then nothing.
    if (p === '/events') return void res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store' }).write(':\n\n');
    // Held for as long as the page lives: a page that asks for it synchronously is stuck.
    if (p === '/held-while-asked') return;
    // Never answered (a tracker, an ad's image or script whose server hangs); the page itself is whole without it.
    if (p.startsWith('/hung/')) return;
    if (p === '/api/poll.json') return void res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store' }).end('{}');
    // An API that takes 3 s: longer than the DOM quiet a polling page is settled after.
    if (p === '/slow/article.json') return void setTimeout(() => res.writeHead(200, { 'content-type': 'application/json' }).end(files.get('/article.json')), 3_000);
    // The page once (the static fetch), then never again (the browser's request hangs).
    if (p === '/answers-once.html') {
      if (answeredOnce) return;
      answeredOnce = true;
      return void res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(files.get('/inline.html'));
    }
    const unlabelled = UNLABELLED[p];
    if (unlabelled) return void res.writeHead(200, { 'content-type': 'text/html', ...unlabelled.headers }).end(unlabelled.body);
    const body = files.get(p);
    if (body === undefined) return void res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
    // cached.js may be cached for an hour: a second target must still fetch it (no shared cache).
    const cache = p === '/cached.js' ? 'public, max-age=3600' : 'no-store';
    res.writeHead(200, { 'content-type': TYPES[path.extname(p)] ?? 'text/plain', 'cache-control': cache }).end(body);
  });
  return {
    allowed,
    forbidden,
    forbiddenUdp,
    close: async () => {
      await Promise.all([allowed.close(), forbidden.close(), new Promise<void>((resolve) => udp.close(() => resolve()))]);
    },
  };
}

/** What the pages that name no charset say, rendered or not: the title, and a paragraph their script adds. */
export const UNLABELLED_TEXT = { title: 'Café “Zur Brücke” – menu', paragraph: 'We’d order the crème brûlée at the café, “as always”.' };
const unlabelledPage = `<!doctype html><html><head><title>${UNLABELLED_TEXT.title}</title></head><body><main id="app"></main><script>
document.getElementById('app').innerHTML = '<article><h1>' + document.title + '</h1>' + ${JSON.stringify(`<p>${UNLABELLED_TEXT.paragraph} `.repeat(8) + '</p>')} + '</article>';
</script></body></html>`;
/** A Russian legacy page's words: its bytes in windows-1251 name no charset, and a detector reads them. */
export const CYRILLIC_TEXT = { title: 'Поиск в названиях справочных страниц', paragraph: 'Используемая поисковая база данных обновляется программой после установки новых справочных страниц.' };
const cyrillicPage = unlabelledPage.replace(UNLABELLED_TEXT.title, CYRILLIC_TEXT.title).replace(JSON.stringify(`<p>${UNLABELLED_TEXT.paragraph} `.repeat(8) + '</p>'), JSON.stringify(`<p>${CYRILLIC_TEXT.paragraph} `.repeat(8) + '</p>'));
/** Served as plain "text/html" (no charset anywhere): UTF-8, UTF-8 gzipped, a legacy windows-1252 page, and a windows-1251 one. */
const UNLABELLED: Record<string, { body: Buffer; headers?: Record<string, string> }> = {
  '/unlabelled-utf8.html': { body: Buffer.from(unlabelledPage, 'utf8') },
  '/unlabelled-gzip.html': { body: gzipSync(Buffer.from(unlabelledPage, 'utf8')), headers: { 'content-encoding': 'gzip' } },
  '/unlabelled-legacy.html': { body: Buffer.from(legacyText(unlabelledPage), 'latin1') },
  '/unlabelled-cyrillic.html': { body: iconv.encode(cyrillicPage, 'windows-1251') },
};

/** The text as a windows-1252 page can hold it (its letters in Latin-1, the rest made so). */
export function legacyText(t: string): string {
  return t.replace(/[’“”–]/g, (c) => ({ '’': "'", '“': '«', '”': '»', '–': '-' })[c] ?? c);
}

export const ARTICLE = JSON.parse(readFileSync(path.join(FIXTURES, 'article.json'), 'utf8')) as { title: string; paragraphs: string[] };
