/**
 * A cancel while the client drops the page of a redirect (it reads it so the connection serves
 * the next hop). Through the real fetcher and client, as `sift fetch` and the app's preview call
 * them, against a loopback host; the cancel comes on undici's record of the page's second chunk,
 * not after a wait. The batch wiring stores any error after a cancel as the cancel
 * (cancel-any-error.test.ts); a caller of the fetcher itself has only what it throws.
 */
import { describe, expect, it } from 'vitest';
import { createFetcher } from '../../src/main/fetch';
import { atBodyChunks, closedAfterEach, listenLoopback } from '../helpers/loopback';

const open = closedAfterEach();

describe('a cancel while a redirect’s page is dropped', () => {
  it('rejects with the cancel, not a redirect loop of the hop that was never asked', async () => {
    // A redirect back to itself whose page comes in parts: its opening, then (once the client
    // has it) a little more; the rest never comes. Followed, it is a redirect loop (502).
    let more = (): void => {};
    const origin = await listenLoopback(open, (req, res) => {
      res.writeHead(302, { location: req.url ?? '/', 'content-type': 'text/html' });
      res.write('<!doctype html><title>Moved</title>');
      more = () => void res.write('<p>This page has moved.</p>');
    });
    const f = createFetcher({ allowHosts: ['127.0.0.1'] });
    open.push(f);
    const job = new AbortController();
    const cancelled = new Error('cancelled by the user');
    const chunks = atBodyChunks(open, () => more(), () => job.abort(cancelled));

    const url = `${origin}/`;
    // Before: FetchError 502 "redirect loop: the site sent Sift back to an address it had already asked".
    await expect(f.fetchTarget(job.signal, { name: 'preview' }, { url, options: { mode: 'raw' } })).rejects.toBe(cancelled);
    expect(chunks()).toBe(2);
  }, 60_000);
});
