/** Small formatters shared by the views; pure, so the unit tests pin them down. */

import { readableUrl } from '../../../shared/readable-url';
import { cutEnd, cutMiddle, isLowSurrogate } from '../../../shared/cut';
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
// A last part shorter than this ("3", "en", "p2") names no page without the part before it: kept
// alone, the 1280 px table read "127.0.0.1:40221/mis…g/3" for "/missing/3".
const SHORT_PART = 4;

/**
 * A bareAddress in at most `max` UTF-16 units. Its path's end, the last part ("/fetch.html") or,
 * that part short, the last two ("/missing/3"), tells the pages of one site apart, its host:port
 * the sites: both whole where they fit; else the end whole after the host cut before its port
 * ("127.0.0.1…/missing/3"); else the same with the last part alone; else, the last part too long
 * to keep, the host whole and the path cut in its middle, while the host leaves PATH_MIN of them;
 * else cut in its middle whole, never within its port; either cut between the last part's pieces
 * instead where that shows no less of it. Cut evenly, the 800 px preview read
 * "127.0.0.1:3689…of-accounts-final", the host's last digit, which tells two local sites apart,
 * gone for a letter more of the path.
 */
export function cutAddress(bare: string, max: number): string {
  if (bare.length <= max) return bare;
  const slash = bare.indexOf('/');
  const hostEnd = slash < 0 ? bare.length : slash;
  const path = bare.slice(hostEnd);
  const colon = /:\d+$/.exec(bare.slice(0, hostEnd))?.index;
  const last = path.length - path.lastIndexOf('/');
  const before = last < path.length ? path.lastIndexOf('/', path.length - last - 1) : -1;
  const ends = last - 1 < SHORT_PART && before >= 0 ? [path.length - before, last] : [last];
  for (const end of ends) {
    const cut = slash > 0 ? cutKeepingEnd(bare, max, slash, colon, end) : undefined;
    if (cut !== undefined) return cut;
  }
  const middle = (room: number): string => (slash > 0 && room - slash >= PATH_MIN ? `${bare.slice(0, slash)}${cutMiddle(path, room - slash)}` : cutOutsidePort(bare, room, hostEnd, colon));
  if (slash <= 0) return middle(max);
  // Between the last part's pieces: "/blo…d-1" was half a word on each side of its cut. After
  // host:port while the host leaves PATH_MIN, as the middle cut; after the host cut before its
  // port where that leaves no room for the last piece ("127.0.0.2…that-moved-1", 23 units).
  const piece = lastPieceLength(path);
  const withPort = max - slash >= PATH_MIN ? cutAtPieces(path, max - slash, piece, true) : undefined;
  const withoutPort = withPort === undefined && colon !== undefined ? cutAtPieces(path, max - colon, piece, false) : undefined;
  const cut = withPort !== undefined ? `${bare.slice(0, slash)}${withPort}` : withoutPort !== undefined ? `${bare.slice(0, colon)}${withoutPort}` : undefined;
  if (cut === undefined) return middle(max);
  // Only where it shows no less of the page's name than the middle cut in any room from its own
  // length to `max`, as fitText takes the longest that fits: "127.0.0.1…page" (14 units) was
  // less than "127.0.0.1…lenge-page" (20) in the 22 a column gave.
  const partStart = hostEnd + path.lastIndexOf('/') + 1;
  const shown = partShown(bare, cut, partStart);
  for (let room = cut.length; room <= max; room++) if (partShown(bare, middle(room), partStart) > shown) return middle(max);
  return cut;
}

// What splits an address into pieces a reader knows: its parts, and a last part's words ("a-post-that-moved-1", "county_archive.html").
const PIECE_END = /[-_.]/;
const READ_END = /[-_./:?=&]/;

/**
 * How many units from `partStart` on (the last part's, in `bare`) `cut` shows that a reader can
 * read: all but a word cut by its "…", whose letters ("d" in "127.0.0.2:37857/blo…d-1") name nothing.
 */
function partShown(bare: string, cut: string, partStart: number): number {
  const at = cut.indexOf('…');
  if (at < 0) return bare.length - partStart;
  let head = at;
  if (!READ_END.test(bare.charAt(head))) while (head > 0 && !READ_END.test(cut.charAt(head - 1))) head--;
  let from = bare.length - (cut.length - at - 1);
  if (from > 0 && !READ_END.test(bare.charAt(from - 1))) while (from < bare.length && !READ_END.test(bare.charAt(from))) from++;
  return Math.max(0, head - partStart) + bare.length - Math.max(from, partStart);
}

/**
 * How many of `path`'s last units name its page: its last piece, with the one before it where
 * that is shorter than SHORT_PART ("moved-1") or a file's type ("annual.html": "…/…html" named
 * no page in the 1024 px table).
 */
function lastPieceLength(path: string): number {
  const part = path.slice(path.lastIndexOf('/') + 1);
  let from = part.length;
  for (let pieces = 0; pieces < 2 && from > 0; pieces++) {
    from--;
    while (from > 0 && !PIECE_END.test(part.charAt(from - 1))) from--;
    if (pieces === 0 && from > 0 && part.charAt(from - 1) === '.') {
      from--;
      continue;
    }
    if (part.length - from >= SHORT_PART) break;
    if (from > 0) from--;
  }
  return part.length - Math.max(0, from);
}

/**
 * `path` in at most `room` units, cut between whole pieces: the most of its last part's end that
 * fits (`piece` units at least), and before it, `withHead`, the longest start that ends where a
 * piece does ("/" at least); without, none, as after a host cut before its port, whose path
 * never begins beside it. Undefined where they do not fit.
 */
function cutAtPieces(path: string, room: number, piece: number, withHead: boolean): string | undefined {
  const minHead = withHead ? 1 : 0;
  const partStart = path.lastIndexOf('/') + 1;
  let tailStart = path.length - piece;
  if (tailStart < partStart || path.length - tailStart + 1 + minHead > room) return undefined;
  for (let at = tailStart - 2; at >= partStart - 1; at--) {
    if (at >= partStart && !PIECE_END.test(path.charAt(at))) continue;
    if (path.length - at + minHead > room) break;
    tailStart = at + 1;
  }
  let headEnd = minHead;
  if (withHead) for (let at = 1; at < tailStart && at + 1 + path.length - tailStart <= room; at++) if (path.charAt(at) === '/' || PIECE_END.test(path.charAt(at))) headEnd = at;
  return `${path.slice(0, headEnd)}…${path.slice(tailStart)}`;
}

/** cutAddress with the path's last `end` units whole: after host:port, else after the host cut before its port; undefined where neither fits. */
function cutKeepingEnd(bare: string, max: number, slash: number, colon: number | undefined, end: number): string | undefined {
  const path = bare.slice(slash);
  if (max - slash >= end + 2) {
    // As cutMiddle, its end no shorter than the part kept: "127.0.0.1:35709/pag…tml" in each row of a job read as one page.
    const tail = Math.max(end, Math.floor((max - slash - 1) / 2));
    const headEnd = max - slash - 1 - tail;
    const tailStart = path.length - tail;
    // Neither side keeps half of a surrogate pair (cutMiddle's rule): shown, it is "�".
    return `${bare.slice(0, slash)}${path.slice(0, isLowSurrogate(path.charCodeAt(headEnd)) ? headEnd - 1 : headEnd)}…${path.slice(isLowSurrogate(path.charCodeAt(tailStart)) ? tailStart + 1 : tailStart)}`;
  }
  if (colon === undefined || colon + 1 + end > max) return undefined;
  // The most whole parts of the path's end that fit: "age/fetch.html" began mid-word.
  let from = path.length - end;
  for (let at = path.lastIndexOf('/', from - 1); at >= 0 && at < from && colon + 1 + path.length - at <= max; at = at > 0 ? path.lastIndexOf('/', at - 1) : -1) from = at;
  return `${bare.slice(0, colon)}…${path.slice(from)}`;
}

/**
 * cutMiddle, its cut moved out of the port (at `colon`, cutAddress's; undefined: none): a job's rows, each fitted to its own number of
 * characters, read "127.0.0.1:39…/fetch.html" and "127.0.0.1:39…7/next.html", two ports of one
 * site that name none. The host is cut before its colon instead, the same "127.0.0.1" in each
 * row for 18 to 22 characters, and the path's end starts after the port.
 */
function cutOutsidePort(bare: string, max: number, hostEnd: number, colon: number | undefined): string {
  const cut = cutMiddle(bare, max);
  if (colon === undefined) return cut;
  const at = cut.indexOf('…');
  let head = cut.slice(0, at);
  let tail = cut.slice(at + 1);
  if (head.length > colon && head.length < hostEnd) head = head.slice(0, colon);
  // A tail from the colon on holds the port whole; one from after it, its last digits only.
  const tailStart = bare.length - tail.length;
  if (tailStart > colon && tailStart < hostEnd) tail = bare.slice(hostEnd);
  return `${head}…${tail}`;
}

// What may end the start kept before its "…": "Harbour, Board,…" read as a list cut short.
const TRAILING_MARKS = /[\s,;:–—-]+$/u;

/**
 * A title in at most `max` UTF-16 units: its start, cut after a whole word ("The Lighthouse
 * Keepers…"), or within one where the words before it leave less than half the room (a title is
 * read from its start; cut in its middle, the 1280 px table read "The Lightho…nnoch Point").
 * `shared`: how many of its first units the rows beside it share. Where the start kept is no more
 * than that, the end tells the rows apart and is kept too: one site's reports, titled by their
 * paths, each read "Harbour report…".
 */
export function cutTitleAtWord(title: string, max: number, shared = 0): string {
  if (title.length <= max) return title;
  const room = Math.max(0, cutEnd(title, max));
  const space = title.lastIndexOf(' ', room);
  const head = (space >= room / 2 ? title.slice(0, space) : title.slice(0, room)).replace(TRAILING_MARKS, '');
  // Titles alike to their end (a site's every page titled by its name) have no end of their own.
  return head.length > shared || shared >= title.length ? `${head}…` : cutMiddle(title, max);
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
