import { afterAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { answer, classify, createFetcher, decodeText, FetchError, parsePages, splitPassages } from '../../src/main/fetch';
import { bombPdf, lzwBombPdf, makePdf, numberedPdf } from '../helpers/fetch-pdf';
import { fail } from '../helpers/fetch-server';
import { TOKYO_PASSAGES } from '../helpers/cjk-passages';
import type { Options } from '../../src/shared/types';

// The deadline is not what most of these tests are about: a 300 MiB inflate or a 60,000-word
// question took over 6 s on a 2-core machine kept busy by other work, and failed as a timeout.
const f = createFetcher({ deadlineMs: 60_000 });
// The runaway tests wait for the deadline itself: a short one.
const runaway = createFetcher({ deadlineMs: 6000 });
afterAll(() => Promise.all([f.close(), runaway.close()]));

describe('PDF documents', () => {
  it('fails an encrypted PDF with 422 and says it needs a password', async () => {
    const e = await fail(f.extractBuffer(makePdf({ pages: [['secret']], encrypted: true }), 'application/pdf', {}));
    expect(e.status).toBe(422);
    expect(e.msg).toMatch(/^encrypted PDF/);
  });
  it("names sift extract in an encrypted PDF's hint on the command line only: the app has no such command", async () => {
    const locked = makePdf({ pages: [['secret']], encrypted: true });
    // sift extract and sift fetch run as cli, sift batch's fetches as cli/batch.
    for (const name of ['cli', 'cli/batch']) {
      const cli = await fail(f.extractBuffer(locked, 'application/pdf', {}, { caller: { name } }));
      expect(cli.hint).toMatch(/copy without the password.*sift extract/);
    }
    // The app's preview runs as desktop, its jobs as desktop/batch.
    for (const name of ['desktop', 'desktop/batch']) {
      const app = await fail(f.extractBuffer(locked, 'application/pdf', {}, { caller: { name } }));
      expect(app.msg).toMatch(/^encrypted PDF/);
      expect(app.hint).not.toMatch(/\bsift [a-z]|command/);
      expect(app.hint).toMatch(/PDF reader/);
    }
  });
  it('fails a malformed PDF with 422', async () => {
    const e = await fail(f.extractBuffer(Buffer.from('%PDF-1.7\nthis is not a pdf at all\n'), 'application/pdf', {}));
    expect(e.status).toBe(422);
    expect(e.msg).toMatch(/^malformed PDF/);
    const typed = await fail(f.extractBuffer(Buffer.from('plain words'), 'application/pdf', {}));
    expect(typed.status).toBe(422);
  });
  it('says a PDF that stops before its end is cut short, and what to do', async () => {
    const whole = makePdf({ pages: Array.from({ length: 10 }, (_, i) => [`Page ${i + 1} of a report that a download cut short.`]) });
    const e = await fail(f.extractBuffer(whole.subarray(0, 1500), 'application/pdf', {}));
    expect(e.status).toBe(422);
    // pdf.js's own words ("Invalid PDF structure.") went on after these: in the log line only.
    expect(e.msg).toBe('malformed PDF: cut short after 1,500 bytes (its end, %%EOF, is missing)');
    expect(e.detail).toBeTruthy();
    expect(e.hint).toMatch(/download the file again/);
    // Damaged, not cut short: the general words.
    const damaged = await fail(f.extractBuffer(Buffer.from('%PDF-1.7\nthis is not a pdf at all\n%%EOF\n'), 'application/pdf', {}));
    expect(damaged.msg).not.toMatch(/cut short/);
  });
  it("gives a filled form's values, which only its fields hold, and not a hidden field's", async () => {
    const r = await f.extractBuffer(readFileSync(path.join(__dirname, '../fixtures/pdfs/filled-form.pdf')), 'application/pdf', { mode: 'text' });
    for (const text of ['Name:', 'City:', 'Ada Lovelace', 'London', 'Prefers mornings.\nBring the engine notes.']) expect(r.content).toContain(text);
    expect(r.content).not.toContain('hidden-clerk-code');
  });
  it("gives the text typed onto a page with a text box (a viewer's Add text), on its line, and not a hidden box's", async () => {
    const pdf = makePdf({
      pages: [['Applicant name:', '', 'Signed:'], ['Page two.']],
      textBoxes: [
        [
          { x: 200, y: 735, text: 'Ada Lovelace' },
          { x: 200, y: 703, text: 'A. Lovelace', drawn: false },
          { x: 200, y: 600, text: 'clerk-only-note', hidden: true },
        ],
        [{ x: 200, y: 600, text: 'Initialled on page two' }],
      ],
    });
    // The names were missing: "Applicant name:" and "Signed:" alone, where pdftotext gives them.
    const r = await f.extractBuffer(pdf, 'application/pdf', { mode: 'text' });
    expect(r.content).toContain('Applicant name: Ada Lovelace');
    expect(r.content).toContain('Signed: A. Lovelace');
    expect(r.content).toContain('Initialled on page two');
    expect(r.content).not.toContain('clerk-only-note');
    // A page chosen alone has its own boxes, and only those.
    const two = await f.extractBuffer(pdf, 'application/pdf', { mode: 'text', pages: '2' });
    expect(two.content).toContain('Initialled on page two');
    expect(two.content).not.toContain('Ada Lovelace');
  });
  it('reads the pages of a PDF around a damaged one, names the damaged one, and fails a PDF whose every chosen page is damaged', async () => {
    const whole = makePdf({ pages: [['The first page reads.'], ['The second page.'], ['The third page reads.']] }).toString('latin1');
    // Page 2's entry in the page tree points at a content stream, not a page (same length: the xref stays right).
    const kids = /\/Kids \[(\d+) 0 R (\d+) 0 R/.exec(whole)!;
    const pdf = Buffer.from(whole.replace(kids[0], `/Kids [${kids[1]} 0 R ${Number(kids[2]) - 1} 0 R`), 'latin1');
    // The whole document failed, "malformed PDF: Page dictionary kid reference points to wrong type of object."
    const r = await f.extractBuffer(pdf, 'application/pdf', { mode: 'text' });
    expect(r.content).toContain('The first page reads.');
    expect(r.meta).toMatchObject({ pages_failed: [2], warnings: ['damaged_pages'] });
    expect(r.meta?.pages_no_text).toBeUndefined();
    const e = await fail(f.extractBuffer(pdf, 'application/pdf', { pages: '2' }));
    expect(e).toMatchObject({ status: 422, code: 'bad_document' });
    expect(e.msg).toMatch(/^malformed PDF: no page could be read: /);
  });
  it('says in a hint when a PDF has no text layer', async () => {
    const r = await f.extractBuffer(makePdf({ pages: [[], []], noText: true }), 'application/pdf', {});
    expect(r.content).toBe('');
    expect(r.meta).toMatchObject({ text_layer: false, pages_total: 2 });
    expect(String(r.meta?.hint)).toMatch(/OCR/);
  });
  it("lists a PDF's links from its link annotations, whole where the printed address breaks at a line end", async () => {
    const pdf = makePdf({
      pages: [
        ['As shown in https://doi.org/10', '.1115/1.4042912 and at https://example.org/plain.'],
        ['A link with no address printed.'],
      ],
      links: [['https://doi.org/10.1115/1.4042912'], ['https://example.org/hidden']],
    });
    const r = await f.extractBuffer(pdf, 'application/pdf', { mode: 'links' });
    expect(r.content).toBe(['https://doi.org/10.1115/1.4042912', 'https://example.org/plain', 'https://example.org/hidden'].join('\n'));
    expect(r.meta).toMatchObject({ links: 3 });
    // The text modes read no annotations, and print the address as it is printed.
    expect((await f.extractBuffer(pdf, 'application/pdf', { mode: 'text' })).content).toContain('https://doi.org/10\n.1115/1.4042912');
  });
  it("lists an address a line end broke whole, where no link annotation gives it, and ends one at CJK punctuation", async () => {
    const pdf = makePdf({
      pages: [['[1] LuaJIT roadmap 2008 - http://lua-users.org/lists/lua-l/2008-', '02/msg00051.html.', '[2] Mozilla - http://www.mozilla.com.', '[3] SPECJVM98 - http://www.spec.org/jvm98/', 'Next, a sentence.']],
    });
    const r = await f.extractBuffer(pdf, 'application/pdf', { mode: 'links' });
    // The first was listed as "http://lua-users.org/lists/lua-l/2008-", a dead link.
    expect(r.content).toBe(['http://lua-users.org/lists/lua-l/2008-02/msg00051.html', 'http://www.mozilla.com', 'http://www.spec.org/jvm98/'].join('\n'));
    const zh = await f.extractBuffer(makePdf({ cjk: true, pages: [['请看 https://wiki.example.org/Hardware/。这个列表远不完整']] }), 'application/pdf', { mode: 'links' });
    expect(zh.content).toBe('https://wiki.example.org/Hardware/');
  });
  it('warns that a PDF of no pages is empty, not a blank ok', async () => {
    const r = await f.extractBuffer(readFileSync(new URL('../fixtures/pdfs/zero-pages.pdf', import.meta.url)), 'application/pdf', {});
    expect(r.content).toBe('');
    expect(r.meta).toMatchObject({ pages_total: 0, warnings: ['empty'], hint: 'The PDF holds no pages.' });
  });
  it('fails a PDF whose page tree counts fewer than no pages as malformed, not an ok of -1 pages', async () => {
    // Same length, so the xref stays right: pdf.js reads the page, then trusts the count.
    const pdf = Buffer.from(makePdf({ pages: [['The only page.']] }).toString('latin1').replace('/Count 1 >>', '/Count -1>>'), 'latin1');
    const e = await fail(f.extractBuffer(pdf, 'application/pdf', {}));
    expect(e).toMatchObject({ status: 422, code: 'bad_document', msg: 'malformed PDF: its page tree counts -1 pages' });
    expect(e.hint).toMatch(/damaged/);
  });
  it('fails a PDF whose content inflates past 256 MiB (a decompression bomb) as too long, at once, and reads a modest one', async () => {
    // 300 KB that inflate to 300 MiB: read whole, it held the worker 7 s and the process at
    // 1 GB (1.5 GB of blanks: 37 s and 4.7 GB); zlib's own ceiling is 4 GiB.
    const e = await fail(f.extractBuffer(bombPdf(300), 'application/pdf', {}));
    expect(e).toMatchObject({ status: 422, code: 'too_long', msg: 'document too long: a stream in it inflates to more than 256 MiB' });
    expect(e.hint).toMatch(/decompression bomb/);
    // The worker goes on: the next PDF, with a stream of 2 MiB, is read.
    expect((await f.extractBuffer(bombPdf(2), 'application/pdf', {})).content).toBe('Bomb start');
  });
  it('fails a PDF whose LZW stream decodes past 256 MiB as too long, and reads a modest one', async () => {
    // 40 KB that decode to 2.2 GB: pdf.js decodes LZW itself, into a buffer it doubled without
    // end (an 11 GB one held the process at 4.4 GB until the deadline).
    const bomb = lzwBombPdf(300);
    expect(bomb.length).toBeLessThan(50_000);
    const e = await fail(f.extractBuffer(bomb, 'application/pdf', {}));
    expect(e).toMatchObject({ status: 422, code: 'too_long', msg: 'document too long: a stream in it inflates to more than 256 MiB' });
    expect(e.hint).toMatch(/decompression bomb/);
    expect((await f.extractBuffer(lzwBombPdf(1), 'application/pdf', {})).content).toBe('Bomb start');
  });
  it('keeps the order of selected pages and ignores pages past the end', async () => {
    const r = await f.extractBuffer(numberedPdf(5), 'application/pdf', { pages: '4-9,1' });
    // "Page N of 5" heads every page: furniture, dropped from text; each page's own line stays.
    expect(r.content.match(/item\d/g)).toEqual(['item1', 'item4', 'item5']);
    expect(r.meta).toMatchObject({ pages_total: 5, pages_returned: 3 });
  });
  it('fails, saying how many pages there are, when every page chosen is past the end', async () => {
    const e = await fail(f.extractBuffer(numberedPdf(5), 'application/pdf', { pages: '7-9,12' }));
    expect(e).toMatchObject({ status: 422, code: 'bad_option', msg: 'no such pages: the document has 5 pages' });
    expect(e.hint).toBe('Choose pages from 1 to 5, e.g. --pages 1-5, or pages=1-5 on the URL’s line of a list.');
  });
  it('records the line each page starts on, so a search hit can cite its page', async () => {
    const r = await f.extractBuffer(makePdf({ pages: [['one a', 'one b'], ['two a'], ['three a', 'three b', 'three c']] }), 'application/pdf', {});
    const lines = r.content.split('\n');
    const pageLines = r.meta?.page_lines as [number, number][];
    expect(pageLines.map((p) => p[0])).toEqual([1, 2, 3]);
    for (const [page, line] of pageLines) {
      const first = { 1: 'one a', 2: 'two a', 3: 'three a' }[page] as string;
      expect(lines[line - 1]).toContain(first);
    }
  });
  it('counts page starts in the text it returns, after the furniture is dropped and hyphenated words joined', async () => {
    // "Page N of 6" heads every page (furniture, dropped); "trans-/port" on page 2 is joined.
    const pages = Array.from({ length: 6 }, (_, i) => [`Page ${i + 1} of 6`, `First line of page ${i + 1} says item${i + 1}.`, 'A second line.']);
    pages[1] = ['Page 2 of 6', 'First line of page 2 says item2 and trans-', 'port is one word.', 'A second line.'];
    const r = await f.extractBuffer(makePdf({ pages }), 'application/pdf', {});
    expect(r.content).toContain('transport');
    expect(r.content).not.toMatch(/Page \d of 6/);
    const lines = r.content.split('\n');
    const pageLines = r.meta?.page_lines as [number, number][];
    expect(pageLines.map((p) => p[0])).toEqual([1, 2, 3, 4, 5, 6]);
    for (const [page, line] of pageLines) expect(lines[line - 1]).toContain(`item${page}`);
  });
  it("says which pages grep matched, and where each kept line's page starts", async () => {
    const names = ['Alpha', 'Bravo', 'Charlie', 'Delta', 'Echo'];
    const pages = names.map((n, i) => [`${n} opens the chapter.`, i === 1 || i === 3 ? `net revenue grew in the ${n} quarter.` : `${n} had a quiet season.`, `${n} closes it.`]);
    const r = await f.extractBuffer(makePdf({ pages }), 'application/pdf', { grep: 'revenue' });
    expect(r.content).toBe('net revenue grew in the Bravo quarter.\nnet revenue grew in the Delta quarter.');
    expect(r.meta).toMatchObject({ matches: 2, match_pages: [2, 4], page_lines: [[2, 1], [4, 2]] });
    // With context the lines around each match come along; the blank line between two pages
    // and the "--" between groups start no page.
    const c = await f.extractBuffer(makePdf({ pages }), 'application/pdf', { grep: 'revenue', context: true });
    const lines = c.content.split('\n');
    expect(lines).toContain('--');
    expect(c.meta?.match_pages).toEqual([2, 4]);
    const pageLines = c.meta?.page_lines as [number, number][];
    expect(pageLines.map((p) => p[0])).toEqual([2, 4]);
    for (const [page, line] of pageLines) expect(lines[line - 1]).toBe(`${names[page - 1]} opens the chapter.`);
    const none = await f.extractBuffer(makePdf({ pages }), 'application/pdf', { grep: 'absent' });
    expect(none.meta?.match_pages).toBeUndefined();
    expect(none.meta?.page_lines).toBeUndefined();
  });
  it('says which pages the passages answering a question come from', async () => {
    const pages = Array.from({ length: 4 }, (_, i) =>
      i === 2 ? ['The harbour closes for the winter in November, when ice reaches the quay.'] : [`Page ${i + 1} is about the weather in spring and the markets.`],
    );
    const r = await f.extractBuffer(makePdf({ pages }), 'application/pdf', { question: 'when does the harbour close for winter?' });
    expect(r.content).toContain('harbour closes');
    const shown = r.content.split('\n\n');
    const passagePages = r.meta?.passage_pages as number[];
    expect(passagePages).toContain(3);
    expect(passagePages).toHaveLength(shown.length);
    const lines = r.content.split('\n');
    const pageLines = r.meta?.page_lines as [number, number][];
    expect(pageLines.map((p) => p[0])).toEqual(passagePages);
    const harbour = pageLines.find((p) => p[0] === 3) as [number, number];
    expect(lines[harbour[1] - 1]).toContain('harbour');
  });
});

describe('a web page saved to a file', () => {
  const saved = (head: string) =>
    `<!doctype html><html><head>${head}<title>Saved</title></head><body><article><h1>Saved</h1>` +
    `${'<p>A paragraph of the saved page, with enough words to read as an article, and <a href="/tide/tables">a link</a>.</p>'.repeat(6)}` +
    `<img src="img/chart.png" alt="Chart"></article></body></html>`;
  const file = 'file:///home/me/pages/saved.html';
  it('links where it linked on the web: the address "Save page as" noted, else its canonical link, else og:url', async () => {
    const cases: [string, string][] = [
      ['<!-- saved from url=(0044)https://tides.example/news/2024/saved.html -->', 'https://tides.example/news/2024/saved.html'],
      ['<link rel="canonical" href="https://tides.example/news/saved?a=1&amp;b=2">', 'https://tides.example/news/saved?a=1&b=2'],
      ['<meta property="og:url" content="https://tides.example/og/saved">', 'https://tides.example/og/saved'],
      ['<meta property="og:url" content="https://og.example/x"><link href="https://canon.example/y" rel=canonical>', 'https://canon.example/y'],
    ];
    for (const [head, web] of cases) {
      const r = await f.extractBuffer(Buffer.from(saved(head)), 'text/html', {}, { url: file });
      expect(r.meta, head).toMatchObject({ url: file, base_url: web });
      expect(r.content, head).toContain('[a link](https://tides.example/tide/tables)'.replace('tides.example', new URL(web).host));
      expect(r.content, head).toContain(`![Chart](${new URL('img/chart.png', web).href})`);
      const links = await f.extractBuffer(Buffer.from(saved(head)), 'text/html', { mode: 'links' }, { url: file });
      expect(links.content.split('\n'), head).toContain(new URL('/tide/tables', web).href);
    }
  });
  it('keeps file links when the page names no web address, or one that is not http(s), and a fetched page keeps its own URL', async () => {
    for (const head of ['', '<link rel="canonical" href="/relative/only">', '<meta property="og:url" content="javascript:alert(1)">']) {
      const r = await f.extractBuffer(Buffer.from(saved(head)), 'text/html', {}, { url: file });
      expect(r.meta?.base_url, head).toBeUndefined();
      expect(r.content, head).toContain('[a link](file:///tide/tables)');
    }
    const fetched = await f.extractBuffer(Buffer.from(saved('<link rel="canonical" href="https://elsewhere.example/x">')), 'text/html', {}, { url: 'https://mirror.example/page' });
    expect(fetched.meta?.base_url).toBeUndefined();
    expect(fetched.content).toContain('[a link](https://mirror.example/tide/tables)');
  });
});

describe('gzip files that are the document (data.json.gz, page.html.gz)', () => {
  const article = `<!doctype html><html><head><title>Packed</title></head><body><article><h1>Packed</h1>${'<p>A paragraph of the packed page, with enough words to read as an article.</p>'.repeat(8)}</article></body></html>`;
  it('unpacks them and reads what they hold, by its own first bytes or by the name under .gz', async () => {
    const json = await f.extractBuffer(gzipSync('{"items":[{"name":"a"}]}'), 'application/gzip', { jq: '.items[].name' }, { url: 'https://data.test/export/items.json.gz' });
    expect(json.content).toBe('"a"');
    expect(json.meta).toMatchObject({ kind: 'json', content_type: 'application/json', compressed: 'gzip' });
    const html = await f.extractBuffer(gzipSync(article), 'application/x-gzip', {}, { url: 'https://site.test/archive/page.html.gz' });
    expect(html.content).toMatch(/^# Packed\n\nA paragraph of the packed page/);
    expect(html.meta).toMatchObject({ kind: 'html', bytes: Buffer.byteLength(article) });
    // Text has no magic: the name says what it is; a body a server compressed twice keeps its header's type.
    const csv = await f.extractBuffer(gzipSync('city,people\nCairo,20000000\n'), 'application/octet-stream', {}, { url: 'https://data.test/cities.csv.gz' });
    expect(csv).toMatchObject({ content: 'city,people\nCairo,20000000\n', meta: { kind: 'text', content_type: 'text/csv' } });
    const twice = await f.extractBuffer(gzipSync('plain words, twice packed'), 'text/plain; charset=utf-8', {}, { url: 'https://site.test/notes' });
    expect(twice.content).toBe('plain words, twice packed');
  });
  it('stops a gzip bomb at the download limit and says a damaged file is damaged', async () => {
    const small = createFetcher({ deadlineMs: 6000, maxBodyBytes: 1024 * 1024 });
    try {
      const bomb = gzipSync(Buffer.alloc(64 * 1024 * 1024, 0x20));
      expect(bomb.byteLength).toBeLessThan(200 * 1024);
      const e = await fail(small.extractBuffer(bomb, 'application/gzip', {}, { url: 'https://x.test/big.txt.gz' }));
      expect(e).toMatchObject({ status: 422, reason: 'too_long' });
      expect(e.msg).toBe('document too long: body over 1 MiB');
      const cut = gzipSync(article).subarray(0, 60);
      const broken = await fail(small.extractBuffer(cut, 'application/gzip', {}, { url: 'https://x.test/page.html.gz' }));
      expect(broken.status).toBe(422);
      expect(broken.msg).toMatch(/^corrupt gzip file: /);
      expect(broken.hint).toMatch(/download it again/);
      // A .tar.gz holds files, not a document: said as such, not as mojibake.
      const tar = Buffer.concat([Buffer.from('notes.txt'), Buffer.alloc(503, 0), Buffer.from('hello')]);
      expect((await fail(small.extractBuffer(gzipSync(tar), 'application/gzip', {}, { url: 'https://x.test/files.tar.gz' }))).reason).toBe('unsupported');
    } finally {
      await small.close();
    }
  });
});

describe('jq on JSON Lines', () => {
  const lines = '{"name":"alpha","n":1}\n{"name":"beta","n":2}\n\n{"name":"gamma","n":3}\n';
  it('runs the program on each line, as jq does on a .jsonl file', async () => {
    for (const type of ['application/x-ndjson', 'application/jsonl', 'application/json', '']) {
      const r = await f.extractBuffer(Buffer.from(lines), type, { jq: '.name' });
      expect(r.content, type).toBe('"alpha"\n"beta"\n"gamma"');
      expect(r.meta).toMatchObject({ kind: 'json', json_lines: 3 });
    }
    expect((await f.extractBuffer(Buffer.from(lines), 'application/json', { jq: '[inputs.n] | add' })).content).toBe('5');
  });
  it('fails when the program fails on one record, as jq exits 5, instead of leaving that record out', async () => {
    const mixed = '{"n":1}\n{"n":"two"}\n{"n":3}\n';
    const e = await fail(f.extractBuffer(Buffer.from(mixed), 'application/x-ndjson', { jq: '.n + 1' }));
    expect(e).toMatchObject({ status: 422, reason: 'bad_option' });
    // The record's line, not jq-wasm's "(at /dev/stdin:2)".
    expect(e.msg).toBe('jq: line 2: string ("two") and number (1) cannot be added');
    // The program compiled: the hint is about the values, not the syntax.
    expect(e.hint).toMatch(/try … catch/);
    const twice = await fail(f.extractBuffer(Buffer.from(`${mixed}{"n":"four"}\n{"n":5}\n`), 'application/x-ndjson', { jq: '.n + 1' }));
    expect(twice.msg).toMatch(/cannot be added \(2 records failed, on lines 2, 4\)$/);
    // What jq writes to stderr without failing (debug) is no failure.
    expect((await f.extractBuffer(Buffer.from(mixed), 'application/x-ndjson', { jq: 'try (.n + 1) catch empty | debug' })).content).toBe('2\n4');
  });
  it("reads the JSON of the page a browser saves of it (Chrome's lone <pre>)", async () => {
    const json = '{"items":[{"name":"Tom &amp; Jerry <3"},{"name":"b"}]}';
    const page = `<html><head><meta name="color-scheme" content="light dark"><meta charset="utf-8"></head><body><pre style="word-wrap: break-word; white-space: pre-wrap;">${json.replace(/&/g, '&amp;').replace(/</g, '&lt;')}</pre><div class="json-formatter-container"></div></body></html>`;
    const r = await f.extractBuffer(Buffer.from(page), 'text/html', { jq: '.items[0].name' }, { url: 'file:///home/me/items.json.html' });
    expect(r.content).toBe('"Tom &amp; Jerry <3"');
    expect(r.meta).toMatchObject({ kind: 'json' });
    // A page with more than that is a page: jq still says so.
    const more = page.replace('<body>', '<body><p>Items</p>');
    expect((await fail(f.extractBuffer(Buffer.from(more), 'text/html', { jq: '.' }))).msg).toBe('jq needs a JSON document, and this one is HTML (text/html)');
  });
  it('still says a broken document is not JSON', async () => {
    const e = await fail(f.extractBuffer(Buffer.from('{"name":"alpha"}\n{"name":'), 'application/json', { jq: '.name' }));
    expect(e).toMatchObject({ status: 422, reason: 'unsupported' });
    // The record cut short is named by its line.
    expect(e.msg).toBe('jq: line 2 of these JSON Lines is not valid JSON: it stops after 8 characters, inside its JSON');
    expect(e.hint).toMatch(/only part of the document/);
  });
});

describe('jq on a document too large for it', () => {
  it('says a document too large for jq is too large, and what to do', async () => {
    // 256 MB is all jq-wasm has: 30 MB of records read, 38 MB did not (`length` or any other program).
    const big = createFetcher({ deadlineMs: 120_000 });
    try {
      const record = JSON.stringify({ name: 'a record of a large export', tags: ['alpha', 'beta', 'gamma'], price: 12.5, note: 'lorem ipsum dolor sit amet '.repeat(3) });
      const doc = `{"items":[${Array.from({ length: 240_000 }, () => record).join(',')}]}`;
      // From a URL: the hint is to download it raw (a local file's is cli-extract-bad-input's).
      const e = await fail(big.extractBuffer(Buffer.from(doc), 'application/json', { jq: '.items | length' }, { url: 'https://example.org/export.json' }));
      expect(e).toMatchObject({ status: 422, reason: 'bad_option' });
      expect(e.msg).toMatch(/^jq: out of memory: jq has 256 MB here, and reading a JSON document of 4\d MB \(\d\.\d million values\) takes more$/);
      expect(e.hint).toMatch(/--mode raw/);
    } finally {
      await big.close();
    }
  }, 180_000);
});

describe('runaway programs stop at the deadline', () => {
  it('stops a jq program that never ends with 504', async () => {
    const started = Date.now();
    const e = await fail(runaway.extractBuffer(Buffer.from('{"a":1}'), 'application/json', { jq: 'def f: f; f' }));
    expect(e.status).toBe(504);
    expect(Date.now() - started).toBeLessThan(30_000);
    expect((await runaway.extractBuffer(Buffer.from('{"a":1}'), 'application/json', { jq: '.a' })).content).toBe('1');
  });
  it('answers a grep that backtracks catastrophically, as V8 runs it again in linear time', async () => {
    const text = `${'a'.repeat(50_000)}!\nnormal line\naaaa`;
    // Hours of backtracking on the first line without V8's guard; the deadline is 6 s.
    const r = await runaway.extractBuffer(Buffer.from(text), 'text/plain', { grep: '^(a+)+$' });
    expect(r.content).toBe('aaaa');
    expect((await runaway.extractBuffer(Buffer.from(text), 'text/plain', { grep: '(a|aa)+!$' })).content).toBe(`${'a'.repeat(50_000)}!`);
  });
  it('stops with 504 a catastrophic grep that only the u flag reads (no linear-time guard for it)', async () => {
    const text = `${'a'.repeat(40)}!\nnormal line`;
    const e = await fail(runaway.extractBuffer(Buffer.from(text), 'text/plain', { grep: '^(\\p{Ll}+)+$' }));
    expect(e.status).toBe(504);
    // The server did nothing wrong: the hint points at the expression.
    expect(e.hint).toMatch(/^Extracting took longer than the deadline/);
    expect((await runaway.extractBuffer(Buffer.from(text), 'text/plain', { grep: 'normal' })).content).toBe('normal line');
  });
});

describe('grep', () => {
  const lines = Array.from({ length: 12 }, (_, i) => `line ${i + 1}${i === 2 || i === 4 || i === 10 ? ' hit' : ''}`).join('\n');
  it('merges overlapping context windows and separates groups with -- as grep -C 2 does', async () => {
    const r = await f.extractBuffer(Buffer.from(lines), 'text/plain', { grep: 'hit', context: true });
    expect(r.content).toBe(['line 1', 'line 2', 'line 3 hit', 'line 4', 'line 5 hit', 'line 6', 'line 7', '--', 'line 9', 'line 10', 'line 11 hit', 'line 12'].join('\n'));
    expect(r.meta?.matches).toBe(3);
  });
  it("matches a page's Markdown as it reads: a link by its text, bold without its marks", async () => {
    const page = Buffer.from(
      '<!doctype html><html><head><title>Orders</title></head><body><article><h1>Orders</h1>' +
        '<p>Emirates will buy 30 of <a href="https://quotes.example/?symbol=BA">Boeing</a>\'s 787-9 jets, the airline said on Wednesday at the air show.</p>' +
        '<p>In the quarter, <strong>net revenue</strong> grew by 12 percent to 27 billion, short of what analysts expected.</p>' +
        '<p>Shares fell 5 percent before the opening bell, and the rival also traded lower after the results.</p></article></body></html>',
    );
    const grep = async (g: string, mode?: Options['mode']) => (await f.extractBuffer(page, 'text/html', { grep: g, ...(mode ? { mode } : {}) })).meta?.matches;
    // Before, each matched nothing in the Markdown the page became, though the page reads so.
    expect(await grep("Boeing's 787")).toBe(1);
    expect(await grep('net revenue grew')).toBe(1);
    // The line comes back as it is, link and all.
    expect((await f.extractBuffer(page, 'text/html', { grep: "Boeing's 787" })).content).toMatch(/^Emirates will buy 30 of \[Boeing\]\(https:\/\/quotes\.example\/\?symbol=BA\)'s 787-9 jets/);
    // What matched the Markdown still does: a link's address is in the line.
    expect(await grep('symbol=BA')).toBe(1);
    expect(await grep('\\*\\*net')).toBe(1);
    expect(await grep("Boeing's 787", 'text')).toBe(1);
  });
  it('matches typographic apostrophes, quotes, dashes and spaces as people type them', async () => {
    const text = ['Disney’s Mickey Mouse, 1928–1930', '“Steamboat Willie” was first', 'a plain line', 'cost 10\u00a0dollars'].join('\n');
    const grep = async (g: string) => (await f.extractBuffer(Buffer.from(text), 'text/plain', { grep: g })).content;
    // Before, each matched nothing: the book sets ’ and –, people type ' and -.
    expect(await grep("Disney's")).toBe('Disney’s Mickey Mouse, 1928–1930');
    expect(await grep('1928-1930')).toBe('Disney’s Mickey Mouse, 1928–1930');
    expect(await grep('"Steamboat Willie"')).toBe('“Steamboat Willie” was first');
    expect(await grep('10 dollars')).toBe('cost 10\u00a0dollars');
    // The characters as set still match, and a straight quote is no wildcard for other lines.
    expect(await grep('Disney’s')).toBe('Disney’s Mickey Mouse, 1928–1930');
    expect(await grep("'")).toBe('Disney’s Mickey Mouse, 1928–1930');
    expect(await grep('–')).toBe('Disney’s Mickey Mouse, 1928–1930');
  });
  it('reads \\w and \\b by the letters of every script, as GNU grep and Python do', async () => {
    const text = ['le café est bon', 'les cafés', 'кот сидит', 'котёнок спит', 'naïve art', 'the cat sat', 'scattered', 'snake_case x'].join('\n');
    const grep = async (g: string) => (await f.extractBuffer(Buffer.from(text), 'text/plain', { grep: g })).content.split('\n');
    // Before: \bкот\b and \bcafé\b matched nothing (JavaScript's \w is ASCII), and \w+ stopped inside "naïve".
    expect(await grep('\\bкот\\b')).toEqual(['кот сидит']);
    expect(await grep('\\bcafé\\b')).toEqual(['le café est bon']);
    expect(await grep('^\\w+ art$')).toEqual(['naïve art']);
    expect(await grep('(?i)^\\W*КОТ\\B')).toEqual(['котёнок спит']);
    expect(await grep('^[\\w ]+$')).toEqual(text.split('\n'));
    // ASCII reads as before.
    expect(await grep('\\bcat\\b')).toEqual(['the cat sat']);
    expect(await grep('\\w+_\\w+')).toEqual(['snake_case x']);
  });
  it('returns nothing and 0 matches when no line matches', async () => {
    const r = await f.extractBuffer(Buffer.from(lines), 'text/plain', { grep: 'absent' });
    expect(r).toMatchObject({ content: '', meta: { matches: 0, warnings: ['no_match'] } });
  });
  it('says no_match or no_answer only when a grep or a question kept nothing of a document that had text', async () => {
    const get = async (body: string, options: Options) => (await f.extractBuffer(Buffer.from(body), 'text/plain', options)).meta?.warnings;
    expect(await get(lines, { grep: 'hit' })).toBeUndefined();
    // A match on a blank line keeps an empty line: it matched.
    expect(await get('one\n\ntwo', { grep: '^$' })).toBeUndefined();
    expect(await get(lines, { question: 'zebra crossing' })).toEqual(['no_answer']);
    expect(await get(lines, { question: 'which line has a hit?' })).toBeUndefined();
    // The grep kept nothing, so the question had nothing to rank: the grep is what to change.
    expect(await get(lines, { grep: 'absent', question: 'line' })).toEqual(['no_match']);
    // An empty document says it is empty; that nothing in it matched follows.
    expect(await get('', { grep: 'x' })).toEqual(['empty']);
  });
  it('says no_links when links were asked of a document that has none, and only then', async () => {
    const warnings = async (body: string, type: string) => (await f.extractBuffer(Buffer.from(body), type, { mode: 'links' })).meta?.warnings;
    expect(await warnings('<html><body><p>A page of prose with no link in it at all.</p></body></html>', 'text/html')).toEqual(['no_links']);
    expect(await warnings('<html><body><p>See <a href="https://example.org/a">this</a>.</p></body></html>', 'text/html')).toBeUndefined();
    expect(await warnings('plain words, no address', 'text/plain')).toEqual(['no_links']);
    expect(await warnings('read https://example.org/b', 'text/plain')).toBeUndefined();
    // An empty answer says it is empty; that it has no links follows.
    expect(await warnings('', 'text/plain')).toEqual(['empty']);
    // Other modes never say it.
    expect((await f.extractBuffer(Buffer.from('<p>No links.</p>'), 'text/html', { mode: 'text' })).meta?.warnings).toBeUndefined();
  });
  it('ignores case after a leading (?i), as grep -i does, in every script; without it case counts', async () => {
    const text = ['High tide at noon', 'TIDE TABLES', 'no match here', 'Ébène ÉTÉ', 'Σίσυφος ΣΊΣΥΦΟΣ', 'the (?i) marker'].join('\n');
    const get = async (grep: string) => (await f.extractBuffer(Buffer.from(text), 'text/plain', { grep })).content;
    expect(await get('(?i)tide')).toBe('High tide at noon\nTIDE TABLES');
    expect(await get('tide')).toBe('High tide at noon');
    expect(await get('(?i)été')).toBe('Ébène ÉTÉ');
    expect(await get('(?i)^σίσυφος σίσυφος$')).toBe('Σίσυφος ΣΊΣΥΦΟΣ');
    // Only at the start is it a flag; elsewhere it is what JavaScript makes of it, an error.
    const e = await fail(f.extractBuffer(Buffer.from(text), 'text/plain', { grep: 'tide(?i)' }));
    expect(e.msg).toMatch(/^invalid grep expression/);
    expect(e.hint).toMatch(/\(\?i\) at its start ignores case/);
  });
});

describe('question', () => {
  const doc = [
    'Opening hours are from nine to five on weekdays.',
    'The museum was built in 1889 by the city council.',
    'Tickets cost 12 euros for adults and 6 euros for children.',
    'The garden has a collection of roses from every continent.',
    'Parking is available behind the main building.',
  ].join('\n\n');
  it('ranks the passage that answers first among few, and returns them in document order', () => {
    const a = answer(doc, 'how much do tickets cost for children?', false);
    expect(a.content.split('\n\n')).toContain('Tickets cost 12 euros for adults and 6 euros for children.');
    expect(a.content).not.toContain('roses');
  });
  it('leaves out a passage scoring under a quarter of the best: in the page order it came before the answer', () => {
    const page = [
      'The moons of Jupiter: a guide to Europa and its neighbours',
      'Europa is a little smaller than our own Moon, and its surface is ice.',
      'Scientists have argued for decades about what lies beneath the ice of Europa.',
      'NASA is developing a mission called Europa Clipper, which is scheduled to launch in the mid-2020s.',
      'Ganymede is the largest moon in the solar system.',
    ].join('\n\n');
    const a = answer(page, 'When will Europa Clipper launch?', false);
    expect(a).toEqual({ content: 'NASA is developing a mission called Europa Clipper, which is scheduled to launch in the mid-2020s.', passages: 1, lines: [7], origin: [7] });
    // Passages that answer about as well all come back, in the page's order.
    expect(answer(page, 'Europa ice', false).passages).toBe(2);
  });
  it('adds the neighbours of each passage with context', () => {
    const a = answer(doc, 'tickets euros', true);
    expect(a.content.split('\n\n')).toEqual([
      'The museum was built in 1889 by the city council.',
      'Tickets cost 12 euros for adults and 6 euros for children.',
      'The garden has a collection of roses from every continent.',
    ]);
    expect(a.passages).toBe(1);
  });
  it('reads C#, F#, C++ and an emoji touching a word as words of their own, as search does', () => {
    const page = [
      'Section c of the guide: the c grade.',
      'Records in C# are immutable; F# has them too.',
      'C++ templates are resolved at compile time.',
      'Menu of the day:🍕with olives.',
    ].join('\n\n');
    // "#" parted C# into c and nothing: the question matched the passage about section c as well.
    expect(answer(page, 'what is C#?', false).content).toBe('Records in C# are immutable; F# has them too.');
    expect(answer(page, 'C++?', false).content).toBe('C++ templates are resolved at compile time.');
    expect(answer(page, '🍕', false).content).toBe('Menu of the day:🍕with olives.');
  });
  it('ranks a heading with the passage under it, and shows it over that passage, not as an answer of its own', () => {
    const page = [
      '# Chelsea sign Kepa Arrizabalaga from Athletic Bilbao',
      'The club paid the £71.6 million release clause this morning, a world record fee for a goalkeeper.',
      'The manager said the squad was ready for the new season.',
      '### [Logitech MX Master 3 Mouse](https://shop.example/mx3)',
      'The MX Master 2S was replaced with an even better reviewed $99 model.',
    ].join('\n\n');
    const [title, paid, , mouse, replaced] = page.split('\n\n');
    // The short title held the question's names and was shown alone, as the answer: on the
    // question bench a heading was the best passage for 8 of 14 questions whose answer was not.
    expect(answer(page, 'what did Chelsea pay for Arrizabalaga?', false)).toEqual({ content: `${title}\n\n${paid}`, passages: 1, lines: [1, 3], origin: [1, 0, 3] });
    expect(answer(page, 'which Logitech mouse replaced the 2S?', false).content).toBe(`${mouse}\n\n${replaced}`);
    // Once with context, where the heading is the neighbour above.
    expect(answer(page, 'which Logitech mouse replaced the 2S?', true).content).toBe(`${mouse}\n\n${replaced}`);
    // A heading with nothing under it is still a passage.
    expect(answer('Intro text.\n\n## Contact the office', 'contact office', false).content).toBe('## Contact the office');
  });
  it('returns nothing when no passage shares a word with the question', () => {
    expect(answer(doc, 'zebra', false)).toEqual({ content: '', passages: 0, lines: [], origin: [] });
  });
  it('does not take a passage that shares only the words a question is built with (the, do, what) for an answer', () => {
    // Every page has "the": a page about anything answered "when do the trains leave?" with three passages.
    expect(answer(doc, 'when do the trains leave?', false)).toEqual({ content: '', passages: 0, lines: [], origin: [] });
    expect(answer(doc, 'Wann fahren die Züge ab?', false).passages).toBe(0);
    expect(answer(doc, 'À quelle heure partent les trains ?', false).passages).toBe(0);
    // The words that say what is asked choose the passages, not how often "the" and "of" come up.
    const a = answer([...doc.split('\n\n'), 'The history of the museum is the story of the city and of the river that runs through the city.'].join('\n\n'), 'what is the price of the tickets?', false);
    expect(a.content).toBe('Tickets cost 12 euros for adults and 6 euros for children.');
    // A question of such words only asks nothing: answered on them, it came back with any passage holding "was".
    expect(answer('He was here.\n\nShe left.', 'who was he?', false)).toEqual({ content: '', passages: 0, lines: [], origin: [], asksNothing: true });
  });
  it("ranks a page's passages on the words a reader sees, not on its links' addresses", () => {
    const page = [
      'The board met on [Tuesday](https://news.example/2019/11/city-trains-timetable-leave-earlier) to discuss the budget.',
      'Parking is free on Sundays.',
    ].join('\n\n');
    // The passage's only "trains" and "timetable" were in a link's address: shown as the answer, it held neither word.
    expect(answer(page, 'trains timetable', false)).toEqual({ content: '', passages: 0, lines: [], origin: [] });
    expect(answer(page, 'when did the board meet?', false).content).toBe(page.split('\n\n')[0]);
    // An image's alt text is read; its address is not.
    expect(answer('![A map of the tram lines](https://x.example/bus-routes.png)', 'tram', false).passages).toBe(1);
    expect(answer('![A map of the tram lines](https://x.example/bus-routes.png)', 'bus routes', false).passages).toBe(0);
  });
  it('answers in Chinese and Japanese, written without spaces, by pairs of characters', () => {
    const a = answer(TOKYO_PASSAGES.slice(0, 6).join('\n\n'), '東京の人口は何人ですか', false);
    expect(a.content.split('\n\n')).toContain(TOKYO_PASSAGES[1]);
    expect(a.content).not.toContain('桜');
    const zh = ['上海位于长江入海口，是中国最大的港口城市。', '上海的常住人口约为两千四百万。', '外滩的建筑群建于二十世纪初。', '地铁网络是世界上最长的之一。'].join('\n\n');
    expect(answer(zh, '上海有多少人口？', false).content).toContain('上海的常住人口约为两千四百万。');
    expect(answer(zh, '巴黎', false)).toEqual({ content: '', passages: 0, lines: [], origin: [] });
  });
  it('does not take the pairs a Japanese question ends with (です, すか) for what it asks', () => {
    const ja = ['東京は日本の首都です。', '富士山は日本で一番高い山です。', '大阪には城があります。'].join('\n\n');
    // "how is the weather in Paris?" answered with every passage in the polite form.
    expect(answer(ja, 'パリの天気はどうですか', false)).toEqual({ content: '', passages: 0, lines: [], origin: [] });
    expect(answer(ja, '富士山の高さはどのくらいですか', false).content).toBe('富士山は日本で一番高い山です。');
  });
  it('does not take the pairs of Chinese function characters (这个, 是什, 什么) for what a question asks', () => {
    const zh = ['这是什么？这个是什么？我们可以做什么，他们为什么这样做？', '这种方法的优点是速度快，占用的内存少。', '安装之前请备份数据。'].join('\n\n');
    // Before, the passage of function words alone scored 15.7 to the answer's 35.4 and came back beside it.
    expect(answer(zh, '这个方法的优点是什么', false).content).toBe('这种方法的优点是速度快，占用的内存少。');
    expect(answer(zh, '上海的人口是多少？', false)).toEqual({ content: '', passages: 0, lines: [], origin: [] });
    // A question of such characters only asks nothing: answered on them, it came back with the passage of function words.
    expect(answer(zh, '这是什么？', false)).toEqual({ content: '', passages: 0, lines: [], origin: [], asksNothing: true });
  });
  it('does not take an Arabic or a Hindi question\'s question words, pronouns and "is" for what it asks', () => {
    // "What is the capital of France?" of a page about Egypt: before, the passages with ما, هي
    // and في came back, sharing only those.
    const ar = ['القاهرة هي عاصمة مصر.', 'ما هي الأسباب؟ هي كثيرة في هذا البلد.', 'يمر نهر النيل عبر المدينة.'].join('\n\n');
    expect(answer(ar, 'ما هي عاصمة فرنسا؟', false).content).toBe('القاهرة هي عاصمة مصر.');
    expect(answer(ar, 'ما هي عاصمة فرنسا؟', false).passages).toBe(1);
    expect(answer(ar, 'من هو رئيس فرنسا؟', false)).toEqual({ content: '', passages: 0, lines: [], origin: [] });
    // "What is the capital of India?" of a page about a river: क्या, है, की and में are every passage's.
    const hi = ['गंगा भारत की सबसे लंबी नदी है।', 'यह क्या है? यह एक नाव है।', 'नदी के किनारे कई शहर हैं।'].join('\n\n');
    expect(answer(hi, 'जापान की राजधानी क्या है?', false)).toEqual({ content: '', passages: 0, lines: [], origin: [] });
    expect(answer(hi, 'भारत की सबसे लंबी नदी कौन सी है?', false).content).toBe('गंगा भारत की सबसे लंबी नदी है।');
  });
  it("does not take a Greek question's articles, question words and \"is\" for what it asks", () => {
    // "How high is Olympus?" of a page about Athens: before, "Athens is the capital of Greece" came back, for είναι and το.
    const el = ['Η Αθήνα είναι η πρωτεύουσα της Ελλάδας.', 'Ο Παρθενώνας χτίστηκε τον 5ο αιώνα π.Χ. στην Ακρόπολη.', 'Το ΜΟΥΣΕΙΟ ΑΚΡΟΠΟΛΗΣ άνοιξε το 2009.'].join('\n\n');
    expect(answer(el, 'Πόσο ψηλός είναι ο Όλυμπος;', false)).toEqual({ content: '', passages: 0, lines: [], origin: [] });
    expect(answer(el, 'ΠΟΙΑ ΕΙΝΑΙ Η ΠΡΩΤΕΥΟΥΣΑ ΤΗΣ ΕΛΛΑΔΑΣ;', false).content).toBe('Η Αθήνα είναι η πρωτεύουσα της Ελλάδας.');
    expect(answer(el, 'πότε άνοιξε το μουσείο της ακρόπολης;', false).content).toBe('Το ΜΟΥΣΕΙΟ ΑΚΡΟΠΟΛΗΣ άνοιξε το 2009.');
    // "What is this?": a question of such words only asks nothing.
    expect(answer(el, 'Τι είναι αυτό;', false)).toMatchObject({ passages: 0, asksNothing: true });
  });
  it('finds Arabic words whatever their vowel marks', () => {
    const ar = ['القاهرة هي عاصمة مصر.', 'يبلغ عدد سُكَّانِ المدينة الكبرى عشرين مليونًا.', 'يمر نهر النيل عبر المدينة.'].join('\n\n');
    const a = answer(ar, 'سكان', false);
    expect(a).toEqual({ content: 'يبلغ عدد سُكَّانِ المدينة الكبرى عشرين مليونًا.', passages: 1, lines: [3], origin: [3] });
  });
  it('splits a long paragraph at sentence ends, Chinese and Japanese full stops included', () => {
    const ja = splitPassages('これは一つの文です。'.repeat(200));
    expect(ja.length).toBeGreaterThanOrEqual(3);
    for (const p of ja) expect(p.text.length).toBeLessThan(700);
  });
  it('splits a long paragraph at sentence ends', () => {
    const ps = splitPassages('This is one sentence. '.repeat(200));
    expect(ps.length).toBeGreaterThan(5);
    for (const p of ps) expect(p.text.length).toBeLessThan(700);
  });
  it('cuts a long text with no sentence ends at spaces into passages, so a question answers with a passage, not the whole line', async () => {
    const words = ['alpha', 'beta', 'gamma', 'delta'];
    const line = Array.from({ length: 60_000 }, (_, i) => (i === 30_000 ? 'needle' : words[i % 4])).join(' ');
    const ps = splitPassages(`${line}\nlast`);
    expect(ps.length).toBeGreaterThan(300);
    for (const p of ps) expect(p.text.length).toBeLessThan(700);
    // Cut between words: every piece is whole words of the line.
    expect(ps.map((p) => p.text).join(' ').replace(/\s+/g, ' ')).toBe(`${line} last`);
    const a = answer(line, 'where is the needle?', false);
    expect(a.passages).toBe(1);
    expect(a.content).toContain('needle');
    expect(a.content.length).toBeLessThan(700);
    // The same through the fetcher, where a text this long (330 KB) is ranked in the HTML worker.
    const r = await f.extractBuffer(Buffer.from(line), 'text/plain', { question: 'where is the needle?' });
    expect(r.content).toBe(a.content);
    // No space at all (Chinese without punctuation, a run of base64): cut by length, never inside a character beyond U+FFFF.
    const han = splitPassages('𠀀𠀁𠀂漢字'.repeat(2_000));
    expect(han.length).toBeGreaterThan(10);
    for (const p of han) expect(p.text).toMatch(/^(?:[\uD800-\uDBFF][\uDC00-\uDFFF]|[^\uD800-\uDFFF])+$/);
  });
  it("gives the line each passage starts on, a long paragraph's pieces included", () => {
    const long = Array.from({ length: 40 }, (_, i) => `Sentence ${i} runs on for a while to fill the line.`).join('\n');
    const text = `\n\nFirst paragraph.\n\n\n  Second, after two blank lines.\n${long}\n\nLast.`;
    const lines = text.split('\n');
    const ps = splitPassages(text);
    expect(ps.length).toBeGreaterThan(4);
    for (const p of ps) expect(lines[p.line - 1]).toContain(p.text.split('\n')[0]!.trim());
    expect(ps[0]).toMatchObject({ text: 'First paragraph.', line: 3 });
    expect(ps.at(-1)).toMatchObject({ text: 'Last.', line: lines.length });
  });
});

describe('page selections', () => {
  it('parses ranges, single pages and open ends', () => {
    expect(parsePages('1-3, 7,10-')).toEqual([[1, 3], [7, 7], [10, Number.MAX_SAFE_INTEGER]]);
    expect(parsePages('')).toBeNull();
  });
  it('names an empty part of the list, where a form or the app sends it unchecked', () => {
    expect(() => parsePages('1, ,2')).toThrow('invalid pages "1,,2": there is nothing between two commas; write 1,2');
  });
  it.each(['0', '3-1', 'a', '1,,2', '-5', '1-2-3', '1;2'])('rejects %j with 422 and the syntax', (spec) => {
    expect(() => parsePages(spec)).toThrow(FetchError);
    try {
      parsePages(spec);
    } catch (e) {
      expect((e as FetchError).status).toBe(422);
      expect((e as FetchError).hint).toContain('1-3,7,10-');
    }
  });
});

describe('decoding and sniffing', () => {
  it("gives a page's title with its character references read in the modes that do not parse it (raw, links)", async () => {
    const page = Buffer.from('<html><head><title>Tom &amp; Jerry &#8211; caf&eacute;\n  &#150; news</title></head><body><p>?a=1&copy=2 <a href="https://x.test/">x</a></p></body></html>');
    for (const mode of ['raw', 'links'] as const) {
      const r = await f.extractBuffer(page, 'text/html', { mode });
      expect(r.meta?.title, mode).toBe('Tom & Jerry – café – news');
    }
    // The raw page is the page as sent.
    expect((await f.extractBuffer(page, 'text/html', { mode: 'raw' })).content).toBe(page.toString());
  });
  it('prefers a BOM over a wrong header charset', () => {
    expect(decodeText(Buffer.from([0xef, 0xbb, 0xbf, 0xc3, 0xa9]), 'text/plain; charset=shift_jis').text).toBe('é');
  });
  it('reads iso-8859-1 as windows-1252, as browsers do', () => {
    expect(decodeText(Buffer.from([0x93, 0x41, 0x94]), 'text/plain; charset=iso-8859-1').text).toBe('“A”');
  });
  it('reads a body that names no charset as UTF-8 when it is, else as windows-1252', () => {
    expect(decodeText(Buffer.from('<p>We’d “end” café</p>'), 'text/html')).toEqual({ text: '<p>We’d “end” café</p>', charset: 'utf-8' });
    // An unlabelled legacy page: “café” in windows-1252 bytes was "�caf�" read as UTF-8.
    expect(decodeText(Buffer.from([0x93, 0x63, 0x61, 0x66, 0xe9, 0x94]), 'text/html')).toEqual({ text: '“café”', charset: 'windows-1252' });
    // A label, in the header or the document, still wins over bytes that mostly agree with it
    // (a UTF-8 page with a stray byte), not over bytes that belie it (cli-charset).
    expect(decodeText(Buffer.concat([Buffer.from('“café” '), Buffer.from([0xe9])]), 'text/html; charset=utf-8').text).toBe('“café” \ufffd');
    expect(decodeText(Buffer.from([0xe9]), 'text/html; charset=utf-8')).toEqual({ text: 'é', charset: 'windows-1252', overruled: 'utf-8' });
    expect(decodeText(Buffer.from('<meta charset="utf-8"><p>\u00e9'.replace('\u00e9', 'é')), 'text/html').charset).toBe('utf-8');
  });
  it('falls back to UTF-8 for an unknown charset label', () => {
    expect(decodeText(Buffer.from('héllo'), 'text/plain; charset=klingon').text).toBe('héllo');
  });
  it('classifies by magic first, then header, then sniffing', () => {
    expect(classify('text/plain', Buffer.from('%PDF-1.4\n'))).toBe('pdf');
    expect(classify('', Buffer.from('{"a":1}'))).toBe('json');
    expect(classify('application/octet-stream', Buffer.from('<!DOCTYPE html><p>x'))).toBe('html');
    expect(classify('text/plain', Buffer.from('<html>not rendered</html>'))).toBe('text');
    expect(() => classify('application/octet-stream', Buffer.from([1, 0, 2, 0]))).toThrow(/unsupported: application\/octet-stream/);
  });
  it('reads a page that quotes "%PDF-1.7" near its top as the page, and a PDF after a little junk as a PDF', async () => {
    const page = `<!doctype html><html><head><title>How PDF files start</title></head><body><article><h1>How PDF files start</h1><p>Every PDF file starts with the bytes %PDF-1.7 or a similar version line.</p>${'<p>The header is followed by a comment of binary bytes, so that transfer tools treat the file as binary.</p>'.repeat(8)}</article></body></html>`;
    for (const type of ['text/html', 'application/pdf', '']) {
      const r = await f.extractBuffer(Buffer.from(page), type, { mode: 'text' });
      expect(r.meta?.title, type).toBe('How PDF files start');
      expect(r.content, type).toContain('starts with the bytes %PDF-1.7');
    }
    expect(classify('text/html', Buffer.concat([Buffer.from('Warning: headers already sent\n'), makePdf({ pages: [['x']] })]))).toBe('pdf');
  });
  it('reads a page sent as HTML that opens with a PDF header line but is no PDF (a polyglot) as the page; sent as a PDF it stays a malformed PDF', async () => {
    const polyglot = Buffer.from(`%PDF-1.4\n<!doctype html><html><head><title>Not a PDF</title></head><body><article><h1>Not a PDF</h1><p>${'This page is HTML that begins with a PDF header line. '.repeat(20)}</p></article></body></html>`);
    const r = await f.extractBuffer(polyglot, 'text/html; charset=utf-8', { mode: 'text', pages: '1' });
    expect(r.meta).toMatchObject({ title: 'Not a PDF', kind: 'html', content_type: 'text/html', warnings: ['pages_ignored'] });
    expect(r.content).toContain('This page is HTML that begins with a PDF header line.');
    expect((await fail(f.extractBuffer(polyglot, 'application/pdf', {}))).msg).toMatch(/^malformed PDF/);
  });
  it('says binary bytes under a text type are binary, not that the text type is unsupported', () => {
    for (const type of ['text/plain', 'text/html; charset=utf-8', 'application/json']) {
      expect(() => classify(type, Buffer.from('a\u0000b\u0001c', 'latin1')), type).toThrow(`unsupported: binary data (NUL bytes) labelled ${type.split(';')[0] as string}`);
    }
  });
});
