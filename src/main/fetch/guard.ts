import { lookup as dnsLookup } from 'node:dns';
import type { LookupFunction } from 'node:net';
import { domainToASCII } from 'node:url';
import ipaddr from 'ipaddr.js';
import { blocked, DNS_HINT, FetchError } from './errors';

export interface ResolvedAddress {
  address: string;
  family: number;
}
/** Resolves a host name; tests inject one so that no test ever asks a real DNS server. */
export type Resolver = (hostname: string) => Promise<ResolvedAddress[]>;

export interface GuardPolicy {
  allowPrivate: boolean;
  allowHosts: string[];
}

/** Lookup errors of a DNS server that gave no answer (dns.lookup's EAI_AGAIN; c-ares's codes for the same). */
const DNS_NO_ANSWER = new Set(['EAI_AGAIN', 'ETIMEOUT', 'ESERVFAIL', 'ECONNREFUSED', 'ETIMEDOUT']);
const DNS_NO_ANSWER_HINT =
  'Sift could not get an answer about this host name: this computer may be offline, or its DNS server down or slow. Check the connection and try again; if other sites load, the site’s own DNS is failing: try again later.';

/**
 * A lookup that failed. getaddrinfo's EAI_AGAIN is a DNS server that did not answer (offline,
 * its server down or slow), which says nothing of the name: "does not resolve: check the URL
 * for typos" on every URL of a list sent people hunting typos in addresses that were right.
 */
export function dnsFailure(err: unknown): FetchError {
  const code = (err as { code?: unknown } | null)?.code;
  if (typeof code === 'string' && DNS_NO_ANSWER.has(code)) return new FetchError(502, 'DNS lookup failed: no answer from the DNS server', DNS_NO_ANSWER_HINT, 'dns');
  return new FetchError(502, 'DNS lookup failed', DNS_HINT, 'dns');
}

export const systemResolver: Resolver = (hostname) =>
  new Promise((resolve, reject) => {
    dnsLookup(hostname, { all: true, verbatim: true }, (err, addrs) => (err ? reject(err) : resolve(addrs)));
  });

/**
 * ipaddr.js's names of its ranges, as a person reads them. They went into hints as they
 * are: "The address is a linkLocal address", "a unspecified address".
 */
const RANGE_WORDS: Record<string, string> = {
  unspecified: 'an unspecified address (0.0.0.0 or ::)',
  broadcast: 'a broadcast address',
  multicast: 'a multicast address',
  linkLocal: 'a link-local address',
  loopback: 'a loopback address (this computer)',
  carrierGradeNat: 'a carrier-grade NAT address (a provider’s private network)',
  private: 'a private address',
  uniqueLocal: 'a private address (IPv6 unique local)',
  deprecatedSiteLocal: 'a private address (IPv6 site-local)',
  teredo: 'a Teredo tunnel address',
  benchmarking: 'a benchmarking address',
};
/** The IPv6 forms that carry an IPv4 address, named. */
const CARRIER_WORDS: Record<string, string> = {
  ipv4Mapped: 'an IPv4-mapped IPv6 address',
  rfc6145: 'an IPv4-translated IPv6 address',
  rfc6052: 'a NAT64 address',
  '6to4': 'a 6to4 address',
};
const rangeWords = (range: string): string => RANGE_WORDS[range] ?? 'a reserved address';

/**
 * Why an address must not be fetched, as words that follow "The address is", or null when
 * it is a public unicast address. The ranges are ipaddr.js's (a maintained table), not
 * ours; IPv6 forms that carry an IPv4 address (mapped ::ffff:a.b.c.d, compatible ::a.b.c.d,
 * SIIT ::ffff:0:a.b.c.d, NAT64 64:ff9b::/96, 6to4 2002::/16) are judged by the IPv4 address
 * inside.
 */
export function blockedReason(address: string): string | null {
  let ip: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    ip = ipaddr.parse(bareHost(address).replace(/%.*$/, ''));
  } catch {
    return 'not an IP address';
  }
  if (ip.kind() === 'ipv6') {
    const v6 = ip as ipaddr.IPv6;
    const bytes = v6.toByteArray();
    // ::/96 (IPv4-compatible, deprecated) is not one of ipaddr's ranges; judge the IPv4 inside.
    const range = bytes.slice(0, 12).every((b) => b === 0) ? 'ipv4Mapped' : v6.range();
    if (range === 'ipv4Mapped' || range === 'rfc6145' || range === 'rfc6052') {
      // '::' and '::1' also fall in ::/96; they are unspecified and loopback, not IPv4.
      if (bytes.slice(0, 15).every((b) => b === 0) && (bytes[15] ?? 0) <= 1) return rangeWords(bytes[15] === 1 ? 'loopback' : 'unspecified');
      return embedded(bytes.slice(12, 16), range);
    }
    if (range === '6to4') return embedded(bytes.slice(2, 6), range);
    return range === 'unicast' ? null : rangeWords(range);
  }
  const range = ip.range();
  return range === 'unicast' ? null : rangeWords(range);
}

function embedded(four: number[], via: string): string | null {
  const inner = new ipaddr.IPv4(four).range();
  return inner === 'unicast' ? null : `${rangeWords(inner)}, inside ${CARRIER_WORDS[via] ?? 'an IPv6 address'}`;
}

/** A host as a socket takes it: an IPv6 address without the brackets a URL writes it in. */
export const bareHost = (hostname: string): string => hostname.replace(/^\[|\]$/g, '');

/**
 * A listed host as a URL's host name is written: an internationalized name in Punycode, as the
 * URL parser writes the name fetched (wiki.例え.jp is wiki.xn--r8jz45g.jp). Listed in its own
 * letters, it never matched, and the intranet it named stayed blocked.
 */
function listedAsUrlHost(listed: string): string {
  const p = listed.toLowerCase().trim();
  // ASCII, or more than a name (a path, a port, a user): left as it is, matching no host.
  if (!/[^\x20-\x7e]/.test(p) || /[\s/\\?#@:%]/.test(p)) return p;
  const dot = p.startsWith('.') ? '.' : '';
  const ascii = domainToASCII(p.slice(dot.length));
  return ascii ? dot + ascii : p;
}

export function hostAllowed(hostname: string, allowHosts: string[]): boolean {
  // An IPv6 address is listed as the URL writes it ([::1]) or bare (::1): either matches.
  const h = bareHost(hostname.toLowerCase()).replace(/\.$/, '');
  return allowHosts.some((a) => {
    const p = bareHost(listedAsUrlHost(a)).replace(/\.$/, '');
    if (!p) return false;
    if (p.startsWith('.')) return h === p.slice(1) || h.endsWith(p);
    return h === p;
  });
}

/** localhost, localhost., foo.localhost, a.b.localhost. in any case (RFC 6761 §6.3). */
export function isLocalhostName(hostname: string): boolean {
  const h = hostname.toLowerCase().replace(/\.$/, '');
  return h === 'localhost' || h.endsWith('.localhost');
}

export const isIpLiteral = (hostname: string): boolean => ipaddr.isValid(bareHost(hostname));

/** Throws 403 when an address may not be connected to under the policy. */
export function checkAddress(address: string, hostname: string, policy: GuardPolicy): void {
  if (policy.allowPrivate || hostAllowed(hostname, policy.allowHosts)) return;
  const why = blockedReason(address);
  if (why) throw blocked(`The address is ${why}`);
}

/**
 * Resolves a host the way the connection will and checks every address. An IP literal is
 * checked as it is (the URL parser has already turned 0x7f.1, 2130706433 and 0177.0.0.1
 * into 127.0.0.1). Any blocked address blocks the host: a name that resolves to both a
 * public and a private address is an attack, not an accident.
 */
export async function resolveGuarded(hostname: string, policy: GuardPolicy, resolve: Resolver): Promise<ResolvedAddress[]> {
  const h = bareHost(hostname);
  if (ipaddr.isValid(h)) {
    checkAddress(h, h, policy);
    return [{ address: h, family: h.includes(':') ? 6 : 4 }];
  }
  // RFC 6761 §6.3: localhost and every name under it are loopback by definition, whatever a
  // resolver answers (or fails to): refused by name before any lookup. The URL parser has
  // already lowercased the name and decoded localhost%2e to "localhost.".
  if (isLocalhostName(h) && !policy.allowPrivate && !hostAllowed(h, policy.allowHosts)) {
    throw blocked('The name is localhost, which always means this computer');
  }
  let addrs: ResolvedAddress[];
  try {
    addrs = await resolve(h);
  } catch (err) {
    throw dnsFailure(err);
  }
  if (addrs.length === 0) throw new FetchError(502, 'DNS lookup failed', 'The host name has no addresses.', 'dns');
  for (const a of addrs) checkAddress(a.address, h, policy);
  return addrs;
}

/**
 * A net.connect `lookup` that resolves and checks at connect time, so the address checked
 * is the address connected to: a name that resolves public for a pre-check and private for
 * the connection (DNS rebinding) has no window.
 */
export function guardedLookup(policy: () => GuardPolicy, resolve: Resolver): LookupFunction {
  return (hostname, options, callback) => {
    resolveGuarded(hostname, policy(), resolve).then(
      (addrs) => {
        const want = options.family === 4 || options.family === 6 ? addrs.filter((a) => a.family === options.family) : addrs;
        const list = want.length ? want : addrs;
        if (options.all) {
          (callback as unknown as (e: null, a: ResolvedAddress[]) => void)(null, list);
        } else {
          const first = list[0] as ResolvedAddress;
          callback(null, first.address, first.family);
        }
      },
      (err: unknown) => callback(err as NodeJS.ErrnoException, '', 0),
    );
  };
}
