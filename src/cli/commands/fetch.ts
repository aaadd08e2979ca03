import { appendFileSync, statSync } from 'node:fs';
import { EXIT_BUG, type Command } from '../command';
import { allowHostsFromFlags, commonSpec, optionsFromFlags, parse, targetOptionSpec } from '../args';
import { EXIT, UsageError, userPath, type CliIO } from '../io';
import { createFetcher, FetchError, type Fetcher } from '../../main/fetch';
import { jqCompileError } from '../../main/check-options';
import { SiftError, toErrorInfo } from '../../shared/errors';
import { reasonOf, WARNING_LABELS, warningLabel } from '../../shared/reasons';
import { CLI_CALLER, cliSettings } from '../settings';
import { fetchSettingsOf } from '../../main/settings';
import { resultWarnings, type Result } from '../../shared/types';
import { pagesMissingText } from '../../shared/pages';
import { jsonLine } from '../../shared/json';
import { hintOn } from '../../shared/hints';
import { clip } from '../../shared/urllist/url';
import { forTerminal, isTerminal } from '../terminal';
import { pagesLine } from '../pages-line';
import { logNotWritable } from '../log-file';
import { ownHint, SAID_BY_OWN_HINT } from '../progress';

/** One target's outcome, printed as SPEC §6 says: content (or a JSON line) on stdout, errors on stderr. */
export function printOutcome(io: CliIO, json: boolean, url: string, outcome: { result: Result } | { error: unknown }, cmd: string): void {
  // What stderr names the target by: a URL refused for being over 8 KiB filled the screen.
  const shown = clip(url, 200);
  // What a page or its server wrote reaches a terminal as text (terminal.ts).
  const say = (line: string): void => void io.stderr.write(forTerminal(line));
  if ('result' in outcome) {
    const meta = outcome.result.meta ?? {};
    const warnings = Array.isArray(meta.warnings) && meta.warnings.length ? { warnings: meta.warnings } : {};
    if (json) io.stdout.write(`${jsonLine({ url, ok: true, content: outcome.result.content, meta, ...warnings })}\n`);
    else {
      // Piped or redirected, the content stays as the page had it.
      const content = isTerminal(io.stdout) ? forTerminal(outcome.result.content) : outcome.result.content;
      io.stdout.write(content.endsWith('\n') || content === '' ? content : `${content}\n`);
      // Ok, but maybe not what was wanted: said where a redirect to a file still shows it.
      // An empty result's own why, where the document says it (a PDF of no pages): "the answer (or
      // the file) was empty … try again later" read as a failed download of a whole file.
      const own = ownHint(resultWarnings(outcome.result), meta);
      // Which pages were past the end: "the missing ones are named" named none.
      const past = pagesMissingText(meta);
      for (const w of resultWarnings(outcome.result)) {
        const why =
          (SAID_BY_OWN_HINT.includes(w) && own) ||
          (w === 'pages_missing' && past && `${past}; the pages it has came back`) ||
          (w === 'recovered' && snapshotNote(meta)) ||
          (WARNING_LABELS[w]?.why ?? 'see meta.warnings');
        say(`sift ${cmd}: ${shown}: ${warningLabel(w)}: ${why}\n`);
      }
      // Which pages of a PDF the kept lines are on: the lines themselves do not say.
      const where = pagesNote(meta);
      if (where) say(`sift ${cmd}: ${shown}: ${where}\n`);
      const textless = pageList(meta.pages_no_text);
      if (textless) say(`sift ${cmd}: ${shown}: no text on ${textless} (blank, or a scanned image: OCR, e.g. ocrmypdf, reads those)\n`);
      const damaged = pageList(meta.pages_failed);
      if (damaged) say(`sift ${cmd}: ${shown}: ${damaged} could not be read (damaged) and ${damaged.startsWith('pages') ? 'are' : 'is'} left out\n`);
      const attached = Array.isArray(meta.attachments) ? meta.attachments.filter((n): n is string => typeof n === 'string') : [];
      if (attached.length) say(`sift ${cmd}: ${shown}: ${attached.length === 1 ? 'a file attached to it was' : `${attached.length} files attached to it were`} not read (${clip(attached.join(', '), 200)}); save ${attached.length === 1 ? 'it' : 'them'} from a PDF reader to read ${attached.length === 1 ? 'it' : 'them'}\n`);
    }
    return;
  }
  // The core names a limit's place as the app reads it ("in Settings"): said here in the command
  // line's words (hintOn), as sift batch and sift status say a stored hint.
  const raw = toErrorInfo(outcome.error);
  const info = { ...raw, message: hintOn('cli', raw.message), hint: hintOn('cli', raw.hint) };
  const reason = reasonOf(info.code, info.status);
  if (json) io.stdout.write(`${jsonLine({ url, ok: false, status: info.status, error: info.message, hint: info.hint, reason })}\n`);
  else {
    // The message says what happened; a server's status is in it ("HTTP 404 Not Found"). The
    // status Sift gives its own findings (404 for a soft 404 the server sent as 200, 422 for a
    // malformed PDF) read as the server's, so it is in --json only.
    say(`sift ${cmd}: ${shown}: ${info.message}${info.hint ? `\n  ${info.hint}` : ''}\n`);
  }
}

/**
 * The outcome of a target that Ctrl-C (or SIGTERM, SIGHUP) stopped before it was done: a failure
 * with reason `cancelled` and the 499 the runner gives a cancelled target, so `--json` still has
 * its line for the target. Without one, a script reading stdout got nothing at all.
 */
export const interruptedError = (again: string): SiftError =>
  new SiftError('cancelled', 499, 'cancelled', `Stopped before it was done (Ctrl-C, or the process was told to stop); ${again}.`);

/**
 * Which archived copy came back, and from when: the content alone read as the live page, and
 * a snapshot may be years old. '' when meta names no snapshot.
 */
export function snapshotNote(meta: Record<string, unknown>): string {
  if (typeof meta.snapshot_url !== 'string' || !meta.snapshot_url) return '';
  const time = typeof meta.snapshot_time === 'string' ? meta.snapshot_time : '';
  const when = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/.test(time) ? `captured ${time.replace('T', ' ').replace('Z', ' UTC')}` : time ? `captured ${time}` : 'captured at a time the archive did not say';
  return `the live page failed, so this is the archive's copy, ${when}, which may be out of date: ${clip(meta.snapshot_url, 300)}`;
}

/** Page numbers a note names one by one; more are counted ("pages 1, 2, … 12 and 40 more"). */
const PAGES_NAMED = 12;

/** "pages 2, 5 and 9", "page 4", "pages 1, 3, … 23 and 140 more"; '' for no page numbers. */
function pageList(v: unknown): string {
  const pages = Array.isArray(v) ? v.filter((p): p is number => typeof p === 'number') : [];
  if (pages.length === 0) return '';
  // A book's blank pages, or a grep that matched on most pages: a line of every number was a screenful.
  if (pages.length > PAGES_NAMED) return `pages ${pages.slice(0, PAGES_NAMED).join(', ')} and ${pages.length - PAGES_NAMED} more`;
  const shown = pages.length > 1 ? `${pages.slice(0, -1).join(', ')} and ${pages.at(-1)}` : String(pages[0]);
  return `${pages.length > 1 ? 'pages' : 'page'} ${shown}`;
}

/** "3 matches, on pages 2, 5 and 9" for a PDF's grep, "passages from pages 4 and 7" for its question; '' otherwise. */
export function pagesNote(meta: Record<string, unknown>): string {
  const notes: string[] = [];
  const matches = pageList(meta.match_pages);
  if (matches) notes.push(`${typeof meta.matches === 'number' ? `${meta.matches} ${meta.matches === 1 ? 'match' : 'matches'}, ` : ''}on ${matches}`);
  const passages = pageList(meta.passage_pages);
  if (passages) notes.push(`passages from ${passages}`);
  return notes.join('; ');
}

/**
 * The fetcher a CLI command uses: the app's saved settings (size limits, user agent, allow
 * list, archive service), --allow-private over them, and --log appending JSON lines.
 */
export function cliFetcher(values: Record<string, unknown>, io: CliIO): Fetcher {
  const settings = cliSettings({ allowPrivate: values['allow-private'] === true, allowHosts: allowHostsFromFlags(values) }, io);
  return createFetcher(fetchSettingsOf(settings), { log: flagLog(values, io) });
}

/** The JSON lines --log appends to its file, each with its time; undefined without --log. */
export function flagLog(values: Record<string, unknown>, io: CliIO): ((line: Record<string, unknown>) => void) | undefined {
  const logPath = typeof values.log === 'string' ? userPath(io, values.log) : '';
  const problem = logPath ? logNotWritable(logPath) : undefined;
  if (problem) throw new UsageError(`${problem}: pass --log with a path you can write to`);
  return logPath ? (line) => appendFileSync(logPath, `${jsonLine({ time: new Date().toISOString(), ...line })}\n`) : undefined;
}

/**
 * What to say of a "URL" with no scheme that names a file here: `sift fetch saved.html` (or
 * notes:2026, read as the scheme "notes") was told to use an http:// address, not which
 * command reads the file it named.
 */
function localFile(url: string, io: CliIO): FetchError | undefined {
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(url)) return undefined;
  try {
    if (!statSync(userPath(io, url)).isFile()) return undefined;
  } catch {
    return undefined;
  }
  return new FetchError(400, 'a local file, not a URL', `sift extract ${url} reads a saved page or document; sift batch ${url} runs the list of URLs in it.`, 'bad_input');
}

export const fetchCommand: Command = {
  name: 'fetch',
  summary: 'fetch one URL and print what is behind it',
  usage: [
    'usage: sift fetch URL [options] [--json]',
    '',
    'Fetches one URL and prints the extracted content on stdout.',
    '',
    '  --mode M          markdown (default), text, html, raw, links or meta',
    '  --question Q, -q  the passages that best answer Q',
    '  --pages P         PDF pages, e.g. 1-3,7,10-',
    '  --grep RE         the lines matching a JavaScript regular expression',
    '  --jq PROG         a jq program over a JSON document; with --mode text its strings',
    '                    come out unquoted, one a line, as jq -r prints them',
    '  --context         with --grep/--question: the lines or passages around each hit',
    '  --recover         on 404/410/5xx, a timeout, a dead host, an anti-bot check, a sign-in',
    '                    wall or a soft 404: extract an archived snapshot instead',
    '  --render R        auto (default: render app shells in Chromium), always or never',
    '  --allow-private   let private and loopback addresses through the guard',
    '  --allow-host HOST let this host name or address through the guard (repeatable)',
    '  --log PATH        append JSON log lines to PATH',
    '  --db PATH         taken, as by every command, and unused: sift fetch stores nothing;',
    '                    sift batch --db PATH stores its results there (a list of one URL too)',
    '  --json            one JSON line: {"url","ok":true,"content","meta"[,"warnings"]} or',
    '                    {"url","ok":false,"status","error","hint","reason"}',
    '',
    `exit codes: 0 ok, 1 the target failed, or ${EXIT_BUG},`,
    '            2 bad usage or URL, 130 interrupted',
  ].join('\n'),
  async run(argv, io, signal) {
    const { values, positionals } = parse(argv, { ...targetOptionSpec, ...commonSpec });
    if (positionals.length !== 1) throw new UsageError(positionals.length ? 'takes exactly one URL (use sift batch for a list)' : 'give one URL, e.g. sift fetch https://example.org/report.pdf');
    const url = positionals[0] as string;
    const options = optionsFromFlags(values);
    // SPEC lists --db among every command's options, and scripts pass one --db to each; a
    // person who typed it at a terminal took the result to be stored there, and no later
    // sift search --db found it. Said on a terminal only, so a script's log is not told each run.
    if (values.db !== undefined && io.isTTY) io.stderr.write(`sift fetch: nothing is stored in --db ${values.db}: sift fetch prints its result; sift batch --db ${values.db} stores results there (a list of one URL too)\n`);
    const fetcher = cliFetcher(values, io);
    try {
      // A program that does not compile is a usage error (exit 2), said before the page is fetched.
      const bad = options.jq ? await jqCompileError(options.jq, fetcher) : undefined;
      if (bad) {
        printOutcome(io, values.json === true, url, { error: bad }, 'fetch');
        return EXIT.usage;
      }
      const file = localFile(url, io);
      if (file) {
        printOutcome(io, values.json === true, url, { error: file }, 'fetch');
        return EXIT.usage;
      }
      const reading = pagesLine(io, values.json === true);
      const result = await fetcher.fetchTarget(signal, CLI_CALLER, { url, options }, reading.onPages ? { onPages: reading.onPages } : {}).finally(reading.erase);
      printOutcome(io, values.json === true, url, { result }, 'fetch');
      return EXIT.ok;
    } catch (error) {
      if (signal.aborted) {
        printOutcome(io, values.json === true, url, { error: interruptedError('run the same sift fetch again to fetch it') }, 'fetch');
        return EXIT.interrupted;
      }
      printOutcome(io, values.json === true, url, { error }, 'fetch');
      return error instanceof FetchError && error.status === 400 ? EXIT.usage : EXIT.someFailed;
    } finally {
      await fetcher.close();
    }
  },
};
