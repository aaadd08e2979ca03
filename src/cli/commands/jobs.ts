import { EXIT_BUG, type Command } from '../command';
import { parse } from '../args';
import { EXIT, UsageError, sayOnHardStop, userPath, type CliIO } from '../io';
import { reportError, reportWriteError } from '../report';
import { cliDbPath, namedJob, NOTHING_STORED, nothingStoredYet, openCliStore, withStore } from '../context';
import { answeringOwner, requestCancel } from '../../main/control';
import { storeError, type Store } from '../../main/store';
import { isCutShort, type TargetRow } from '../../shared/types';
import { finishedCount } from '../../shared/job-counts';
import { SiftError } from '../../shared/errors';
import { shownFailure } from '../../shared/reasons';
import { hintOn } from '../../shared/hints';
import { readableUrl } from '../../shared/readable-url';
import { checkExportFormat, checkOutGiven, exportFormatFor, rowStatus, runExport } from '../output';
import { failureAdvice, restAdvice, retryAdvice, formatWhen, okNotes, warningsNote } from '../progress';
import { formatBytes } from '../../shared/bytes';
import { jsonLine } from '../../shared/json';
import { forTerminal } from '../terminal';
import { sayIfStillWaiting } from '../waiting';

/** The options of a command on the database; --json only where it prints (cancel and export took it and printed nothing else). */
const dbSpec = { db: { type: 'string' }, log: { type: 'string' } } as const;
const listSpec = { ...dbSpec, json: { type: 'boolean' } } as const;

/** What --db and --log are, in each help: --log was taken and named in none. */
const DB_NOTE = '--db PATH: the database (default: the desktop app’s)\n--log PATH: also append its JSON log lines to PATH';

export const jobsCommand: Command = {
  name: 'jobs',
  summary: 'list the jobs in the database, newest first',
  usage: `usage: sift jobs [--json] [--db PATH] [--log PATH]

${DB_NOTE}

--json: one object per job {"id","status","error","targetsTotal","targetsDone","createdAt"}
exit codes: 0 listed (also when there are none: stderr says so),
1 ${EXIT_BUG}, 2 bad usage or
the database cannot be read, 130 interrupted
`,
  async run(argv, io, signal) {
    const { values, positionals } = parse(argv, listSpec);
    // A job's ID given here meant that job: said as "sift jobs: sift jobs takes no arguments".
    if (positionals.length) throw new UsageError(`takes no arguments (${positionals[0]}); for one job's targets: sift status ID`);
    if (nothingStoredYet(values, io)) {
      if (!values.json) io.stderr.write(`sift jobs: ${NOTHING_STORED}\n`);
      return EXIT.ok;
    }
    return withStore('jobs', values, io, signal, (store) => {
      // Every job: a cap of 10,000 dropped the oldest of a longer list without a word.
      const jobs = store.listJobs(Infinity);
      // A fresh install's list printed nothing at all. Said on stderr: stdout stays the list.
      if (jobs.length === 0 && !values.json) io.stderr.write('sift jobs: no jobs in this database yet; sift batch FILE submits a list\n');
      for (const j of jobs) {
        if (values.json) {
          const { id, status, error, targetsTotal, targetsDone, createdAt } = j;
          io.stdout.write(`${jsonLine({ id, status, error, targetsTotal, targetsDone, createdAt })}\n`);
        } else {
          const err = j.error ? `  (${j.error})` : '';
          // Finished as sift status and the app count them: a target cut short by a crash or a
          // cancel is stored failed, and listed "3/5" here beside status's "2/5 finished".
          const finished = finishedCount(j);
          // Its name last, as the app's job list shows it: the caller alone ("cli") told no job from another.
          const label = j.label ? `  ${j.label}` : '';
          io.stdout.write(forTerminal(`${j.id}  ${j.status.padEnd(9)} ${`${finished}/${j.targetsTotal}`.padStart(11)}  ${formatWhen(j.createdAt)}  ${j.caller}${label}${err}\n`));
        }
      }
      return EXIT.ok;
    });
  },
};

/** A job named in a data folder where nothing has been stored: no such job, as status says of one it does not find (exit 2). */
function noJobYet(command: string, id: string, io: CliIO): number {
  io.stderr.write(`sift ${command}: no job ${id}: ${NOTHING_STORED}\n`);
  return EXIT.usage;
}

const ID_NOTE = 'ID: a job’s ID from sift jobs, or enough of its start (4 characters or more) to tell\nit from the others.';

export const statusCommand: Command = {
  name: 'status',
  summary: 'one job and its targets',
  usage: `usage: sift status ID [--json] [--db PATH] [--log PATH]

${ID_NOTE}
${DB_NOTE}

--json: the job object, then one line per target
{"idx","url","status","error","hint","reason","bytes"} (reason, for a failed target, says why:
challenge, login, consent, soft404, needs_js, blocked, timeout, busy, too_long, unsupported,
bad_option, upstream, network, cancelled, restart, internal)
exit codes: 0 the job was found (whatever its status: read it from the output),
1 ${EXIT_BUG}, 2 bad usage, no such job
or the database cannot be read, 130 interrupted
`,
  async run(argv, io, signal) {
    const { values, positionals } = parse(argv, listSpec);
    if (positionals.length !== 1) throw new UsageError('give one job ID (see sift jobs)');
    if (nothingStoredYet(values, io)) return noJobYet('status', positionals[0] as string, io);
    return withStore('status', values, io, signal, (store) => {
      const named = namedJob(store, positionals[0] as string);
      if ('problem' in named) {
        io.stderr.write(`sift status: ${named.problem}\n`);
        return EXIT.usage;
      }
      const j = named.job;
      const id = j.id;
      const rows = store.targetRows(id);
      if (values.json) {
        const { status, error, targetsTotal, targetsDone, createdAt } = j;
        io.stdout.write(`${jsonLine({ id, status, error, targetsTotal, targetsDone, createdAt })}\n`);
      } else {
        const notes = okNotes(rows, 'ok with warnings').map((n) => `, ${n}`).join('');
        // A target cut short (a crash, a cancel) is stored failed, so counted in targetsDone,
        // and is one of the "did not finish" said below: "168/5000 finished" then "4,833 of
        // 5,000 did not finish" counted it twice. It is told apart here.
        const cut = rows.filter(isCutShort).length;
        io.stdout.write(
          `job ${id}: ${j.status}${j.error ? ` (${j.error})` : ''}, ${j.targetsDone - cut}/${j.targetsTotal} finished, ${j.targetsFailed - cut} failed${cut ? `, ${cut} stopped mid-way` : ''}${notes}, created ${formatWhen(j.createdAt)}\n`,
        );
      }
      for (const t of rows) {
        if (values.json) {
          io.stdout.write(`${jsonLine({ idx: t.idx, url: t.url, status: t.status, error: t.error, hint: hintOn('cli', t.hint), reason: t.reason ?? '', bytes: t.bytes })}\n`);
        } else {
          io.stdout.write(forTerminal(`${String(t.idx + 1).padStart(5)}  ${rowStatus(t).padEnd(7)}  ${readableUrl(t.url)}${statusNote(t)}\n`));
        }
      }
      // Every kind of failure there is, with what to do about it, after the list it explains.
      if (!values.json) io.stderr.write(`${failureAdvice(rows, id, Infinity)}${retryAdvice(rows)}${restAdvice(j, rows)}`);
      return EXIT.ok;
    });
  },
};

/** "  12.3 kB (thin page)", "  [timeout] no answer in 20 s" or "  [blocked]" (its error says no more than its reason). */
function statusNote(t: TargetRow): string {
  if (t.status === 'done') return `  ${formatBytes(t.bytes)}${warningsNote(t)}`;
  if (!t.reason) return t.error ? `  ${t.error}` : '';
  const { error } = shownFailure(t, 'cli');
  return `  [${t.reason}]${error && error !== t.reason ? ` ${error}` : ''}`;
}

export const cancelCommand: Command = {
  name: 'cancel',
  summary: 'cancel a job',
  usage: `usage: sift cancel ID [--db PATH] [--log PATH]

${ID_NOTE}
${DB_NOTE}

Cancels a running job, also one that the app or another \`sift batch\` is running: the
target in flight is stored, the rest stay pending.
exit codes: 0 cancelled, 1 the job is not running,
or ${EXIT_BUG}, 2 no such job or no answer, 130 interrupted
`,
  async run(argv, io, signal) {
    const { values, positionals } = parse(argv, dbSpec);
    if (positionals.length !== 1) throw new UsageError('give one job ID (see sift jobs)');
    const id = positionals[0] as string;
    if (nothingStoredYet(values, io)) return noJobYet('cancel', id, io);
    const dbPath = cliDbPath(values, io);
    // Asked again when the Sift that had the database open goes away before it answers: the
    // database is then this command's to open (or another Sift's, to ask).
    for (;;) {
      let owned: Store | null = null;
      try {
        owned = openCliStore(values, io);
      } catch (err) {
        // Held by something that answers no requests (sqlite3, a backup tool: control-owner.ts):
        // said at once, as sift status does; asking waited 5 s, then blamed "the Sift".
        if (!(err instanceof SiftError && err.code === 'db_locked') || !answeringOwner(dbPath)) return reportError(err, io, 'cancel');
      }
      if (owned) {
        try {
          const named = namedJob(owned, id);
          if ('problem' in named) {
            io.stderr.write(`sift cancel: ${named.problem}\n`);
            return EXIT.usage;
          }
          const j = named.job;
          // Opening the database made this process its owner, so no other process runs the job:
          // a job that was live has just been marked failed (restart) and there is nothing to stop.
          // What next, as every message says: it said only "not running (cancelled)".
          const rest = j.targetsDone < j.targetsTotal ? ', and the same sift batch again with --rest fetches the ones that did not finish' : '';
          io.stderr.write(`sift cancel: job ${j.id} is not running (${j.status}${j.error ? `: ${j.error}` : ''}): nothing to cancel: sift status ${j.id} shows its targets${rest}\n`);
          return EXIT.someFailed;
        } finally {
          owned.close();
        }
      }
      // Another Sift owns the database and may be running the job: ask it. An owner opening or
      // copying a big database takes a while to look, and sift said nothing meanwhile.
      const stopWaiting = sayIfStillWaiting(io, () => `sift cancel: waiting for the Sift that has the database open to take the request to cancel job ${id}; one busy opening or copying a big database takes a while (Ctrl-C withdraws the request)`);
      const answer = await requestCancel(dbPath, id, { signal, ownerGone: () => !answeringOwner(dbPath) }).finally(stopWaiting);
      if (answer === 'owner_gone') continue;
      if (answer === 'withdrawn' || answer === 'taken') {
        // Ctrl-C before the answer: whether the job was asked to stop is what a user needs to know.
        io.stderr.write(
          answer === 'withdrawn'
            ? `sift cancel: interrupted before the Sift that has the database open took the request, which is withdrawn: job ${id} was not cancelled; the same sift cancel again asks once more\n`
            : `sift cancel: interrupted after the Sift that has the database open took the request, before its answer came: sift status ${id} shows whether job ${id} was cancelled\n`,
        );
        return EXIT.interrupted;
      }
      if (answer === 'cancelled') {
        io.stderr.write(`job ${id} cancelled\n`);
        return EXIT.ok;
      }
      if (answer === 'not_running') {
        // What next, as the owned case says: the job ended there, and status shows how.
        io.stderr.write(`sift cancel: job ${id} is not running in the Sift that has the database open: nothing to cancel: sift status ${id} shows its targets\n`);
        return EXIT.someFailed;
      }
      io.stderr.write(`sift cancel: the Sift that has ${dbPath} open did not take the request in 5 minutes; cancel the job there\n`);
      return EXIT.usage;
    }
  },
};

export const exportCommand: Command = {
  name: 'export',
  summary: 'export a job’s results to files',
  usage: `usage: sift export ID --out DIR [--format md|txt|json|folder|jsonl|csv|combined|zip]
                   [--include-failed] [--include-meta] [--db PATH] [--log PATH]

${ID_NOTE}
${DB_NOTE}

Writes the job's stored results, as sift batch --out does, without fetching anything;
\`sift batch --help\` says what each --format writes.
exit codes: 0 exported, 1 the disk was full (or failed) while writing, or
${EXIT_BUG}, 2 bad usage, no such job,
or a folder it may not write to, 130 interrupted (what it had written is removed)
`,
  async run(argv, io, signal) {
    const { values, positionals } = parse(argv, {
      ...dbSpec,
      out: { type: 'string' },
      format: { type: 'string' },
      'include-failed': { type: 'boolean' },
      'include-meta': { type: 'boolean' },
    });
    if (positionals.length !== 1) throw new UsageError('give one job ID (see sift jobs)');
    if (!values.out) throw new UsageError('--out DIR is required');
    checkOutGiven(values.out);
    const format = exportFormatFor(values.format, values.out && userPath(io, values.out));
    checkExportFormat(format, userPath(io, values.out));
    if (nothingStoredYet(values, io)) return noJobYet('export', positionals[0] as string, io);
    return withStore('export', values, io, signal, async (store) => {
      const named = namedJob(store, positionals[0] as string);
      if ('problem' in named) {
        io.stderr.write(`sift export: ${named.problem}\n`);
        return EXIT.usage;
      }
      const j = named.job;
      sayOnHardStop('nothing was written (its unfinished files are removed): the same sift export again writes it whole');
      try {
        await runExport(store, j, {
          format,
          out: userPath(io, values.out!),
          includeFailed: values['include-failed'] ?? false,
          includeMeta: values['include-meta'] ?? false,
          io,
          // Ctrl-C stops the export and removes what it wrote; without it the export ran to
          // its end, and a second Ctrl-C (which exits at once) left its hidden partial behind.
          signal,
        });
      } catch (err) {
        if (signal.aborted && err instanceof SiftError && err.code === 'cancelled') {
          io.stderr.write(`sift export: ${err.message}: the same sift export again writes it whole\n`);
          return EXIT.interrupted;
        }
        return reportWriteError(storeError(err, store.path), io, 'export');
      }
      return EXIT.ok;
    });
  },
};
