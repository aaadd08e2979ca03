import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { checkOptions } from '../../src/main/check-options';
import { createBatchRunner } from '../../src/main/batchrun';
import { createFetcher, FetchError, type Fetcher } from '../../src/main/fetch';
import { extractArticle, extractLinks, markupDepth, MAX_ARTICLE_DEPTH, MAX_PARSE_DEPTH, nestingDepth, parseDocument } from '../../src/main/fetch/html';
import { silentLog } from '../../src/main/log';
import { BatchMetrics } from '../../src/main/metrics';
import { openStore } from '../../src/main/store';
import { OptionsSchema, type Options } from '../../src/shared/types';
import { parseList } from '../../src/shared/urllist';
import { writeResult } from '../helpers/faults-report';
import { makePdf } from '../helpers/fetch-pdf';
import { tempDir, terminal } from '../helpers/store';

// A short deadline so an input that hangs costs 1.5 s, not the product's 210 s.
const DEADLINE_MS = 1500;
// What "past its deadline" means here: the worker is terminated at the deadline; the reply
// crosses a thread, and a 2-core CI machine busy with other test files (load 30 was seen)
// can take seconds for that. A hang would never end, so a wide cap still catches it.
const SLACK_MS = 20_000;

let fetcher: Fetcher;
const figures = { listsParsed: 0, targetsFromLists: 0, optionSets: 0, extractions: 0, typedFailures: 0, slowest: 0, redos: 0, hangs: 0 };

beforeAll(() => {
  fetcher = createFetcher({ deadlineMs: DEADLINE_MS });
});
afterAll(async () => {
  await fetcher?.close();
  writeResult({
    name: 'fuzz-input',
    command: 'npm test -- test/unit/fuzz-input.test.ts',
    figures: { ...figures, deadlineMs: DEADLINE_MS, inputsTried: figures.listsParsed + figures.optionSets + figures.extractions },
  });
});

const DOCS: [string, Uint8Array][] = [
  ['text/plain; charset=utf-8', Buffer.from(`alpha\nnet revenue grew 12%\n${'a'.repeat(40)}b\ngamma\n`)],
  ['text/html; charset=utf-8', Buffer.from('<html><head><title>T</title></head><body><article><h1>T</h1><p>Net revenue grew 12% this year.</p><p>Costs fell.</p><a href="/x">x</a></article></body></html>')],
  ['application/json', Buffer.from(JSON.stringify({ items: [{ name: 'a', n: 1 }, { name: 'b', n: 2 }] }))],
  ['application/pdf', makePdf({ pages: [['Quarterly report', 'Net revenue grew 12%'], ['Outlook']] })],
];

const optionValue = {
  mode: fc.constantFrom('markdown', 'text', 'html', 'raw', 'links', 'meta'),
  question: fc.oneof(fc.string({ maxLength: 60 }), fc.constantFrom('what grew?', 'revenue', '')),
  pages: fc.oneof(fc.stringMatching(/^[0-9,\- ]{0,12}$/), fc.string({ maxLength: 12 })),
  grep: fc.oneof(fc.string({ maxLength: 12 }), fc.constantFrom('net (revenue|income)', '(', '\\', '^(a+)+$', '(a|aa)+$', '(a*)*b', '[', '(?=a)', '\\p{L}+')),
  jq: fc.oneof(fc.string({ maxLength: 12 }), fc.constantFrom('.', '.items[].name', '.[', 'def f: f; f', 'error("x")', 'input', '$__loc__', 'limit(3; repeat(1))')),
  context: fc.boolean(),
};
const fuzzOptions: fc.Arbitrary<Options> = fc.record(optionValue, { requiredKeys: [] });

/** The options as a list line writes them: key=value, quoted when needed. */
const quote = (v: string): string => (/^[^\s"'=]+$/.test(v) ? v : `"${v.replace(/["\\]/g, '')}"`);

describe('URL lists and options under fuzzing', () => {
  test('a list line with fuzzed options parses without throwing, into valid Options or a reported problem', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.webUrl(), fuzzOptions, fc.string({ maxLength: 20 })), { maxLength: 20 }), (lines) => {
        const text = lines
          .map(([url, o, junk]) => [url, ...Object.entries(o).map(([k, v]) => (typeof v === 'boolean' ? (v ? k : '') : `${k}=${quote(String(v))}`)), junk].join(' '))
          .join('\n');
        const parsed = parseList(text);
        figures.listsParsed++;
        figures.targetsFromLists += parsed.targets.length;
        for (const t of parsed.targets) {
          expect(/^https?:\/\//.test(t.url)).toBe(true);
          expect(OptionsSchema.safeParse(t.options ?? {}).success, JSON.stringify(t.options)).toBe(true);
        }
      }),
      { numRuns: 300 },
    );
  });

  test('checkOptions accepts or refuses any options with a typed 422, within the deadline', async () => {
    await fc.assert(
      fc.asyncProperty(fuzzOptions, async (options) => {
        figures.optionSets++;
        const t0 = Date.now();
        try {
          await checkOptions(options, fetcher);
        } catch (err) {
          expect(err, String(err)).toBeInstanceOf(FetchError);
          expect([422, 504]).toContain((err as FetchError).status);
          expect((err as FetchError).hint.length).toBeGreaterThan(0);
          figures.typedFailures++;
        }
        expect(Date.now() - t0).toBeLessThan(10_000 + SLACK_MS);
      }),
      { numRuns: 300 },
    );
  }, 120_000);

  test('extractBuffer with fuzzed options ends every document with a result or a typed error, never past its deadline', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...DOCS), fuzzOptions, async ([type, body], options) => {
        figures.extractions++;
        const t0 = Date.now();
        try {
          const r = await fetcher.extractBuffer(body, type, options);
          expect(typeof r.content).toBe('string');
        } catch (err) {
          expect(err, String(err)).toBeInstanceOf(FetchError);
          const fe = err as FetchError;
          expect(fe.status >= 400 && fe.status < 600).toBe(true);
          expect(fe.hint.length, fe.message).toBeGreaterThan(0);
          figures.typedFailures++;
          if (fe.status === 504) figures.hangs++;
        }
        const ms = Date.now() - t0;
        figures.slowest = Math.max(figures.slowest, ms);
        expect(ms, JSON.stringify(options)).toBeLessThan(DEADLINE_MS + SLACK_MS);
      }),
      { numRuns: 400 },
    );
  }, 180_000);

  const redosLine = (grep: string): string => (grep.includes('x') ? `${'x'.repeat(40)}` : grep.includes('\\w') || grep.includes('\\p') ? `${'word '.repeat(12)}!` : `${'a'.repeat(40)}b`);

  test.each(['^(a+)+$', '(a|aa)+$', '^(a|a?)+$', '^(\\w+\\s?)*$', '(x+x+)+y'])('a catastrophic grep %s is answered well before the deadline (V8 reruns it in linear time), and the next grep runs', async (grep) => {
    figures.redos++;
    const r = await fetcher.extractBuffer(Buffer.from(`first\n${redosLine(grep)}\nlast\n`), 'text/plain', { grep });
    // An answer at all: past the deadline it would have been a 504. The long line matches none.
    expect(r.content).toBe(['first', 'last', ''].filter((l) => new RegExp(grep, 'u').test(l)).join('\n'));
    const next = await fetcher.extractBuffer(Buffer.from('alpha\nbeta\n'), 'text/plain', { grep: 'be' });
    expect(next.content).toBe('beta');
  }, 120_000);

  test.each(['^(\\p{L}+\\s?)*$', '^([\\p{Ll}\\s]+)+$'])('a catastrophic grep %s, which only the u flag reads, stops at the deadline with 504, and the next grep runs', async (grep) => {
    figures.redos++;
    const line = redosLine(grep);
    const t0 = Date.now();
    const err = await fetcher.extractBuffer(Buffer.from(`first\n${line}\nlast\n`), 'text/plain', { grep }).catch((e: unknown) => e);
    const ms = Date.now() - t0;
    expect(err).toBeInstanceOf(FetchError);
    expect((err as FetchError).status).toBe(504);
    expect(ms).toBeGreaterThanOrEqual(DEADLINE_MS - 50);
    expect(ms).toBeLessThan(DEADLINE_MS + SLACK_MS);
    const next = await fetcher.extractBuffer(Buffer.from('alpha\nbeta\n'), 'text/plain', { grep: 'be' });
    expect(next.content).toBe('beta');
  }, 120_000);
});

// Each of these pins a fix the reliability suite (test/reliability/faults.test.ts) found.
describe('hostile documents and servers', () => {
  const nested = (n: number): string => `<!doctype html><html><head><title>deep</title></head><body>${'<div>'.repeat(n)}bottom</body></html>`;

  test('10 MB of nested divs is refused with 422 in milliseconds, not parsed for hours on the main thread', () => {
    const t0 = Date.now();
    expect(() => extractArticle(nested(2_000_000), 'http://x/')).toThrow(/document too long: HTML nested more than 4096 levels/);
    expect(() => extractLinks(nested(2_000_000), 'http://x/')).toThrow(FetchError);
    // Refused by a linear scan (milliseconds); parsing would take hours. The cap allows for a busy machine.
    expect(Date.now() - t0).toBeLessThan(20_000);
  });

  test('a page 1,000 levels deep is refused before Readability (which takes ~23 s on it)', () => {
    const t0 = Date.now();
    expect(() => extractArticle(nested(1000), 'http://x/')).toThrow(/more than 256 levels/);
    // Refused by a linear scan (milliseconds); parsing would take hours. The cap allows for a busy machine.
    expect(Date.now() - t0).toBeLessThan(20_000);
    // links and meta do not run Readability: 1,000 levels parse in milliseconds.
    expect(extractLinks(`${nested(1000)}<a href="/a">a</a>`, 'http://x/')).toEqual(['http://x/a']);
  });

  test('the element depth counts the deepest branch, across siblings and text, and stops past the limit', () => {
    // html > body > p, then a sibling branch of 5 divs beside text and comments: depth 2 + 5.
    const doc = parseDocument(`<!doctype html><html><body><p>a</p>text<!-- c -->${'<div>x'.repeat(5)}${'</div>'.repeat(5)}<p>b</p></body></html>`, '');
    expect(nestingDepth(doc, MAX_ARTICLE_DEPTH)).toBe(7);
    expect(nestingDepth(parseDocument(nested(MAX_ARTICLE_DEPTH - 2), ''), MAX_ARTICLE_DEPTH)).toBe(MAX_ARTICLE_DEPTH);
    expect(nestingDepth(parseDocument(nested(MAX_ARTICLE_DEPTH - 1), ''), MAX_ARTICLE_DEPTH)).toBe(MAX_ARTICLE_DEPTH + 1);
    expect(nestingDepth(parseDocument(nested(1000), ''), 10)).toBe(11);
  });

  test('sloppy but ordinary HTML is not deep: unclosed p/li, void tags, markup in scripts and comments', () => {
    const sloppy = `<ul>${'<li><p>item <br><img src=x>'.repeat(5000)}</ul><script>${'"<div>"+'.repeat(5000)}""</script><!-- ${'<div>'.repeat(5000)} -->`;
    expect(markupDepth(sloppy, MAX_PARSE_DEPTH)).toBeLessThan(5);
    // A script's or style's end tag, in any case, closes nothing that was counted open.
    expect(markupDepth('<div><script>x("<div>")</script>'.repeat(300), MAX_PARSE_DEPTH)).toBe(300);
    expect(markupDepth('<section><STYLE>p{}</Style><p>a'.repeat(300), MAX_PARSE_DEPTH)).toBe(300);
    expect(markupDepth('<div><script>"</div></div>"</SCRIPT>'.repeat(10), MAX_PARSE_DEPTH)).toBe(10);
    expect(markupDepth('<div><script>never ends <div><div>', MAX_PARSE_DEPTH)).toBe(1);
    // linkedom closes an unclosed <p> at the next <p>, so such a page stays flat for Readability too.
    const paras = '<p>item <br><img src=x>'.repeat(1000);
    expect(extractArticle(`<html><body><article>${paras}</article></body></html>`, 'http://x/').text).toContain('item');
  });

  test('JSON 10,000 levels deep comes back as sent when it cannot be pretty-printed', async () => {
    const deep = '['.repeat(10_000) + ']'.repeat(10_000);
    const r = await fetcher.extractBuffer(Buffer.from(deep), 'application/json', {});
    expect(r.content).toBe(deep);
    expect(r.meta?.pretty).toBe(false);
  });

  test('jq crashing on a deep document leaves jq working for the next program', async () => {
    const deep = '['.repeat(10_000) + ']'.repeat(10_000);
    const err = await fetcher.extractBuffer(Buffer.from(deep), 'application/json', { jq: '.' }).catch((e: unknown) => e);
    expect(err).toMatchObject({ status: 422 });
    expect((err as FetchError).message).toMatch(/^jq: out of memory or stack/);
    for (let i = 0; i < 4; i++) {
      // Both compute workers: whichever crashed must have started afresh.
      const ok = await fetcher.extractBuffer(Buffer.from('{"a":[1,2]}'), 'application/json', { jq: '.a | length' });
      expect(ok.content).toBe('2');
    }
  });

  test('a target stalled past the batch deadline fails as a 504 timeout, not an internal error', async () => {
    const srv = http.createServer(() => {});
    await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
    const port = (srv.address() as AddressInfo).port;
    const t = tempDir('sift-stall-');
    const store = openStore(path.join(t.dir, 'sift.db'));
    const f = createFetcher({ allowPrivate: true, deadlineMs: 800 });
    const runner = createBatchRunner(store, f, {}, new BatchMetrics(), silentLog(), () => 800);
    try {
      const ids = [0, 1, 2].map((i) => runner.submit({ name: `stall-${i}` }, 'test', [{ url: `http://127.0.0.1:${port}/stall` }]).id);
      for (const id of ids) {
        await terminal(runner, id, 10_000);
        // The batch's time per URL is the pipeline's one deadline, which names the phase.
        expect(store.targetRows(id)[0]).toMatchObject({ status: 'failed', errorStatus: 504, reason: 'timeout', error: "timeout: the target's deadline passed (no response)" });
      }
    } finally {
      await runner.close();
      await f.close();
      store.close();
      srv.closeAllConnections();
      await new Promise<void>((r) => srv.close(() => r()));
      t.remove();
    }
  }, 20_000);
});
