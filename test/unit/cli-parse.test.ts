import { execFile, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { promisify } from 'node:util';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { parseCommand } from '../../src/cli/commands/parse';
import { commands } from '../../src/cli/commands';
import { main } from '../../src/cli/main';
import type { CliIO } from '../../src/cli/io';
import { zipOf } from '../helpers/zip';

const ROOT = path.join(__dirname, '..', '..');
const FIXTURES = path.join(ROOT, 'test', 'fixtures', 'lists');

function collect(stream: PassThrough): () => string {
  let text = '';
  stream.setEncoding('utf8');
  stream.on('data', (chunk: string) => (text += chunk));
  return () => text;
}

async function runParse(args: string[], stdin = ''): Promise<{ code: number; out: string; err: string }> {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  const out = collect(stdout);
  const err = collect(stderr);
  const io: CliIO = { stdout, stderr, stdin: Readable.from([Buffer.from(stdin)]), isTTY: false, env: {}, cwd: FIXTURES };
  const code = await main(['parse', ...args], io);
  return { code, out: out(), err: err() };
}

describe('sift parse', () => {
  it('is registered as a command', async () => {
    expect(await commands.find((c) => c.name === 'parse')?.load()).toBe(parseCommand);
  });

  it('prints one JSON line per target and reports invalid lines and duplicates on stderr, exit 0', async () => {
    const r = await runParse(['options.txt']);
    expect(r.code).toBe(0);
    const lines = r.out.trimEnd().split('\n').map((l) => JSON.parse(l) as unknown);
    expect(lines).toEqual([
      { url: 'https://example.org/report.pdf', options: { pages: '1-5', grep: 'net revenue', context: true } },
      { url: 'https://api.example.org/items.json', options: { jq: '.items[] | .name' } },
      { url: 'https://example.org/post', options: { mode: 'text', question: 'what does it cost?' } },
      { url: 'https://example.org/faq', options: { question: 'say "hi"', context: false, recover: true } },
      { url: 'https://example.org/report.pdf', options: { pages: '1-5' } },
    ]);
    expect(r.err.split('\n')).toEqual([
      'line 7: invalid: unknown mode "foo": use one of markdown, text, html, raw, links, meta (https://example.org/x mode=foo)',
      'line 8: invalid: unknown option "colour": use mode, question (q), pages, grep, jq, context, recover or render (https://example.org/y colour=blue)',
      'line 9: invalid: missing scheme: did you mean https://example.com/page?',
      'line 10: duplicate of line 2',
      'line 12: invalid: option grep: missing closing " (https://example.org/z grep="unclosed)',
      '5 targets, 4 invalid, 1 duplicate (read as text)',
      '',
    ]);
  });

  it('reads stdin for -, applies option flags as list defaults, and honours --as', async () => {
    const r = await runParse(['-', '--mode', 'text', '--as', 'uri-list'], 'https://a.org/1\nhttps://a.org/2 mode=raw\n');
    expect(r.code).toBe(0);
    expect(r.out).toBe('{"url":"https://a.org/1","options":{"mode":"text"}}\n');
    expect(r.err).toMatch(/^line 2: invalid: one URL a line: this one has spaces in it/);
    const ok = await runParse(['-', '--mode', 'text'], 'https://a.org/1\nhttps://a.org/2 mode=raw\n');
    expect(ok.code).toBe(0);
    expect(ok.out).toBe(
      '{"url":"https://a.org/1","options":{"mode":"text"}}\n{"url":"https://a.org/2","options":{"mode":"raw"}}\n',
    );
  });

  it('exits 2 when the list holds no valid target', async () => {
    const r = await runParse(['-'], '# nothing here\nftp://a.org/x\n');
    expect(r.code).toBe(2);
    expect(r.out).toBe('');
    expect(r.err).toContain('line 2: invalid: not an http(s) URL: ftp://a.org/x');
  });

  it('exits 2 with the reason when the file cannot be read or the arguments are wrong', async () => {
    const missing = await runParse(['no-such-list.txt']);
    expect(missing.code).toBe(2);
    expect(missing.err).toBe('sift parse: cannot read no-such-list.txt: no such file; give the path of a list of URLs, or - to read one from stdin\n');
    expect((await runParse(['.'])).err).toBe('sift parse: cannot read .: is a directory; give the path of a list of URLs, or - to read one from stdin\n');
    // A list that never ends stops at 64 MiB instead of filling memory.
    const endless = await runParse(['/dev/zero']);
    expect(endless.code).toBe(2);
    expect(endless.err).toBe('sift parse: cannot read /dev/zero: a list of URLs over 64 MiB is more than Sift reads; split it into smaller lists\n');
    expect((await runParse([])).code).toBe(2);
    expect((await runParse(['a.txt', 'b.txt'])).code).toBe(2);
    const badFormat = await runParse(['options.txt', '--as', 'yaml']);
    expect(badFormat.code).toBe(2);
    expect(badFormat.err).toMatch(/unknown list format "yaml"/);
  });

  it('reads a UTF-16 list as Excel\'s "Unicode Text" and PowerShell\'s `>` write it', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'sift-parse-'));
    const utf8 = readFileSync(path.join(FIXTURES, 'reading.tsv'), 'utf8');
    const expected = await runParse(['reading.tsv']);
    expect(expected.out).not.toBe('');
    const le = path.join(dir, 'reading-le.tsv');
    writeFileSync(le, Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(utf8, 'utf16le')]));
    const be = path.join(dir, 'reading-be.tsv');
    writeFileSync(be, Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from(utf8, 'utf16le').swap16()]));
    const bare = path.join(dir, 'reading-nobom.tsv');
    writeFileSync(bare, Buffer.from(utf8, 'utf16le'));
    for (const file of [le, be, bare]) {
      const r = await runParse([file]);
      expect({ file, code: r.code, out: r.out }).toEqual({ file, code: 0, out: expected.out });
    }
  });

  it('reads a UTF-16 list without a mark whose titles are Russian, Greek, Arabic, Chinese or Japanese', async () => {
    // Its rule was its own: NULs on one byte of 90% of pairs, so titles in another script made it "a binary file".
    const prose = (JSON.parse(readFileSync(path.join(ROOT, 'test/fixtures/charset/utf16-prose.json'), 'utf8')) as { texts: { lang: string; text: string }[] }).texts;
    const csv = `title,url\n${prose.map(({ lang, text }) => `"${(text.split('\n')[0] ?? '').replaceAll('"', '')}",https://${lang}.example/read`).join('\n')}\n`;
    const dir = mkdtempSync(path.join(tmpdir(), 'sift-parse-'));
    const urls = prose.map(({ lang }) => `https://${lang}.example/read`);
    for (const [name, bytes] of [['titles-le.csv', Buffer.from(csv, 'utf16le')], ['titles-be.csv', Buffer.from(csv, 'utf16le').swap16()]] as const) {
      writeFileSync(path.join(dir, name), bytes);
      const r = await runParse([path.join(dir, name)]);
      expect({ name, code: r.code, err: r.err }).toEqual({ name, code: 0, err: `${urls.length} targets, 0 invalid, 0 duplicates (read as csv)\n` });
      expect(r.out.trim().split('\n').map((l) => (JSON.parse(l) as { url: string }).url)).toEqual(urls);
    }
  });

  it('counts thousands in its summary alike: 1,800 invalid beside 9,000 targets, not 1800', async () => {
    const lines = Array.from({ length: 9_000 }, (_, i) => `https://a.example/${i}${i % 5 === 0 ? `\njunk ${i}` : ''}`);
    const r = await runParse(['-'], `${lines.join('\n')}\n`);
    expect(r.err.split('\n').at(-2)).toBe('9,000 targets, 1,800 invalid, 0 duplicates (read as text)');
  });

  it('reads a list saved in windows-1252 (Excel\'s "CSV", Notepad\'s "ANSI") with its accented hosts and paths', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'sift-parse-'));
    const file = path.join(dir, 'ansi.txt');
    writeFileSync(file, Buffer.from('https://café.example/menü\nhttps://bücher.example/straße\n', 'latin1'));
    const r = await runParse([file]);
    expect({ code: r.code, err: r.err }).toEqual({ code: 0, err: '2 targets, 0 invalid, 0 duplicates (read as text)\n' });
    expect(r.out.trimEnd().split('\n').map((l) => (JSON.parse(l) as { url: string }).url)).toEqual([
      'https://xn--caf-dma.example/men%C3%BC',
      'https://xn--bcher-kva.example/stra%C3%9Fe',
    ]);
  });

  it('reads the url column of a CSV that Excel saved with semicolons in windows-1252, as it does in German or French', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'sift-parse-'));
    const file = path.join(dir, 'Leseliste.csv');
    writeFileSync(file, Buffer.from('Titel;URL;Notiz\r\nMünchen;https://de.example/München?a=1,5;gut\r\nLeer;;\r\n', 'latin1'));
    const r = await runParse([file]);
    expect(r.out).toBe('{"url":"https://de.example/M%C3%BCnchen?a=1,5"}\n');
    expect(r.err.split('\n')).toEqual(['line 3: invalid: no URL in column 2 (URL) (Leer;;)', '1 target, 1 invalid, 0 duplicates (read as csv)', '']);
  });

  it('says a file is no list when it is a PDF, an archive or binary, instead of a line per byte run', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'sift-parse-'));
    const pdf = path.join(ROOT, 'test', 'fixtures', 'pdfs', 'ArabicCIDTrueType.pdf');
    // A gzip file inside a gzip file: what the one inside is, is not read.
    writeFileSync(path.join(dir, 'sitemap.xml.gz.gz'), gzipSync(readFileSync(path.join(FIXTURES, 'sitemap.xml.gz'))));
    writeFileSync(path.join(dir, 'data.bin'), Buffer.from('https://a.org/1\n\0\0\u0001\u0002 https://a.org/2\n'));
    // An Office Open XML file starts as every zip does; an old .xls with the OLE compound file's signature.
    writeFileSync(path.join(dir, 'links.xlsx'), await zipOf({ '[Content_Types].xml': '<Types/>', 'xl/sharedStrings.xml': '<sst><si><t>https://example.org/a</t></si></sst>' }));
    writeFileSync(path.join(dir, 'notes.docx'), await zipOf({ '[Content_Types].xml': '<Types/>', 'word/document.xml': '<w:document/>' }));
    writeFileSync(path.join(dir, 'links.xls'), Buffer.concat([Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]), Buffer.alloc(60, 0)]));
    const cases: [string, RegExp][] = [
      [pdf, /^sift parse: \S+ArabicCIDTrueType\.pdf is a PDF document, not a list of URLs: sift extract \S+ reads its text/],
      [path.join(dir, 'sitemap.xml.gz.gz'), /^sift parse: \S+sitemap\.xml\.gz\.gz is a gzip file, not a list of URLs: unpack it first \(gunzip -k /],
      [path.join(dir, 'data.bin'), /^sift parse: \S+data\.bin is a binary file, not a list of URLs: give a text file of URLs/],
      // A workbook is a zip, an old one an office binary: "unpack it first" led into its XML.
      [path.join(dir, 'links.xlsx'), /^sift parse: \S+links\.xlsx is a spreadsheet workbook, not a list of URLs: save the sheet that holds the URLs as CSV /],
      [path.join(dir, 'links.xls'), /^sift parse: \S+links\.xls is a spreadsheet workbook, not a list of URLs: save the sheet/],
      [path.join(dir, 'notes.docx'), /^sift parse: \S+notes\.docx is a word-processor document, not a list of URLs: save it as a web page /],
    ];
    for (const [file, message] of cases) {
      const r = await runParse([file]);
      expect(r.code).toBe(2);
      expect(r.out).toBe('');
      expect(r.err).toMatch(message);
      expect(r.err.split('\n')).toHaveLength(2);
    }
  });

  it('reads a sitemap saved compressed (sitemap.xml.gz) as the sitemap inside, and names a damaged or oversized one', async () => {
    const plain = await runParse(['sitemap.xml']);
    const packed = await runParse(['sitemap.xml.gz']);
    expect(packed).toEqual(plain);
    expect(packed.out.trimEnd().split('\n')).toHaveLength(3);
    expect(packed.err).toMatch(/\(read as xml\)\n$/);

    const dir = mkdtempSync(path.join(tmpdir(), 'sift-parse-gz-'));
    const gz = readFileSync(path.join(FIXTURES, 'sitemap.xml.gz'));
    writeFileSync(path.join(dir, 'cut.xml.gz'), gz.subarray(0, gz.length - 20));
    // 65 MiB of URL lines packed into a few hundred KiB: unpacked no further than the 64 MiB a list may have.
    writeFileSync(path.join(dir, 'huge.txt.gz'), gzipSync(Buffer.from('https://a.example/x\n'.repeat(65 * 1024 * 52))));
    const cut = await runParse([path.join(dir, 'cut.xml.gz')]);
    expect([cut.code, cut.out]).toEqual([2, '']);
    expect(cut.err).toMatch(/^sift parse: cannot read \S+cut\.xml\.gz: it is a damaged gzip file \(it ends early, or is no gzip inside\); download it again\n$/);
    const huge = await runParse([path.join(dir, 'huge.txt.gz')]);
    expect([huge.code, huge.out]).toEqual([2, '']);
    expect(huge.err).toMatch(/^sift parse: cannot read \S+huge\.txt\.gz: it unpacks to more than 64 MiB, more than Sift reads as a list of URLs; unpack it \(gunzip -k \S+\) and split the list inside into smaller lists\n$/);
  });

  it('escapes control characters when it quotes an invalid line', async () => {
    const r = await runParse(['-'], 'https://a.org/ok\n\u001b]0;owned\u0007\b\u001b[2J\n');
    expect(r.err).toContain('line 2: invalid: not a URL (\\x1b]0;owned\\x07\\x08\\x1b[2J)\n');
    expect([...r.err].filter((c) => c < ' ' && c !== '\n')).toEqual([]);
  });

  it('reads a list whose lines end in a lone CR (classic Mac OS, Excel for Mac\'s "CSV (Macintosh)") line by line', async () => {
    const text = await runParse(['-'], 'https://a.example/1\rhttps://a.example/2 mode=text\r\rnot a url\rhttps://a.example/1\r');
    expect(text.out.trimEnd().split('\n').map((l) => JSON.parse(l) as unknown)).toEqual([
      { url: 'https://a.example/1' },
      { url: 'https://a.example/2', options: { mode: 'text' } },
    ]);
    expect(text.err.split('\n')).toEqual([
      'line 4: invalid: not a URL (not a url)',
      'line 5: duplicate of line 1',
      '2 targets, 1 invalid, 1 duplicate (read as text)',
      '',
    ]);
    const csv = await runParse(['-', '--as', 'csv'], 'title,url\rA,https://a.example/\rB,nope\rC,https://a.example/\r');
    expect(csv.err.split('\n')).toEqual([
      'line 3: invalid: not a URL (B,nope)',
      'line 4: duplicate of line 2',
      '1 target, 1 invalid, 1 duplicate (read as csv)',
      '',
    ]);
  });

  it('reports a CSV URL cell left open over the next rows on one line, with the quote to close', async () => {
    const r = await runParse(['-', '--as', 'csv'], 'url,title\n"https://a.example/1\nhttps://b.example/2",x\n');
    expect(r.code).toBe(2);
    expect(r.out).toBe('');
    expect(r.err.split('\n')).toEqual([
      'line 2: invalid: the URL cell runs over several lines: close the quote (") it opens with, or put one URL in each cell (https://a.example/1\\x0ahttps://b.example/2,x)',
      '0 targets, 1 invalid, 0 duplicates (read as csv)',
      '',
    ]);
  });

  it('reads the rows after a CSV quote that is never closed, and says which line opens it', async () => {
    const r = await runParse(['-', '--as', 'csv'], 'url,title\n"https://a.example/1,oops\nhttps://b.example/2,B\nhttps://c.example/3,C\n');
    expect(r.out).toBe('{"url":"https://b.example/2"}\n{"url":"https://c.example/3"}\n');
    expect(r.err.split('\n')).toEqual([
      'line 2: invalid: the quote (") before the URL is never closed: close it after the URL, or remove it ("https://a.example/1,oops)',
      '2 targets, 1 invalid, 0 duplicates (read as csv)',
      '',
    ]);
  });

  it('runs as a child process through bin/sift.cjs', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'sift-parse-'));
    const file = path.join(dir, 'sheet.csv');
    writeFileSync(file, 'name,URL,q\r\n"Report, Q3",https://Example.org:443/q3.pdf#p,"what, exactly?"\r\nx,mailto:a@b.org,\r\n');
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [path.join(ROOT, 'bin', 'sift.cjs'), 'parse', file], {
      cwd: ROOT,
    });
    expect(stdout).toBe('{"url":"https://example.org/q3.pdf","options":{"question":"what, exactly?"}}\n');
    expect(stderr).toContain('line 3: invalid: not an http(s) URL: mailto:a@b.org');
  });

  it('names stdin as stdin when a piped list is too long, not as "-"', async () => {
    // `yes URL | sift parse -`: a producer that would never stop, cut at the list limit.
    const child = spawn(process.execPath, [path.join(ROOT, 'bin', 'sift.cjs'), 'parse', '-'], { cwd: ROOT, stdio: ['pipe', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    // sift stops reading at the limit and exits; the rest of this write then fails with EPIPE.
    child.stdin.on('error', () => {});
    child.stdin.end(Buffer.alloc(65 * 1024 * 1024, 'https://a.example/\n'));
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(code).toBe(2);
    expect(stderr).toBe('sift parse: cannot read stdin: a list of URLs over 64 MiB is more than Sift reads; split it into smaller lists\n');
  });
});
