/**
 * `npm run bench -- export`: a 10,000-target job with 100 KB results (1 GB) exported to a
 * folder and to a zip, against a bare fs.writeFileSync loop writing the same bytes. Prints
 * the time, the ratio to that baseline, and the peak RSS growth over the process's start,
 * which must stay flat: results are read one at a time and streamed out.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { exportJob, type ExportSource } from '../src/main/export/index';
import type { Job, TargetStatus } from '../src/shared/types';

const TARGETS = Number(process.env['SIFT_BENCH_EXPORT_TARGETS'] ?? 10_000);
const RESULT_BYTES = 100 * 1024;
const MiB = 1024 * 1024;

const job: Job = {
  id: 'bench',
  caller: 'bench',
  callerClass: 'bench/batch',
  status: 'done',
  error: '',
  targetsTotal: TARGETS,
  targetsDone: TARGETS,
  targetsFailed: 0,
  createdAt: 0,
  updatedAt: 0,
  leaseExpires: 0,
};

const WORDS = 'the quick brown fox jumps over a lazy dog while net revenue grows each quarter by'.split(' ');

// 1 MiB of pseudo-random prose; each result is a 100 KB window of it at its own offset, so
// building a result costs a slice, not the bench's time, and compresses like text.
const POOL = (() => {
  const parts: string[] = [];
  let n = 0;
  let x = 12345;
  while (n < MiB + RESULT_BYTES) {
    x = (x * 1103515245 + 12345) >>> 0;
    const w = `${WORDS[(x >>> 8) % WORDS.length] ?? 'x'}${(x >>> 4) % 11 === 0 ? '.\n' : ' '}`;
    parts.push(w);
    n += w.length;
  }
  return parts.join('');
})();

function content(i: number): string {
  const head = `# Document ${i}\n\n`;
  const at = (i * 7919) % MiB;
  return head + POOL.slice(at, at + RESULT_BYTES - head.length);
}

/** Builds every result when it is read, as the store's cursor does; nothing is kept. */
const source: Omit<ExportSource, 'targets'> & { targets(): Iterable<TargetStatus> } = {
  job,
  count: () => TARGETS,
  *targets(): Iterable<TargetStatus> {
    for (let idx = 0; idx < TARGETS; idx++) {
      yield {
        idx,
        url: `https://example.org/docs/${idx}`,
        status: 'done',
        error: '',
        hint: '',
        errorStatus: 0,
        bytes: RESULT_BYTES,
        // Every 10th title repeats, so the name de-duplication is part of the cost.
        title: idx % 10 === 0 ? 'Quarterly report' : `Document ${idx}`,
        startedAt: null,
        finishedAt: null,
        result: { content: content(idx), meta: { title: `Document ${idx}`, status: 200 } },
      };
    }
  },
};

class RssPeak {
  private peak = 0;
  private readonly timer: NodeJS.Timeout;
  constructor() {
    this.sample();
    // 20 ms: often enough to catch a spike of a few hundred 100 KB results in flight.
    this.timer = setInterval(() => this.sample(), 20);
  }
  sample(): void {
    this.peak = Math.max(this.peak, process.memoryUsage.rss());
  }
  stop(): number {
    clearInterval(this.timer);
    this.sample();
    return this.peak;
  }
}

const mb = (b: number): string => `${(b / MiB).toFixed(1)} MiB`;

export default async function bench(): Promise<void> {
  const start = process.memoryUsage.rss();
  const dir = mkdtempSync(path.join(os.tmpdir(), 'sift-bench-export-'));
  const lines: string[] = [];
  try {
    // Baseline: the same bytes, one writeFileSync per target, no names, no manifest.
    const base = path.join(dir, 'baseline');
    mkdirSync(base);
    const peak0 = new RssPeak();
    const t0 = performance.now();
    let i = 0;
    for (const t of source.targets()) {
      writeFileSync(path.join(base, `${i++}.md`), t.result?.content ?? '');
      // The loop is synchronous, so the timer cannot fire: sample by hand.
      if (i % 100 === 0) peak0.sample();
    }
    const baseMs = performance.now() - t0;
    const basePeak = peak0.stop();
    rmSync(base, { recursive: true, force: true });
    lines.push(`baseline writeFileSync loop: ${TARGETS} × 100 KB in ${(baseMs / 1000).toFixed(2)} s, peak RSS +${mb(basePeak - start)}`);

    for (const format of ['folder', 'zip'] as const) {
      const peak = new RssPeak();
      let progressCalls = 0;
      const t1 = performance.now();
      const s = await exportJob(source, { format, out: path.join(dir, format), onProgress: () => progressCalls++ });
      const ms = performance.now() - t1;
      const p = peak.stop();
      lines.push(
        `${format.padEnd(6)}: ${s.files} files, ${mb(s.bytes)} in ${(ms / 1000).toFixed(2)} s = ${(ms / baseMs).toFixed(2)}× baseline, ` +
          `peak RSS +${mb(p - start)} over start (${progressCalls} progress calls)`,
      );
      rmSync(s.path, { recursive: true, force: true });
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  process.stdout.write(`${lines.join('\n')}\n`);
  process.stdout.write(`(RSS at start ${mb(start)}; ${TARGETS} targets; memory flat = the growth does not scale with the target count)\n`);
}
