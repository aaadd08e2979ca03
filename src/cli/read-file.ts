import { constants, openSync } from 'node:fs';
import { open, stat } from 'node:fs/promises';
import { Socket } from 'node:net';
import { addAbortSignal, Readable } from 'node:stream';
import type { CliIO } from './io';
import { sayIfStillWaiting } from './waiting';

/** Why a file could not be read, in words ("no such file"), for a message that names the file. */
export function unreadableWhy(err: unknown): string {
  switch ((err as NodeJS.ErrnoException | undefined)?.code) {
    case 'ENOENT':
      return 'no such file';
    case 'EISDIR':
      return 'is a directory';
    case 'ENOTDIR':
      return 'a part of its path is not a directory';
    case 'EACCES':
    case 'EPERM':
      return 'permission denied';
    default:
      return 'cannot read it';
  }
}

/** A file or stream went past the bytes a command reads of it. */
export class TooLarge extends Error {
  constructor(readonly maxBytes: number) {
    super(`over ${Math.round(maxBytes / 1024 / 1024)} MiB`);
    this.name = 'TooLarge';
  }
}

/** A stream's bytes, at most `maxBytes` of them (TooLarge past that, before the rest is read). */
export async function readStreamUpTo(stream: AsyncIterable<Buffer | string>, maxBytes: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of stream) {
    const b = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    total += b.length;
    if (total > maxBytes) throw new TooLarge(maxBytes);
    chunks.push(b);
  }
  return Buffer.concat(chunks);
}

/**
 * stdin's bytes for a command given "-", at most `maxBytes` of them. Nothing runs before it
 * ends, so on a terminal sift says what it waits for: with nothing piped, how to end the input;
 * on a pipe still open after 2 s (waiting.ts), that it waits for the end. Only on a terminal: a script's log
 * keeps `job ID` as sift batch's first line (SPEC §6). The signal (Ctrl-C, SIGTERM) stops the
 * read with its abort error: without it, Ctrl-C left sift waiting on a pipe that never ended.
 */
export async function readStdinUpTo(io: CliIO, maxBytes: number, signal: AbortSignal, o: { command: string; what: string }): Promise<Buffer> {
  const stdin = io.stdin;
  if (stdin instanceof Readable) addAbortSignal(signal, stdin);
  let lines = 0;
  let stopWaiting = (): void => {};
  if (io.isTTY && (stdin as { isTTY?: boolean }).isTTY) {
    io.stderr.write(`sift ${o.command}: reading ${o.what} from the terminal; end it with Ctrl-D on a line of its own (or give a FILE instead of -)\n`);
  } else {
    // A list piped from a file or a quick command has ended well within the wait; `tail -f list
    // | sift batch -` never ends, and sift said nothing at all.
    stopWaiting = sayIfStillWaiting(io, () => `sift ${o.command}: waiting for the end of ${o.what} on stdin (${lines} ${lines === 1 ? 'line' : 'lines'} so far); it is read whole before anything runs`, { terminalOnly: true });
  }
  const counting = async function* (): AsyncGenerator<Buffer | string> {
    for await (const chunk of stdin as AsyncIterable<Buffer | string>) {
      for (let i = chunk.indexOf('\n'); i !== -1; i = chunk.indexOf('\n', i + 1)) lines++;
      yield chunk;
    }
  };
  try {
    const bytes = await readStreamUpTo(counting(), maxBytes);
    // A Ctrl-C at a terminal reaches the whole pipeline: the command writing the list dies of
    // it and the pipe ends, and that end could be read before sift's own SIGINT was handled,
    // so the list was taken as whole and a job submitted (cli-terminal failed so in CI). One
    // turn of the event loop lets the signal, already pending, abort first.
    if (!(stdin as { isTTY?: boolean }).isTTY) await new Promise<void>((resolve) => setImmediate(resolve));
    signal.throwIfAborted();
    return bytes;
  } finally {
    stopWaiting();
  }
}

/**
 * A file's bytes, at most `maxBytes` of them. A pipe (`<(curl …)`) or a device is read as a
 * stream, so /dev/zero fails at the limit instead of filling memory for minutes; a regular
 * file over it fails before any read. A directory fails with EISDIR, as readFile would.
 */
export async function readFileUpTo(file: string, maxBytes: number, signal?: AbortSignal): Promise<Buffer> {
  signal?.throwIfAborted();
  if ((await stat(file)).isFIFO()) return readFifoUpTo(file, maxBytes, signal);
  const fh = await open(file, 'r');
  try {
    const st = await fh.stat();
    if (st.isDirectory()) throw Object.assign(new Error(`EISDIR: is a directory, read`), { code: 'EISDIR' });
    if (st.isFile() && st.size > maxBytes) throw new TooLarge(maxBytes);
    const stream = fh.createReadStream({ autoClose: false, ...(signal ? { signal } : {}) });
    // An abort reaches the loop as its error; Node 20 emits it once more after the loop has let
    // go of the stream, and with no listener left that crashed sift with a stack trace.
    stream.on('error', () => {});
    return await readStreamUpTo(stream, maxBytes);
  } finally {
    await fh.close();
  }
}

/**
 * A named pipe's bytes (`mkfifo`), read as stdin is: opened without waiting for a writer and
 * read when the OS says there is something. A plain open and read of one wait for a writer in
 * libuv's thread pool, which nothing can interrupt: Ctrl-C left sift waiting, a second Ctrl-C
 * too (process.exit joins those threads), until whatever wrote the pipe ended.
 */
async function readFifoUpTo(file: string, maxBytes: number, signal?: AbortSignal): Promise<Buffer> {
  const fd = openSync(file, constants.O_RDONLY | constants.O_NONBLOCK);
  const pipe = new Socket({ fd, readable: true, writable: false });
  if (signal) addAbortSignal(signal, pipe);
  try {
    return await readStreamUpTo(pipe, maxBytes);
  } finally {
    pipe.destroy();
  }
}
