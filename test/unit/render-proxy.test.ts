import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect, createServer, type AddressInfo } from 'node:net';
import { GuardProxy, type ProxyEndpoint, type ProxyEvent } from '../../src/main/fetch';
import { startRenderSites, type RenderSites } from '../helpers/render-sites';

/** The guarding proxy spoken to as a browser would: raw HTTP over a loopback socket. */
let sites: RenderSites;
let proxy: GuardProxy;
let ep: ProxyEndpoint;

beforeAll(async () => {
  sites = await startRenderSites();
  // Names resolve through the injected resolver only: no test asks a real DNS server.
  const resolve = async (h: string) => (h === 'allowed.test' ? [{ address: '127.0.0.1', family: 4 }] : h === 'rebind.test' ? [{ address: '127.0.0.2', family: 4 }] : []);
  proxy = new GuardProxy(() => ({ allowPrivate: false, allowHosts: ['127.0.0.1', 'allowed.test'] }), resolve);
  ep = await proxy.start();
});
afterAll(async () => {
  await proxy.close();
  await sites.close();
});

function raw(text: string): Promise<string> {
  const { port } = new URL(ep.server);
  return new Promise((resolve, reject) => {
    const s = connect(Number(port), '127.0.0.1', () => s.write(text));
    let out = '';
    s.on('data', (d) => {
      out += d.toString();
      // A tunnel stays open: its first answer is all a test needs.
      if (/^HTTP\/1\.1 200 Connection Established/.test(out)) s.destroy();
    });
    s.on('close', () => resolve(out));
    s.on('error', reject);
  });
}

const auth = (): string => `Proxy-Authorization: Basic ${Buffer.from(`${ep.username}:${ep.password}`).toString('base64')}\r\n`;
const portOf = (origin: string): string => new URL(origin).port;

describe('the guarding proxy', () => {
  it('listens on loopback only and asks for this run\'s credentials', async () => {
    expect(ep.server).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(await raw(`GET ${sites.allowed.origin}/static.html HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`)).toMatch(/^HTTP\/1\.1 407[\s\S]*Proxy-Authenticate: Basic/i);
    const wrong = `Proxy-Authorization: Basic ${Buffer.from(`${ep.username}:nope`).toString('base64')}\r\n`;
    expect(await raw(`CONNECT 127.0.0.1:${portOf(sites.allowed.origin)} HTTP/1.1\r\n${wrong}\r\n`)).toMatch(/^HTTP\/1\.1 407/);
  });
  it('forwards absolute-form http to an allowed host and tunnels CONNECT to it', async () => {
    const r = await raw(`GET ${sites.allowed.origin}/static.html HTTP/1.1\r\nHost: 127.0.0.1\r\n${auth()}Connection: close\r\n\r\n`);
    expect(r).toMatch(/^HTTP\/1\.1 200/);
    expect(r).toContain('Rannoch Point');
    expect(await raw(`CONNECT allowed.test:${portOf(sites.allowed.origin)} HTTP/1.1\r\n${auth()}\r\n`)).toMatch(/^HTTP\/1\.1 200 Connection Established/);
  });
  it('forwards an answer in loose HTTP (bare LF line ends, a folded header) re-framed, as a browser would read it straight', async () => {
    const body = '<p>Loose</p>';
    const loose = createServer((s) => {
      s.on('error', () => {});
      s.once('data', () => s.end(`HTTP/1.1 200 OK\nContent-Type: text/html;\n charset=utf-8\nContent-Length: ${body.length}\n\n${body}`));
    });
    await new Promise<void>((resolve) => loose.listen(0, '127.0.0.1', resolve));
    try {
      const r = await raw(`GET http://127.0.0.1:${(loose.address() as AddressInfo).port}/ HTTP/1.1\r\nHost: 127.0.0.1\r\n${auth()}Connection: close\r\n\r\n`);
      expect(r).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
      expect(r).toMatch(/content-type: text\/html; charset=utf-8\r\n/i);
      expect(r.endsWith(`\r\n\r\n${body}`)).toBe(true);
    } finally {
      await new Promise((resolve) => loose.close(resolve));
    }
  });
  it('refuses a forbidden address by literal and by name, in both forms, without connecting', async () => {
    const before = sites.forbidden.connections;
    expect(await raw(`GET ${sites.forbidden.origin}/x HTTP/1.1\r\nHost: x\r\n${auth()}Connection: close\r\n\r\n`)).toMatch(/^HTTP\/1\.1 403[\s\S]*x-sift-guard: refused/i);
    expect(await raw(`CONNECT 127.0.0.2:${portOf(sites.forbidden.origin)} HTTP/1.1\r\n${auth()}\r\n`)).toMatch(/^HTTP\/1\.1 403/);
    expect(await raw(`CONNECT rebind.test:${portOf(sites.forbidden.origin)} HTTP/1.1\r\n${auth()}\r\n`)).toMatch(/^HTTP\/1\.1 403/);
    expect(await raw(`CONNECT [::ffff:127.0.0.2]:${portOf(sites.forbidden.origin)} HTTP/1.1\r\n${auth()}\r\n`)).toMatch(/^HTTP\/1\.1 403/);
    expect(sites.forbidden.connections).toBe(before);
  });
  it('answers a name that does not resolve 502, not as the guard: the page failed, it was not refused', async () => {
    const events: ProxyEvent[] = [];
    const off = proxy.on((e) => events.push(e));
    try {
      const r = await raw(`GET http://nowhere.test/x HTTP/1.1\r\nHost: x\r\n${auth()}Connection: close\r\n\r\n`);
      expect(r).toMatch(/^HTTP\/1\.1 502/);
      expect(r).not.toMatch(/x-sift-guard/i);
      expect(await raw(`CONNECT nowhere.test:443 HTTP/1.1\r\n${auth()}\r\n`)).toMatch(/^HTTP\/1\.1 502/);
      expect(events.map((e) => `${e.kind} ${e.via}`)).toEqual(['failed http', 'failed connect']);
    } finally {
      off();
    }
  });
  it("tags each event with the session whose credentials came, says why it refused, and answers an ended session's credentials 407", async () => {
    const session = await proxy.session();
    const other = await proxy.session();
    const events: ProxyEvent[] = [];
    const off = proxy.on((e) => events.push(e));
    const as = (s: { username: string; password: string }): string => `Proxy-Authorization: Basic ${Buffer.from(`${s.username}:${s.password}`).toString('base64')}\r\n`;
    try {
      expect(session.server).toBe(ep.server);
      expect(session.username).not.toBe(other.username);
      expect(await raw(`GET ${sites.forbidden.origin}/photo.png HTTP/1.1\r\nHost: x\r\n${as(session)}Connection: close\r\n\r\n`)).toMatch(/^HTTP\/1\.1 403/);
      expect(await raw(`CONNECT 127.0.0.2:${portOf(sites.forbidden.origin)} HTTP/1.1\r\n${as(other)}\r\n`)).toMatch(/^HTTP\/1\.1 403/);
      expect(await raw(`GET ${sites.allowed.origin}/static.html HTTP/1.1\r\nHost: 127.0.0.1\r\n${as(session)}Connection: close\r\n\r\n`)).toMatch(/^HTTP\/1\.1 200/);
      const why = 'The address is a loopback address (this computer)';
      expect(events).toEqual([
        { kind: 'refused', via: 'http', host: '127.0.0.2', path: '/photo.png', session: session.id, why },
        { kind: 'refused', via: 'connect', host: '127.0.0.2', session: other.id, why },
        { kind: 'allowed', via: 'http', host: '127.0.0.1', path: '/static.html', session: session.id },
      ]);
      session.end();
      expect(await raw(`GET ${sites.allowed.origin}/static.html HTTP/1.1\r\nHost: 127.0.0.1\r\n${as(session)}Connection: close\r\n\r\n`)).toMatch(/^HTTP\/1\.1 407/);
      expect(await raw(`CONNECT 127.0.0.1:${portOf(sites.allowed.origin)} HTTP/1.1\r\n${as(session)}\r\n`)).toMatch(/^HTTP\/1\.1 407/);
      expect(events).toHaveLength(3);
    } finally {
      off();
      other.end();
    }
  });
  it('drops a request whose session ended while its host was looked up, though its socket is still open (a page closed at a cancel)', async () => {
    // The browser may close its socket to the proxy after the renderer has ended the session:
    // read by the socket alone, the request was forwarded after the cancel.
    let connections = 0;
    const site = createServer((s) => {
      connections++;
      s.destroy();
    });
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
    const lookups: (() => void)[] = [];
    let asked = (): void => {};
    const held = new GuardProxy(
      () => ({ allowPrivate: false, allowHosts: ['held.test'] }),
      (h) =>
        new Promise((resolve) => {
          lookups.push(() => resolve(h === 'held.test' ? [{ address: '127.0.0.1', family: 4 }] : []));
          asked();
        }),
    );
    const session = await held.session();
    const events: ProxyEvent[] = [];
    const off = held.on((e) => events.push(e));
    const creds = `Proxy-Authorization: Basic ${Buffer.from(`${session.username}:${session.password}`).toString('base64')}\r\n`;
    const open: ReturnType<typeof connect>[] = [];
    const send = (text: string): Promise<void> =>
      new Promise((resolve) => {
        asked = resolve;
        const { port } = new URL(session.server);
        const s = connect(Number(port), '127.0.0.1', () => s.write(text));
        s.on('error', () => {});
        open.push(s);
      });
    try {
      const port = (site.address() as AddressInfo).port;
      await send(`GET http://held.test:${port}/page0 HTTP/1.1\r\nHost: held.test\r\n${creds}\r\n`);
      await send(`CONNECT held.test:${port} HTTP/1.1\r\n${creds}\r\n`);
      session.end();
      const decided = new Promise<void>((resolve) => {
        const stop = held.on(() => {
          if (events.length < 2) return;
          stop();
          resolve();
        });
      });
      for (const release of lookups) release();
      await decided;
      expect(events.map((e) => `${e.kind} ${e.via}`).sort()).toEqual(['abandoned connect', 'abandoned http']);
      // The tunnel's dial reached the site's listener; the forwarded request would have come as a second connection.
      expect(connections).toBeLessThanOrEqual(1);
    } finally {
      off();
      for (const s of open) s.destroy();
      await held.close();
      await new Promise((resolve) => site.close(resolve));
    }
  });
  it('starts one server however many ask at once, and closing closes it', async () => {
    const p = new GuardProxy(() => ({ allowPrivate: false, allowHosts: [] }), async () => []);
    const [a, b, c] = await Promise.all([p.start(), p.start(), p.session()]);
    expect(b.server).toBe(a.server);
    expect(c.server).toBe(a.server);
    await p.close();
    const { port } = new URL(a.server);
    await expect(
      new Promise((resolve, reject) => {
        const s = connect(Number(port), '127.0.0.1', () => resolve(s.destroy()));
        s.on('error', reject);
      }),
    ).rejects.toMatchObject({ code: 'ECONNREFUSED' });
  });
  it('refuses any other scheme and origin-form requests', async () => {
    expect(await raw(`GET ftp://127.0.0.1/x HTTP/1.1\r\nHost: x\r\n${auth()}Connection: close\r\n\r\n`)).toMatch(/^HTTP\/1\.1 400/);
    expect(await raw(`GET file:///etc/passwd HTTP/1.1\r\nHost: x\r\n${auth()}Connection: close\r\n\r\n`)).toMatch(/^HTTP\/1\.1 400/);
    expect(await raw(`GET /static.html HTTP/1.1\r\nHost: x\r\n${auth()}Connection: close\r\n\r\n`)).toMatch(/^HTTP\/1\.1 400/);
  });
});
