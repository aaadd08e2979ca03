/// <reference lib="webworker" />
/**
 * Parses a list off the main thread: a 50,000-line list takes a few hundred ms to read,
 * long enough to freeze typing and the job table if done on the window's thread. The answer
 * is packed (lib/packed-list.ts), so taking it in is cheap for the window too.
 */
import { parseList, type ParseListOptions } from '../../shared/urllist';
import { isSitemapIndex, xmlRoot } from '../../shared/urllist/xml';
import { packList, transferables } from './lib/packed-list';

export interface ParseRequest {
  seq: number;
  text: string;
  opts: ParseListOptions;
}

self.onmessage = (e: MessageEvent<ParseRequest>) => {
  const { seq, text, opts } = e.data;
  const list = parseList(text, opts);
  const xml = list.format === 'xml' && list.targets.length > 0;
  const packed = { ...packList(list), sitemapIndex: xml && isSitemapIndex(text), opml: xml && xmlRoot(text) === 'opml' };
  self.postMessage({ seq, packed }, transferables(packed));
};
