import { FetchError } from '../../src/main/fetch';
import { createServer, type IncomingMessage, type ServerResponse, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export type Handler = (req: IncomingMessage, res: ServerResponse) => void;

export interface TestServer {
  /** http://127.0.0.1:PORT */
  origin: string;
  port: number;
  /** Paths requested, in order. */
  hits: string[];
  /** Request headers of every request, in order. */
  headers: IncomingMessage['headers'][];
  route(path: string, h: Handler): void;
  /** Answers every path without a route (a catch-all host), instead of the 404. */
  fallback(h: Handler): void;
  close(): Promise<void>;
}

/** A real HTTP server on a loopback port (listen(0)); routes by exact path, 404 (or the fallback) otherwise. */
export async function startServer(routes: Record<string, Handler> = {}): Promise<TestServer> {
  const table = new Map(Object.entries(routes));
  let otherwise: Handler | undefined;
  const hits: string[] = [];
  const headers: IncomingMessage['headers'][] = [];
  const sockets = new Set<Socket>();
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    hits.push(req.url ?? '/');
    headers.push(req.headers);
    const h = table.get(path);
    if (h) h(req, res);
    else if (otherwise) otherwise(req, res);
    else {
      res.writeHead(404, { 'content-type': 'text/plain' });
      res.end('not found');
    }
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    origin: `http://127.0.0.1:${port}`,
    port,
    hits,
    headers,
    route: (p, h) => table.set(p, h),
    fallback: (h) => (otherwise = h),
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

/** A resolver for tests: fixed answers, and a refusal for any other name (no real DNS). */
export function fixedResolver(table: Record<string, string[]>) {
  const calls: string[] = [];
  const resolve = async (hostname: string) => {
    calls.push(hostname);
    const addrs = table[hostname];
    if (!addrs) throw Object.assign(new Error(`ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
    return addrs.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };
  return Object.assign(resolve, { calls });
}

/** The FetchError a promise rejects with; anything else (or success) fails the test. */
export const fail = (p: Promise<unknown>): Promise<FetchError> =>
  p.then(
    () => {
      throw new Error('expected a FetchError');
    },
    (e: unknown) => {
      if (!(e instanceof FetchError)) throw e;
      return e;
    },
  );
