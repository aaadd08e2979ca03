import { describe, expect, test } from 'vitest';
import { exportSummaryText, includeFailedLabel } from '../../src/renderer/src/lib/exports';

describe('the export dialog counts as the job header does', () => {
  const folder = { format: 'folder', path: '/out/sift-1', notDoneEntries: 0, toCome: 0, warned: 0, sideFiles: ['manifest.jsonl', 'failed.txt'] } as const;
  test("a cancelled job's never-fetched targets are said apart from the failed ones", () => {
    expect(exportSummaryText({ ...folder, results: 153, bytes: 6_400_000, targets: 300, failed: 147, notRun: 107, cutShort: 0 })).toMatch(
      /^Exported 300 targets \(40 failed, 107 not fetched\) to \/out\/sift-1 \(6\.1 MB\): 153 result files, with manifest.jsonl and failed.txt; the 147 without a result /,
    );
  });
  test("a job still running says its unfetched targets are still to come", () => {
    expect(exportSummaryText({ ...folder, results: 3, bytes: 2048, targets: 5, failed: 2, notRun: 2, cutShort: 0, stillRunning: true, toCome: 2 })).toBe(
      'Exported 5 targets (2 not fetched yet: the job is still running, export again when it has finished) to /out/sift-1 (2.0 kB): 3 result files, with manifest.jsonl and failed.txt; the 2 without a result have no file: manifest.jsonl says why.',
    );
    // failed.txt leaves out the targets still to come: it lists only the one that failed.
    expect(exportSummaryText({ ...folder, results: 2, bytes: 2048, targets: 5, failed: 3, notRun: 2, cutShort: 0, stillRunning: true, toCome: 2 })).toMatch(
      /: 2 result files, with manifest.jsonl and failed.txt; the 3 without a result have no file: manifest.jsonl says why, failed.txt lists the 1 that failed to run again\.$/,
    );
    expect(exportSummaryText({ ...folder, results: 0, bytes: 20, targets: 2, failed: 2, notRun: 2, cutShort: 0, stillRunning: true, toCome: 2 })).toMatch(
      /: no results: none of the 2 targets has one; only manifest.jsonl, which says why, and an empty failed.txt\. Tick /,
    );
  });
  test('a finished job says its failures; an all-ok one says none', () => {
    expect(exportSummaryText({ ...folder, format: 'jsonl', sideFiles: [], results: 3, bytes: 2048, targets: 5, failed: 2, notRun: 0, cutShort: 0 })).toBe(
      'Exported 5 targets (2 failed) to /out/sift-1 (2.0 kB): 1 file, a line for each of the 5 targets: 3 results, and the 2 without one with why.',
    );
    expect(exportSummaryText({ ...folder, results: 5, bytes: 100, targets: 5, failed: 0, notRun: 0, cutShort: 0 })).toBe('Exported 5 targets to /out/sift-1 (100 B): 5 result files, with manifest.jsonl and failed.txt.');
    // The target a cancel stopped mid-way: main counts it apart (cutShort), the header as not fetched.
    expect(exportSummaryText({ ...folder, results: 1, bytes: 2048, targets: 5, failed: 4, notRun: 3, cutShort: 1 })).toMatch(/^Exported 5 targets \(4 not fetched\) to /);
  });
  test('a zip is one file written, said with the results it holds apart from its listings', () => {
    expect(exportSummaryText({ ...folder, format: 'zip', results: 6, bytes: 4096, targets: 6, failed: 0, notRun: 0, cutShort: 0 })).toBe(
      'Exported 6 targets to /out/sift-1 (4.0 kB): a zip of 6 result files, with manifest.jsonl and failed.txt.',
    );
  });
  test('"include failed" names what it takes in', () => {
    expect(includeFailedLabel(40, 107)).toBe('Include failed and unfetched targets (40 failed, 107 not fetched) as files or sections');
    expect(includeFailedLabel(2, 0)).toBe('Include failed and unfetched targets (2 failed) as files or sections');
    expect(includeFailedLabel(0, 0)).toBe('Include failed and unfetched targets as files or sections');
  });
});
