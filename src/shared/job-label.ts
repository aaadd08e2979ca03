import { REASON_LABELS, type Reason } from './reasons';
import type { Options, Target } from './types';
import { hostLabel } from './urllist/url';
import { cutAtEnd, cutEnd, cutMiddle, isLowSurrogate } from './cut';
import { decodePercent, readableHost } from './readable-url';

/** The most a job's label holds (the submit contract's MAX_LABEL, the runner's cut). */
const MAX_LABEL = 200;
// An option's value in a label: enough to tell "grep revenue" from "grep cost" in the
// 250 px job list, which shows about 35 characters of a name.
const MAX_VALUE = 40;


// A stored URL is normalised (scheme and host lowercased), so its host is what follows "//"
// up to the path; a regex, as a 100,000-target list was 100,000 URL parses in the submit.
const HOST_AND_PATH = /^[a-z][a-z0-9+.-]*:\/\/(?:[^/?#@]*@)?([^/?#]*)(\/[^?#]*)?/i;

function hostAndFolder(url: string): { host: string; folder: string } {
  const m = HOST_AND_PATH.exec(url);
  if (!m?.[1]) return { host: hostLabel(url), folder: '' };
  const path = m[2] ?? '';
  // The first segment counts as a folder only when a segment follows it: "/docs/a", not "/a".
  const folder = /^\/([^/]+)\//.exec(path)?.[1] ?? '';
  return { host: m[1], folder };
}

/** The list's hosts, most common first: one host with the folder every URL shares, else the first two and how many more. */
function hostsWords(targets: readonly Target[]): string {
  const counts = new Map<string, number>();
  const folders = new Set<string>();
  for (const t of targets) {
    const { host, folder } = hostAndFolder(t.url);
    counts.set(host, (counts.get(host) ?? 0) + 1);
    folders.add(folder);
  }
  // Stable: hosts as often as each other keep the list's order. In their own letters, as the
  // rows show them: "127.0.0.1:4000/%D8%AA%D9%82…" named a list of Arabic pages.
  const hosts = [...counts.entries()].sort((a, b) => b[1] - a[1]).map(([h]) => readableHost(h));
  const folder = folders.size === 1 ? decodePercent([...folders][0]!) : '';
  if (hosts.length === 1) return folder ? `${hosts[0]}/${folder}` : hosts[0]!;
  const others = hosts.length - 2;
  const first = hosts.slice(0, 2).join(', ');
  return others > 0 ? `${first} and ${others} other ${others === 1 ? 'host' : 'hosts'}` : first;
}

// listLabel's mark between the hosts and what is asked of them.
const HOSTS_END = ' · ';

// What is asked, in the fewest characters that say it: "grep “Ha" tells a grep from a mode.
const ASKED_SHOWN = 8;

// What a run again's name starts with (rerunLabel), once for each time it was run again.
const RERUN_PREFIXES = { unfinished: 'rest of ', failed: 'retry of ', all: 'again: ' };
const LEADING_RERUNS = /^(?:(?:rest of|retry of|again:) )+/;

/**
 * A job's name in at most `max` UTF-16 units, for the job list and the header (fitText tries each length): its
 * hosts kept whole and what is asked cut at its end, while one character of it fits; else the
 * hosts cut in their middle, after "rest of" whole. Cut in its middle whole, "rest of
 * docs.example.org/guide · options per URL" read "rest of … per URL" in the list's 16 or so
 * characters at 1024 px: the host, what tells one job from another, was what went.
 */
export function cutLabel(label: string, max: number, others: readonly string[] = []): string {
  if (label.length <= max) return label;
  const end = label.indexOf(HOSTS_END);
  // `others`: the names of the other jobs (namesAskedApart); one of the same list that asks
  // something else is told from this one by what is asked. With the name kept whole first,
  // "links.txt · grep “Harbour”" read "links.txt…" beside "links.txt" in the 800 px job list's
  // 10 characters.
  const list = end >= 0 ? label.slice(0, end) : label;
  const apart = others.filter((o) => o !== label && listPart(o) === list).map((o) => o.slice(list.length + HOSTS_END.length));
  if (end >= 0 && apart.length > 0 && max >= 3) {
    const asked = label.slice(end + HOSTS_END.length);
    if (max < end + HOSTS_END.length + Math.min(asked.length, ASKED_SHOWN)) return `…${askedApart(asked, apart, max - 1)}`;
  }
  // " · " and a character before the "…".
  if (end >= 0 && max >= end + HOSTS_END.length + 2) return cutAtEnd(label, max);
  if (end >= 0 && max > end) return `${label.slice(0, end)}…`;
  const hosts = end >= 0 ? label.slice(0, end) : label;
  const prefix = LEADING_RERUNS.exec(hosts)?.[0] ?? '';
  // Four of the hosts' characters on each side of the "…" at least, else the prefix is cut too.
  if (max - prefix.length >= 9) return `${prefix}${cutHosts(hosts.slice(prefix.length), max - prefix.length)}`;
  const lone = loneHost(hosts.slice(prefix.length));
  if (lone !== undefined) return cutHostAtEnd(`${prefix}${lone}`, max);
  const several = prefix ? undefined : severalHosts(hosts);
  return several ? cutSeveralHosts(several, max) : cutMiddle(hosts, max);
}

// A lone host and its port ("127.0.0.1:43403", "[::1]:8080"): a file's name has no ":digits" end.
const HOST_PORT = /^([^\s/,:]+|\[[^\]\s]+\]):\d+$/;

/** The host of a lone host:port; undefined for anything else (a file's name, a host and its folder). */
export function hostWithoutPort(hosts: string): string | undefined {
  return HOST_PORT.exec(hosts)?.[1];
}

// An address's host written as one, which no file's name is: "127.0.0.1", "[::1]".
const IP_LITERAL = /^(?:\d{1,3}(?:\.\d{1,3}){3}|\[[^\]\s]+\])$/;

/**
 * The host of a lone host:port, or a lone IP address without one (its port dropped by the app's
 * shownLabel): cut as the one with a port is, the 900 px job list read "rest …0.0.1" for "rest of
 * 127.0.0.1" (cut in its middle) and "rest of 12…" for "rest of 127.0.0.1:34519".
 */
function loneHost(hosts: string): string | undefined {
  return hostWithoutPort(hosts) ?? (IP_LITERAL.test(hosts) ? hosts : undefined);
}

/**
 * The host:ports a job is named by, a lone one or the first two of several ("127.0.0.1:43645,
 * 127.0.0.2:37857 and 1 other host · text"), and its name without their ports (the name itself
 * where, without them, it would no longer read as hosts); undefined for any other name (a
 * file's, a host and its folder, a named host without a port).
 */
export function namedHosts(label: string): { hosts: string[]; withoutPorts: string } | undefined {
  const end = label.indexOf(HOSTS_END);
  const list = end >= 0 ? label.slice(0, end) : label;
  const asked = end >= 0 ? label.slice(end) : '';
  const prefix = LEADING_RERUNS.exec(list)?.[0] ?? '';
  const hosts = list.slice(prefix.length);
  const lone = hostWithoutPort(hosts);
  if (lone !== undefined) return { hosts: [hosts], withoutPorts: `${prefix}${lone}${asked}` };
  const several = severalHosts(hosts);
  const bare = several?.names.map(hostWithoutPort);
  if (!several || !bare?.every((h) => h !== undefined)) return undefined;
  const others = hosts.slice(several.names.join(', ').length);
  const without = `${bare.join(', ')}${others}`;
  return { hosts: several.names, withoutPorts: severalHosts(without) ? `${prefix}${without}${asked}` : label };
}

/**
 * What is asked in `room` units, from where it differs from the most like of `others`: cut at
 * its end, "text, grep “Harbour”" and the same with ", context" both read "text, grep…" in the
 * 800 px list. What ends where another goes on shows its end ("…“Harbour”" beside "…context").
 */
function askedApart(asked: string, others: readonly string[], room: number): string {
  if (asked.length <= room) return asked;
  const at = Math.max(...others.map((o) => sharedStart(asked, o)));
  if (at >= asked.length) {
    const from = asked.length - room;
    return asked.slice(isLowSurrogate(asked.charCodeAt(from)) ? from + 1 : from).replace(/^[\s,]+/, '');
  }
  // From the start of the word that differs, after any comma or space before it.
  let from = at;
  while (from > 0 && /[\p{L}\p{N}]/u.test(asked.charAt(from - 1))) from--;
  while (from < at && /[\s,]/.test(asked.charAt(from))) from++;
  const rest = from === 0 ? asked : asked.slice(from).replace(/^[\s,]+/, '');
  return cutAtEnd(rest, room);
}

/** How many of their first UTF-16 units `a` and `b` share. */
function sharedStart(a: string, b: string): number {
  let i = 0;
  while (i < a.length && i < b.length && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  return i;
}

// A host's start kept before its whole folder: "docs…/guide" says which site, in 4 characters.
const HOST_START = 4;
// A folder cut in its middle keeps 2 characters on each side of its "…" at least.
const FOLDER_MIN = 5;

/**
 * A list's hosts ("127.0.0.1:41234/quarterly-minutes") in at most `max` units: the folder, what
 * tells the lists of one site apart, whole while the host's first characters fit before it;
 * else the folder alone after "…/", cut in its middle. Cut in the middle of host and folder
 * together, "…/quarterly-minutes" and "…/annual-board-meeting-minutes" both read
 * "127.0.0.…-minutes" in the job list's 17 characters at 1024 px; with the host's start kept
 * too, "127.…/annu…utes" had 4 of the folder's letters on each side.
 */
function cutHosts(hosts: string, max: number): string {
  if (hosts.length <= max) return hosts;
  const several = severalHosts(hosts);
  if (several) return cutSeveralHosts(several, max);
  const slash = hosts.indexOf('/');
  // Its port first, then its end: cut in its middle, a lone loopback host read "127.0…3403" in the
  // 800 px job list's 10 characters, digits of an address beside digits of a port.
  const lone = loneHost(hosts);
  if (lone !== undefined) return cutHostAtEnd(lone, max);
  if (slash <= 0) return cutMiddle(hosts, max);
  // "www." tells no site from another, and took the host's few characters.
  const host = hosts.slice(0, slash).replace(/^www\./, '');
  const folder = hosts.slice(slash + 1);
  const hostRoom = max - folder.length - 2;
  if (hostRoom >= HOST_START) return `${host.slice(0, Math.min(host.length, cutEnd(host, hostRoom + 1)))}…/${folder}`;
  return max - 2 >= FOLDER_MIN ? `…/${cutFolder(folder, max - 2)}` : cutMiddle(hosts, max);
}

// hostsWords' "a.org, b.org" or "a.org, b.org and 3 other hosts". Each a host by its look (a dot
// or a port, no space), so a file named "Smith, Jones notes.txt" is cut as a name.
const SEVERAL_HOSTS = /^([^\s,/]+), ([^\s,/]+)(?: and (\d+) other hosts?)?$/;
const HOST_LIKE = /[.:]/;

function severalHosts(hosts: string): { names: string[]; count: number } | undefined {
  const m = SEVERAL_HOSTS.exec(hosts);
  if (!m || !HOST_LIKE.test(m[1]!) || !HOST_LIKE.test(m[2]!)) return undefined;
  return { names: [m[1]!, m[2]!], count: 2 + Number(m[3] ?? 0) };
}

// The first host's characters kept beside the count at least, "…" one of them ("127.0… +1");
// with less room the count goes, never the host for another's end.
const HOST_CUT_MIN = 6;

/**
 * Several hosts in at most `max` units: the first whole hosts that fit and how many others
 * ("a.org, b.org +3", "a.org +4"), else the first host's start ("docs.pyt… +1"). Cut in the
 * middle of them all, two loopback sites read "127.…1901" in the 800 px job list's 10
 * characters, one host's start beside the other's end; the first host cut in its middle,
 * "127…71 +1", digits that name no site.
 */
function cutSeveralHosts({ names, count }: { names: string[]; count: number }, max: number): string {
  const first = names[0]!.replace(/^www\./, '');
  if (count > 2 && `${names.join(', ')} +${count - 2}`.length <= max) return `${names.join(', ')} +${count - 2}`;
  const more = ` +${count - 1}`;
  if (first.length + more.length <= max) return `${first}${more}`;
  // Its port whole or left out: the 1280 px job list read "127.0.0.1:4… +1", a digit that names no port.
  const host = hostWithoutPort(first) ?? first;
  if (host.length + more.length <= max) return `${host}${more}`;
  return max - more.length >= HOST_CUT_MIN ? `${cutHostAtEnd(host, max - more.length)}${more}` : cutHostAtEnd(host, max);
}

/** A host cut at its end (cutAtEnd), no "." or ":" left before its "…": "127.0.… +1" in the 800 px job list read as an address broken off. */
function cutHostAtEnd(host: string, max: number): string {
  const cut = cutAtEnd(host, max);
  return cut === host ? cut : `${cut.slice(0, -1).replace(/[.:]+$/, '')}…`;
}

// How far the end kept may start before the middle's cut to begin at a word: a word's first
// letter or two was what a cut at 16 characters took ("…/annual-…inutes").
const WORD_SLACK = 2;

/**
 * `folder` cut in its middle, the end kept from a word's start when one is WORD_SLACK away and
 * the start kept gives up only the separator before it: "annual…minutes".
 */
function cutFolder(folder: string, max: number): string {
  const cut = cutMiddle(folder, max);
  if (cut === folder) return cut;
  const at = cut.lastIndexOf('…');
  const head = cut.slice(0, at);
  const tailStart = folder.length - (cut.length - at - 1);
  for (let back = 0; back <= WORD_SLACK; back++) {
    const start = tailStart - back;
    if (!/[-_ .]/.test(folder.charAt(start - 1))) continue;
    const headEnd = head.length - back;
    // Only where the start kept then ends at a word too: "annual-" gives its "-", "annual" no letter.
    if (back > 0 && !/[-_ .]/.test(folder.charAt(headEnd))) return cut;
    return `${head.slice(0, headEnd)}…${folder.slice(start)}`;
  }
  return cut;
}

/** What the options ask, in a few words; '' for the defaults (markdown, nothing else). */
export function optionsWords(o: Options | undefined): string {
  if (!o) return '';
  const words: string[] = [];
  if (o.mode && o.mode !== 'markdown') words.push(o.mode);
  if (o.pages) words.push(`pages ${cutAtEnd(o.pages, MAX_VALUE)}`);
  if (o.grep) words.push(`grep “${cutAtEnd(o.grep, MAX_VALUE)}”`);
  if (o.jq) words.push(`jq ${cutAtEnd(o.jq, MAX_VALUE)}`);
  if (o.question) words.push(`question “${cutAtEnd(o.question, MAX_VALUE)}”`);
  return words.join(', ');
}

/**
 * optionsWords and what else a job's name must say for two runs of one list to read apart: its
 * context, recovery and rendering ("--render always" and the default were one name twice). Not
 * in optionsWords: a target untitled is named by what it asks, and "render always" names no page.
 */
function askedWords(o: Options | undefined): string {
  const words = [optionsWords(o)];
  if (o?.context) words.push('context');
  if (o?.recover) words.push('recover');
  if (o?.render && o.render !== 'auto') words.push(`render ${o.render}`);
  return words.filter(Boolean).join(', ');
}

/** The options the whole list shares, or that they differ from URL to URL. */
function listOptionsWords(targets: readonly Target[]): string {
  const each = new Set(targets.map((t) => askedWords(t.options)));
  if (each.size > 1) return 'options per URL';
  return [...each][0] ?? '';
}

/**
 * A list's name when no file names it: its most common hosts and what is asked of it
 * ("example.org/docs · text, grep “revenue”"). The first URL's host alone named two runs of
 * similar lists, and every list on one host, alike ("127.0.0.1:39401 · 18 URLs" four times).
 */
export function listLabel(targets: readonly Target[]): string {
  if (targets.length === 0) return '';
  const options = listOptionsWords(targets);
  return cutAtEnd(options ? `${hostsWords(targets)} · ${options}` : hostsWords(targets), MAX_LABEL);
}

/** What a job's name says its list is ("links.txt", "example.org/docs"), before what is asked of it. */
export const listPart = (label: string): string => {
  const end = label.indexOf(HOSTS_END);
  return end >= 0 ? label.slice(0, end) : label;
};

/**
 * A job's name: the name its caller gave (a dropped file's), else listLabel's; either way with
 * what is asked of the list after it. Two runs of "links.txt", one with a grep, were both
 * "links.txt" in the job list and the header.
 */
export function jobLabel(name: string | undefined, targets: readonly Target[]): string {
  const given = (name ?? '').trim();
  if (!given) return listLabel(targets);
  const options = listOptionsWords(targets);
  // Half the label at most for the name, so a long file name leaves what is asked in view.
  return options ? cutAtEnd(`${cutAtEnd(given, MAX_LABEL / 2)}${HOSTS_END}${options}`, MAX_LABEL) : cutAtEnd(given, MAX_LABEL);
}

/**
 * The name of a job run again from `label`'s job: which of its targets it takes, first, so a
 * name cut short in the job list still says it. The new job had its source's name exactly.
 */
export function rerunLabel(label: string, which: 'unfinished' | 'failed' | 'all', reason?: Reason): string {
  if (reason) {
    const why = ` (${REASON_LABELS[reason]})`;
    return `${RERUN_PREFIXES.failed}${cutAtEnd(label, MAX_LABEL - RERUN_PREFIXES.failed.length - why.length)}${why}`;
  }
  return cutAtEnd(`${RERUN_PREFIXES[which]}${label}`, MAX_LABEL);
}
