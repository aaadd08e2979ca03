/**
 * The CLI with a database grown large: more jobs than any one screen of them, every one listed.
 */
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { openStore } from '../../src/main/store';
import { manyJobs } from '../helpers/big-job';
import { siftInProcess } from '../helpers/cli-main';
import { tempDir } from '../helpers/store';

let tmp: ReturnType<typeof tempDir>;
let db: string;

beforeEach(() => {
  tmp = tempDir('sift-cli-scale-');
  db = path.join(tmp.dir, 'sift.db');
});
afterEach(() => tmp.remove());

describe('sift jobs', () => {
  test('a database with no jobs says so on stderr, and --json prints nothing', async () => {
    // A fresh install's `sift jobs` printed nothing at all: no list, no word why.
    openStore(db).close();
    const sift = siftInProcess(tmp.dir, { SIFT_HOME: tmp.dir });
    const r = await sift('jobs', '--db', db);
    expect(r.code).toBe(0);
    expect(r.out).toBe('');
    expect(r.err).toBe('sift jobs: no jobs in this database yet; sift batch FILE submits a list\n');
    const json = await sift('jobs', '--json', '--db', db);
    expect(json.code).toBe(0);
    expect(json.out).toBe('');
    expect(json.err).toBe('');
  });

  test('lists every job of a database holding more than 10,000, newest first', async () => {
    // 10,000 was the cap: the oldest job past it was left out, and nothing said so.
    const ids = manyJobs(db, 10_001);
    const r = await siftInProcess(tmp.dir, { SIFT_HOME: tmp.dir })('jobs', '--json', '--db', db);
    expect(r.code).toBe(0);
    const listed = r.out.trim().split('\n').map((l) => (JSON.parse(l) as { id: string }).id);
    expect(listed).toHaveLength(ids.length);
    expect(listed[0]).toBe(ids.at(-1));
    expect(listed.at(-1)).toBe(ids[0]);
  });
});
