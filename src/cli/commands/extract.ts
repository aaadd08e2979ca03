import { open } from 'node:fs/promises';
import path from 'node:path';
import type { Command } from '../command';
import { commonSpec, optionsFromFlags, parse, targetOptionSpec } from '../args';
import { EXIT, UsageError } from '../io';
import { FetchError } from '../../main/fetch';
import { bodyTooLong } from '../../main/fetch/errors';
import { cliFetcher, printOutcome } from './fetch';
import { CLI_CALLER } from '../settings';

const TYPES: Record<string, string> = {
  '.html': 'text/html',
  '.htm': 'text/html',
  '.xhtml': 'application/xhtml+xml',
  '.pdf': 'application/pdf',
  '.json': 'application/json',
  '.txt': 'text/plain',
  '.text': 'text/plain',
  '.md': 'text/markdown',
  '.csv': 'text/csv',
  '.log': 'text/plain',
};

/**
 * A file's bytes, at most `maxBytes` of them (the download limit, as for a fetched body). A
 * pipe (`sift extract <(curl …)`) or a device is read as a stream, so /dev/zero fails at the
 * limit instead of filling memory for minutes; a regular file over it fails before any read.
 */
async function readLocal(file: string, maxBytes: number, signal: AbortSignal): Promise<Buffer> {
  const fh = await open(file, 'r');
  try {
    const st = await fh.stat();
    if (st.isDirectory()) throw Object.assign(new Error('is a directory'), { code: 'EISDIR' });
    if (st.isFile() && st.size > maxBytes) throw bodyTooLong(maxBytes);
    const chunks: Buffer[] = [];
    let total = 0;
    for await (const chunk of fh.createReadStream({ autoClose: false, signal }) as AsyncIterable<Buffer>) {
      total += chunk.length;
      if (total > maxBytes) throw bodyTooLong(maxBytes);
      chunks.push(chunk);
    }
    return Buffer.concat(chunks);
  } finally {
    await fh.close();
  }
}

/** The content type a file's extension implies; '' lets the sniffer decide. */
export const typeForFile = (file: string): string => TYPES[path.extname(file).toLowerCase()] ?? '';

export const extractCommand: Command = {
  name: 'extract',
  summary: 'extract local files (html, pdf, json, txt) without fetching',
  usage: [
    'usage: sift extract FILE... [options] [--json]',
    '',
    'Extracts local files as sift fetch would extract them from the web. The type comes from',
    'the extension (.html .pdf .json .txt .md), else from the first bytes.',
    '',
    'options: --mode M --question Q --pages P --grep RE --jq PROG --context --json',
    '--json: one line per file, in order: {"url":FILE,"ok":true,"content","meta"} or {"url":FILE,"ok":false,"status","error","hint"}',
    'exit codes: 0 all ok, 1 some file failed, 2 bad usage or an unreadable file, 130 interrupted',
  ].join('\n'),
  async run(argv, io, signal) {
    const { values, positionals } = parse(argv, { ...targetOptionSpec, ...commonSpec });
    if (positionals.length === 0) throw new UsageError('missing FILE');
    if (values.recover) throw new UsageError('--recover needs a URL; local files have no archived copy');
    const options = optionsFromFlags(values);
    const json = values.json === true;
    const fetcher = cliFetcher(values, io);
    let code: number = EXIT.ok;
    try {
      for (const file of positionals) {
        if (signal.aborted) return EXIT.interrupted;
        let buf: Buffer;
        try {
          buf = await readLocal(path.resolve(io.cwd, file), fetcher.settings().maxBodyBytes, signal);
        } catch (err) {
          if (signal.aborted) return EXIT.interrupted;
          if (err instanceof FetchError) {
            printOutcome(io, json, file, { error: err }, 'extract');
            if (code === EXIT.ok) code = EXIT.someFailed;
            continue;
          }
          const why = (err as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (err as NodeJS.ErrnoException).code === 'EISDIR' ? 'is a directory' : 'cannot read it';
          printOutcome(io, json, file, { error: new FetchError(400, `cannot read ${file}: ${why}`, 'Check the path.', 'bad_input') }, 'extract');
          code = EXIT.usage;
          continue;
        }
        try {
          const url = `file://${path.resolve(io.cwd, file)}`;
          const result = await fetcher.extractBuffer(buf, typeForFile(file), options, { caller: CLI_CALLER, url, signal });
          printOutcome(io, json, file, { result }, 'extract');
        } catch (error) {
          if (signal.aborted && !(error instanceof FetchError)) return EXIT.interrupted;
          printOutcome(io, json, file, { error }, 'extract');
          if (code === EXIT.ok) code = EXIT.someFailed;
        }
      }
      return code;
    } finally {
      await fetcher.close();
    }
  },
};
