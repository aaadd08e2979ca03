/**
 * A job cancelled while the page of an error answer is being read: that page is what tells a
 * plain 403 from an anti-bot check or a sign-in wall (SPEC §5.9), so the target is not judged
 * without it. Through the real batch runner, fetcher and client against a loopback site that
 * sends the 403 and the opening of its page and holds the rest; the cancel comes as undici
 * reports a chunk of the page received (its diagnostics channel), an event, not a wait.
 */
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createFetcher } from '../../src/main/fetch';
import { openStore } from '../../src/main/store';
import { BatchMetrics } from '../../src/main/metrics';
import { silentLog } from '../../src/main/log';
import { createBatchRunner } from '../../src/main/batchrun';
import { atBodyChunks, closedAfterEach, listenLoopback } from '../helpers/loopback';

const open = closedAfterEach();

describe('a job cancelled while the page of an error answer is read', () => {
  it('stores the target cancelled, not the bare HTTP error its page was to explain', async () => {
    // The opening of a check page, then (once the client has it) a little more; the rest never comes.
    let more = (): void => {};
    const origin = await listenLoopback(open, (_req, res) => {
      res.writeHead(403, { 'content-type': 'text/html' });
      res.write('<!doctype html><html><head><title>Just a moment...</title>');
      more = () => void res.write('<meta name="robots" content="noindex">');
    });
    const f = createFetcher({ allowHosts: ['127.0.0.1'] });
    open.push(f);
    const store = openStore(path.join(mkdtempSync(path.join(os.tmpdir(), 'sift-error-page-cancel-')), 'sift.db'));
    const runner = createBatchRunner(store, f, {}, new BatchMetrics(), silentLog());
    open.push(store, runner);

    // mode raw and the root path: no soft-404 probe beside it, only the target's own request.
    const { id } = runner.submit({ name: 'test' }, 'test', [{ url: `${origin}/`, options: { mode: 'raw' } }, { url: `${origin}/next`, options: { mode: 'raw' } }]);
    // The second chunk comes in an I/O event after the first, so the client has its answer and
    // is reading the page when the cancel comes.
    atBodyChunks(open, () => more(), () => runner.cancel(id));
    await runner.settled(id);

    expect(store.getJob(id)?.status).toBe('cancelled');
    // Before: failed "HTTP 403 Forbidden" (reason upstream), the check page cut short unread.
    expect(store.targetResult(id, 0)).toMatchObject({ status: 'failed', reason: 'cancelled', error: 'cancelled' });
    expect(store.targetResult(id, 1)).toMatchObject({ status: 'pending' });
  });
});
