/**
 * A bug in Sift thrown out of a command's run, as a user meets it: not "bad usage or input"
 * (exit 2, which tells a script to fix what it gave), but exit 1 with a line that says it is a
 * bug and where the log is, and the log line that says where it happened, neither of them
 * quoting the target URL the error's message held. The real CLI in-process, its stdout a stream
 * whose write fails with an error no command expects.
 */
import { afterAll, expect, test } from 'vitest';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PassThrough, Writable } from 'node:stream';
import { main } from '../../src/cli/main';

const dir = mkdtempSync(path.join(os.tmpdir(), 'sift-cli-bug-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const TARGET = 'http://127.0.0.1:9/private/reading-list';

test('an unexpected error out of a command exits 1, says it is a bug in Sift and where the log is, and no target URL is printed or logged', async () => {
  writeFileSync(path.join(dir, 'list.txt'), `${TARGET}\n`);
  let err = '';
  const stderr = new PassThrough();
  stderr.on('data', (d: Buffer) => (err += d.toString()));
  const stdout = new Writable({
    write: () => {
      throw new TypeError(`cannot print ${TARGET}`);
    },
  });
  const code = await main(['parse', 'list.txt'], { stdout, stderr, stdin: new PassThrough(), isTTY: false, env: { ...process.env, SIFT_HOME: dir }, cwd: dir });
  const log = path.join(dir, 'sift.log');
  expect(code).toBe(1);
  expect(err).toBe(`sift parse: internal error (TypeError): this is a bug in Sift, not in what you gave it.\n  The log ${log} says where it happened; please report it with that line.\n`);
  const lines = readFileSync(log, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { msg: string; command: string; err: Record<string, unknown>; stack: string[] });
  const bug = lines.find((l) => l.msg.includes('bug'))!;
  expect(bug).toMatchObject({ command: 'parse', err: { name: 'TypeError' } });
  expect(bug.stack.some((frame) => frame.includes('cli-bug.test.ts'))).toBe(true);
  expect(readFileSync(log, 'utf8')).not.toContain('127.0.0.1');
});
