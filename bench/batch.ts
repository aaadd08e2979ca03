/**
 * `npm run bench -- batch`: the same 1,000-page list served on loopback, fetched by
 * `sift batch --mode raw` (the body as it came, every result in SQLite, exported one file
 * per page: the runner, store, HTTP and export without extraction), by `sift batch` in
 * markdown mode (the same plus extracting each article), and by `wget -i` and `curl` (raw
 * bodies to files), in one run. Prints sift's time relative to each. Targets (issue 15):
 * raw <= 3x wget -i's time, markdown <= 5 ms/page. wget and curl come from Debian
 * (apt-get install -y wget curl); a missing one is reported and skipped.
 */
import { execFile as execFileCb, spawnSync } from 'node:child_process';
import { promisify } from 'node:util';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startSite } from '../test/helpers/sites';

const PAGES = 1_000;
const SIFT = path.resolve(__dirname, '../bin/sift.cjs');
// Asynchronous: the loopback site serving the pages runs in this process's event loop.
const execFile = promisify(execFileCb);

function has(cmd: string): boolean {
  return spawnSync('sh', ['-c', `command -v ${cmd}`]).status === 0;
}

async function timed(label: string, fn: () => Promise<unknown>): Promise<number> {
  const t0 = performance.now();
  await fn();
  const ms = performance.now() - t0;
  process.stdout.write(`${label.padEnd(34)} ${(ms / 1000).toFixed(2).padStart(7)} s  ${(ms / PAGES).toFixed(2)} ms/page\n`);
  return ms;
}

export default async function run(): Promise<void> {
  // A checkout whose bundle is older than its sources runs them through tsx (bin/sift.cjs
  // says so on stderr): that would time the compiler, not sift.
  const preflight = spawnSync(process.execPath, [SIFT, '--version'], { encoding: 'utf8' });
  if (preflight.stderr.includes('tsx')) throw new Error(`sift runs through tsx, not the bundle (run npm run build:cli): ${preflight.stderr.trim()}`);
  const site = await startSite();
  const work = mkdtempSync(path.join(os.tmpdir(), 'sift-bench-batch-'));
  try {
    const urls = Array.from({ length: PAGES }, (_, i) => `${site.base}/article/${i}`);
    const list = path.join(work, 'list.txt');
    writeFileSync(list, `${urls.join('\n')}\n`);
    writeFileSync(path.join(work, 'settings.json'), JSON.stringify({ allowHosts: ['127.0.0.1'] }));

    const results: Record<string, number> = {};
    const sift = (mode: 'raw' | 'markdown') => {
      const out = path.join(work, `sift-${mode}`);
      return execFile(process.execPath, [SIFT, 'batch', list, '--mode', mode, '--db', path.join(work, `sift-${mode}.db`), '--out', out, '--format', 'md'], {
        env: { ...process.env, SIFT_HOME: work },
        maxBuffer: 64 * 1024 * 1024,
      });
    };
    results.raw = await timed('sift batch --mode raw --out', () => sift('raw'));
    results.sift = await timed('sift batch --out (markdown)', () => sift('markdown'));
    const siftOut = path.join(work, 'sift-markdown');
    const siftFiles = readdirSync(readdirSync(siftOut).map((d) => path.join(siftOut, d))[0]!).length;

    if (has('wget')) {
      const dir = path.join(work, 'wget');
      results.wget = await timed('wget -i (raw bodies)', () => execFile('wget', ['-q', '-i', list, '-P', dir, '--no-proxy']));
    } else process.stdout.write('wget: not installed (apt-get install -y wget); skipped\n');

    if (has('curl')) {
      const dir = path.join(work, 'curl');
      const cfg = path.join(work, 'curl.cfg');
      writeFileSync(cfg, urls.map((u, i) => `url = "${u}"\noutput = "${path.join(dir, `${i}.html`)}"\n`).join(''));
      results.curl = await timed('curl -K (raw bodies, serial)', () => execFile('curl', ['-s', '--create-dirs', '--noproxy', '*', '-K', cfg]));
    } else process.stdout.write('curl: not installed (apt-get install -y curl); skipped\n');

    process.stdout.write(`sift wrote ${siftFiles} files (${PAGES} pages + manifest.jsonl + failed.txt)\n`);
    for (const other of ['wget', 'curl']) {
      const t = results[other];
      if (!t) continue;
      process.stdout.write(`sift raw / ${other}: ${(results.raw! / t).toFixed(2)}x the time (sift also stores and exports each page)\n`);
      process.stdout.write(`sift markdown / ${other}: ${(results.sift! / t).toFixed(2)}x the time (and extracts each article)\n`);
    }
    const rawRatio = results.wget ? results.raw! / results.wget : NaN;
    const mdPerPage = results.sift! / PAGES;
    process.stdout.write(
      `target: raw <= 3x wget -i (${rawRatio.toFixed(2)}x: ${rawRatio <= 3 ? 'holds' : 'does not hold'}), markdown <= 5 ms/page (${mdPerPage.toFixed(2)} ms/page: ${mdPerPage <= 5 ? 'holds' : 'does not hold'})\n`,
    );
  } finally {
    await site.close();
    rmSync(work, { recursive: true, force: true });
  }
}
