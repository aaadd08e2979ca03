/**
 * `sift export` stopped twice (Ctrl-C, then Ctrl-C or a kill) while it writes: the second
 * signal exits at once, without waiting for the export to be cancelled, and what the export
 * had made (its hidden ".partial" folder, the folders --out named that did not exist) goes
 * with it, and the exit says so and what to do. The real bundle as a child process, on a real
 * database file.
 */
import { expect, test } from 'vitest';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { finishedJobForFile } from '../helpers/big-job-file';
import { collect, runSift, startSift } from '../helpers/cli';
import { until } from '../helpers/store';

// 4,000 results of 2 kB as a folder of files: seconds of writing on the 2-core build machine,
// so the export is still under way when its hidden folder shows (cli-export-owner.test.ts).
const TARGETS = 4_000;
const onDisk = finishedJobForFile('sift-cli-export-interrupt-', TARGETS, { resultBytes: 2_000 });

const hasPartial = (dir: string): boolean => {
  try {
    return readdirSync(dir).some((n) => n.includes('.partial'));
  } catch {
    return false;
  }
};

test('a second Ctrl-C during sift export exits at once, takes the folders it made along, and says what to do', async () => {
  const { t, db, env, id } = onDisk;
  const base = path.join(t.dir, 'exports');
  const out = path.join(base, 'new', 'deep');
  const child = startSift(['export', id, '--out', out, '--db', db], { env });
  child.stdin!.end();
  const done = collect(child);
  // The export under way: its hidden folder is in the folder --out made.
  await until(() => hasPartial(out), 60_000);
  // Both signals land before the first one's work goes on: a stopped process keeps them
  // pending (two of one kind would merge into one), and reads them together when it runs.
  child.kill('SIGSTOP');
  child.kill('SIGINT');
  child.kill('SIGTERM');
  child.kill('SIGCONT');
  const run = await done;
  // Whichever the process reads first names the exit: 130 (Ctrl-C) or 143 (kill).
  expect([130, 143], run.stderr).toContain(run.code);
  expect(run.stderr).toContain('sift export: stopped at once: nothing was written (its unfinished files are removed): the same sift export again writes it whole\n');
  expect(run.stderr).not.toMatch(/exported/);
  // new/deep were made for the export, which was never written: empty folders read as one.
  expect(readdirSync(t.dir)).not.toContain('exports');
  // And the same command again writes it whole: the stopped one left no lock or mark behind.
  const again = await runSift(['export', id, '--out', out, '--db', db], { env });
  expect(again.code, again.stderr).toBe(0);
  expect(readdirSync(out)).toEqual([`sift-${id}`]);
  // One file per done target (every 10th failed, and is left out without --include-failed).
  expect(readdirSync(path.join(out, `sift-${id}`)).filter((n) => /^Page \d+\.md$/.test(n))).toHaveLength(TARGETS - TARGETS / 10);
}, 300_000);
