import { FetchError } from './errors';
import { unparsableWhy } from '../../shared/urllist/url';

/** 8 KiB: longer URLs are almost always pasted data, and many servers refuse them (414). */
export const MAX_URL_BYTES = 8192;

const HINT = 'Use an absolute http:// or https:// address, such as https://example.org/page.';

/** Parses a target URL or throws 400 with a hint (SPEC §5.1). */
export function validateUrl(raw: string): URL {
  if (typeof raw !== 'string' || raw.trim() === '') throw new FetchError(400, 'invalid URL: empty', HINT, 'bad_url');
  if (Buffer.byteLength(raw) > MAX_URL_BYTES) {
    throw new FetchError(400, `invalid URL: longer than ${MAX_URL_BYTES} bytes`, 'Shorten the URL; a URL this long is usually pasted data.', 'bad_url');
  }
  let u: URL;
  try {
    u = new URL(raw.trim());
  } catch {
    throw new FetchError(400, `invalid URL: ${unparsableWhy(raw.trim()) ?? 'not an absolute URL'}`, HINT, 'bad_url');
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') {
    throw new FetchError(400, `invalid URL: scheme ${u.protocol.replace(/:$/, '')} is not supported`, HINT, 'bad_url');
  }
  if (!u.hostname) throw new FetchError(400, 'invalid URL: no host', HINT, 'bad_url');
  if (u.username || u.password) {
    throw new FetchError(400, 'invalid URL: credentials in the URL are not supported', 'Remove the user:password@ part.', 'bad_url');
  }
  u.hash = '';
  return u;
}

/** url with the route as its fragment (url's own, if any, replaced); url itself for no route. */
export function withRoute(url: string, route: string): string {
  if (!route) return url;
  const u = new URL(url);
  u.hash = route;
  return u.href;
}

/** The host of `url` without a leading www., as a page names its own site; undefined for no URL. */
export function siteHost(url: string): string | undefined {
  try {
    return new URL(url).hostname.replace(/^www\./, '');
  } catch {
    return undefined;
  }
}
