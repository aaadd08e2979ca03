import { describe, expect, test } from 'vitest';
import { storeStopNotice } from '../../src/renderer/src/lib/jobs';

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
