/**
 * The loopback bridge `npm run dev` serves the app on: a WebSocket that carries every IPC call
 * (read every stored result, change the settings, export to a folder). Browsers let any page
 * open a WebSocket to any port on 127.0.0.1, so a page the developer visits, or one reached
 * through a rebound DNS name, must not get a session: only the app's own page may. The real
 * services behind the real bridge, called with the `ws` client as a browser would call it.
 */
import { afterAll, beforeAll, expect, test } from 'vitest';
import http from 'node:http';
import WebSocket from 'ws';
import { startUiApp, type UiApp } from '../helpers/ui-app';

let app: UiApp;

beforeAll(async () => {
  app = await startUiApp();
}, 60_000);
afterAll(async () => {
  await app?.close();
});

/** Opens a socket with these handshake headers and asks for the settings; what came of it. */
function call(headers: { origin?: string; host?: string }): Promise<{ refused: number } | { answer: unknown }> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(app.bridge.wsUrl, { ...(headers.origin ? { origin: headers.origin } : {}), headers: headers.host ? { host: headers.host } : {} });
    ws.on('unexpected-response', (_req, res) => {
      resolve({ refused: res.statusCode ?? 0 });
      ws.terminate();
    });
    ws.on('open', () => ws.send(JSON.stringify({ t: 'call', id: 1, method: 'getSettings', req: {} })));
    ws.on('message', (data) => {
      const msg = JSON.parse(String(data)) as { t: string; env?: unknown };
      if (msg.t !== 'res') return;
      resolve({ answer: msg.env });
      ws.close();
    });
    ws.on('error', (err) => {
      if (!ws.listenerCount('unexpected-response')) reject(err);
    });
  });
}

test('the app page on the bridge gets its session', async () => {
  const own = new URL(app.bridge.url).origin;
  const r = await call({ origin: own });
  expect(r).toMatchObject({ answer: { ok: true } });
});

test('another web page gets no session: not a site, not an opaque origin, not a rebound DNS name', async () => {
  const port = new URL(app.bridge.url).port;
  expect(await call({ origin: 'https://evil.test' })).toEqual({ refused: 403 });
  // A sandboxed frame or a data: page sends "null".
  expect(await call({ origin: 'null' })).toEqual({ refused: 403 });
  // DNS rebinding: the page's own name, now resolving to 127.0.0.1.
  expect(await call({ origin: `http://rebind.evil.test:${port}`, host: `rebind.evil.test:${port}` })).toEqual({ refused: 403 });
  expect(await call({ origin: `http://localhost:${port}` })).toEqual({ refused: 403 });
});

test('the page itself is served under the bridge\u2019s own address only, and another name is told which one to open', async () => {
  const own = new URL(app.bridge.url);
  const get = (host: string) =>
    new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = http.get({ host: own.hostname, port: own.port, path: '/__bridge-client.js', headers: { host } }, (res) => {
        let body = '';
        res.on('data', (d: Buffer) => (body += d.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      });
      req.on('error', reject);
    });
  expect((await get(own.host)).status).toBe(200);
  const other = await get(`localhost:${own.port}`);
  expect(other.status).toBe(403);
  expect(other.body).toContain(`open ${app.bridge.url}`);
});
