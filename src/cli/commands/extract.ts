import path from 'node:path';
import { EXIT_BUG, type Command } from '../command';
import { commonSpec, optionsFromFlags, parse, targetOptionSpec } from '../args';
import { EXIT, UsageError, userPath, type CliIO } from '../io';
import { FetchError } from '../../main/fetch';
import { jqCompileError } from '../../main/check-options';
import { bodyTooLong } from '../../main/fetch/errors';
import { cliFetcher, interruptedError, printOutcome } from './fetch';
import { SiftError } from '../../shared/errors';
import type { Result } from '../../shared/types';
import { CLI_CALLER } from '../settings';
import { pagesLine } from '../pages-line';
import { readFileUpTo, readStdinUpTo, TooLarge, unreadableWhy } from '../read-file';

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

/** The content type a file's extension implies; '' lets the sniffer decide. */
export const typeForFile = (file: string): string => TYPES[path.extname(file).toLowerCase()] ?? '';

const AGAIN = 'run the same sift extract again to read it';

/**
 * The files a Ctrl-C (or SIGTERM, SIGHUP) left: the one under way cancelled, the rest not run,
 * as sift batch --json has a job's. --json promises a line per file, and a script reading it
 * got none for them.
 */
function printInterrupted(io: CliIO, json: boolean, files: string[]): number {
  const [current, ...rest] = files;
  if (current !== undefined) printOutcome(io, json, current, { error: interruptedError(AGAIN) }, 'extract');
  const notRun = new SiftError('cancelled', 0, 'not run', `Stopped before this file was read; ${AGAIN}.`);
  for (const file of rest) printOutcome(io, json, file, { error: notRun }, 'extract');
  return EXIT.interrupted;
}

/**
 * What to do about a document of 0 bytes. The warning's own why ("Check the URL or the file, or
 * try again later") is a download's; a local file or stdin has no URL, and trying later reads
 * the same nothing. A why the extractor gave stays.
 */
function withEmptyInputHint(result: Result, file: string, bytes: number): Result {
  if (bytes > 0 || typeof result.meta?.hint === 'string') return result;
  const hint =
    file === '-'
      ? 'Nothing came in on stdin (0 bytes): pipe the document in, as in `cat page.html | sift extract -`.'
      : 'The file is empty (0 bytes): check that it is the one you meant, or that it was saved whole.';
  return { ...result, meta: { ...result.meta, hint } };
}

export const extractCommand: Command = {
  name: 'extract',
  summary: 'extract local files (html, pdf, json, txt) without fetching',
  usage: [
    'usage: sift extract FILE...|- [options] [--json]',
    '',
    'Extracts local files (- reads stdin) as sift fetch would extract them from the web. The',
    'type comes from the extension (.html .pdf .json .txt .md), else from the first bytes. A',
    'web page saved to a file links where it linked on the web: to the address the browser',
    'noted when it was saved, else to its canonical link or og:url (meta.base_url says which).',
    '',
    'options: --mode M --question Q --pages P --grep RE --jq PROG --context --json',
    '--json: one line per file, in order: {"url":FILE,"ok":true,"content","meta"[,"warnings"]} or',
    '        {"url":FILE,"ok":false,"status","error","hint","reason"}',
    `exit codes: 0 all ok, 1 some file failed, or ${EXIT_BUG},`,
    '            2 bad usage or an unreadable file, 130 interrupted',
  ].join('\n'),
  async run(argv, io, signal) {
    const { values, positionals } = parse(argv, { ...targetOptionSpec, ...commonSpec });
    if (positionals.length === 0) throw new UsageError('give one or more files to read (HTML, PDF, JSON or text), or - for stdin; sift fetch URL reads a page from the web');
    if (values.recover) throw new UsageError('--recover needs a URL; local files have no archived copy');
    // It was taken and did nothing: `--render always` on a saved app shell printed the shell's
    // empty text, exit 0, as if Chromium had found nothing in the page either.
    if (values.render !== undefined) throw new UsageError('--render needs a URL: a local file is read as it was saved, not run in Chromium; sift fetch URL --render always renders the page from the web');
    const options = optionsFromFlags(values);
    const json = values.json === true;
    const fetcher = cliFetcher(values, io);
    let code: number = EXIT.ok;
    try {
      // A program that does not compile fails every file the same way, before any is read: a
      // usage error (exit 2); each file still has its line, as --json promises one per file.
      const bad = options.jq ? await jqCompileError(options.jq, fetcher) : undefined;
      if (bad) {
        for (const file of positionals) printOutcome(io, json, file, { error: bad }, 'extract');
        return EXIT.usage;
      }
      for (const [i, file] of positionals.entries()) {
        if (signal.aborted) return printInterrupted(io, json, positionals.slice(i));
        let buf: Buffer;
        try {
          // As much as a download may be: a pipe or a device is read up to it, not without end.
          // "-" is stdin, as for sift parse and sift batch (`curl … | sift extract -`).
          const max = fetcher.settings().maxBodyBytes;
          buf = file === '-' ? await readStdinUpTo(io, max, signal, { command: 'extract', what: 'the document' }) : await readFileUpTo(userPath(io, file), max, signal);
        } catch (err) {
          if (signal.aborted) return printInterrupted(io, json, positionals.slice(i));
          if (err instanceof TooLarge) {
            printOutcome(io, json, file, { error: bodyTooLong(err.maxBytes) }, 'extract');
            if (code === EXIT.ok) code = EXIT.someFailed;
            continue;
          }
          printOutcome(io, json, file, { error: new FetchError(400, `cannot read ${file}: ${unreadableWhy(err)}`, 'Check the path.', 'bad_input') }, 'extract');
          code = EXIT.usage;
          continue;
        }
        try {
          // stdin has no address: its links stay as written unless the page names its own (saved from, canonical).
          const url = file === '-' ? undefined : `file://${userPath(io, file)}`;
          const reading = pagesLine(io, json);
          const result = await fetcher
            .extractBuffer(buf, typeForFile(file), options, { caller: CLI_CALLER, ...(url ? { url } : {}), signal, ...(reading.onPages ? { onPages: reading.onPages } : {}) })
            .finally(reading.erase);
          printOutcome(io, json, file, { result: withEmptyInputHint(result, file, buf.length) }, 'extract');
        } catch (error) {
          if (signal.aborted) return printInterrupted(io, json, positionals.slice(i));
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
