/** Small formatters shared by the views; pure, so the unit tests pin them down. */

import { readableUrl } from '../../../shared/readable-url';
import { cutMiddle } from '../../../shared/cut';
import type { Remaining } from '../../../shared/remaining';

/**
 * A headline as a sentence: its first word capitalized when it is a plain lower-case word. The
 * core's messages are the CLI's ("cannot write to …", after "sift: "); a first word that is a
 * name or an address ("jq:", "image/png", "http://…") is left as it is written.
 */
export function sentenceStart(text: string): string {
  return /^\p{Ll}+(?:\s|$)/u.test(text) ? text.charAt(0).toUpperCase() + text.slice(1) : text;
}

export function formatDuration(ms: number): string {
  if (!Number.isFinite(ms) || ms < 0) return '—';
  const s = Math.round(ms / 1000);
  if (s < 60) return `${s}s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m}m ${String(s % 60).padStart(2, '0')}s`;
  const h = Math.floor(m / 60);
  return `${h}h ${String(m % 60).padStart(2, '0')}m`;
}

/**
 * "14:02" today, "3 Mar 14:02" before, as the user's locale writes a short time: a forced
 * 2-digit hour read "05:02 PM" in a 12-hour locale. `seconds`: "14:02:37", for the job list, where
 * two runs of one list started within a minute read alike.
 */
export function formatCreated(ms: number, now = Date.now(), locale?: string, o: { seconds?: boolean } = {}): string {
  const d = new Date(ms);
  const time = d.toLocaleTimeString(locale, { timeStyle: o.seconds ? 'medium' : 'short' });
  const today = new Date(now);
  if (d.toDateString() === today.toDateString()) return time;
  return `${d.toLocaleDateString(locale, { day: 'numeric', month: 'short' })} ${time}`;
}

/**
 * The header's "Remaining" from estimateRemaining (shared/remaining.ts). Under a second left
 * reads as "a few seconds": with 7 targets left and one in flight, "about 0s" said the job was
 * as good as done. A slow URL in flight is said with how long it has taken: what is left after
 * it is a floor ("over"), and when nothing is left after it, unknown.
 */
export function formatRemaining(r: Remaining | null): string {
  if (r === null) return 'estimating…';
  if (r.slowMs !== undefined) return `${r.ms < 1000 ? 'unknown' : `over ${formatDuration(r.ms)}`}: one URL has taken ${formatDuration(r.slowMs)} so far`;
  return r.ms < 1000 ? 'a few seconds' : `about ${formatDuration(r.ms)}`;
}

/**
 * An address as the app shows it: host and path (and query), without the scheme or fragment,
 * in its own letters. "http://" was 7 of the 30 or so characters a narrow pane has, and said
 * nothing that tells one page from another; the tooltip and a copy (copyWholeAddress) keep it.
 */
export function bareAddress(url: string): string {
  try {
    const u = new URL(url);
    const root = u.pathname === '/' && !u.search;
    u.hash = '';
    // As the address bar shows it (shared/readable-url.ts): 例え.jp/パス, not xn--r8jz45g.jp/%E3%83%91%E3%82%B9.
    const text = readableUrl(u.href).replace(/^[a-z]+:\/\//, '');
    return root ? text.replace(/\/$/, '') : text;
  } catch {
    return url;
  }
}

// The path's characters kept beside a whole host at least: fewer, and "127.0.0.1:36899/a…l" named no page.
const PATH_MIN = 8;

/**
 * A bareAddress in at most `max` UTF-16 units: its host whole and its path cut in its middle,
 * while the host leaves PATH_MIN of them; else cut in its middle whole. Cut evenly, the 800 px
 * preview read "127.0.0.1:3689…of-accounts-final", the host's last digit, which tells two local
 * sites apart, gone for a letter more of the path.
 */
export function cutAddress(bare: string, max: number): string {
  if (bare.length <= max) return bare;
  const slash = bare.indexOf('/');
  if (slash > 0 && max - slash >= PATH_MIN) return `${bare.slice(0, slash)}${cutMiddle(bare.slice(slash), max - slash)}`;
  return cutMiddle(bare, max);
}

/**
 * What tells targets of one list apart: bareAddress shortened in the middle, so both the
 * host and the end of the path stay in view.
 */
export function shortUrl(url: string, max = 64): string {
  return cutMiddle(bareAddress(url), max);
}

/**
 * A meta value as a reader wants it: scalars as they are, a list as its items, an object
 * (meta.pdf's counts, say) as "key: value" pairs, not as raw JSON.
 */
export function metaValue(v: unknown): string {
  if (v === null || v === undefined) return '—';
  if (typeof v === 'string') return v.trim() === '' ? '—' : v;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  if (Array.isArray(v)) return v.length ? v.map(metaValue).join(', ') : '—';
  if (typeof v === 'object') {
    const entries = Object.entries(v as Record<string, unknown>);
    return entries.length ? entries.map(([k, x]) => `${k}: ${typeof x === 'object' && x !== null ? JSON.stringify(x) : metaValue(x)}`).join(', ') : '—';
  }
  return String(v);
}
