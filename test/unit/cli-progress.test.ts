import { PassThrough } from 'node:stream';
import { describe, expect, test } from 'vitest';
import { Progress, formatDuration } from '../../src/cli/progress';
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

  test('not on a terminal: a plain line per finished target', () => {
    const t = io(false);
    const p = new Progress(t.io, 4);
    p.target(row(0, 'running'));
    p.target(row(0, 'done'));
    p.target(row(1, 'failed'));
    p.finish(job(2, 1, 'cancelled'));
    expect(t.text().split('\n')).toEqual([
      '[1/4] #1 ok 2.0 kB https://example.org/0',
      '[2/4] #2 failed: HTTP 404 Not Found https://example.org/1',
      expect.stringMatching(/^cancelled: 2\/4 · ok 1 · failed 1/),
      '',
    ]);
    expect(t.text()).not.toContain('\x1b');
  });

  test('durations read as m:ss and h:mm:ss', () => {
    expect(formatDuration(0)).toBe('0:00');
    expect(formatDuration(61_000)).toBe('1:01');
    expect(formatDuration(3_725_000)).toBe('1:02:05');
  });
});
