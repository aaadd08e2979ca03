import { describe, expect, it } from 'vitest';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { siftInProcess } from '../helpers/cli-main';
import { runSift } from '../helpers/cli';

const dir = mkdtempSync(path.join(tmpdir(), 'sift-cli-usage-'));
const sift = siftInProcess(dir, { HOME: dir, XDG_DATA_HOME: dir, APPDATA: dir });

describe('a negative number given to an option', () => {
  it('is refused by the option itself, saying what it accepts, with exit 2', async () => {
    for (const limit of ['-1', '-0', '-2.5']) {
      const r = await sift('search', 'words', '--limit', limit, '--db', path.join(dir, 'none.db'));
      expect(r.code, r.err).toBe(2);
      expect(r.err).toBe(`sift search: --limit takes a whole number from 1 to 1000, not "${limit}"\n`);
    }
    // No URL is fetched: the option fails before the loopback address meets the guard.
    const pages = await sift('fetch', 'http://127.0.0.1:9/', '--pages', '-1');
    expect(pages.code).toBe(2);
    // "-3" meant up to page 3: the message says how to write that.
    expect(pages.err).toBe('sift fetch: --pages: pages "-1": a range names its first page too; for page 1 write 1\n');
    const upTo = await sift('fetch', 'http://127.0.0.1:9/', '--pages', '-3');
    expect(upTo.err).toBe('sift fetch: --pages: pages "-3": a range names its first page too; for the first 3 write 1-3\n');
  });
  it('is the value of an option that takes any text: --grep -1, -q -1', async () => {
    for (const argv of [['--grep', '-1'], ['-q', '-1']]) {
      const r = await sift('fetch', 'http://127.0.0.1:9/', ...argv, '--json');
      // The guard refuses loopback (no --allow-private): the options were read, the target ran.
      expect(r.code, r.err).toBe(1);
      expect(JSON.parse(r.out)).toMatchObject({ ok: false, reason: 'blocked' });
    }
  });
});

describe('sift jobs given an argument', () => {
  it('says so once, with the command that shows one job', async () => {
    const r = await sift('jobs', '3f2a', '--db', path.join(dir, 'none.db'));
    expect(r.code).toBe(2);
    expect(r.err).toBe("sift jobs: takes no arguments (3f2a); for one job's targets: sift status ID\n");
  });
});

describe('a --grep the regular expression engine refuses', () => {
  it('is named with its problem in plain words, not in the engine’s, with exit 2', async () => {
    const cases: [string, string][] = [
      ['net (revenue', 'a ( has no ) to close it'],
      ['revenue)', 'a ) has no ( before it to open it'],
      ['[a-z', 'a [ has no ] to close it'],
      ['*.pdf', 'a *, +, ? or {n} comes where there is nothing to repeat; put a \\ before it to match the character itself'],
      ['a{5,2}', 'the numbers in a {min,max} count are the wrong way round'],
      ['[z-a]', 'a range in [...] runs backwards; write it low to high, as a-z'],
      ['net(?i)income', 'a (? is followed by what JavaScript does not take: it takes (?:, (?=, (?!, (?<=, (?<! and (?<name>, and (?i), (?m) and (?s) only at the very start'],
      ['C:\\', 'it ends in a lone \\; write \\\\ to match a backslash'],
    ];
    for (const [grep, why] of cases) {
      const r = await sift('fetch', 'http://127.0.0.1:9/', '--grep', grep);
      expect(r.code, grep).toBe(2);
      expect(r.err, grep).toBe(`sift fetch: --grep: grep "${grep}" is not a valid regular expression: ${why}\n`);
    }
  });
  it('in a list, is the line’s problem in the same words', async () => {
    writeFileSync(path.join(dir, 'grep-list.json'), JSON.stringify([{ url: 'http://127.0.0.1:9/x', options: { grep: '(' } }]));
    const json = await sift('parse', 'grep-list.json');
    expect(json.code).toBe(2);
    expect(json.err).toMatch(/^line 1: invalid: grep "\(" is not a valid regular expression: a \( has no \) to close it /);
  });
});

describe('a mistyped command or flag', () => {
  it('is named as typed, with the flag meant when it is a slip, and where the options are listed; exit 2', async () => {
    const cases: [string[], string][] = [
      [['fetch', '--jsn', 'http://127.0.0.1:9/'], 'sift fetch: unknown option --jsn; did you mean --json? (`sift fetch --help` lists its options)\n'],
      // Go-style single dash: Node's parser read it as -j -s -o -n and named "-j".
      [['fetch', '-json', 'http://127.0.0.1:9/'], 'sift fetch: unknown option -json; did you mean --json? (`sift fetch --help` lists its options)\n'],
      [['export', 'abcd', '--out', 'x', '--fromat', 'csv'], 'sift export: unknown option --fromat; did you mean --format? (`sift export --help` lists its options)\n'],
      [['jobs', '--JSON'], 'sift jobs: unknown option --JSON; did you mean --json? (`sift jobs --help` lists its options)\n'],
      [['fetch', '--bogus', 'http://127.0.0.1:9/'], 'sift fetch: unknown option --bogus (`sift fetch --help` lists its options)\n'],
      [['status', '--db'], 'sift status: --db needs a value (`sift status --help` lists its options)\n'],
      [['fetch', '-q'], 'sift fetch: --question needs a value (`sift fetch --help` lists its options)\n'],
      [['fetch', '--json=true', 'http://127.0.0.1:9/'], 'sift fetch: --json takes no value (--json=true): give --json alone\n'],
      [
        ['fetch', '--grep', '--json', 'http://127.0.0.1:9/'],
        'sift fetch: --grep needs a value, and --json after it is read as an option: give the value after --grep (one that starts with a dash as --grep=-VALUE)\n',
      ],
      [['fecth', 'http://127.0.0.1:9/'], 'sift: unknown command "fecth"; did you mean `sift fetch`? (`sift --help` lists the commands)\n'],
      [['Batch', 'list.txt'], 'sift: unknown command "Batch"; did you mean `sift batch`? (`sift --help` lists the commands)\n'],
      [['frobnicate'], 'sift: unknown command "frobnicate"; `sift --help` lists the commands\n'],
      [['--json', 'fetch', 'http://127.0.0.1:9/'], 'sift: --json goes after the command, as in `sift fetch --json …`\n'],
    ];
    for (const [argv, err] of cases) {
      const r = await sift(...argv);
      expect(r.code, argv.join(' ')).toBe(2);
      expect(r.err, argv.join(' ')).toBe(err);
      expect(r.out, argv.join(' ')).toBe('');
    }
  });
  it('sift with no command at all prints the help on stderr, not as output, exit 2; sift --help prints it on stdout, exit 0', async () => {
    const none = await sift();
    expect(none.code).toBe(2);
    expect(none.out).toBe('');
    expect(none.err).toMatch(/^sift: turn a list of URLs into clean files\n[\s\S]*usage: sift COMMAND/);
    const asked = await sift('--help');
    expect(asked.code).toBe(0);
    expect(asked.out).toBe(none.err);
    expect(asked.err).toBe('');
  });
});

describe('an argument given empty (a script\'s unset "$LIST", "$ID" or "$URL")', () => {
  it('is refused on every command, through the built CLI, with exit 2: it was read as the working folder or as a job named ""', async () => {
    const env = { SIFT_HOME: path.join(dir, 'empty-arg-home'), HOME: dir };
    const runs = [['batch', ''], ['parse', ''], ['extract', ''], ['fetch', ''], ['status', ''], ['cancel', ''], ['export', '', '--out', path.join(dir, 'empty-arg-out')], ['search', '']];
    for (const argv of runs) {
      const r = await runSift(argv, { env, cwd: dir });
      expect([r.code, r.stdout], argv.join(' ')).toEqual([2, '']);
      expect(r.stderr, argv.join(' ')).toBe(`sift ${argv[0]}: an argument is empty ("", as "$NAME" is when NAME is not set): give its value (\`sift ${argv[0]} --help\` lists its options)\n`);
    }
    expect(existsSync(path.join(dir, 'empty-arg-home')), 'the data folder').toBe(false);
  }, 120_000);
});

describe('an option given an empty value or "-" for a folder', () => {
  const appData = path.join(dir, 'app-data');
  const home = siftInProcess(dir, { HOME: dir, SIFT_HOME: appData });
  it('--db "" (a script’s unset $DB) is refused, and the app’s own database is neither made nor read', async () => {
    for (const argv of [['jobs', '--db', ''], ['status', 'abcd', '--db='], ['search', 'words', '--db', '']]) {
      const r = await home(...argv);
      expect(r.code, argv.join(' ')).toBe(2);
      expect(r.err, argv.join(' ')).toBe(`sift ${argv[0]}: --db is empty: give it a value, or leave --db out\n`);
    }
    writeFileSync(path.join(dir, 'one.txt'), 'http://127.0.0.1:9/a\n');
    const batch = await home('batch', 'one.txt', '--db', '', '--allow-private');
    expect(batch).toMatchObject({ code: 2, err: 'sift batch: --db is empty: give it a value, or leave --db out\n' });
    expect(existsSync(appData), 'the app’s data folder').toBe(false);
  });
  it('sift batch --out "" is refused before anything is fetched, not run without its export', async () => {
    const r = await home('batch', 'one.txt', '--out', '', '--db', path.join(dir, 'out-empty.db'), '--allow-private');
    expect(r).toMatchObject({ code: 2, out: '', err: 'sift batch: --out is empty: give it a value, or leave --out out\n' });
    expect(existsSync(path.join(dir, 'out-empty.db'))).toBe(false);
    const log = await home('batch', 'one.txt', '--log=', '--db', path.join(dir, 'out-empty.db'), '--allow-private');
    expect(log).toMatchObject({ code: 2, err: 'sift batch: --log is empty: give it a value, or leave --log out\n' });
  });
  it('--out - is refused: an export is files, and it made a folder named "-"', async () => {
    const why = '--out - : an export is written to files, not to stdout. Give a folder, or a .jsonl, .csv, .md or .zip file; sift batch LIST --json prints the results on stdout\n';
    const batch = await home('batch', 'one.txt', '--out', '-', '--db', path.join(dir, 'out-dash.db'), '--allow-private');
    expect(batch).toMatchObject({ code: 2, err: `sift batch: ${why}` });
    const exp = await home('export', 'abcd', '--out', '-', '--format', 'jsonl', '--db', path.join(dir, 'out-dash.db'));
    expect(exp).toMatchObject({ code: 2, err: `sift export: ${why}` });
    expect(existsSync(path.join(dir, '-'))).toBe(false);
    expect(existsSync(path.join(dir, 'out-dash.db'))).toBe(false);
  });
});

describe('sift help COMMAND', () => {
  it('prints that command’s usage, as sift COMMAND --help does, not the list of commands', async () => {
    for (const argv of [['help', 'batch'], ['--help', 'batch'], ['-h', 'batch']]) {
      const r = await sift(...argv);
      expect(r.code, argv.join(' ')).toBe(0);
      expect(r.out, argv.join(' ')).toBe((await sift('batch', '--help')).out);
      expect(r.out).toMatch(/^usage: sift batch /);
    }
  });
});

/** The field names of each object a command's --help says --json prints: the quoted names in its {…}. */
function helpJsonShapes(usage: string): string[][] {
  const from = usage.indexOf('--json');
  return [...usage.slice(from).matchAll(/\{[^{}]*\}/g)].map((m) => [...m[0].matchAll(/"(\w+)"/g)].map((k) => k[1]!));
}

describe('what each --help promises is what the command does', () => {
  it('every command says its exit codes', async () => {
    for (const cmd of ['fetch', 'extract', 'parse', 'batch', 'jobs', 'status', 'cancel', 'export', 'search']) {
      const r = await sift(cmd, '--help');
      expect(r.code, cmd).toBe(0);
      expect(r.out, cmd).toMatch(/\nexit codes: 0 /);
    }
  });

  it('every help fits a terminal 100 columns wide: search\'s --json paragraph ran to 149', async () => {
    for (const argv of [['--help'], ...['fetch', 'extract', 'parse', 'batch', 'jobs', 'status', 'cancel', 'export', 'search'].map((c) => [c, '--help'])]) {
      const r = await sift(...argv);
      const wide = r.out.split('\n').filter((line) => [...line].length > 100);
      expect(wide, argv.join(' ')).toEqual([]);
    }
  });

  it('every help, sift --help\'s and each command\'s, says exit 1 may be a bug in Sift, and that stderr names the log to report', async () => {
    // Any command's run that throws what it does not expect exits 1 (src/cli/bug.ts); the
    // commands whose help listed no 1 at all (parse, search, jobs, status) read as if it could not happen.
    for (const argv of [['--help'], ...['fetch', 'extract', 'parse', 'batch', 'jobs', 'status', 'cancel', 'export', 'search'].map((c) => [c, '--help'])]) {
      const r = await sift(...argv);
      const codes = /\nexit codes: ([\s\S]*?)(?:\n\n|$)/.exec(r.out)?.[1]?.replace(/\s+/g, ' ') ?? '';
      expect(codes, argv.join(' ')).toMatch(/\b1 [^0-9]*a bug in Sift \(stderr says so and names the log\)/);
    }
  });

  it('sift fetch and sift extract print under --json only the fields their --help names, a failure\'s reason and a result\'s warnings among them', async () => {
    const site = http.createServer((req, res) => {
      if (req.url === '/page') res.writeHead(200, { 'content-type': 'text/plain' }).end('A plain text document with a line of words in it.\n');
      else res.writeHead(404, { 'content-type': 'text/plain' }).end('no such page');
    });
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
    try {
      writeFileSync(path.join(dir, 'empty.txt'), '');
      const runs = {
        fetch: [await sift('fetch', `${base}/page`, '--json', '--allow-private'), await sift('fetch', `${base}/gone`, '--json', '--allow-private')],
        extract: [await sift('extract', 'empty.txt', 'missing.txt', '--json')],
      };
      for (const [cmd, results] of Object.entries(runs)) {
        const shapes = helpJsonShapes((await sift(cmd, '--help')).out);
        const lines = results.flatMap((r) => r.out.trim().split('\n')).map((l) => JSON.parse(l) as Record<string, unknown>);
        expect(lines.map((l) => l.ok)).toEqual([true, false]);
        for (const line of lines) {
          const keys = Object.keys(line);
          expect(shapes.some((shape) => keys.every((k) => shape.includes(k))), `${cmd}: ${keys.join(',')} in ${JSON.stringify(shapes)}`).toBe(true);
        }
        expect(lines.find((l) => l.ok === false)).toHaveProperty('reason');
      }
      expect(runs.extract[0]!.out).toContain('"warnings":["empty"]');
    } finally {
      site.close();
    }
  });
});

describe('each --help names the options its command takes, and only those', () => {
  it('--log where the command writes the log (jobs, status, cancel, export, search), --render in parse; cancel and export refuse --json, which they never printed', async () => {
    for (const cmd of ['jobs', 'status', 'cancel', 'export', 'search']) expect((await sift(cmd, '--help')).out, cmd).toContain('--log PATH');
    expect((await sift('parse', '--help')).out).toContain('--render R');
    for (const cmd of ['cancel', 'export']) {
      const r = await sift(cmd, 'abcd', '--json');
      expect(r.code, cmd).toBe(2);
      expect(r.err, cmd).toBe(`sift ${cmd}: unknown option --json (\`sift ${cmd} --help\` lists its options)\n`);
    }
  });
});

describe('a list path that cannot be read', () => {
  it('sift batch says why and what to give instead, a list file or - for stdin, before it opens a database; exit 2', async () => {
    for (const [given, why] of [
      ['no-such-list.txt', 'no such file'],
      ['.', 'is a directory'],
    ] as const) {
      const r = await sift('batch', given, '--db', path.join(dir, 'unread.db'));
      expect(r.code, given).toBe(2);
      expect(r.err, given).toBe(`sift batch: cannot read ${given}: ${why}; give the path of a list of URLs, or - to read one from stdin\n`);
    }
    expect(existsSync(path.join(dir, 'unread.db'))).toBe(false);
  });
});

describe('a command given nothing to work on', () => {
  it('sift extract with no FILE says what to give it, exit 2', async () => {
    const r = await sift('extract');
    expect(r.code).toBe(2);
    // It said "missing FILE" and nothing of what a FILE may be.
    expect(r.err).toBe('sift extract: give one or more files to read (HTML, PDF, JSON or text), or - for stdin; sift fetch URL reads a page from the web\n');
  });
});
