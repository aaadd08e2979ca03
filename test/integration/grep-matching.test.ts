/**
 * What `--grep` finds in the text a user fetched, as grep -i and grep -E users expect: through
 * the CLI's own path (sift fetch in this process: fetcher, compute worker, store) against a
 * loopback site.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import type { ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { siftInProcess } from '../helpers/cli-main';
import { startSite, type Site } from '../helpers/sites';
import { tempDir } from '../helpers/store';

const text = (body: string) => (_q: unknown, res: ServerResponse) => res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' }).end(body);

// A German street sign set in capitals with the capital sharp s, a line of an 18th-century
// book set with the long s, a temperature with the Kelvin sign.
const FOLDS = ['STRAẞE DES 17. JUNI', 'Hiſtory of the ſtate', 'Boils at 373 \u212A', 'plain ASCII line'].join('\n');
// Turkish writes the capital of i with a dot (İ) and the small of I without (ı).
const TURKISH = ["İstanbul'da yağmur", 'ISTANBUL HAVALİMANI', 'ıstanbul (yazım hatası)', 'istanbul', 'İzmir'].join('\n');

let site: Site;
let tmp: ReturnType<typeof tempDir>;
let sift: ReturnType<typeof siftInProcess>;
let db: string;

beforeAll(async () => {
  site = await startSite({ '/folds.txt': text(FOLDS), '/turkish.txt': text(TURKISH) });
  tmp = tempDir('sift-grep-matching-');
  writeFileSync(path.join(tmp.dir, 'settings.json'), JSON.stringify({ allowHosts: ['127.0.0.1'], deadlineSeconds: 20 }));
  sift = siftInProcess(tmp.dir, { SIFT_HOME: tmp.dir });
  db = path.join(tmp.dir, 'sift.db');
}, 120_000);
afterAll(async () => {
  await site.close();
  tmp.remove();
});

/** The lines `sift fetch ROUTE --grep G` printed, and what it said on stderr. */
async function grep(route: string, g: string): Promise<{ lines: string[]; err: string; code: number }> {
  const r = await sift('fetch', `${site.base}${route}`, '--grep', g, '--db', db);
  return { lines: r.out === '' ? [] : r.out.replace(/\n$/, '').split('\n'), err: r.err, code: r.code };
}

describe('(?i) ignores case in every script, on every line', () => {
  test("letters whose capital or small form is another script's or is no ASCII (ẞ, ſ, the Kelvin sign) match as the u flag folds them", async () => {
    // Before, each matched nothing: the pattern ran without the u flag, whose case folding stops at ASCII.
    expect((await grep('/folds.txt', '(?i)straße')).lines).toEqual(['STRAẞE DES 17. JUNI']);
    expect((await grep('/folds.txt', '(?i)history of the state')).lines).toEqual(['Hiſtory of the ſtate']);
    expect((await grep('/folds.txt', '(?i)373 k$')).lines).toEqual(['Boils at 373 \u212A']);
    // What matched before still does, and case still counts without (?i).
    expect((await grep('/folds.txt', '(?i)PLAIN')).lines).toEqual(['plain ASCII line']);
    expect((await grep('/folds.txt', 'straße')).lines).toEqual([]);
  });

  test('the dotted capital İ and the dotless ı are an i, as Python reads them: Istanbul is found however Turkish or English set it', async () => {
    const every = ["İstanbul'da yağmur", 'ISTANBUL HAVALİMANI', 'ıstanbul (yazım hatası)', 'istanbul'];
    // Before: (?i)istanbul missed "İstanbul'da", and (?i)İstanbul found that line alone.
    expect((await grep('/turkish.txt', '(?i)istanbul')).lines).toEqual(every);
    expect((await grep('/turkish.txt', '(?i)İSTANBUL')).lines).toEqual(every);
    expect((await grep('/turkish.txt', '(?i)havalimanı')).lines).toEqual(['ISTANBUL HAVALİMANI']);
    // Case counts without (?i): İ is İ.
    expect((await grep('/turkish.txt', 'İ')).lines).toEqual(["İstanbul'da yağmur", 'ISTANBUL HAVALİMANI', 'İzmir']);
  });
});
