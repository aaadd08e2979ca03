/**
 * `sift export` as a user runs it, in-process over a real database file: what Ctrl-C does to
 * an export in progress, and what its progress line says.
 */
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { PassThrough, Writable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { exportCommand } from '../../src/cli/commands/jobs';
import { EXIT, type CliIO } from '../../src/cli/io';
import { openStore } from '../../src/main/store';
import { tempDir } from '../helpers/store';

let tmp: ReturnType<typeof tempDir>;
let db: string;
const JOB = 'a1b2c3d4e5f60718';
const TARGETS = 300;

beforeEach(() => {
  tmp = tempDir('sift-cli-export-');
  db = path.join(tmp.dir, 'sift.db');
  const store = openStore(db);
  const targets = Array.from({ length: TARGETS }, (_, i) => ({ url: `https://example.test/page/${i}` }));
  store.insertJob({ id: JOB, caller: 'cli', callerClass: 'cli', idemKey: 'k', targetsTotal: TARGETS, nowMs: 1_000, leaseExpires: 9e15 }, targets);
  store.transition(JOB, 'queued', 'running', '', 1_000);
  const content = `# Page\n\n${'Some words of a page. '.repeat(2_000)}\n`;
  for (let i = 0; i < TARGETS; i++) {
    store.startTarget(JOB, i, 2_000);
    store.finishTarget(JOB, i, { status: 'done', result: { content, meta: { title: `Page ${i}` } }, error: '', hint: '', bytes: content.length, title: `Page ${i}`, errorStatus: 0 }, 2_000, 9e15);
  }
  store.transition(JOB, 'running', 'done', '', 3_000);
  store.close();
});
afterEach(() => tmp.remove());

/** An io whose stderr is a terminal (so the export draws its progress) and calls onLine with what is written. */
function terminalIO(onWrite: (text: string) => void): { io: CliIO; text: () => string } {
  let buf = '';
  const stderr = new Writable({
    write(chunk: Buffer | string, _enc, cb) {
      buf += String(chunk);
      onWrite(String(chunk));
      cb();
    },
  });
  return { io: { stdout: new PassThrough(), stderr, stdin: new PassThrough(), isTTY: true, env: { ...process.env, SIFT_HOME: tmp.dir }, cwd: tmp.dir }, text: () => buf };
}

describe('sift export', () => {
  test.each(['jsonl', 'md', 'zip', 'combined'])('Ctrl-C during a %s export stops it, exits 130 and leaves nothing behind, hidden partials included', async (format) => {
    const ac = new AbortController();
    // Ctrl-C as soon as the export draws its first progress line: it has started writing.
    const { io, text } = terminalIO((s) => {
      if (s.includes('exporting')) ac.abort(new Error('interrupted'));
    });
    const out = path.join(tmp.dir, 'out');
    const code = await exportCommand.run([JOB, '--db', db, '--out', out, '--format', format], io, ac.signal);
    expect(ac.signal.aborted).toBe(true);
    expect(code).toBe(EXIT.interrupted);
    expect(text()).toContain('export cancelled; nothing was written: the same sift export again writes it whole');
    expect(text()).not.toMatch(/exported \d+ targets/);
    // Nor the folder it made: an empty one looked as if something had been written.
    expect(existsSync(out)).toBe(false);
  });

  test('its progress counts as the summary does, 1,200 and not 1200', async () => {
    const store = openStore(db);
    const BIG = 'b1b2c3d4e5f60718';
    const n = 1_200;
    store.insertJob({ id: BIG, caller: 'cli', callerClass: 'cli', idemKey: 'k2', targetsTotal: n, nowMs: 1_000, leaseExpires: 9e15 }, Array.from({ length: n }, (_, i) => ({ url: `https://example.test/small/${i}` })));
    store.transition(BIG, 'queued', 'running', '', 1_000);
    for (let i = 0; i < n; i++) {
      store.startTarget(BIG, i, 2_000);
      store.finishTarget(BIG, i, { status: 'done', result: { content: `# Small ${i}\n`, meta: {} }, error: '', hint: '', bytes: 10, title: `Small ${i}`, errorStatus: 0 }, 2_000, 9e15);
    }
    store.transition(BIG, 'running', 'done', '', 3_000);
    store.close();
    const { io, text } = terminalIO(() => {});
    const code = await exportCommand.run([BIG, '--db', db, '--out', path.join(tmp.dir, 'out'), '--format', 'csv'], io, new AbortController().signal);
    expect(code).toBe(EXIT.ok);
    expect(text()).toContain('exporting 1,200/1,200');
    expect(text()).not.toMatch(/exporting [\d,]*\d{4}/);
    expect(text()).toContain('exported 1,200 targets (0 failed)');
  });

  test('without Ctrl-C the same export is written whole', async () => {
    const { io, text } = terminalIO(() => {});
    const out = path.join(tmp.dir, 'out');
    const code = await exportCommand.run([JOB, '--db', db, '--out', out, '--format', 'jsonl'], io, new AbortController().signal);
    expect(code).toBe(EXIT.ok);
    expect(text()).toContain(`exported ${TARGETS} targets (0 failed)`);
    expect(readdirSync(out)).toEqual([`sift-${JOB}.jsonl`]);
  });
});
