/**
 * Connection reuse per host: a batch's requests to one host share a few keep-alive
 * connections, also when the server hints a short keep-alive (Node's http server with
 * keepAliveTimeout 1 s sends `Keep-Alive: timeout=1`).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createFetcher } from '../../src/main/fetch';

let server: http.Server;
let base: string;
let connections = 0;

beforeAll(async () => {
  server = http.createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' });
    res.end('hello');
  });
  server.keepAliveTimeout = 1000;
  server.on('connection', () => connections++);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((r) => server.close(() => r()));
});

describe('keep-alive', () => {
  it('50 requests one after another to a host hinting timeout=1 share a few connections, not one each', async () => {
    const fetcher = createFetcher({ allowPrivate: true });
    try {
      const signal = new AbortController().signal;
      for (let i = 0; i < 50; i++) {
        const r = await fetcher.fetchTarget(signal, { name: 'test' }, { url: `${base}/page/${i}`, options: { mode: 'raw' } });
        expect(r.content).toBe('hello');
      }
      // One, unless a busy machine stalls between two requests past the 500 ms idle window.
      expect(connections).toBeLessThanOrEqual(5);
    } finally {
      await fetcher.close();
    }
  });
});
