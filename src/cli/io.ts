import os from 'node:os';
import path from 'node:path';
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

/**
 * A path the user gave, absolute: relative to the working folder, and a leading `~` is the
 * home folder, as a shell would have made it. A shell expands `~` only at the start of a word,
 * so `--db=~/sift.db`, `--out="~/results"` or a script's quoted "$HOME"-less default reached
 * Sift as written, and it made a folder named "~" in the working folder, a database in it,
 * and a later `sift jobs --db ~/sift.db` (expanded by the shell) found none.
 */
export function userPath(io: Pick<CliIO, 'cwd' | 'env'>, p: string): string {
  if (p === '~' || p.startsWith('~/') || (process.platform === 'win32' && p.startsWith('~\\'))) {
    const home = io.env.HOME || io.env.USERPROFILE || os.homedir();
    return path.resolve(home, p.slice(2));
  }
  return path.resolve(io.cwd, p);
}

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

let hardStopNote = '';

/**
 * What a second Ctrl-C leaves, said as it exits at once (main.ts): the command knows (its job,
 * its export), main does not, and the exit said nothing, so a user could not tell whether the
 * --out folder held a whole export, part of one or nothing.
 */
export function sayOnHardStop(note: string): void {
  hardStopNote = note;
}

export const noteOnHardStop = (): string => hardStopNote;
