/**
 * What bench/batch.ts and bench/batch-real.ts share: one URL list fetched by `sift batch
 * --mode raw --out` (the body as it came, every result in SQLite, one file per page), by
 * `sift batch --out` in markdown mode (the same plus extracting each article), by a bare Node
 * loop that does the least of the same work (_node-floor.mjs), and by `wget -i` and `curl`
 * (raw bodies to files), in alternated rounds; the medians are compared. wget and curl come
 * from Debian (apt-get install -y wget curl); a missing one is reported and skipped.
 */
import { execFile as execFileCb, spawnSync } from 'node:child_process';
import { promisify } from 'node:util';
import { readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const ROUNDS = Number(process.env['SIFT_BENCH_BATCH_ROUNDS'] ?? 3);
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;
const SIFT = path.resolve(__dirname, '../bin/sift.cjs');
const FLOOR = path.resolve(__dirname, '_node-floor.mjs');
// Asynchronous: the loopback site serving the pages runs in this process's event loop.
const execFile = promisify(execFileCb);

function has(cmd: string): boolean {
  return spawnSync('sh', ['-c', `command -v ${cmd}`]).status === 0;
}

/** A checkout whose bundle is older than its sources runs them through tsx (bin/sift.cjs says so): that would time the compiler, not sift. */
export function requireBundle(): void {
  const preflight = spawnSync(process.execPath, [SIFT, '--version'], { encoding: 'utf8' });
  if (preflight.stderr.includes('tsx')) throw new Error(`sift runs through tsx, not the bundle (run npm run build:cli): ${preflight.stderr.trim()}`);
}

/** Medians in ms of the whole list, by tool: raw, sift (markdown), floor, and wget and curl when installed. `siftArgs` go to both sift runs. */
export async function compareBatch(urls: string[], work: string, siftArgs: string[] = []): Promise<Record<string, number>> {
  const pages = urls.length;
  const list = path.join(work, 'list.txt');
  writeFileSync(list, `${urls.join('\n')}\n`);
  writeFileSync(path.join(work, 'settings.json'), JSON.stringify({ allowHosts: ['127.0.0.1'] }));
  const timed = async (label: string, fn: () => Promise<unknown>): Promise<number> => {
    const t0 = performance.now();
    await fn();
    const ms = performance.now() - t0;
    process.stdout.write(`${label.padEnd(46)} ${(ms / 1000).toFixed(2).padStart(7)} s  ${(ms / pages).toFixed(2)} ms/page\n`);
    return ms;
  };

  const tools: { key: string; label: string; run: (dir: string) => Promise<unknown> }[] = [];
  const sift = (mode: 'raw' | 'markdown') => (dir: string) =>
    execFile(process.execPath, [SIFT, 'batch', list, '--mode', mode, ...siftArgs, '--db', `${dir}.db`, '--out', dir, '--format', 'md'], {
      env: { ...process.env, SIFT_HOME: work },
      maxBuffer: 64 * 1024 * 1024,
    });
  tools.push({ key: 'raw', label: 'sift batch --mode raw --out', run: sift('raw') });
  tools.push({ key: 'sift', label: 'sift batch --out (markdown)', run: sift('markdown') });
  // What any Node program pays for the same pages: its start, undici, a commit and a file each.
  tools.push({ key: 'floor', label: 'node floor (undici, SQLite, a file per page)', run: (dir) => execFile(process.execPath, [FLOOR, list, dir]) });
  if (has('wget')) tools.push({ key: 'wget', label: 'wget -i (raw bodies)', run: (dir) => execFile('wget', ['-q', '-i', list, '-P', dir, '--no-proxy']) });
  else process.stdout.write('wget: not installed (apt-get install -y wget); skipped\n');
  if (has('curl')) {
    tools.push({
      key: 'curl',
      label: 'curl -K (raw bodies, serial)',
      run: (dir) => {
        const cfg = `${dir}.cfg`;
        writeFileSync(cfg, urls.map((u, i) => `url = "${u}"\noutput = "${path.join(dir, `${i}.html`)}"\n`).join(''));
        return execFile('curl', ['-s', '--create-dirs', '--noproxy', '*', '-K', cfg]);
      },
    });
  } else process.stdout.write('curl: not installed (apt-get install -y curl); skipped\n');

  // Rounds in alternation, each tool once a round, so a slow spell of the machine (its disk
  // makes wget itself 0.4 to 3 ms/page within minutes) falls on every tool; medians compared.
  const times: Record<string, number[]> = {};
  for (let round = 0; round < ROUNDS; round++) {
    for (const t of tools) (times[t.key] ??= []).push(await timed(`${t.label} (round ${round + 1})`, () => t.run(path.join(work, `${t.key}-${round}`))));
  }
  const results: Record<string, number> = {};
  process.stdout.write(`medians of ${ROUNDS} rounds:\n`);
  for (const t of tools) {
    results[t.key] = median(times[t.key]!);
    process.stdout.write(`${t.label.padEnd(46)} ${(results[t.key]! / 1000).toFixed(2).padStart(7)} s  ${(results[t.key]! / pages).toFixed(2)} ms/page\n`);
  }
  const siftOut = path.join(work, 'sift-0');
  const siftFiles = readdirSync(readdirSync(siftOut).map((d) => path.join(siftOut, d))[0]!).length;

  process.stdout.write(`sift wrote ${siftFiles} files (${pages} pages + manifest.jsonl + failed.txt)\n`);
  for (const other of ['wget', 'curl']) {
    const t = results[other];
    if (!t) continue;
    process.stdout.write(`sift raw / ${other}: ${(results.raw! / t).toFixed(2)}x the time (sift also stores and exports each page)\n`);
    process.stdout.write(`sift markdown / ${other}: ${(results.sift! / t).toFixed(2)}x the time (and extracts each article)\n`);
  }
  const floor = results.floor!;
  process.stdout.write(
    `sift raw / node floor: ${(results.raw! / floor).toFixed(2)}x the time (the guard, page judging, search index, progress and export layout on top of a bare Node loop)\n`,
  );
  process.stdout.write(`sift markdown / node floor: ${(results.sift! / floor).toFixed(2)}x the time\n`);
  if (results.wget) process.stdout.write(`node floor / wget: ${(floor / results.wget).toFixed(2)}x the time (the least a Node program of this kind costs against wget)\n`);
  return results;
}
