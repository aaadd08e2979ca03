/**
 * A job's lifetime as the read-only commands see it (rule 11): a terminal job whose lease
 * lapsed is gone for `sift jobs`, `status`, `search` and `export`, not only once a runner
 * (`sift batch`, the app) has swept it.
 */
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { exportCommand, jobsCommand, statusCommand } from '../../src/cli/commands/jobs';
import { searchCommand } from '../../src/cli/commands/search';
import { EXIT, type CliIO } from '../../src/cli/io';
import type { Command } from '../../src/cli/command';
import { openStore } from '../../src/main/store';
import { tempDir } from '../helpers/store';

let tmp: ReturnType<typeof tempDir>;
let db: string;
const LAPSED = 'aaaa1111bbbb2222';
const KEPT = 'cccc3333dddd4444';

beforeEach(() => {
  tmp = tempDir('sift-cli-expiry-');
  db = path.join(tmp.dir, 'sift.db');
  const store = openStore(db);
  const now = Date.now();
  for (const [id, lease, word] of [
    [LAPSED, now - 60_000, 'marmalade'],
    [KEPT, now + 7 * 24 * 3600_000, 'quince'],
  ] as const) {
    store.insertJob({ id, caller: 'cli', callerClass: 'cli', idemKey: id, targetsTotal: 1, nowMs: now - 3_600_000, leaseExpires: lease }, [{ url: `https://example.test/${word}` }]);
    store.transition(id, 'queued', 'running', '', now - 3_600_000);
    store.startTarget(id, 0, now - 3_600_000);
    const content = `A page about ${word} and nothing else.`;
    store.finishTarget(id, 0, { status: 'done', result: { content, meta: { title: word } }, error: '', hint: '', bytes: content.length, title: word, errorStatus: 0 }, now - 3_600_000, lease);
    store.transition(id, 'running', 'done', '', now - 3_600_000);
  }
  store.close();
});
afterEach(() => tmp.remove());

async function run(cmd: Command, args: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const stdout = new PassThrough().on('data', (d: Buffer) => (out += String(d)));
  const stderr = new PassThrough().on('data', (d: Buffer) => (err += String(d)));
  const io: CliIO = { stdout, stderr, stdin: new PassThrough(), isTTY: false, env: { ...process.env, SIFT_HOME: tmp.dir }, cwd: tmp.dir };
  const code = await cmd.run([...args, '--db', db], io, new AbortController().signal);
  return { code, out, err };
}

describe('a job whose lease lapsed', () => {
  test('is not listed by sift jobs, and the job still kept is', async () => {
    const r = await run(jobsCommand, ['--json']);
    expect(r.code).toBe(EXIT.ok);
    expect(r.out.trim().split('\n').map((l) => (JSON.parse(l) as { id: string }).id)).toEqual([KEPT]);
  });

  test('is not found by sift search, sift status or sift export', async () => {
    const gone = await run(searchCommand, ['marmalade', '--json']);
    expect(gone.out).toBe('');
    const kept = await run(searchCommand, ['quince', '--json']);
    expect(kept.out).toContain(KEPT);
    expect((await run(statusCommand, [LAPSED])).code).toBe(EXIT.usage);
    const exp = await run(exportCommand, [LAPSED, '--out', path.join(tmp.dir, 'out'), '--format', 'jsonl']);
    expect(exp.code).toBe(EXIT.usage);
    expect(exp.err).toContain(`no job ${LAPSED} (it may have expired, or been deleted in the app); see sift jobs`);
  });
});
