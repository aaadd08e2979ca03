import { describe, expect, test } from 'vitest';
import { EXPIRY_WARNING_MS, expiresAt, expiryNotice, expiryWarning, jobNamesMatching, namesAskedApart, progressAnnouncement, restartNotice, shownLabel, stopBadge, storeStopNotice, targetStop } from '../../src/renderer/src/lib/jobs';
import { rowFailure, type Job } from '../../src/shared/types';

describe("the job header's notice of a job the store stopped", () => {
  test('says why in plain words, that the results are kept, and what to do before running the rest again', () => {
    expect(storeStopNotice({ status: 'failed', error: 'disk full' }, 12, 388)).toBe(
      "This job stopped after 12 targets because the disk that holds Sift's database was full. Their results are kept. Free some space on that disk, then run the rest again to fetch the other 388.",
    );
    expect(storeStopNotice({ status: 'failed', error: 'database could not be written' }, 1, 0)).toBe(
      'This job stopped after 1 target because Sift could not write its database. Its result is kept. Make the database file and its folder writable.',
    );
    // Stopped before any target finished: "after 0 targets. Their results are kept." said of none.
    expect(storeStopNotice({ status: 'failed', error: 'disk full' }, 0, 5)).toBe(
      "This job stopped before any target finished, because the disk that holds Sift's database was full. Free some space on that disk, then run the rest again to fetch all 5.",
    );
  });

  test("says of a job Sift was closed under how far it got, in words that fit none, one or many", () => {
    expect(restartNotice(0, 1)).toBe('Sift was closed while this job ran, before any target finished. Run the rest again to fetch it.');
    expect(restartNotice(0, 1200)).toBe('Sift was closed while this job ran, before any target finished. Run the rest again to fetch all 1,200.');
    expect(restartNotice(1, 3)).toBe('Sift was closed while this job ran, so it stopped after 1 target. Its result is kept. Run the rest again to fetch the other 3.');
    expect(restartNotice(2, 2)).toBe('Sift was closed while this job ran, so it stopped after 2 targets. Their results are kept. Run the rest again to fetch the other 2.');
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

describe("the job's live region for a screen reader", () => {
  const job = (status: 'queued' | 'running' | 'done' | 'partial' | 'failed' | 'cancelled', done: number, failed = 0, error = '') => ({ status, error, targetsDone: done, targetsFailed: failed, targetsTotal: 1000 });

  test('a running job of 1,000 URLs is heard five times, not once per URL', () => {
    const said = new Set<string>();
    for (let done = 0; done < 1000; done++) said.add(progressAnnouncement(job('running', done)));
    said.add(progressAnnouncement(job('done', 1000)));
    expect([...said]).toEqual(['Fetching 1,000 URLs.', '25% fetched.', '50% fetched.', '75% fetched.', 'Done: 1,000 OK, 0 failed.']);
  });

  test('an ended job says how it ended and what it left', () => {
    expect(progressAnnouncement(job('partial', 1000, 3))).toBe('Done, some failed: 997 OK, 3 failed.');
    expect(progressAnnouncement(job('cancelled', 400, 1))).toBe('Cancelled: 399 OK, 1 failed, 600 not fetched.');
    expect(progressAnnouncement(job('failed', 10, 0, 'restart'))).toBe('Interrupted: 10 OK, 0 failed, 990 not fetched.');
  });

  test('the target a cancel or a crash cut short is said as not fetched, not as failed', () => {
    expect(progressAnnouncement({ ...job('failed', 168, 1, 'restart'), targetsCutShort: 1 })).toBe('Interrupted: 167 OK, 0 failed, 833 not fetched.');
    expect(progressAnnouncement({ ...job('cancelled', 400, 3), targetsCutShort: 1 })).toBe('Cancelled: 397 OK, 2 failed, 601 not fetched.');
  });
});

describe("a failed row's words", () => {
  test('a target cut short reads as the sentence its hint holds, not the code word stored as its error', () => {
    const restart = { status: 'failed' as const, error: 'restart', hint: 'Sift stopped while this target was being fetched; run the rest again to fetch it.', reason: 'restart' as const };
    expect(rowFailure(restart)).toEqual({ error: restart.hint, hint: '' });
    const cancelled = { status: 'failed' as const, error: 'cancelled', hint: 'The job was cancelled while this target was being fetched; run the rest again to fetch it.', reason: 'cancelled' as const };
    expect(rowFailure(cancelled)).toEqual({ error: cancelled.hint, hint: '' });
    // Any other failure reads as shownFailure has it.
    expect(rowFailure({ status: 'failed', error: 'HTTP 404 Not Found', hint: 'The page is gone.', reason: 'upstream' })).toEqual({ error: 'HTTP 404 Not Found', hint: 'The page is gone.' });
  });
});

describe("a target's badge, in its row and in its result pane", () => {
  test('a target cut short by a cancel, a crash or a close reads "stopped", not "failed"', () => {
    for (const error of ['cancelled', 'restart', 'interrupted']) expect(targetStop({ status: 'failed', error }, true)?.label).toBe('stopped');
  });

  test('a target an ended job left pending reads "not fetched"; in a running job it is still to come', () => {
    expect(targetStop({ status: 'pending', error: '' }, true)?.label).toBe('not fetched');
    expect(targetStop({ status: 'pending', error: '' }, false)).toBeUndefined();
  });

  test('a target that failed for a reason of its own, or is done, keeps its status word', () => {
    expect(targetStop({ status: 'failed', error: 'HTTP 404' }, true)).toBeUndefined();
    expect(targetStop({ status: 'done', error: '' }, true)).toBeUndefined();
    expect(targetStop({ status: 'running', error: '' }, false)).toBeUndefined();
  });
});

describe('when the expiry sweep deletes a job', () => {
  // Noon where the test runs: two hours on is the same day, a day on the next, in any time zone.
  const now = new Date(2026, 2, 3, 12, 0).getTime();
  const hour = 3600_000;

  test('a finished job expires when its lease lapses; a running one has no such time yet', () => {
    expect(expiresAt({ status: 'done', leaseExpires: now + hour })).toBe(now + hour);
    expect(expiresAt({ status: 'cancelled', leaseExpires: now + hour })).toBe(now + hour);
    expect(expiresAt({ status: 'running', leaseExpires: now + hour })).toBeNull();
    expect(expiresAt({ status: 'queued', leaseExpires: now + hour })).toBeNull();
  });

  test('the job view says until when, and that opening the job keeps it', () => {
    expect(expiryNotice(now + 2 * hour, now, 'en-GB')).toMatch(/^Kept until \d\d:\d\d, then deleted; opening it again keeps it longer\.$/);
    expect(expiryNotice(now + 7 * 24 * hour, now, 'en-GB')).toMatch(/^Kept until 10 Mar \d\d:\d\d, then/);
    expect(expiryNotice(now, now, 'en-GB')).toBe('Its time is up: Sift deletes this job and its results within a minute.');
  });

  test('the job list warns only within a day of it', () => {
    expect(expiryWarning(now + EXPIRY_WARNING_MS + 1, now, 'en-GB')).toBeUndefined();
    expect(expiryWarning(null, now, 'en-GB')).toBeUndefined();
    expect(expiryWarning(now + EXPIRY_WARNING_MS, now, 'en-GB')).toMatch(/^expires 4 Mar \d\d:\d\d$/);
    expect(expiryWarning(now + hour, now, 'en-GB')).toMatch(/^expires \d\d:\d\d$/);
    expect(expiryWarning(now - 1, now, 'en-GB')).toBe('expires now');
  });
});

describe('jobs found by name in "Search all jobs"', () => {
  const job = (id: string, label: string | undefined, targetsTotal = 1) => ({ id, label, targetsTotal }) as unknown as Job;
  const jobs = [job('a', 'Reports-March.csv'), job('b', 'reports-april.csv', 12), job('c', undefined), job('d', 'news.example')];

  test('every word, in any case, in the label; in the jobs\' order', () => {
    expect(jobNamesMatching(jobs, 'reports')).toEqual(['a', 'b']);
    expect(jobNamesMatching(jobs, 'REPORTS march')).toEqual(['a']);
    expect(jobNamesMatching(jobs, '  ')).toEqual([]);
  });

  test('the count a name ends with matches nothing, nor does a job without a label', () => {
    expect(jobNamesMatching(jobs, 'URL')).toEqual([]);
    expect(jobNamesMatching(jobs, '12')).toEqual([]);
  });
});

describe('names two jobs share while asking different things', () => {
  test('lists a name two labels share before " · ", not one two jobs share whole or one job alone', () => {
    const jobs = { a: { label: 'links.txt' }, b: { label: 'links.txt · grep “x”' }, c: { label: 'a.org' }, d: { label: 'a.org' }, e: { label: 'b.org · text' }, f: {} };
    expect([...namesAskedApart(jobs)]).toEqual([['links.txt', ['links.txt', 'links.txt · grep “x”']]]);
    // Read once per jobs object: the same map again, a new one for new jobs.
    expect(namesAskedApart(jobs)).toBe(namesAskedApart(jobs));
    expect([...namesAskedApart({ ...jobs, g: { label: 'b.org' } }).keys()]).toEqual(['links.txt', 'b.org']);
  });
});

describe('the name the job list and the header show', () => {
  const jobs = (...labels: string[]) => Object.fromEntries(labels.map((label, i) => [String(i), { label }]));
  // The 800 px list had room for "127.0.0.1" only; the header beside it read "127.0.0.1:40965 · 2 URLs".
  test('leaves out the port of a lone host:port that no other job has at another port', () => {
    expect(shownLabel('127.0.0.1:40965', jobs('127.0.0.1:40965', 'links.txt'))).toBe('127.0.0.1');
    expect(shownLabel('rest of 127.0.0.1:40965 · text', jobs('rest of 127.0.0.1:40965 · text', '127.0.0.1:40965'))).toBe('rest of 127.0.0.1 · text');
    expect(shownLabel('[::1]:8080 · grep “a”', jobs('[::1]:8080 · grep “a”'))).toBe('[::1] · grep “a”');
  });
  test('keeps the port where it tells two jobs apart, and any other name as it is', () => {
    expect(shownLabel('127.0.0.1:40965', jobs('127.0.0.1:40965', 'again: 127.0.0.1:40966 · text'))).toBe('127.0.0.1:40965');
    expect(shownLabel('127.0.0.1:40965/docs', jobs('127.0.0.1:40965/docs'))).toBe('127.0.0.1:40965/docs');
    expect(shownLabel('quarterly-report-2026.csv', jobs('quarterly-report-2026.csv'))).toBe('quarterly-report-2026.csv');
  });
  // A job of two sites: the 800 px header read "127.0.0.1:43645 +1" beside the list's "127.0… +1".
  test('leaves out the ports of the hosts a job of several hosts is named by, where none tells jobs apart', () => {
    const two = '127.0.0.1:43645, 127.0.0.2:37857 · text';
    expect(shownLabel(two, jobs(two, '127.0.0.1:43645'))).toBe('127.0.0.1, 127.0.0.2 · text');
    const many = 'rest of a.example:8080, [::1]:8081 and 3 other hosts';
    expect(shownLabel(many, jobs(many))).toBe('rest of a.example, [::1] and 3 other hosts');
    // One host at two ports in the job, or another job with a host at another port: the ports tell them apart.
    expect(shownLabel('127.0.0.1:43645, 127.0.0.1:37857', jobs('127.0.0.1:43645, 127.0.0.1:37857'))).toBe('127.0.0.1:43645, 127.0.0.1:37857');
    expect(shownLabel(two, jobs(two, '127.0.0.2:40000'))).toBe(two);
    expect(shownLabel('127.0.0.1:40965', jobs('127.0.0.1:40965', two))).toBe('127.0.0.1:40965');
    expect(shownLabel('127.0.0.2:40000', jobs('127.0.0.2:40000', two))).toBe('127.0.0.2:40000');
    expect(shownLabel('a.org, b.org', jobs('a.org, b.org'))).toBe('a.org, b.org');
    expect(shownLabel('Smith, Jones:12', jobs('Smith, Jones:12'))).toBe('Smith, Jones:12');
  });
});
