/**
 * A cancel while the client drops the page of a redirect (it reads it so the connection serves
 * the next hop). Through the real fetcher and client, as `sift fetch` and the app's preview call
 * them, against a loopback host; the cancel comes on undici's record of the page's second chunk,
 * not after a wait. The batch wiring stores any error after a cancel as the cancel
 * (cancel-any-error.test.ts); a caller of the fetcher itself has only what it throws.
 */
import dc from 'node:diagnostics_channel';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createFetcher } from '../../src/main/fetch';

const open: { close(): Promise<void> | void }[] = [];
afterEach(async () => {
  for (const o of open.splice(0).reverse()) await o.close();
});

describe('a cancel while a redirect’s page is dropped', () => {
  it('rejects with the cancel, not a redirect loop of the hop that was never asked', async () => {
    // A redirect back to itself whose page comes in parts: its opening, then (once the client
    // has it) a little more; the rest never comes. Followed, it is a redirect loop (502).
    let more = (): void => {};
    const server = http.createServer((req, res) => {
      res.writeHead(302, { location: req.url ?? '/', 'content-type': 'text/html' });
      res.write('<!doctype html><title>Moved</title>');
      more = () => void res.write('<p>This page has moved.</p>');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    open.push({
      close: () =>
        new Promise<void>((resolve) => {
          server.closeAllConnections();
          server.close(() => resolve());
        }),
    });
    const f = createFetcher({ allowHosts: ['127.0.0.1'] });
    open.push(f);
    const job = new AbortController();
    const cancelled = new Error('cancelled by the user');
    let chunks = 0;
    const onChunk = (): void => {
      if (++chunks === 1) more();
      else if (chunks === 2) job.abort(cancelled);
    };
    dc.subscribe('undici:request:bodyChunkReceived', onChunk);
    open.push({ close: () => void dc.unsubscribe('undici:request:bodyChunkReceived', onChunk) });

    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
    // Before: FetchError 502 "redirect loop: the site sent Sift back to an address it had already asked".
    await expect(f.fetchTarget(job.signal, { name: 'preview' }, { url, options: { mode: 'raw' } })).rejects.toBe(cancelled);
    expect(chunks).toBe(2);
  }, 60_000);
});
