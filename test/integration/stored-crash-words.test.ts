/**
 * A page that crashed the app's render window was stored, before e7a84d15, with Electron's
 * code for why its process ended ("page process ended (oom)"). Such a job, opened later in the
 * app's result pane or by `sift status`, reads in the words a crash is said in now.
 */
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { statusCommand } from '../../src/cli/commands/jobs';
import { EXIT, type CliIO } from '../../src/cli/io';
import { openStore } from '../../src/main/store';
import { RENDER_HINT } from '../../src/shared/hints';
import { rowFailure } from '../../src/shared/types';
import { tempDir } from '../helpers/store';

let tmp: ReturnType<typeof tempDir>;
let db: string;
const ID = 'eeee5555ffff6666';
// As the app stored it then: the batch wiring keeps a 502 as "internal error", what happened in its hint.
const STORED = (code: string): string => `The browser's page process ended (${code}); try again, or render=never.`;
const CODES = ['oom', 'abnormal-exit', 'memory-eviction'];

beforeEach(() => {
  tmp = tempDir('sift-stored-crash-');
  db = path.join(tmp.dir, 'sift.db');
  const store = openStore(db);
  const now = Date.now();
  const lease = now + 7 * 24 * 3600_000;
  store.insertJob({ id: ID, caller: 'desktop', callerClass: 'desktop', idemKey: ID, targetsTotal: CODES.length, nowMs: now, leaseExpires: lease }, CODES.map((c) => ({ url: `https://example.test/${c}`, options: { render: 'always' } })));
  store.transition(ID, 'queued', 'running', '', now);
  CODES.forEach((code, idx) => {
    store.startTarget(ID, idx, now);
    store.finishTarget(ID, idx, { status: 'failed', error: 'internal error', hint: STORED(code), bytes: 0, title: '', errorStatus: 500, reason: 'network' }, now, lease);
  });
  store.transition(ID, 'running', 'failed', '', now);
  store.close();
});
afterEach(() => tmp.remove());

async function status(args: string[]): Promise<{ code: number; out: string }> {
  let out = '';
  const stdout = new PassThrough().on('data', (d: Buffer) => (out += String(d)));
  const io: CliIO = { stdout, stderr: new PassThrough(), stdin: new PassThrough(), isTTY: false, env: { ...process.env, SIFT_HOME: tmp.dir }, cwd: tmp.dir };
  const code = await statusCommand.run([ID, ...args, '--db', db], io, new AbortController().signal);
  return { code, out };
}

describe("a crash stored with Electron's code", () => {
  test('sift status says why the page process ended in words, in the list and in --json', async () => {
    const text = await status([]);
    expect(text.code).toBe(EXIT.ok);
    for (const words of ['(out of memory)', '(a crash)', '(closed to free memory)']) expect(text.out).toContain(`page process ended ${words}`);
    const json = await status(['--json']);
    const hints = json.out.trim().split('\n').slice(1).map((l) => (JSON.parse(l) as { hint: string }).hint);
    expect(hints).toEqual([
      `The browser's page process ended (out of memory); ${RENDER_HINT.crashed.cli}`,
      `The browser's page process ended (a crash); ${RENDER_HINT.crashed.cli}`,
      `The browser's page process ended (closed to free memory); ${RENDER_HINT.crashed.cli}`,
    ]);
    for (const code of CODES) expect(`${text.out}${json.out}`).not.toContain(`(${code})`);
  });

  test("the app's result pane says it in words, with the app's place to turn rendering off", () => {
    const store = openStore(db);
    try {
      const shown = store.targetRows(ID).map((r) => rowFailure(r, 'app').error);
      expect(shown).toEqual([
        `The browser's page process ended (out of memory); ${RENDER_HINT.crashed.app}`,
        `The browser's page process ended (a crash); ${RENDER_HINT.crashed.app}`,
        `The browser's page process ended (closed to free memory); ${RENDER_HINT.crashed.app}`,
      ]);
    } finally {
      store.close();
    }
  });
});
