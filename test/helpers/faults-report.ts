/**
 * The figures each reliability test writes for docs/reliability.md: one JSON file per test
 * class in test-results/reliability/, read by scripts/reliability-report.ts.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export const RESULTS_DIR = path.resolve(__dirname, '../../test-results/reliability');

export interface ClassResult {
  /** Test class: faults, crash, load, fuzz-ipc, fuzz-input, ssrf, electron. */
  name: string;
  /** The command that runs it. */
  command: string;
  figures: Record<string, number | string | boolean>;
  /** Lines of detail (one per fault, per form, …). */
  details?: string[];
}

export function writeResult(r: ClassResult): void {
  mkdirSync(RESULTS_DIR, { recursive: true });
  writeFileSync(path.join(RESULTS_DIR, `${r.name}.json`), `${JSON.stringify({ ...r, writtenAt: new Date().toISOString() }, null, 2)}\n`);
}

/** Samples the process's RSS (which includes the worker threads' heaps) until stopped. */
export function sampleMemory(everyMs = 50): { stop(): { baselineMiB: number; peakMiB: number; samples: number } } {
  const mib = (): number => process.memoryUsage.rss() / 1048576;
  const baseline = mib();
  let peak = baseline;
  let samples = 0;
  const t = setInterval(() => {
    samples++;
    peak = Math.max(peak, mib());
  }, everyMs);
  return {
    stop() {
      clearInterval(t);
      peak = Math.max(peak, mib());
      return { baselineMiB: Math.round(baseline), peakMiB: Math.round(peak), samples };
    },
  };
}
