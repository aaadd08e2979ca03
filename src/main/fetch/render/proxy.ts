import { randomBytes, timingSafeEqual } from 'node:crypto';
import { createServer, request as httpRequest, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { connect, type Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { bareHost, checkAddress, guardedLookup, resolveGuarded, type GuardPolicy, type Resolver } from '../guard';
import { blockedWhy, FetchError } from '../errors';

/** Where a browser finds the guarding proxy, and the credentials it must send. */
export interface ProxyEndpoint {
  /** http://127.0.0.1:PORT */
  server: string;
  username: string;
  password: string;
}

/** What the proxy let through or refused, for tests and the log; never a URL or host name. */
export interface ProxyEvent {
  /**
   * refused: the guard said no; failed: allowed, but the host did not resolve or answer;
   * abandoned: allowed, but the browser had gone (its page closed at a cancel) while the
   * name resolved, so nothing was sent to the host.
   */
  kind: 'allowed' | 'refused' | 'failed' | 'abandoned';
  /** connect (CONNECT tunnel: https, wss), http (absolute-form), upgrade (ws over absolute-form), bad (anything else). */
  via: 'connect' | 'http' | 'upgrade' | 'bad';
  /** The host asked for; handed to listeners (tests), never logged. */
  host: string;
  /** The path of an absolute-form request (a CONNECT tunnel hides it). */
  path?: string;
  /** The session whose credentials the request came with (ProxySession.id); absent for the shared ones. */
  session?: string;
  /** refused: the guard's words for why, e.g. "The address is a loopback address (this computer)". */
  why?: string;
}

/**
 * Credentials of their own for one browser context (one rendered page, or one render slot):
 * the proxy tags every event of a request that comes with them, so a renderer counts its own
 * page's refusals and not those of a page rendering beside it.
 */
export interface ProxySession extends ProxyEndpoint {
  id: string;
  /** The credentials stop working; requests that still come with them are answered 407. */
  end(): void;
}

/** Set on the proxy's own refusals (never on a forwarded response: upstream copies are dropped). */
export const GUARD_HEADER = 'x-sift-guard';

// Hop-by-hop headers (RFC 9110 §7.6.1) and the proxy's own: never forwarded.
const HOP = new Set([GUARD_HEADER, 'connection', 'keep-alive', 'proxy-connection', 'proxy-authorization', 'proxy-authenticate', 'te', 'trailer', 'transfer-encoding', 'upgrade']);

/**
 * The guarding proxy every rendered page goes through (SPEC §5.10). It listens on loopback
 * only, on a random port, and answers only a browser that sends this run's credentials. For
 * each request it resolves the name itself and checks the address it connects to, exactly
 * as the fetch pipeline's connector does (the lookup checks the name; the socket's remote
 * address is checked again), so a page reaches nothing fetchTarget could not.
 */
export class GuardProxy {
  private server: Server | undefined;
  private starting: Promise<ProxyEndpoint> | undefined;
  private readonly sockets = new Set<Socket | Duplex>();
  private readonly listeners = new Set<(e: ProxyEvent) => void>();
  private readonly username = `sift-${randomBytes(6).toString('hex')}`;
  private readonly password = randomBytes(24).toString('base64url');
  private readonly expected: Buffer;
  /** Live sessions: their Proxy-Authorization header's value, and their id. */
  private readonly sessions = new Map<string, Buffer>();

  constructor(
    private readonly policy: () => GuardPolicy,
    private readonly resolve: Resolver,
    private readonly connectTimeoutMs: () => number = () => 10_000,
  ) {
    this.expected = basic(this.username, this.password);
  }

  /**
   * Starts listening (once) and says where. Calls that come while it starts share the start:
   * two render slots opened at once (the app's first two pages) each started a server of its
   * own, and the first, no longer the proxy's, was never closed.
   */
  start(): Promise<ProxyEndpoint> {
    if (!this.starting) {
      const p = this.listen();
      this.starting = p;
      p.catch(() => {
        if (this.starting === p) this.starting = undefined;
      });
    }
    return this.starting;
  }

  private async listen(): Promise<ProxyEndpoint> {
    const server = createServer((req, res) => void this.onRequest(req, res));
    server.on('connect', (req: IncomingMessage, socket: Duplex, head: Buffer) => void this.onConnect(req, socket, head));
    server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => void this.onUpgrade(req, socket, head));
    server.on('connection', (s: Socket) => this.track(s));
    server.on('clientError', (_err, socket: Duplex) => socket.destroy());
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => resolve());
    });
    this.server = server;
    const port = (server.address() as { port: number }).port;
    return { server: `http://127.0.0.1:${port}`, username: this.username, password: this.password };
  }

  /** New credentials for one browser context; the proxy listens first (start). */
  async session(): Promise<ProxySession> {
    const endpoint = await this.start();
    const id = randomBytes(6).toString('hex');
    const username = `sift-${id}`;
    const password = randomBytes(24).toString('base64url');
    this.sessions.set(id, basic(username, password));
    return { ...endpoint, id, username, password, end: () => void this.sessions.delete(id) };
  }

  /** Listens to what the proxy allows and refuses (tests); returns the unsubscribe. */
  on(listener: (e: ProxyEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  async close(): Promise<void> {
    // A start under way is waited for, so the server it opens is the one closed.
    await this.starting?.catch(() => undefined);
    this.starting = undefined;
    for (const s of this.sockets) s.destroy();
    const server = this.server;
    this.server = undefined;
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  private track(s: Socket | Duplex): void {
    this.sockets.add(s);
    s.once('close', () => this.sockets.delete(s));
  }

  private emit(e: ProxyEvent): void {
    for (const l of this.listeners) l(e);
  }

  /**
   * Whether a request's session ended while its host was looked up or dialled: the renderer
   * ends it once the page's context is closed, before the render returns, but Chromium may
   * close its socket to the proxy later. Read by the socket alone, a held lookup let go just
   * after a cancel was forwarded (render-cancel, once under load).
   */
  private ended(session: string | undefined): boolean {
    return session !== undefined && session !== '' && !this.sessions.has(session);
  }

  /** The session the request's credentials belong to ('' for the shared ones), or undefined: not this run's. */
  private authorized(req: IncomingMessage): string | undefined {
    const got = Buffer.from(req.headers['proxy-authorization'] ?? '');
    const same = (want: Buffer): boolean => got.length === want.length && timingSafeEqual(got, want);
    if (same(this.expected)) return '';
    for (const [id, want] of this.sessions) if (same(want)) return id;
    return undefined;
  }

  /** Connects to host:port through the guard: resolve and check, connect, check the peer. */
  private async dial(host: string, port: number): Promise<Socket> {
    const policy = this.policy();
    const addrs = await resolveGuarded(host, policy, this.resolve);
    const first = addrs[0] as { address: string; family: number };
    const socket = connect({ host: first.address, port, family: first.family, timeout: this.connectTimeoutMs() });
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', () => resolve());
      socket.once('timeout', () => reject(new FetchError(504, 'timeout: could not connect in time')));
      socket.once('error', reject);
    });
    socket.setTimeout(0);
    try {
      checkAddress(socket.remoteAddress ?? '', host, this.policy());
    } catch (err) {
      socket.destroy();
      throw err;
    }
    this.track(socket);
    return socket;
  }

  /**
   * The browser went away while the host was dialled (its page closed at a cancel): the
   * tunnel is not opened. Piped, the connection to the host stayed open for good, since the
   * client's close, which ends a pipe, had already come.
   */
  private abandoned(client: Duplex, upstream: Socket, via: ProxyEvent['via'], host: string, tag: { session?: string }): boolean {
    if (!client.destroyed && !this.ended(tag.session)) return false;
    upstream.destroy();
    this.emit({ kind: 'abandoned', via, host, ...tag });
    return true;
  }

  private async onConnect(req: IncomingMessage, client: Duplex, head: Buffer): Promise<void> {
    client.on('error', () => client.destroy());
    const session = this.authorized(req);
    if (session === undefined) return refuseRaw(client, 407);
    const tag = session ? { session } : {};
    const m = /^(\[[0-9a-f:.]+\]|[^:[\]]+):(\d{1,5})$/i.exec(req.url ?? '');
    if (!m) {
      this.emit({ kind: 'refused', via: 'bad', host: '', ...tag });
      return refuseRaw(client, 400);
    }
    const host = bareHost(m[1] as string);
    let upstream: Socket;
    try {
      upstream = await this.dial(host, Number(m[2]));
    } catch (err) {
      this.emit({ ...outcome(err), via: 'connect', host, ...tag });
      return refuseRaw(client, statusOf(err));
    }
    if (this.abandoned(client, upstream, 'connect', host, tag)) return;
    this.emit({ kind: 'allowed', via: 'connect', host, ...tag });
    client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
    if (head.length) upstream.write(head);
    pipeBoth(client, upstream);
  }

  private async onRequest(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const session = this.authorized(req);
    if (session === undefined) {
      res.writeHead(407, { 'proxy-authenticate': 'Basic realm="sift"', 'content-length': '0' }).end();
      return;
    }
    const tag = session ? { session } : {};
    const target = absoluteHttp(req.url);
    if (!target) {
      // Origin-form (someone talking to the proxy as a server) or a scheme other than http:
      // https and wss come as CONNECT; ftp, file, data and the rest are refused.
      this.emit({ kind: 'refused', via: 'bad', host: '', ...tag });
      res.writeHead(400, { 'content-length': '0' }).end();
      return;
    }
    const host = bareHost(target.hostname);
    try {
      await resolveGuarded(host, this.policy(), this.resolve);
    } catch (err) {
      const kind = kindOf(err);
      this.emit({ ...outcome(err), via: 'http', host, path: target.pathname, ...tag });
      // The mark lets the renderer tell the guard's refusal of a navigation from a site's own
      // 403; a name that does not resolve is no refusal, and is not marked as one.
      res.writeHead(statusOf(err), { 'content-length': '0', ...(kind === 'refused' ? { [GUARD_HEADER]: 'refused' } : {}) }).end();
      return;
    }
    // A page closed at a cancel while its request's name resolved: forwarded, its request
    // opened a connection to the site after the cancel, which then sat idle until the
    // connect timeout (10 s), as the request it was for never came whole.
    if (req.destroyed || res.destroyed || this.ended(session)) {
      if (!res.destroyed) res.destroy();
      this.emit({ kind: 'abandoned', via: 'http', host, path: target.pathname, ...tag });
      return;
    }
    this.emit({ kind: 'allowed', via: 'http', host, path: target.pathname, ...tag });
    const headers = forwardHeaders(req.headers);
    const up = httpRequest({
      host,
      port: target.port || 80,
      method: req.method,
      path: `${target.pathname}${target.search}`,
      headers,
      // The same guarded lookup as the pipeline: the address connected to is the one checked.
      lookup: guardedLookup(this.policy, this.resolve),
      timeout: this.connectTimeoutMs(),
      agent: false,
      // The answer is read as the browser behind the proxy would read it straight: bare LF line
      // ends and folded headers too (fetchTarget does the same, lenient.ts). One request per
      // connection, re-framed for the browser, so nothing can be smuggled past it.
      insecureHTTPParser: true,
    });
    up.on('socket', (s: Socket) => {
      s.once('connect', () => {
        try {
          checkAddress(s.remoteAddress ?? '', host, this.policy());
        } catch {
          s.destroy();
        }
      });
    });
    up.on('response', (upRes) => {
      const out: Record<string, string | string[]> = {};
      for (const [k, v] of Object.entries(upRes.headers)) if (v !== undefined && !HOP.has(k)) out[k] = v;
      res.writeHead(upRes.statusCode ?? 502, out);
      upRes.pipe(res);
      upRes.on('error', () => res.destroy());
    });
    up.on('timeout', () => up.destroy(new FetchError(504, 'timeout')));
    up.on('error', (err) => {
      if (!res.headersSent) res.writeHead(statusOf(err), { 'content-length': '0' }).end();
      else res.destroy();
    });
    req.on('error', () => up.destroy());
    res.on('close', () => {
      if (!res.writableFinished) up.destroy();
    });
    req.pipe(up);
  }

  /** ws:// asked for in absolute form (a browser normally tunnels it with CONNECT). */
  private async onUpgrade(req: IncomingMessage, client: Duplex, head: Buffer): Promise<void> {
    client.on('error', () => client.destroy());
    const session = this.authorized(req);
    if (session === undefined) return refuseRaw(client, 407);
    const tag = session ? { session } : {};
    const target = absoluteHttp(req.url?.replace(/^ws:/i, 'http:'));
    if (!target) {
      this.emit({ kind: 'refused', via: 'bad', host: '', ...tag });
      return refuseRaw(client, 400);
    }
    const host = bareHost(target.hostname);
    let upstream: Socket;
    try {
      upstream = await this.dial(host, Number(target.port || 80));
    } catch (err) {
      this.emit({ ...outcome(err), via: 'upgrade', host, ...tag });
      return refuseRaw(client, statusOf(err));
    }
    if (this.abandoned(client, upstream, 'upgrade', host, tag)) return;
    this.emit({ kind: 'allowed', via: 'upgrade', host, ...tag });
    const lines = [`${req.method ?? 'GET'} ${target.pathname}${target.search} HTTP/1.1`];
    for (let i = 0; i < req.rawHeaders.length; i += 2) {
      const k = req.rawHeaders[i] as string;
      if (/^proxy-/i.test(k)) continue;
      lines.push(`${k}: ${req.rawHeaders[i + 1] ?? ''}`);
    }
    upstream.write(`${lines.join('\r\n')}\r\n\r\n`);
    if (head.length) upstream.write(head);
    pipeBoth(client, upstream);
  }
}

function absoluteHttp(raw: string | undefined): URL | undefined {
  if (!raw || !/^http:\/\//i.test(raw)) return undefined;
  try {
    const u = new URL(raw);
    return u.protocol === 'http:' && u.hostname ? u : undefined;
  } catch {
    return undefined;
  }
}

function forwardHeaders(h: IncomingMessage['headers']): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [k, v] of Object.entries(h)) if (v !== undefined && !HOP.has(k)) out[k] = v;
  return out;
}

/** 403 for the guard, 504 for a timeout, 502 for the rest (DNS, refused, reset). */
function statusOf(err: unknown): number {
  for (let e = err, i = 0; e && i < 8; i++) {
    if (e instanceof FetchError) return e.status === 403 || e.status === 504 ? e.status : 502;
    e = (e as { cause?: unknown }).cause;
  }
  return 502;
}

const kindOf = (err: unknown): 'refused' | 'failed' => (statusOf(err) === 403 ? 'refused' : 'failed');

/** An error as an event's kind, and the guard's words for a refusal. */
function outcome(err: unknown): Pick<ProxyEvent, 'kind' | 'why'> {
  const kind = kindOf(err);
  const why = kind === 'refused' && err instanceof FetchError ? blockedWhy(err) : undefined;
  return why ? { kind, why } : { kind };
}

const basic = (username: string, password: string): Buffer => Buffer.from(`Basic ${Buffer.from(`${username}:${password}`).toString('base64')}`);

const REASON: Record<number, string> = { 400: 'Bad Request', 403: 'Forbidden', 407: 'Proxy Authentication Required', 502: 'Bad Gateway', 504: 'Gateway Timeout' };

function refuseRaw(client: Duplex, status: number): void {
  const extra = status === 407 ? 'Proxy-Authenticate: Basic realm="sift"\r\n' : '';
  client.end(`HTTP/1.1 ${status} ${REASON[status] ?? 'Error'}\r\n${extra}Content-Length: 0\r\nConnection: close\r\n\r\n`);
}

function pipeBoth(a: Duplex, b: Duplex): void {
  a.pipe(b);
  b.pipe(a);
  const end = (): void => {
    a.destroy();
    b.destroy();
  };
  a.once('close', end);
  b.once('close', end);
  a.on('error', end);
  b.on('error', end);
}
