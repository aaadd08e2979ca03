/**
 * HTML half of `npm run bench -- fidelity`: Sift's article text (mode=text) against the
 * ground truth of the article extraction benchmark (../shared/corpora/article-extraction, the
 * Zyte/Scrapinghub set), scored with the benchmark's own metric (articleScore below is a port
 * of the corpus's evaluate.mjs), and against the expected output of Mozilla Readability's
 * test pages copied into test/fixtures/readability (the generality set: pages nobody tuned on).
 *
 * The baseline, measured in the same run, is v1's extraction: Readability on linkedom and the
 * text of what it returns, with no pruning of its own.
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { Readability } from '@mozilla/readability';
import { parseHTML } from 'linkedom';
import TurndownService from 'turndown';
import { gfm } from '@joplin/turndown-plugin-gfm';
import { decodeText, extractArticle, parseDocument, textOf } from '../src/main/fetch';

// ---- the benchmark's metric (evaluate.mjs / evaluate.py of scrapinghub/article-extraction-benchmark)

/** Python's str \w: letters, decimal and other numerics, underscore. */
const TOKEN = /[\p{L}\p{Nd}\p{No}\p{Nl}_]+/gu;
const tokenize = (t: string): string[] => t.match(TOKEN) ?? [];

/** 4-token shingles as a multiset; a text of fewer than 4 tokens is one shorter shingle. */
function shingles(text: string, n = 4): Map<string, number> {
  const tok = tokenize(text);
  const m = new Map<string, number>();
  for (let i = 0; i < Math.max(1, tok.length - n + 1); i++) {
    const s = tok.slice(i, i + n);
    if (!s.length) continue;
    const k = s.join('\u0001');
    m.set(k, (m.get(k) ?? 0) + 1);
  }
  return m;
}

type Counts = [tp: number, fp: number, fn: number];

/** Multiset overlap of the shingles, normalised to sum 1 (as upstream). */
export function articleCounts(truth: string, pred: string): Counts {
  const a = shingles(truth);
  const b = shingles(pred);
  let tp = 0;
  let fp = 0;
  let fn = 0;
  for (const k of new Set([...a.keys(), ...b.keys()])) {
    const x = a.get(k) ?? 0;
    const y = b.get(k) ?? 0;
    tp += Math.min(x, y);
    fp += Math.max(0, y - x);
    fn += Math.max(0, x - y);
  }
  const s = tp + fp + fn;
  return s > 0 ? [tp / s, fp / s, fn / s] : [tp, fp, fn];
}

const precisionOf = ([tp, fp, fn]: Counts): number => (fp === 0 && fn === 0 ? 1 : tp === 0 && fp === 0 ? 0 : tp / (tp + fp));
const recallOf = ([tp, fp, fn]: Counts): number => (fp === 0 && fn === 0 ? 1 : tp === 0 && fn === 0 ? 0 : tp / (tp + fn));
const mean = (a: number[]): number => (a.length ? a.reduce((x, y) => x + y, 0) / a.length : 0);

export interface Score {
  f1: number;
  precision: number;
  recall: number;
}

/** Precision and recall are means over the pages, F1 is taken of the two means (as upstream). */
export function articleScore(list: Counts[]): Score {
  const precision = mean(list.filter(([tp, fp]) => tp + fp > 0).map(precisionOf));
  const recall = mean(list.filter(([tp, , fn]) => tp + fn > 0).map(recallOf));
  return { f1: precision + recall > 0 ? (2 * precision * recall) / (precision + recall) : 0, precision, recall };
}

// ---- the pages

interface Page {
  id: string;
  url: string;
  html: string;
  truth: string;
}

function findUp(rel: string): string | undefined {
  for (let dir = path.resolve(__dirname, '..'); ; dir = path.dirname(dir)) {
    const p = path.join(dir, rel);
    if (existsSync(p)) return p;
    if (path.dirname(dir) === dir) return undefined;
  }
}

/** The benchmark half in shared/corpora (or $SIFT_CORPORA/article-extraction). */
function benchmarkPages(): Page[] | string {
  const dir = process.env.SIFT_CORPORA ? path.join(process.env.SIFT_CORPORA, 'article-extraction') : findUp('shared/corpora/article-extraction');
  if (!dir || !existsSync(path.join(dir, 'ground-truth.json'))) {
    return 'article-extraction corpus not found: put it at ../shared/corpora/article-extraction or set SIFT_CORPORA';
  }
  const gt = JSON.parse(readFileSync(path.join(dir, 'ground-truth.json'), 'utf8')) as Record<string, { articleBody: string; url: string }>;
  return Object.keys(gt)
    .sort()
    .map((id) => {
      const buf = gunzipSync(readFileSync(path.join(dir, 'html', `${id}.html.gz`)));
      return { id, url: gt[id]!.url, html: decodeText(buf, 'text/html').text, truth: gt[id]!.articleBody };
    });
}

/** Mozilla Readability's test pages (source.html + expected.html), see test/fixtures/readability/SOURCES.md. */
function readabilityPages(): Page[] {
  const dir = path.resolve(__dirname, '../test/fixtures/readability');
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => d.name)
    .sort()
    .map((name) => {
      const html = readFileSync(path.join(dir, name, 'source.html'), 'utf8');
      const expected = parseHTML(`<!doctype html><html><body>${readFileSync(path.join(dir, name, 'expected.html'), 'utf8')}</body></html>`).document;
      return { id: name, url: 'http://fakehost/test/page.html', html, truth: textOf(expected.body) };
    });
}

// ---- the extractors

// Built once with v1's options, as html.ts builds its own once.
const td = new TurndownService({ headingStyle: 'atx', codeBlockStyle: 'fenced', bulletListMarker: '-', emDelimiter: '_' }).use(gfm);
td.remove(['script', 'style', 'noscript', 'iframe', 'form', 'button']);

/**
 * v1: Readability on linkedom, the text of its article, nothing pruned. It also converts the
 * article to markdown, as v1's extractArticle does for every page, so ms/page compare alike.
 */
function v1Text(html: string, url: string): string {
  const document = parseDocument(html, url);
  let content = '';
  try {
    content = new Readability(document as unknown as Document, { keepClasses: false }).parse()?.content ?? '';
  } catch {
    content = '';
  }
  const { document: frag } = parseHTML(`<!doctype html><html><body>${content}</body></html>`);
  td.turndown(content);
  return textOf(frag.body ?? frag);
}

const siftText = (html: string, url: string): string => extractArticle(html, url).text;

interface Run {
  score: Score;
  msPerPage: number;
  counts: Counts[];
}

function run(pages: Page[], extract: (html: string, url: string) => string, dump?: string): Run {
  // Warm up (JIT, lazy module state) on a few pages so the first pages are not charged for it.
  for (const p of pages.slice(0, 3)) extract(p.html, p.url);
  const counts: Counts[] = [];
  const predictions: Record<string, { articleBody: string }> = {};
  let ms = 0;
  for (const p of pages) {
    const t = process.hrtime.bigint();
    const text = extract(p.html, p.url);
    ms += Number(process.hrtime.bigint() - t) / 1e6;
    counts.push(articleCounts(p.truth, text));
    if (dump) predictions[p.id] = { articleBody: text };
  }
  if (dump) writeFileSync(dump, JSON.stringify(predictions));
  return { score: articleScore(counts), msPerPage: ms / pages.length, counts };
}

const f3 = (x: number): string => x.toFixed(3);
const line = (label: string, r: Run): string =>
  `${label.padEnd(22)} F1 ${f3(r.score.f1)}  precision ${f3(r.score.precision)}  recall ${f3(r.score.recall)}  ${r.msPerPage.toFixed(1).padStart(6)} ms/page\n`;

function compare(title: string, pages: Page[]): void {
  const slug = title.split(/[^a-z]/i)[0]!.toLowerCase();
  const before = run(pages, v1Text, process.env.FIDELITY_DUMP && path.join(process.env.FIDELITY_DUMP, `${slug}-v1.json`));
  // FIDELITY_DUMP=dir writes each side's predictions for the corpus's own evaluate.mjs.
  const dump = process.env.FIDELITY_DUMP;
  const after = run(pages, siftText, dump && path.join(dump, `${slug}-sift.json`));
  // A second pass of the baseline, so the time ratio is not an artefact of running first.
  const before2 = run(pages, v1Text);
  const baseMs = Math.min(before.msPerPage, before2.msPerPage);
  process.stdout.write(`${title} (${pages.length} pages)\n`);
  process.stdout.write(line('  v1 (Readability)', { ...before, msPerPage: baseMs }));
  process.stdout.write(line('  sift', after));
  process.stdout.write(
    `  ratio sift/v1: F1 ${f3(after.score.f1 / before.score.f1)}  precision ${f3(after.score.precision / before.score.precision)}  recall ${f3(after.score.recall / before.score.recall)}  time ${f3(after.msPerPage / baseMs)}\n`,
  );
  if (process.env.FIDELITY_PAGES) {
    for (let i = 0; i < pages.length; i++) {
      const b = before.counts[i]!;
      const a = after.counts[i]!;
      process.stdout.write(
        `    ${pages[i]!.id.slice(0, 16)}  P ${f3(precisionOf(b))}→${f3(precisionOf(a))}  R ${f3(recallOf(b))}→${f3(recallOf(a))}\n`,
      );
    }
  }
}

export async function runHtmlFidelity(): Promise<void> {
  process.stdout.write('HTML article text (mode=text) against the ground truth, 4-token shingle metric of the article extraction benchmark\n');
  const bench = benchmarkPages();
  if (typeof bench === 'string') process.stdout.write(`  skipped: ${bench}\n`);
  else compare('article-extraction benchmark', bench);
  const gen = readabilityPages();
  if (gen.length) compare('generality: Mozilla Readability test pages', gen);
  else process.stdout.write('  skipped generality set: test/fixtures/readability is missing\n');
  return Promise.resolve();
}
