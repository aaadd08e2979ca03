import { formatBytes } from '../../../shared/bytes';
import { counted } from '../../../shared/count';
import { exportContents, noResultsLeftOut, type ExportTally } from '../../../shared/export-words';

/** The counts of an export's summary the dialog reads (main's ExportSummary). */
export interface ExportCounts extends ExportTally {
  path: string;
  bytes: number;
  /** Not done: failed, plus the ones never reached (notRun) and the ones cut short (cutShort). */
  failed: number;
  notRun: number;
  /** Stopped mid-way by a cancel or a crash: the job header counts them not fetched. */
  cutShort: number;
  /** The job was still running: the notRun targets are still to come. */
  stillRunning?: boolean;
}

/**
 * What an export wrote, in the job header's words, as three parts around the path the dialog
 * shows as a link: "Exported 6 targets (2 failed, 2 not fetched)", " to ", path, then what
 * it holds. Main counts every target that is not done in `failed`; a cancelled job's rest was
 * never fetched, so it is said apart: a job of 40 failed and 107 never reached read "147
 * failed" beside a header saying "Failed 40". The target a cancel or a crash stopped mid-way
 * is not fetched too, as the header says. What it holds is the CLI's words (export-words.ts):
 * "Wrote 3 files" of a one-page folder counted its two listings as results.
 */
export function exportSummaryParts(s: ExportCounts): { head: string; tail: string } {
  const notFetched = s.notRun + s.cutShort;
  const failed = s.failed - notFetched;
  const parts: string[] = [];
  if (failed > 0) parts.push(`${failed.toLocaleString()} failed`);
  if (notFetched > 0) parts.push(`${notFetched.toLocaleString()} not fetched${s.stillRunning ? ' yet: the job is still running, export again when it has finished' : ''}`);
  const next = noResultsLeftOut(s) ? ' Tick “Include failed and unfetched targets” to have a file or section for each saying why.' : '';
  return {
    head: `Exported ${counted(s.targets, 'target')}${parts.length ? ` (${parts.join(', ')})` : ''}`,
    tail: ` (${formatBytes(s.bytes)}): ${exportContents(s, (n) => n.toLocaleString())}.${next}`,
  };
}

/** exportSummaryParts as one sentence, the path in its place. */
export function exportSummaryText(s: ExportCounts): string {
  const { head, tail } = exportSummaryParts(s);
  return `${head} to ${s.path}${tail}`;
}

/** The "include failed" choice, with what it takes in: a cancelled job's unfetched rest too. */
export function includeFailedLabel(failed: number, notFetched: number): string {
  const parts: string[] = [];
  if (failed > 0) parts.push(`${failed.toLocaleString()} failed`);
  if (notFetched > 0) parts.push(`${notFetched.toLocaleString()} not fetched`);
  return `Include failed and unfetched targets${parts.length ? ` (${parts.join(', ')})` : ''} as files or sections`;
}
