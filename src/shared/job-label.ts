import { REASON_LABELS, type Reason } from './reasons';
import type { Options, Target } from './types';
import { hostLabel } from './urllist/url';

/** The most a job's label holds (the submit contract's MAX_LABEL, the runner's cut). */
const MAX_LABEL = 200;
// An option's value in a label: enough to tell "grep revenue" from "grep cost" in the
// 250 px job list, which shows about 35 characters of a name.
const MAX_VALUE = 40;

/**
 * `s` in at most `max` UTF-16 units, "…" last; the cut moved back off a surrogate pair's second
 * half, as cut there half an emoji was stored as U+FFFD and the job list showed "�".
 */
function cut(s: string, max: number): string {
  if (s.length <= max) return s;
  const low = s.charCodeAt(max - 1);
  return `${s.slice(0, low >= 0xdc00 && low <= 0xdfff ? max - 2 : max - 1)}…`;
}

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
  // Stable: hosts as often as each other keep the list's order.
  const hosts = [...counts.entries()].sort((a, b) => b[1] - a[1]).map(([h]) => h);
  const folder = folders.size === 1 ? [...folders][0] : '';
  if (hosts.length === 1) return folder ? `${hosts[0]}/${folder}` : hosts[0]!;
  const others = hosts.length - 2;
  const first = hosts.slice(0, 2).join(', ');
  return others > 0 ? `${first} and ${others} other ${others === 1 ? 'host' : 'hosts'}` : first;
}

/** What the options ask, in a few words; '' for the defaults (markdown, nothing else). */
export function optionsWords(o: Options | undefined): string {
  if (!o) return '';
  const words: string[] = [];
  if (o.mode && o.mode !== 'markdown') words.push(o.mode);
  if (o.pages) words.push(`pages ${cut(o.pages, MAX_VALUE)}`);
  if (o.grep) words.push(`grep “${cut(o.grep, MAX_VALUE)}”`);
  if (o.jq) words.push(`jq ${cut(o.jq, MAX_VALUE)}`);
  if (o.question) words.push(`question “${cut(o.question, MAX_VALUE)}”`);
  return words.join(', ');
}

/** The options the whole list shares, or that they differ from URL to URL. */
function listOptionsWords(targets: readonly Target[]): string {
  const each = new Set(targets.map((t) => optionsWords(t.options)));
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
  return cut(options ? `${hostsWords(targets)} · ${options}` : hostsWords(targets), MAX_LABEL);
}

/**
 * The name of a job run again from `label`'s job: which of its targets it takes, first, so a
 * name cut short in the job list still says it. The new job had its source's name exactly.
 */
export function rerunLabel(label: string, which: 'unfinished' | 'failed' | 'all', reason?: Reason): string {
  if (reason) {
    const why = ` (${REASON_LABELS[reason]})`;
    return `retry of ${cut(label, MAX_LABEL - 'retry of '.length - why.length)}${why}`;
  }
  const prefix = { unfinished: 'rest of', failed: 'retry of', all: 'again:' }[which];
  return cut(`${prefix} ${label}`, MAX_LABEL);
}
