/**
 * `npm run bench -- extract`: HTML→markdown ms per page (linkedom + Readability + Turndown,
 * the pipeline's) against Readability + Turndown on jsdom, and PDF pages per second (the
 * pdf.js worker pool) against poppler's pdftotext, on the same generated corpus in one run.
 */
import { execFileSync, execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
// @ts-expect-error -- jsdom is a dev dependency without @types here; only its constructor is used.
import * as jsdom from 'jsdom';
import { Readability } from '@mozilla/readability';
import TurndownService from 'turndown';
import { gfm } from '@joplin/turndown-plugin-gfm';
import { extractArticle, PdfPool } from '../src/main/fetch';
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

export default async function (): Promise<void> {
  await html();
  await pdf();
}
