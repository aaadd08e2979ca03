/**
 * The loopback bridge: binds the IPC contract to a WebSocket so the real main-process
 * services can be driven from a browser. It also serves the built renderer on the same
 * origin (Chromium will not load module scripts from file://), with the app's CSP.
 */
import http from 'node:http';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { WebSocketServer, type WebSocket } from 'ws';
import { dispatch, type Handlers } from '../../src/main/ipc/dispatch';
import type { EventName, EventPayload } from '../../src/shared/ipc/contract';
import { CSP } from '../../src/main/app/window';
import { bridgeClientScript } from './build-client';

export interface Bridge {
  url: string;
  wsUrl: string;
  emit<E extends EventName>(event: E, payload: EventPayload<E>): void;
  /** Messages and bytes sent to clients, for tests that count events. */
  stats(): { events: number; bytes: number };
  close(): Promise<void>;
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.json': 'application/json',
};

export async function startBridge(opts: {
  handlers: Handlers;
  staticDir: string;
  /** Add the bridge client to index.html (for `npm run dev`); tests inject it with addInitScript. */
  injectClient?: boolean;
  checkResponses?: boolean;
}): Promise<Bridge> {
  const clients = new Set<WebSocket>();
  let events = 0;
  let bytes = 0;
  const server = http.createServer((req, res) => {
    void serve(req, res).catch(() => {
      res.statusCode = 500;
      res.end();
    });
  });
  const root = path.resolve(opts.staticDir);
  let url = '';
  let wsUrl = '';

  async function serve(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    if (req.headers.host !== new URL(url).host) {
      // Another name for this address (localhost, or a site's name rebound to 127.0.0.1): its
      // socket is refused, so the app would load and do nothing.
      res.writeHead(403, { 'content-type': 'text/plain; charset=utf-8' });
      res.end(`Sift's development bridge answers only at its own address, so other sites cannot reach it: open ${url}\n`);
      return;
    }
    const u = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (u.pathname === '/__bridge-client.js') {
      const code = await bridgeClientScript();
      res.writeHead(200, { 'content-type': TYPES['.js']! });
      res.end(`${code}\ninstallSiftBridge(${JSON.stringify(wsUrl)});\n`);
      return;
    }
    const rel = u.pathname === '/' ? 'index.html' : decodeURIComponent(u.pathname).replace(/^\/+/, '');
    const file = path.resolve(root, rel);
    if (!file.startsWith(root + path.sep)) {
      res.writeHead(403).end();
      return;
    }
    let body: Buffer;
    try {
      body = await readFile(file);
    } catch {
      res.writeHead(404).end();
      return;
    }
    if (opts.injectClient && rel === 'index.html') {
      body = Buffer.from(body.toString('utf8').replace('<head>', '<head>\n    <script src="/__bridge-client.js"></script>'));
    }
    res.writeHead(200, {
      'content-type': TYPES[path.extname(file)] ?? 'application/octet-stream',
      'content-security-policy': CSP,
      'cache-control': 'no-store',
    });
    res.end(body);
  }

  // Any page in any browser may open a WebSocket to 127.0.0.1, and this one reads every result
  // and changes the settings: only the app's own page (or a client that is no browser, which
  // sends no Origin) gets a session. The Host header stops a page whose DNS name was rebound to
  // 127.0.0.1, which would otherwise be same-origin with the bridge.
  const wss = new WebSocketServer({
    server,
    path: '/__bridge',
    maxPayload: 64 * 1024 * 1024,
    verifyClient: ({ origin, req }: { origin?: string; req: http.IncomingMessage }, done: (ok: boolean, code?: number) => void) =>
      done(req.headers.host === new URL(url).host && (origin === undefined || origin === new URL(url).origin), 403),
  });
  wss.on('connection', (ws) => {
    clients.add(ws);
    ws.on('close', () => clients.delete(ws));
    ws.on('message', (data) => {
      let msg: { t?: unknown; id?: unknown; method?: unknown; req?: unknown };
      try {
        msg = JSON.parse(String(data)) as typeof msg;
      } catch {
        return;
      }
      if (msg.t !== 'call' || typeof msg.id !== 'number') return;
      const id = msg.id;
      void dispatch(opts.handlers, msg.method, msg.req, { checkResponses: opts.checkResponses }).then((env) => {
        if (ws.readyState === ws.OPEN) ws.send(JSON.stringify({ t: 'res', id, env }));
      });
    });
  });

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  url = `http://127.0.0.1:${port}/`;
  wsUrl = `ws://127.0.0.1:${port}/__bridge`;

  return {
    url,
    wsUrl,
    emit(event, payload) {
      const text = JSON.stringify({ t: 'event', event, payload });
      for (const ws of clients) {
        if (ws.readyState === ws.OPEN) {
          ws.send(text);
          events++;
          bytes += text.length;
        }
      }
    },
    stats: () => ({ events, bytes }),
    async close() {
      for (const ws of clients) ws.terminate();
      await new Promise<void>((resolve) => wss.close(() => resolve()));
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
