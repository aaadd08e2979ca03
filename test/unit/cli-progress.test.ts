import { PassThrough } from 'node:stream';
import { describe, expect, test } from 'vitest';
import { Progress, failureAdvice, formatDuration, restAdvice } from '../../src/cli/progress';
import type { CliIO } from '../../src/cli/io';
import type { Job, TargetRow } from '../../src/shared/types';

function io(isTTY: boolean): { io: CliIO; text: () => string } {
  const stderr = new PassThrough();
  let buf = '';
  stderr.on('data', (d: Buffer) => (buf += d.toString()));
  return { io: { stdout: new PassThrough(), stderr, stdin: new PassThrough(), isTTY, env: {}, cwd: '/' }, text: () => buf };
}

const row = (idx: number, status: TargetRow['status'], extra: Partial<TargetRow> = {}): TargetRow => ({
  idx,
  url: `https://example.org/${idx}`,
  status,
  error: status === 'failed' ? 'HTTP 404 Not Found' : '',
  hint: '',
  bytes: status === 'done' ? 2048 : 0,
  errorStatus: status === 'failed' ? 404 : 0,
  title: '',
  startedAt: 0,
  finishedAt: 0,
  ...extra,
});

const job = (done: number, failed: number, status: Job['status']): Job => ({
  id: 'j',
  caller: 'cli',
  callerClass: 'cli',
  status,
  error: '',
  targetsTotal: 4,
  targetsDone: done,
  targetsFailed: failed,
  createdAt: 0,
  updatedAt: 0,
  leaseExpires: 0,
});

describe('sift batch progress on stderr', () => {
  test('names a target by its URL as the address bar shows it, not in Punycode and percent escapes', () => {
    const t = io(false);
    const p = new Progress(t.io, 1);
    p.target(row(0, 'done', { url: 'https://xn--r8jz45g.jp/%E3%83%91%E3%82%B9' }));
    expect(t.text()).toContain('#1 ok 2.0 kB https://例え.jp/パス\n');
  });

  test('a URL in flight for a minute is said with its time, not hidden in an ETA of the fast ones', () => {
    // 3 pages in 300 ms, then the fourth of 5 hangs: the line said "ETA 0:40" a minute on,
    // the minute spread over the 3 fast pages, and shrank as the URL went on hanging.
    let now = 0;
    const t = io(true);
    const p = new Progress(t.io, 5, () => now);
    for (const i of [0, 1, 2]) {
      p.target(row(i, 'running'));
      now += 100;
      p.target(row(i, 'done'));
    }
    p.target(row(3, 'running'));
    expect(p.line()).toMatch(/ · #4 · 0:00 · ETA 0:00$/);
    now += 60_000;
    expect(p.line()).toMatch(/ · #4 · 1:00 · ETA unknown: #4 has taken 1:00 so far$/);
    p.target(row(3, 'done'));
    p.target(row(4, 'running'));
    expect(p.line()).toMatch(/ · #5 · 1:00 · ETA 0:15$/);
    // The first URL hanging: no pace yet, but the wait is said.
    const first = new Progress(io(true).io, 5, () => now);
    first.target(row(0, 'running'));
    now += 45_000;
    expect(first.line()).toMatch(/ · #1 · 0:45 · ETA unknown: #1 has taken 0:45 so far$/);
  });

  test('a minute waiting to try again (its site answered 429) is not said as the URL taking a minute', () => {
    // 3 pages in 300 ms; the fourth is answered 429 and waits 60 s: the ETA said "#4 has taken
    // 1:00 so far" of a URL that was waiting, not fetching.
    let now = 0;
    const p = new Progress(io(true).io, 5, () => now);
    for (const i of [0, 1, 2]) {
      p.target(row(i, 'running'));
      now += 100;
      p.target(row(i, 'done'));
    }
    p.target(row(3, 'running'));
    p.waiting(row(3, 'running', { wait: { until: now + 60_000, waitMs: 60_000, why: 'the site answered HTTP 429 Too Many Requests', last: false } }));
    now += 59_000;
    expect(p.line()).toMatch(/ · 0:59 · ETA 0:00$/);
    // Its next try hangs a minute: that is said, counted from the try.
    now += 61_000;
    expect(p.line()).toMatch(/ · 2:00 · ETA unknown: #4 has taken 1:00 so far$/);
  });

  test('on a terminal: one line redrawn with done/total, ok/failed, the current index, elapsed and ETA', () => {
    const t = io(true);
    const p = new Progress(t.io, 4);
    p.target(row(0, 'running'));
    p.target(row(0, 'done'));
    p.target(row(1, 'running'));
    const line = p.line();
    expect(line).toMatch(/^1\/4 · ok 1 · failed 0 · #2 · \d+:\d\d · ETA \d+:\d\d$/);
    p.finish(job(4, 1, 'partial'));
    expect(t.text()).toContain('\r\x1b[2K');
    expect(t.text()).toMatch(/partial: 4\/4 · ok 3 · failed 1/);
  });

  test("on a terminal: a PDF being read says how far on the live line, until its target is written; a log gets no line per count", () => {
    const t = io(true);
    const p = new Progress(t.io, 4);
    p.target(row(2, 'running'));
    // Drawn at once, though the running line was drawn just before.
    p.pages(row(2, 'running', { pagesRead: { done: 4, total: 1_352 } }));
    expect(t.text()).toContain('\r\x1b[2K0/4 · ok 0 · failed 0 · #3 reading the PDF: 4 of 1,352 pages · ');
    p.pages(row(2, 'running', { pagesRead: { done: 1_020, total: 1_352 } }));
    expect(p.line()).toMatch(/^0\/4 · ok 0 · failed 0 · #3 reading the PDF: 1,020 of 1,352 pages · \d+:\d\d$/);
    p.target(row(2, 'done'));
    expect(p.line()).not.toContain('reading');
    const log = io(false);
    const q = new Progress(log.io, 4);
    q.pages(row(0, 'running', { pagesRead: { done: 20, total: 352 } }));
    expect(log.text()).toBe('');
  });

  test('a big list counts with thousands separators, as the summary lines do', () => {
    const t = io(false);
    const p = new Progress(t.io, 12_000);
    for (let i = 0; i < 1_234; i++) p.target(row(i, 'done'));
    p.target(row(1_234, 'running'));
    expect(t.text()).toContain('\n[1,234/12,000] #1,234 ok 2.0 kB https://example.org/1233\n');
    expect(p.line()).toMatch(/^1,234\/12,000 · ok 1,234 · failed 0 · #1,235 · /);
  });

  test('on a terminal: a target waiting on a busy site says so on the live line, counting down, until its next change', () => {
    const t = io(true);
    const p = new Progress(t.io, 4);
    p.target(row(0, 'running'));
    p.waiting(row(0, 'running', { wait: { until: Date.now() + 11_500, waitMs: 11_500, why: 'the site answered HTTP 429 Too Many Requests', last: false } }));
    expect(p.line()).toMatch(/^0\/4 · ok 0 · failed 0 · #1 waiting 12 s, then trying again: the site answered HTTP 429 Too Many Requests · \d+:\d\d$/);
    expect(t.text()).toContain('#1 waiting 12 s, then trying again');
    p.waiting(row(0, 'running', { wait: { until: Date.now() - 1, waitMs: 2000, why: 'the site answered HTTP 503 Service Unavailable', last: true } }));
    expect(p.line()).toContain('#1 trying again: the site answered HTTP 503 Service Unavailable');
    p.target(row(0, 'done'));
    p.target(row(1, 'running'));
    expect(p.line()).toMatch(/· #2 · /);
    // A terminal narrower than the line: cut, so redrawing it with \r does not stack wrapped rows.
    Object.assign(t.io.stderr, { columns: 40 });
    p.waiting(row(1, 'running', { wait: { until: Date.now() + 5_000, waitMs: 5_000, why: 'the site answered HTTP 429 Too Many Requests', last: false } }));
    const drawn = t.text().split('\r\x1b[2K').at(-1)!;
    expect(drawn).toHaveLength(39);
    expect(drawn.endsWith('…')).toBe(true);
  });

  test('not on a terminal: a line for a target\'s first wait on a busy site, without the URL', () => {
    const t = io(false);
    const p = new Progress(t.io, 4);
    p.target(row(0, 'running'));
    p.waiting(row(0, 'running', { wait: { until: Date.now() + 2_000, waitMs: 2_000, why: 'the site answered HTTP 429 Too Many Requests', last: true } }));
    expect(t.text()).toBe('[0/4] #1 waiting 2 s, then trying a last time: the site answered HTTP 429 Too Many Requests\n');
  });

  test('not on a terminal: a site that stays busy for its minute of retries is said a few times, not once per try', () => {
    const t = io(false);
    const p = new Progress(t.io, 4);
    p.target(row(0, 'done'));
    p.target(row(1, 'running'));
    const busy = 'the site answered HTTP 503 Service Unavailable';
    // The runner's default: a try every 2 s for a minute, the last one at its end.
    const start = Date.parse('2026-01-01T00:00:00Z');
    for (let i = 0; i < 30; i++) {
      const began = start + i * 2_000;
      p.waiting(row(1, 'running', { wait: { until: began + 2_000, waitMs: 2_000, why: busy, last: i === 29 } }));
    }
    p.target(row(1, 'failed'));
    expect(t.text().split('\n').slice(1)).toEqual([
      `[1/4] #2 waiting 2 s, then trying again: ${busy}`,
      `[1/4] #2 still busy after 16 tries: waiting 2 s, then trying again: ${busy}`,
      `[1/4] #2 still busy after 30 tries: waiting 2 s, then trying a last time: ${busy}`,
      '[2/4] #2 failed: HTTP 404 Not Found https://example.org/1',
      '',
    ]);
  });

  test('not on a terminal: a new reason to wait, or another target, is said at once', () => {
    const t = io(false);
    const p = new Progress(t.io, 4);
    const start = Date.parse('2026-01-01T00:00:00Z');
    const wait = (idx: number, at: number, why: string) => p.waiting(row(idx, 'running', { wait: { until: start + at + 2_000, waitMs: 2_000, why, last: false } }));
    wait(0, 0, 'the site answered HTTP 429 Too Many Requests');
    wait(0, 2_000, 'the site answered HTTP 429 Too Many Requests');
    wait(0, 4_000, 'Sift is already fetching as many pages as it may at once');
    p.target(row(0, 'done'));
    wait(1, 6_000, 'the site answered HTTP 429 Too Many Requests');
    expect(t.text().split('\n')).toEqual([
      '[0/4] #1 waiting 2 s, then trying again: the site answered HTTP 429 Too Many Requests',
      '[0/4] #1 still busy after 3 tries: waiting 2 s, then trying again: Sift is already fetching as many pages as it may at once',
      '[1/4] #1 ok 2.0 kB https://example.org/0',
      '[1/4] #2 waiting 2 s, then trying again: the site answered HTTP 429 Too Many Requests',
      '',
    ]);
  });

  test('not on a terminal: a plain line per finished target', () => {
    const t = io(false);
    const p = new Progress(t.io, 4);
    p.target(row(0, 'running'));
    p.target(row(0, 'done'));
    p.target(row(1, 'failed'));
    // Cancelled while #3 was in flight: the job is over, so no current target and no ETA.
    p.target(row(2, 'running'));
    p.target(row(2, 'failed', { error: 'cancelled', reason: 'cancelled', errorStatus: 499 }));
    p.finish({ ...job(3, 2, 'cancelled'), targetsCutShort: 1 });
    expect(t.text().split('\n')).toEqual([
      '[1/4] #1 ok 2.0 kB https://example.org/0',
      '[2/4] #2 failed: HTTP 404 Not Found https://example.org/1',
      '[3/4] #3 stopped mid-way (cancelled) https://example.org/2',
      expect.stringMatching(/^cancelled: 2\/4 · ok 1 · failed 1 · stopped mid-way 1 · \d+:\d\d$/),
      '',
    ]);
    expect(t.text()).not.toContain('\x1b');
  });

  test('the last line counts a target stopped mid-way apart, as sift status does, not as finished and failed', () => {
    const t = io(false);
    const p = new Progress(t.io, 4);
    p.target(row(0, 'done'));
    p.target(row(1, 'failed'));
    // Cancelled while #3 was in flight: it is stored failed (cancelled) and counted done by the job.
    p.finish({ ...job(3, 2, 'cancelled'), targetsCutShort: 1 });
    expect(t.text()).toMatch(/\ncancelled: 2\/4 · ok 1 · failed 1 · stopped mid-way 1 · \d+:\d\d\n$/);
  });

  test('durations read as m:ss and h:mm:ss', () => {
    expect(formatDuration(0)).toBe('0:00');
    expect(formatDuration(61_000)).toBe('1:01');
    expect(formatDuration(3_725_000)).toBe('1:02:05');
  });
});

describe('failureAdvice', () => {
  const blocked = (idx: number, kind = 'loopback') =>
    row(idx, 'failed', { error: 'blocked', hint: `the address is a ${kind} address. Allow it with --allow-private.`, reason: 'blocked', errorStatus: 403 });

  test('one line per kind of failure with a hint, the most common first, with how many it hit', () => {
    const rows = [blocked(0), row(1, 'done'), blocked(2, 'private'), blocked(3), row(4, 'failed', { hint: 'Check the URL.', reason: 'upstream' }), blocked(5)];
    expect(failureAdvice(rows, 'j1')).toBe(
      'what to do:\n' +
        '  3 × blocked\n      the address is a loopback address. Allow it with --allow-private.\n' +
        '  1 × blocked\n      the address is a private address. Allow it with --allow-private.\n' +
        '  1 × HTTP 404 Not Found\n      Check the URL.\n',
    );
  });

  test('nothing without a failure that has a hint; a dead link, whose hint is its shown error, adds nothing', () => {
    const dead = row(1, 'failed', { error: 'internal error', hint: 'connection refused. Nothing listens there.', reason: 'network', errorStatus: 500 });
    expect(failureAdvice([row(0, 'done'), dead, row(2, 'failed'), row(3, 'pending')], 'j1')).toBe('');
  });

  test('failures that differ only in their numbers are one kind, said with … where they differ', () => {
    const long = (idx: number, size: string, limit = '8 MiB') =>
      row(idx, 'failed', { error: `document too long: ${size} of content, the limit is ${limit}`, hint: 'Narrow it, or raise "Largest result" in Settings.', reason: 'too_long', errorStatus: 422 });
    // A size's unit goes with its number: 29.8 MiB and 600 KiB differ only in their numbers.
    expect(failureAdvice([long(0, '29.8 MiB'), long(1, '600 KiB'), long(2, '12,345,678 bytes')], 'j1')).toBe(
      // The runner stores the app's words; the command line names whose Settings those are.
      'what to do:\n  3 × document too long: … of content, the limit is 8 MiB\n      Narrow it, or raise "Largest result" in the app’s Settings.\n',
    );
    expect(failureAdvice([long(0, '29.8 MiB'), long(1, '29.8 MiB', '16 MiB')], 'j1')).toMatch(/2 × document too long: 29\.8 MiB of content, the limit is …\n/);
    expect(failureAdvice([long(0, '29.8 MiB'), long(1, '29.8 MiB')], 'j1')).toMatch(/2 × document too long: 29\.8 MiB of content, the limit is 8 MiB\n/);
    const missing = (idx: number, status: number) => row(idx, 'failed', { error: `HTTP ${status} Not Found`, hint: 'The page is gone.', reason: 'upstream', errorStatus: status });
    expect(failureAdvice([missing(0, 404), missing(1, 410)], 'j1')).toMatch(/2 × HTTP … Not Found\n/);
  });

  test('a target cut short by a cancel or a crash is left to the rest\'s advice, not listed as a kind of failure', () => {
    const cut = (idx: number, error: string) => row(idx, 'failed', { error, hint: 'The job was cancelled while this target was being fetched; run the rest again to fetch it.', reason: 'cancelled', errorStatus: 499 });
    const rows = [row(0, 'failed', { hint: 'The page is gone.', reason: 'upstream' }), cut(1, 'cancelled'), cut(2, 'restart'), row(3, 'pending')];
    expect(failureAdvice(rows, 'j1')).toBe('what to do:\n  1 × HTTP 404 Not Found\n      The page is gone.\n');
    expect(failureAdvice([cut(0, 'interrupted')], 'j1')).toBe('');
  });

  test('past `max` kinds it points to sift status for the rest', () => {
    const rows = Array.from({ length: 7 }, (_, i) => row(i, 'failed', { hint: `hint ${i}`, reason: 'upstream' }));
    const text = failureAdvice(rows, 'j1', 5);
    expect(text.match(/ × /g)).toHaveLength(5);
    expect(text.endsWith('  (2 more kinds of failure: sift status j1)\n')).toBe(true);
    expect(failureAdvice(rows, 'j1', Infinity).match(/ × /g)).toHaveLength(7);
  });
});

describe('the line an export ends with', () => {
  const tally = { format: 'folder', results: 1, warned: 0, notDoneEntries: 0, toCome: 0, sideFiles: ['manifest.jsonl', 'failed.txt'] } as const;
  test('counts as the progress line does, with thousands separated', async () => {
    const { exportedLine } = await import('../../src/cli/output');
    const line = exportedLine({ ...tally, path: '/tmp/out/sift-1', files: 3, targets: 3_001, failed: 3_000, notRun: 2_999, cutShort: 0, bytes: 2048 }, 'j1');
    expect(line).toBe(
      'exported 3,001 targets (1 failed, 2,999 not run) to /tmp/out/sift-1 (2.0 kB): 1 result file, with manifest.jsonl and failed.txt; the 3,000 without a result have no file: manifest.jsonl says why, failed.txt lists them to run again\n',
    );
  });
  test('a zip is one file, said with the results it holds apart from its listings', async () => {
    const { exportedLine } = await import('../../src/cli/output');
    const line = exportedLine({ ...tally, format: 'zip', results: 6, warned: 2, path: '/tmp/out/sift-1.zip', files: 1, entries: 8, targets: 6, failed: 0, notRun: 0, cutShort: 0, bytes: 2048 }, 'j1');
    expect(line).toBe('exported 6 targets (0 failed) to /tmp/out/sift-1.zip (2.0 kB): a zip of 6 result files (2 with warnings), with manifest.jsonl and failed.txt\n');
  });
});

describe('what a job that stopped early says about its rest', () => {
  const rows = [row(0, 'done'), row(1, 'running'), row(2, 'pending'), row(3, 'pending')];

  test('a job the store stopped says why in plain words and what to do first, never "internal error"', () => {
    expect(restAdvice({ ...job(1, 0, 'failed'), error: 'disk full' }, rows)).toBe(
      "It stopped because the disk that holds Sift's database was full (free some space on that disk first): 3 targets of 4 did not finish; the finished ones are kept.\n" +
        '  To fetch just those, run the same `sift batch` again with --rest.\n',
    );
    expect(restAdvice({ ...job(1, 0, 'failed'), error: 'database could not be written' }, rows)).toMatch(
      /^It stopped because Sift could not write its database \(make the database file and its folder writable first\): 3 targets/,
    );
    expect(restAdvice({ ...job(1, 0, 'failed'), error: 'database damaged' }, rows)).toMatch(/^It stopped because Sift's database is damaged \(move the database file aside/);
  });

  test('a crash and a bug keep their own words', () => {
    expect(restAdvice({ ...job(1, 0, 'failed'), error: 'restart' }, rows)).toMatch(/^Sift stopped before it finished \(it was killed or crashed/);
    expect(restAdvice({ ...job(1, 0, 'failed'), error: 'internal error' }, rows)).toMatch(/^It stopped before its end: 3 targets of 4/);
  });
});
