/** Where the shared article-extraction corpus is, for the tests that run on its real pages. */
import { existsSync } from 'node:fs';
import path from 'node:path';

/**
 * The benchmark half of the article-extraction corpus (its `.html.gz` pages), found as
 * bench/_corpus.ts finds it: SIFT_CORPORA's article-extraction/html, else
 * shared/corpora/article-extraction/html in a folder above the checkout. Undefined where it is
 * not there, so a test can skip.
 */
export function articleCorpusDir(): string | undefined {
  const rel = path.join('shared', 'corpora', 'article-extraction', 'html');
  if (process.env.SIFT_CORPORA) return path.join(process.env.SIFT_CORPORA, 'article-extraction', 'html');
  for (let dir = path.resolve(__dirname); path.dirname(dir) !== dir; dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, rel))) return path.join(dir, rel);
  }
  return undefined;
}
