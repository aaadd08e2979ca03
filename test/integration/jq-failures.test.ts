/**
 * What a user reads when jq fails, through the wiring the app and the CLI run (batch runner,
 * fetcher, compute workers) against a loopback server: one line saying what and where, a hint
 * saying what to do, and the reason of the one at fault (the program, or the document).
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { mkdtempSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { openStore, type Store } from '../../src/main/store';
import { createFetcher, type Fetcher } from '../../src/main/fetch';
import { checkOptions } from '../../src/main/check-options';
import { BatchMetrics } from '../../src/main/metrics';
import { silentLog } from '../../src/main/log';
import { createBatchRunner } from '../../src/main/batchrun';
import type { Runner } from '../../src/main/batch';
import type { Target } from '../../src/shared/types';
import { finished } from '../helpers/runner';
import { startSite, type Site } from '../helpers/sites';

const json = (body: string | Buffer, type = 'application/json') => (_q: unknown, res: ServerResponse) => res.writeHead(200, { 'content-type': type }).end(body);

let site: Site;
let store: Store;
let fetcher: Fetcher;
let runner: Runner;
beforeAll(async () => {
  site = await startSite({
    '/items.json': json('{"title":"Items","items":[{"name":"a","n":1},{"name":"b","n":"two"}]}'),
    '/log.jsonl': json('{"n":1}\n{"n":"two"}\n\n{"n":"four"}\n{"n":5}\n', 'application/x-ndjson'),
    '/trailing-comma.json': json('{\n  "items": [\n    1,\n    2,\n  ]\n}\n'),
    '/cut-short.json': json('{"items":[{"name":"a"},{"name":"b"'),
    '/empty.json': json(''),
    // A proxy's or an API's error page under the JSON type its answers have.
    '/gateway.json': json('\n<!DOCTYPE html><html><head><title>502 Bad Gateway</title></head><body><h1>Bad Gateway</h1></body></html>'),
    '/fault.json': json('<?xml version="1.0"?><fault><code>500</code></fault>'),
    // Past jq's parse depth (10,000), within JSON.parse's.
    '/deep.json': json(`${'['.repeat(12_000)}${']'.repeat(12_000)}`),
    '/many.json': json(JSON.stringify({ items: Array.from({ length: 400 }, (_, i) => ({ id: i, name: `record ${i}`, note: 'x'.repeat(40) })) })),
  });
  const dir = mkdtempSync(path.join(os.tmpdir(), 'sift-jq-'));
  store = openStore(path.join(dir, 'sift.db'));
  fetcher = createFetcher({ allowHosts: ['127.0.0.1'], deadlineMs: 60_000 }, { log: silentLog() });
  runner = createBatchRunner(store, fetcher, { jobsPerCaller: 4, maxBytes: 16_000 }, new BatchMetrics(), silentLog());
});
afterAll(async () => {
  await runner.close();
  await fetcher.close();
  store.close();
  await site.close();
});

/** Runs the targets as a job and gives its stored rows once it is over. */
async function run(targets: Target[]) {
  const { id } = runner.submit({ name: 'jq-user' }, 'test', targets);
  await finished(runner, id);
  return store.targetStatuses(id);
}

describe('a jq program that does not compile', () => {
  test('is said on one line, with the column and the text jq points at, and what to do', async () => {
    const rows = await run([
      { url: `${site.base}/items.json`, options: { jq: '.items[] | {name: }' } },
      { url: `${site.base}/items.json`, options: { jq: '.items[] | foo | bar' } },
      { url: `${site.base}/items.json`, options: { jq: '.items[]\n| select(.n > $min)' } },
      { url: `${site.base}/items.json`, options: { jq: 'include "helpers"; .items' } },
    ]);
    // jq's block for a terminal (a caret under the quoted program, "jq: 1 compile error") broke
    // the CLI's progress line and "what to do" list, and ran over the app's one-line cell.
    for (const r of rows) {
      expect(r).toMatchObject({ status: 'failed', reason: 'bad_option' });
      expect(r.error).not.toMatch(/\n|compile error|<top-level>|\^/);
    }
    expect(rows[0]!.error).toBe(`jq: syntax error, unexpected '}' at column 19 ("}")`);
    expect(rows[0]!.hint).toBe('Check the jq program; https://jqlang.org/manual/ has the syntax.');
    // Every error jq found, each where it is.
    expect(rows[1]!.error).toBe('jq: foo/0 is not defined at column 12 ("foo"); bar/0 is not defined at column 18 ("bar")');
    // In a program of several lines, the line too; an unbound $name is jq's --arg, which a list has no place for.
    expect(rows[2]!.error).toBe('jq: $min is not defined at line 2, column 15 ("$min")');
    expect(rows[2]!.hint).toMatch(/without --arg: bind a value in the program itself \("Berlin" as \$city \| …/);
    // There are no module files to include: said, with what to do instead.
    expect(rows[3]!.error).toBe('jq: module not found: helpers');
    expect(rows[3]!.hint).toMatch(/no module files to import or include: define the functions in the program itself/);
  });

  test('is checked up front in its own words, the same as a target says it', async () => {
    const e = await checkOptions({ jq: '.items[]\n| foo' }, fetcher).then(
      () => undefined,
      (err: unknown) => err as { message: string; hint: string },
    );
    // The check compiles the program inside a wrapper; the line named is the program's own.
    expect(e?.message).toBe('jq: foo/0 is not defined at line 2, column 3 ("foo")');
    expect(e?.hint).toMatch(/^Check the jq program/);
  });
});

describe('a jq program that fails on a value', () => {
  test("says what failed, without jq-wasm's file name, and on JSON Lines on which lines", async () => {
    const rows = await run([
      { url: `${site.base}/items.json`, options: { jq: '.items[] | .n + 1' } },
      { url: `${site.base}/items.json`, options: { jq: 'error({"code": 7})' } },
      { url: `${site.base}/log.jsonl`, options: { jq: '.n + 1' } },
    ]);
    for (const r of rows) {
      expect(r).toMatchObject({ status: 'failed', reason: 'bad_option' });
      expect(r.error).not.toMatch(/\/dev\/stdin/);
      expect(r.hint).toMatch(/try … catch/);
    }
    // In one document jq's line is where the document ends, whatever the value: left out.
    expect(rows[0]!.error).toBe('jq: string ("two") and number (1) cannot be added');
    expect(rows[1]!.error).toBe('jq: error({"code":7})');
    // A record of JSON Lines is found by its line: the second and the fourth (a blank line between).
    expect(rows[2]!.error).toBe('jq: line 2: string ("two") and number (1) cannot be added (2 records failed, on lines 2, 4)');
  });
});

describe('a jq program that reads past the last input', () => {
  test("says there was no more input and how to do without, not jq-wasm's 'break'", async () => {
    const rows = await run([
      { url: `${site.base}/items.json`, options: { jq: '[., input]' } },
      { url: `${site.base}/log.jsonl`, options: { jq: '[., input, input]' } },
    ]);
    for (const r of rows) {
      expect(r).toMatchObject({ status: 'failed', reason: 'bad_option' });
      expect(r.error).not.toMatch(/\bbreak\b/);
      expect(r.hint).toMatch(/\(input\? \/\/ null\)/);
    }
    expect(rows[0]!.error).toBe('jq: no more inputs: input reads the JSON value after the current one, and there was none left');
    // Records on lines 1, 2, 4 and 5: the second pair starts on line 5 and has nothing after it.
    expect(rows[1]!.error).toBe('jq: line 5: no more inputs: input reads the JSON value after the current one, and there was none left');
  });
});

describe('a JSON document jq cannot read', () => {
  test('broken or cut short is the document’s failure, with where and what to do; empty is an empty result', async () => {
    const rows = await run([
      { url: `${site.base}/trailing-comma.json`, options: { jq: '.items' } },
      { url: `${site.base}/cut-short.json`, options: { jq: '.items' } },
      { url: `${site.base}/empty.json`, options: { jq: '.items' } },
      { url: `${site.base}/deep.json`, options: { jq: 'length' } },
    ]);
    // The program is fine: "bad URL or option" sent the user to rewrite it. A damaged PDF is
    // the same kind of failure, and has this reason.
    expect(rows[0]).toMatchObject({ status: 'failed', reason: 'unsupported', error: 'jq: the document is not valid JSON: unexpected "]" near "2, ] }"' });
    expect(rows[0]!.error).not.toMatch(/\n/);
    expect(rows[0]!.hint).toMatch(/broken at that place/);
    expect(rows[1]).toMatchObject({ status: 'failed', reason: 'unsupported', error: 'jq: the document is not valid JSON: it stops after 34 characters, inside its JSON' });
    expect(rows[1]!.hint).toMatch(/only part of the document/);
    // jq reads no input from an empty answer and gives nothing, as without jq it is ok and warned empty.
    expect(rows[2]).toMatchObject({ status: 'done', result: { content: '' } });
    expect(rows[2]!.result?.meta?.warnings).toEqual(['empty']);
    // Nested deeper than jq reads: no program helps, and the hint said to change the program.
    expect(rows[3]).toMatchObject({ status: 'failed', reason: 'unsupported', error: 'jq: the document is nested deeper than jq reads (10,000 levels): Exceeds depth limit for parsing at line 1, column 10001' });
    expect(rows[3]!.hint).toBe('No jq program can read it. Without jq the document comes back as it was sent.');
  });
});

describe('a page sent as JSON', () => {
  test('is said to be the page it is, not JSON "broken at that place (a trailing comma, a stray character)"', async () => {
    const rows = await run([
      { url: `${site.base}/gateway.json`, options: { jq: '.items' } },
      { url: `${site.base}/fault.json`, options: { jq: '.items' } },
    ]);
    for (const r of rows) {
      expect(r).toMatchObject({ status: 'failed', reason: 'unsupported' });
      expect(r.hint).toBe('Servers answer so with an error or sign-in page in place of the JSON; without jq it comes back as the text that came, to read what it says.');
    }
    expect(rows[0]!.error).toBe('jq: the document is labelled JSON, and it is an HTML page, not JSON');
    expect(rows[1]!.error).toBe('jq: the document is labelled JSON, and it is markup (XML), not JSON');
  });
});

describe('a jq program that gives more than a result may hold', () => {
  test('says to narrow the program, not to choose pages or grep', async () => {
    const [row] = await run([{ url: `${site.base}/many.json`, options: { jq: '.items[]' } }]);
    expect(row).toMatchObject({ status: 'failed', reason: 'too_long' });
    expect(row!.error).toMatch(/^document too long: /);
    expect(row!.hint).toMatch(/^The jq program gave this much: have it give less/);
    expect(row!.hint).not.toMatch(/pages/);
  });
});
