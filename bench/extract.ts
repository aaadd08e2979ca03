/**
 * `npm run bench -- extract`: HTML→markdown ms per page (linkedom + Readability + Turndown,
 * the pipeline's) against Readability + Turndown on jsdom, and PDF pages per second (the
 * pdf.js worker pool) against poppler's pdftotext, on the same generated corpus in one run.
 */
import { execFileSync, execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
// @ts-expect-error -- jsdom is a dev dependency without @types here; only its constructor is used.
import * as jsdom from 'jsdom';
import { Readability } from '@mozilla/readability';
import TurndownService from 'turndown';
import { gfm } from '@joplin/turndown-plugin-gfm';
import { readFileSync, existsSync } from 'node:fs';
import { createFetcher, PdfPool } from '../src/main/fetch';
import { extractArticle } from '../src/main/fetch/html';
import { pageText } from '../src/main/fetch/pdf-layout.mjs';
import { dehyphenate, dropFurniture, vocabulary } from '../src/main/fetch/pdf-text';
import { shingleF1 } from './_fidelity-pdf';
import { makePdf } from '../test/helpers/fetch-pdf';

const WORDS = 'tide harbour moon current vessel keel sail anchor river delta estuary channel pilot chart depth sounding gale swell reef lighthouse'.split(' ');
let seed = 7;
const rand = (n: number): number => ((seed = (seed * 1103515245 + 12345) % 2 ** 31), seed % n);
const words = (n: number): string => Array.from({ length: n }, () => WORDS[rand(WORDS.length)]).join(' ');
const sentence = (): string => `${words(8 + rand(14))}.`.replace(/^./, (c) => c.toUpperCase());

/** A news-site-like page: header, nav, sidebar, ads, scripts, an article with headings, lists, a table, figures, and comments. */
function page(i: number): string {
  const para = (): string => `<p>${Array.from({ length: 3 + rand(4) }, sentence).join(' ')} <a href="/story/${rand(999)}">${words(2)}</a>.</p>`;
  const nav = `<nav class="menu"><ul>${Array.from({ length: 25 }, (_, k) => `<li><a href="/section/${k}">${words(1)}</a></li>`).join('')}</ul></nav>`;
  const aside = `<aside class="sidebar"><h3>Most read</h3><ol>${Array.from({ length: 10 }, (_, k) => `<li><a href="/top/${k}">${sentence()}</a></li>`).join('')}</ol><div class="ad">Advertisement</div></aside>`;
  const table = `<table><thead><tr><th>Port</th><th>High</th><th>Low</th></tr></thead><tbody>${Array.from({ length: 8 }, () => `<tr><td>${words(1)}</td><td>0${rand(9)}:${10 + rand(49)}</td><td>1${rand(9)}:${10 + rand(49)}</td></tr>`).join('')}</tbody></table>`;
  const body = Array.from({ length: 4 }, (_, s) => `<h2>${words(4)}</h2>${Array.from({ length: 3 + rand(3) }, para).join('')}${s === 1 ? table : ''}${s === 2 ? `<ul>${Array.from({ length: 5 }, () => `<li>${sentence()}</li>`).join('')}</ul>` : ''}<figure><img src="/img/${i}-${s}.jpg" alt="${words(3)}"><figcaption>${sentence()}</figcaption></figure>`).join('');
  const comments = `<section class="comments">${Array.from({ length: 12 }, () => `<div class="comment"><b>${words(1)}</b><p>${sentence()}</p></div>`).join('')}</section>`;
  const scripts = `<script>window.dataLayer=[${'{"k":1},'.repeat(200)}];</script><style>${'.x{color:red}'.repeat(200)}</style>`;
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${words(5)} | The Harbour Times</title><meta property="og:title" content="${words(5)}">${scripts}</head><body><header><a href="/">The Harbour Times</a>${nav}</header><main><article><h1>${words(6)}</h1><p class="byline">By ${words(2)}</p>${body}</article>${aside}</main>${comments}<footer>${nav}<p>© 2024</p></footer></body></html>`;
}

const { JSDOM } = jsdom as { JSDOM: new (html: string, o: { url: string }) => { window: { document: Document } } };
// Built once, as the pipeline builds its own once.
const td = new TurndownService({ headingStyle: 'atx', codeBlockStyle: 'fenced', bulletListMarker: '-', emDelimiter: '_' }).use(gfm);
function jsdomMarkdown(html: string, url: string): string {
  const dom = new JSDOM(html, { url });
  const a = new Readability(dom.window.document).parse();
  const title = a?.title ?? '';
  return `# ${title}\n\n${td.turndown(a?.content ?? '')}`;
}

const tokens = (s: string): string[] => s.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
/** Share of the reference's words (as a multiset) that the other text has too. */
function agreement(ours: string, ref: string): number {
  const bag = new Map<string, number>();
  for (const t of tokens(ours)) bag.set(t, (bag.get(t) ?? 0) + 1);
  const r = tokens(ref);
  let hit = 0;
  for (const t of r) {
    const n = bag.get(t) ?? 0;
    if (n > 0) {
      hit++;
      bag.set(t, n - 1);
    }
  }
  return r.length ? hit / r.length : 1;
}

function time<T>(fn: () => T): [T, number] {
  const t = process.hrtime.bigint();
  const v = fn();
  return [v, Number(process.hrtime.bigint() - t) / 1e6];
}

async function html(): Promise<void> {
  const N = 40;
  const pages = Array.from({ length: N }, (_, i) => page(i));
  const url = (i: number): string => `https://news.example/story/${i}`;
  // Warm both paths so JIT and module loading are not measured.
  for (let i = 0; i < 3; i++) {
    extractArticle(pages[i] as string, url(i));
    jsdomMarkdown(pages[i] as string, url(i));
  }
  const [ours, tOurs] = time(() => pages.map((p, i) => extractArticle(p, url(i)).markdown));
  const [base, tBase] = time(() => pages.map((p, i) => jsdomMarkdown(p, url(i))));
  const agree = ours.map((o, i) => agreement(o, base[i] as string));
  const meanAgree = agree.reduce((a, b) => a + b, 0) / agree.length;
  const kb = pages.reduce((a, p) => a + p.length, 0) / N / 1024;
  process.stdout.write(
    `html→markdown, ${N} pages of ~${kb.toFixed(0)} KiB:\n` +
      `  linkedom (pipeline): ${(tOurs / N).toFixed(1)} ms/page\n` +
      `  jsdom (baseline):    ${(tBase / N).toFixed(1)} ms/page\n` +
      `  ratio: ${(tBase / tOurs).toFixed(2)}x faster; markdown word agreement with the jsdom result: ${(meanAgree * 100).toFixed(1)}% (min ${(Math.min(...agree) * 100).toFixed(1)}%)\n`,
  );
}

async function pdf(): Promise<void> {
  let hasPdftotext = true;
  try {
    execFileSync('pdftotext', ['-v'], { stdio: 'ignore' });
  } catch {
    hasPdftotext = false;
  }
  const dir = mkdtempSync(path.join(tmpdir(), 'sift-bench-pdf-'));
  const FILES = 4;
  const PAGES = 150;
  const files = Array.from({ length: FILES }, (_, f) => {
    const buf = makePdf({ title: `Report ${f}`, pages: Array.from({ length: PAGES }, () => Array.from({ length: 40 }, sentence)) });
    const p = path.join(dir, `r${f}.pdf`);
    writeFileSync(p, buf);
    return { p, buf };
  });
  const total = FILES * PAGES;
  // One worker against one pdftotext process at a time: the same single core for both.
  const pool = new PdfPool(1);
  const never = new AbortController().signal;
  await pool.extract('warm', makePdf({ pages: [['warm up']] }), null, 10, never);
  let t = process.hrtime.bigint();
  const ours: string[] = [];
  for (const f of files) ours.push((await pool.extract('bench', f.buf, null, 1000, never)).pages.map((p) => p.text).join('\n\n'));
  const tOurs = Number(process.hrtime.bigint() - t) / 1e6;
  await pool.close();
  process.stdout.write(`pdf text, ${FILES} files × ${PAGES} pages:\n  pdf.js pool (1 worker): ${((total / tOurs) * 1000).toFixed(0)} pages/s\n`);
  if (!hasPdftotext) {
    process.stdout.write('  pdftotext not installed (apt-get install -y poppler-utils): baseline skipped\n');
    rmSync(dir, { recursive: true, force: true });
    return;
  }
  const run = promisify(execFile);
  t = process.hrtime.bigint();
  const ref: string[] = [];
  for (const f of files) ref.push((await run('pdftotext', ['-enc', 'UTF-8', f.p, '-'], { maxBuffer: 64 * 1024 * 1024 })).stdout);
  const tRef = Number(process.hrtime.bigint() - t) / 1e6;
  const agree = ours.map((o, i) => agreement(o, ref[i] as string));
  process.stdout.write(
    `  pdftotext (baseline):  ${((total / tRef) * 1000).toFixed(0)} pages/s\n` +
      `  ratio: ${(tRef / tOurs).toFixed(2)}x pdftotext's speed; word agreement with pdftotext: ${((agree.reduce((a, b) => a + b, 0) / agree.length) * 100).toFixed(1)}%\n`,
  );
  rmSync(dir, { recursive: true, force: true });
}

/** The 300+ page book of the shared corpus (Free Culture, 352 pages). */
const BOOK = ['../../../shared/corpora/pdfs/freeculture.pdf', '/work/shared/corpora/pdfs/freeculture.pdf'].map((p) => path.resolve(__dirname, p)).find((p) => existsSync(p));

const ms = (t: bigint): number => Number(process.hrtime.bigint() - t) / 1e6;

/**
 * A real 352-page book: Sift's whole path (the pool with 1 and with 2 workers, pages spread
 * over them) and each step of it on this thread, against pdftotext on the same file, in one run.
 */
async function book(): Promise<void> {
  if (!BOOK) {
    process.stdout.write('book: shared/corpora/pdfs/freeculture.pdf not found; skipped\n');
    return;
  }
  const data = readFileSync(BOOK);
  const run = promisify(execFile);
  const pdftotext = async (): Promise<[string, number]> => {
    const t = process.hrtime.bigint();
    const { stdout } = await run('pdftotext', ['-enc', 'UTF-8', BOOK, '-'], { maxBuffer: 256 * 1024 * 1024 });
    return [stdout, ms(t)];
  };
  try {
    await pdftotext();
  } catch {
    process.stdout.write('book: pdftotext not installed (apt-get install -y poppler-utils); skipped\n');
    return;
  }
  // Each step on this thread, as the worker runs it: pdf.js loaded and called the worker's way.
  const { pdfjs, DOC_OPTIONS, TEXT_OPTIONS } = await import('../src/main/fetch/pdf-engine.mjs');
  const steps = { open: 0, text: 0, layout: 0, clean: 0 };
  let t = process.hrtime.bigint();
  const doc = await pdfjs.getDocument({ data: new Uint8Array(data), ...DOC_OPTIONS }).promise;
  steps.open = ms(t);
  const texts: string[] = [];
  for (let n = 1; n <= doc.numPages; n++) {
    t = process.hrtime.bigint();
    const page = await doc.getPage(n);
    const content = await page.getTextContent(TEXT_OPTIONS);
    steps.text += ms(t);
    t = process.hrtime.bigint();
    texts.push(pageText(content as Parameters<typeof pageText>[0]).text);
    steps.layout += ms(t);
    page.cleanup();
  }
  await doc.destroy();
  t = process.hrtime.bigint();
  const { pages } = dropFurniture(texts);
  const vocab = vocabulary(pages);
  pages.map((p) => dehyphenate(p, vocab).text);
  steps.clean = ms(t);

  // The whole path through the pool (sift extract's), warm workers. The three contenders
  // take turns, three rounds, best of each kept: on a shared machine the load moves.
  const fetchers = [createFetcher({ maxPdfPages: 1000 }, { pdfWorkers: 1 }), createFetcher({ maxPdfPages: 1000 }, { pdfWorkers: 2 })];
  for (const f of fetchers) await f.extractBuffer(makePdf({ pages: [['warm up']] }), 'application/pdf', { mode: 'text' });
  const best = [Infinity, Infinity, Infinity];
  const out = ['', '', ''];
  for (let round = 0; round < 3; round++) {
    for (let k = 0; k < 3; k++) {
      const t0 = process.hrtime.bigint();
      const f = fetchers[k - 1];
      out[k] = f ? (await f.extractBuffer(data, 'application/pdf', { mode: 'text' })).content : (await pdftotext())[0];
      best[k] = Math.min(best[k] as number, ms(t0));
    }
  }
  await Promise.all(fetchers.map((f) => f.close()));
  const [ref, one, two] = out as [string, string, string];
  const [base, tOne, tTwo] = best as [number, number, number];
  const refPages = dropFurniture(ref.split('\f')).pages.join('\n\n');
  const row = (name: string, v: number): string => `  ${name.padEnd(38)} ${v.toFixed(0).padStart(6)} ms  ${(v / doc.numPages).toFixed(2).padStart(6)} ms/page  ${(base / v).toFixed(2)}x pdftotext's speed\n`;
  process.stdout.write(
    `pdf book, ${path.basename(BOOK)} (${doc.numPages} pages, ${(data.length / 1048576).toFixed(1)} MiB), best of 3 interleaved runs, load average ${loadavg()[0]?.toFixed(1)}:\n` +
      row('pdftotext (baseline)', base) +
      row('sift, pool of 1 worker', tOne) +
      row('sift, pool of 2 workers (pages spread)', tTwo) +
      '  steps on one thread:\n' +
      row('  parse the document', steps.open) +
      row('  pdf.js text content (all pages)', steps.text) +
      row('  reading order (pdf-layout)', steps.layout) +
      row('  furniture + hyphens (pdf-text)', steps.clean) +
      `  text of 2 workers = text of 1 worker: ${one === two ? 'yes' : 'NO'}; agreement with pdftotext (shingle F1, fidelity bench's normalisation): ${shingleF1(two, refPages).f1.toFixed(3)}\n`,
  );
}

export default async function (): Promise<void> {
  await html();
  await pdf();
  await book();
}
