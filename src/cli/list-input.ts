import path from 'node:path';
import { MAX_LIST_BYTES, type ListProblem } from '../shared/urllist';
import { UsageError, type CliIO } from './io';
import { readFileUpTo, readStreamUpTo, TooLarge, unreadableWhy } from './read-file';

async function readAll(stream: NodeJS.ReadableStream): Promise<string> {
  return (await readStreamUpTo(stream as AsyncIterable<Buffer | string>, MAX_LIST_BYTES)).toString('utf8');
}

/** A list from FILE, or stdin for "-"; an unreadable file is a usage error (exit 2). */
export async function readListInput(file: string, io: CliIO): Promise<string> {
  try {
    return file === '-' ? await readAll(io.stdin) : (await readFileUpTo(path.resolve(io.cwd, file), MAX_LIST_BYTES)).toString('utf8');
  } catch (err) {
    if (err instanceof TooLarge) throw new UsageError(`cannot read ${file}: a list of URLs ${err.message} is more than Sift reads; split it into smaller lists`);
    throw new UsageError(`cannot read ${file}: ${unreadableWhy(err)}`);
  }
}

/** Invalid lines and duplicates, one per line, in line order, as `sift parse` prints them. */
export function problemLines(invalid: ListProblem[], duplicates: ListProblem[]): string {
  const all = [
    // The input is shown unless the reason already quotes it ("not an http(s) URL: ftp://…").
    ...invalid.map((p) => ({
      line: p.line,
      text: `line ${p.line}: invalid: ${p.reason}${p.text && !p.reason.includes(p.text) ? ` (${p.text})` : ''}`,
    })),
    ...duplicates.map((p) => ({ line: p.line, text: `line ${p.line}: ${p.reason}` })),
  ];
  // Stable sort: problems on one line keep the order the parser found them in.
  all.sort((a, b) => a.line - b.line);
  return all.map((p) => `${p.text}\n`).join('');
}
