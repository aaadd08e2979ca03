/** The article benchmark's real pages (../shared/corpora/article-extraction), for the benches that time extraction. */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { decodeText } from '../src/main/fetch';

const isDir = (p: string): boolean => {
  try {
    return statSync(p).isDirectory();
  } catch {
    return false;
  }
};

/** SIFT_ARTICLE_CORPUS, else shared/corpora/article-extraction/html in a folder above the checkout. */
export function articleCorpus(): string {
  if (process.env.SIFT_ARTICLE_CORPUS) {
    if (isDir(process.env.SIFT_ARTICLE_CORPUS)) return process.env.SIFT_ARTICLE_CORPUS;
    throw new Error(`SIFT_ARTICLE_CORPUS=${process.env.SIFT_ARTICLE_CORPUS} is not a folder`);
  }
  for (let d = path.resolve(__dirname, '..'); ; d = path.dirname(d)) {
    const candidate = path.join(d, 'shared', 'corpora', 'article-extraction', 'html');
    if (isDir(candidate)) return candidate;
    if (path.dirname(d) === d) break;
  }
  throw new Error("the article benchmark's pages (shared/corpora/article-extraction/html) are not above this checkout; set SIFT_ARTICLE_CORPUS to the folder of its .html.gz files");
}

/** Every page, sorted by name: {id, html}. */
export function articlePages(dir = articleCorpus()): { id: string; html: string }[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith('.html.gz'))
    .sort()
    .map((f) => ({ id: f.replace(/\.html\.gz$/, ''), html: gunzipSync(readFileSync(path.join(dir, f))).toString('utf8') }));
}

/** The page of median size: one typical page for the benches that time a single extraction. */
export function medianPage(dir = articleCorpus()): { id: string; html: string } {
  const pages = articlePages(dir).sort((a, b) => a.html.length - b.html.length || a.id.localeCompare(b.id));
  return pages[Math.floor(pages.length / 2)]!;
}

/** A benchmark page with the text its ground truth says is the article. */
export interface TruthPage {
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

/** The benchmark half in shared/corpora (or $SIFT_CORPORA/article-extraction) with its ground truth, by id; or why there is none. */
export function groundTruthPages(): TruthPage[] | string {
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
