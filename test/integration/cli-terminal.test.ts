/**
 * `sift … -` read from a terminal or from a pipe that does not end, as a shell user meets it:
 * the real command in a real pseudo-terminal (util-linux `script`), so stdin or stderr is a TTY
 * and Ctrl-D and Ctrl-C are the terminal's own, not signals the test makes up.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startSite, type Site } from '../helpers/sites';
import { SIFT_BIN, jsonLines, runSift } from '../helpers/cli';
import { numberedPdf } from '../helpers/fetch-pdf';
import { closeTerminals, hasScript, onTerminal as onTerminalWith, quote, siftLine, type OnTerminal } from '../helpers/terminal';

let site: Site;
let home: string;
beforeAll(async () => {
  site = await startSite();
  home = mkdtempSync(path.join(os.tmpdir(), 'sift-tty-'));
  writeFileSync(path.join(home, 'settings.json'), JSON.stringify({ allowHosts: ['127.0.0.1'] }));
});
afterAll(async () => {
  closeTerminals();
  await site.close();
});

/** A shell command on a pseudo-terminal, with this file's data folder. */
const onTerminal = (command: string, term = 'xterm'): OnTerminal => onTerminalWith(command, { SIFT_HOME: home }, term);

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

describe.skipIf(!hasScript)('sift fetch --db typed at a terminal', () => {
  test('says nothing is stored there and where results are, and prints the page; piped, it says nothing', async () => {
    const db = path.join(home, 'fetched.db');
    const t = onTerminal(siftLine(`fetch ${quote(`${site.base}/article/1`)} --db ${quote(db)}`));
    expect(await t.done, t.output()).toBe(0);
    // It printed the page alone, and sift search --db later found nothing of it.
    expect(t.output()).toContain(`sift fetch: nothing is stored in --db ${db}: sift fetch prints its result; sift batch --db ${db} stores results there (a list of one URL too)`);
    const piped = await runSift(['fetch', `${site.base}/article/1`, '--db', db], { env: { SIFT_HOME: home } });
    expect(piped.code, piped.stderr).toBe(0);
    expect(piped.stderr).toBe('');
    expect(piped.stdout).not.toBe('');
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

describe.skipIf(!hasScript)("sift fetch and sift extract of a long PDF on a terminal", () => {
  /** 200 pages: each count is told as a page is read, the first and the whole drawn at once. */
  const long = numberedPdf(200, 'Long');
  let pdfSite: Site;
  beforeAll(async () => {
    pdfSite = await startSite({ '/long.pdf': (_req, res) => res.writeHead(200, { 'content-type': 'application/pdf' }).end(long) });
  });
  afterAll(async () => {
    await pdfSite.close();
  });
  const sift = siftLine;

  /** How a live line is drawn over the one before, and erased: back to the line's start, erase it. */
  const ERASE = '\r\x1b[2K';
  /** What the terminal showed after the last count: the line erased, so what follows starts clean. */
  const afterLastCount = (out: string): string => out.slice(out.lastIndexOf('reading the PDF'));

  test('sift fetch says how many pages are read on a live line, to the last, then erases it; the text goes to stdout', async () => {
    const out = path.join(home, 'fetched.txt');
    const t = onTerminal(`${sift(`fetch ${quote(`${pdfSite.base}/long.pdf`)}`)} > ${quote(out)}`);
    expect(await t.done, t.output()).toBe(0);
    expect(t.output()).toContain(`${ERASE}reading the PDF: 4 of 200 pages`);
    expect(t.output()).toContain(`${ERASE}reading the PDF: 200 of 200 pages`);
    expect(afterLastCount(t.output())).toContain(ERASE);
    expect(readFileSync(out, 'utf8')).toContain('item200');
  }, 120_000);

  test('sift extract of a PDF file says the same, with the text shown after the erased line', async () => {
    const file = path.join(home, 'long.pdf');
    writeFileSync(file, long);
    const t = onTerminal(sift(`extract ${quote(file)}`));
    expect(await t.done, t.output()).toBe(0);
    expect(t.output()).toContain(`${ERASE}reading the PDF: 200 of 200 pages`);
    const after = afterLastCount(t.output());
    expect(after.indexOf(ERASE)).toBeGreaterThan(0);
    expect(after.indexOf('item200')).toBeGreaterThan(after.indexOf(ERASE));
  }, 120_000);

  test('with --json, or on a terminal that does not redraw, or into a pipe: no count at all', async () => {
    const file = path.join(home, 'long-quiet.pdf');
    writeFileSync(file, long);
    const json = onTerminal(sift(`extract ${quote(file)} --json`));
    expect(await json.done, json.output()).toBe(0);
    expect(json.output()).not.toMatch(/reading the PDF/);
    const dumb = onTerminal(sift(`fetch ${quote(`${pdfSite.base}/long.pdf`)}`), 'dumb');
    expect(await dumb.done, dumb.output()).toBe(0);
    expect(dumb.output()).not.toMatch(/reading the PDF/);
    const piped = await runSift(['extract', file], { env: { SIFT_HOME: home } });
    expect(piped.code, piped.stderr).toBe(0);
    expect(piped.stderr).toBe('');
  }, 120_000);
});
