/** The longest URL Sift accepts, as the fetch pipeline does (SPEC §5.1). */
export const MAX_URL_LENGTH = 8192;

export type UrlCheck = { ok: true; url: string } | { ok: false; reason: string };

const SCHEME = /^([a-z][a-z0-9+.-]*):/i;
// "example.com/page", "www.example.org", "example.com:8080/x", "localhost:3000": a host
// with no scheme. Needs a dot (or is localhost) so that "mailto:" and "place:" stay schemes.
const BARE_HOST = /^(?:[^\s/:?#@]+\.[^\s/:?#@.]+|localhost)(?::\d{1,5})?(?:[/?#]|$)/i;

/** Cuts user input for a message so one bad 10 MB line cannot flood a report. */
export function clip(s: string, max = 200): string {
  return s.length <= max ? s : `${s.slice(0, max - 1)}…`;
}

/**
 * `text` with the password of any URL in it written as ***: a refused line is shown back in
 * `sift parse`, `sift batch`'s problems and the app's list check, where a password typed into a
 * URL was printed in full (a terminal's scrollback, a CI log). The user name stays, to say which.
 */
export const hidePasswords = (text: string): string => text.replace(/(\/\/[^\s/?#@:]*):[^\s/?#@]*@/g, '$1:***@');

// A URL set off as prose and mail set it off: <https://…> (RFC 3986, appendix C), in quotes or
// in parentheses; and as code writes an array's elements, quoted with a comma or semicolon
// after it ("https://…",), which a list copied out of a program or a config file keeps.
const WRAPPED = /^(?:<(?:URL:)?([^<>]*)>|"([^"]*)"[,;]?|'([^']*)'[,;]?|“([^“”]*)”|‘([^‘’]*)’|\((.*)\))$/i;

/** What is inside a pair of angle brackets, quotes or parentheses around the whole URL; else the URL itself. */
const unwrap = (s: string): string => {
  const m = WRAPPED.exec(s);
  return m ? (m[1] ?? m[2] ?? m[3] ?? m[4] ?? m[5] ?? m[6] ?? '').trim() : s;
};

/** A hash router's first page: what it shows for the URL without a fragment. */
const ROOT_ROUTES = new Set(['#/', '#!', '#!/']);

/**
 * Whether a fragment (with or without its `#`) is a single-page app's route rather than a
 * place in the page: `#/reports/1` and hashbang `#!/item/2` (`#!item`) are read by the app's
 * router, which shows a different page for each; `#section` and `#top` only scroll.
 */
export function isRouteFragment(hash: string): boolean {
  const c = hash.charCodeAt(hash.charCodeAt(0) === 35 /* # */ ? 1 : 0);
  return c === 47 /* / */ || c === 33 /* ! */;
}

/**
 * The single-page app's route a target names (`#/reports/1`, `#!/item/2`), or '' for none
 * or a plain anchor. HTTP never carries a fragment, so a static fetch cannot ask for it; the
 * rendered page is loaded with it, for the app's router to show that page, and an export
 * names the route's file after it.
 */
export function routeOf(raw: string): string {
  try {
    const { hash } = new URL(raw.trim());
    return isRouteFragment(hash) ? hash : '';
  } catch {
    return '';
  }
}

// scheme://[userinfo@]host[:port]: WHATWG URL refuses a URL of this shape only for its host or its port.
const AUTHORITY = /^[a-z][a-z0-9+.-]*:\/\/(?:[^/?#@]*@)?(\[[^\]/?#]*\]?|[^/?#:]*)(?::([^/?#]*))?/i;

/**
 * Why `new URL` refused a URL that has a scheme and `//`, in words: its port or its host
 * ("port 99999 is over 65535"); undefined when it has no such shape.
 */
export function unparsableWhy(s: string): string | undefined {
  const m = AUTHORITY.exec(s);
  if (!m) return undefined;
  const [, host = '', port] = m;
  if (port && !/^\d+$/.test(port)) return `the port "${clip(port, 20)}" is not a number`;
  if (port && Number(port) > 65535) return `port ${clip(port, 20)} is over 65535`;
  if (host === '') return 'no host';
  return `"${clip(host, 60)}" is not a host name or address`;
}

const BROWSER_PAGE = "a page of the browser's own, which only the browser opens";
/**
 * What an entry of a scheme Sift does not fetch is, in words: a bookmarks export holds
 * bookmarklets, a browser's own pages and saved searches beside its pages, and "not an http(s)
 * URL" alone left the user to wonder whether Sift had misread them.
 */
const SCHEME_WHY: Record<string, string> = {
  javascript: 'a bookmarklet: a script the browser runs on the page open in it, not a page to fetch',
  data: 'its content is written in the URL itself: there is no page to fetch',
  mailto: 'an e-mail address, not a web page',
  tel: 'a phone number, not a web page',
  file: 'a file on a computer, not a web address',
  place: "a browser's saved search or smart folder, not a page",
  about: BROWSER_PAGE,
  chrome: BROWSER_PAGE,
  edge: BROWSER_PAGE,
  brave: BROWSER_PAGE,
  opera: BROWSER_PAGE,
  vivaldi: BROWSER_PAGE,
  'chrome-extension': BROWSER_PAGE,
  'moz-extension': BROWSER_PAGE,
  'view-source': BROWSER_PAGE,
  feed: 'a feed link: write it with https:// or http:// in place of feed:',
  ftp: 'Sift fetches http and https only',
};

/**
 * Checks one URL as a list gives it and returns the normalised form or why it is refused.
 *
 * A bare domain ("example.com/page") is refused, not guessed as https: the list would
 * otherwise fetch a host the user never spelled out, and the reason names the fix.
 */
export function checkUrl(raw: string): UrlCheck {
  const s = unwrap(raw.trim());
  if (!s) return { ok: false, reason: 'empty URL' };
  if (s.length > MAX_URL_LENGTH) {
    return { ok: false, reason: `URL longer than 8 KiB (${s.length} characters)` };
  }
  if (s.startsWith('//')) {
    return { ok: false, reason: `missing scheme: did you mean https:${clip(s, 120)}?` };
  }
  if (BARE_HOST.test(s) && !/^https?:/i.test(s)) {
    const guess = `https://${s}`;
    return { ok: false, reason: `missing scheme: did you mean ${clip(guess, 120)}?` };
  }
  const scheme = SCHEME.exec(s)?.[1]?.toLowerCase();
  if (scheme === undefined) {
    return { ok: false, reason: s.startsWith('/') || s.startsWith('.') ? 'relative URL: needs https://host/…' : 'not a URL' };
  }
  if (scheme !== 'http' && scheme !== 'https') {
    const why = Object.hasOwn(SCHEME_WHY, scheme) ? SCHEME_WHY[scheme] : undefined;
    return { ok: false, reason: `not an http(s) URL: ${clip(s, 100)}${why ? ` (${why})` : ''}` };
  }
  let u: URL;
  try {
    u = new URL(s);
  } catch {
    const why = unparsableWhy(s);
    return { ok: false, reason: why ? `not a valid URL: ${why}` : 'not a valid URL' };
  }
  if (!u.hostname) return { ok: false, reason: 'not a valid URL: no host' };
  // The fetch refuses them (SPEC §5.1), so the list does: taken, such a URL failed only when
  // its turn came, and meanwhile its password sat in the database, the progress lines and
  // every export of the job.
  if (u.username || u.password) return { ok: false, reason: 'credentials in the URL are not supported: remove the user:password@ part' };
  // The fragment never reaches the server, so two URLs that differ only by an anchor
  // (#section) are one page. A route (#/reports/1, #!/item/2) is kept: a single-page app
  // shows a different page for each, once rendered. The root route (#/, #!, #!/) is the page
  // the app shows with no fragment at all, so it is dropped too. Setting hash re-serialises
  // the whole URL, so only when there is a fragment to drop.
  if (u.hash === '' ? s.includes('#') : !isRouteFragment(u.hash) || ROOT_ROUTES.has(u.hash)) u.hash = '';
  // "?a=1&amp;b=2": an & escaped for HTML and pasted or exported as is (a Pocket export has
  // such URLs). Left so, the server would see a parameter named "amp;b"; a route's own query
  // (#/search?q=a&amp;page=2) would reach the app's router so.
  if (/&amp;/i.test(u.search)) u.search = u.search.replace(/&amp;/gi, '&');
  if (/&amp;/i.test(u.hash)) u.hash = u.hash.replace(/&amp;/gi, '&');
  const out = u.href;
  // Percent-encoding and punycode can grow a URL that was under the cap when typed.
  if (out.length > MAX_URL_LENGTH) {
    return { ok: false, reason: `URL longer than 8 KiB once encoded (${out.length} characters)` };
  }
  return { ok: true, url: out };
}

/**
 * The URL as Sift stores and compares it: http(s) only, absolute, at most 8 KiB, scheme
 * and host lowercased, default port dropped, IDN hosts in punycode (all of that is WHATWG
 * URL's serialisation), a #fragment dropped unless it is a route (isRouteFragment). null
 * when the URL is not one Sift fetches.
 */
export function normalizeUrl(raw: string): string | null {
  const r = checkUrl(raw);
  return r.ok ? r.url : null;
}

/** The last segment of a URL's path, decoded ("prices 2024.csv"); '' when it names no file or is no URL. */
export function fileNameOfUrl(url: string): string {
  let last: string;
  try {
    const path = new URL(url).pathname;
    last = path.slice(path.lastIndexOf('/') + 1);
  } catch {
    return '';
  }
  try {
    return decodeURIComponent(last);
  } catch {
    return last;
  }
}

/** The host of a URL, for a job's default label; the URL's start when it does not parse. */
export function hostLabel(url: string): string {
  try {
    return new URL(url).host || url.slice(0, 60);
  } catch {
    return url.slice(0, 60);
  }
}
