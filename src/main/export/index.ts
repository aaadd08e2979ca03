/**
 * Export: a job's results as files (SPEC §6–7, issue 7). The app's Export action, `sift
 * export` and `sift batch --out` all call exportJob.
 *
 * Where the output goes (`out`):
 * - folder: `out` is a parent folder (created if missing); the export is the folder
 *   `out/sift-<jobid>/` (`sift-<jobid> (2)/`, … when that exists already, or is taken by
 *   another export of the job while this one is written; an existing export is never
 *   touched). It holds one file per done target, manifest.jsonl and failed.txt.
 * - zip, jsonl, csv, combined-md: `out` is the file itself when it ends in the format's
 *   extension (.zip, .jsonl, .csv, .md) and is not an existing folder; otherwise it is a
 *   folder (created if missing) that receives `sift-<jobid>.<ext>` (`sift-<jobid> (2).<ext>`,
 *   … when that name is taken: an earlier export is never replaced). A file `out` names is
 *   replaced, atomically, when it exists.
 * Everything is first written under a hidden `.….partial-<pid>-<random>` name beside its
 * final place and renamed when complete, so an interrupted export never looks finished.
 *
 * Listings always hold every target with its status, error and hint: manifest.jsonl, the
 * JSONL and the CSV summary. includeFailed decides only whether failed and unfinished
 * targets get entries in the content formats: a file saying what went wrong in a folder or
 * zip, a section in the combined Markdown. failed.txt always lists them, one URL-list line
 * each, so that dropping it back into Sift runs exactly them.
 */
import path from 'node:path';
import { SiftError } from '../../shared/errors';
import type { Surface } from '../../shared/hints';
import { isCutShort, isTerminal, resultWarnings, type Job, type TargetStatus } from '../../shared/types';
import type { ExportTally } from '../../shared/export-words';
import type { Store } from '../store';
import { folderSink, zipSink } from './layout';
import { checkWritable, ensureDir, exists, isDirectory, removeMadeDirs, removeStalePartials, sealAs, sealBeside, toExportError, type Seal } from './output';
export { removeMadeDirs } from './output';
import { combinedMdWriter, csvWriter, FAILED_LIST, jsonlWriter, layoutWriter, MANIFEST, type Writer, type WriterOptions } from './writers';

export { safeFileName, fileNameKey, MAX_NAME_LENGTH } from './names';
export { MANIFEST, FAILED_LIST, CSV_COLUMNS, type ManifestLine } from './writers';

export type ExportFormat = 'folder' | 'jsonl' | 'csv' | 'combined-md' | 'zip';

export interface ExportSource {
  job: Job;
  /** How many targets targets() will yield (the progress total). */
  count(): number;
  /**
   * One at a time, in idx order; `result` is set for done targets. Asynchronous for an
   * export written while its job runs: each target is yielded when it is finished.
   */
  targets(): Iterable<TargetStatus> | AsyncIterable<TargetStatus>;
  /**
   * The job was still running when its targets were read: the ones it had not reached are
   * still to come, not left over. False for a source that yields each target once finished.
   */
  stillRunning?: boolean;
}

/** A stored job as the exporters read it: one target at a time, in idx order. */
export function exportSourceOf(store: Store, job: Job): ExportSource {
  return { job, count: () => job.targetsTotal, targets: () => store.iterateTargets(job.id), stillRunning: !isTerminal(job.status) };
}

export interface ExportOptions {
  format: ExportFormat;
  /** See the top of this file: a parent folder, or for single-file formats the file itself. */
  out: string;
  /**
   * Who writes the export, whose words its hints are in: the person who exports acts on them
   * with the tool they exported from, whichever surface ran the job (a file said "run sift
   * extract" to the app's user who exported it). Not given (a benchmark, a test): as stored.
   */
  surface?: Surface;
  /** Also give failed and unfinished targets entries in the content formats (files, zip, combined Markdown); default false. */
  includeFailed?: boolean;
  /** YAML front matter with the meta in .md files; a meta block in combined Markdown (default false). */
  includeMeta?: boolean;
  /**
   * Forces every target's file kind in folder/zip exports. Default: by the target's mode
   * (markdown → .md; text, raw, links → .txt; meta or a jq program → .json, text asked of
   * one → .txt; html → .html; markdown content that is a JSON document → .json). Forced
   * 'json' writes each target as one JSON object {url, title, content, meta?}.
   */
  fileKind?: 'md' | 'txt' | 'json';
  /** Called with (0, total) first, then at most every 100 ms, and always once at the end with done === total. */
  onProgress?(done: number, total: number): void;
  signal?: AbortSignal;
}

export interface ExportSummary extends ExportTally {
  /** The folder or file written. */
  path: string;
  /** Files written: for a folder, the files of the layout, listings included; otherwise 1 (a zip is one file). */
  files: number;
  /** Of a zip, the files it holds (the folder layout's); a zip of 6 targets read "8 files". */
  entries?: number;
  /** Targets read from the job. */
  targets: number;
  /** Of those, how many were not done (failed, pending or running). */
  failed: number;
  /** Of the not done, how many never ran (pending or running): a cancelled job's rest. */
  notRun: number;
  /**
   * Of the not done, how many were stopped mid-way (failed with a CUT_SHORT_ERRORS error: in
   * flight at a cancel, a close or a crash), which the job's counts (Job.targetsCutShort) and
   * "run the rest again" take as unfinished, not failed.
   */
  cutShort: number;
  /** Bytes of the output on disk (a folder: the sum of its files). */
  bytes: number;
  /** The job was still running: the notRun targets are still to come, and a later export will have them. */
  stillRunning?: boolean;
}

// Progress goes over IPC to the renderer and to stderr in the CLI; 10 updates a second is
// smooth for a bar and costs nothing next to writing 100 KB results.
const PROGRESS_EVERY_MS = 100;

const CLI_FORMATS: Record<string, Pick<ExportOptions, 'format' | 'fileKind'>> = {
  md: { format: 'folder', fileKind: 'md' },
  txt: { format: 'folder', fileKind: 'txt' },
  json: { format: 'folder', fileKind: 'json' },
  folder: { format: 'folder' },
  jsonl: { format: 'jsonl' },
  csv: { format: 'csv' },
  combined: { format: 'combined-md' },
  'combined-md': { format: 'combined-md' },
  zip: { format: 'zip' },
};

/**
 * `--format` of `sift export` / `sift batch --out` as ExportOptions: md, txt, json are a
 * folder of one file of that kind per target; folder lets each target's mode choose;
 * jsonl and csv are one file; combined is one Markdown file with a table of contents; zip
 * is the folder layout zipped.
 */
export function exportOptionsFromCli(format: string): Pick<ExportOptions, 'format' | 'fileKind'> {
  const hit = Object.hasOwn(CLI_FORMATS, format) ? CLI_FORMATS[format] : undefined;
  if (!hit) {
    throw new SiftError('bad_format', 400, `unknown export format ${JSON.stringify(format)}`, 'Use --format md, txt, json, folder, jsonl, csv, combined or zip.');
  }
  return { ...hit };
}

const EXT: Record<Exclude<ExportFormat, 'folder'>, string> = { zip: 'zip', jsonl: 'jsonl', csv: 'csv', 'combined-md': 'md' };

function baseName(job: Job): string {
  return `sift-${job.id.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 64) || 'job'}`;
}

/** Whether `out` names the export's file itself ("hits.csv"), not the folder it goes into. */
async function namesTheFile(out: string, format: ExportFormat): Promise<boolean> {
  return format !== 'folder' && out.toLowerCase().endsWith(`.${EXT[format]}`) && !(await isDirectory(out));
}

/**
 * Makes the folder an export to `out` writes into, or throws the SiftError that says why it
 * cannot: `sift batch --out` asks before it fetches anything, not once the job is done.
 * Says whether `out` names the export's file itself.
 */
export async function prepareDestination(out: string, format: ExportFormat): Promise<{ namesFile: boolean; made: string[] }> {
  const o = path.resolve(out);
  const namesFile = await namesTheFile(o, format);
  const dir = namesFile ? path.dirname(o) : o;
  const made = await ensureDir(dir);
  // A folder that is there but takes no files (read-only, another user's, a full disk) was
  // found only when the export wrote its first file: `sift batch --out` fetched every URL first.
  try {
    await checkWritable(dir);
  } catch (err) {
    await removeMadeDirs(made);
    throw err;
  }
  return { namesFile, made };
}

/**
 * The final path of the export (not yet written), after making sure its folder exists, and
 * how a single file is sealed there: a file the user named replaces one of that name; one
 * Sift names takes the next free name, as a folder does.
 */
async function resolveOut(job: Job, opts: ExportOptions): Promise<{ finalPath: string; seal: Seal; made: string[] }> {
  const out = path.resolve(opts.out);
  const base = baseName(job);
  const { namesFile, made } = await prepareDestination(out, opts.format);
  if (opts.format === 'folder') {
    for (let n = 1; ; n++) {
      const p = path.join(out, n === 1 ? base : `${base} (${n})`);
      if (!(await exists(p))) return { finalPath: p, seal: sealAs(p), made };
    }
  }
  if (namesFile) return { finalPath: out, seal: sealAs(out), made };
  const p = path.join(out, `${base}.${EXT[opts.format]}`);
  return { finalPath: p, seal: sealBeside(p), made };
}

async function openWriter(job: Job, finalPath: string, seal: Seal, opts: ExportOptions, stillRunning: boolean): Promise<Writer> {
  const o: WriterOptions = { includeFailed: opts.includeFailed ?? false, includeMeta: opts.includeMeta ?? false, fileKind: opts.fileKind, stillRunning, ...(opts.surface ? { surface: opts.surface } : {}) };
  switch (opts.format) {
    case 'folder':
      return layoutWriter(await folderSink(finalPath), o);
    case 'zip':
      return layoutWriter(await zipSink(finalPath, baseName(job), seal), o);
    case 'jsonl':
      return jsonlWriter(finalPath, seal, o);
    case 'csv':
      return csvWriter(finalPath, seal, o);
    case 'combined-md':
      return combinedMdWriter(finalPath, job.id, o, seal);
  }
}

function cancelled(): SiftError {
  return new SiftError('cancelled', 499, 'export cancelled; nothing was written', 'Start the export again when you want it.');
}

/** Writes the job's targets in the chosen format, one result in memory at a time. */
export async function exportJob(src: ExportSource, opts: ExportOptions): Promise<ExportSummary> {
  if (!Object.hasOwn(EXT, opts.format) && opts.format !== 'folder') {
    throw new SiftError('bad_format', 400, `unknown export format ${JSON.stringify(opts.format)}`, 'Use folder, jsonl, csv, combined-md or zip.');
  }
  if (opts.signal?.aborted) throw cancelled();
  const { finalPath, seal, made } = await resolveOut(src.job, opts);
  // Every partial of an export is written beside its final path (partialPath).
  await removeStalePartials(path.dirname(finalPath));
  const stillRunning = src.stillRunning ?? false;
  let writer: Writer;
  try {
    writer = await openWriter(src.job, finalPath, seal, opts, stillRunning);
  } catch (err) {
    await removeMadeDirs(made);
    throw toExportError(err, finalPath);
  }
  const total = src.count();
  let done = 0;
  let failed = 0;
  let notRun = 0;
  let cutShort = 0;
  let results = 0;
  let warned = 0;
  let lastProgress = Date.now();
  try {
    opts.onProgress?.(0, total);
    for await (const t of src.targets()) {
      if (opts.signal?.aborted) throw cancelled();
      if (t.status !== 'done') failed++;
      else {
        results++;
        if (resultWarnings(t.result).length) warned++;
      }
      if (t.status === 'pending' || t.status === 'running') notRun++;
      else if (isCutShort(t)) cutShort++;
      await writer.add(t);
      done++;
      const now = Date.now();
      if (now - lastProgress >= PROGRESS_EVERY_MS) {
        lastProgress = now;
        opts.onProgress?.(done, Math.max(total, done));
      }
    }
    if (opts.signal?.aborted) throw cancelled();
    // The bar reads full while the last step runs (a zip's listing and central directory, the
    // combined file's join: 0.34 and 0.66 s after the last of 100,000 targets here), and a
    // Cancel then still stops it: finish heeds the signal up to the rename that seals the output.
    opts.onProgress?.(done, Math.max(total, done));
    const { files, bytes, path: written = finalPath } = await writer.finish(opts.signal);
    // The last call says "finished" even if the source yielded fewer targets than count().
    opts.onProgress?.(done, done);
    const counts = opts.format === 'zip' ? { files: 1, entries: files } : { files };
    const layout = opts.format === 'folder' || opts.format === 'zip';
    // The listings always hold every target; only the content formats give one without a result an entry, and only when asked.
    const notDoneEntries = opts.includeFailed && (layout || opts.format === 'combined-md') ? failed : 0;
    // The writers leave these out of failed.txt (writers.ts): a job still running has them to come.
    const toCome = stillRunning ? notRun : 0;
    const tally: ExportTally = { format: opts.format, targets: done, failed, results, warned, notDoneEntries, toCome, sideFiles: layout ? [MANIFEST, FAILED_LIST] : [] };
    return { path: written, ...counts, ...tally, notRun, cutShort, bytes, stillRunning: stillRunning && notRun > 0 };
  } catch (err) {
    await writer.abort();
    await removeMadeDirs(made);
    throw opts.signal?.aborted ? cancelled() : toExportError(err, finalPath);
  }
}
