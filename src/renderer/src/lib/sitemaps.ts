import type { ComposerList } from './packed-list';
import { MAX_CHILD_SITEMAPS } from '../../../shared/urllist/xml';

/** A sitemap's address by the sitemaps protocol's convention: sitemap.xml, sitemap-posts.xml.gz, post-sitemap.xml. */
const SITEMAP_FILE = /sitemap[^/]*\.xml(?:\.gz)?$/i;

/**
 * Whether every URL of the list names a sitemap: fetched as they are, they give XML, so the
 * composer offers to read the pages they list instead (the list of a site's sitemaps, or the
 * one sitemap's address a user pasted).
 */
export function looksLikeSitemaps(list: ComposerList | null): boolean {
  if (!list || list.sitemapIndex || list.length === 0 || list.length > MAX_CHILD_SITEMAPS) return false;
  // Asked at every change of the store (a job's events, ~10 a second): answered once a list.
  let answer = answers.get(list);
  if (answer === undefined) {
    answer = list.all().every((t) => {
      try {
        return SITEMAP_FILE.test(new URL(t.url).pathname);
      } catch {
        return false;
      }
    });
    answers.set(list, answer);
  }
  return answer;
}
const answers = new WeakMap<ComposerList, boolean>();
