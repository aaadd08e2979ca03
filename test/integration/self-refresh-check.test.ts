/**
 * A check that sends the visitor back to the same address with a token (a <meta refresh> to
 * "?_tk=…"), and shows nothing: the fetcher followed it once, got the same empty page, whose
 * refresh then named the page itself, and the target came back ok, its content empty (thin).
 * Through the real wiring (store, batch runner, fetcher) against a loopback server.
 */
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { articleHtml, startSite, type Site } from '../helpers/sites';
import { finished, withLoopbackRig } from '../helpers/runner';

const html = (status: number, body: string, headers: Record<string, string> = {}) => (_req: IncomingMessage, res: ServerResponse) =>
  void res.writeHead(status, { 'content-type': 'text/html; charset=utf-8', ...headers }).end(body);

/** The check's page: nothing but a refresh to its own path with a token. */
const stub = (path: string): string => `<html><head><meta http-equiv="refresh" content="0; url=${path}?_tk=6f1c2a9e"></head><body></body></html>`;

let site: Site;
beforeAll(async () => {
  site = await startSite({
    // A check that never lets Sift in: every answer is the stub.
    '/check': html(200, stub('/check')),
    // One that does once its cookie (set with the stub) comes back with the token.
    '/check-clears': (req, res) =>
      /\bpass=1\b/.test(req.headers.cookie ?? '') && req.url?.includes('_tk=')
        ? html(200, articleHtml(7))(req, res)
        : html(200, stub('/check-clears'), { 'set-cookie': 'pass=1; Path=/' })(req, res),
    // A webcam's page: its picture, refreshed in place every 5 s, is the page.
    '/webcam': html(200, '<html><head><title>Harbour cam</title><meta http-equiv="refresh" content="5"></head><body><img src="/cam.jpg" alt="The harbour now"></body></html>'),
  });
});
afterAll(async () => {
  await site.close();
});

test('an empty page that refreshes to its own address fails as a challenge; the same check that lets Sift in, and a picture refreshed in place, are ok', async () => {
  await withLoopbackRig('sift-self-refresh-', async (runner, store) => {
    const urls = ['/check', '/check-clears', '/webcam'].map((p) => ({ url: `${site.base}${p}`, options: { render: 'never' as const } }));
    const { id } = runner.submit({ name: 'test' }, 'test', urls);
    expect((await finished(runner, id)).status).toBe('partial');
    const rows = store.targetRows(id);
    expect(rows[0]).toMatchObject({ status: 'failed', reason: 'challenge', error: 'challenge: the site answered with an anti-bot check instead of the page' });
    expect(rows[0]!.hint).toMatch(/Open the URL in a browser to pass the check/);
    expect(rows[1]).toMatchObject({ status: 'done' });
    expect(store.targetResult(id, 1)!.result!.content).toMatch(/Paragraph 1 of article 7/);
    expect(rows[2]).toMatchObject({ status: 'done' });
  });
});
