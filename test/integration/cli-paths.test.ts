/**
 * Paths a user gives sift: relative to the working folder, and `~` as the home folder, which
 * a shell leaves as written in `--db=~/x` or a quoted "~/x".
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startSite, type Site } from '../helpers/sites';
import { siftInProcess } from '../helpers/cli-main';

let site: Site;
const root = mkdtempSync(path.join(tmpdir(), 'sift-cli-paths-'));
const home = path.join(root, 'home');
const work = path.join(root, 'work');
mkdirSync(home);
mkdirSync(work);
const sift = siftInProcess(work, { HOME: home, USERPROFILE: home, SIFT_HOME: path.join(root, 'app-data') });

beforeAll(async () => {
  site = await startSite();
});
afterAll(async () => {
  await site.close();
  rmSync(root, { recursive: true, force: true });
});

describe('a path that starts with ~', () => {
  it('is in the home folder, for --db, --log, --out and the list, not in a folder named "~" in the working one', async () => {
    writeFileSync(path.join(home, 'list.txt'), `${site.base}/article/1\n${site.base}/article/2\n`);
    const run = await sift('batch', '~/list.txt', '--db=~/sift.db', '--log=~/sift-run.log', '--out=~/results', '--allow-private');
    expect(run.code, run.err).toBe(0);
    expect(existsSync(path.join(work, '~')), 'a folder named ~ in the working folder').toBe(false);
    expect(existsSync(path.join(home, 'sift.db'))).toBe(true);
    expect(readFileSync(path.join(home, 'sift-run.log'), 'utf8')).toContain('"msg"');
    const files = readdirSync(path.join(home, 'results'), { recursive: true }) as string[];
    expect(files.filter((f) => f.endsWith('.md'))).toHaveLength(2);
    // The job is found again where the shell's own ~ expansion points.
    const jobs = await sift('jobs', '--json', '--db', path.join(home, 'sift.db'));
    expect(jobs.code, jobs.err).toBe(0);
    expect(jobs.out.trim().split('\n')).toHaveLength(1);
    const id = (JSON.parse(jobs.out) as { id: string }).id;
    const exported = await sift('export', id, '--db', '~/sift.db', '--out', '~/again.jsonl');
    expect(exported.code, exported.err).toBe(0);
    expect(readFileSync(path.join(home, 'again.jsonl'), 'utf8').trim().split('\n')).toHaveLength(2);
    expect(existsSync(path.join(work, '~'))).toBe(false);
  });
  it('a relative --db is in the working folder', async () => {
    writeFileSync(path.join(work, 'one.txt'), `${site.base}/article/3\n`);
    const run = await sift('batch', 'one.txt', '--db', 'here.db', '--allow-private');
    expect(run.code, run.err).toBe(0);
    expect(existsSync(path.join(work, 'here.db'))).toBe(true);
  });
});
