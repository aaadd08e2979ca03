/**
 * A log, a terminal's capture and a man page rendered for a terminal, as their words: through
 * `sift extract FILE` and `sift batch` against a loopback server that sends them as
 * text/plain. A coloured log came back with its escape sequences in the text, so grep for
 * 'module left-pad' matched nothing in 'module ESC[1mleft-pad'.
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

let srv: TestServer;
beforeAll(async () => {
  writeFileSync(path.join(dir, 'colours.log'), colours);
  srv = await startServer({
    '/colours.log': (_q, r) => r.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' }).end(colours),
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
