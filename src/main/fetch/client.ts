import type * as UndiciModule from 'undici';
import type { Agent, buildConnector, Dispatcher } from 'undici';
import { crc32, createBrotliDecompress, createInflate, createInflateRaw, type InflateRaw } from 'node:zlib';
import { Transform, type Readable } from 'node:stream';
import { isUtf8 } from 'node:buffer';
import type { Socket } from 'node:net';
import { bodyTooLong, DEADLINE_HINT, DNS_HINT, FetchError, timeoutError, unpackedTooLong, waitWords, type RecoverOffer } from './errors';
import { checkAddress, dnsFailure, guardedLookup, isIpLiteral, resolveGuarded, systemResolver, type Resolver } from './guard';
import type { FetchSettings } from './settings';
import { validateUrl } from './url';
import { linkSignals, untilAborted } from './linked-signal';
import { ChainCookies } from './chain-cookies';
import { isMalformedAnswer, lenientGet, type Answer } from './lenient';
import { MAX_REFRESH_SECONDS, metaRefresh, refreshValue } from './markup';
import { formatBytes, formatBytesApart } from '../../shared/bytes';

export interface HttpResponse {
  url: string;
  finalUrl: string;
  status: number;
  headers: Record<string, string>;
  contentType: string;
  body: Buffer;
  redirects: number;
  /** An answer of the chain was read by Node's lenient HTTP parser (lenient.ts): the server's HTTP is loose. */
  lenient?: boolean;
}

const ACCEPT = 'text/html,application/xhtml+xml,application/pdf,application/json;q=0.9,text/plain;q=0.8,*/*;q=0.5';
/** 64 KiB of response headers: 8x what nginx allows by default; more is a broken or hostile server. */
export const MAX_HEADER_BYTES = 64 * 1024;
const REDIRECTS = new Set([301, 302, 303, 307, 308]);
/** An error page larger than this is not an interstitial (the largest in the corpora is 440 KB). */
const MAX_ERROR_PAGE_BYTES = 1024 * 1024;
/** How long an error answer's page is read for before the error is reported without it. */
const ERROR_PAGE_MS = 10_000;

// undici is loaded at the first request: it took 140 ms of a `sift extract` that never
// goes to the network (a quarter of its start).
// In the CLI bundle the import is of a CommonJS chunk whose exports sit on `default` only.
type Undici = typeof UndiciModule;
let undiciModule: Promise<Undici> | undefined;
const loadUndici = (): Promise<Undici> => (undiciModule ??= import('undici').then((m) => ('Agent' in m ? m : (m as unknown as { default: Undici }).default)));

/**
 * The HTTP client of the pipeline: one undici Agent (connection reuse) whose connector
 * resolves through the guard and checks the socket's remote address again after connecting.
 * It is never an EnvHttpProxyAgent, so HTTP_PROXY and friends cannot route around the guard.
 * Redirects are followed here, by hand, so every hop goes through the same checks.
 */
export class HttpClient {
  /** Built at the first request, with the settings of that moment. */
  private agent: Agent | undefined;
  private closed = false;
  constructor(
    private readonly settings: () => FetchSettings,
    private readonly resolve: Resolver,
  ) {}

  /** Rebuilds the agent (new timeouts); open connections of the old one drain. */
  rebuild(): void {
    const old = this.agent;
    this.agent = undefined;
    void old?.close().catch(() => {});
  }

  async close(): Promise<void> {
    this.closed = true;
    const old = this.agent;
    this.agent = undefined;
    await old?.close();
  }

  /** Resolves when undici is loaded. */
  async ready(): Promise<void> {
    await loadUndici();
  }

  private async dispatcher(): Promise<Agent> {
    const undici = await loadUndici();
    // As a closed Agent would: no request (and no new connection) after close().
    if (this.closed) throw new undici.errors.ClientClosedError();
    return (this.agent ??= this.build(undici));
  }

  /** The agent's guarded connector, for the lenient second try of a malformed answer (lenient.ts). */
  private connect: buildConnector.connector | undefined;

  private build({ Agent, buildConnector }: Undici): Agent {
    const s = this.settings();
    const policy = () => this.settings();
    const base = buildConnector({ timeout: s.connectTimeoutMs, lookup: guardedLookup(policy, this.resolve) } as buildConnector.BuildOptions);
    const connect: buildConnector.connector = (opts, cb) => {
      base(opts, (err, socket) => {
        if (err || !socket) return cb(err as Error, null);
        // The lookup checked the name; this checks what the kernel actually connected to,
        // which also covers IP literals (net.connect does not call lookup for them).
        try {
          checkAddress((socket as Socket).remoteAddress ?? '', opts.hostname, policy());
        } catch (e) {
          socket.destroy();
          return cb(e as Error, null);
        }
        cb(null, socket);
      });
    };
    this.connect = connect;
    return new Agent({
      connect,
      headersTimeout: s.headersTimeoutMs,
      bodyTimeout: s.bodyTimeoutMs,
      maxHeaderSize: MAX_HEADER_BYTES,
      connections: 16,
      // A server's `Keep-Alive: timeout=N` hint minus this margin is how long an idle
      // connection is kept. undici's default margin, 2 s, left nothing of the 1-2 s hints
      // many servers send (Node's http server with keepAliveTimeout 1 s: every request of a
      // 1,000-page batch opened and closed its own connection). 500 ms still covers the
      // server's clock starting a round trip earlier than ours on links up to ~1 s RTT.
      keepAliveTimeoutThreshold: 500,
    });
  }

  /**
   * GETs a URL, following redirects by hand. Non-2xx answers throw FetchError with the
   * upstream status; `deadline` is the target's deadline signal (its abort means 504).
   */
  async get(rawUrl: string, signal: AbortSignal, deadline: AbortSignal): Promise<HttpResponse> {
    const linked = linkSignals([signal, deadline]);
    try {
      return await this.follow(rawUrl, signal, deadline, linked.signal);
    } finally {
      linked.dispose();
    }
  }

  /** get's work; `combined` aborts when `signal` or `deadline` does. */
  private async follow(rawUrl: string, signal: AbortSignal, deadline: AbortSignal, combined: AbortSignal): Promise<HttpResponse> {
    const s = this.settings();
    const first = validateUrl(rawUrl);
    let url = first;
    const { request } = await loadUndici();
    const cookies = new ChainCookies();
    // Whether an answer of the chain came in loose HTTP (lenient.ts).
    let lenient = false;
    // Each address asked, with the cookies it was asked with: one asked again the same way is
    // a loop, said as one at once, where the 10th hop said only "too many redirects" (after 10
    // more requests to a site that would never answer otherwise). The same address with a
    // cookie the chain has set since is a sign-in or consent handshake, not a loop.
    const visited = new Set<string>();
    for (let hop = 0; ; hop++) {
      // IP literals never reach the lookup; check them before any packet leaves.
      if (isIpLiteral(url.hostname)) await resolveGuarded(url.hostname, s, systemResolver).catch((err: unknown) => {
        throw redirectedTo(err, hop, url);
      });
      const cookie = cookies.header(url);
      const visit = `${url.href}\n${cookie ?? ''}`;
      if (visited.has(visit)) throw redirectLoop(hop);
      visited.add(visit);
      const headersSent = {
        'user-agent': s.userAgent,
        accept: ACCEPT,
        'accept-encoding': 'gzip, deflate, br',
        'accept-language': 'en;q=0.9, *;q=0.5',
        ...(cookie ? { cookie } : {}),
      };
      // undici leaves a request whose connection is still being made (a slow lookup or
      // handshake) pending until the connect timeout, whatever its signal says: a cancel there
      // would wait 10 s. This settles at once on abort; an answer that comes later is drained.
      const ask = async (): Promise<Dispatcher.ResponseData> =>
        untilAborted(request(url, { method: 'GET', dispatcher: await this.dispatcher(), signal: combined, headers: headersSent }), combined, (late) => late.body.dump());
      const askLeniently = (): Promise<Answer> =>
        lenientGet(url, { connect: this.connect!, headers: headersSent, signal: combined, headersTimeoutMs: s.headersTimeoutMs, bodyTimeoutMs: s.bodyTimeoutMs, maxHeaderSize: MAX_HEADER_BYTES });
      let res: Answer;
      try {
        res = await ask().catch((err: unknown): Promise<Answer> => {
          if (combined.aborted) throw err;
          // An answer in loose HTTP (bare LF line ends, folded headers), which undici refuses
          // and browsers read: once more through Node's lenient parser.
          if (isMalformedAnswer(err) && this.connect) {
            lenient = true;
            return askLeniently();
          }
          // A kept connection that the server closed as the request went out (its idle timeout
          // and our reuse crossing) ends with a reset and no answer at all. A GET is safe to
          // ask again, once, as browsers do: the pool then opens a fresh connection.
          if (!CLOSED_BEFORE_ANSWER.has((err as { code?: string }).code ?? '')) throw err;
          return ask();
        });
      } catch (err) {
        throw redirectedTo(mapError(err, signal, deadline, 'no response'), hop, url);
      }
      // Before flatHeaders: it joins a list with ", ", which an Expires date holds too.
      cookies.take(res.headers['set-cookie'], url);
      const headers = flatHeaders(res.headers);
      if (REDIRECTS.has(res.statusCode) && headers.location) {
        await readAside(dropPage(res.body, combined), signal);
        if (twoPlaces(res.headers.location)) {
          throw new FetchError(
            502,
            'redirect to two different places (two Location headers)',
            'The server’s redirect names two addresses at once, and browsers refuse such a redirect too; open the URL in a browser to see what it does, or report it to the site.',
            'redirects',
          );
        }
        if (hop >= s.maxRedirects) {
          throw tooManyRedirects(s.maxRedirects);
        }
        let next: URL;
        try {
          next = validateUrl(new URL(headerUrl(headers.location), url).toString());
        } catch (e) {
          // The hint was the parser's words ("invalid URL: scheme ftp is not supported"), or
          // nothing at all for a Location that does not parse: they go in the message now.
          const why = e instanceof FetchError ? e.msg.replace(/^invalid URL: /, '') : 'not a valid address';
          throw new FetchError(
            502,
            `redirect to an invalid URL (${why})`,
            'The site sends Sift somewhere it cannot follow (Sift follows http and https only); open the URL in a browser to see where it goes.',
            'redirects',
          );
        }
        url = next;
        continue;
      }
      if (res.statusCode < 200 || res.statusCode >= 300) {
        const err = upstreamError(res.statusCode, headers);
        // The error is known already: its page gets one body silence, and at most
        // ERROR_PAGE_MS, not the target's deadline. A 404 whose page stalled was reported
        // after the 30 s body timeout, and one whose page trickled after the whole 210 s.
        const body = res.body;
        const cut = setTimeout(() => {
          body.on('error', () => {});
          body.destroy(new Error('error page too slow'));
        }, Math.min(ERROR_PAGE_MS, s.bodyTimeoutMs));
        try {
          // An HTML error page is read (a little of it) so the pipeline can tell an anti-bot
          // check or a sign-in wall from a plain error (SPEC §5.9).
          if (/html/i.test(headers['content-type'] ?? '')) {
            err.page = await readAside(readCapped(body, headers, MAX_ERROR_PAGE_BYTES, signal, deadline, s.bodyTimeoutMs).catch(() => undefined), signal);
          } else {
            await readAside(body.dump().catch(() => {}), signal);
          }
        } finally {
          clearTimeout(cut);
        }
        throw err;
      }
      // Sift asks for the whole document, never a range: a 206 whose Content-Range names a
      // part was stored as the document, cut short and marked ok.
      const part = res.statusCode === 206 ? partOnly(headers['content-range']) : undefined;
      if (part) {
        await readAside(dropPage(res.body, combined), signal);
        throw new FetchError(502, `HTTP 206 Partial Content: the server sent ${part} only`, 'The server sent a piece of the document when Sift asked for all of it; try again later, or open the URL in a browser.', 'upstream_status');
      }
      const body = await readCapped(res.body, headers, s.maxBodyBytes, signal, deadline, s.bodyTimeoutMs).catch(async (err: unknown) => {
        // A body whose framing undici refuses (a blank after a chunk size): once more through
        // Node's lenient parser, as the headers above would have gone.
        if (lenient || !this.connect || !(err instanceof FetchError && err.msg === MALFORMED)) throw err;
        lenient = true;
        const again = await askLeniently().catch((e: unknown) => {
          throw mapError(e, signal, deadline, 'no response');
        });
        return readCapped(again.body, flatHeaders(again.headers), s.maxBodyBytes, signal, deadline, s.bodyTimeoutMs);
      });
      // "Go there now" in a page's head (or a Refresh header) is a redirect, as a browser takes it.
      const refresh = refreshTarget(headers, body, url);
      if (refresh) {
        if (hop >= s.maxRedirects) {
          throw tooManyRedirects(s.maxRedirects);
        }
        url = refresh;
        continue;
      }
      return {
        url: first.toString(),
        finalUrl: url.toString(),
        status: res.statusCode,
        headers,
        contentType: headers['content-type'] ?? '',
        body,
        redirects: hop,
        ...(lenient ? { lenient } : {}),
      };
    }
  }
}

/**
 * A hop refused by the guard says it was a redirect: the URL the person gave may be one they
 * allowed (or a public one), and "The address is a private address" alone read as wrong.
 */
function redirectedTo(err: unknown, hop: number, url: URL): unknown {
  if (hop === 0 || !(err instanceof FetchError)) return err;
  if (err.code === 'blocked') return new FetchError(err.status, err.msg, `The page redirects to an address Sift does not fetch. ${err.hint}`, err.code);
  // The same for a host the redirect leads to that cannot be reached: "The host name does not
  // resolve: check the URL for typos" about a URL that has none (its page answered, with a
  // redirect to a host that is gone) sent people to look for a typo in the wrong place.
  if (err.code !== 'dns' && err.code !== 'unreachable' && err.code !== 'tls') return err;
  const where = `The URL answered, with a redirect to ${url.host}`;
  const hint: string | RecoverOffer =
    err.recoverOffer === DNS_HINT
      ? { advice: `${where}, a host name that does not resolve: the site’s redirect points to a host that is gone or misspelt. Open the URL in a browser to see where it goes, or report it to the site`, join: 'sentence' }
      : err.recoverOffer
        ? { ...err.recoverOffer, advice: `${where}, and that fails. ${err.recoverOffer.advice}` }
        : `${where}, and that fails. ${err.hint}`;
  return new FetchError(err.status, `${err.msg} after a redirect`, hint, err.code);
}

/**
 * Waits for `reading`, the page of an answer known at its headers (a redirect, an error, a part),
 * then ends the fetch with the cancel if one came meanwhile: a page the cancel cut short is no
 * evidence, and the answer is not judged without it. Before, a cancelled `sift fetch` or preview
 * of a page redirecting to itself ended as a redirect loop (502) of the hop never asked, and a
 * job cancelled during a check page's 403 stored a plain "HTTP 403 Forbidden".
 */
async function readAside<T>(reading: Promise<T>, signal: AbortSignal): Promise<T> {
  const page = await reading;
  signal.throwIfAborted();
  return page;
}

/**
 * How long the page of an answer Sift does not keep (a redirect's) is read, so its connection
 * serves the next hop, before it is dropped with its connection. A browser follows a redirect
 * at its headers; Sift read the page to its end, so a 302 whose page stalled held its target
 * for the 30 s body timeout, and one whose page trickled failed it at the 210 s deadline as
 * "no response". Such a page is a few hundred bytes that come with the headers: 1 s is long.
 */
const DROPPED_PAGE_MS = 1_000;

async function dropPage(body: Answer['body'], signal: AbortSignal): Promise<void> {
  const bound = linkSignals([signal], DROPPED_PAGE_MS);
  const stop = (): void => discard(body);
  bound.signal.addEventListener('abort', stop, { once: true });
  try {
    await body.dump().catch(() => {});
  } finally {
    bound.signal.removeEventListener('abort', stop);
    bound.dispose();
  }
}

/** A chain that goes on past the limit without coming back to an address (a loop is redirectLoop). */
const tooManyRedirects = (max: number): FetchError =>
  new FetchError(
    502,
    `too many redirects (more than ${max})`,
    `The site sends Sift on through more than ${max} redirects without reaching a page; open it in a browser to see where it goes, and give Sift the address it ends at.`,
    'redirects',
  );

/** A chain that came back to an address it had asked already, with the same cookies: it would go round for ever. */
const redirectLoop = (hops: number): FetchError =>
  new FetchError(
    502,
    `redirect loop: the site sent Sift back to an address it had already asked (after ${hops} ${hops === 1 ? 'redirect' : 'redirects'})`,
    'The site redirects in a circle, so no page ever comes (a browser says "too many redirects"). Open it in a browser to see whether it loads there; if it does only when signed in, the page needs an account. Otherwise try again later, or report it to the site.',
    'redirects',
  );

/**
 * Where a page sends the reader at once: the Refresh header, or a <meta http-equiv=refresh>
 * with a URL and a wait of at most MAX_REFRESH_SECONDS, in the first 32 KB of an HTML
 * page; undefined for none, for the page itself, or for a URL that is not http(s). One in
 * <noscript> is skipped: it is for browsers without JavaScript (often a "turn on
 * JavaScript" page), and a page that needs JavaScript is rendered instead.
 */
export function refreshTarget(headers: Record<string, string>, body: Buffer, base: URL): URL | undefined {
  let content = headers['refresh'] === undefined ? undefined : headerUrl(headers['refresh']);
  if (!content && /html/i.test(headers['content-type'] ?? '')) {
    const value = metaRefresh(body.subarray(0, 32 * 1024).toString('latin1'));
    // The page's bytes as latin1, one char a byte: a UTF-8 URL comes back whole below.
    content = value !== undefined ? Buffer.from(value, 'latin1').toString('utf8') : undefined;
  }
  const m = content === undefined ? undefined : refreshValue(content);
  if (!m || m.seconds > MAX_REFRESH_SECONDS || !m.url) return undefined;
  let next: URL;
  try {
    next = validateUrl(new URL(m.url, base).toString());
  } catch {
    return undefined;
  }
  const same = (u: URL): string => u.href.replace(/#.*$/, '');
  return same(next) === same(base) ? undefined : next;
}

/**
 * A URL header (Location, Refresh) as browsers read it: its bytes as UTF-8 when they are
 * UTF-8. undici gives header values one char a byte (latin1), and servers write a Location
 * with "/café" in it unescaped, as UTF-8: read as latin1 it became /caf%C3%83%C2%A9, a page
 * that does not exist. Bytes that are not UTF-8 stay as they came.
 */
export function headerUrl(value: string): string {
  // eslint-disable-next-line no-control-regex
  if (/^[\x00-\x7f]*$/.test(value)) return value;
  const bytes = Buffer.from(value, 'latin1');
  return isUtf8(bytes) ? bytes.toString('utf8') : value;
}

/**
 * The file name a Content-Disposition gives (RFC 6266): filename* (percent-encoded, UTF-8 or
 * ISO-8859-1) first, else filename, whose raw bytes are read as UTF-8 when they are (as
 * headerUrl reads a Location); without any folder or control character; '' for none.
 */
export function dispositionFileName(value: string | undefined): string {
  if (!value) return '';
  let name = '';
  const star = /\bfilename\*\s*=\s*([\w!#$&+^`{}~-]+)'[^']*'([^;\s]+)/i.exec(value);
  if (star) {
    const [, charset = '', encoded = ''] = star;
    try {
      name = /^utf-8$/i.test(charset) ? decodeURIComponent(encoded) : encoded.replace(/%([0-9a-f]{2})/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
    } catch {
      name = '';
    }
  }
  if (!name) {
    const plain = /\bfilename\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^;]*))/i.exec(value);
    name = headerUrl(plain ? (plain[1]?.replace(/\\(.)/g, '$1') ?? plain[2] ?? '') : '');
  }
  // eslint-disable-next-line no-control-regex
  return (name.split(/[/\\]/).pop() ?? '').replace(/[\u0000-\u001f\u007f]/g, '').trim().slice(0, 200);
}

/**
 * Headers an answer carries once. Servers send some of them twice (a framework and the proxy
 * in front of it each add one), and a list joined with ", " made "/page, /page" of a Location,
 * a page that does not exist (a 404 for a link that works in a browser), and "application/xml,
 * application/xml" of a Content-Type, a type Sift does not know (415). The same value twice is
 * that value; of two different Content-Types the last counts, as the Fetch standard reads
 * them; two different Locations are refused (twoPlaces), as browsers refuse them.
 */
const ONCE = new Set(['location', 'content-type', 'content-length', 'content-disposition', 'content-range', 'refresh', 'retry-after']);

function flatHeaders(h: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(h)) {
    if (v === undefined) continue;
    const key = k.toLowerCase();
    let values = Array.isArray(v) ? v : [v];
    if (ONCE.has(key)) values = [...new Set(values.map((x) => x.trim()))];
    if (key === 'content-type') values = values.slice(-1);
    out[key] = values.join(', ');
  }
  return out;
}

/** A redirect that names two different places to go (two Location headers that differ). */
function twoPlaces(location: string | string[] | undefined): boolean {
  return Array.isArray(location) && new Set(location.map((x) => x.trim())).size > 1;
}

const REASONS: Record<number, string> = {
  // A redirect that came without a Location (or one Sift does not follow) is reported as one, not as an "Unexpected Status".
  300: 'Multiple Choices', 301: 'Moved Permanently', 302: 'Found', 303: 'See Other', 304: 'Not Modified', 305: 'Use Proxy', 307: 'Temporary Redirect', 308: 'Permanent Redirect',
  400: 'Bad Request', 401: 'Unauthorized', 402: 'Payment Required', 403: 'Forbidden', 404: 'Not Found', 405: 'Method Not Allowed',
  406: 'Not Acceptable', 408: 'Request Timeout', 410: 'Gone', 414: 'URI Too Long', 429: 'Too Many Requests', 431: 'Request Header Fields Too Large', 451: 'Unavailable For Legal Reasons',
  500: 'Internal Server Error', 502: 'Bad Gateway', 503: 'Service Unavailable', 504: 'Gateway Timeout',
};

/** "bytes 0-9 of 1000" for a Content-Range that is not the whole document; undefined when it is, or says nothing readable. */
function partOnly(contentRange: string | undefined): string | undefined {
  const m = /^\s*bytes\s+(\d+)-(\d+)\/(\d+|\*)\s*$/i.exec(contentRange ?? '');
  if (!m) return undefined;
  const [, first = '', last = '', total = ''] = m;
  if (first === '0' && total !== '*' && Number(last) + 1 === Number(total)) return undefined;
  return `bytes ${first}-${last} of ${total === '*' ? 'an unknown length' : total}`;
}

/** Retry-After as milliseconds: delta-seconds or an HTTP date. */
export function parseRetryAfter(v: string | undefined, now = Date.now()): number | undefined {
  if (!v) return undefined;
  if (/^\s*\d+\s*$/.test(v)) return Number(v) * 1000;
  const t = Date.parse(v);
  return Number.isNaN(t) ? undefined : Math.max(0, t - now);
}

/**
 * A status past HTTP's 1xx-5xx. undici keeps no reason phrase, so LinkedIn's "999 Request
 * denied" read "HTTP 999 Server Error … The server failed; try again later", a wrong name and
 * a wrong next step for a refusal.
 */
const nonStandard = (status: number): boolean => status < 100 || status > 599;

/**
 * What a person can do about an HTTP status. Every 4xx but 401/403/404/410 said "a status
 * Sift does not handle", as if Sift were at fault: each says what the site meant.
 */
function upstreamHint(status: number): string | RecoverOffer {
  if (nonStandard(status)) return 'The site answered with a status outside HTTP’s, as some sites refuse automated requests (LinkedIn answers 999): open the URL in a browser.';
  if (status === 404 || status === 410) return { advice: 'The page is gone', join: 'clause' };
  if (status === 401 || status === 403) return 'The site refuses Sift; the page may need a login.';
  if (status === 451) return 'The site withholds this page for legal reasons, often only in some countries.';
  if (status === 408) return 'The server gave up waiting for the request; try again later.';
  if (status === 402) return 'The page is for paying readers; open it in a browser with an account.';
  if (status === 400) return 'The site refused the request as malformed; check the URL for typos or an address cut short.';
  // The URL is whole and too long for the server: "an address cut short" sent people looking for the opposite.
  if (status === 414) return 'The server refuses addresses this long: shorten the URL (tracking parameters such as utm_… can go), or open it in a browser to find a shorter address for the page.';
  // Sift's request is a few hundred bytes of headers besides the URL and the cookies the site set on the way.
  if (status === 431) return 'The server refuses a request this large: the URL, or the cookies the site set along its redirects, are too long for it. Shorten the URL, or open it in a browser.';
  if (status >= 500) return { advice: 'The server failed; try again later', join: 'or' };
  if (status >= 400) return 'The site refused the request; open the URL in a browser to see why.';
  // Sift asks unconditionally (no If-None-Match, no If-Modified-Since) and keeps no copy: a
  // 304 then comes from a cache in front of the site that mixed up requests, not from Sift.
  if (status === 304) return 'The server answered "not modified" though Sift asked for the whole page and keeps no copy of it: a cache in front of the site is confused. Try again later, or open the URL in a browser.';
  // A 3xx that is not a redirect Sift follows (no Location; 300, 305).
  if (status >= 300) return 'The server answered with a redirect that does not say where to; open the URL in a browser to see where it goes.';
  return status < 200 || status >= 300 ? 'The server answered with a status Sift does not handle.' : '';
}

export function upstreamError(status: number, headers: Record<string, string>): FetchError {
  const reason = REASONS[status] ?? (nonStandard(status) ? '(a status HTTP does not define)' : status >= 500 ? 'Server Error' : status >= 400 ? 'Client Error' : 'Unexpected Status');
  const msg = `HTTP ${status} ${reason}`;
  if (status === 429 || status === 503) {
    const wait = parseRetryAfter(headers['retry-after']);
    // How long the server asked for, when it said: a Retry-After of an hour read as a plain "slow down".
    const asked = wait && wait >= 1000 ? `The server asks Sift to wait ${waitWords(wait)} before asking again` : 'The server asks to slow down';
    return new FetchError(status, msg, `${asked}; Sift retries batch targets later.`, 'busy', wait);
  }
  const hint = upstreamHint(status);
  const code = status >= 500 ? 'upstream_5xx' : status >= 400 ? 'upstream_4xx' : 'upstream_status';
  return new FetchError(status >= 200 && status < 400 ? 502 : status, msg, hint, code);
}

/** The first FetchError in an error's cause chain (the guard's 403 comes back wrapped). */
function findFetchError(err: unknown): FetchError | undefined {
  for (let e = err, i = 0; e && i < 8; i++) {
    if (e instanceof FetchError) return e;
    e = (e as { cause?: unknown }).cause;
  }
  return undefined;
}

const MALFORMED = 'malformed HTTP response';

/** Errors of a connection closed before any of the response came: asked again once (HttpClient.get). */
const CLOSED_BEFORE_ANSWER = new Set(['ECONNRESET', 'UND_ERR_SOCKET', 'EPIPE']);

export function mapError(err: unknown, signal: AbortSignal, deadline: AbortSignal, phase: string): unknown {
  const fe = findFetchError(err);
  if (fe) return fe;
  if (deadline.aborted) return timeoutError(`the target's deadline passed (${phase})`, DEADLINE_HINT);
  if (signal.aborted) return signal.reason ?? err;
  const code = (err as { code?: string }).code ?? '';
  switch (code) {
    case 'UND_ERR_HEADERS_TIMEOUT':
      return timeoutError('the server sent no response headers in time');
    case 'UND_ERR_BODY_TIMEOUT':
      // The default hint's "or with a smaller document" is for a deadline: a body that went
      // silent part way is the server's, whatever the document's size.
      return timeoutError('the server stopped sending the body', 'The server sent part of the document, then nothing more: try again later; if it keeps happening, the site’s server is at fault.');
    case 'UND_ERR_CONNECT_TIMEOUT':
      return timeoutError('could not connect in time');
    case 'UND_ERR_HEADERS_OVERFLOW':
      return new FetchError(502, 'response headers too large', `The server sent more than ${MAX_HEADER_BYTES / 1024} KiB of headers.`, 'unreachable');
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return dnsFailure(err);
    case 'ECONNREFUSED':
      return new FetchError(502, 'connection refused', 'Nothing listens at that address; check the URL or try later.', 'unreachable');
    case 'ECONNRESET':
    case 'UND_ERR_SOCKET':
    case 'EPIPE':
      // undici's "other side closed": the server ended the connection in order, where a reset
      // is an abort. Before any answer, "connection reset" was untrue of it.
      if (code === 'UND_ERR_SOCKET' && phase === 'no response' && /other side closed/.test((err as Error).message ?? '')) {
        return new FetchError(
          502,
          'no answer: the server closed the connection without answering',
          'The server (or a proxy in front of it) took the request and closed the connection without a word; try again later. If it keeps happening, open the URL in a browser to see whether it loads there.',
          'unreachable',
        );
      }
      // Part way through the body (a chunked page without its last chunk) the page came in part:
      // "closed the connection" alone read as though nothing had.
      return new FetchError(
        502,
        `connection reset (${phase})`,
        phase === 'reading the body' ? 'The server closed the connection part way through the document, so only part of it came; try again later.' : 'The server closed the connection; try again later.',
        'unreachable',
      );
    default:
      if (/^(ERR_TLS|CERT_|UNABLE_TO|DEPTH_ZERO|SELF_SIGNED|ERR_SSL)/.test(code)) {
        return new FetchError(502, 'TLS handshake failed', tlsHint(code), 'tls');
      }
      // undici 7's parser errors carry no code (it looks the name up by number in a table
      // keyed by name): their name says what they are.
      if (code.startsWith('HPE_') || (err as { name?: unknown }).name === 'HTTPParserError') {
        return new FetchError(
          502,
          MALFORMED,
          phase === 'reading the body'
            ? 'The server’s answer broke its own framing part way through the body (a chunk it cannot have meant), so only part of the document came. Try again later; if it keeps happening, report it to the site.'
            : 'The server answered, but not in valid HTTP: check the URL’s scheme and port, or try again later.',
          'unreachable',
        );
      }
      if (code === 'UND_ERR_RES_CONTENT_LENGTH_MISMATCH' || code === 'ERR_STREAM_PREMATURE_CLOSE') {
        return new FetchError(502, `connection reset (${phase})`, 'The body ended before its announced length.', 'unreachable');
      }
      return new FetchError(502, `connection failed (${phase})`, 'Sift could not reach the server.', 'unreachable');
  }
}

/**
 * Why a secure connection failed, from OpenSSL's and Node's codes. Every failure said "The
 * site's certificate is not valid for this name", a self-signed certificate and a server
 * that speaks plain HTTP on an https:// port alike. Sift never skips the check, so each says
 * what a person can check instead.
 */
function tlsHint(code: string): string {
  switch (code) {
    case 'ERR_TLS_CERT_ALTNAME_INVALID':
      return 'The site’s certificate is for another name than the one in the URL: check the URL, or open it in a browser to see the warning.';
    case 'CERT_HAS_EXPIRED':
      return 'The site’s certificate has expired (or this computer’s clock is wrong): open it in a browser to see the warning.';
    case 'CERT_NOT_YET_VALID':
      return 'The site’s certificate is not valid yet (or this computer’s clock is wrong): open it in a browser to see the warning.';
    case 'DEPTH_ZERO_SELF_SIGNED_CERT':
    case 'SELF_SIGNED_CERT_IN_CHAIN':
      return 'The site’s certificate is self-signed: no authority this computer trusts vouches for it. Open it in a browser to see the warning.';
    case 'UNABLE_TO_VERIFY_LEAF_SIGNATURE':
    case 'UNABLE_TO_GET_ISSUER_CERT':
    case 'UNABLE_TO_GET_ISSUER_CERT_LOCALLY':
      return 'The site’s certificate comes from an authority this computer does not trust, or the site leaves out part of its chain: open it in a browser to see the warning.';
    case 'ERR_SSL_WRONG_VERSION_NUMBER':
      return 'The server does not speak https on that port: check the URL (http:// instead of https://, or the port).';
    default:
      return code.startsWith('ERR_SSL')
        ? 'The server broke off the secure handshake, or shares no TLS version with Sift; try again later, or open it in a browser.'
        : 'The site’s certificate is not valid: open it in a browser to see the warning.';
  }
}

/**
 * HTTP's "deflate" is the zlib format (RFC 9110), but some servers send the bare deflate
 * stream under that name, and browsers read both: the first two bytes say which.
 */
function inflateEither(): Transform {
  let inner: Transform | undefined;
  // zlib ends a deflate stream at its last block, bytes after it or not (a newline a script
  // printed after the compressed page): its 'end' came before the flush below waited for
  // it, and such a body hung until the target's deadline. What follows the end is ignored,
  // as browsers ignore it.
  let ended = false;
  let onEnd: (() => void) | undefined;
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      if (ended) return done();
      if (!inner) {
        const zlibHeader = chunk.length >= 2 && ((chunk[0] ?? 0) & 0x0f) === 8 && (((chunk[0] ?? 0) << 8) | (chunk[1] ?? 0)) % 31 === 0;
        inner = zlibHeader ? createInflate() : createInflateRaw();
        inner.on('data', (d: Buffer) => this.push(d));
        inner.on('error', (e) => this.destroy(e));
        inner.once('end', () => {
          ended = true;
          onEnd?.();
        });
      }
      inner.write(chunk, () => done());
    },
    flush(done) {
      if (!inner || ended) return done();
      onEnd = () => done();
      inner.end();
    },
    destroy(err, done) {
      inner?.destroy();
      done(err);
    },
  });
}

/**
 * One gzip member being read: its deflate stream, the CRC-32 and length of what it unpacked
 * to so far, whether zlib has stopped taking its bytes (`used`) and ended its output.
 */
interface Member {
  inflate: InflateRaw;
  crc: number;
  size: number;
  used: boolean;
  ended: boolean;
  then?: () => void;
}

/** An error as zlib's own: corruptBodyHint reads its code. */
const zlibError = (message: string, code: 'Z_DATA_ERROR' | 'Z_BUF_ERROR'): Error => Object.assign(new Error(message), { code });

/**
 * gzip as browsers read it: members one after another, and whatever follows the last one
 * ignored. Node's Gunzip reads any bytes after a member as the next member's header and fails
 * on all but NUL padding, so a page a script followed with a newline (PHP's output after its
 * closing tag) failed as "stops part way", and one followed with "\r\n" as corrupt; Chrome,
 * Firefox and urllib3 show it. A member is checked as Gunzip checks it: its trailer must come
 * whole (a body cut there fails as one cut anywhere, see corruptBodyHint) with the CRC-32 and
 * length of what it unpacked to.
 */
function gunzipMembers(): Transform {
  const EMPTY = Buffer.alloc(0);
  /** Bytes not yet read: a header, the current member's deflate data, or its trailer. */
  let pending: Buffer = EMPTY;
  let member: Member | undefined;
  let members = 0;
  let ignoring = false;
  let seen = false;
  const cut = (): Error => zlibError('unexpected end of file', 'Z_BUF_ERROR');
  const out = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      seen ||= chunk.length > 0;
      pending = pending.length ? Buffer.concat([pending, chunk]) : chunk;
      step(done);
    },
    flush(done) {
      const finish = (): void => step((err) => (err ? done(err) : done(ignoring || (!member && (members > 0 || !seen)) ? null : cut())));
      if (member && !member.used) {
        // Its last block may be in what came; zlib says at the end.
        const m = member;
        m.then = () => {
          m.used = true;
          finish();
        };
        m.inflate.end();
        return;
      }
      finish();
    },
    // A body stopped (its cap reached, a reset) stops its inflater too: one write of a bomb
    // unpacks to a thousand times its size, which zlib went on making for nobody.
    destroy(err, done) {
      member?.inflate.destroy();
      done(err);
    },
  });
  /** Reads `pending` as far as it goes; `done` when more bytes are needed, or with the error that stops the body. */
  function step(done: (err?: Error | null) => void): void {
    for (;;) {
      if (ignoring) {
        pending = EMPTY;
        return done();
      }
      if (member && !member.used) {
        const data = pending;
        pending = EMPTY;
        if (data.length === 0) return done();
        const m = member;
        const before = m.inflate.bytesWritten;
        m.inflate.write(data, () => {
          const used = m.inflate.bytesWritten - before;
          if (used === data.length) return done();
          // zlib stops at the member's last block and leaves the rest: its trailer, and what follows.
          m.used = true;
          pending = data.subarray(used);
          if (m.ended) return step(done);
          m.then = () => step(done);
        });
        return;
      }
      if (member) {
        // The trailer (RFC 1952 §2.3): CRC-32 and length of what the member unpacked to.
        if (pending.length < 8) return done();
        if (pending.readUInt32LE(0) !== member.crc >>> 0 || pending.readUInt32LE(4) !== member.size % 2 ** 32) return done(zlibError('incorrect data check', 'Z_DATA_ERROR'));
        pending = pending.subarray(8);
        member = undefined;
        members++;
        continue;
      }
      if (pending.length === 0) return done();
      if (pending[0] !== 0x1f || (pending.length > 1 && pending[1] !== 0x8b)) {
        if (members === 0) return done(zlibError('incorrect header check', 'Z_DATA_ERROR'));
        ignoring = true;
        continue;
      }
      const at = headerLength(pending);
      if (at === undefined) return done();
      if (at < 0) return done(zlibError('unknown compression method', 'Z_DATA_ERROR'));
      pending = pending.subarray(at);
      const m: Member = { inflate: createInflateRaw(), crc: 0, size: 0, used: false, ended: false };
      m.inflate.on('data', (b: Buffer) => {
        m.crc = crc32(b, m.crc);
        m.size += b.length;
        out.push(b);
      });
      m.inflate.on('error', (e) => out.destroy(e));
      m.inflate.once('end', () => {
        m.ended = true;
        const then = m.then;
        m.then = undefined;
        then?.();
      });
      member = m;
    }
  }
  return out;
}

/** The length of the gzip header at the start of `b`; undefined when more bytes are needed, -1 for a method that is not deflate. */
function headerLength(b: Buffer): number | undefined {
  if (b.length < 10) return undefined;
  if (b[2] !== 8) return -1;
  const flags = b[3] ?? 0;
  let at = 10;
  if (flags & 4) {
    if (b.length < at + 2) return undefined;
    at += 2 + b.readUInt16LE(at);
  }
  for (const bit of [8, 16]) {
    if (!(flags & bit)) continue;
    const nul = b.indexOf(0, at);
    if (nul < 0) return undefined;
    at = nul + 1;
  }
  if (flags & 2) at += 2;
  return b.length < at ? undefined : at;
}

/**
 * Stops reading a body. undici's body emits an abort error when destroyed, and an 'error'
 * with no listener would end the whole process, a batch and the app with it.
 */
function discard(body: Readable): void {
  body.on('error', () => {});
  body.destroy();
}

/** Compressions browsers read and Sift cannot (Node 20's zlib has no zstd). */
const UNREADABLE_CODINGS = new Set(['zstd', 'compress', 'x-compress', 'dcb', 'dcz']);

function decoderFor(coding: string): Transform | undefined {
  if (coding === 'gzip' || coding === 'x-gzip') return gunzipMembers();
  if (coding === 'deflate') return inflateEither();
  if (coding === 'br') return createBrotliDecompress();
  return undefined;
}

/**
 * What to do about a body that came whole (the HTTP framing ended as announced) and does not
 * decompress as its Content-Encoding says: the server's headers misdescribe it (a plain page
 * labelled gzip, gzip labelled br), or its compressed stream stops part way.
 *
 * A stream that stops part way fails rather than keeping what decompressed. curl 7.88.1 and
 * wget 1.21.3 keep it and exit 0 (measured on this project's machine with a 2,756-byte page
 * gzipped: cut before its 8-byte gzip trailer, both saved the whole page; cut at half, both
 * saved its first 61 bytes, a page stopping inside its <head>, just as silently). The bytes
 * that would tell a whole document from a part are the trailer's length and checksum, which
 * are what is missing, so Sift cannot keep the first case without keeping the second; a
 * stored result is read as the page, and a part of one is a wrong answer, where a failure
 * with the next step is an honest one.
 */
function corruptBodyHint(err: unknown, contentEncoding: string): RecoverOffer {
  const declared = contentEncoding.trim().toLowerCase();
  if ((err as NodeJS.ErrnoException).code === 'Z_BUF_ERROR') {
    return {
      advice: `The server's ${declared}-compressed body stops part way, so only part of the document came. Try again later; if it keeps happening, the site's server is at fault: report it to the site`,
      join: 'sentence',
    };
  }
  return {
    advice: `The server says the body is compressed as ${declared}, but it does not decompress as that: the server's headers misdescribe the body it sent. Try again later; if it keeps happening, report it to the site`,
    join: 'sentence',
  };
}

/**
 * Reads the body, decompressing it ourselves so the cap counts decompressed bytes: a 50 KB
 * gzip bomb that inflates to gigabytes stops at maxBytes.
 *
 * Content-Encoding lists codings in the order they were applied, so they come off last
 * first ("gzip, br": brotli, then gzip). A name that is no compression at all (servers send
 * "utf-8", "none", "text") is read as none, as browsers read it.
 */
async function readCapped(body: Readable, headers: Record<string, string>, maxBytes: number, signal: AbortSignal, deadline: AbortSignal, windowMs: number): Promise<Buffer> {
  const codings = (headers['content-encoding'] ?? '')
    .toLowerCase()
    .split(',')
    .map((c) => c.trim())
    .filter((c) => c && c !== 'identity');
  const unreadable = codings.find((c) => UNREADABLE_CODINGS.has(c));
  if (unreadable) {
    discard(body);
    throw new FetchError(
      415,
      `unsupported: content-encoding ${unreadable}`,
      `The server compressed the body as ${unreadable}, which Sift cannot read and did not ask for (it asks for gzip, deflate or br): try again later, or report it to the site.`,
      'unsupported',
    );
  }
  const decoders = codings
    .reverse()
    .map(decoderFor)
    .filter((d): d is Transform => d !== undefined);
  const declared = Number(headers['content-length']);
  if (decoders.length === 0 && Number.isFinite(declared) && declared > maxBytes) {
    discard(body);
    throw bodyTooLong(maxBytes);
  }
  let stream: Readable = body;
  const last = decoders.at(-1);
  // An error of the body's own (a reset), or of an inner decoder, reaches the loop through the last decoder.
  let bodyFailed = false;
  // Bytes as they came over the wire (compressed, when they are).
  let received = 0;
  if (last) {
    body.on('data', (c: Buffer) => (received += c.length));
    body.on('error', (e) => {
      bodyFailed = true;
      last.destroy(e);
    });
    for (const d of decoders) {
      if (d !== last) d.on('error', (e) => last.destroy(e));
      stream = stream.pipe(d);
    }
  }
  const chunks: Buffer[] = [];
  let total = 0;
  const reading = stream;
  const trickle = watchTrickle(() => received, windowMs, (err) => reading.destroy(err));
  try {
    for await (const chunk of stream) {
      const b = chunk as Buffer;
      total += b.length;
      if (!last) received = total;
      if (total > maxBytes) throw last ? unpackedTooLong(maxBytes, received, codings.join(', ')) : bodyTooLong(maxBytes);
      chunks.push(b);
    }
  } catch (err) {
    discard(body);
    for (const d of decoders) d.destroy();
    if (err instanceof FetchError) throw err;
    // A decoder's own error (zlib's Z_DATA_ERROR, brotli's ERR__ERROR_FORMAT_…): the bytes came, and do not decompress.
    if (last && !bodyFailed) {
      // No bytes at all under a Content-Encoding (servers label an empty answer gzip too):
      // nothing was compressed, and browsers show the empty page.
      if (received === 0) return Buffer.alloc(0);
      // The network carried every byte the server framed: a damaged document (reason
      // unsupported, "unreadable file", as a damaged PDF is), not a network failure. Stored as a
      // 502 it read "internal error" / "network error" in a batch, and sent people to their network.
      throw new FetchError(422, 'corrupt compressed body', corruptBodyHint(err, headers['content-encoding'] ?? ''), 'corrupt_body');
    }
    // The headers, then silence: none of the body came (a GET answered as a HEAD is), which
    // "sent part of the document" would misstate.
    if (received === 0 && (err as { code?: unknown }).code === 'UND_ERR_BODY_TIMEOUT' && !deadline.aborted && !signal.aborted) {
      throw timeoutError('the server sent the headers, then no body', 'The server answered with headers only and then nothing, as if it had been asked for them alone: try again later; if it keeps happening, the site’s server is at fault.');
    }
    const cut = !deadline.aborted && !signal.aborted ? bodyCutShort(err, received, headers) : undefined;
    throw cut ?? mapError(err, signal, deadline, 'reading the body');
  } finally {
    clearInterval(trickle);
  }
  return Buffer.concat(chunks, total);
}

/**
 * A body the connection ended before it was whole: fewer bytes than its Content-Length, or a
 * chunked body without its last chunk. Both read "connection reset (reading the body)", which
 * was untrue of a server that closed the connection (undici's "other side closed") and said
 * nothing of how much came. `received` counts bytes as they came over the wire, as
 * Content-Length does. undefined for any other error.
 */
function bodyCutShort(err: unknown, received: number, headers: Record<string, string>): FetchError | undefined {
  const code = (err as { code?: unknown }).code;
  if (code !== 'UND_ERR_SOCKET' && code !== 'ECONNRESET' && code !== 'UND_ERR_RES_CONTENT_LENGTH_MISMATCH' && code !== 'ERR_STREAM_PREMATURE_CLOSE') return undefined;
  const ended = code === 'ECONNRESET' ? 'the connection was reset' : 'the server closed the connection';
  const declared = Number(headers['content-length'] || NaN);
  const msg =
    Number.isFinite(declared) && declared > received
      ? `body cut short: ${formatBytesApart(received, declared).join(' of the ')} announced came, then ${ended}`
      : `body cut short: ${ended} after ${formatBytes(received)}, before the end of the document`;
  const hint =
    code === 'ECONNRESET'
      ? 'Only part of the document came: the server, or a proxy or firewall on the way, broke the connection off. Try again later.'
      : 'Only part of the document came. Try again later; if it keeps stopping at the same point, the site’s server is at fault.';
  return new FetchError(502, msg, hint, 'unreachable');
}

/**
 * Fewer bytes than this in a whole body-silence window (30 s by default) is a server
 * trickling the body, not a slow link: 34 B/s, where a 2G mobile link carries 5,000. The
 * body timeout counts silence only, so a byte a second never set it off, and such a body
 * held its target (and one of the process's 8 fetch slots) for the whole 210 s deadline.
 */
const TRICKLE_BYTES = 1024;

/**
 * Checks, every half `windowMs`, what came in the last whole window: fewer than TRICKLE_BYTES
 * that kept coming (some in each half) stops the body with a timeout. A body that went
 * silent after a little (its last half brought nothing) is the body timeout's to report,
 * as "the server stopped sending the body".
 */
function watchTrickle(received: () => number, windowMs: number, stop: (err: FetchError) => void): NodeJS.Timeout | undefined {
  if (!(windowMs > 0)) return undefined;
  let seen = 0;
  let halves: number[] = [];
  const t = setInterval(() => {
    const came = received() - seen;
    seen += came;
    halves = [...halves.slice(-1), came];
    const [first = 0, second = 0] = halves;
    if (halves.length === 2 && first > 0 && second > 0 && first + second < TRICKLE_BYTES) {
      stop(timeoutError(`the server sent the body too slowly (${first + second} bytes in ${waitWords(windowMs)})`, 'The server sends the document a few bytes at a time, too slowly to ever finish; try again later.'));
    }
  }, windowMs / 2);
  t.unref();
  return t;
}
