import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach } from 'vitest';

export interface Closable {
  close(): Promise<void> | void;
}

/**
 * A list of what a test opens (servers, fetchers, engines), closed after each test, the last
 * opened first (a fetcher before the server it talks to). Call at a test file's top level.
 */
export function closedAfterEach(): Closable[] {
  const open: Closable[] = [];
  afterEach(async () => {
    for (const o of open.splice(0).reverse()) await o.close();
  });
  return open;
}

/** A server on 127.0.0.1 answering with `handler`, closed (its kept connections too) with `open`; its origin. */
export async function listenLoopback(open: Closable[], handler: http.RequestListener): Promise<string> {
  const server = http.createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  open.push({
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  });
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}
