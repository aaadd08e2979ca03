/**
 * `npm run bench -- article-cost`: what extracting one real page costs, on the article
 * benchmark's pages (shared/corpora/article-extraction): ms per page for the pipeline's
 * extractArticle, and its parts timed alone on the same pages: linkedom's parse, Readability
 * on that parse, Turndown on Readability's article (from its HTML as v1 did, and from its tree
 * as extractArticle does now), and the plain-text pass. Baseline
 * in the same run: the parse alone (the floor of any extraction on linkedom).
 */
import { Readability } from '@mozilla/readability';
import { extractArticle, markdownOf, markdownOfTree, parseDocument, textOf } from '../src/main/fetch/html';
import { parseHTML } from 'linkedom';
import { articlePages } from './_corpus';

function timeEach<T>(items: T[], fn: (x: T) => unknown): number {
  const t0 = performance.now();
  for (const x of items) fn(x);
  return (performance.now() - t0) / items.length;
}

export default async function run(): Promise<void> {
  const pages = articlePages();
  const url = 'https://example.org/article';
  // Warm-up: JIT and the lazily built Turndown instance.
  for (const p of pages.slice(0, 10)) extractArticle(p.html, url);

  const contents = pages.map((p) => new Readability(parseDocument(p.html, url) as unknown as Document, { keepClasses: false }).parse()?.content ?? '');
  const rounds = Number(process.env.SIFT_BENCH_ROUNDS ?? 3);
  const trees = contents.map((c) => parseHTML(`<!doctype html><html><body>${c}</body></html>`).document.body);
  const sum = { total: 0, parse: 0, readability: 0, turndown: 0, tree: 0, text: 0 };
  for (let r = 0; r < rounds; r++) {
    sum.total += timeEach(pages, (p) => extractArticle(p.html, url).markdown);
    sum.parse += timeEach(pages, (p) => parseDocument(p.html, url));
    // Readability alone: the parse is timed above, so it is taken out here.
    const docs = pages.map((p) => parseDocument(p.html, url));
    sum.readability += timeEach(docs, (d) => new Readability(d as unknown as Document, { keepClasses: false }).parse());
    sum.turndown += timeEach(contents, (c) => markdownOf(c));
    sum.tree += timeEach(trees, (t) => markdownOfTree(t as never));
    sum.text += timeEach(contents, (c) => {
      const { document } = parseHTML(`<!doctype html><html><body>${c}</body></html>`);
      return textOf(document.body ?? document);
    });
  }
  const ms = (k: keyof typeof sum): number => sum[k] / rounds;
  const kib = pages.reduce((a, p) => a + p.html.length, 0) / pages.length / 1024;
  process.stdout.write(`${pages.length} pages of the article benchmark, ${kib.toFixed(0)} KiB each on average, ${rounds} rounds\n`);
  process.stdout.write(`extractArticle (markdown)       ${ms('total').toFixed(2).padStart(7)} ms/page  ${(ms('total') / ms('parse')).toFixed(2)}x the parse alone\n`);
  for (const [k, label] of [['parse', 'linkedom parse'], ['readability', 'Readability (on a parse)'], ['turndown', 'Turndown (article HTML)'], ['tree', 'Turndown (article tree)'], ['text', 'text pass (parse + walk)']] as const) {
    process.stdout.write(`  ${label.padEnd(30)}${ms(k).toFixed(2).padStart(7)} ms/page  ${((100 * ms(k)) / ms('total')).toFixed(0).padStart(3)}%\n`);
  }
}
