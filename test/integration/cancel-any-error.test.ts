/**
 * The batch wiring as the net under every cancel: whatever error a fetch ends with once the
 * job's cancel has aborted it, the target is stored cut short by the cancel, never as
 * "internal error" or a bug in Sift; a thrown bug with no cancel keeps its words and its log
 * line. Through the app's engine (store, fetcher, batch runner, metrics) against loopback
 * sites; each cancel comes on an event (undici's diagnostics channel, the renderer being
 * asked), never after a wait. `sift status` then reads the database as the user does.
 */
import type http from 'node:http';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openEngine, type Engine } from '../../src/main/engine';
import { createLog } from '../../src/main/log';
import type { RendererFactory } from '../../src/main/fetch';
import { DEFAULT_SETTINGS } from '../../src/shared/settings';
import { NOT_FETCHED, STOPPED_MIDWAY, targetStop } from '../../src/renderer/src/lib/jobs';
import { runSift } from '../helpers/cli';
import { atBodyChunks, closedAfterEach, listenLoopback } from '../helpers/loopback';

const SHELL = '<!doctype html><html><head><title>Loading</title><script src="/app.js"></script></head><body><div id="root"></div></body></html>';

const open = closedAfterEach();

const listen = (handler: http.RequestListener): Promise<string> => listenLoopback(open, handler);

interface Rig {
  engine: Engine;
  home: string;
  db: string;
  logFile: string;
  /** Closes the engine (once), so `sift status` may open the database. */
  shut(): Promise<void>;
}

function rig(renderer?: RendererFactory): Rig {
  const home = mkdtempSync(path.join(os.tmpdir(), 'sift-cancel-any-error-'));
  const db = path.join(home, 'sift.db');
  const logFile = path.join(home, 'sift.log');
  writeFileSync(path.join(home, 'settings.json'), JSON.stringify({ allowHosts: ['127.0.0.1'] }));
  const engine = openEngine({ dbPath: db, settings: { ...DEFAULT_SETTINGS, allowHosts: ['127.0.0.1'] }, log: createLog([logFile]), ...(renderer ? { renderer } : {}) });
  let closing: Promise<void> | undefined;
  const shut = (): Promise<void> => (closing ??= engine.close());
  open.push({ close: shut });
  return { engine, home, db, logFile, shut };
}

/** A renderer whose render throws a plain Error (a bug), after `onRender` (which may cancel). */
const throwingRenderer =
  (onRender: () => void): RendererFactory =>
  () => ({
    render: async () => {
      onRender();
      throw new Error('render bug: cannot read properties of undefined');
    },
    browser: async () => ({ ok: true, name: 'stand-in', path: '/nowhere' }),
    close: async () => {},
  });

const errorLines = (file: string): { msg: string; jobId?: string }[] =>
  readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as { level: number | string; msg: string; jobId?: string })
    .filter((l) => l.level === 50 || l.level === 'error');

describe('a fetch that ends with an error after the job was cancelled', () => {
  it('a redirect loop found as the cancel cut its redirect\'s page short is stored stopped by the cancel, not "internal error"; sift status says stopped', async () => {
    // A redirect back to itself whose page comes in parts: its opening, then (once the client
    // has it) a little more; the rest never comes. The loop is a 502 of the fetch.
    let more = (): void => {};
    const origin = await listen((req, res) => {
      res.writeHead(302, { location: req.url ?? '/', 'content-type': 'text/html' });
      res.write('<!doctype html><title>Moved</title>');
      more = () => void res.write('<p>This page has moved.</p>');
    });
    const r = rig();
    // mode raw and the root path: no soft-404 probe beside it, only the target's own requests.
    const { id } = r.engine.runner.submit({ name: 'cli' }, 'cli', [{ url: `${origin}/`, options: { mode: 'raw' } }, { url: `${origin}/next`, options: { mode: 'raw' } }]);
    // The second chunk comes in an I/O event after the first: the client has the redirect and
    // is dropping its page when the cancel comes.
    atBodyChunks(open, () => more(), () => r.engine.runner.cancel(id));
    await r.engine.runner.settled(id);

    expect(r.engine.store.getJob(id)?.status).toBe('cancelled');
    const row = r.engine.store.targetResult(id, 0)!;
    // Before: failed "internal error" (500, reason upstream), hint "redirect loop: the site sent Sift back …".
    expect(row).toMatchObject({ status: 'failed', error: 'cancelled', reason: 'cancelled', errorStatus: 499 });
    expect(row.hint).toMatch(/cancelled while this target was being fetched/);
    expect(r.engine.store.targetResult(id, 1)).toMatchObject({ status: 'pending' });
    // The app's badges for these rows, as for any cut short (before: "failed", "internal error").
    expect(targetStop(row, true)).toBe(STOPPED_MIDWAY);
    expect(targetStop(r.engine.store.targetResult(id, 1)!, true)).toBe(NOT_FETCHED);
    expect(errorLines(r.logFile)).toEqual([]);

    await r.shut();
    const status = await runSift(['status', id, '--db', r.db], { env: { SIFT_HOME: r.home } });
    expect(status.stdout).toMatch(new RegExp(`^job ${id}: cancelled, 0/2 finished, 0 failed, 1 stopped mid-way, `));
    expect(status.stdout).toMatch(/^ {4}1 {2}stopped {2}.*:\d+\/ {2}\[cancelled\]/m);
    for (const said of [status.stdout, status.stderr]) expect(said).not.toMatch(/internal error|bug in Sift|502/i);
  }, 120_000);

  it('a plain Error thrown as the cancel comes is stored cancelled, unlogged; with no cancel it is "internal error", a bug in Sift, logged', async () => {
    const origin = await listen((req, res) => {
      if (req.url === '/app.js') return void res.writeHead(200, { 'content-type': 'text/javascript' }).end('');
      res.writeHead(200, { 'content-type': 'text/html' }).end(SHELL);
    });
    const targets = [0, 1].map((i) => ({ url: `${origin}/page${i}`, options: { mode: 'text' as const, render: 'always' as const } }));

    let cancelNow = (): void => {};
    const cut = rig(throwingRenderer(() => cancelNow()));
    const a = cut.engine.runner.submit({ name: 'desktop' }, 'desktop', targets);
    cancelNow = () => void cut.engine.runner.cancel(a.id);
    await cut.engine.runner.settled(a.id);
    expect(cut.engine.store.targetResult(a.id, 0)).toMatchObject({ status: 'failed', error: 'cancelled', reason: 'cancelled' });
    expect(cut.engine.store.targetResult(a.id, 1)).toMatchObject({ status: 'pending' });
    expect(errorLines(cut.logFile)).toEqual([]);

    const bug = rig(throwingRenderer(() => {}));
    const b = bug.engine.runner.submit({ name: 'desktop' }, 'desktop', targets.slice(0, 1));
    await bug.engine.runner.settled(b.id);
    const row = bug.engine.store.targetResult(b.id, 0)!;
    expect(row).toMatchObject({ status: 'failed', error: 'internal error', reason: 'internal', errorStatus: 500 });
    expect(row.hint).toMatch(/bug in Sift/);
    const lines = errorLines(bug.logFile);
    expect(lines).toEqual([expect.objectContaining({ msg: 'batch fetch failed with an unexpected error', jobId: b.id })]);
    expect(readFileSync(bug.logFile, 'utf8')).not.toContain('127.0.0.1');
  }, 120_000);
});
