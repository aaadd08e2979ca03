/**
 * A kept connection that the server closes just as a request goes out on it (its idle timeout
 * and the client's reuse crossing) answers nothing: a reset before any response. Under load
 * that happened in a real batch (the reliability suite's faults run, a PDF's second fetch
 * stored as "connection reset (no response)"). A GET is asked again once, as browsers do.
 */
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createFetcher, FetchError } from '../../src/main/fetch';

let server: http.Server | undefined;
const sockets = new Set<Socket>();
afterEach(async () => {
  for (const s of sockets) s.destroy();
  sockets.clear();
  await new Promise<void>((r) => (server ? server.close(() => r()) : r()));
  server = undefined;
});

/** A server that drops the connection of each of the first `drops` requests without a word, then answers. */
async function dropping(drops: number): Promise<{ origin: string; requests: () => number; connections: () => number }> {
  let requests = 0;
  let connections = 0;
  server = http.createServer((req, res) => {
    requests++;
    if (requests <= drops) return req.socket.destroy();
    res.writeHead(200, { 'content-type': 'text/plain' });
    res.end('answered');
  });
  server.on('connection', (s: Socket) => {
    connections++;
    sockets.add(s);
  });
  await new Promise<void>((r) => server!.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return { origin: `http://127.0.0.1:${port}`, requests: () => requests, connections: () => connections };
}

/** `url` names a text file: the answer is no page, so no soft-404 probe of the host adds a request to count. */
async function fetchOnce(url: string) {
  const fetcher = createFetcher({ allowPrivate: true });
  try {
    return await fetcher.fetchTarget(new AbortController().signal, { name: 'test' }, { url, options: { mode: 'raw' } });
  } finally {
    await fetcher.close();
  }
}

describe('a connection closed before any answer', () => {
  it('is asked again once, on a fresh connection, and the target is done', async () => {
    const s = await dropping(1);
    const r = await fetchOnce(`${s.origin}/page.txt`);
    expect(r.content).toBe('answered');
    expect(s.requests()).toBe(2);
    expect(s.connections()).toBe(2);
  });

  it('fails as a connection closed without an answer (not a reset) when the second try is dropped too, after two requests and no more', async () => {
    const s = await dropping(Infinity);
    const err = await fetchOnce(`${s.origin}/page.txt`).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(FetchError);
    expect(err).toMatchObject({ status: 502, reason: 'network', msg: 'no answer: the server closed the connection without answering' });
    expect((err as FetchError).hint).toMatch(/^The server \(or a proxy in front of it\) took the request and closed the connection without a word; try again later/);
    expect(s.requests()).toBe(2);
  });
});
