/**
 * A `sift export` that opened the database itself (no batch, no app) holds its lock while it
 * writes, which takes seconds for a big job. `sift status` and a second `sift export` run
 * meanwhile were told "locked by another process … sqlite3, a backup or sync tool", and to
 * wait: the exporter answered no requests for a copy, as a batch and the app do.
 * The real command as child processes, on a real database file.
 */
import { expect, test } from 'vitest';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { finishedJobForFile } from '../helpers/big-job-file';
import { collect, runSift, startSift } from '../helpers/cli';
import { until } from '../helpers/store';

// 4,000 results of 2 kB as a folder of files: seconds of writing on the 2-core build machine,
// the time for the other commands to start while it runs.
const TARGETS = 4_000;
const onDisk = finishedJobForFile('sift-cli-export-owner-', TARGETS, { resultBytes: 2_000 });

test('sift status and a second sift export, while a sift export writes, read the database as it is', async () => {
  const { t, db, env, id } = onDisk;
  const out = path.join(t.dir, 'out');
  const exporter = startSift(['export', id, '--out', out, '--db', db], { env });
  exporter.stdin!.end();
  const exported = collect(exporter);
  // It holds the lock and writes: its hidden folder is there.
  await until(() => {
    try {
      return readdirSync(out).some((n) => n.includes('.partial'));
    } catch {
      return false;
    }
  }, 60_000);
  const [status, second] = await Promise.all([runSift(['status', id, '--db', db], { env }), runSift(['export', id, '--out', path.join(t.dir, 'out2'), '--format', 'csv', '--db', db], { env })]);
  expect(status.stderr).not.toMatch(/locked by another process/);
  expect(status.code, status.stderr).toBe(0);
  expect(status.stdout).toMatch(new RegExp(`^job ${id}: partial, ${TARGETS}/${TARGETS} finished, 400 failed`));
  expect(second.code, second.stderr).toBe(0);
  expect(readdirSync(path.join(t.dir, 'out2'))).toEqual([`sift-${id}.csv`]);
  const first = await exported;
  expect(first.code, first.stderr).toBe(0);
  expect(readdirSync(out)).toEqual([`sift-${id}`]);
}, 300_000);
