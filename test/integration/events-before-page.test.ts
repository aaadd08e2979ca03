/**
 * A page of a job's rows and the live events of that job, as main sends them: every change
 * made before the page was read goes out before its answer, with what each row was before,
 * so the renderer moves a row not read yet in the page's counts (`rest`) at once and never
 * counts a change twice.
 */
import path from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { createServices, type Services } from '../../src/main/services';
import { dispatch } from '../../src/main/ipc/dispatch';
import type { Result, Target } from '../../src/shared/types';
import { tempDir } from '../helpers/store';

let services: Services;
let remove: () => void;
const sent: { event: string; payload: unknown }[] = [];
/** The fetches the runner started, each answered when the test says. */
const fetches: ((r: Result) => void)[] = [];
let fetchStarted: () => void = () => {};

beforeAll(() => {
  const t = tempDir('sift-events-page-');
  remove = t.remove;
  services = createServices({
    dbPath: path.join(t.dir, 'sift.db'),
    host: 'bridge',
    logFiles: [],
    // Longer than the test: an event goes out only when main flushes it.
    eventIntervalMs: 600_000,
    emit: (event, payload) => void sent.push({ event, payload }),
    // A stand-in fetch pins the wiring's order of events and answers, not a user's fetch.
    fetch: () =>
      new Promise<Result>((resolve) => {
        fetches.push(resolve);
        fetchStarted();
      }),
    dialogs: { openFile: async () => null, chooseFolder: async () => null, saveFile: async () => null },
  });
});

afterAll(async () => {
  for (const answer of fetches) answer({ content: 'x' });
  await services.close();
  remove();
});

test("a page's answer comes after every change made before it was read, each change with what its row was", async () => {
  const started = new Promise<void>((resolve) => (fetchStarted = resolve));
  const targets: Target[] = [0, 1, 2].map((i) => ({ url: `http://127.0.0.1:9/${i}` }));
  const submitted = await dispatch(services.handlers, 'submit', { targets }, { checkResponses: true });
  if (!submitted.ok) throw new Error(submitted.error.message);
  const id = (submitted.value as { id: string }).id;
  await started;
  sent.length = 0;
  const page = await dispatch(services.handlers, 'jobDetail', { id, from: 0, limit: 1 }, { checkResponses: true });
  expect(page.ok).toBe(true);
  // Before: held by the batcher for its interval, so it came after the answer whose `rest` counted it.
  const changed = sent.filter((s) => s.event === 'targetsChanged').map((s) => s.payload);
  expect(changed).toEqual([{ jobId: id, rows: [expect.objectContaining({ idx: 0, status: 'running' })], was: [{ status: 'pending', error: '', reason: '' }] }]);
});
