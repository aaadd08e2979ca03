/**
 * The cookies one target's redirect chain sets, sent back along that chain only. Sites that
 * set a cookie and redirect to themselves to see it come back (a cookie check, a session
 * or consent handshake) looped, without it, until "too many redirects", where a browser
 * lands on the page. Nothing here outlives one HttpClient.get(): no cookie of one target
 * is seen by another, as with rendering (SPEC §5.10).
 *
 * RFC 6265 in the small: name=value, Domain (a host-only cookie without it), Path (the
 * request's directory without it), Secure, and Max-Age/Expires in the past as a deletion.
 */
interface Cookie {
  name: string;
  value: string;
  domain: string;
  hostOnly: boolean;
  path: string;
  secure: boolean;
}

/** At most this many cookies a chain keeps: a chain of 10 hops has no use for more. */
const MAX_COOKIES = 50;

export class ChainCookies {
  private readonly jar = new Map<string, Cookie>();

  /** Takes the Set-Cookie headers of an answer from `url` (undici gives one string or a list). */
  take(setCookie: string | string[] | undefined, url: URL): void {
    for (const line of typeof setCookie === 'string' ? [setCookie] : (setCookie ?? [])) this.takeOne(line, url);
  }

  /** The Cookie header for a request to `url`, or undefined when no kept cookie goes there. */
  header(url: URL): string | undefined {
    const host = url.hostname.toLowerCase();
    const sent = [...this.jar.values()].filter(
      (c) =>
        (c.hostOnly ? host === c.domain : host === c.domain || host.endsWith(`.${c.domain}`)) &&
        pathMatches(url.pathname, c.path) &&
        (!c.secure || url.protocol === 'https:'),
    );
    return sent.length ? sent.map((c) => `${c.name}=${c.value}`).join('; ') : undefined;
  }

  private takeOne(line: string, url: URL): void {
    const [pair = '', ...attrs] = line.split(';');
    const eq = pair.indexOf('=');
    if (eq <= 0) return;
    const name = pair.slice(0, eq).trim();
    const value = pair.slice(eq + 1).trim();
    const host = url.hostname.toLowerCase();
    let domain = host;
    let hostOnly = true;
    let path = defaultPath(url.pathname);
    let secure = false;
    let expired = false;
    for (const attr of attrs) {
      const i = attr.indexOf('=');
      const key = (i < 0 ? attr : attr.slice(0, i)).trim().toLowerCase();
      const v = i < 0 ? '' : attr.slice(i + 1).trim();
      if (key === 'domain' && v) {
        const d = v.replace(/^\./, '').toLowerCase();
        // A Domain the host is not in is refused, as browsers refuse it; a bare top-level
        // name (no dot) would reach every site under it.
        if (!d.includes('.') || (host !== d && !host.endsWith(`.${d}`))) return;
        domain = d;
        hostOnly = false;
      } else if (key === 'path' && v.startsWith('/')) {
        path = v;
      } else if (key === 'secure') {
        secure = true;
      } else if (key === 'max-age' && /^-?\d+$/.test(v)) {
        expired = Number(v) <= 0;
      } else if (key === 'expires' && !attrs.some((a) => /^\s*max-age\s*=/i.test(a))) {
        const t = Date.parse(v);
        expired = !Number.isNaN(t) && t <= Date.now();
      }
    }
    const key = `${name}\n${domain}\n${path}`;
    this.jar.delete(key);
    if (expired || this.jar.size >= MAX_COOKIES) return;
    this.jar.set(key, { name, value, domain, hostOnly, path, secure });
  }
}

/** RFC 6265 §5.1.4: the request path up to its last "/", or "/". */
function defaultPath(pathname: string): string {
  const last = pathname.lastIndexOf('/');
  return last <= 0 ? '/' : pathname.slice(0, last);
}

/** RFC 6265 §5.1.4's path-match. */
function pathMatches(requestPath: string, cookiePath: string): boolean {
  if (requestPath === cookiePath) return true;
  if (!requestPath.startsWith(cookiePath)) return false;
  return cookiePath.endsWith('/') || requestPath[cookiePath.length] === '/';
}
