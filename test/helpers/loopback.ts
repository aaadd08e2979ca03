import dc from 'node:diagnostics_channel';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach } from 'vitest';

export interface Closable {
  close(): Promise<void> | void;
}

/**
 * A list of what a test opens (servers, fetchers, engines), closed after each test, the last
 * opened first (a fetcher before the server it talks to). Call at a test file's top level.
 */
export function closedAfterEach(): Closable[] {
  return closedIn(afterEach);
}

/** The same list for what a file opens once, in beforeAll: closed after all its tests. */
export function closedAfterAll(): Closable[] {
  return closedIn(afterAll);
}

function closedIn(hook: (close: () => Promise<void>) => void): Closable[] {
  const open: Closable[] = [];
  hook(async () => {
    for (const o of open.splice(0).reverse()) await o.close();
  });
  return open;
}

/**
 * A server on 127.0.0.1 (or `address`, another loopback address, for a second host) answering
 * with `handler`, closed (its kept connections too) with `open`; its origin.
 */
export async function listenLoopback(open: Closable[], handler: http.RequestListener, address = '127.0.0.1'): Promise<string> {
  const server = http.createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, address, resolve));
  open.push({
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  });
  return `http://${address}:${(server.address() as AddressInfo).port}`;
}

/**
 * Calls `first` as undici records the first body chunk a client receives, and `second` at the
 * second: a page sent in parts (its opening, then, once `first` lets it, a little more) is being
 * read when `second` comes, on an event, not after a wait. Unsubscribed with `open`; the count of
 * chunks seen.
 */
export function atBodyChunks(open: Closable[], first: () => void, second: () => void): () => number {
  let chunks = 0;
  const onChunk = (): void => {
    if (++chunks === 1) first();
    else if (chunks === 2) second();
  };
  dc.subscribe('undici:request:bodyChunkReceived', onChunk);
  open.push({ close: () => void dc.unsubscribe('undici:request:bodyChunkReceived', onChunk) });
  return () => chunks;
}

/** A request a site holds: the test waits until it has come, then lets its answer go. */
export interface Held {
  /** Settles when the held request has come. */
  arrived: Promise<void>;
  /** Lets the held answer go (and any later one straight through). */
  release(): void;
  /** For the site's handler: marks the request come, and calls `answer` once the test releases it. */
  hold(answer: () => void): void;
}

/** One held request, for a site's handler to hold and a test to let go. */
export function held(): Held {
  let arrive = (): void => {};
  let release = (): void => {};
  const arrived = new Promise<void>((resolve) => (arrive = resolve));
  const released = new Promise<void>((resolve) => (release = resolve));
  return {
    arrived,
    release: () => release(),
    hold: (answer) => {
      arrive();
      void released.then(answer);
    },
  };
}
