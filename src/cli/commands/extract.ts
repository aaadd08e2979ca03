import path from 'node:path';
import { EXIT_BUG, type Command } from '../command';
import { commonSpec, optionsFromFlags, parse, targetOptionSpec } from '../args';
import { EXIT, UsageError, userPath, type CliIO } from '../io';
import { FetchError } from '../../main/fetch';
import { jqCompileError } from '../../main/check-options';
import { bodyTooLong } from '../../main/fetch/errors';
import { cliFetcher, flagLog, interruptedError, printOutcome } from './fetch';
import { SiftError, toErrorInfo } from '../../shared/errors';
import { reasonOf } from '../../shared/reasons';
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
 * The options every command takes (commonSpec) that mean nothing to one that reads local files,
 * with why and what to use instead: sift extract took them and did nothing, so `--db` read as if
 * the results were stored there, and `--allow-private` as if it had been needed.
 */
const NOT_FOR_FILES = {
  db: 'it reads local files and stores nothing; sift batch --db PATH stores its results in that database',
  'allow-private': 'it reads local files and fetches nothing, so no address is checked; sift fetch URL --allow-private fetches from a private address',
  'allow-host': 'it reads local files and fetches nothing, so no host is checked; sift fetch URL --allow-host HOST fetches from that host',
} as const;

/**
 * The files a Ctrl-C (or SIGTERM, SIGHUP) left: the one under way cancelled, the rest not run,
 * as sift batch --json has a job's. --json promises a line per file, and a script reading it
 * got none for them.
 */
function printInterrupted(say: Say, files: string[]): number {
  const [current, ...rest] = files;
  if (current !== undefined) say(current, { error: interruptedError(AGAIN) });
  const notRun = new SiftError('cancelled', 0, 'not run', `Stopped before this file was read; ${AGAIN}.`);
  for (const file of rest) say(file, { error: notRun });
  return EXIT.interrupted;
}

/** Prints a file's outcome, and appends its line to --log. */
type Say = (file: string, outcome: { result: Result } | { error: unknown }) => void;

/**
 * What sift extract says of each file: on stdout and stderr as sift fetch says a target, and
 * with --log one JSON line per file, as sift fetch writes one per target (its outcome, status
 * and time, never the file's path, as a fetch's line never names its URL). --log was taken and
 * nothing was written.
 */
function sayer(io: CliIO, json: boolean, values: Record<string, unknown>): Say {
  const log = flagLog(values, io);
  let since = Date.now();
  return (file, outcome) => {
    printOutcome(io, json, file, outcome, 'extract');
    if (log) {
      const info = 'error' in outcome ? toErrorInfo(outcome.error) : undefined;
      const detail = 'error' in outcome && outcome.error instanceof FetchError ? outcome.error.detail : undefined;
      const failed = info ? { outcome: info.code, reason: reasonOf(info.code, info.status), ...(detail ? { detail } : {}) } : { outcome: 'ok' };
      log({ msg: 'extract', caller: CLI_CALLER.name, ...failed, status: info ? info.status : 200, ms: Date.now() - since });
    }
    since = Date.now();
  };
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
    '         --log PATH (append a JSON log line per file to PATH)',
    '--json: one line per file, in order: {"url":FILE,"ok":true,"content","meta"[,"warnings"]} or',
    '        {"url":FILE,"ok":false,"status","error","hint","reason"}',
    `exit codes: 0 all ok, 1 some file failed, or ${EXIT_BUG},`,
    '            2 bad usage or an unreadable file, 130 interrupted',
  ].join('\n'),
  async run(argv, io, signal) {
    const { values, positionals } = parse(argv, { ...targetOptionSpec, ...commonSpec });
    for (const [flag, why] of Object.entries(NOT_FOR_FILES)) {
      if (values[flag as keyof typeof NOT_FOR_FILES] !== undefined) throw new UsageError(`--${flag} is not for sift extract: ${why}`);
    }
    if (positionals.length === 0) throw new UsageError('give one or more files to read (HTML, PDF, JSON or text), or - for stdin; sift fetch URL reads a page from the web');
    if (values.recover) throw new UsageError('--recover needs a URL; local files have no archived copy');
    // It was taken and did nothing: `--render always` on a saved app shell printed the shell's
    // empty text, exit 0, as if Chromium had found nothing in the page either.
    if (values.render !== undefined) throw new UsageError('--render needs a URL: a local file is read as it was saved, not run in Chromium; sift fetch URL --render always renders the page from the web');
    const options = optionsFromFlags(values);
    const json = values.json === true;
    const fetcher = cliFetcher(values, io);
    const say = sayer(io, json, values);
    let code: number = EXIT.ok;
    try {
      // A program that does not compile fails every file the same way, before any is read: a
      // usage error (exit 2); each file still has its line, as --json promises one per file.
      const bad = options.jq ? await jqCompileError(options.jq, fetcher) : undefined;
      if (bad) {
        for (const file of positionals) say(file, { error: bad });
        return EXIT.usage;
      }
      for (const [i, file] of positionals.entries()) {
        if (signal.aborted) return printInterrupted(say, positionals.slice(i));
        let buf: Buffer;
        try {
          // As much as a download may be: a pipe or a device is read up to it, not without end.
          // "-" is stdin, as for sift parse and sift batch (`curl … | sift extract -`).
          const max = fetcher.settings().maxBodyBytes;
          buf = file === '-' ? await readStdinUpTo(io, max, signal, { command: 'extract', what: 'the document' }) : await readFileUpTo(userPath(io, file), max, signal);
        } catch (err) {
          if (signal.aborted) return printInterrupted(say, positionals.slice(i));
          if (err instanceof TooLarge) {
            say(file, { error: bodyTooLong(err.maxBytes) });
            if (code === EXIT.ok) code = EXIT.someFailed;
            continue;
          }
          say(file, { error: new FetchError(400, `cannot read ${file}: ${unreadableWhy(err)}`, 'Check the path.', 'bad_input') });
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
          say(file, { result: withEmptyInputHint(result, file, buf.length) });
        } catch (error) {
          if (signal.aborted) return printInterrupted(say, positionals.slice(i));
          say(file, { error });
          if (code === EXIT.ok) code = EXIT.someFailed;
        }
      }
      return code;
    } finally {
      await fetcher.close();
    }
  },
};
