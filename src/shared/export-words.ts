/**
 * What an export holds, in the words the CLI's "exported …" line and the app's export pane
 * both use, so the two say the same of the same export. Each gives its own number writer
 * (the CLI's is pinned to en-US, the app's is the reader's locale).
 */
import { countWith } from './count';

/** The counts of an export these words read (main's ExportSummary carries them). */
export interface ExportTally {
  format: 'folder' | 'zip' | 'jsonl' | 'csv' | 'combined-md';
  targets: number;
  /** Not done: failed, stopped mid-way or never reached. */
  failed: number;
  /** Done targets, each a file, a section or a line with its content. */
  results: number;
  /** Of the results, those with a warning (thin, teaser, no match…). */
  warned: number;
  /** Files or sections written for targets without a result (the failed included). */
  notDoneEntries: number;
  /** Of the not done, those a job still running had not reached: still to come, so failed.txt leaves them out. */
  toCome: number;
  /** Files beside the results that list the targets (manifest.jsonl, failed.txt). */
  sideFiles: readonly string[];
}

const both = (names: readonly string[]): string => (names.length < 2 ? (names[0] ?? '') : `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`);

/**
 * "2 result files (1 with warnings), with manifest.jsonl and failed.txt; the 4 without a
 * result have no file: …". A folder of one page read "3 files": the listings beside it were
 * counted as results, and nothing said that the failed ones were left out, or where to find them.
 */
export function exportContents(s: ExportTally, num: (n: number) => string): string {
  const count = countWith(num);
  const warned = s.warned ? ` (${num(s.warned)} with warnings)` : '';
  const without = s.failed === 1 ? 'the 1 without a result' : `the ${num(s.failed)} without a result`;
  const leftOut = s.failed > 0 && s.notDoneEntries === 0;
  // failed.txt lists what to run again; of a job still running, the targets it had not reached
  // are not in it (they are still to come), and a snapshot of 3 such said it listed them while
  // it was empty.
  const rerun = s.failed - s.toCome;
  const listed = rerun === s.failed ? (s.failed === 1 ? 'it' : 'them') : rerun === 1 ? 'the 1 that failed' : `the ${num(rerun)} that failed`;
  // Said first when there is nothing else: a folder holding only its two listings read "2 files".
  const none = s.results === 0 && s.targets > 0 ? `no results: ${s.targets === 1 ? 'the 1 target has none' : `none of the ${num(s.targets)} targets has one`}; ` : '';
  const each = (unit: string): string => (s.targets === 1 ? `a ${unit} for its 1 target` : `a ${unit} for each of the ${num(s.targets)} targets`);
  switch (s.format) {
    case 'jsonl':
    case 'csv':
      return `${none}1 file, ${each(s.format === 'csv' ? 'row' : 'line')}: ${count(s.results, 'result')}${warned}${s.failed ? `, and ${s.failed === 1 ? 'the 1 without one' : `the ${num(s.failed)} without one`} with why` : ''}`;
    case 'combined-md': {
      if (none && leftOut) return `${none}1 file that counts ${s.failed === 1 ? 'it' : 'them'}`;
      const sections = s.notDoneEntries ? ` and ${count(s.notDoneEntries, 'section')} saying why a target has none` : '';
      return `${none}1 file of ${count(s.results, 'result')}${warned}${sections}${leftOut ? `; ${without} ${s.failed === 1 ? 'is' : 'are'} not in it, its first lines count them` : ''}`;
    }
    case 'folder':
    case 'zip': {
      const zip = s.format === 'zip' ? 'a zip of ' : '';
      if (none && leftOut && s.sideFiles.length === 2) {
        return `${none}${zip}only ${s.sideFiles[0]}, which says why, and ${rerun ? `${s.sideFiles[1]}, which lists ${listed} to run again` : `an empty ${s.sideFiles[1]}`}`;
      }
      const extra = s.notDoneEntries ? `, ${count(s.notDoneEntries, 'file')} saying why a target has no result` : '';
      const sides = s.sideFiles.length ? `, with ${both(s.sideFiles)}` : '';
      const told = leftOut ? `; ${without} ${s.failed === 1 ? 'has' : 'have'} no file: manifest.jsonl says why${rerun ? `, failed.txt lists ${listed} to run again` : ''}` : '';
      return `${none}${zip}${count(s.results, 'result file')}${warned}${extra}${sides}${told}`;
    }
  }
}

/** Whether the export has no result, and the targets' own files or sections were not asked for: the next step says how to have them. */
export const noResultsLeftOut = (s: ExportTally): boolean => s.results === 0 && s.failed > 0 && s.notDoneEntries === 0 && s.format !== 'jsonl' && s.format !== 'csv';
