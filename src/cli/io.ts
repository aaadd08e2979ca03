import type { Writable } from 'node:stream';

/** Where a command writes, so tests can run commands in-process and read what they print. */
export interface CliIO {
  stdout: Writable;
  stderr: Writable;
  stdin: NodeJS.ReadableStream;
  /**
   * True when stderr is a terminal that redraws a line (live progress line instead of a line
   * per target). TERM=dumb (Emacs' M-x shell, some CI consoles) is a terminal that does not:
   * it showed each redraw's "\r\x1b[2K" as ^M^[[2K garbage.
   */
  isTTY: boolean;
  env: NodeJS.ProcessEnv;
  cwd: string;
}

export const processIO = (): CliIO => ({
  stdout: process.stdout,
  stderr: process.stderr,
  stdin: process.stdin,
  isTTY: Boolean(process.stderr.isTTY) && process.env.TERM !== 'dumb',
  env: process.env,
  cwd: process.cwd(),
});

/** Exit codes of SPEC §6. */
export const EXIT = { ok: 0, someFailed: 1, usage: 2, interrupted: 130 } as const;

/** A usage or input error: printed as one line, exit code 2. */
export class UsageError extends Error {
  /** The command's --help says what it takes: a flag it does not know, or one missing its value. */
  readonly seeHelp: boolean;
  constructor(message: string, o: { seeHelp?: boolean } = {}) {
    super(message);
    this.name = 'UsageError';
    this.seeHelp = o.seeHelp ?? false;
  }
}
