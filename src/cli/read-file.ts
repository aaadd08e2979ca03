import { open } from 'node:fs/promises';

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
 * A file's bytes, at most `maxBytes` of them. A pipe (`<(curl …)`) or a device is read as a
 * stream, so /dev/zero fails at the limit instead of filling memory for minutes; a regular
 * file over it fails before any read. A directory fails with EISDIR, as readFile would.
 */
export async function readFileUpTo(file: string, maxBytes: number, signal?: AbortSignal): Promise<Buffer> {
  const fh = await open(file, 'r');
  try {
    const st = await fh.stat();
    if (st.isDirectory()) throw Object.assign(new Error(`EISDIR: is a directory, read`), { code: 'EISDIR' });
    if (st.isFile() && st.size > maxBytes) throw new TooLarge(maxBytes);
    return await readStreamUpTo(fh.createReadStream({ autoClose: false, ...(signal ? { signal } : {}) }), maxBytes);
  } finally {
    await fh.close();
  }
}
