import { describe, expect, test } from 'vitest';
import { exportSummaryText, includeFailedLabel } from '../../src/renderer/src/lib/exports';

describe('the export dialog counts as the job header does', () => {
  test("a cancelled job's never-fetched targets are said apart from the failed ones", () => {
    expect(exportSummaryText({ files: 155, bytes: 6_400_000, targets: 300, failed: 147, notRun: 107, cutShort: 0 })).toBe(
      'Wrote 155 files (6.1 MB) for 300 targets (40 failed, 107 not fetched)',
    );
  });
  test("a job still running says its unfetched targets are still to come", () => {
    expect(exportSummaryText({ files: 3, bytes: 2048, targets: 5, failed: 2, notRun: 2, cutShort: 0, stillRunning: true })).toBe(
      'Wrote 3 files (2.0 KB) for 5 targets (2 not fetched yet: the job is still running, export again when it has finished)',
    );
  });
  test('a finished job says its failures; an all-ok one says none', () => {
    expect(exportSummaryText({ files: 1, bytes: 2048, targets: 5, failed: 2, notRun: 0, cutShort: 0 })).toBe('Wrote 1 file (2.0 KB) for 5 targets (2 failed)');
    expect(exportSummaryText({ files: 5, bytes: 100, targets: 5, failed: 0, notRun: 0, cutShort: 0 })).toBe('Wrote 5 files (100 B) for 5 targets');
    // The target a cancel stopped mid-way: main counts it apart (cutShort), the header as not fetched.
    expect(exportSummaryText({ files: 1, bytes: 2048, targets: 5, failed: 4, notRun: 3, cutShort: 1 })).toBe('Wrote 1 file (2.0 KB) for 5 targets (4 not fetched)');
  });
  test('a zip is one file written, said with the files it holds', () => {
    expect(exportSummaryText({ files: 1, entries: 8, bytes: 4096, targets: 6, failed: 0, notRun: 0, cutShort: 0 })).toBe('Wrote a zip of 8 files (4.0 KB) for 6 targets');
  });
  test('"include failed" names what it takes in', () => {
    expect(includeFailedLabel(40, 107)).toBe('Include failed and unfetched targets (40 failed, 107 not fetched) as files or sections');
    expect(includeFailedLabel(2, 0)).toBe('Include failed and unfetched targets (2 failed) as files or sections');
    expect(includeFailedLabel(0, 0)).toBe('Include failed and unfetched targets as files or sections');
  });
});
