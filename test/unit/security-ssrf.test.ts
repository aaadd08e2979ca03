import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createFetcher, FetchError, resolveGuarded, type Fetcher, type Resolver } from '../../src/main/fetch';
import { writeResult } from '../helpers/faults-report';
import { startServer, type TestServer } from '../helpers/fetch-server';

/**
 * Whole URLs as an attacker writes them, through fetchTarget: the URL parser, the guard and
 * the client together. Every one must end 403 before a packet leaves: literals are checked
 * before the request, names at connect (the injected resolver answers them; no real DNS).
 */
const METADATA = [
  'http://169.254.169.254/latest/meta-data/',
  'http://169.254.169.254./latest/meta-data/',
  'http://2852039166/latest/meta-data/',
  'http://0xa9fea9fe/latest/meta-data/',
  'http://0XA9FEA9FE/',
  'http://0251.0376.0251.0376/',
  'http://0xa9.0xfe.0xa9.0xfe/',
  'http://0xa9.254.0251.254/',
  'http://169.16689662/',
  'http://169.254.43518/',
  'http://0251.0xfe.43518/',
  'http://%31%36%39.254.169.254/',
  'http://１６９.２５４.１６９.２５４/',
  'http://[::ffff:169.254.169.254]/',
  'http://[::ffff:a9fe:a9fe]/latest/meta-data/',
  'http://[0:0:0:0:0:ffff:a9fe:a9fe]/',
  'http://[::a9fe:a9fe]/',
  'http://[64:ff9b::a9fe:a9fe]/',
  'http://[64:ff9b::169.254.169.254]/',
  'http://[2002:a9fe:a9fe::1]/',
  'http://[::ffff:0:a9fe:a9fe]/',
  'http://[fd00:ec2::254]/latest/meta-data/',
  'http://169.254.169.254#@example.org/',
  'http://169.254.169.254:80/computeMetadata/v1/',
  'http://metadata.google.internal/computeMetadata/v1/',
  'http://100.100.100.200/latest/meta-data/',
  'http://192.0.0.192/',
];
const LOOPBACK = [
  'http://127.0.0.1/',
  'http://127.1/',
  'http://127.0.1/',
  'http://2130706433/',
  'http://0x7f000001/',
  'http://017700000001/',
  'http://0177.0.0.1/',
  'http://127.127.127.127/',
  'http://[::1]/',
  'http://[0:0:0:0:0:0:0:1]/',
  'http://[::ffff:127.0.0.1]/',
  'http://[::ffff:7f00:1]/',
  'http://[64:ff9b::7f00:1]/',
  'http://localhost/',
  'http://LOCALHOST./',
  'http://localtest.example/',
  'https://127.0.0.1:443/',
  'http://①②⑦.0.0.1/',
];
const PRIVATE_AND_RESERVED = [
  'http://10.0.0.1/',
  'http://0xa000001/',
  'http://167772161/',
  'http://012.1.2.3/',
  'http://172.16.0.1/',
  'http://172.31.255.255/',
  'http://2886729729/',
  'http://192.168.1.1/',
  'http://0xc0.0xa8.1.1/',
  'http://100.64.0.1/',
  'http://100.127.255.255/',
  'http://0.0.0.0/',
  'http://0/',
  'http://[::]/',
  'http://255.255.255.255/',
  'http://4294967295/',
  'http://224.0.0.1/',
  'http://239.255.255.250:1900/',
  'http://240.0.0.1/',
  'http://198.18.0.1/',
  'http://192.0.2.1/',
  'http://[fc00::1]/',
  'http://[fd12:3456:789a::1]/',
  'http://[fe80::1]/',
  'http://[fe80::a9fe:a9fe]/',
  'http://[ff02::1]/',
  'http://[::ffff:10.0.0.1]/',
  'http://[::ffff:c0a8:101]/',
  'http://[64:ff9b::a00:1]/',
  'http://[2002:c0a8:101::]/',
  'http://intranet.example/',
  'http://wiki.corp.example/',
];
const FORMS = [...METADATA, ...LOOPBACK, ...PRIVATE_AND_RESERVED];

// What the attacker's names resolve to (the resolver is the only DNS these tests use).
const NAMES: Record<string, string[]> = {
  'metadata.google.internal': ['169.254.169.254'],
  localhost: ['127.0.0.1', '::1'],
  'localtest.example': ['127.0.0.1'],
  'intranet.example': ['10.1.2.3'],
  'wiki.corp.example': ['93.184.216.34', '192.168.10.10'],
};
const resolver: Resolver = async (host) => {
  const a = NAMES[host.toLowerCase().replace(/\.$/, '')];
  if (!a) throw Object.assign(new Error(`ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
  return a.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
};

let fetcher: Fetcher;
const outcomes: string[] = [];
let unblocked = 0;
let checked = 0;

beforeAll(() => {
  fetcher = createFetcher({ deadlineMs: 5000, connectTimeoutMs: 1000 }, { lookup: resolver });
});
afterAll(async () => {
  await fetcher?.close();
});

const get = (f: Fetcher, url: string): Promise<unknown> => f.fetchTarget(AbortSignal.timeout(5000), { name: 'ssrf' }, { url }).then(() => 'fetched', (e: unknown) => e);

describe('SSRF: every spelling of a private address is blocked with 403', () => {
  test(`the list has at least 60 forms, metadata in ${METADATA.length} spellings`, () => {
    expect(new Set(FORMS).size).toBe(FORMS.length);
    expect(FORMS.length).toBeGreaterThanOrEqual(60);
  });

  test.each(FORMS)('%s → 403 blocked', async (url) => {
    checked++;
    const err = await get(fetcher, url);
    const ok = err instanceof FetchError && err.status === 403 && err.code === 'blocked';
    outcomes.push(`${url} → ${err instanceof FetchError ? `${err.status} ${err.code}` : String(err)}`);
    if (!ok) unblocked++;
    expect(err).toBeInstanceOf(FetchError);
    expect((err as FetchError).status, (err as FetchError).message).toBe(403);
    // Says how to fetch it after all: its one host first, every private address second.
    expect((err as FetchError).hint).toMatch(/unless their host is allowed \(--allow-host HOST\) or all private addresses are \(--allow-private\)/);
  });
});

describe('DNS rebinding and redirects', () => {
  let srv: TestServer;
  beforeAll(async () => {
    srv = await startServer();
  });
  afterAll(async () => {
    await srv?.close();
  });

  test('a name that answers public to a pre-check and loopback at connect is blocked at connect; the server sees nothing', async () => {
    let calls = 0;
    // A TTL-0 attacker: the first answer (a validator's look) is public, every later one loopback.
    const rebinding: Resolver = async () => [{ address: calls++ === 0 ? '93.184.216.34' : '127.0.0.1', family: 4 }];
    const f = createFetcher({ deadlineMs: 5000 }, { lookup: rebinding });
    try {
      await expect(resolveGuarded('rebind.example', { allowPrivate: false, allowHosts: [] }, rebinding)).resolves.toEqual([{ address: '93.184.216.34', family: 4 }]);
      const before = srv.hits.length;
      const err = await get(f, `http://rebind.example:${srv.port}/secret`);
      expect(err).toMatchObject({ status: 403, code: 'blocked' });
      expect(calls).toBeGreaterThanOrEqual(2);
      expect(srv.hits.length).toBe(before);
    } finally {
      await f.close();
    }
  });

  test('a name with one public and one private address is blocked before connecting to either', async () => {
    let calls = 0;
    const mixed: Resolver = async () => (calls++, [{ address: '93.184.216.34', family: 4 }, { address: '127.0.0.1', family: 4 }]);
    const f = createFetcher({ deadlineMs: 5000 }, { lookup: mixed });
    try {
      expect(await get(f, `http://mixed.example:${srv.port}/`)).toMatchObject({ status: 403 });
      expect(calls).toBe(1);
    } finally {
      await f.close();
    }
  });

  const REDIRECTS = [
    'http://169.254.169.254/latest/meta-data/',
    'http://[::ffff:a9fe:a9fe]/latest/meta-data/',
    'http://2852039166/latest/meta-data/iam/security-credentials/',
    'http://metadata.google.internal/computeMetadata/v1/',
    'http://rebind.example/',
    'http://127.0.0.1/admin',
    'http://[::1]/',
  ];
  test.each(REDIRECTS)('an allowed host redirecting to %s is blocked with 403 on the hop', async (to) => {
    // allowed.example is in allowHosts (an intranet the user trusts) and is our loopback server.
    const names: Resolver = async (h) => {
      if (h === 'allowed.example') return [{ address: '127.0.0.1', family: 4 }];
      if (h === 'metadata.google.internal') return [{ address: '169.254.169.254', family: 4 }];
      if (h === 'rebind.example') return [{ address: '127.0.0.1', family: 4 }];
      throw Object.assign(new Error('ENOTFOUND'), { code: 'ENOTFOUND' });
    };
    srv.route('/go', (_req, res) => {
      res.writeHead(302, { location: to });
      res.end();
    });
    const f = createFetcher({ deadlineMs: 5000, allowHosts: ['allowed.example'] }, { lookup: names });
    try {
      checked++;
      const err = await get(f, `http://allowed.example:${srv.port}/go`);
      outcomes.push(`redirect to ${to} → ${err instanceof FetchError ? `${err.status} ${err.code}` : String(err)}`);
      if (!(err instanceof FetchError && err.status === 403)) unblocked++;
      expect(err).toMatchObject({ status: 403, code: 'blocked' });
    } finally {
      await f.close();
    }
  });

  test('the figures: zero forms got through', () => {
    expect(unblocked).toBe(0);
    writeResult({
      name: 'ssrf',
      command: 'npm test -- test/unit/security-ssrf.test.ts',
      figures: { forms: FORMS.length, metadataSpellings: METADATA.length, redirectCases: REDIRECTS.length, rebindingCases: 2, checked: checked + 2, unblocked },
      details: outcomes,
    });
  });
});
