/** The article benchmark's real pages (../shared/corpora/article-extraction), for the benches that time extraction. */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';

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
