/**
 * What a user gets from `--jq` on the JSON documents servers really send, through the CLI's
 * own path (sift fetch and sift batch in this process: fetcher, batch runner, compute worker,
 * store, export) against a loopback server.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { loopbackSift, type LoopbackSift, type siftInProcess } from '../helpers/cli-main';
import { startSite, type Site } from '../helpers/sites';

const send = (body: string, type: string) => (_q: unknown, res: ServerResponse) => res.writeHead(200, { 'content-type': type }).end(body);

let site: Site;
let tmp: LoopbackSift;
let sift: ReturnType<typeof siftInProcess>;
let db: string;

beforeAll(async () => {
  site = await startSite({
    '/prices.json': send('{"title":"Prices","items":[{"name":"tea","price":3},{"name":"cake","price":4}]}', 'application/json'),
    // XSSI guards, as APIs that answer a page's own scripts send them.
    '/guarded.json': send(`)]}'\n{"title":"Prices","items":[{"name":"tea","price":3}]}`, 'application/json'),
    '/guarded-comma.json': send(`)]}',\n[["tea",3],["cake",4]]`, 'application/json; charset=utf-8'),
    '/while.json': send('while(1);{"items":[{"name":"tea"}]}', 'application/json'),
    // JSONP, as a server answers ?callback=…, under the script types it is sent with.
    '/prices.js': send('/**/ typeof jQuery3510_17 === \'function\' && jQuery3510_17({"items":[{"name":"tea"},{"name":"cake"}]});', 'application/javascript'),
    '/prices.jsonp': send('handle.prices({"items":[{"name":"scone"}]})\n', 'text/javascript; charset=utf-8'),
    // A script that is no JSONP stays a script.
    '/app.js': send('init({items: [1, 2]});', 'application/javascript'),
    // Values one after another, as `jq . a.json b.json > all.json` writes them, and NaN as Python writes it.
    '/records.json': send('{\n  "name": "tea",\n  "price": 3\n}\n{\n  "name": "cake",\n  "price": 4\n}\n', 'application/json'),
    '/inline.json': send('{"name":"tea"} {"name":"cake"}', 'application/json'),
    '/python.json': send('{"name": "tea", "price": NaN, "stock": Infinity}', 'application/json'),
    '/records-broken.json': send('{\n  "name": "tea"\n}\n{\n  "name": "cake",\n  "price": 4,\n}\n', 'application/json'),
    '/records-cut.json': send('{\n  "name": "tea"\n}\n{\n  "name": "ca', 'application/json'),
    '/prices.csv': send('name,price\ntea,3\n', 'text/csv'),
  });
  tmp = loopbackSift('sift-jq-documents-');
  ({ sift, db } = tmp);
}, 120_000);
afterAll(async () => {
  await site.close();
  tmp.remove();
});

/** `sift fetch URL --jq PROG --json`: the one JSON line it prints, and what it wrote to stderr. */
async function fetchJq(route: string, program: string, ...flags: string[]): Promise<{ code: number; line: Record<string, unknown>; err: string }> {
  const r = await sift('fetch', `${site.base}${route}`, '--jq', program, '--db', db, '--json', ...flags);
  return { code: r.code, line: JSON.parse(r.out) as Record<string, unknown>, err: r.err };
}

describe('a jq program that gives no value', () => {
  test('is ok and warned no_output, and the result and its export say the program let nothing through, not that the document had no text', async () => {
    const { code, line } = await fetchJq('/prices.json', '.items[] | select(.price > 10)');
    expect(code).toBe(0);
    expect(line).toMatchObject({ ok: true, content: '', warnings: ['no_output'] });

    // Said on stderr where a terminal shows nothing on stdout.
    const plain = await sift('fetch', `${site.base}/prices.json`, '--jq', '.items[] | select(.price > 10)', '--db', db);
    expect(plain.out).toBe('');
    expect(plain.err).toMatch(/no jq output: The result is empty: the jq program gave no value for this document/);

    writeFileSync(path.join(tmp.dir, 'none.txt'), `${site.base}/prices.json jq='.items[] | select(.price > 10)'\n`);
    const out = path.join(tmp.dir, 'out-none');
    const r = await sift('batch', 'none.txt', '--db', db, '--out', out, '--format', 'md');
    expect(r.code, r.err).toBe(0);
    expect(r.err).toMatch(/ok 0 B \(no jq output\)/);
    const [folder] = readdirSync(out);
    const file = readdirSync(path.join(out, folder!)).find((f) => f.endsWith('.txt') && f !== 'failed.txt');
    const text = readFileSync(path.join(out, folder!, file!), 'utf8');
    expect(text).toMatch(/the jq program gave no value for this document/);
    expect(text).not.toMatch(/had no text/);
  });
});

describe('JSON behind an XSSI guard or in a JSONP call', () => {
  test('is read as the JSON inside, as every client of such an API reads it, and meta says which wrapper came off', async () => {
    const guarded = await fetchJq('/guarded.json', '.items[].name');
    expect(guarded.line).toMatchObject({ ok: true, content: '"tea"', meta: { json_wrapper: 'xssi', title: 'Prices' } });
    expect((await fetchJq('/guarded-comma.json', '.[][0]')).line).toMatchObject({ ok: true, content: '"tea"\n"cake"' });
    expect((await fetchJq('/while.json', '.items[0].name')).line).toMatchObject({ ok: true, content: '"tea"' });
    // Sent as a script: it was "jq needs a JSON document, and this one is text".
    expect((await fetchJq('/prices.js', '.items[].name', '--mode', 'text')).line).toMatchObject({ ok: true, content: 'tea\ncake', meta: { json_wrapper: 'jsonp', kind: 'json' } });
    expect((await fetchJq('/prices.jsonp', '.items[0].name')).line).toMatchObject({ ok: true, content: '"scone"', meta: { json_wrapper: 'jsonp' } });
  });

  test('is laid out as JSON without jq too, and comes back as sent in mode raw', async () => {
    const shown = await sift('fetch', `${site.base}/guarded.json`, '--db', db, '--json');
    expect(JSON.parse(shown.out)).toMatchObject({ ok: true, content: '{\n  "title": "Prices",\n  "items": [\n    {\n      "name": "tea",\n      "price": 3\n    }\n  ]\n}', meta: { kind: 'json', json_wrapper: 'xssi' } });
    const raw = await sift('fetch', `${site.base}/guarded.json`, '--db', db, '--json', '--mode', 'raw');
    expect(JSON.parse(raw.out)).toMatchObject({ ok: true, content: `)]}'\n{"title":"Prices","items":[{"name":"tea","price":3}]}` });
  });

  test('a script that only looks like a call is still no JSON, and the message says what type came', async () => {
    const { code, line } = await fetchJq('/app.js', '.items');
    expect(code).toBe(1);
    expect(line).toMatchObject({ ok: false, reason: 'bad_option', error: 'jq needs a JSON document, and this one is text (application/javascript)' });
    expect((await fetchJq('/prices.csv', '.')).line).toMatchObject({ ok: false, error: 'jq needs a JSON document, and this one is text (text/csv)' });
  });
});

describe('JSON that jq reads and JSON.parse does not', () => {
  test('values one after another, pretty or on one line, and NaN or Infinity, go to jq as jq reads them', async () => {
    expect((await fetchJq('/records.json', '.name', '--mode', 'text')).line).toMatchObject({ ok: true, content: 'tea\ncake' });
    expect((await fetchJq('/records.json', '[inputs.price] | add')).line).toMatchObject({ ok: true, content: '4' });
    expect((await fetchJq('/inline.json', '.name')).line).toMatchObject({ ok: true, content: '"tea"\n"cake"' });
    // jq 1.8 reads NaN as null and Infinity as the largest number.
    expect((await fetchJq('/python.json', '[.price, .stock > 1e300]')).line).toMatchObject({ ok: true, content: '[\n  null,\n  true\n]' });
  });

  test('broken past the first value, says where jq found it broken, not where the first value ended', async () => {
    const broken = await fetchJq('/records-broken.json', '.name');
    expect(broken.line).toMatchObject({ ok: false, reason: 'unsupported', error: 'jq: the document is not valid JSON: Expected another key-value pair at line 7, column 1' });
    expect(broken.line.hint).toMatch(/broken at that place/);
    const cut = await fetchJq('/records-cut.json', '.name');
    expect(cut.line).toMatchObject({ ok: false, reason: 'unsupported' });
    expect(cut.line.error).toMatch(/^jq: the document is not valid JSON: Unfinished .* at EOF at line 5/);
    expect(cut.line.hint).toMatch(/only part of the document/);
  });
});

describe('a jq program that stops itself with halt_error', () => {
  test('fails with its own message on one line and the exit status it gave, not as inputs that failed', async () => {
    const stopped = await fetchJq('/prices.json', '.items[] | if .price > 3 then "no price over 3 allowed\\n(found \\(.name))\\n" | halt_error else .name end');
    // Its two lines read as two inputs of jq's that failed: "no price over 3 allowed (2 inputs failed)".
    expect(stopped.line).toMatchObject({ ok: false, reason: 'bad_option', error: 'jq: the program stopped with halt_error (exit status 5): no price over 3 allowed (found cake)' });
    expect(stopped.line.hint).toMatch(/halt_error/);
    expect(stopped.line.hint).not.toMatch(/try … catch/);
    expect((await fetchJq('/prices.json', '{code: 7} | halt_error(1)')).line).toMatchObject({ error: 'jq: the program stopped with halt_error (exit status 1): {"code":7}' });
  });

  test('an error after what the stderr builtin wrote is still the error, not halt_error', async () => {
    // stderr writes its value with no line end, so jq's error line began with the value.
    const r = await fetchJq('/prices.json', '.title | stderr | error("no prices today")');
    expect(r.line).toMatchObject({ ok: false, reason: 'bad_option', error: 'jq: no prices today' });
    expect(r.line.hint).toMatch(/try … catch/);
  });
});

describe('a jq program that does not compile', () => {
  test("is said in the program's own characters and plain words, not the names jq's grammar gives its tokens", async () => {
    const said = async (program: string): Promise<string> => {
      const r = await sift('fetch', `${site.base}/prices.json`, '--jq', program, '--db', db);
      expect(r.code).toBe(2);
      return r.err.split('\n')[0]!.replace(/^sift fetch: \S+: /, '');
    };
    // A string in single quotes, as a shell or a list line writes one: "unexpected INVALID_CHARACTER".
    expect(await said(`.items[] | select(.name == 'tea')`)).toBe(`jq: syntax error, unexpected "'" (jq writes strings in double quotes: "text", not 'text') at column 28`);
    // A string left open: "expecting QQSTRING_TEXT or QQSTRING_INTERP_START or QQSTRING_END".
    expect(await said('.items[] | "tea')).toBe('jq: syntax error, unexpected end of the program, expecting the closing " of a string at column 13 ("tea")');
    expect(await said('.items[] }')).toBe('jq: syntax error, unexpected "}", expecting end of the program at column 10');
    expect(await said('{name: 1 2}')).toBe('jq: syntax error, unexpected number, expecting \'}\' at column 10 ("2")');
    // A label jq names as its own variable: "$*label-out is not defined".
    expect(await said('label $stop | .items[] | break $out')).toBe('jq: break $out has no label $out around it at column 26 ("break $out")');
  });
});
