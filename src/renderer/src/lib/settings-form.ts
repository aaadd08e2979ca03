import type * as z from 'zod';
import { SettingsSchema, type Settings } from '../../../shared/settings';
import { cutMiddle } from '../../../shared/cut';

/**
 * A Settings field's problem in the words of the form, from the shared schema: "At least 1."
 * where zod says "Too small: expected number to be >=1", "Enter a number." for "Invalid input:
 * expected number, received NaN". `unit` is the field's ("seconds", "MiB").
 */
export function settingError(key: keyof Settings, value: unknown, unit?: string): string | null {
  const r = SettingsSchema.shape[key].safeParse(value);
  if (r.success) return null;
  const issue = r.error.issues[0];
  if (!issue) return 'Not valid.';
  return (key === 'allowHosts' && tooLongHost(value, issue)) || issueText(key, issue, unit);
}

/**
 * Problems between two fields, next to the field to change, as main would refuse them on Save
 * (mergeSettings) in words the form does not use ("jobs per caller").
 */
export function crossFieldErrors(s: Pick<Settings, 'jobsPerCaller' | 'jobsTotal'>): Partial<Record<keyof Settings, string>> {
  if (s.jobsPerCaller > s.jobsTotal) return { jobsPerCaller: `At most “Live jobs at once (all)”, now ${s.jobsTotal.toLocaleString()}.` };
  return {};
}

// A field's unit is plural ("hours"); one of it is said in the singular: "At least 1 hour.", not "1 hours".
const ONE: Record<string, string> = { hours: 'hour', seconds: 'second', characters: 'character', entries: 'entry' };
const amount = (n: number | bigint, unit: string | undefined): string =>
  `${Number(n).toLocaleString(undefined, { maximumFractionDigits: 4 })}${unit ? ` ${Number(n) === 1 ? (ONE[unit] ?? unit) : unit}` : ''}`;

/**
 * The allowed host too long to be a host name, by its start and end: "At most 253 characters."
 * said neither which of the hosts nor that a name has no more (DNS's limit, 253).
 */
function tooLongHost(value: unknown, issue: z.core.$ZodIssue): string | undefined {
  if (issue.code !== 'too_big' || issue.origin !== 'string' || !Array.isArray(value)) return undefined;
  const host: unknown = value[Number(issue.path[0])];
  if (typeof host !== 'string') return undefined;
  return `“${cutMiddle(host, 40)}” is ${host.length.toLocaleString()} characters long; a host name has at most ${amount(issue.maximum, '')}.`;
}

function issueText(key: keyof Settings, issue: z.core.$ZodIssue, unit: string | undefined): string {
  if (key === 'archiveService') return 'Enter a web address starting with http:// or https://, or leave it empty.';
  switch (issue.code) {
    case 'invalid_type':
      return issue.expected === 'int' ? 'Enter a whole number.' : 'Enter a number.';
    case 'too_small':
      if (issue.origin === 'string') return key === 'allowHosts' ? 'A host name cannot be empty.' : 'This cannot be empty.';
      return `At least ${amount(issue.minimum, unit)}.`;
    case 'invalid_format':
      if (key === 'userAgent') return 'Use plain letters, digits and punctuation (ASCII) on one line: no line breaks, accents or dashes like “—”.';
      return 'Not valid.';
    case 'too_big':
      if (issue.origin === 'string') return `At most ${amount(issue.maximum, 'characters')}.`;
      if (issue.origin === 'array') return `At most ${amount(issue.maximum, 'entries')}.`;
      return `At most ${amount(issue.maximum, unit)}.`;
    default:
      return 'Not valid.';
  }
}

/**
 * The allowed hosts as typed: one a line, or separated by commas. Not at spaces: "wiki internal"
 * (a dot typed as a space) allowed the hosts "wiki" and "internal", and said nothing; an entry
 * with a space in it is `bad`, and said to be. The guard compares
 * host names only, so an address pasted whole ("https://wiki.example/start") is its host
 * ("wiki.example") and a name in capitals or with an umlaut is written as the URL parser writes
 * it; a leading "." (every subdomain) is kept. What no URL could have as its host is `bad`:
 * saved as typed, it would never match and the host would stay blocked without a word.
 */
const HOST = /^(\[[0-9a-f:.]+\]|[a-z0-9_-]+(\.[a-z0-9_-]+)*)$/i;

/** An address and a prefix length, as a network is written ("10.0.0.0/8", "fd00::/8"): not an address with a path. */
const RANGE = /^(\d{1,3}(\.\d{1,3}){3}|[0-9a-f]*:[0-9a-f:.]*)\/\d{1,3}$/i;

export function parseAllowHosts(text: string): { hosts: string[]; bad: string[]; ranges: string[] } {
  const hosts: string[] = [];
  const bad: string[] = [];
  // The guard compares one host at a time; "10.0.0.0/8" read as a URL saved 10.0.0.0 alone.
  const ranges: string[] = [];
  for (const entry of text.split(/[\n,]/).map((e) => e.trim()).filter(Boolean)) {
    if (RANGE.test(entry)) {
      ranges.push(entry);
      continue;
    }
    const dot = entry.startsWith('.') && !entry.includes('://') ? '.' : '';
    // An IPv6 address typed bare ("fd00::5") is no URL host without its brackets; the guard takes either.
    const rest = dot ? entry.slice(1) : /^[0-9a-f]*:[0-9a-f]*:[0-9a-f:.]*$/i.test(entry) ? `[${entry}]` : entry;
    let host = '';
    try {
      host = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(rest) ? rest : `http://${rest}`).hostname;
    } catch {
      host = '';
    }
    // The URL parser lets "!" or "*" into a host name; no DNS name or address has them.
    if (host && HOST.test(host)) hosts.push(dot + host);
    else bad.push(entry);
  }
  return { hosts, bad, ranges };
}

const quotedList = (items: string[]): string => items.map((h) => `“${h}”`).join(items.length === 2 ? ' and ' : ', ');

/** What is wrong with the allowed hosts as typed, with what to write instead; null when nothing is. */
export function allowHostsError(bad: string[], ranges: string[]): string | null {
  if (bad.length) {
    const named = bad.map((h) => `“${h}”`).join(', ');
    if (bad.some((h) => /\s/.test(h))) return `Not a host name: ${named}: a host name has no spaces. Write one host a line, or separate them with commas, such as wiki.internal.example.`;
    return `Not a host name: ${named}. Write a name such as wiki.internal.example, or an address.`;
  }
  if (ranges.length) {
    const one = ranges.length === 1;
    return `${quotedList(ranges)} ${one ? 'is a range' : 'are ranges'} of addresses, which Sift does not allow as a whole: list each address, or tick “Allow private and loopback addresses” above.`;
  }
  return null;
}
