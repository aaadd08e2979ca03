import { PassThrough } from 'node:stream';
import { main } from '../../src/cli/main';
import type { CliIO } from '../../src/cli/io';

/**
 * `sift ARGS` run in this process through the CLI's main (no spawn, no tsx start-up), with
 * cwd and the given environment over the process's; its exit code and what it wrote.
 */
export function siftInProcess(cwd: string, env: NodeJS.ProcessEnv): (...argv: string[]) => Promise<{ code: number; out: string; err: string }> {
  return async (...argv) => {
    const stdout = new PassThrough();
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
