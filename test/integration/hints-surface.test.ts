/**
 * What to do, in the words of the surface that says it: the app's real services (what its
 * window talks to) and `sift`, from the built bundle, on one database. The app has Settings and
 * buttons and no shell; the command line has flags and environment variables.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createServices, type Services } from '../../src/main/services';
import { dispatch } from '../../src/main/ipc/dispatch';
import { rowFailure, type Job } from '../../src/shared/types';
import { jsonLines, runSift } from '../helpers/cli';
import { startSite, type Site } from '../helpers/sites';
import { numberedPdf } from '../helpers/fetch-pdf';
import { closedAfterEach } from '../helpers/loopback';

let site: Site;
beforeAll(async () => {
  site = await startSite();
});
afterAll(async () => {
  await site.close();
});

const open = closedAfterEach();

/** Words only the command line can act on: a flag, a sift command, an environment variable. */
const CLI_ONLY = /(?<![\w-])--[a-z]|\bsift (?:fetch|extract|batch|export|status)\b|\bSIFT_[A-Z]+|\b[a-z]+=[a-z]/;
/** Words only the app can act on: its Settings, a click, a button. The command line may name the app's Settings as the app's. */
const APP_ONLY = /\bclick|\bbutton\b|(?<!the app’s |the app's )\bSettings\b/i;

/** A data folder with the loopback site allowed by address (so `localhost` stays blocked), as the app and the CLI both read it. */
function home(settings: Record<string, unknown> = {}): { dir: string; db: string; env: NodeJS.ProcessEnv } {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'sift-hints-'));
  writeFileSync(path.join(dir, 'settings.json'), JSON.stringify({ allowHosts: ['127.0.0.1'], ...settings }));
  return { dir, db: path.join(dir, 'sift.db'), env: { SIFT_HOME: dir } };
}

function app(dir: string, db: string, out = dir): Services {
  const s = createServices({ dbPath: db, host: 'bridge', dataDir: dir, logFiles: [path.join(dir, 'sift.log')], emit: () => {}, dialogs: { openFile: async () => null, saveFile: async () => null, chooseFolder: async () => out } });
  open.push(s);
  return s;
}

const call = async (s: Services, m: string, req: unknown): Promise<unknown> => {
  const env = await dispatch(s.handlers, m, req, { checkResponses: true });
  if (!env.ok) throw Object.assign(new Error(env.error.message), env.error);
  return env.value;
};

/** Resolves with the job once the app's runner has stored its last target (its event, not a clock). */
function ended(s: Services, id: string): Promise<Job> {
  return new Promise((resolve) => {
    const done = (): void => void s.runner.settled(id).then(() => resolve(s.store.getJob(id)!));
    const now = s.store.getJob(id);
    if (now && now.status !== 'running' && now.status !== 'queued') return done();
    const off = s.runner.on('job', (j) => {
      if (j.id !== id || j.status === 'running' || j.status === 'queued') return;
      off();
      done();
    });
  });
}

/** Two targets the guard refuses before any connection: a private address and localhost by name. */
const blockedTargets = () => [{ url: 'http://10.0.0.5/intranet' }, { url: `http://localhost:${new URL(site.base).port}/article/1` }];

describe('a blocked address says how to allow it where it is read', () => {
  test("a job the app ran stores the app's words (Settings, Network), a job sift ran the flags; each surface shows the other's job in its own", async () => {
    const { dir, db, env } = home();
    const s = app(dir, db);
    const mine = s.runner.submit({ name: 'desktop' }, 'desktop', blockedTargets());
    const theirs = s.runner.submit({ name: 'cli' }, 'cli', blockedTargets());
    await ended(s, mine.id);
    await ended(s, theirs.id);
    const appRows = s.store.targetRows(mine.id);
    const cliRows = s.store.targetRows(theirs.id);
    for (const r of appRows) {
      expect(r).toMatchObject({ status: 'failed', reason: 'blocked' });
      expect(r.hint).toMatch(/Settings, under Network/);
      expect(r.hint).not.toMatch(CLI_ONLY);
    }
    for (const r of cliRows) {
      expect(r).toMatchObject({ status: 'failed', reason: 'blocked' });
      expect(r.hint).toMatch(/--allow-host HOST.*--allow-private/);
      expect(r.hint).not.toMatch(APP_ONLY);
    }
    // The app's table and result pane read the command line's job in the app's words.
    for (const r of cliRows) expect(rowFailure(r, 'app').hint).toBe(rowFailure(appRows[r.idx]!, 'app').hint);
    // sift status of the app's job, in the command line's.
    const status = await runSift(['status', mine.id, '--json', '--db', db], { env });
    expect(status.code, status.stderr).toBe(0);
    for (const line of jsonLines(status.stdout).slice(1)) {
      expect(line.hint).toMatch(/--allow-host/);
      expect(line.hint).not.toMatch(APP_ONLY);
    }
    expect(status.stderr).not.toMatch(APP_ONLY);
  }, 120_000);

  test("the app's preview of a blocked address says to allow it in Settings, not with a flag", async () => {
    const { dir, db } = home();
    const s = app(dir, db);
    const err = await call(s, 'preview', { target: { url: 'http://10.0.0.5/intranet' } }).then(
      () => undefined,
      (e: { code: string; hint: string }) => e,
    );
    expect(err).toMatchObject({ code: 'blocked', hint: expect.stringMatching(/Settings, under Network/) });
    expect(err?.hint).not.toMatch(CLI_ONLY);
  });
});

describe('no browser to render with', () => {
  test('the app says what to choose in Settings, with no environment variable or list option; sift names SIFT_CHROMIUM and --render never', async () => {
    const { dir, db, env } = home({ chromiumPath: '/nonexistent/chromium' });
    const s = app(dir, db);
    const info = (await call(s, 'browserInfo', {})) as { ok: boolean; why: string; hint: string };
    expect(info).toMatchObject({ ok: false, hint: expect.stringMatching(/Settings/) });
    expect(`${info.why}. ${info.hint}`).not.toMatch(CLI_ONLY);
    const r = await runSift(['fetch', `${site.base}/article/1`, '--render', 'always'], { env });
    expect(r.code).not.toBe(0);
    expect(r.stderr).toMatch(/SIFT_CHROMIUM=.*--render never/);
    expect(r.stderr).not.toMatch(APP_ONLY);
  }, 60_000);
});

describe('a page rendering could not read says how to read it without running it where it is read', () => {
  test("the app's job names its setting, sift's job and sift status name --render never; neither names a list line's render=never", async () => {
    const { dir, db, env } = home();
    // Sent as a file to download: a browser saves it instead of showing it, so rendering fails at once.
    const attached = await startSite({
      '/attached': (_q, r) => void r.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'content-disposition': 'attachment; filename="page.html"' }).end('<title>x</title><p>hello</p>'),
    });
    try {
      const s = app(dir, db);
      const targets = [{ url: `${attached.base}/attached`, options: { render: 'always' as const } }];
      const mine = s.runner.submit({ name: 'desktop' }, 'desktop', targets);
      const theirs = s.runner.submit({ name: 'cli' }, 'cli', targets);
      await ended(s, mine.id);
      await ended(s, theirs.id);
      const [appRow] = s.store.targetRows(mine.id);
      const [cliRow] = s.store.targetRows(theirs.id);
      expect(appRow).toMatchObject({ status: 'failed', reason: 'unsupported', hint: expect.stringMatching(/set “Run a page’s JavaScript” in Settings to never/) });
      expect(appRow!.hint).not.toMatch(CLI_ONLY);
      expect(cliRow).toMatchObject({ status: 'failed', reason: 'unsupported', hint: expect.stringMatching(/\(--render never\)/) });
      expect(cliRow!.hint).not.toMatch(APP_ONLY);
      expect(rowFailure(cliRow!, 'app').hint).toBe(appRow!.hint);
      const status = await runSift(['status', mine.id, '--json', '--db', db], { env });
      expect(status.code, status.stderr).toBe(0);
      expect(jsonLines(status.stdout)[1]).toMatchObject({ hint: cliRow!.hint });
    } finally {
      await attached.close();
    }
  }, 120_000);
});

describe('an exported file says what to do in the words of the surface that wrote it', () => {
  test("the app's export of a job sift ran names Settings; sift export of a job the app ran names the flags", async () => {
    const { dir, db, env } = home();
    const out = mkdtempSync(path.join(os.tmpdir(), 'sift-hints-out-'));
    const s = app(dir, db, out);
    const bySift = s.runner.submit({ name: 'cli' }, 'cli', blockedTargets());
    const byApp = s.runner.submit({ name: 'desktop' }, 'desktop', blockedTargets());
    await ended(s, bySift.id);
    await ended(s, byApp.id);
    for (const format of ['csv', 'combined']) {
      const { token } = (await call(s, 'chooseExportTarget', { id: bySift.id, format })) as { token: string };
      const written = (await call(s, 'exportJob', { id: bySift.id, token, format, includeFailed: true, includeMeta: false })) as { path: string };
      const text = readFileSync(written.path, 'utf8');
      expect(text).toMatch(/Settings, under Network/);
      expect(text).not.toMatch(/--allow/);
    }
    await s.close();
    open.splice(0);
    for (const format of ['csv', 'combined']) {
      const dest = mkdtempSync(path.join(os.tmpdir(), 'sift-hints-cli-out-'));
      const r = await runSift(['export', byApp.id, '--out', dest, '--format', format, '--include-failed', '--db', db], { env });
      expect(r.code, r.stderr).toBe(0);
      const text = readFileSync(path.join(dest, readdirSync(dest)[0]!), 'utf8');
      expect(text).toMatch(/--allow-host HOST/);
      expect(text).not.toMatch(APP_ONLY);
    }
  }, 120_000);
});

describe('a PDF over the page limit says how to choose its pages where it is read', () => {
  test("the app names its “PDF pages” field, sift names --pages; neither names the other's, and each shows the other's job in its own", async () => {
    // Five pages under a limit of two: a whole document is too long, page 7 is past its end.
    const { dir, db, env } = home({ maxPdfPages: 2 });
    const long = await startSite({ '/long.pdf': (_q, r) => void r.writeHead(200, { 'content-type': 'application/pdf' }).end(numberedPdf(5)) });
    try {
      const s = app(dir, db);
      const url = `${long.base}/long.pdf`;
      const targets = [{ url }, { url, options: { pages: '7' } }];
      const mine = s.runner.submit({ name: 'desktop' }, 'desktop', targets);
      const theirs = s.runner.submit({ name: 'cli' }, 'cli', targets);
      await ended(s, mine.id);
      await ended(s, theirs.id);
      const appRows = s.store.targetRows(mine.id);
      const cliRows = s.store.targetRows(theirs.id);
      expect(appRows.map((r) => r.hint)).toEqual([
        'Sift reads at most 2 pages at once; choose pages, e.g. 1-2 in “PDF pages”, or pages=1-2 on the URL’s line of the list.',
        'Choose pages from 1 to 5, e.g. 1-5 in “PDF pages”, or pages=1-5 on the URL’s line of the list.',
      ]);
      expect(cliRows.map((r) => r.hint)).toEqual([
        'Sift reads at most 2 pages at once; choose pages, e.g. --pages 1-2, or pages=1-2 on the URL’s line of a list.',
        'Choose pages from 1 to 5, e.g. --pages 1-5, or pages=1-5 on the URL’s line of a list.',
      ]);
      for (const r of appRows) expect(r.hint).not.toMatch(CLI_ONLY);
      for (const r of cliRows) expect(r.hint).not.toMatch(APP_ONLY);
      // The app's table reads sift's job in the app's words; sift status the app's job in its own.
      expect(cliRows.map((r) => rowFailure(r, 'app').hint)).toEqual(appRows.map((r) => r.hint));
      const status = await runSift(['status', mine.id, '--json', '--db', db], { env });
      expect(status.code, status.stderr).toBe(0);
      expect(jsonLines(status.stdout).slice(1).map((l) => l.hint)).toEqual(cliRows.map((r) => r.hint));
      // The app's preview, over IPC.
      const err = await call(s, 'preview', { target: { url } }).then(
        () => undefined,
        (e: { hint: string }) => e,
      );
      expect(err?.hint).toBe(appRows[0]!.hint);
      // sift fetch of the whole document, and of a page past its end, print the flag.
      const whole = await runSift(['fetch', url], { env });
      expect(whole.code).toBe(1);
      expect(whole.stderr).toContain('\n  Sift reads at most 2 pages at once; choose pages, e.g. --pages 1-2, or pages=1-2 on the URL’s line of a list.\n');
      const past = await runSift(['fetch', url, '--pages', '7', '--json'], { env });
      expect(jsonLines(past.stdout)[0]).toMatchObject({ ok: false, reason: 'bad_option', hint: cliRows[1]!.hint });
    } finally {
      await long.close();
    }
  }, 120_000);
});

describe("a limit the command line has no flag for is raised in the app's Settings, which sift reads too", () => {
  test('sift fetch and sift batch name "the app’s Settings" for the largest download and result; the app\'s preview names its Settings', async () => {
    // A download limit of 1 MiB and a result limit of 64 KiB (the smallest each takes).
    const limits = { maxBodyMiB: 1, maxResultMiB: 0.0625 };
    const big = await startSite({
      '/huge': (_q, r) => void r.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' }).end('x'.repeat(2 * 1024 * 1024)),
      '/wide': (_q, r) => void r.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' }).end('a line of a wide plain text\n'.repeat(4000)),
    });
    try {
      const { dir, db, env } = home(limits);
      const fetched = await runSift(['fetch', `${big.base}/huge`], { env });
      expect(fetched.code).toBe(1);
      expect(fetched.stderr).toContain('\n  Raise "Largest download" in the app’s Settings if you need documents this large.\n');
      const list = path.join(dir, 'list.txt');
      writeFileSync(list, `${big.base}/huge\n${big.base}/wide\n`);
      const batch = await runSift(['batch', list, '--json'], { env });
      expect(batch.code, batch.stderr).toBe(1);
      const lines = jsonLines(batch.stdout);
      expect(lines.map((l) => l.reason)).toEqual(['too_long', 'too_long']);
      expect(lines[0]!.hint).toBe('Raise "Largest download" in the app’s Settings if you need documents this large.');
      expect(lines[1]!.hint).toBe('Narrow it with pages, grep or a question, or raise "Largest result" in the app’s Settings.');
      // The summary on stderr says what to do in the same words.
      const shown = await runSift(['batch', list, '--again'], { env });
      expect(shown.stderr).toContain('raise "Largest result" in the app’s Settings.');
      expect(shown.stderr).not.toMatch(APP_ONLY);
      // The app's preview of the same download, over IPC, in the app's words.
      const s = app(dir, db);
      const err = await call(s, 'preview', { target: { url: `${big.base}/huge` } }).then(
        () => undefined,
        (e: { hint: string }) => e,
      );
      expect(err?.hint).toBe('Raise "Largest download" in Settings if you need documents this large.');
    } finally {
      await big.close();
    }
  }, 120_000);
});
