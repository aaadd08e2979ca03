/**
 * A command run on a real pseudo-terminal (util-linux `script`), so its stdin and stderr are a
 * TTY and Ctrl-D and Ctrl-C are the terminal's own, not signals a test makes up.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { SIFT_BIN } from './cli';

export const hasScript = spawnSync('script', ['--version']).status === 0;

/** Terminals still open (a failed test's): closeTerminals hangs up what runs on them. */
const terminals = new Set<ChildProcess>();

export function closeTerminals(): void {
  for (const child of terminals) child.kill();
}

/** A word for the shell, quoted. */
export const quote = (s: string): string => `'${s.replace(/'/g, `'\\''`)}'`;

/** `sift ARGS` as a shell command line: the built bundle, run by this Node. */
export const siftLine = (args: string): string => `${quote(process.execPath)} ${quote(SIFT_BIN)} ${args}`;

export interface OnTerminal {
  child: ChildProcess;
  output: () => string;
  /** Resolves once the terminal has shown re; rejects if the command ends first. */
  seen: (re: RegExp) => Promise<void>;
  done: Promise<number | null>;
}

/**
 * A shell command run on a pseudo-terminal: what it prints on the terminal arrives on
 * `output`, what is written to `child.stdin` is typed on it. `done` resolves with its exit code.
 */
export function onTerminal(command: string, env: NodeJS.ProcessEnv, term = 'xterm'): OnTerminal {
  const child = spawn('script', ['-qefc', command, '/dev/null'], { env: { ...process.env, ...env, TERM: term }, stdio: ['pipe', 'pipe', 'pipe'] });
  terminals.add(child);
  let out = '';
  const waiters: { re: RegExp; resolve: () => void }[] = [];
  child.stdout!.setEncoding('utf8').on('data', (d: string) => {
    out += d;
    for (const w of waiters.filter((w) => w.re.test(out))) {
      waiters.splice(waiters.indexOf(w), 1);
      w.resolve();
    }
  });
  const done = new Promise<number | null>((resolve) =>
    child.on('close', (code) => {
      terminals.delete(child);
      resolve(code);
    }),
  );
  const seen = (re: RegExp): Promise<void> =>
    re.test(out)
      ? Promise.resolve()
      : Promise.race([
          new Promise<void>((resolve) => waiters.push({ re, resolve })),
          done.then(() => {
            throw new Error(`ended without printing ${re}: ${out.slice(-2000)}`);
          }),
        ]);
  return { child, output: () => out, seen, done };
}
