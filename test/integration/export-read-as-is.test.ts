/**
 * Exported files as a user opens them, after `sift batch --out` fetched a loopback site through
 * the pipeline into a real database: what the combined Markdown says at its top, where a PDF's
 * grep lines and passages are in the document, and whether a jq program's file opens as what
 * its name says.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { parse as parseCsv } from 'csv-parse/sync';
import { marked } from 'marked';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { loopbackSift, type LoopbackSift, type siftInProcess } from '../helpers/cli-main';
import { makePdf } from '../helpers/fetch-pdf';
import { FERRY_PAGES, startSite, type Site } from '../helpers/sites';

let site: Site;
let tmp: LoopbackSift;
let sift: ReturnType<typeof siftInProcess>;
let db: string;

// Three pages, the tide on the first and the third: a grep or a question finds lines on both.
// A line that Markdown would read as a list item, as a report's numbered sections are.
const HARBOUR_PDF = makePdf({
  title: 'Harbour report',
  pages: [
    ['Spring tides', 'The tide rose two metres above the quay in March.'],
    ['Moorings', '1. Forty boats moor in the inner basin all year.'],
    ['Neap tides', 'At neap tide the ferry still reaches the quay at low water.'],
  ],
});

beforeAll(async () => {
  site = await startSite({
    ...FERRY_PAGES,
    '/harbour.pdf': (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/pdf' });
      res.end(HARBOUR_PDF);
    },
    // A real paper (test/fixtures/pdfs): its Markdown has a title and sections.
    '/paper.pdf': (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/pdf' });
      res.end(readFileSync(path.resolve(__dirname, '../fixtures/pdfs/tracemonkey.pdf')));
    },
    '/boats.json': (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ harbour: 'Inner basin', boats: [{ name: 'Kittiwake', berth: 'A 3', crew: ['Ann', 'Bo'] }, { name: 'Tern "II"', berth: 'B 1', crew: [] }] }));
    },
    // Markdown documents as a size limit or a draft leaves them: a code block, a comment, a
    // <pre> opened and never closed.
    ...Object.fromEntries(
      Object.entries({
        '/cut.md': '# Cut notes\n\nThe quay log.\n\n```js\nconst tide = 2;\n',
        '/draft.md': '# Draft\n\nThe ferry timetable.\n\n<!-- TODO: winter times\n\n# Not yet\n',
        '/pre.md': '# Layout\n\n<pre>\nberth A 3\n',
        '/whole.md': '# Whole\n\nThe section after the others.\n',
      }).map(([route, text]) => [
        route,
        (_req: IncomingMessage, res: ServerResponse) => {
          res.writeHead(200, { 'content-type': 'text/markdown; charset=utf-8' });
          res.end(text);
        },
      ]),
    ),
    '/gone': (_req, res) => {
      res.writeHead(410, { 'content-type': 'text/plain' });
      res.end('gone');
    },
  });
  tmp = loopbackSift('sift-export-read-');
  ({ sift, db } = tmp);
}, 120_000);
afterAll(async () => {
  await site.close();
  tmp.remove();
});

/** Runs `lines` as a list into `format` with `flags`; the path the export was written to. */
async function batchTo(name: string, lines: string[], format: string, ...flags: string[]): Promise<string> {
  writeFileSync(path.join(tmp.dir, `${name}.txt`), `${lines.join('\n')}\n`);
  const r = await sift('batch', `${name}.txt`, '--db', db, '--out', path.join(tmp.dir, `out-${name}`), '--format', format, ...flags);
  expect(r.code, r.err).toBeLessThanOrEqual(1);
  return /^exported .+? to (.+) \([\d.,]+ [kMG]?B\): /m.exec(r.err)![1]!;
}

describe('combined Markdown with the failed targets included', () => {
  test('its count line says how many of them failed, as the CLI summary does', async () => {
    const urls = [`${site.base}/tides`, `${site.base}/gone`, `${site.base}/fares`, `${site.base}/missing/a`];
    const md = readFileSync(await batchTo('counts', urls, 'combined', '--include-failed'), 'utf8');
    expect(md.split('\n')[2]).toBe('4 targets (2 failed)');
    // And every one of them has its section.
    expect(md.match(/^## /gm)).toHaveLength(5);
  });
});

describe("a PDF's results exported as the app shows them, with their pages marked: its Markdown as Markdown, its text and grep lines as text", () => {
  const lines = (): string[] => [
    `${site.base}/harbour.pdf`,
    `${site.base}/harbour.pdf grep=quay`,
    `${site.base}/harbour.pdf q="how high did the tide rise above the quay?"`,
    `${site.base}/harbour.pdf pages=3`,
    `${site.base}/harbour.pdf mode=text`,
  ];
  const TEXT = /^\[page 1\]\nSpring tides\nThe tide rose two metres above the quay in March\.\n\n\[page 2\]\nMoorings\n1\. Forty boats moor in the inner basin all year\.\n\n\[page 3\]\nNeap tides\n/;
  // In Markdown a page's mark is a paragraph of its own: on the line above, it ran into the page's first line.
  const MARKDOWN = /^\[page 1\]\n\nSpring tides\nThe tide rose two metres above the quay in March\.\n\n\[page 2\]\n\nMoorings\n1\. Forty boats moor in the inner basin all year\.\n\n\[page 3\]\n\nNeap tides\n/;

  test('a folder of files: Markdown files for its Markdown, text files for its text and grep lines, each marking where its pages start, so a passage or a grep line cites its page', async () => {
    const dir = await batchTo('pdf-folder', lines(), 'folder');
    const manifest = readFileSync(path.join(dir, 'manifest.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { file: string });
    // The default mode's Markdown was a .txt file, its "#" headings and "- " items written out.
    expect(manifest.map((m) => path.extname(m.file))).toEqual(['.md', '.txt', '.md', '.md', '.txt']);
    const file = (i: number): string => readFileSync(path.join(dir, manifest[i]!.file), 'utf8');
    expect(file(0)).toMatch(MARKDOWN);
    expect(file(1)).toBe('[page 1]\nThe tide rose two metres above the quay in March.\n\n[page 3]\nAt neap tide the ferry still reaches the quay at low water.');
    expect(file(2)).toMatch(/^\[page 1\]\n\n.*The tide rose two metres/s);
    expect(file(3)).toMatch(/^\[page 3\]\n\nNeap tides\n/);
    expect(file(4)).toMatch(TEXT);
  });

  test('Markdown (--format md, the combined file) has its Markdown bare and fences its text, as the app shows it: the numbered line of its text is no list item', async () => {
    const dir = await batchTo('pdf-md', [lines()[0]!, lines()[4]!], 'md');
    const manifest = readFileSync(path.join(dir, 'manifest.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { file: string });
    const own = (i: number): string => readFileSync(path.join(dir, manifest[i]!.file), 'utf8');
    expect(own(0)).toMatch(MARKDOWN);
    expect(own(1).startsWith('```text\n')).toBe(true);
    expect(own(1).slice('```text\n'.length)).toMatch(TEXT);
    const md = readFileSync(await batchTo('pdf-combined', lines(), 'combined'), 'utf8');
    expect(md).toContain('```text\n[page 1]\nThe tide rose two metres above the quay in March.\n\n[page 3]\nAt neap tide');
    // Every section that has page 3 marks it: the whole document twice, the question's passage from page 3 and pages=3.
    expect(md.match(/^\[page 3\]$/gm)).toHaveLength(5);
    expect(md).toContain(`<${site.base}/harbour.pdf>\n\nAsked with \`pages=3\`\n\n[page 3]\n\nNeap tides\n`);
    const html = await marked.parse(md.slice(md.indexOf('Asked with `mode=text`')));
    expect(html).not.toContain('<ol');
    expect(html).toContain('1. Forty boats moor');
  });

  test("a paper's Markdown keeps its headings, its title heading its own file and heading its section once in the combined file", async () => {
    const paper = [`${site.base}/paper.pdf pages=1-2`];
    const dir = await batchTo('paper-folder', paper, 'folder');
    const own = readFileSync(path.join(dir, 'Trace-based Just-in-Time Type Specialization for Dynamic Languages.md'), 'utf8');
    // The title, then where page 1 starts: the mark above it put the title under page 1's mark.
    expect(own).toMatch(/^# Trace-based Just-in-Time Type Specialization for Dynamic Languages\n\n\[page 1\]\n\nAndreas Gal/);
    expect(own).toContain('\n\n## Abstract\n\nDynamic languages such as JavaScript');
    expect(own).toContain('\n\n## 1. Introduction\n\n');
    expect(own.match(/^\[page \d+\]$/gm)).toEqual(['[page 1]', '[page 2]']);
    const md = readFileSync(await batchTo('paper-combined', paper, 'combined'), 'utf8');
    const section = md.slice(md.indexOf('<a id="target-1">'));
    // Its headings nest under the section's: it was fenced, "## Abstract" written out.
    expect(section).not.toContain('```');
    expect(section).toMatch(/^<a id="target-1"><\/a>\n\n## Trace-based Just-in-Time Type Specialization for Dynamic Languages\n\n<[^>]+>\n\nAsked with `pages=1-2`\n\n\[page 1\]\n\nAndreas Gal/);
    const html = await marked.parse(section);
    expect(html.match(/<h\d>[^<]*<\/h\d>/g)?.slice(0, 3)).toEqual(['<h2>Trace-based Just-in-Time Type Specialization for Dynamic Languages</h2>', '<h4>Abstract</h4>', '<h4>1. Introduction</h4>']);
    expect(html).toContain('<p>[page 2]</p>');
  });
});

describe('combined Markdown of documents left open', () => {
  test('a code block, a comment or a <pre> a document leaves open ends with its section: every later heading and anchor is there', async () => {
    const md = readFileSync(await batchTo('left-open', ['/cut.md', '/draft.md', '/pre.md', '/whole.md'].map((p) => `${site.base}${p}`), 'combined'), 'utf8');
    const html = await marked.parse(md);
    expect(html.match(/<h2[^>]*>[^<]*<\/h2>/g)).toEqual(['<h2>Contents</h2>', '<h2>Cut notes</h2>', '<h2>Draft</h2>', '<h2>Layout</h2>', '<h2>Whole</h2>']);
    // Each link of the contents leads to its anchor, outside any code.
    for (const n of [1, 2, 3, 4]) expect(html).toContain(`<a id="target-${n}"></a>`);
    expect(html).toContain('<code class="language-js">const tide = 2;\n</code>');
    // What was in the comment stays hidden, its heading not moved.
    expect(md).toContain('<!-- TODO: winter times\n\n# Not yet\n-->');
  });
});

describe('one URL asked four ways', () => {
  const lines = (): string[] => [`${site.base}/harbour.pdf`, `${site.base}/harbour.pdf grep=quay`, `${site.base}/harbour.pdf q="how high did the tide rise?"`, `${site.base}/harbour.pdf pages=3`];

  test('the combined Markdown says under each section what it asked, the question above its passages', async () => {
    const md = readFileSync(await batchTo('asked-combined', lines(), 'combined'), 'utf8');
    const sections = md.split('<a id="target-').slice(1);
    expect(sections.map((sec) => /^Asked with (.*)$/m.exec(sec)?.[1])).toEqual([undefined, '`grep=quay`', '`question="how high did the tide rise?"`', '`pages=3`']);
    expect(sections[2]).toMatch(/<[^>]+\/harbour\.pdf>\n\nAsked with `question="how high did the tide rise\?"`\n\n\[page 1\]\n\n/);
  });

  test('the CSV, the JSONL and the manifest tell the four rows apart by their options', async () => {
    const rows = parseCsv(readFileSync(await batchTo('asked-csv', lines(), 'csv'), 'utf8'), { bom: true, columns: true }) as Record<string, string>[];
    expect(rows.map((r) => r['options'])).toEqual(['', 'grep=quay', 'question="how high did the tide rise?"', 'pages=3']);
    const jsonl = readFileSync(await batchTo('asked-jsonl', lines(), 'jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { options: unknown });
    expect(jsonl.map((o) => o.options)).toEqual([{}, { grep: 'quay' }, { question: 'how high did the tide rise?' }, { pages: '3' }]);
    const dir = await batchTo('asked-folder', lines(), 'md');
    const manifest = readFileSync(path.join(dir, 'manifest.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { options: unknown });
    expect(manifest.map((o) => o.options)).toEqual([{}, { grep: 'quay' }, { question: 'how high did the tide rise?' }, { pages: '3' }]);
  });
  test("--include-meta: a file's front matter says what it asked, and leaves out the line bookkeeping its page marks moved", async () => {
    const dir = await batchTo('asked-meta', lines(), 'md', '--include-meta');
    const manifest = readFileSync(path.join(dir, 'manifest.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { file: string });
    const question = readFileSync(path.join(dir, manifest[2]!.file), 'utf8');
    const front = /^---\n([\s\S]*?)\n---\n\n/.exec(question)![1]!;
    expect(front).toContain('\noptions: {"question":"how high did the tide rise?"}\n');
    expect(front).toContain('\npages_total: 3\n');
    expect(front).not.toMatch(/^(page_lines|source_lines):/m);
    expect(question.slice(front.length + 10)).toMatch(/^\[page 1\]\n\n/);
    // A target asked nothing more than its URL has no options line.
    expect(readFileSync(path.join(dir, manifest[0]!.file), 'utf8')).not.toMatch(/^options:/m);
  });
});

describe("a jq program's output exported", () => {
  test('several values are a .jsonl file, one value a line, that a JSON reader opens; one value stays a .json file', async () => {
    const dir = await batchTo('jq', [`${site.base}/boats.json jq='.boats[]'`, `${site.base}/boats.json jq='.harbour'`, `${site.base}/boats.json jq='.boats | length'`], 'folder');
    const manifest = readFileSync(path.join(dir, 'manifest.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { file: string });
    expect(manifest.map((m) => path.extname(m.file))).toEqual(['.jsonl', '.json', '.json']);
    const boats = readFileSync(path.join(dir, manifest[0]!.file), 'utf8');
    expect(boats.endsWith('\n')).toBe(true);
    expect(boats.trimEnd().split('\n').map((l) => JSON.parse(l) as unknown)).toEqual([
      { name: 'Kittiwake', berth: 'A 3', crew: ['Ann', 'Bo'] },
      { name: 'Tern "II"', berth: 'B 1', crew: [] },
    ]);
    expect(JSON.parse(readFileSync(path.join(dir, manifest[1]!.file), 'utf8'))).toBe('Inner basin');
    expect(JSON.parse(readFileSync(path.join(dir, manifest[2]!.file), 'utf8'))).toBe(2);
  });

  test("the values are read once per export to choose the file's kind and write its lines, not once for each", async () => {
    writeFileSync(path.join(tmp.dir, 'jq-once.txt'), `${site.base}/boats.json jq='.boats[]'\n`);
    const run = await sift('batch', 'jq-once.txt', '--db', db);
    expect(run.code, run.err).toBe(0);
    const id = /^job (\S+)/.exec(run.err)![1]!;
    // Counted, not replaced: the real JSON.parse reads every value the export checks.
    const values = new Set(['{"name":"Kittiwake","berth":"A 3","crew":["Ann","Bo"]}', '{"name":"Tern \\"II\\"","berth":"B 1","crew":[]}']);
    const parse = JSON.parse;
    let reads = 0;
    const spy = vi.spyOn(JSON, 'parse').mockImplementation((text: string, reviver?: Parameters<typeof JSON.parse>[1]) => {
      if (values.has(text)) reads++;
      return parse(text, reviver) as unknown;
    });
    const out = path.join(tmp.dir, 'out-jq-once');
    const exported = await sift('export', id, '--db', db, '--out', out, '--format', 'folder').finally(() => spy.mockRestore());
    expect(exported.code, exported.err).toBe(0);
    const dir = /^exported .+? to (.+) \([\d.,]+ [kMG]?B\): /m.exec(exported.err)![1]!;
    const [file] = readFileSync(path.join(dir, 'manifest.jsonl'), 'utf8').trim().split('\n').map((l) => (JSON.parse(l) as { file: string }).file);
    expect(readFileSync(path.join(dir, file!), 'utf8')).toBe(`${[...values].join('\n')}\n`);
    expect(reads).toBe(values.size);
  });
});
