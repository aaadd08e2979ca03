import { EXIT_BUG, type Command, type CommandEntry } from './command';
import { EXIT, UsageError, noteOnHardStop, processIO, type CliIO } from './io';
import { forTerminal } from './terminal';
import { VERSION } from '../main/version';
import { commands } from './commands';
import { closestName } from './suggest';

const HELP = (list: CommandEntry[]): string =>
  [
    'sift: turn a list of URLs into clean files',
    '',
    'usage: sift COMMAND [options]',
    '',
    ...list.map((c) => `  ${c.name.padEnd(8)} ${c.summary}`),
    '',
    'options: --mode M --question Q --pages P --grep RE --jq PROG --context --recover --render R',
    '         --allow-private --allow-host HOST --db PATH --log PATH --json',
    'exit codes: 0 all ok, 1 some target failed, the disk was full, or',
    `            ${EXIT_BUG},`,
    '            2 bad usage or input, 130 interrupted',
    '            (Ctrl-C; 143 when stopped by kill, SIGTERM; 129 by a closed terminal, SIGHUP)',
    '',
    'Run `sift COMMAND --help` for one command.',
    '',
  ].join('\n');

/**
 * The signals that stop a command as Ctrl-C does, with the exit code each ends it with: the
 * 128 + signal number a shell reports for a process the signal killed, which is what `kill`
 * (SIGTERM) and a closed terminal (SIGHUP) gave before sift caught them. Uncaught, they killed
 * a batch mid-write: its job stayed "running" until the next sift found it, and an export
 * under way left its hidden ".partial" folder behind.
 */
const STOP_SIGNALS = { SIGINT: EXIT.interrupted, SIGTERM: 143, SIGHUP: 129 } as const;
type StopSignal = keyof typeof STOP_SIGNALS;

/**
 * Runs the CLI. Ctrl-C (or SIGTERM, SIGHUP) aborts the signal the command got (a batch cancels
 * its job and stores its in-flight target); a second one exits at once.
 */
export async function main(argv: string[], io: CliIO = processIO()): Promise<number> {
  const [name, ...rest] = argv;
  const isProcess = io.stdout === process.stdout;
  if (isProcess) watchPipes();
  const helpWord = name === '--help' || name === '-h' || name === 'help';
  // `sift help batch`, as git and go take it: that command's usage, not the list of commands.
  const helpFor = helpWord ? commands.find((c) => c.name === rest[0]) : undefined;
  if (helpFor) {
    const usage = (await helpFor.load()).usage;
    io.stdout.write(usage.endsWith('\n') ? usage : `${usage}\n`);
    return EXIT.ok;
  }
  if (!name || helpWord) {
    // Asked for, the help is the output; as the answer to no command at all it is an error's
    // text, which `out=$(sift $CMD)` with CMD unset took for the command's output.
    (name ? io.stdout : io.stderr).write(HELP(commands));
    return name ? EXIT.ok : EXIT.usage;
  }
  if (name === '--version' || name === '-v' || name === 'version') {
    io.stdout.write(`sift ${VERSION}\n`);
    return EXIT.ok;
  }
  const entry = commands.find((c) => c.name === name);
  if (!entry) {
    io.stderr.write(`sift: ${unknownCommand(name, rest)}\n`);
    return EXIT.usage;
  }
  const cmd = await entry.load();
  if (rest.includes('--help') || rest.includes('-h')) {
    io.stdout.write(cmd.usage.endsWith('\n') ? cmd.usage : `${cmd.usage}\n`);
    return EXIT.ok;
  }
  const ac = new AbortController();
  let stoppedBy: StopSignal | undefined;
  const onSignal = (sig: StopSignal): void => {
    // Exits now, whatever is still running; the 'exit' listeners still run first, among them
    // the export's, which removes the hidden ".partial" an export under way was writing.
    if (stoppedBy) {
      const note = noteOnHardStop();
      if (note) io.stderr.write(`sift ${name}: stopped at once: ${note}\n`);
      process.exit(STOP_SIGNALS[stoppedBy]);
    }
    stoppedBy = sig;
    ac.abort(new Error('interrupted'));
  };
  if (isProcess) {
    for (const sig of Object.keys(STOP_SIGNALS) as StopSignal[]) process.on(sig, onSignal);
    stopOnClosedPipe = () => ac.abort(new Error('interrupted'));
    writing = name;
  }
  try {
    const ran = await runCommand(cmd, name, rest, io, ac.signal);
    const code = ran === EXIT.interrupted && stoppedBy ? STOP_SIGNALS[stoppedBy] : ran;
    if (isProcess) exitOnLateSignal(code);
    return code;
  } finally {
    if (isProcess) for (const sig of Object.keys(STOP_SIGNALS) as StopSignal[]) process.off(sig, onSignal);
  }
}

/** The command's exit code, with a usage error or a bug thrown out of its run said on stderr. */
async function runCommand(cmd: Command, name: string, rest: string[], io: CliIO, signal: AbortSignal): Promise<number> {
  try {
    return await cmd.run(rest, io, signal);
  } catch (err) {
    if (err instanceof UsageError) {
      // A usage error may quote a server (a list fetched by its address) or the user's own input.
      io.stderr.write(forTerminal(`sift ${name}: ${err.message}${err.seeHelp ? ` (\`sift ${name} --help\` lists its options)` : ''}\n`));
      return EXIT.usage;
    }
    return (await import('./bug')).reportBug(err, name, rest, io);
  }
}

/**
 * Once the command has returned, its work is done (an export written and said so): a Ctrl-C
 * (or SIGTERM, SIGHUP) now exits at once with the command's own code. Uncaught, it killed the
 * process, which a shell reports as 130 (143, 129), "interrupted", of a run that had finished;
 * the process lingers there while V8 ends an optimizing compile (130-190 ms, bin/sift.cjs).
 */
function exitOnLateSignal(code: number): void {
  for (const sig of Object.keys(STOP_SIGNALS) as StopSignal[]) process.once(sig, () => process.exit(code));
}

/**
 * What is wrong with a command name sift does not know, with the command meant when it is a
 * slip (`fecth`, `Batch`) or comes later (`sift --json fetch URL`: options follow the command).
 */
function unknownCommand(name: string, rest: string[]): string {
  const names = commands.map((c) => c.name);
  const list = '`sift --help` lists the commands';
  if (name.startsWith('-')) {
    const later = rest.find((a) => names.includes(a));
    return later ? `${name} goes after the command, as in \`sift ${later} ${name} …\`` : `give a command, then its options (${name}); ${list}`;
  }
  const meant = closestName(name, names);
  return `unknown command "${name}"; ${meant ? `did you mean \`sift ${meant}\`? (${list})` : list}`;
}

let pipesWatched = false;
/** What a closed pipe stops: the running command's work (set once a command runs). */
let stopOnClosedPipe = (): void => {};
/** The command whose output a failed write lost, which the line saying so names, as its other lines do. */
let writing = '';

/**
 * When the reader of stdout or stderr goes away (`sift search … | head`), writes fail with
 * EPIPE, emitted later as an 'error' event that would crash the process with a stack trace.
 * Sift then stops quietly, as Unix tools do: the command's work is interrupted as by Ctrl-C (a
 * batch stores its in-flight target as cancelled), and what is left to print is dropped. The
 * handlers stay for the life of the process, since a failed write is reported after the
 * command has returned.
 *
 * Any other failed write of stdout (`sift fetch URL > out.md` on a full disk: ENOSPC) lost
 * results that nobody asked to drop, and sift said nothing and exited 0, so a script went on
 * with a cut file. It is said on stderr, and the exit code is 1 at best.
 */
function watchPipes(): void {
  if (pipesWatched) return;
  pipesWatched = true;
  process.stderr.on('error', () => stopOnClosedPipe());
  process.stdout.on('error', (err: NodeJS.ErrnoException) => {
    stopOnClosedPipe();
    if (err.code === 'EPIPE' || outputLost) return;
    outputLost = true;
    process.stderr.write(`sift${writing ? ` ${writing}` : ''}: could not write the output: ${err.code === 'ENOSPC' ? 'no space left on device' : err.message}; what was written is incomplete\n`);
    process.on('exit', () => {
      if (!process.exitCode) process.exitCode = EXIT.someFailed;
    });
  });
}
let outputLost = false;
