/**
 * `sift … -` read from a terminal or from a pipe that does not end, as a shell user meets it:
 * the real command in a real pseudo-terminal (util-linux `script`), so stdin or stderr is a TTY
 * and Ctrl-D and Ctrl-C are the terminal's own, not signals the test makes up.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startSite, type Site } from '../helpers/sites';
import { SIFT_BIN, jsonLines, runSift } from '../helpers/cli';

const hasScript = spawnSync('script', ['--version']).status === 0;

let site: Site;
let home: string;
/** Terminals still open when the tests end (a failed test's): closed, which hangs up what runs on them. */
const terminals = new Set<ChildProcess>();
beforeAll(async () => {
  site = await startSite();
  home = mkdtempSync(path.join(os.tmpdir(), 'sift-tty-'));
  writeFileSync(path.join(home, 'settings.json'), JSON.stringify({ allowHosts: ['127.0.0.1'] }));
});
afterAll(async () => {
  for (const child of terminals) child.kill();
  await site.close();
});

const quote = (s: string): string => `'${s.replace(/'/g, `'\\''`)}'`;

/**
 * A shell command run on a pseudo-terminal: what it prints on the terminal arrives on
 * `output`, what is written to `keys` is typed on it. Resolves with the command's exit code.
 */
function onTerminal(command: string, term = 'xterm'): { child: ChildProcess; output: () => string; seen: (re: RegExp) => Promise<void>; done: Promise<number | null> } {
  const child = spawn('script', ['-qefc', command, '/dev/null'], { env: { ...process.env, SIFT_HOME: home, TERM: term }, stdio: ['pipe', 'pipe', 'pipe'] });
  terminals.add(child);
  let out = '';
  const waiters: { re: RegExp; resolve: () => void }[] = [];
  child.stdout!.setEncoding('utf8').on('data', (d: string) => {
    out += d;
    for (const w of waiters.filter((w) => w.re.test(out))) {
      waiters.splice(waiters.indexOf(w), 1);
      w.resolve();
    }
  });
  const done = new Promise<number | null>((resolve) =>
    child.on('close', (code) => {
      terminals.delete(child);
      resolve(code);
    }),
  );
  const seen = (re: RegExp): Promise<void> =>
    re.test(out)
      ? Promise.resolve()
      : Promise.race([
          new Promise<void>((resolve) => waiters.push({ re, resolve })),
          done.then(() => {
            throw new Error(`ended without printing ${re}: ${out.slice(-2000)}`);
          }),
        ]);
  return { child, output: () => out, seen, done };
}

describe.skipIf(!hasScript)('sift reading - on a terminal', () => {
  test('sift batch - with nothing piped says how to end the list, and runs what was typed once Ctrl-D ends it', async () => {
    const db = path.join(home, 'typed.db');
    const t = onTerminal(`${quote(process.execPath)} ${quote(SIFT_BIN)} batch - --db ${quote(db)}`);
    // Before: nothing at all, sift waiting for a list the user did not know to type.
    await t.seen(/sift batch: reading the list from the terminal; end it with Ctrl-D/);
    t.child.stdin!.write(`${site.base}/article/1\n\x04`);
    expect(await t.done, t.output()).toBe(0);
    expect(t.output()).toMatch(/job [0-9a-f]+/);
    const jobs = await runSift(['jobs', '--json', '--db', db], { env: { SIFT_HOME: home } });
    expect(jobs.stdout).toMatch(/"status":"done".*"targetsTotal":1/);
  }, 120_000);

  test('a list piped from a command that never ends: sift says it waits for the end, and Ctrl-C stops the wait, exit 130, nothing submitted', async () => {
    const db = path.join(home, 'endless.db');
    const list = path.join(home, 'endless.txt');
    writeFileSync(list, `${site.base}/article/1\n`);
    // tail -f never ends its output: the list is read whole before anything runs, so sift waits.
    const t = onTerminal(`tail -f ${quote(list)} | ${quote(process.execPath)} ${quote(SIFT_BIN)} batch - --db ${quote(db)}`);
    await t.seen(/sift batch: waiting for the end of the list on stdin \(1 line so far\)/);
    // Ctrl-C as the terminal sends it, to the whole pipeline. Before, sift ignored it and
    // waited on: only a second Ctrl-C ended it.
    t.child.stdin!.write('\x03');
    expect(await t.done, t.output()).toBe(130);
    expect(t.output()).toMatch(/sift batch: interrupted while reading the list; nothing was submitted/);
    const jobs = await runSift(['jobs', '--json', '--db', db], { env: { SIFT_HOME: home } });
    expect(jobs.stdout).toBe('');
  }, 120_000);
});

describe.skipIf(!hasScript)('sift batch progress on a terminal', () => {
  const batch = (db: string): string => {
    const list = path.join(home, 'progress.txt');
    writeFileSync(list, `${site.base}/article/1\n${site.base}/article/2\n`);
    return `${quote(process.execPath)} ${quote(SIFT_BIN)} batch ${quote(list)} --db ${quote(db)}`;
  };

  test('a terminal that redraws gets the live line, drawn with \\r and an erase', async () => {
    const t = onTerminal(batch(path.join(home, 'xterm.db')));
    expect(await t.done, t.output()).toBe(0);
    expect(t.output()).toContain('\r\x1b[2K');
  }, 120_000);

  test("a long PDF's pages read show on the live line as it is read, and Ctrl-C then stops it at once, stored as stopped mid-way", async () => {
    const book = await startSite({ '/book.pdf': (_req, res) => res.writeHead(200, { 'content-type': 'application/pdf' }).end(readFileSync(path.join(__dirname, '../fixtures/pdfs/freeculture.pdf'))) });
    try {
      const list = path.join(home, 'book.txt');
      writeFileSync(list, `${book.base}/book.pdf\n`);
      const db = path.join(home, 'book.db');
      const t = onTerminal(`${quote(process.execPath)} ${quote(SIFT_BIN)} batch ${quote(list)} --db ${quote(db)}`);
      await t.seen(/#1 reading the PDF: \d+ of 352 pages/);
      t.child.stdin!.write('\x03');
      expect(await t.done, t.output()).toBe(130);
      expect(t.output()).toMatch(/cancelled: 0\/1 · ok 0 · failed 0 · stopped mid-way 1/);
      const status = await runSift(['status', '--db', db, '--json', (/job (\S+)/.exec(t.output()) ?? [])[1] ?? ''], { env: { SIFT_HOME: home } });
      expect(jsonLines(status.stdout)[1]).toMatchObject({ status: 'failed', error: 'cancelled', reason: 'cancelled' });
    } finally {
      await book.close();
    }
  }, 120_000);

  test('TERM=dumb gets a plain line per target and no escape codes, as a log does', async () => {
    const t = onTerminal(batch(path.join(home, 'dumb.db')), 'dumb');
    expect(await t.done, t.output()).toBe(0);
    expect(t.output()).toMatch(/\[1\/2\] #1 ok/);
    expect(t.output()).not.toContain('\x1b');
  }, 120_000);
});
