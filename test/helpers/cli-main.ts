import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { main } from '../../src/cli/main';
import type { CliIO } from '../../src/cli/io';
import { tempDir } from './store';

/**
 * `sift ARGS` run in this process through the CLI's main (no spawn, no tsx start-up), with
 * cwd and the given environment over the process's; its exit code and what it wrote.
 * `terminal`: stdout is a terminal, as process.stdout says with isTTY.
 */
export function siftInProcess(cwd: string, env: NodeJS.ProcessEnv, o: { terminal?: boolean } = {}): (...argv: string[]) => Promise<{ code: number; out: string; err: string }> {
  return async (...argv) => {
    const stdout = Object.assign(new PassThrough(), { isTTY: o.terminal === true });
    const stderr = new PassThrough();
    let out = '';
    let err = '';
    stdout.on('data', (d: Buffer) => (out += d.toString()));
    stderr.on('data', (d: Buffer) => (err += d.toString()));
    const io: CliIO = { stdout, stderr, stdin: new PassThrough(), isTTY: false, env: { ...process.env, ...env }, cwd };
    const code = await main(argv, io);
    return { code, out, err };
  };
}

export interface LoopbackSift {
  /** The SIFT_HOME, a temp dir. */
  dir: string;
  /** sift.db in it. */
  db: string;
  sift: ReturnType<typeof siftInProcess>;
  remove(): void;
}

/**
 * A SIFT_HOME in a temp dir whose settings let sift fetch from loopback (127.0.0.1) within a
 * 20 s deadline, a database path in it, and `sift` run in process there: what a test of a
 * user's path against a loopback site starts from.
 */
export function loopbackSift(prefix: string): LoopbackSift {
  const tmp = tempDir(prefix);
  writeFileSync(path.join(tmp.dir, 'settings.json'), JSON.stringify({ allowHosts: ['127.0.0.1'], deadlineSeconds: 20 }));
  return { dir: tmp.dir, db: path.join(tmp.dir, 'sift.db'), sift: siftInProcess(tmp.dir, { SIFT_HOME: tmp.dir }), remove: tmp.remove };
}
