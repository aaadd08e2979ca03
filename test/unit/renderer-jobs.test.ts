import { describe, expect, test } from 'vitest';
import { stopBadge, storeStopNotice } from '../../src/renderer/src/lib/jobs';

describe("the job header's notice of a job the store stopped", () => {
  test('says why in plain words, that the results are kept, and what to do before running the rest again', () => {
    expect(storeStopNotice({ status: 'failed', error: 'disk full' }, 12, 388)).toBe(
      "This job stopped after 12 targets because the disk that holds Sift's database was full. Their results are kept. Free some space on that disk, then run the rest again to fetch the other 388.",
    );
    expect(storeStopNotice({ status: 'failed', error: 'database could not be written' }, 1, 0)).toBe(
      'This job stopped after 1 target because Sift could not write its database. Their results are kept. Make the database file and its folder writable.',
    );
  });

  test('no notice for any other job: a bug, a crash, a finished job', () => {
    expect(storeStopNotice({ status: 'failed', error: 'internal error' }, 1, 3)).toBeUndefined();
    expect(storeStopNotice({ status: 'failed', error: 'restart' }, 1, 3)).toBeUndefined();
    expect(storeStopNotice({ status: 'partial', error: 'disk full' }, 1, 3)).toBeUndefined();
    // An error that happens to name an Object property is not a store stop.
    expect(storeStopNotice({ status: 'failed', error: 'constructor' }, 1, 3)).toBeUndefined();
  });
});

describe("the job list's badge of a job that did not end by itself", () => {
  test('a job the store stopped says why in a few words, and what to do in its title', () => {
    expect(stopBadge({ status: 'failed', error: 'disk full' })).toEqual({
      kind: 'stopped',
      label: 'stopped: disk full',
      title: "Stopped because the disk that holds Sift's database was full. Its finished results are kept; free some space on that disk, then run the rest again.",
    });
    expect(stopBadge({ status: 'failed', error: 'database damaged' })?.label).toBe('stopped: database damaged');
    expect(stopBadge({ status: 'failed', error: 'database could not be written' })?.label).toBe('stopped: database not writable');
  });

  test('a job interrupted by a restart says so', () => {
    expect(stopBadge({ status: 'failed', error: 'restart' })).toMatchObject({ kind: 'interrupted', label: 'interrupted' });
  });

  test('any other job keeps its status word', () => {
    expect(stopBadge({ status: 'failed', error: 'internal error' })).toBeUndefined();
    expect(stopBadge({ status: 'partial', error: 'disk full' })).toBeUndefined();
    expect(stopBadge({ status: 'failed', error: 'constructor' })).toBeUndefined();
  });
});
