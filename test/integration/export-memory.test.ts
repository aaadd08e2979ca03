/**
 * `sift export` of a job of many small results, in-process over a real database file: the
 * memory it keeps must not grow with the job. Each progress line it draws is a moment to
 * measure: after a full garbage collection, what is still held (heap and buffers) over what
 * was held when it began; and the peak RSS of the process (VmHWM), reported.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { PassThrough, Writable } from 'node:stream';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { exportCommand } from '../../src/cli/commands/jobs';
import { EXIT, type CliIO } from '../../src/cli/io';
import { openStore } from '../../src/main/store';
import { tempDir } from '../helpers/store';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

const JOB = 'c1b2c3d4e5f60718';
// 12,000 results of 3.6 KB: small results (grep lines, meta, a short page) under Node's 4 KB
// buffer-pool cut-off, 43 MB in all, enough for what grows with the job to stand out of the noise.
const TARGETS = 12_000;
const RESULT_CHARS = 3_600;
let tmp: ReturnType<typeof tempDir>;
let db: string;

beforeAll(() => {
  tmp = tempDir('sift-export-memory-');
  db = path.join(tmp.dir, 'sift.db');
  const store = openStore(db);
  store.insertJob({ id: JOB, caller: 'cli', callerClass: 'cli', idemKey: 'k', targetsTotal: TARGETS, nowMs: 1_000, leaseExpires: 9e15 }, Array.from({ length: TARGETS }, (_, i) => ({ url: `https://example.test/page/${i}` })));
  store.transition(JOB, 'queued', 'running', '', 1_000);
  store.immediate(() => {
    for (let i = 0; i < TARGETS; i++) {
      const content = `# Page ${i}\n\n${`words of page ${i} `.repeat(RESULT_CHARS)}`.slice(0, RESULT_CHARS);
      store.startTarget(JOB, i, 2_000);
      store.finishTarget(JOB, i, { status: 'done', result: { content, meta: { title: `Page ${i}` } }, error: '', hint: '', bytes: content.length, title: `Page ${i}`, errorStatus: 0 }, 2_000, 9e15);
    }
  });
  store.transition(JOB, 'running', 'done', '', 3_000);
  store.close();
});
afterAll(() => tmp.remove());

const MiB = 1024 * 1024;
const held = (): number => {
  gc();
  const m = process.memoryUsage();
  return m.heapUsed + m.arrayBuffers;
};
const peakRss = (): number => Number(/VmHWM:\s*(\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'))?.[1] ?? 0) * 1024;

/** Runs `sift export` with a terminal for stderr, measuring at each progress line it draws. */
async function exportMeasured(format: string): Promise<{ code: number; grew: number; lines: number; text: string }> {
  const start = held();
  let grew = 0;
  let lines = 0;
  let text = '';
  const stderr = new Writable({
    write(chunk: Buffer | string, _enc, cb) {
      text += String(chunk);
      if (String(chunk).includes('exporting')) {
        lines++;
        grew = Math.max(grew, held() - start);
      }
      cb();
    },
  });
  const io: CliIO = { stdout: new PassThrough(), stderr, stdin: new PassThrough(), isTTY: true, env: { ...process.env, SIFT_HOME: tmp.dir }, cwd: tmp.dir };
  const code = await exportCommand.run([JOB, '--db', db, '--out', path.join(tmp.dir, format), '--format', format], io, new AbortController().signal);
  return { code, grew, lines, text };
}

test.each(['zip', 'combined', 'jsonl'])("a %s export of 12,000 small results keeps less than half its results' bytes in memory", async (format) => {
  const rssBefore = peakRss();
  const r = await exportMeasured(format);
  expect(r.code, r.text).toBe(EXIT.ok);
  expect(r.text).toContain('exported 12,000 targets (0 failed)');
  // Measured at least at the first and last of the targets.
  expect(r.lines).toBeGreaterThanOrEqual(2);
  // Before: a zip held every result it had written (a written entry's name, a small buffer,
  // kept the 8 KB pool slab it shared with the results): +65.3 MiB here, 530 MiB of RSS at
  // 100,000 targets. What a zip must keep is each entry's record for the central directory,
  // and the layout each file's name: +10 to 15 MiB here, about 1 KB a target. Half the
  // results' 41 MiB is between the two.
  expect(r.grew, `held +${(r.grew / MiB).toFixed(1)} MiB`).toBeLessThan((TARGETS * RESULT_CHARS) / 2);
  process.stdout.write(`${format}: held +${(r.grew / MiB).toFixed(1)} MiB at most, peak RSS ${(peakRss() / MiB).toFixed(0)} MiB (before it ${(rssBefore / MiB).toFixed(0)} MiB)\n`);
}, 180_000);
