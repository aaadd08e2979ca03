import { describe, expect, it } from 'vitest';
import { blockedReason, guardedLookup, hostAllowed, resolveGuarded, validateUrl, FetchError, type Resolver } from '../../src/main/fetch';
import { fixedResolver } from '../helpers/fetch-server';

const strict = { allowPrivate: false, allowHosts: [] as string[] };
const noDns: Resolver = async () => {
  throw new Error('a literal must not be resolved');
};

/** Spellings of blocked addresses as they appear in a URL's host. */
const BLOCKED = [
  // loopback, every IPv4 spelling the URL parser accepts
  '127.0.0.1', '127.1', '127.0.1', '0x7f.1', '0x7f000001', '2130706433', '017700000001', '0177.0.0.1', '0177.0.0.01',
  '0x7F.0x0.0x0.0x1', '127.255.255.254', '0x7f.0.0.1', '127.000.000.001', '127.0.0.1.',
  // private
  '10.0.0.1', '10.255.255.255', '012.0.0.1', '0xa.0.0.1', '167772161', '172.16.0.1', '172.31.255.255', '0xac.0x10.0.1',
  '192.168.0.1', '3232235777', '0xc0a80101', '0300.0250.1.1',
  // link-local (cloud metadata)
  '169.254.169.254', '0xa9fea9fe', '2852039166', '0251.0376.0251.0376',
  // CGNAT
  '100.64.0.1', '100.127.255.254',
  // multicast, broadcast, reserved, unspecified
  '224.0.0.1', '239.255.255.250', '0xe0000001', '240.0.0.1', '255.255.255.255', '192.0.2.1', '198.18.0.1', '192.0.0.1',
  '0.0.0.0', '0', '0x0', '0.0',
  // IPv6 loopback and unspecified
  '[::1]', '[0:0:0:0:0:0:0:1]', '[::]', '[0::0]',
  // IPv6 link-local, unique-local, site-local, multicast, documentation, discard
  '[fe80::1]', '[fc00::1]', '[fd12:3456::1]', '[fec0::1]', '[ff02::1]', '[ff05::1:3]', '[2001:db8::1]', '[100::1]',
  // IPv4-mapped, -compatible, SIIT, NAT64, 6to4, Teredo carrying blocked IPv4
  '[::ffff:127.0.0.1]', '[::ffff:7f00:1]', '[0:0:0:0:0:ffff:7f00:1]', '[::ffff:10.0.0.1]', '[::ffff:a00:1]',
  '[::ffff:169.254.169.254]', '[::ffff:192.168.0.1]', '[::127.0.0.1]', '[::7f00:1]', '[::10.0.0.1]',
  '[::ffff:0:127.0.0.1]', '[64:ff9b::127.0.0.1]', '[64:ff9b::a00:1]', '[2002:7f00:1::1]', '[2002:a00:1::]', '[2001::1]',
];

const PUBLIC = ['93.184.216.34', '8.8.8.8', '1.1.1.1', '0x5db8d822', '[2606:4700:4700::1111]', '[::ffff:8.8.8.8]', '[64:ff9b::8.8.8.8]', '[2002:808:808::1]'];

describe('the guard', () => {
  it('has at least 60 blocked spellings to check', () => {
    expect(new Set(BLOCKED).size).toBeGreaterThanOrEqual(60);
  });

  it.each(BLOCKED)('blocks %s with 403 without resolving it', async (host) => {
    const u = validateUrl(`http://${host}/x`);
    const err = await resolveGuarded(u.hostname, strict, noDns).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(FetchError);
    expect((err as FetchError).status).toBe(403);
    expect((err as FetchError).code).toBe('blocked');
  });

  // Before issue 11 these reached the resolver and were stopped only because it had no answer.
  it.each(['localhost', 'localhost.', 'LOCALHOST.', 'foo.localhost', 'a.b.localhost.', 'localhost%2e', 'LocalHost%2E', 'x.LOCALHOST'])(
    'refuses the RFC 6761 loopback name %s by name, before any lookup',
    async (host) => {
      const u = validateUrl(`http://${host}:8080/x`);
      const err = await resolveGuarded(u.hostname, strict, noDns).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(FetchError);
      expect((err as FetchError).status).toBe(403);
      expect((err as FetchError).hint).toMatch(/localhost/);
    },
  );

  it('lets localhost names through when private networks are allowed or the name is listed, and not lookalikes', async () => {
    const r = fixedResolver({ 'localhost.': ['127.0.0.1'], 'app.localhost': ['127.0.0.1'], 'localhost.example': ['93.184.216.34'], 'notlocalhost': ['93.184.216.34'] });
    await expect(resolveGuarded('localhost.', { allowPrivate: true, allowHosts: [] }, r)).resolves.toHaveLength(1);
    await expect(resolveGuarded('app.localhost', { allowPrivate: false, allowHosts: ['app.localhost'] }, r)).resolves.toHaveLength(1);
    await expect(resolveGuarded('localhost.example', strict, r)).resolves.toHaveLength(1);
    await expect(resolveGuarded('notlocalhost', strict, r)).resolves.toHaveLength(1);
  });

  it.each(PUBLIC)('lets public address %s through', async (host) => {
    const u = validateUrl(`http://${host}/`);
    await expect(resolveGuarded(u.hostname, strict, noDns)).resolves.toHaveLength(1);
  });

  it('blocks a name that resolves to loopback, and lets it through with allowPrivate', async () => {
    const r = fixedResolver({ 'localhost.example': ['127.0.0.1'] });
    await expect(resolveGuarded('localhost.example', strict, r)).rejects.toMatchObject({ status: 403 });
    await expect(resolveGuarded('localhost.example', { allowPrivate: true, allowHosts: [] }, r)).resolves.toEqual([{ address: '127.0.0.1', family: 4 }]);
  });

  it('blocks a name when any of its addresses is private', async () => {
    const r = fixedResolver({ 'mixed.example': ['93.184.216.34', '10.0.0.7'] });
    await expect(resolveGuarded('mixed.example', strict, r)).rejects.toMatchObject({ status: 403 });
  });

  it('lets a listed host (exact or .domain) through to a private address', async () => {
    const r = fixedResolver({ 'wiki.corp.example': ['10.1.2.3'], 'corp.example': ['10.1.2.4'], 'other.example': ['10.1.2.5'] });
    const policy = { allowPrivate: false, allowHosts: ['.corp.example'] };
    await expect(resolveGuarded('wiki.corp.example', policy, r)).resolves.toHaveLength(1);
    await expect(resolveGuarded('corp.example', policy, r)).resolves.toHaveLength(1);
    await expect(resolveGuarded('other.example', policy, r)).rejects.toMatchObject({ status: 403 });
    expect(hostAllowed('evilcorp.example', ['.corp.example'])).toBe(false);
  });

  it('lets an IPv6 address through listed as the URL writes it ([::1]) or bare (::1)', async () => {
    for (const listed of ['[::1]', '::1']) {
      await expect(resolveGuarded('[::1]', { allowPrivate: false, allowHosts: [listed] }, fixedResolver({}))).resolves.toHaveLength(1);
      expect(hostAllowed('::1', [listed])).toBe(true);
    }
    await expect(resolveGuarded('[::1]', { allowPrivate: false, allowHosts: ['[::2]'] }, fixedResolver({}))).rejects.toMatchObject({ status: 403 });
    expect(blockedReason('::1')).toBe('a loopback address (this computer)');
    expect(blockedReason('::')).toMatch(/^an unspecified address/);
  });

  it('turns a failed lookup into a 502 DNS error', async () => {
    await expect(resolveGuarded('nowhere.example', strict, fixedResolver({}))).rejects.toMatchObject({ status: 502, code: 'dns' });
  });

  it('checks at connect time, so a name that rebinds from public to private is blocked', async () => {
    let n = 0;
    const rebinding: Resolver = async () => [{ address: n++ === 0 ? '93.184.216.34' : '127.0.0.1', family: 4 }];
    const lookup = guardedLookup(() => strict, rebinding);
    const call = () =>
      new Promise<{ err: unknown; address: unknown }>((resolve) => lookup('rebind.example', { all: false }, (err, address) => resolve({ err, address })));
    const first = await call();
    expect(first.err).toBeNull();
    expect(first.address).toBe('93.184.216.34');
    const second = await call();
    expect(second.err).toMatchObject({ status: 403 });
  });

  it('answers lookups that ask for all addresses with the checked list', async () => {
    const lookup = guardedLookup(() => strict, fixedResolver({ 'pub.example': ['93.184.216.34', '2606:4700::1'] }));
    const out = await new Promise<unknown>((resolve) => lookup('pub.example', { all: true }, (_e, addrs) => resolve(addrs)));
    expect(out).toEqual([{ address: '93.184.216.34', family: 4 }, { address: '2606:4700::1', family: 6 }]);
  });

  it('names the range in the reason, including the IPv4 inside an IPv6 form', () => {
    expect(blockedReason('::ffff:127.0.0.1')).toMatch(/loopback/);
    expect(blockedReason('64:ff9b::a00:1')).toBe('a private address, inside a NAT64 address');
    // In words, not ipaddr.js's names of its ranges ("a linkLocal address", "a unspecified address").
    expect(blockedReason('169.254.169.254')).toBe('a link-local address');
    expect(blockedReason('0.0.0.0')).toBe('an unspecified address (0.0.0.0 or ::)');
    expect(blockedReason('100.64.0.1')).toMatch(/^a carrier-grade NAT address/);
    expect(blockedReason('fd00::1')).toBe('a private address (IPv6 unique local)');
    expect(blockedReason('8.8.8.8')).toBeNull();
  });
});
