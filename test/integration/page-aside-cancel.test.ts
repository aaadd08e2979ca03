/**
 * A cancel while the client reads a page it does not keep, of an answer known already at its
 * headers: a redirect's (read so the connection serves the next hop), a part the server sent
 * where Sift asked for the whole (206), an error whose page is not HTML. Through the real fetcher
 * and client, as `sift fetch` and the app's preview call them, against a loopback host whose page
 * comes in parts and then stalls; the cancel comes on undici's record of the page's second chunk,
 * not after a wait. The batch wiring stores any error after a cancel as the cancel
 * (cancel-any-error.test.ts), and a job's HTML error page is pinned by error-page-cancel.test.ts;
 * a caller of the fetcher itself has only what it throws.
 */
import type http from 'node:http';
import { describe, expect, it } from 'vitest';
import { createFetcher } from '../../src/main/fetch';
import { atBodyChunks, closedAfterEach, listenLoopback } from '../helpers/loopback';

const open = closedAfterEach();

/** What the fetch of a page answered with `status` and `headers` ends with, cancelled at the second chunk of its page. */
async function cancelledMidPage(status: number, headers: http.OutgoingHttpHeaders): Promise<{ outcome: unknown; cancelled: Error; chunks: number }> {
  let more = (): void => {};
  const origin = await listenLoopback(open, (_req, res) => {
    res.writeHead(status, headers);
    res.write('{"part": "one",');
    more = () => void res.write('"and": "two",');
  });
  const f = createFetcher({ allowHosts: ['127.0.0.1'] });
  open.push(f);
  const job = new AbortController();
  const cancelled = new Error('cancelled by the user');
  const chunks = atBodyChunks(open, () => more(), () => job.abort(cancelled));
  // mode raw and the root path: no soft-404 probe beside it, only the target's own request.
  const outcome = await f.fetchTarget(job.signal, { name: 'preview' }, { url: `${origin}/`, options: { mode: 'raw' } }).catch((err: unknown) => err);
  return { outcome, cancelled, chunks: chunks() };
}

describe('a cancel while the page of an answer Sift does not keep is read', () => {
  it('of a redirect rejects with the cancel, not a redirect loop of the hop that was never asked', async () => {
    // A redirect back to itself: followed, it is a redirect loop (502).
    const { outcome, cancelled, chunks } = await cancelledMidPage(302, { location: '/', 'content-type': 'text/html' });
    // Before: FetchError 502 "redirect loop: the site sent Sift back to an address it had already asked".
    expect(outcome).toBe(cancelled);
    expect(chunks).toBe(2);
  }, 60_000);

  it('of a part (206) rejects with the cancel, not the part sent', async () => {
    const { outcome, cancelled, chunks } = await cancelledMidPage(206, { 'content-type': 'application/json', 'content-range': 'bytes 0-99/1000' });
    // Before: FetchError 502 "HTTP 206 Partial Content: the server sent bytes 0-99 of 1000 only".
    expect(outcome).toBe(cancelled);
    expect(chunks).toBe(2);
  }, 60_000);

  it('of an error whose page is not HTML rejects with the cancel, not the error', async () => {
    const { outcome, cancelled, chunks } = await cancelledMidPage(404, { 'content-type': 'application/json' });
    // Before: FetchError 404 "HTTP 404 Not Found", the page the cancel cut short dropped unread.
    expect(outcome).toBe(cancelled);
    expect(chunks).toBe(2);
  }, 60_000);
});
