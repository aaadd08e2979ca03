import { toErrorInfo } from '../shared/errors';
import { fileNameOfUrl } from '../main/fetch/url';
import { CLI_CALLER } from './settings';
import { cliFetcher } from './commands/fetch';
import { UsageError, type CliIO } from './io';

/** A list given by its address (`sift batch https://example.org/sitemap.xml`), not a file's name. */
export const isListUrl = (arg: string): boolean => /^https?:\/\//i.test(arg);

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

/**
 * Fetches a list through the same guarded fetcher as every target (the allow list, the size
 * limit, gzip: sitemap.xml.gz), as it is (mode raw) and without running its scripts. A list
 * that cannot be fetched, or is no text (a PDF, an image), is a usage error (exit 2); null
 * when the user interrupted it.
 */
export async function fetchListInput(url: string, values: Record<string, unknown>, io: CliIO, signal: AbortSignal): Promise<FetchedList | null> {
  const fetcher = cliFetcher(values, io);
  try {
    const r = await fetcher.fetchTarget(signal, CLI_CALLER, { url, options: { mode: 'raw', render: 'never' } });
    const type = typeof r.meta?.content_type === 'string' ? r.meta.content_type : '';
    if (type && !LIST_TYPE.test(type)) {
      throw new UsageError(`${url} is not a list of URLs (it is ${type}): sift fetch ${url} reads it; a list is text with one URL a line, a sitemap, a feed or a web page of links`);
    }
    const base = typeof r.meta?.final_url === 'string' ? r.meta.final_url : url;
    return { text: r.content, mimeType: type, filename: fileNameOfUrl(base), base };
  } catch (err) {
    if (err instanceof UsageError) throw err;
    if (signal.aborted) return null;
    const { message, hint } = toErrorInfo(err);
    throw new UsageError(`cannot fetch the list at ${url}: ${message}${hint ? `\n  ${hint}` : ''}`);
  } finally {
    await fetcher.close();
  }
}
