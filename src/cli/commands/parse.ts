import { EXIT_BUG, type Command } from '../command';
import { optionsFromFlags, parse, targetOptionSpec } from '../args';
import { EXIT, UsageError, userPath, type CliIO } from '../io';
import { DEFAULT_MAX_LINES, LIST_FORMATS, parseList, type ListFormat, type ParsedList } from '../../shared/urllist';
import { noTargetsNote, problemLines, readListInput, splitAdvice } from '../list-input';
import { cliSettings } from '../settings';
import { counted, formatCount } from '../progress';
import { jsonLine } from '../../shared/json';
import { isSitemapIndex } from '../../shared/urllist/xml';
import { existsSync } from 'node:fs';
import { isListUrl } from '../list-url';

const USAGE = `usage: sift parse FILE|- [--as FORMAT] [options]

Shows a list the way Sift reads it: one JSON line per target {"url","options"} on stdout
(options left out when there are none), then invalid lines and duplicates with their line
numbers and why on stderr, and a summary line.

  FILE|-        the list; - reads stdin
  --as FORMAT   read it as ${LIST_FORMATS.join(', ')}
                (default: from the file extension, else from the content)
  options       --mode M --question Q --pages P --grep RE --jq PROG --context --recover
                --render R are defaults for every line; a line's own options win

exit codes: 0 at least one valid target (invalid lines are reported on stderr but the
valid targets were printed, so the list is usable);
1 ${EXIT_BUG};
2 the file cannot be read, the arguments are wrong, or the list holds no valid target.
`;

export const parseCommand: Command = {
  name: 'parse',
  summary: 'show how Sift reads a URL list: one JSON line per target',
  usage: USAGE,
  async run(argv: string[], io: CliIO, signal: AbortSignal): Promise<number> {
    const { values, positionals } = parse(argv, { ...targetOptionSpec, as: { type: 'string' } });
    if (positionals.length !== 1) throw new UsageError('give one FILE, or - for stdin');
    const file = positionals[0] as string;
    const as = values.as;
    if (as !== undefined && !(LIST_FORMATS as readonly string[]).includes(as)) {
      throw new UsageError(`unknown list format "${as}": use one of ${LIST_FORMATS.join(', ')}`);
    }
    const defaults = optionsFromFlags(values);

    // parse fetches nothing; the address of a list is no file of that name.
    if (isListUrl(file) && !existsSync(userPath(io, file))) {
      throw new UsageError(`${file} is an address: sift parse reads a list from a file or stdin and fetches nothing (curl -s ${file} | sift parse - reads it; sift batch ${file} fetches and runs it)`);
    }
    let input: string;
    try {
      input = await readListInput(file, io, signal, 'parse');
    } catch (err) {
      if (!signal.aborted) throw err;
      // In sift batch's words: it exited 130 and said nothing, so a pipe that never ended (or a
      // named pipe no one wrote) left the user to guess whether any of the list had been read.
      io.stderr.write('sift parse: interrupted while reading the list; nothing was printed\n');
      return EXIT.interrupted;
    }

    const list = parseList(input, {
      filename: file === '-' ? undefined : file,
      format: as as ListFormat | undefined,
      defaults,
    });
    const hints = await linePrograms(list, defaults.jq);
    const out = list.targets
      .map((t) => jsonLine(t.options ? { url: t.url, options: t.options } : { url: t.url }))
      .join('\n');
    if (out) io.stdout.write(`${out}\n`);
    io.stderr.write(problemLines(list.invalid, list.duplicates) + hints);
    if (list.truncated) {
      // The part shown is all Sift reads, and sift batch refuses such a list rather than run that part.
      const perJob = cliSettings({}, io).targetsPerJob;
      io.stderr.write(`the list was cut short: it is longer than ${formatCount(DEFAULT_MAX_LINES)} lines, more than Sift reads as one list, and sift batch runs none of it. ${splitAdvice(file, perJob)}.\n`);
    }
    io.stderr.write(
      `${counted(list.targets.length, 'target')}, ${formatCount(list.invalid.length)} invalid, ${counted(list.duplicates.length, 'duplicate')} (read as ${list.format})\n`,
    );
    // Only where nothing else said why: an invalid line's own report does, and parse's stderr is a report.
    if (list.targets.length === 0 && list.invalid.length === 0) io.stderr.write(noTargetsNote('parse', file === '-' ? 'stdin' : file, list.invalid.length, input, list.format));
    // parse reads the list and fetches nothing, so an index's targets here are its sitemaps.
    if (list.format === 'xml' && list.targets.length > 0 && isSitemapIndex(input)) {
      io.stderr.write('these are the child sitemaps of a sitemap index: sift batch fetches them and runs the pages they list\n');
    }
    return list.targets.length > 0 ? EXIT.ok : EXIT.usage;
  },
};

/**
 * Compiles the list's jq programs as sift batch does before it submits (a line whose own does
 * not compile is invalid; a --jq that does not compile is a usage error), so the lines parse
 * prints are the lines batch runs: it printed a line with jq='.[' as a target, exit 0, and
 * batch refused it. Compiling needs no settings and fetches nothing; the fetcher is loaded, and
 * its compute worker started, only for a list that has a program.
 */
async function linePrograms(list: ParsedList, listWide: string | undefined): Promise<string> {
  if (listWide === undefined && !list.targets.some((t) => t.options?.jq !== undefined)) return '';
  const [{ createFetcher }, { checkListWideJq, dropBadLinePrograms }] = await Promise.all([import('../../main/fetch'), import('../list-programs')]);
  const fetcher = createFetcher();
  try {
    await checkListWideJq(listWide, fetcher);
    return await dropBadLinePrograms(list, listWide, fetcher);
  } finally {
    await fetcher.close();
  }
}
