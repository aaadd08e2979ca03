import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';

export const SIFT_BIN = path.resolve(__dirname, '../../bin/sift.cjs');

export interface CliRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** Runs `sift ARGS` as a child process (the way a user runs it) and collects its output. */
export function runSift(args: string[], opts: { env?: NodeJS.ProcessEnv; input?: string | Uint8Array; cwd?: string; timeoutMs?: number } = {}): Promise<CliRun> {
  const child = startSift(args, opts);
  if (opts.input !== undefined) child.stdin!.end(opts.input);
  else child.stdin!.end();
  return collect(child, opts.timeoutMs ?? 120_000);
}

/** The objects of `--json` output, one a line (blank lines skipped). */
export const jsonLines = (out: string): Record<string, unknown>[] =>
  out
    .trim()
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Record<string, unknown>);

export function startSift(args: string[], opts: { env?: NodeJS.ProcessEnv; cwd?: string } = {}): ChildProcess {
  return spawn(process.execPath, [SIFT_BIN, ...args], {
    cwd: opts.cwd,
    env: { ...process.env, ...opts.env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
}

export function collect(child: ChildProcess, timeoutMs = 120_000): Promise<CliRun> {
  let stdout = '';
  let stderr = '';
  child.stdout!.setEncoding('utf8').on('data', (d: string) => (stdout += d));
  child.stderr!.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  return new Promise((resolve, reject) => {
    const t = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`sift timed out after ${timeoutMs} ms\nstderr: ${stderr.slice(-2000)}`));
    }, timeoutMs);
    child.on('close', (code, signal) => {
      clearTimeout(t);
      resolve({ code, signal, stdout, stderr });
    });
  });
}

/** Resolves when the child's stderr has printed a line matching re (for timing signals). */
export function waitForStderr(child: ChildProcess, re: RegExp, timeoutMs = 60_000): Promise<string> {
  return new Promise((resolve, reject) => {
    let buf = '';
    const t = setTimeout(() => reject(new Error(`no stderr line matching ${re} in ${timeoutMs} ms: ${buf.slice(-1000)}`)), timeoutMs);
    child.stderr!.on('data', (d: Buffer | string) => {
      buf += String(d);
      const m = re.exec(buf);
      if (m) {
        clearTimeout(t);
        resolve(m[0]);
      }
    });
  });
}
