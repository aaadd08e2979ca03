import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { grepProblem } from '../../src/shared/grep';
import { MODES, type Options } from '../../src/shared/types';
import { LIST_FORMATS, formatOptionsLine, isRouteFragment, normalizeUrl, optionsConflict, parseList, type ParsedList } from '../../src/shared/urllist';

// Pieces of every format's syntax, so random lists hit the readers' edge cases far more
// often than random text would.
const SNIPPETS = [
  '"', "'", '\\', '[', ']', '](', ')', '<', '>', '<a href="', '<A HREF=', "href='", '&amp;', '&#x', ',', '\t', '#',
  ' ', '\r', '\n', '\uFEFF', '{"url":', '"options":{', '}', 'q="', "jq='", ' context', ' mode=text', ' pages=1-',
  'grep=(', 'javascript:', 'place:', 'ftp://', 'http://', 'https://', 'example.com/', 'xn--', 'ü', '\u0000', '//',
  'url,mode\n', 'link\tq\n', '![', '<https://', ':443', '%', '%zz',
];
const listish = fc
  .array(fc.oneof(fc.constantFrom(...SNIPPETS), fc.webUrl({ withFragments: true, withQueryParameters: true }), fc.string()), {
    maxLength: 60,
  })
  .map((parts) => parts.join(''));
const anyInput = fc.oneof(listish, fc.string({ unit: 'binary', maxLength: 400 }));
const format = fc.constantFrom(undefined, ...LIST_FORMATS);

function checkInvariants(r: ParsedList, caps: { maxLines: number; maxTargets: number }): void {
  // Violations are gathered and asserted once: an expect() per entry would make the
  // 50,000-problem cases below slower than the parse they check.
  const bad: string[] = [];
  for (const t of r.targets) {
    const u = new URL(t.url);
    if (u.protocol !== 'http:' && u.protocol !== 'https:') bad.push(`non-http(s) target ${t.url}`);
    if (t.url.length > 8192) bad.push(`target over 8 KiB on line ${t.line}`);
    if (normalizeUrl(t.url) !== t.url) bad.push(`target not normalised: ${t.url}`);
    if (t.line < 1 || t.line > caps.maxLines) bad.push(`target line ${t.line} outside 1..${caps.maxLines}`);
  }
  if (r.targets.length > caps.maxTargets) bad.push(`${r.targets.length} targets over the cap ${caps.maxTargets}`);
  const keys = r.targets.map((t) => `${t.url} ${JSON.stringify(t.options ?? {})}`);
  if (new Set(keys).size !== keys.length) bad.push('duplicate targets kept');
  for (const p of [...r.invalid, ...r.duplicates]) {
    if (p.text.length > 200) bad.push(`problem text of ${p.text.length} characters`);
    if (p.reason === '') bad.push(`no reason on line ${p.line}`);
    // Line 0 is the parser's own failure report: a reader threw.
    if (p.line < 1) bad.push(`line ${p.line}: ${p.reason}`);
  }
  expect(bad).toEqual([]);
}

describe('parseList under fuzzing', () => {
  it('never throws, never yields a non-http(s) URL, and keeps to its caps', () => {
    fc.assert(
      fc.property(
        anyInput,
        format,
        fc.integer({ min: 1, max: 30 }),
        fc.integer({ min: 0, max: 20 }),
        fc.integer({ min: 1, max: 300 }),
        (input, fmt, maxLines, maxTargets, maxLineLength) => {
          const caps = { maxLines, maxTargets };
          const r = parseList(input, { format: fmt, maxLines, maxTargets, maxLineLength });
          checkInvariants(r, caps);
          if (fmt) expect(r.format).toBe(fmt);
        },
      ),
      { numRuns: 3000 },
    );
  });

  it('reports the truncation exactly when a list has more lines than maxLines', () => {
    fc.assert(
      fc.property(fc.array(fc.webUrl(), { minLength: 1, maxLength: 40 }), fc.integer({ min: 1, max: 40 }), (urls, maxLines) => {
        const r = parseList(urls.join('\n'), { format: 'text', maxLines });
        expect(r.truncated).toBe(urls.length > maxLines);
        expect(r.targets.length + r.invalid.length + r.duplicates.length).toBe(Math.min(urls.length, maxLines));
      }),
    );
  });

  it('reads back every line formatOptionsLine writes as the same target', () => {
    const text = fc.string({ minLength: 1, maxLength: 40 }).filter((s) => !/[\r\n]/.test(s));
    // A grep option Sift takes: \A, which JavaScript reads as the letter, is refused as a list line's too.
    const regex = text.filter((s) => grepProblem(s) === undefined);
    const options: fc.Arbitrary<Options> = fc.record(
      {
        mode: fc.constantFrom(...MODES),
        // A question of blanks is refused, as an empty one is.
        question: text.filter((s) => s.trim() !== ''),
        pages: fc.constantFrom('1', '1-3', '1-3,7,10-', '2-'),
        grep: regex,
        jq: text,
        context: fc.boolean(),
        recover: fc.boolean(),
      },
      { requiredKeys: [] },
    // Options that ask for different results (jq with mode raw) are refused by design: the
    // round trip is of those a line can hold.
    ).filter((o) => optionsConflict(o) === undefined);
    fc.assert(
      fc.property(fc.webUrl({ withQueryParameters: true }), options, (raw, o) => {
        const url = normalizeUrl(raw);
        fc.pre(url !== null);
        const r = parseList(formatOptionsLine({ url: url as string, options: o }), { format: 'text' });
        expect(r.invalid).toEqual([]);
        const want = Object.keys(o).length ? { url, options: o, line: 1 } : { url, line: 1 };
        expect(r.targets).toEqual([want]);
      }),
      { numRuns: 2000 },
    );
  });

  it('normalizeUrl is idempotent and keeps only http(s)', () => {
    fc.assert(
      fc.property(fc.oneof(fc.webUrl({ withFragments: true }), fc.string()), (raw) => {
        const once = normalizeUrl(raw);
        if (once === null) return;
        expect(normalizeUrl(once)).toBe(once);
        expect(/^https?:\/\//.test(once)).toBe(true);
        // A fragment stays only as a route (#/…, #!…), never as an anchor.
        const at = once.indexOf('#');
        if (at !== -1) expect(isRouteFragment(once.slice(at))).toBe(true);
      }),
    );
  });
});

describe('parseList stays linear on hostile input', () => {
  // 200 KB of each reader's worst case: an unclosed bracket run, tags without '>', quotes
  // without end. A quadratic scan would take minutes here; the budget is generous for CI.
  const big = 200_000;
  it.each([
    ['markdown', '['.repeat(big)],
    ['markdown', '[a'.repeat(big / 2)],
    ['markdown', `${'[a](b '.repeat(2000)}\n`.repeat(20)],
    ['html', '<a '.repeat(big / 3)],
    ['html', `<a href="${'x'.repeat(big)}`],
    ['json', `[${'"a",'.repeat(big / 4)}`],
    ['json', '['.repeat(big)],
    ['csv', '"'.repeat(big)],
    ['csv', `url\n${'"a""b",'.repeat(big / 7)}`],
    ['text', `https://a.org/ q="${'\\"'.repeat(big / 2)}`],
  ] as const)('%s: %#', (fmt, input) => {
    const t0 = performance.now();
    const r = parseList(input, { format: fmt, maxLineLength: 1 << 20 });
    // Linear is milliseconds, quadratic is minutes: a wide cap holds on a busy CI machine too.
    expect(performance.now() - t0).toBeLessThan(20_000);
    checkInvariants(r, { maxLines: 200_000, maxTargets: Infinity });
  });
});
