import path from 'node:path';
import { EXIT_BUG, type Command } from '../command';
import { allowHostsFromFlags, commonSpec, optionsFromFlags, parse, targetOptionSpec } from '../args';
import { EXIT, UsageError, sayOnHardStop, userPath, type CliIO } from '../io';
import { reportError, reportWriteError } from '../report';
import { parseList, DEFAULT_MAX_LINES, LIST_FORMATS, type ListFormat, type ParsedTarget } from '../../shared/urllist';
import { SiftError } from '../../shared/errors';
import { shownFailure } from '../../shared/reasons';
import { readableUrl } from '../../shared/readable-url';
import { forTerminal } from '../terminal';
import { isCutShort, isTerminal, isUnfinished, targetOfRow, type Job, type Target, type TargetRow } from '../../shared/types';
import { CLI_CALLER, cliDbPath, cliLog, cliSettings, type CliFlags } from '../context';
import { heldSettingsNote, holdSettingsNote } from '../settings';
import { liveExportSource, openEngine, type Engine } from '../../main/engine';
import { removeMadeDirs } from '../../main/export';
import { storeError, type Store } from '../../main/store';
import { Progress, counted, failureAdvice, neverStartedNote, ownHint, restAdvice, retryAdvice, formatCount, formatWhen, unfinishedText, warningsNote } from '../progress';
import { formatBytes } from '../../shared/bytes';
import { jobLabel, listLabel, rerunLabel } from '../../shared/job-label';
import { batchProblemLines, listReadNote, noTargetsNote, readListInput, splitAdvice } from '../list-input';
import { checkListWideJq, dropBadLinePrograms } from '../list-programs';
import { indexNote, indexTooLong } from '../sitemap-index';
import { fetchListInput, isListUrl } from '../list-url';
import { expandSitemapIndex, type ExpandedIndex } from '../../main/sitemap-index';
import { isSitemapIndex } from '../../shared/urllist/xml';
import { checkExportDestination, checkExportFormat, checkOutGiven, exportFormatFor, printTargetsJson, rowStatus, runExport } from '../output';

const USAGE = `usage: sift batch FILE|-|URL [options] [--json] [--out DIR --format FORMAT]

Submits a list of URLs as one job, shows its progress on stderr, waits, then prints the
results (--json: one JSON object per target, in list order), exports them (--out) or both.
The first line on stderr is \`job ID\` (\`job ID reused\` when the same list is still live).

  FILE|-              the list (text with per-line options, CSV/TSV, Markdown, HTML
                      bookmarks, JSON, uri-list, a sitemap, OPML or a feed's entries);
                      - reads stdin. A sitemap index's child sitemaps are fetched (as
                      any URL is) and their pages are the list
  URL                 a list at an http(s) address, fetched through the guard as a
                      target is: a sitemap, a feed, a text or CSV list, or a web page
                      (its links, relative ones resolved against it)
  --as FORMAT         read the list as ${LIST_FORMATS.join(', ')}
  --out DIR           export the results into DIR
  --format FORMAT     md | txt | json (a file per target), folder (a file per target, each
                      .md, .txt, .json or .html as its result is), jsonl, csv, combined,
                      zip (default: zip, jsonl, csv or combined for an --out named .zip,
                      .jsonl, .csv or .md, else md)
  --include-failed    with --out: a file (a section in combined) per failed target too;
                      manifest, csv and jsonl always list every target
  --include-meta      with --out: front matter with the meta in each file
  --again             fetch the list again, even if it ran as a job within the jobs' lifetime
                      (the app’s Settings, "Keep finished jobs for"); without it that job's
                      stored results are shown
  --rest              run the rest again: when the list's job stopped before its end (Sift was
                      killed or crashed, Ctrl-C, sift cancel), fetch only the targets it did
                      not finish, as a new job
  --retry-failed      retry the failed ones: fetch only the targets of the list's job that
                      failed (a busy site, a timeout), as a new job; again, the ones that
                      failed in that job
  --mode M --question Q --pages P --grep RE --jq PROG --context --recover
  --render auto|always|never
                      options for every line (a line's own options win)
  --allow-private     let the guard pass private and loopback addresses
  --allow-host HOST   let the guard pass this host name or address (repeatable)
  --db PATH           the database (default: the desktop app's)
  --log PATH          also append the JSON log lines to PATH

Ctrl-C cancels the job: the target in flight is stored, the rest stay pending (exit 130).
A second Ctrl-C exits at once, without the export (its unfinished files are removed).
kill (SIGTERM) and a closed terminal (SIGHUP) stop it as Ctrl-C does, with exit 143 and 129.
exit codes: 0 all ok, 1 some target failed, the disk was full (said with what to do), or
${EXIT_BUG}, 2 bad usage or input, 130 interrupted
`;

export const batchCommand: Command = {
  name: 'batch',
  summary: 'fetch a list of URLs as one job, with progress; print or export the results',
  usage: USAGE,
  async run(argv, io, signal) {
    const out: OutDirs = { made: [], written: false };
    try {
      return await batch(argv, io, signal, out);
    } finally {
      if (!out.written) await removeMadeDirs(out.made);
    }
  },
};

/**
 * The folders `--out` made before the job ran, and whether its export was written: an export
 * that failed (a full disk), or a batch that ended before it (no store, a bad jq), left them
 * behind, empty.
 */
interface OutDirs {
  made: string[];
  written: boolean;
}

async function batch(argv: string[], io: CliIO, signal: AbortSignal, out: OutDirs): Promise<number> {
  const { values, positionals } = parse(argv, {
    ...targetOptionSpec,
    ...commonSpec,
    as: { type: 'string' },
    out: { type: 'string' },
    format: { type: 'string' },
    'include-failed': { type: 'boolean' },
    'include-meta': { type: 'boolean' },
    again: { type: 'boolean' },
    rest: { type: 'boolean' },
    'retry-failed': { type: 'boolean' },
  });
  if (positionals.length !== 1) throw new UsageError('give one list FILE, - for stdin, or the URL of a list');
  if (values.format && !values.out) throw new UsageError('--format needs --out DIR');
  // Given alone they did nothing, exit 0: `sift batch list.txt --include-failed` printed what
  // it prints without it, and the user was left to think the failed ones were in it.
  if (values['include-failed'] && !values.out) throw new UsageError('--include-failed needs --out DIR: it writes a file for each failed target into the export; without --out the failed ones are printed with the rest');
  if (values['include-meta'] && !values.out) throw new UsageError("--include-meta needs --out DIR: it writes each result's meta into its exported file; without --out, --json prints the meta");
  if (values.out) checkOutGiven(values.out);
  const reruns = [values.rest && '--rest', values['retry-failed'] && '--retry-failed', values.again && '--again'].filter(Boolean);
  if (reruns.length > 1) {
    throw new UsageError(`${reruns.join(' and ')}: --rest fetches what the job did not finish, --retry-failed what failed, --again the whole list; give one of them`);
  }
  const rerun = values.rest ? REST : values['retry-failed'] ? FAILED : undefined;
  if (values.as !== undefined && !(LIST_FORMATS as readonly string[]).includes(values.as)) {
    throw new UsageError(`unknown list format "${values.as}": use one of ${LIST_FORMATS.join(', ')}`);
  }
  const format = exportFormatFor(values.format, values.out && userPath(io, values.out));
  if (values.out) checkExportFormat(format, userPath(io, values.out));
  // Before the list is read or fetched: a flag that is bad input (--grep "(", a question that
  // asks nothing) is so for every line, and was said only after a list given by its address was fetched.
  const defaults = optionsFromFlags(values);
  const file = positionals[0] as string;
  // A list given by its address is fetched (through the guard) and read as a file would be.
  const fetched = isListUrl(file) ? await fetchListInput(file, values, io, signal) : undefined;
  if (fetched === null) {
    io.stderr.write('sift batch: interrupted while fetching the list; nothing was submitted\n');
    return EXIT.interrupted;
  }
  let input: string;
  try {
    input = fetched ? fetched.text : await readListInput(file, io, signal, 'batch');
  } catch (err) {
    if (!signal.aborted) throw err;
    io.stderr.write('sift batch: interrupted while reading the list; nothing was submitted\n');
    return EXIT.interrupted;
  }
  const list = parseList(input, {
    filename: fetched ? fetched.filename : file === '-' ? undefined : file,
    mimeType: fetched?.mimeType,
    baseUrl: fetched?.base,
    format: values.as as ListFormat | undefined,
    defaults,
  });
  // SPEC §6: the first line on stderr is `job ID`, so the list's problems come after it.
  const as = values.as ? ` --as ${values.as}` : '';
  const parseCmd = fetched ? `curl -s ${shellWord(file)} | sift parse -${as}` : file === '-' ? `sift parse -${as} (given the same list)` : `sift parse ${shellWord(file)}${as}`;
  let problems = batchProblemLines(list.invalid, list.duplicates, parseCmd);
  if (list.truncated) {
    // The parser stops reading there; a job of the first part only would end "done", exit 0.
    const max = formatCount(DEFAULT_MAX_LINES);
    io.stderr.write(
      `sift batch: ${file} is longer than ${max} lines, more than Sift reads as one list; nothing was fetched.\n` +
        `  ${splitAdvice(file, cliSettings({}, io).targetsPerJob)}.\n`,
    );
    return EXIT.usage;
  }
  if (list.targets.length === 0) {
    io.stderr.write(problems);
    io.stderr.write(noTargetsNote('batch', file === '-' ? 'stdin' : file, list.invalid.length, input, list.format));
    return EXIT.usage;
  }
  let targets = asTargets(list.targets);
  holdSettingsNote();
  if (values.out) {
    try {
      out.made = await checkExportDestination(userPath(io, values.out), format);
    } catch (err) {
      io.stderr.write(problems);
      return reportWriteError(err, io, 'batch');
    }
  }

  let ctx: Engine;
  try {
    ctx = openBatchContext({ db: values.db, log: values.log, allowPrivate: values['allow-private'], allowHosts: allowHostsFromFlags(values) }, io);
  } catch (err) {
    return reportWriteError(err, io, 'batch');
  }
  try {
    // A jq program that does not compile would fail every target; it is compiled once, up front.
    await checkListWideJq(defaults.jq, ctx.fetcher);
    // A line's own that does not compile makes that line invalid: said with its line, and not fetched.
    const hints = await dropBadLinePrograms(list, defaults.jq, ctx.fetcher);
    if (hints) {
      problems = batchProblemLines(list.invalid, list.duplicates, parseCmd) + hints;
      if (list.targets.length === 0) {
        io.stderr.write(problems);
        io.stderr.write(`sift batch: ${file === '-' ? 'stdin' : file} holds no valid http(s) URL (${counted(list.invalid.length, 'invalid line')}). Fix the jq programs above.\n`);
        return EXIT.usage;
      }
      targets = asTargets(list.targets);
    }
    let indexed = '';
    let expanded: ExpandedIndex | undefined;
    if (list.format === 'xml' && isSitemapIndex(input)) {
      // Its <loc>s are sitemaps: their pages are the list (sitemap-index.ts).
      const live = io.isTTY ? (done: number, total: number, pages: number) => io.stderr.write(`\r\x1b[Kreading child sitemaps: ${formatCount(done)} of ${formatCount(total)}, ${counted(pages, 'page')}`) : undefined;
      let x: ExpandedIndex;
      try {
        x = await expandSitemapIndex(list.targets, { fetcher: ctx.fetcher, caller: CLI_CALLER, defaults, maxTargets: cliSettings({}, io).targetsPerJob, signal, progress: live });
      } catch (err) {
        if (!signal.aborted) throw err;
        io.stderr.write(`${live ? '\r\x1b[K' : ''}sift batch: interrupted while reading the child sitemaps; nothing was submitted\n`);
        return EXIT.interrupted;
      }
      if (live) io.stderr.write('\r\x1b[K');
      indexed = indexNote(file === '-' ? 'stdin' : file, x, list.targets.length);
      if (x.targets.length === 0) {
        io.stderr.write(`${indexed}sift batch: no child sitemap of the index gave a page to fetch; nothing was submitted\n`);
        return EXIT.usage;
      }
      targets = asTargets(x.targets);
      expanded = x;
    }
    let sub: { id: string; reused: boolean };
    try {
      // Named by its file, as the app names a dropped one: `sift jobs` listed "cli" for every job.
      const name = fetched || file === '-' ? undefined : path.basename(file);
      sub = ctx.runner.submit(CLI_CALLER, 'cli', targets, { fresh: values.again ?? false, ...(name ? { label: jobLabel(name, targets) } : {}) });
    } catch (err) {
      io.stderr.write(problems);
      if (err instanceof SiftError && err.code === 'too_many_targets') {
        // The runner's error has no numbers (it is one sentinel); the user needs them to split the list.
        const max = cliSettings({}, io).targetsPerJob;
        if (expanded) {
          io.stderr.write(indexTooLong(file === '-' ? 'stdin' : file, expanded, list.targets.length, max));
          return EXIT.usage;
        }
        io.stderr.write(
          `sift batch: the list has ${formatCount(targets.length)} URLs, and one job holds at most ${formatCount(max)}.\n` +
            `  ${splitAdvice(file, max)}, or raise "URLs per job" in the app’s Settings.\n`,
        );
        return EXIT.usage;
      }
      // Submitting writes the job and its targets: a full disk or a damaged file shows here first.
      return reportWriteError(storeError(err, ctx.store.path), io, 'batch');
    }
    let restNote = '';
    // The jobs that finished the other part of the list, when this job runs its rest.
    let restBefore: string[] = [];
    // Whether the list's own job was found: --rest takes the rest of that one (and the job
    // running that rest is then a new one, sub.reused false, with its own note).
    const listJobFound = sub.reused;
    if (rerun && sub.reused) {
      // Run the rest again, or retry the failed ones (the app's actions of those names): a
      // job of the targets they take.
      try {
        const ran = runRest(ctx, sub.id, rerun);
        if (ran) {
          sub = ran.sub;
          restBefore = ran.before;
          restNote = `\n  ${rerun.took(ran.of, counted(ran.targets, 'target'))}${sub.reused ? `, run as this job on ${formatWhen(ctx.store.getJob(sub.id)?.createdAt ?? 0)} UTC; these are its stored results` : ''}`;
          // The list's own job: what it never started is in no job that a retry follows.
          if (rerun === FAILED) restNote += leftNote(ctx, ran.before[0]!);
        }
      } catch (err) {
        io.stderr.write(problems);
        return reportWriteError(err, io, 'batch');
      }
    }
    if (rerun && !listJobFound) {
      // Nothing to take the rest of (a fresh or other database, a job past its lifetime, a
      // changed list): the whole list runs, and the user who asked for less is told why.
      restNote = `\n  ${rerun.flag}: this database holds no earlier job of this list (jobs are kept for the time set in the app’s Settings, "Keep finished jobs for"), so all ${counted(targets.length, 'target')} are fetched`;
    }
    problems += listReadNote(file === '-' ? 'stdin' : file, list.targets.length, list.invalid.length, list.duplicates.length);
    if (restNote) io.stderr.write(`job ${sub.id}${sub.reused ? ' reused' : ''}${restNote}\n${heldSettingsNote()}${indexed}${problems}`);
    else io.stderr.write(`job ${sub.id}${sub.reused ? ` reused\n${reuseNote(ctx, sub.id, rerun)}` : ''}\n${heldSettingsNote()}${indexed}${problems}`);
    // --out: the export is written while the job runs, each file as its target finishes.
    // With --json too: both were asked for (the export was left out, its folder empty).
    const started = values.out ? ctx.store.getJob(sub.id) : undefined;
    // Of a job that has ended (reused), the export is all the work there is: Ctrl-C stops it
    // as it stops `sift export`. It ran to its end and exited as if never asked. Of a running
    // job, Ctrl-C cancels the job, and the export is sealed with what it holds.
    const ended = started !== undefined && isTerminal(started.status);
    if (started) sayOnHardStop(`the export was not written (its unfinished files are removed); the results stored so far are kept: sift export ${started.id} --out DIR writes them`);
    const exporting = started
      ? runExport(
          ctx.store,
          started,
          {
            format,
            out: userPath(io, values.out!),
            includeFailed: values['include-failed'] ?? false,
            includeMeta: values['include-meta'] ?? false,
            io,
            ...(ended ? { signal } : {}),
          },
          liveExportSource(ctx.store, ctx.runner, started),
        ).then(
          () => undefined,
          (err: unknown) => ({ err }),
        )
      : undefined;
    const { job, interrupted } = await waitForJob(ctx, sub.id, ctx.store.getJob(sub.id)?.targetsTotal ?? targets.length, io, signal);
    const storeFailed = ctx.runner.storeFailure(job.id);
    if (storeFailed !== undefined) {
      // The store stopped taking results (a full disk): the job ended there. An export
      // under way has written what the store holds; the error says why and what to do.
      await exporting;
      io.stderr.write(`sift batch: job ${job.id} stopped after ${counted(job.targetsDone, 'target')}: Sift could not store the next result.\n`);
      // Whatever stopped the store, the job ran and its rest failed: not a usage error (2).
      reportError(storeError(storeFailed, ctx.store.path), io, 'batch');
      return EXIT.someFailed;
    }

    if (values.json) printTargetsJson(ctx.store, job.id, io);
    if (exporting) {
      const failed = await exporting;
      if (failed) {
        if (!(failed.err instanceof SiftError)) throw failed.err;
        if (signal.aborted && failed.err.code === 'cancelled') {
          io.stderr.write(`sift batch: ${failed.err.message}\n${storedNote(job.id)}`);
          return EXIT.interrupted;
        }
        // The files failed, not the fetching: "choose a folder you can write to" alone read as
        // if the whole list had to be fetched again.
        const code = reportWriteError(failed.err, io, 'batch');
        io.stderr.write(storedNote(job.id));
        return code;
      }
      out.written = true;
      // The export holds this job: the rest. What the list's earlier jobs finished is not in
      // it, and nothing said so: a list killed half-way and finished with --rest --out left
      // its first half out of the folder the user named.
      io.stderr.write(earlierPartsNote(ctx.store, restBefore, rerun ?? REST, values.out!, values.format));
    } else if (!values.json) printSummary(ctx, job.id, io);
    // After the results it explains; on stderr, so --json's stdout stays one object a line.
    // A job stopped early (Ctrl-C, sift cancel) says how to fetch the rest: its targets'
    // hints say "run the rest again", the app's button, which a shell has no such thing as.
    const rows = ctx.store.targetRows(job.id);
    io.stderr.write(failureAdvice(rows, job.id) + retryAdvice(rows) + restAdvice(job, rows));
    if (!values.json && !exporting) io.stderr.write('(--json prints the results, --out DIR exports them)\n');

    if (interrupted) return EXIT.interrupted;
    return job.status === 'done' ? EXIT.ok : EXIT.someFailed;
  } finally {
    await ctx.close();
  }
}

/** What to do when the job's results are stored but its export is not written. */
const storedNote = (id: string): string => `  The results are stored: \`sift export ${id} --out DIR\` writes them without fetching again.\n`;

/** Everything `sift batch` runs on: the same engine as the app, with the CLI's settings and log. */
function openBatchContext(flags: CliFlags, io: CliIO): Engine {
  return openEngine({ dbPath: cliDbPath(flags, io), settings: cliSettings(flags, io), log: cliLog(flags, io) });
}

/** Waits for the job's terminal status, drawing progress; Ctrl-C cancels it and waits for the in-flight target. */
async function waitForJob(
  ctx: Engine,
  id: string,
  total: number,
  io: CliIO,
  signal: AbortSignal,
): Promise<{ job: Job; interrupted: boolean }> {
  const progress = new Progress(io, total);
  let interrupted = false;
  const offTarget = ctx.runner.on('target', (jobId, row) => {
    if (jobId === id) progress.target(row);
  });
  const offWaiting = ctx.runner.on('waiting', (jobId, row) => {
    if (jobId === id) progress.waiting(row);
  });
  const offPages = ctx.runner.on('pages', (jobId, row) => {
    if (jobId === id) progress.pages(row);
  });
  const job = await new Promise<Job>((resolve) => {
    const offJob = ctx.runner.on('job', (j) => {
      if (j.id === id && isTerminal(j.status)) done(j);
    });
    const onAbort = (): void => {
      interrupted = true;
      if (ctx.runner.cancel(id)) progress.note('cancelling: storing the target in flight…');
    };
    function done(j: Job): void {
      offJob();
      signal.removeEventListener('abort', onAbort);
      resolve(j);
    }
    const now = ctx.store.getJob(id);
    if (now) progress.seed(now);
    if (now && isTerminal(now.status)) return done(now);
    signal.addEventListener('abort', onAbort, { once: true });
    if (signal.aborted) onAbort();
  });
  // A cancel (Ctrl-C, `sift cancel`) makes the job terminal before its in-flight target is
  // stored: wait for that write, so what is printed or exported is what `sift status` reads.
  await ctx.runner.settled(id);
  offTarget();
  offWaiting();
  offPages();
  // The runner's word when the store's is not final: a job whose end could not be written
  // (the disk is full) is over all the same.
  const read = ctx.store.getJob(id);
  const stored = read && isTerminal(read.status) ? read : job;
  progress.finish(stored, ctx.store.targetRows(id));
  return { job: stored, interrupted };
}

/**
 * Says what a reused job is (rule 1: the same list within the jobs' lifetime is the same
 * job): a finished one's results are from then, and a user who changed a flag since
 * (--allow-private after "blocked") needs to know how to fetch it again.
 */
function reuseNote(ctx: Engine, id: string, asked: Rerun | undefined): string {
  const job = ctx.store.getJob(id);
  if (!job) return '';
  if (!isTerminal(job.status)) return `  the same list is running as this job; following it${asked ? ` (${asked.flag} takes from it once it has ended)` : ''}`;
  const ran = `  the same list ran as this job on ${formatWhen(job.createdAt)} UTC (${job.status}); these are its stored results.`;
  if (asked) return `${ran} ${asked.none}. --again fetches the list again${asked === FAILED ? leftNote(ctx, id) : ''}`;
  const rows = ctx.store.targetRows(id);
  const left = rows.filter(isUnfinished).length;
  const failed = rows.filter((r) => r.status === 'failed' && !isCutShort(r)).length;
  const retry = failed ? `--retry-failed fetches the ${counted(failed, 'target')} that failed; ` : '';
  if (left === 0) return `${ran} ${retry}--again fetches the list again`;
  return `${ran}\n  ${unfinishedText(job, left)}. --rest fetches just those as a new job; ${retry}--again fetches the whole list again`;
}

/** The targets of a job stopped early that --retry-failed does not take, on a line of their own, or ''. */
function leftNote(ctx: Engine, id: string): string {
  const job = ctx.store.getJob(id);
  const note = job ? neverStartedNote(job, ctx.store.targetRows(id)) : '';
  return note && `\n  ${note}`;
}

/** Which targets of the list's job a rerun fetches: --rest the unfinished ones, --retry-failed the failed ones. */
interface Rerun {
  flag: '--rest' | '--retry-failed';
  takes: (r: TargetRow) => boolean;
  /** The note under the job line: which targets of which job this job fetches. */
  took: (of: string, targets: string) => string;
  /** Why there was nothing to take. */
  none: string;
  /** The targets of an earlier job that this rerun's export does not hold, and the word for them. */
  kept: { is: (r: TargetRow) => boolean; word: string };
}

const REST: Rerun = {
  flag: '--rest',
  takes: isUnfinished,
  took: (of, targets) => `the rest of job ${of}: the ${targets} it did not finish`,
  none: 'Every target of it finished: there is no rest to run',
  kept: { is: (r) => !isUnfinished(r), word: 'finished' },
};

/** "Retry the failed ones", as the app's button of that name: a busy site's or a timeout's targets, later. */
const FAILED: Rerun = {
  flag: '--retry-failed',
  takes: (r) => r.status === 'failed',
  took: (of, targets) => `the failed ones of job ${of}: the ${targets} that failed there, fetched again`,
  none: 'No target of it failed: there is nothing to retry',
  kept: { is: (r) => r.status === 'done', word: 'fetched' },
};

/**
 * Submits what a rerun takes of a terminal job (its unfinished targets, or its failed ones) as
 * one list. That list is idempotent like any other, so a second --rest finds the job the first
 * one made instead of fetching the same targets again; when that job stopped early too (or
 * some of its targets failed again), its own rest is run. Undefined when the job has no rest.
 */
interface RestRun {
  sub: { id: string; reused: boolean };
  /** The job whose rest this is. */
  of: string;
  targets: number;
  /** Every job of the list before this one, the list's own first: each finished part of it. */
  before: string[];
}

function runRest(ctx: Engine, id: string, rerun: Rerun): RestRun | undefined {
  let found: RestRun | undefined;
  const before: string[] = [];
  for (let of = id, seen = new Set<string>(); !seen.has(of); ) {
    seen.add(of);
    const rest = restOf(ctx, of, rerun);
    if (!rest) return found;
    before.push(of);
    // As the app names its "run the rest again" and "retry the failed ones": "retry of reading.txt".
    const label = rerunLabel(ctx.store.getJob(of)?.label || listLabel(rest), rerun === REST ? 'unfinished' : 'failed');
    let sub = ctx.runner.submit(CLI_CALLER, 'cli', rest, { label });
    // The rest is the whole list (nothing finished): the same list is that very job, so a new one.
    if (sub.reused && sub.id === of) sub = ctx.runner.submit(CLI_CALLER, 'cli', rest, { fresh: true, label });
    found = { sub, of, targets: rest.length, before: [...before] };
    if (!sub.reused) return found;
    of = sub.id;
  }
  return found;
}

/** A path as one shell word: as it is when that is safe, else in single quotes. */
const shellWord = (p: string): string => (/^[\w@%+=:,./-]+$/.test(p) ? p : `'${p.replace(/'/g, `'\\''`)}'`);

/**
 * For an export of a job that ran the rest of a list: the list's earlier jobs whose finished
 * targets it does not hold, each with the command that exports them beside it ('' for none).
 */
function earlierPartsNote(store: Store, before: readonly string[], rerun: Rerun, out: string, format: string | undefined): string {
  return before
    .map((id) => {
      const finished = store.targetRows(id).filter(rerun.kept.is).length;
      if (finished === 0) return '';
      const cmd = `sift export ${id} --out ${shellWord(out)}${format ? ` --format ${format}` : ''}`;
      return `  the ${counted(finished, 'target')} of this list that job ${id} ${rerun.kept.word} before are not in this export: \`${cmd}\` writes them\n`;
    })
    .join('');
}

/** The targets of a terminal job that a rerun takes, as a list to submit, or undefined when it has none. */
function restOf(ctx: Engine, id: string, rerun: Rerun): Target[] | undefined {
  const job = ctx.store.getJob(id);
  if (!job || !isTerminal(job.status)) return undefined;
  const rows = ctx.store.targetRows(id).filter(rerun.takes);
  if (rows.length === 0) return undefined;
  return rows.map((r) => targetOfRow(r));
}

function printSummary(ctx: Engine, id: string, io: CliIO): void {
  for (const row of ctx.store.targetRows(id)) {
    const what = row.status === 'done' ? `ok      ${formatBytes(row.bytes).padStart(9)}` : `${rowStatus(row).padEnd(7)} ${shownFailure(row, 'cli').error}`;
    // As the progress lines above name it: 例え.jp/パス, not xn--r8jz45g.jp/%E3%83%91%E3%82%B9.
    // "(no answer)" alone left a list line's question that names nothing ("what is it?") to
    // read as a page that holds no answer: its own hint says why, as sift fetch says it.
    const own = row.status === 'done' ? ownHint(row.warnings, ctx.store.targetResult(id, row.idx)?.result?.meta) : undefined;
    io.stdout.write(forTerminal(`${String(row.idx + 1).padStart(5)}  ${what}  ${readableUrl(row.url)}${warningsNote(row)}\n${own ? `       ${own}\n` : ''}`));
  }
}

/** A list's entries as the runner takes them: the URL, and the options when there are any. */
const asTargets = (entries: ParsedTarget[]): Target[] => entries.map((t) => (t.options ? { url: t.url, options: t.options } : { url: t.url }));
