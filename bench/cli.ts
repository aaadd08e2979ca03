/**
 * `npm run bench -- cli`: how long `sift` takes to start, against `node -e 0` in the same
 * run: `sift --version`, and `sift extract` of one page of the article benchmark (the page
 * of median size); and, as a user scripting sift over URLs runs it, `sift fetch` of that page
 * and `sift batch` of a list of 10 from a server on loopback. Runs alternate between all of
 * them so load on a shared machine hits each alike; the median of each is reported. Also the
 * same through the tsx fallback, the way every start ran before the CLI was built.
 * Targets (issue 15): --version <= 3x node -e 0, extract <= 5x.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { medianPage } from './_corpus';

const ROOT = path.resolve(__dirname, '..');
const SIFT = path.join(ROOT, 'bin/sift.cjs');
const RUNS = Number(process.env.SIFT_BENCH_RUNS ?? 15);

/** Milliseconds from spawn to exit; asynchronous, as the loopback server runs in this process. */
function time(args: string[], env: NodeJS.ProcessEnv = process.env): Promise<number> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const child = spawn(process.execPath, args, { env, stdio: ['ignore', 'ignore', 'pipe'] });
    let err = '';
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      const ms = performance.now() - t0;
      if (code !== 0) reject(new Error(`${args.join(' ')} exited ${code}: ${err.slice(0, 500)}`));
      else if (args[0] === SIFT && err.includes('tsx')) reject(new Error(`sift ran through tsx, not the bundle (run npm run build:cli): ${err}`));
      else resolve(ms);
    });
  });
}

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

export default async function run(): Promise<void> {
  const page = medianPage();
  const work = mkdtempSync(path.join(os.tmpdir(), 'sift-bench-cli-'));
  // The page at /page/N; anything else (the soft-404 probe's made-up path) is not found.
  const server = http.createServer((req, res) => {
    const found = /^\/page\/\d+$/.test(req.url ?? '');
    res.writeHead(found ? 200 : 404, { 'content-type': 'text/html; charset=utf-8' });
    res.end(found ? page.html : 'not found');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const file = path.join(work, 'page.html');
    writeFileSync(file, page.html);
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    writeFileSync(path.join(work, 'settings.json'), JSON.stringify({ allowHosts: ['127.0.0.1'] }));
    const list = path.join(work, 'list.txt');
    writeFileSync(list, `${Array.from({ length: 10 }, (_, i) => `${base}/page/${i}`).join('\n')}\n`);
    const env = { ...process.env, SIFT_HOME: work };
    const tsxMain = `require('tsx/cjs/api').register({ tsconfig: ${JSON.stringify(path.join(ROOT, 'tsconfig.node.json'))} });`;
    const viaTsx = (argv: string[]): string[] => [
      '--import',
      'tsx/esm',
      '-e',
      `${tsxMain} require(${JSON.stringify(path.join(ROOT, 'src/cli/main.ts'))}).main(${JSON.stringify(argv)}).then((c) => { process.exitCode = c; });`,
    ];
    let batches = 0;
    const cases: [string, string[] | (() => string[]), number][] = [
      ['node -e 0', ['-e', '0'], RUNS],
      ['sift --version', [SIFT, '--version'], RUNS],
      ['sift extract (one page)', [SIFT, 'extract', file], RUNS],
      ['sift fetch (one page, loopback)', [SIFT, 'fetch', `${base}/page/0`], RUNS],
      // A fresh store each run: the same list again would reuse the job and fetch nothing.
      ['sift batch (10 pages, loopback)', () => [SIFT, 'batch', list, '--db', path.join(work, `batch-${++batches}.db`)], RUNS],
      ['through tsx: sift --version', viaTsx(['--version']), Math.ceil(RUNS / 3)],
      ['through tsx: sift extract', viaTsx(['extract', file]), Math.ceil(RUNS / 3)],
    ];
    // One warm-up each (disk cache, tsx's compile cache), then interleaved runs.
    const argv = (args: string[] | (() => string[])): string[] => (typeof args === 'function' ? args() : args);
    for (const [, args] of cases) await time(argv(args), env);
    const samples = new Map<string, number[]>(cases.map(([label]) => [label, []]));
    for (let i = 0; i < RUNS; i++) for (const [label, args, n] of cases) if (i < n) samples.get(label)!.push(await time(argv(args), env));

    process.stdout.write(`page: ${page.id.slice(0, 12)}… (${Math.round(page.html.length / 1024)} KiB, the median of the article benchmark), ${RUNS} runs each\n`);
    const node = median(samples.get('node -e 0')!);
    for (const [label] of cases) {
      const m = median(samples.get(label)!);
      process.stdout.write(`${label.padEnd(32)} ${m.toFixed(0).padStart(6)} ms  ${(m / node).toFixed(2).padStart(6)}x node -e 0\n`);
    }
    const v = median(samples.get('sift --version')!) / node;
    const x = median(samples.get('sift extract (one page)')!) / node;
    process.stdout.write(`target: --version <= 3x (${v.toFixed(2)}x: ${v <= 3 ? 'holds' : 'does not hold'}), extract <= 5x (${x.toFixed(2)}x: ${x <= 5 ? 'holds' : 'does not hold'})\n`);
  } finally {
    await new Promise((resolve) => server.close(resolve));
    rmSync(work, { recursive: true, force: true });
  }
}
