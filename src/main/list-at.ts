import type { Caller, Fetcher } from './fetch';
import { fileNameOfUrl } from '../shared/urllist/url';

/** What a fetched list is read as: its text, and what tells its format and its links' base. */
export interface FetchedList {
  text: string;
  mimeType: string;
  /** The file name its address ends in (sitemap.xml, list.csv), for the format. */
  filename: string;
  /** Where it came from after redirects: a web page's relative links resolve against it. */
  base: string;
}

// Text a list can be in: plain text, CSV, Markdown, HTML, XML (sitemaps, feeds, OPML), JSON.
const LIST_TYPE = /^(?:text\/|application\/(?:[\w.+-]*\+)?(?:xml|json)$|application\/(?:xhtml\+xml|x-ndjson|csv)$)/i;

/** Whether an answer of this media type can be a list of URLs (an answer without one may be). */
export const isListType = (mimeType: string): boolean => !mimeType || LIST_TYPE.test(mimeType);

/**
 * A list given by its address (`sift batch https://example.org/feed.xml`, the composer's "Read
 * the list at this address"), fetched through the same guarded fetcher as every target (the
 * allow list, the size limit, gzip: sitemap.xml.gz), as it is (mode raw) and without running
 * its scripts. Throws the fetch's own error; whether the answer can be a list is the caller's
 * to ask (isListType), as each says so in its own words.
 */
export async function fetchListAt(fetcher: Pick<Fetcher, 'fetchTarget'>, caller: Caller, url: string, signal: AbortSignal): Promise<FetchedList> {
  const r = await fetcher.fetchTarget(signal, caller, { url, options: { mode: 'raw', render: 'never' } });
  const mimeType = typeof r.meta?.content_type === 'string' ? r.meta.content_type : '';
  const base = typeof r.meta?.final_url === 'string' ? r.meta.final_url : url;
  return { text: r.content, mimeType, filename: fileNameOfUrl(base), base };
}
