import { statSync } from 'node:fs';
import path from 'node:path';
import type { Store } from '../main/store';
import { isCutShort, type Job, type TargetRow } from '../shared/types';
import { exportJob, exportOptionsFromCli, exportSourceOf, prepareDestination, type ExportFormat, type ExportSource, type ExportSummary } from '../main/export';
import { SiftError } from '../shared/errors';
import { UsageError } from './io';
import type { CliIO } from './io';
import { counted, formatCount } from './progress';
import { formatBytes } from '../shared/bytes';
import { jsonLine } from '../shared/json';
import { exportContents, noResultsLeftOut } from '../shared/export-words';
import { hintOn, REST_AGAIN } from '../shared/hints';

/** The --out folder made (or found unusable) before a batch fetches anything; the folders it made, for removeMadeDirs. */
export async function checkExportDestination(out: string, format: string): Promise<string[]> {
  return (await prepareDestination(out, exportOptionsFromCli(format).format)).made;
}

/**
 * The export a file name says, for an --out without --format: `--out results.zip` wants a zip,
 * and `--out notes.md` one Markdown file of every result, not a folder of that name.
 */
const FORMAT_OF_FILE: Record<string, string> = { '.zip': 'zip', '.jsonl': 'jsonl', '.csv': 'csv', '.md': 'combined' };

/**
 * The --format in force: the one given; else the one --out's file name says (`.zip`, `.jsonl`,
 * `.csv`, `.md`, unless a folder of that name is there already); else md, a file per target.
 */
export function exportFormatFor(format: string | undefined, out: string | undefined): string {
  if (format !== undefined) return format;
  const byName = out ? FORMAT_OF_FILE[path.extname(out).toLowerCase()] : undefined;
  return byName && !isFolder(out!) ? byName : 'md';
}

/** Whether a folder is at `p`; false for a path that cannot be looked at (a file in its way), which the export's own check names. */
function isFolder(p: string): boolean {
  try {
    return statSync(p, { throwIfNoEntry: false })?.isDirectory() ?? false;
  } catch {
    return false;
  }
}

/**
 * An --out of "-" refused: Sift reads "-" as stdin, and many tools write to stdout for it, but
 * an export is files; it made a folder named "-" in the working folder and said so only in
 * its last line.
 */
export function checkOutGiven(out: string): void {
  if (out === '-') {
    throw new UsageError('--out - : an export is written to files, not to stdout. Give a folder, or a .jsonl, .csv, .md or .zip file; sift batch LIST --json prints the results on stdout');
  }
}

/** The file kinds a folder export writes one of per target, which no format writes as one file. */
const PER_TARGET_EXTS = new Set(['.json', '.txt', '.html', '.htm']);

/**
 * --format checked before any work starts, with the --out it writes to: a bad one is a usage
 * error (exit 2). So is an --out named like a file that the format would make a folder of:
 * `--out results.json` made a folder "results.json" of Markdown files, and `--out hits.zip
 * --format csv` a folder "hits.zip" holding a CSV. An --out that is a folder already is one.
 */
export function checkExportFormat(format: string, out?: string): void {
  let chosen: ExportFormat;
  try {
    chosen = exportOptionsFromCli(format).format;
  } catch (err) {
    throw new UsageError(err instanceof SiftError ? `${err.message}. ${err.hint}`.trim() : String(err));
  }
  if (out === undefined || isFolder(out)) return;
  const ext = path.extname(out).toLowerCase();
  const name = path.basename(out);
  const named = FORMAT_OF_FILE[ext];
  if (named !== undefined && exportOptionsFromCli(named).format !== chosen) {
    const writes = chosen === 'folder' ? 'a folder of files, one per target' : `one ${EXT_OF[chosen]} file`;
    throw new UsageError(`--out ${name} names one ${ext} file, but --format ${format} writes ${writes}: use --format ${named} for ${name}, or give --out a folder`);
  }
  if (PER_TARGET_EXTS.has(ext)) {
    throw new UsageError(
      `--out ${name} names one ${ext} file, and no export writes one: --format json, txt or md writes a file per target into the folder --out names. Give --out a folder, or a .md, .jsonl, .csv or .zip file to get every target in one file`,
    );
  }
}

const EXT_OF: Record<Exclude<ExportFormat, 'folder'>, string> = { zip: '.zip', jsonl: '.jsonl', csv: '.csv', 'combined-md': '.md' };

/**
 * A row's status word in sift status and sift batch's list: a target cut short (a cancel, a
 * close, a crash) is stored failed, and its row read "failed" under a line counting
 * "0 failed, 1 stopped mid-way".
 */
export const rowStatus = (t: Pick<TargetRow, 'status' | 'error'>): string => (isCutShort(t) ? 'stopped' : t.status);

/**
 * SPEC §6 --json: one object per target in list order,
 * {"url","ok":true,"content","meta"[,"warnings"]} or {"url","ok":false,"status","error","hint","reason"}.
 * Results are read from the store one at a time, so a long job does not sit in memory.
 */
export function printTargetsJson(store: Store, jobId: string, io: CliIO): void {
  // A target the job never reached: the user cancelled it, or Sift stopped.
  const notRun = store.getJob(jobId)?.status === 'cancelled' ? 'cancelled' : 'restart';
  for (const t of store.iterateTargets(jobId)) {
    if (t.status === 'done' && t.result) {
      const meta = t.result.meta ?? {};
      const warnings = Array.isArray(meta.warnings) && meta.warnings.length ? { warnings: meta.warnings } : {};
      io.stdout.write(`${jsonLine({ url: t.url, ok: true, content: t.result.content, meta, ...warnings })}\n`);
    } else if (t.status === 'failed') {
      io.stdout.write(`${jsonLine({ url: t.url, ok: false, status: t.errorStatus || 500, error: t.error, hint: hintOn('cli', t.hint), reason: t.reason || 'internal' })}\n`);
    } else {
      io.stdout.write(
        `${jsonLine({ url: t.url, ok: false, status: 0, error: 'not run', hint: `The job ended before this target ran; run ${REST_AGAIN.cli}.`, reason: notRun })}\n`,
      );
    }
  }
}

export async function runExport(
  store: Store,
  job: Job,
  o: { format: string; out: string; includeFailed: boolean; includeMeta: boolean; io: CliIO; signal?: AbortSignal },
  /** The job's targets as they finish, for an export written while the job runs (see liveExportSource). */
  live?: ExportSource,
): Promise<void> {
  let last = 0;
  const summary = await exportJob(
    live ?? exportSourceOf(store, job),
    {
      ...exportOptionsFromCli(o.format),
      out: o.out,
      surface: 'cli',
      includeFailed: o.includeFailed,
      includeMeta: o.includeMeta,
      signal: o.signal,
      onProgress: (done, total) => {
        const now = Date.now();
        // While the job runs, its progress line owns stderr.
        if (o.io.isTTY && !live && (now - last > 100 || done === total)) {
          last = now;
          o.io.stderr.write(`\r\x1b[2Kexporting ${formatCount(done)}/${formatCount(total)}`);
        }
      },
    },
  );
  if (o.io.isTTY && !live) o.io.stderr.write('\r\x1b[2K');
  o.io.stderr.write(exportedLine(summary, job.id));
}

/** What an export says when it is written: counts as the progress line gives them (3,000). */
export function exportedLine(summary: ExportSummary, jobId: string): string {
  // A cancelled job's targets that never ran are not failures of the site or of Sift.
  // Of a job still running they are still to come: the export is a snapshot, said so.
  const notRun = summary.notRun ? `, ${formatCount(summary.notRun)} ${summary.stillRunning ? 'not fetched yet' : 'not run'}` : '';
  // Nor is the target a crash, a restart or a cancel stopped in flight: counted failed here, it
  // read "2 failed" beside sift status's "1 failed, 1 stopped mid-way" for the same job.
  const cut = summary.cutShort ? `, ${formatCount(summary.cutShort)} stopped mid-way` : '';
  const later = summary.stillRunning ? '  the job is still running: export again when it has finished to have every target\n' : '';
  const failed = summary.failed - summary.notRun - summary.cutShort;
  // Nothing to read in it: what to do next, or a folder of two listings was the whole answer.
  const next = summary.results === 0 && summary.failed > 0 ? `  sift status ${jobId} shows what became of each target${noResultsLeftOut(summary) ? '; --include-failed writes what each says' : ''}\n` : '';
  return `exported ${counted(summary.targets, 'target')} (${formatCount(failed)} failed${cut}${notRun}) to ${summary.path} (${formatBytes(summary.bytes)}): ${exportContents(summary, formatCount)}\n${later}${next}`;
}
