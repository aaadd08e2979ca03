import { toErrorInfo } from '../shared/errors';
import { hintOn } from '../shared/hints';
import { fetchListAt, isListType, type FetchedList } from '../main/list-at';
import { CLI_CALLER } from './settings';
import { cliFetcher } from './commands/fetch';
import { UsageError, type CliIO } from './io';

/** A list given by its address (`sift batch https://example.org/sitemap.xml`), not a file's name. */
export const isListUrl = (arg: string): boolean => /^https?:\/\//i.test(arg);

/**
 * Fetches the list at `url` (main/list-at.ts). A list that cannot be fetched, or is no text
 * (a PDF, an image), is a usage error (exit 2); null when the user interrupted it.
 */
export async function fetchListInput(url: string, values: Record<string, unknown>, io: CliIO, signal: AbortSignal): Promise<FetchedList | null> {
  const fetcher = cliFetcher(values, io);
  try {
    const list = await fetchListAt(fetcher, CLI_CALLER, url, signal);
    if (!isListType(list.mimeType)) {
      throw new UsageError(`${url} is not a list of URLs (it is ${list.mimeType}): sift fetch ${url} reads it; a list is text with one URL a line, a sitemap, a feed or a web page of links`);
    }
    return list;
  } catch (err) {
    if (err instanceof UsageError) throw err;
    if (signal.aborted) return null;
    // The fetcher names a limit's place as the app reads it ("in Settings"): said in the command
    // line's words, as sift fetch says the same error of a page.
    const info = toErrorInfo(err);
    const [message, hint] = [hintOn('cli', info.message), hintOn('cli', info.hint)];
    throw new UsageError(`cannot fetch the list at ${url}: ${message}${hint ? `\n  ${hint}` : ''}`);
  } finally {
    await fetcher.close();
  }
}
