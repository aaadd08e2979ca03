import fc from 'fast-check';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { z } from 'zod';
import { dispatch, type Handlers } from '../../src/main/ipc/dispatch';
import { FetchError, validateUrl } from '../../src/main/fetch';
import { isIpLiteral } from '../../src/main/fetch/guard';
import { createServices, type Services } from '../../src/main/services';
import { EnvelopeSchema, invokeContract, METHODS, type Envelope, type Method } from '../../src/shared/ipc/contract';
import { writeResult } from '../helpers/faults-report';
import { tempDir } from '../helpers/store';

// 300 arbitrary payloads and 300 near misses per channel (16 channels: ~10,000 calls, ~4 s).
const ANY_RUNS = 300;
const NEAR_RUNS = 300;

let t: ReturnType<typeof tempDir>;
let services: Services;
let handlers: Handlers;
const jobIds: string[] = [];
const stats = { calls: 0, ok: 0, typedErrors: 0, codes: {} as Record<string, number> };
const internal: string[] = [];
let unhandled = 0;
const onUnhandled = (): void => {
  unhandled++;
};

beforeAll(async () => {
  t = tempDir('sift-fuzz-ipc-');
  const exportDir = path.join(t.dir, 'export');
  mkdirSync(exportDir);
  process.on('unhandledRejection', onUnhandled);
  services = createServices({
    dbPath: path.join(t.dir, 'sift.db'),
    host: 'bridge',
    dataDir: t.dir,
    logFiles: [],
    // The runner's fetches answer at once: the fuzz is about main's surface, not the network.
    fetch: async (_signal, _caller, target) => ({ content: `content of ${target.url.slice(0, 40)}` }),
    dialogs: { openFile: async () => null, chooseFolder: async () => exportDir, saveFile: async () => null },
  });
  const real = services.handlers;
  handlers = {
    ...real,
    // preview fetches for real. A fuzzed URL may name any host, and this test never asks DNS
    // or leaves loopback: URLs that fail validation and loopback literals go to the real
    // handler (the guard answers them); any other valid URL gets the guard's own 403.
    preview: async (req) => {
      let host = '';
      try {
        host = validateUrl(req.target.url).hostname;
      } catch {
        return real.preview(req);
      }
      if (isIpLiteral(host) && /^127\./.test(host) && !req.target.options?.recover) return real.preview(req);
      throw new FetchError(403, 'blocked', 'fuzz stand-in: no traffic leaves loopback in tests');
    },
  };
  for (let i = 0; i < 3; i++) {
    const env = await dispatch(handlers, 'submit', { targets: [{ url: `http://127.0.0.1:9/seed-${i}` }] });
    if (env.ok) jobIds.push((env.value as { id: string }).id);
  }
});

afterAll(async () => {
  process.off('unhandledRejection', onUnhandled);
  await services?.close();
  t?.remove();
});

async function call(method: unknown, payload: unknown): Promise<Envelope> {
  stats.calls++;
  // checkResponses: an ok answer must also match the contract's response schema.
  const env = await dispatch(handlers, method, payload, { checkResponses: true, onInternalError: (m, e) => internal.push(`${m}: ${String(e)}`) });
  expect(EnvelopeSchema.safeParse(env).success, JSON.stringify(env).slice(0, 300)).toBe(true);
  if (env.ok) stats.ok++;
  else {
    stats.typedErrors++;
    stats.codes[env.error.code] = (stats.codes[env.error.code] ?? 0) + 1;
    expect(env.error.status).toBeGreaterThanOrEqual(400);
    expect(env.error.status).toBeLessThan(600);
    expect(env.error.message.length).toBeGreaterThan(0);
    // "internal" is what dispatch answers when a handler throws something untyped: a bug.
    expect(env.error.code, `${typeof method === 'string' ? method : typeof method}: ${env.error.message}`).not.toBe('internal');
  }
  return env;
}

/** Values that look like what a field wants, and values that almost do. */
const fuzzOptions = fc.record(
  {
    mode: fc.oneof(fc.constantFrom('markdown', 'text', 'html', 'raw', 'links', 'meta', 'MARKDOWN', ''), fc.anything()),
    question: fc.oneof(fc.string(), fc.string({ minLength: 1990, maxLength: 2010 }), fc.anything()),
    pages: fc.oneof(fc.constantFrom('1-3,7,10-', '0', '-', '3-1', '1,,2', '99999999999999999999'), fc.string()),
    grep: fc.oneof(fc.constantFrom('net (revenue|income)', '(', '[', '\\', '(?<x>a)\\k<x>', '^(a+)+$'), fc.string()),
    jq: fc.oneof(fc.constantFrom('.', '.items[] | .name', 'def f: f; f', '[range(infinite)]', '{', '.[', 'input'), fc.string()),
    context: fc.oneof(fc.boolean(), fc.anything()),
    recover: fc.oneof(fc.boolean(), fc.anything()),
    extra: fc.anything(),
  },
  { requiredKeys: [] },
);
const fuzzUrl = fc.oneof(
  fc.constantFrom('http://127.0.0.1:9/x', 'https://127.0.0.1:9/', 'ftp://127.0.0.1/', 'javascript:alert(1)', '', 'http://', 'http://[::1', 'http://10.0.0.1/'),
  fc.webUrl(),
  fc.string(),
  fc.string({ minLength: 8190, maxLength: 8200 }),
);
const fuzzTarget = fc.oneof(fc.record({ url: fuzzUrl, options: fuzzOptions }, { requiredKeys: ['url'] }), fc.anything());
const fuzzId = (): fc.Arbitrary<unknown> => fc.oneof(fc.constantFrom(...jobIds, '', 'x'.repeat(65), 'no-such-job'), fc.string(), fc.anything());

/** A field generator by name: the contract's field names, each with near misses. */
function field(name: string): fc.Arbitrary<unknown> {
  switch (name) {
    case 'id':
      return fuzzId();
    case 'idx':
      return fc.oneof(fc.integer({ min: -2, max: 5 }), fc.constantFrom(1e9, 0.5, NaN, Infinity), fc.anything());
    case 'targets':
      return fc.oneof(fc.array(fuzzTarget, { maxLength: 40 }), fc.anything());
    case 'target':
      return fuzzTarget;
    case 'options':
      return fc.oneof(fuzzOptions, fc.anything());
    case 'which':
      return fc.oneof(fc.constantFrom('unfinished', 'failed', 'all'), fc.anything());
    case 'format':
      return fc.oneof(fc.constantFrom('md', 'txt', 'json', 'jsonl', 'csv', 'combined', 'zip', 'exe', '../md'), fc.anything());
    case 'sitemaps':
      return fc.oneof(
        fc.array(fc.record({ url: fc.constantFrom('http://127.0.0.1:9/sitemap.xml', 'ftp://127.0.0.1/s.xml', '', 'http://'), line: fc.oneof(fc.nat(), fc.integer({ min: -3, max: -1 })) }), { maxLength: 3 }),
        fc.anything(),
      );
    case 'token':
      return fc.oneof(fc.string(), fc.constant('x'.repeat(129)), fc.anything());
    case 'includeFailed':
    case 'includeMeta':
      return fc.oneof(fc.boolean(), fc.anything());
    case 'settings':
      return fc.oneof(
        fc.record(
          {
            workers: fc.oneof(fc.integer({ min: -1, max: 20 }), fc.anything()),
            jobsTotal: fc.integer({ min: 0, max: 70 }),
            maxResultMiB: fc.double(),
            deadlineSeconds: fc.integer({ min: 0, max: 4000 }),
            allowHosts: fc.array(fc.string()),
            archiveService: fc.oneof(fc.constant(''), fc.webUrl(), fc.string()),
            userAgent: fc.string(),
            bogus: fc.anything(),
          },
          { requiredKeys: [] },
        ),
        fc.anything(),
      );
    default:
      return fc.anything();
  }
}

/** Near misses for a channel: its own fields (maybe wrong), sometimes one field too many. */
function nearMiss(m: Method): fc.Arbitrary<unknown> {
  const schema = invokeContract[m].req as unknown as z.ZodObject<Record<string, z.ZodType>>;
  const keys = Object.keys(schema.shape ?? {});
  const rec = fc.record(Object.fromEntries(keys.map((k) => [k, field(k)])), { requiredKeys: [] });
  return fc.oneof(rec, fc.tuple(rec, fc.string({ minLength: 1, maxLength: 8 }), fc.anything()).map(([r, k, v]) => ({ ...r, [k]: v })));
}

describe('the IPC surface under arbitrary payloads', () => {
  test.each(METHODS)('%s answers any payload with a valid envelope: ok, or a typed error', async (m) => {
    await fc.assert(
      fc.asyncProperty(fc.anything({ withNullPrototype: true, withBigInt: true, withDate: true, withMap: true, withSet: true, withTypedArray: true, withSparseArray: true }), async (payload) => {
        await call(m, payload);
      }),
      { numRuns: ANY_RUNS },
    );
    await fc.assert(
      fc.asyncProperty(nearMiss(m), async (payload) => {
        await call(m, payload);
      }),
      { numRuns: NEAR_RUNS },
    );
  }, 60_000);

  test('unknown channels and non-string method names get unknown_channel', async () => {
    await fc.assert(
      fc.asyncProperty(fc.oneof(fc.string(), fc.constantFrom('__proto__', 'constructor', 'toString', 'hasOwnProperty', 'appInfo ', 'APPINFO'), fc.anything()), fc.anything(), async (method, payload) => {
        fc.pre(!(typeof method === 'string' && (METHODS as string[]).includes(method)));
        const env = await call(method, payload);
        expect(env).toMatchObject({ ok: false, error: { code: 'unknown_channel', status: 404 } });
      }),
      { numRuns: 300 },
    );
  });

  test('a method name that cannot be turned into a string is an unknown channel, not a throw (fast-check found [{ toString: 0 }])', async () => {
    for (const method of [[{ toString: 0 }], { toString: 0 }, Object.create(null), Symbol('s'), 12n, null, undefined]) {
      const env = await call(method, {});
      expect(env).toMatchObject({ ok: false, error: { code: 'unknown_channel', status: 404 } });
    }
  });

  test('main is still up afterwards: appInfo answers, nothing was thrown or left unhandled', async () => {
    const env = await call('appInfo', {});
    expect(env.ok).toBe(true);
    expect(internal).toEqual([]);
    expect(unhandled).toBe(0);
    expect(stats.ok).toBeGreaterThan(0);
    expect(stats.typedErrors).toBeGreaterThan(0);
    writeResult({
      name: 'fuzz-ipc',
      command: 'npm test -- test/unit/fuzz-ipc.test.ts',
      figures: { channels: METHODS.length, inputsTried: stats.calls, okAnswers: stats.ok, typedErrors: stats.typedErrors, internalErrors: internal.length, unhandledRejections: unhandled, mainCrashes: 0 },
      details: Object.entries(stats.codes)
        .sort((a, b) => b[1] - a[1])
        .map(([code, n]) => `${code}: ${n}`),
    });
  });
});
