/**
 * A log, a terminal's capture and a man page rendered for a terminal, as their words: through
 * `sift extract FILE` and `sift batch` against a loopback server that sends them as
 * text/plain. A coloured log came back with its escape sequences in the text, so grep for
 * 'module left-pad' matched nothing in 'module ESC[1mleft-pad'; a shell session's capture and
 * a man page, with 4 or more backspaces or BELs among their text, were refused as binary.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { jsonLines, runSift } from '../helpers/cli';
import { startServer, type TestServer } from '../helpers/fetch-server';

const dir = mkdtempSync(path.join(tmpdir(), 'sift-cli-log-'));
const env = { HOME: dir, XDG_DATA_HOME: dir, APPDATA: dir };
const sift = (...args: string[]) => runSift(args, { env, cwd: dir });
const fixture = (name: string): Buffer => readFileSync(path.join(__dirname, '../fixtures/terminal', name));

/** script(1)'s capture of ls, grep and printf in colour (test/fixtures/terminal/README.md). */
const colours = fixture('colours.log');
const coloursText = [
  `Script started on 2026-12-07 14:18:06+00:00 [COMMAND="ls --color=always; grep --color=always -n log src/index.js; printf '\\033[1;31merror\\033[0m: could not find module \\033[1mleft-pad\\033[0m\\n'" <not executed on terminal>]`,
  'package.json  src\r',
  '1:console.log(1)\r',
  'error: could not find module left-pad\r',
  '',
  'Script done on 2026-12-07 14:18:06+00:00 [COMMAND_EXIT_CODE="0"]',
  '',
].join('\n');

/** script(1)'s capture of an interactive shell whose prompt sets the window title (OSC … BEL), and a spinner drawn with backspaces. */
const session = fixture('session.log');
/**
 * What the terminal showed of some lines (the spinner's last frame is '\\', two characters, which 'done' strikes over but one),
 * the prompt's title gone, each line's CRLF kept. A command past 80 columns is one line, as readline's wrap wrote it.
 */
const sessionLines = [
  '# ls --color=always\r',
  'package.json  src\r',
  '1:console.log(1)\r',
  'building \\done\r',
  'error: could not find module left-pad\r',
  `# printf 'building  '; for s in '|' '/' '-' '\\\\'; do printf '\\b%s' "$s"; done; printf '\\bdone\\n'\r`,
];
/** A man page rendered for a terminal by nroff: bold struck over itself, underline '_' struck by the letter. */
const man = fixture('sift-notes.1.txt');
const manText = [
  'SIFT-NOTES(1)                    User Commands                   SIFT-NOTES(1)',
  '',
  '',
  '',
  'NAME',
  '       sift-notes - keep notes on the pages a job fetched',
  '',
  'SYNOPSIS',
  '       sift-notes [OPTIONS] JOB',
  '',
  'DESCRIPTION',
  '       sift-notes writes a note beside each page of JOB, so a reader finds why',
  '       the page was kept. Each note is plain text.',
  '',
  'OPTIONS',
  '       -o, --out=DIR',
  '              write the notes into DIR instead of the current folder.',
  '',
  '       -q     say nothing while working.',
  '',
  '',
  '',
  'sift                             December 2026                   SIFT-NOTES(1)',
  '',
].join('\n');
/** git clone --progress's stderr: each count's frames, a CR before the next, as a terminal draws them in place. */
const gitClone = fixture('git-clone.log');
const gitCloneText = [
  "Cloning into 'clone'...",
  'remote: Enumerating objects: 202, done.        ',
  'remote: Counting objects: 100% (202/202), done.',
  'remote: Compressing objects: 100% (2/2), done.',
  'Receiving objects: 100% (202/202), 8.16 KiB | 245.00 KiB/s, done.',
  'remote: Total 202 (delta 0), reused 0 (delta 0), pack-reused 0        ',
  '',
].join('\n');
/** curl's progress meter: its frames the full width, the first two drawn again after a CR at the line's start. */
const curl = fixture('curl.log');
const curlLast = '100 28.6M  100 28.6M    0     0  10.3M      0  0:00:02  0:00:02 --:--:-- 10.3M';
/** cli-progress's bar in a terminal's capture: each frame sent to the first column by ESC [1G, not a CR. */
const cliProgress = fixture('cli-progress.log');
const cliProgressLast = ` ${'█'.repeat(40)} 100% | ETA: 0s | 200/200`;
const cliProgressText = `${cliProgressLast}\r\ndone\r\n`;
/** A Mac's text before OS X, whose lines end in CR alone, and a Windows one in CRLF. */
const mac = 'Notes\rFirst line\rSecond line\r';
const windows = 'Notes\r\nFirst line\r\nSecond line\r\n';
/**
 * A CSV from Excel on a Mac (2011 writes CR after each row) whose cells hold a line break, a LF: more CRs than LFs, as
 * tqdm's frames are too.
 */
const macCsv = 'Name,Address,Phone\rAlice Martin,"12 Rue de la Paix\n75002 Paris",01 42 00 00 00\rBob Stone,"1 Main St\nSpringfield",555-0100\r';
/** tqdm's bar written to a file: 42 frames, each after a CR, and a LF after the last. */
const tqdm = fixture('tqdm.log');
const tqdmLast = `train: 100%|${'█'.repeat(10)}| 40/40 [00:00<00:00, 479.35it/s]\n`;
// eslint-disable-next-line no-control-regex -- the controls are what is looked for
const CONTROLS = /[\x01-\x08\x0b\x0e-\x1f]/;

let srv: TestServer;
beforeAll(async () => {
  writeFileSync(path.join(dir, 'colours.log'), colours);
  writeFileSync(path.join(dir, 'session.log'), session);
  writeFileSync(path.join(dir, 'sift-notes.1.txt'), man);
  writeFileSync(path.join(dir, 'git-clone.log'), gitClone);
  writeFileSync(path.join(dir, 'mac.txt'), mac);
  writeFileSync(path.join(dir, 'mac.csv'), macCsv);
  writeFileSync(path.join(dir, 'tqdm.log'), tqdm);
  writeFileSync(path.join(dir, 'cli-progress.log'), cliProgress);
  srv = await startServer({
    '/colours.log': (_q, r) => r.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' }).end(colours),
    '/session.log': (_q, r) => r.writeHead(200, { 'content-type': 'text/plain' }).end(session),
    '/sift-notes.1.txt': (_q, r) => r.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' }).end(man),
    // No type at all: the bytes decide, as for stdin.
    '/session': (_q, r) => r.end(session),
    // Controls with no text among them: 64 BELs are valid UTF-8, as a log is.
    '/bells.log': (_q, r) => r.writeHead(200, { 'content-type': 'text/plain' }).end(Buffer.alloc(64, 7)),
    '/bells.bin': (_q, r) => r.writeHead(200, { 'content-type': 'application/octet-stream' }).end(Buffer.alloc(64, 7)),
    '/git-clone.log': (_q, r) => r.writeHead(200, { 'content-type': 'text/plain' }).end(gitClone),
    '/curl.log': (_q, r) => r.end(curl),
    '/mac.txt': (_q, r) => r.writeHead(200, { 'content-type': 'text/plain' }).end(mac),
    '/windows.txt': (_q, r) => r.writeHead(200, { 'content-type': 'text/plain' }).end(windows),
    '/mac.csv': (_q, r) => r.writeHead(200, { 'content-type': 'text/csv' }).end(macCsv),
    '/tqdm.log': (_q, r) => r.end(tqdm),
    '/cli-progress.log': (_q, r) => r.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' }).end(cliProgress),
  });
});
afterAll(async () => {
  await srv.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('a log in colour', () => {
  it('sift extract FILE gives its words without the escape sequences, and grep finds them', async () => {
    expect(await sift('extract', 'colours.log', '--mode', 'text')).toMatchObject({ code: 0, stdout: coloursText, stderr: '' });
    expect(await sift('extract', 'colours.log', '--grep', 'module left-pad')).toMatchObject({ code: 0, stdout: 'error: could not find module left-pad\n', stderr: '' });
  });
  it('sift batch gives its words in text and markdown, and its bytes as sent in raw', async () => {
    const url = `${srv.origin}/colours.log`;
    writeFileSync(path.join(dir, 'colours.txt'), [`${url} mode=text`, url, `${url} mode=raw`].join('\n'));
    const r = await sift('batch', 'colours.txt', '--json', '--allow-private', '--db', path.join(dir, 'colours.db'));
    expect(r.code, r.stderr).toBe(0);
    expect(jsonLines(r.stdout)).toMatchObject([
      { ok: true, content: coloursText },
      { ok: true, content: coloursText },
      { ok: true, content: colours.toString('utf8') },
    ]);
  }, 120_000);
});

describe("a shell session's capture and a man page, among backspaces and BELs", () => {
  it('sift extract FILE and - give what the terminal showed', async () => {
    const r = await sift('extract', 'session.log', '--mode', 'text');
    expect(r).toMatchObject({ code: 0, stderr: '' });
    for (const line of sessionLines) expect(r.stdout.split('\n')).toContain(line);
    expect(r.stdout).not.toContain('build: app');
    expect(r.stdout).not.toMatch(CONTROLS);
    expect(await runSift(['extract', '-', '--mode', 'text'], { env, cwd: dir, input: session })).toMatchObject({ code: 0, stdout: r.stdout, stderr: '' });
    expect(await sift('extract', 'sift-notes.1.txt', '--mode', 'text')).toMatchObject({ code: 0, stdout: manText, stderr: '' });
    expect(await sift('extract', 'sift-notes.1.txt', '--grep', 'OPTIONS')).toMatchObject({ code: 0, stdout: '       sift-notes [OPTIONS] JOB\nOPTIONS\n', stderr: '' });
  });
  it('sift batch gives their text under text/plain or no type', async () => {
    const urls = ['/session.log', '/session', '/sift-notes.1.txt'].map((p) => `${srv.origin}${p}`);
    writeFileSync(path.join(dir, 'terminal.txt'), urls.map((u) => `${u} mode=text`).join('\n'));
    const r = await sift('batch', 'terminal.txt', '--json', '--allow-private', '--db', path.join(dir, 'terminal.db'));
    expect(r.code, r.stderr).toBe(0);
    const lines = jsonLines(r.stdout);
    expect(lines.map((l) => l.url)).toEqual(urls);
    for (const l of lines.slice(0, 2)) {
      expect(l, String(l.url)).toMatchObject({ ok: true });
      for (const line of sessionLines) expect(String(l.content).split('\n'), String(l.url)).toContain(line);
      expect(String(l.content)).not.toMatch(CONTROLS);
    }
    expect(lines[2]).toMatchObject({ ok: true, content: manText });
  }, 120_000);
});

describe('a progress bar drawn with carriage returns', () => {
  it('sift extract FILE gives the last frame of each line, and grep finds it alone', async () => {
    expect(await sift('extract', 'git-clone.log', '--mode', 'text')).toMatchObject({ code: 0, stdout: gitCloneText, stderr: '' });
    expect(await sift('extract', 'git-clone.log', '--grep', 'Receiving objects')).toMatchObject({
      code: 0,
      stdout: 'Receiving objects: 100% (202/202), 8.16 KiB | 245.00 KiB/s, done.\n',
      stderr: '',
    });
    // A CR alone ends a line where no LF does: the Mac's text is as it was.
    expect(await sift('extract', 'mac.txt', '--mode', 'text')).toMatchObject({ code: 0, stdout: `${mac}\n`, stderr: '' });
  });
  it('sift batch gives the last frames in text and markdown, the bytes in raw, and CR and CRLF line ends as they were', async () => {
    const urls = ['/git-clone.log', '/curl.log', '/mac.txt', '/windows.txt'].map((p) => `${srv.origin}${p}`);
    const [git, curlUrl, macUrl, windowsUrl] = urls as [string, string, string, string];
    writeFileSync(path.join(dir, 'progress.txt'), [`${git} mode=text`, git, `${git} mode=raw`, `${curlUrl} mode=text`, `${macUrl} mode=text`, `${windowsUrl} mode=text`].join('\n'));
    const r = await sift('batch', 'progress.txt', '--json', '--allow-private', '--db', path.join(dir, 'progress.db'));
    expect(r.code, r.stderr).toBe(0);
    const lines = jsonLines(r.stdout);
    expect(lines).toMatchObject([
      { ok: true, content: gitCloneText },
      { ok: true, content: gitCloneText },
      { ok: true, content: gitClone.toString('utf8') },
      { ok: true },
      { ok: true, content: mac },
      { ok: true, content: windows },
    ]);
    expect(String(lines[3]?.content).split('\n')).toEqual([...curl.toString('utf8').split('\n').slice(0, 2), curlLast, '']);
  }, 120_000);
});

describe('a progress bar drawn with moves to the first column', () => {
  it('sift extract FILE and sift batch give its last frame, and grep finds it alone', async () => {
    expect(await sift('extract', 'cli-progress.log', '--mode', 'text')).toMatchObject({ code: 0, stdout: cliProgressText, stderr: '' });
    expect(await sift('extract', 'cli-progress.log', '--grep', 'ETA')).toMatchObject({ code: 0, stdout: `${cliProgressLast}\n`, stderr: '' });
    const url = `${srv.origin}/cli-progress.log`;
    writeFileSync(path.join(dir, 'cli-progress.txt'), `${url} mode=text`);
    const r = await sift('batch', 'cli-progress.txt', '--json', '--allow-private', '--db', path.join(dir, 'cli-progress.db'));
    expect(r.code, r.stderr).toBe(0);
    expect(jsonLines(r.stdout)).toMatchObject([{ ok: true, content: cliProgressText }]);
  }, 120_000);
});

describe('a Mac text with a LF in it, beside frames with one LF', () => {
  it("sift extract FILE keeps the text's lines and gives the bar's last frame", async () => {
    expect(await sift('extract', 'mac.csv', '--mode', 'text')).toMatchObject({ code: 0, stdout: `${macCsv}\n`, stderr: '' });
    expect(await sift('extract', 'tqdm.log', '--mode', 'text')).toMatchObject({ code: 0, stdout: tqdmLast, stderr: '' });
  });
  it('sift batch does, sent as text/csv or with no type', async () => {
    const urls = ['/mac.csv', '/tqdm.log'].map((p) => `${srv.origin}${p}`);
    writeFileSync(path.join(dir, 'mac-list.txt'), [...urls.map((u) => `${u} mode=text`), `${urls[0]} mode=markdown`].join('\n'));
    const r = await sift('batch', 'mac-list.txt', '--json', '--allow-private', '--db', path.join(dir, 'mac.db'));
    expect(r.code, r.stderr).toBe(0);
    expect(jsonLines(r.stdout)).toMatchObject([
      { ok: true, content: macCsv },
      { ok: true, content: tqdmLast },
      { ok: true, content: macCsv },
    ]);
  }, 120_000);
});

describe('controls with no text among them', () => {
  it('sift batch refuses them as binary, sent as text/plain or application/octet-stream', async () => {
    const urls = ['/bells.log', '/bells.bin'].map((p) => `${srv.origin}${p}`);
    writeFileSync(path.join(dir, 'bells.txt'), urls.map((u) => `${u} mode=text`).join('\n'));
    const r = await sift('batch', 'bells.txt', '--json', '--allow-private', '--db', path.join(dir, 'bells.db'));
    expect(r.code, r.stderr).toBe(1);
    expect(jsonLines(r.stdout)).toMatchObject([
      { ok: false, status: 415, reason: 'unsupported', error: 'unsupported: binary data (control bytes) labelled text/plain' },
      { ok: false, status: 415, reason: 'unsupported', error: 'unsupported: application/octet-stream' },
    ]);
  }, 120_000);
});
