/**
 * A cancel while the soft-404 probe (a random path of the host, SPEC §5.9) is out. Through the
 * real fetcher and client against a loopback host that answers every path with the same page,
 * and undici's own record of each request it writes (its diagnostics channel), so "sent after
 * the cancel" is told from "already in flight, answered after it" by events, not by the clock.
 */
import dc from 'node:diagnostics_channel';
import { describe, expect, it } from 'vitest';
import { createFetcher, type Fetcher } from '../../src/main/fetch';
import { closedAfterEach, listenLoopback } from '../helpers/loopback';

const RANDOM_PATH = /^\/[0-9a-f]{18}$/;
const SHOP = `<!doctype html><html><head><title>Harbour Shop</title></head><body><article><h1>Welcome to the Harbour Shop</h1>${'<p>Nets, ropes and boats of every size, shipped from the harbour to your door within two days.</p>'.repeat(8)}</article></body></html>`;

interface Host {
  origin: string;
  /** Paths asked, in order of arrival. */
  asked: string[];
}

const open = closedAfterEach();

/** A host answering every path with SHOP; `onAsked` hears each request as it arrives and may hold its answer. */
async function catchAll(onAsked: (path: string, answer: () => void) => void): Promise<Host> {
  const asked: string[] = [];
  const origin = await listenLoopback(open, (req, res) => {
    const p = req.url ?? '/';
    asked.push(p);
    onAsked(p, () => void res.writeHead(200, { 'content-type': 'text/html' }).end(SHOP));
  });
  return { origin, asked };
}

function fetcher(): Fetcher {
  const f = createFetcher({ allowHosts: ['127.0.0.1'] });
  open.push(f);
  return f;
}

/** Paths of the requests undici writes while `job` is aborted. */
function sentAfterCancel(job: () => AbortSignal): { paths: string[]; close(): Promise<void> } {
  const paths: string[] = [];
  const onSend = (m: unknown): void => {
    if (job().aborted) paths.push((m as { request: { path: string } }).request.path);
  };
  dc.subscribe('undici:client:sendHeaders', onSend);
  const sent = { paths, close: async () => void dc.unsubscribe('undici:client:sendHeaders', onSend) };
  open.push(sent);
  return sent;
}

describe('a fetch cancelled while the soft-404 probe is out', () => {
  it('sends no request once the cancel came: the probe that reaches the host after it had been written before', async () => {
    let job = new AbortController();
    const sent = sentAfterCancel(() => job.signal);
    const cancelled = new Error('cancelled');
    // The cancel comes as the host gets the target's own request: the probe, asked beside it, is
    // written by then or never (undici does not write a request whose signal has fired).
    const host = await catchAll((p, answer) => {
      if (!RANDOM_PATH.test(p)) job.abort(cancelled);
      answer();
    });
    const f = fetcher();
    for (let i = 0; i < 5; i++) {
      job = new AbortController();
      await expect(f.fetchTarget(job.signal, { name: `cancel-${i}` }, { url: `${host.origin}/products/boat-${i}` })).rejects.toBe(cancelled);
    }
    expect(host.asked.filter((p) => !RANDOM_PATH.test(p))).toHaveLength(5);
    expect(sent.paths).toEqual([]);
  });

  it("ends as cancelled, and the host's probe is asked again by the caller's next fetch, not remembered as never answered", async () => {
    const job = new AbortController();
    const cancelled = new Error('cancelled');
    let probes = 0;
    const host = await catchAll((p, answer) => {
      // The first probe is held: the cancel comes while it is out. Every other request is answered.
      if (RANDOM_PATH.test(p) && probes++ === 0) return job.abort(cancelled);
      answer();
    });
    const f = fetcher();
    // A preview (no job): its probes are its caller's, kept 30 minutes.
    const caller = { name: 'desktop' };
    await expect(f.fetchTarget(job.signal, caller, { url: `${host.origin}/products/boat-1` })).rejects.toBe(cancelled);
    // Before: the cancelled probe was remembered as the host's "no page for such paths", so the
    // host's catch-all page came back ok for this caller for half an hour, its probe never asked.
    const e = await f.fetchTarget(new AbortController().signal, caller, { url: `${host.origin}/products/boat-2` }).catch((x: unknown) => x);
    expect(e).toMatchObject({ status: 404, reason: 'soft404' });
    expect(host.asked.filter((p) => RANDOM_PATH.test(p))).toHaveLength(2);
  });
});
