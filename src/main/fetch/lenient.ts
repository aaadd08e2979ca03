import { request, type IncomingMessage, type RequestOptions } from 'node:http';
import type { Readable } from 'node:stream';
import { finished } from 'node:stream/promises';
import type { Socket } from 'node:net';
import type { buildConnector } from 'undici';
import { bareHost, isIpLiteral } from './guard';

/** An answer's status, headers and body, as HttpClient reads undici's and this module's alike. */
export interface Answer {
  statusCode: number;
  headers: Record<string, string | string[] | undefined>;
  body: Readable & { dump(): Promise<unknown> };
}

export interface LenientOptions {
  /** The guarded connector of the client's pool: the same lookup, address check, TLS and connect timeout. */
  connect: buildConnector.connector;
  headers: Record<string, string>;
  signal: AbortSignal;
  headersTimeoutMs: number;
  bodyTimeoutMs: number;
  maxHeaderSize: number;
}

/**
 * Whether undici refused an answer's HTTP itself: its parser (bare LF line ends, a header
 * folded onto the next line, a chunk size with a blank after it), a 100 Continue that nobody
 * asked for ("bad response"), or a body that does not match its Content-Length, which is what
 * undici makes of an answer that also says it is chunked (browsers read the chunks). A body
 * really cut short fails the lenient try the same way.
 */
export function isMalformedAnswer(err: unknown): boolean {
  const e = err as { code?: unknown; name?: unknown; message?: unknown } | null;
  const code = typeof e?.code === 'string' ? e.code : '';
  return (
    code.startsWith('HPE_') ||
    e?.name === 'HTTPParserError' ||
    (code === 'UND_ERR_SOCKET' && e?.message === 'bad response') ||
    code === 'UND_ERR_RES_CONTENT_LENGTH_MISMATCH'
  );
}

/**
 * GETs `url` once more over Node's own HTTP parser in its lenient mode, for a server whose
 * answer undici refused (isMalformedAnswer). Browsers, curl and wget read such answers: old
 * embedded servers and hand-written CGI send them, and Sift failed each as "malformed HTTP
 * response". The connection is the client's own guarded one (the address is checked as for
 * any request), one per request and closed after it; timeouts are the client's (as undici's
 * codes, so mapError words them alike). What Node still refuses (not HTTP at all) fails as
 * before.
 */
export function lenientGet(url: URL, opts: LenientOptions): Promise<Answer> {
  const https = url.protocol === 'https:';
  const hostname = bareHost(url.hostname);
  const port = Number(url.port) || (https ? 443 : 80);
  return new Promise<Answer>((resolve, reject) => {
    const options: RequestOptions = {
      method: 'GET',
      host: hostname,
      port,
      path: `${url.pathname}${url.search}`,
      headers: { host: url.host, ...opts.headers, connection: 'close' },
      insecureHTTPParser: true,
      maxHeaderSize: opts.maxHeaderSize,
      signal: opts.signal,
      // Node's http over the pool's connector: it resolves the name through the guard, checks
      // the address it reached and does the TLS handshake (with the name's certificate check).
      // (Node takes the socket from the callback when this returns none: agent.createConnection's contract.)
      createConnection: (_options, done) => {
        // TLS names no IP address.
        const servername = https && !isIpLiteral(hostname) ? hostname : undefined;
        opts.connect({ hostname, host: url.host, protocol: url.protocol, port: String(port), servername }, (err, socket) => done(err, socket as Socket));
        return undefined as unknown as Socket;
      },
    };
    const req = request(options);
    // As undici's headersTimeout, with its code.
    const headersTimer = setTimeout(() => req.destroy(Object.assign(new Error('Headers Timeout Error'), { code: 'UND_ERR_HEADERS_TIMEOUT' })), opts.headersTimeoutMs);
    let answer: IncomingMessage | undefined;
    req.on('error', (err) => {
      clearTimeout(headersTimer);
      // A parse error in the body (a chunk size that is no number) comes here, and the body
      // itself ends with a bare ECONNRESET "aborted": the body carries the parser's error
      // instead, so the failure says the answer broke its framing, not that the server reset.
      // A socket error after the whole answer came (a reset as the server closes) spoils nothing.
      if (!answer) reject(err);
      else if (!answer.complete) answer.destroy(err);
    });
    req.on('response', (res) => {
      answer = res;
      clearTimeout(headersTimer);
      // As undici's bodyTimeout: the longest silence while the body comes.
      res.socket.setTimeout(opts.bodyTimeoutMs, () => res.destroy(Object.assign(new Error('Body Timeout Error'), { code: 'UND_ERR_BODY_TIMEOUT' })));
      const dump = (): Promise<void> => {
        res.on('error', () => {});
        res.resume();
        return finished(res).catch(() => {});
      };
      resolve({ statusCode: res.statusCode ?? 0, headers: res.headers, body: Object.assign(res, { dump }) });
    });
    req.end();
  });
}
