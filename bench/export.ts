/**
 * `npm run bench -- export`: a 10,000-target job with 100 KB results (1 GB) exported to a
 * folder and to a zip, against a bare fs.writeFileSync loop writing the same bytes. Prints
 * the time, the ratio to that baseline, and the peak RSS growth over the process's start,
 * which must stay flat: results are read one at a time and streamed out.
 *
 * Then zips of many small results (a line of text each), 10,000 and 40,000 targets: the time
 * per target of the larger against the smaller, and against a JSONL export of the same
 * 40,000, measured in the same run. yazl's scan of every entry written at each step made a
 * zip's cost grow with the square of its targets (100,000 took 171 s; JSONL, 2.7 s).
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

type Source = Omit<ExportSource, 'targets'> & { targets(): Iterable<TargetStatus> };

/** Builds every result when it is read, as the store's cursor does; nothing is kept. */
const source: Source = sourceOf(TARGETS, content);

function sourceOf(targets: number, content: (i: number) => string): Source {
  return {
    job: { ...job, targetsTotal: targets, targetsDone: targets },
    count: () => targets,
    *targets(): Iterable<TargetStatus> {
      for (let idx = 0; idx < targets; idx++) {
        const text = content(idx);
        yield {
          idx,
          url: `https://example.org/docs/${idx}`,
          status: 'done',
          error: '',
          hint: '',
          errorStatus: 0,
          bytes: text.length,
          // Every 10th title repeats, so the name de-duplication is part of the cost.
          title: idx % 10 === 0 ? 'Quarterly report' : `Document ${idx}`,
          startedAt: null,
          finishedAt: null,
          result: { content: text, meta: { title: `Document ${idx}`, status: 200 } },
        };
      }
    },
  };
}

/** Milliseconds per target of an export of `n` small results. */
async function msPerTarget(dir: string, format: 'zip' | 'jsonl', n: number): Promise<number> {
  const t = performance.now();
  const s = await exportJob(sourceOf(n, (i) => `# Document ${i}\n\nA short page.`), { format, out: path.join(dir, `small-${format}-${n}`) });
  const ms = performance.now() - t;
  rmSync(s.path, { recursive: true, force: true });
  return ms / n;
}

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

    const zip10k = await msPerTarget(dir, 'zip', 10_000);
    const zip40k = await msPerTarget(dir, 'zip', 40_000);
    const jsonl40k = await msPerTarget(dir, 'jsonl', 40_000);
    lines.push(
      `zip of small results: ${zip10k.toFixed(2)} ms per target at 10,000, ${zip40k.toFixed(2)} ms at 40,000 = ${(zip40k / zip10k).toFixed(2)}× per target (1.0: linear); ` +
        `jsonl of the 40,000: ${jsonl40k.toFixed(3)} ms per target, zip = ${(zip40k / jsonl40k).toFixed(1)}× jsonl`,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  process.stdout.write(`${lines.join('\n')}\n`);
  process.stdout.write(`(RSS at start ${mb(start)}; ${TARGETS} targets; memory flat = the growth does not scale with the target count)\n`);
}
