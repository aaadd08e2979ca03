import { formatBytes } from './format';
import { counted, filesWritten } from '../../../shared/count';

/** The counts of an export's summary the dialog reads (main's ExportSummary). */
export interface ExportCounts {
  files: number;
  /** Of a zip, the files it holds. */
  entries?: number;
  bytes: number;
  targets: number;
  /** Not done: failed, plus the ones never reached (notRun) and the ones cut short (cutShort). */
  failed: number;
  notRun: number;
  /** Stopped mid-way by a cancel or a crash: the job header counts them not fetched. */
  cutShort: number;
  /** The job was still running: the notRun targets are still to come. */
  stillRunning?: boolean;
}

/**
 * What an export wrote, in the job header's words. Main counts every target that is not
 * done in `failed`; a cancelled job's rest was never fetched, so it is said apart: a job of
 * 40 failed and 107 never reached read "147 failed" beside a header saying "Failed 40". The
 * target a cancel or a crash stopped mid-way is not fetched too, as the header says.
 */
export function exportSummaryText(s: ExportCounts): string {
  const notFetched = s.notRun + s.cutShort;
  const failed = s.failed - notFetched;
  const parts: string[] = [];
  if (failed > 0) parts.push(`${failed.toLocaleString()} failed`);
  if (notFetched > 0) parts.push(`${notFetched.toLocaleString()} not fetched${s.stillRunning ? ' yet: the job is still running, export again when it has finished' : ''}`);
  // In parentheses: the dialog adds " to <folder>", and "…, 1 failed to /tmp/out" read as a
  // write that failed.
  return `Wrote ${filesWritten(counted, s)} (${formatBytes(s.bytes)}) for ${counted(s.targets, 'target')}${parts.length ? ` (${parts.join(', ')})` : ''}`;
}

/** The "include failed" choice, with what it takes in: a cancelled job's unfetched rest too. */
export function includeFailedLabel(failed: number, notFetched: number): string {
  const parts: string[] = [];
  if (failed > 0) parts.push(`${failed.toLocaleString()} failed`);
  if (notFetched > 0) parts.push(`${notFetched.toLocaleString()} not fetched`);
  return `Include failed and unfetched targets${parts.length ? ` (${parts.join(', ')})` : ''} as files or sections`;
}
