/**
 * `npm run bench -- cli`: how long `sift` takes to start, against `node -e 0` in the same
 * run: `sift --version`, and `sift extract` of one page of the article benchmark (the page
 * of median size). Runs alternate between the three so load on a shared machine hits each
 * alike; the median of each is reported. Also the same through the tsx fallback, the way
 * every start ran before the CLI was built.
 * Targets (issue 15): --version <= 3x node -e 0, extract <= 5x.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { medianPage } from './_corpus';

const ROOT = path.resolve(__dirname, '..');
const SIFT = path.join(ROOT, 'bin/sift.cjs');
const RUNS = Number(process.env.SIFT_BENCH_RUNS ?? 15);

function time(args: string[], env: NodeJS.ProcessEnv = process.env): number {
  const t0 = performance.now();
  const r = spawnSync(process.execPath, args, { env, stdio: ['ignore', 'ignore', 'pipe'] });
  const ms = performance.now() - t0;
  if (r.status !== 0) throw new Error(`${args.join(' ')} exited ${r.status}: ${String(r.stderr).slice(0, 500)}`);
  const err = String(r.stderr);
  if (args[0] === SIFT && err.includes('tsx')) throw new Error(`sift ran through tsx, not the bundle (run npm run build:cli): ${err}`);
  return ms;
}

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

export default async function run(): Promise<void> {
  const page = medianPage();
  const work = mkdtempSync(path.join(os.tmpdir(), 'sift-bench-cli-'));
  try {
    const file = path.join(work, 'page.html');
    writeFileSync(file, page.html);
    const env = { ...process.env, SIFT_HOME: work };
    const tsxMain = `require('tsx/cjs/api').register({ tsconfig: ${JSON.stringify(path.join(ROOT, 'tsconfig.node.json'))} });`;
    const viaTsx = (argv: string[]): string[] => [
      '--import',
      'tsx/esm',
      '-e',
      `${tsxMain} require(${JSON.stringify(path.join(ROOT, 'src/cli/main.ts'))}).main(${JSON.stringify(argv)}).then((c) => { process.exitCode = c; });`,
    ];
    const cases: [string, string[], number][] = [
      ['node -e 0', ['-e', '0'], RUNS],
      ['sift --version', [SIFT, '--version'], RUNS],
      ['sift extract (one page)', [SIFT, 'extract', file], RUNS],
      ['through tsx: sift --version', viaTsx(['--version']), Math.ceil(RUNS / 3)],
      ['through tsx: sift extract', viaTsx(['extract', file]), Math.ceil(RUNS / 3)],
    ];
    // One warm-up each (disk cache, tsx's compile cache), then interleaved runs.
    for (const [, args] of cases) time(args, env);
    const samples = new Map<string, number[]>(cases.map(([label]) => [label, []]));
    for (let i = 0; i < RUNS; i++) for (const [label, args, n] of cases) if (i < n) samples.get(label)!.push(time(args, env));

    process.stdout.write(`page: ${page.id.slice(0, 12)}… (${Math.round(page.html.length / 1024)} KiB, the median of the article benchmark), ${RUNS} runs each\n`);
    const base = median(samples.get('node -e 0')!);
    for (const [label] of cases) {
      const m = median(samples.get(label)!);
      process.stdout.write(`${label.padEnd(30)} ${m.toFixed(0).padStart(6)} ms  ${(m / base).toFixed(2).padStart(6)}x node -e 0\n`);
    }
    const v = median(samples.get('sift --version')!) / base;
    const x = median(samples.get('sift extract (one page)')!) / base;
    process.stdout.write(`target: --version <= 3x (${v.toFixed(2)}x: ${v <= 3 ? 'holds' : 'does not hold'}), extract <= 5x (${x.toFixed(2)}x: ${x <= 5 ? 'holds' : 'does not hold'})\n`);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
