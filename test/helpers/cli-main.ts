import { PassThrough } from 'node:stream';
import { main } from '../../src/cli/main';
import type { CliIO } from '../../src/cli/io';

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
