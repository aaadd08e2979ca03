import type { ListFormat } from './index';
import { parseOptionsText } from './options';
import { xmlRoot } from './xml';

const BY_MIME: Record<string, ListFormat> = {
  'text/uri-list': 'uri-list',
  'text/csv': 'csv',
  'application/csv': 'csv',
  'text/tab-separated-values': 'tsv',
  'text/markdown': 'markdown',
  'text/x-markdown': 'markdown',
  'text/html': 'html',
  'application/xhtml+xml': 'html',
  'application/json': 'json',
  'application/x-ndjson': 'json',
  'application/jsonl': 'json',
  'text/plain': 'text',
  'application/xml': 'xml',
  'text/xml': 'xml',
  'application/rss+xml': 'xml',
  'application/atom+xml': 'xml',
  'application/rdf+xml': 'xml',
  'text/x-opml': 'xml',
  'text/x-opml+xml': 'xml',
  'application/x-opml': 'xml',
};
const BY_EXT: Record<string, ListFormat> = {
  csv: 'csv',
  tsv: 'tsv',
  tab: 'tsv',
  md: 'markdown',
  markdown: 'markdown',
  html: 'html',
  htm: 'html',
  json: 'json',
  jsonl: 'json',
  ndjson: 'json',
  uri: 'uri-list',
  uris: 'uri-list',
  urls: 'text',
  txt: 'text',
  list: 'text',
  xml: 'xml',
  opml: 'xml',
  rss: 'xml',
  atom: 'xml',
};

/** The file extensions a list is known by, for the app's Open dialog. */
export const LIST_EXTENSIONS: readonly string[] = Object.keys(BY_EXT);

// What a plain-text list line looks like: a URL, then a space (options) or the end. A
// URL may hold commas, so a comma after one does not make the line CSV.
const TEXT_LINE = /^[a-z][a-z0-9+.-]*:\/\/[^\s,]*(?:\s|$)/i;
const URL_HEADER = /(?:^|[,;\t])\s*"?(?:url|link|href)"?\s*(?:[,;\t]|$)/i;
const MD_LINK = /\[[^\]\n]*\]\(\s*<?[a-z#./]/i;
const MD_LIST_URL = /^\s{0,3}(?:[-*+]|\d+[.)])\s+.*https?:\/\//im;
// A URL after a word and a space, as a sentence has it; a spreadsheet's cell follows its separator.
const PROSE_URL = /\S[ ]+[(<"'“‘]?https?:\/\//i;
const HTML_START = /^<(?:!doctype|html|head|body|dl|dt|meta|title|h1|p|ul|ol|li|div|a)[\s>]/i;

/** A plain-text list's line: a URL, then options ("pages=1-5 context"). */
function urlWithOptions(line: string): boolean {
  const ws = line.search(/\s/);
  if (ws === -1 || !TEXT_LINE.test(line)) return false;
  const rest = line.slice(ws + 1).trim();
  return rest !== '' && !rest.startsWith('#') && parseOptionsText(rest).ok;
}

/**
 * The format of a list: the MIME type when given (a drop or a paste says it), else the file
 * extension, else a look at the first 64 KiB. Only plain text and text/uri-list cannot be
 * told apart by content; they read the same except that uri-list lines take no options.
 */
export function detectFormat(input: string, filename?: string, mimeType?: string): ListFormat {
  const mime = mimeType?.split(';')[0]?.trim().toLowerCase();
  if (mime && Object.hasOwn(BY_MIME, mime)) return BY_MIME[mime] as ListFormat;
  // links.csv.gz is read unpacked (decodeListFile), as a .csv.
  const ext = filename?.toLowerCase().replace(/\.gz$/, '').match(/\.([a-z0-9]+)$/)?.[1];
  if (ext && Object.hasOwn(BY_EXT, ext)) return BY_EXT[ext] as ListFormat;

  const head = input.slice(0, 65536).replace(/^\uFEFF/, '');
  const start = head.trimStart();
  if (/^\[\s*(?:["{\]]|$)/.test(start) || /^\{\s*"/.test(start)) return 'json';
  if (HTML_START.test(start) || /^<!--/.test(start) && /<a\s[^>]*href/i.test(head)) return 'html';
  // A sitemap, an OPML outline, a feed; an XHTML page is HTML.
  if (/^<\?xml|^<(?:urlset|sitemapindex|opml|rss|feed|rdf:RDF)[\s>]/i.test(start)) return xmlRoot(start)?.toLowerCase() === 'html' ? 'html' : 'xml';

  // Excel's "sep=;" line, naming the separator of the CSV under it.
  if (/^sep=[,;\t][ \t]*(?:\r?\n|$)/i.test(head)) return 'csv';
  const lines: string[] = [];
  for (const l of head.split('\n', 200)) {
    const t = l.trim();
    if (t !== '' && !t.startsWith('#')) lines.push(t);
    if (lines.length >= 20) break;
  }
  if (lines.length === 0) return 'text';
  const firstLine = lines[0] as string;
  const allText = lines.every((l) => TEXT_LINE.test(l));
  // Prose with URLs in it (an e-mail, a chat message, notes): commas in every sentence made it
  // a CSV with "no column holds URLs", and a line of words a text list's "not a URL". Read as
  // Markdown, the URLs are taken and the words around them are not entries to count. A line
  // that is a URL with options keeps the list plain text, whose options Markdown would drop.
  if (!allText && !URL_HEADER.test(firstLine) && lines.some((l) => PROSE_URL.test(l) && !TEXT_LINE.test(l)) && !lines.some(urlWithOptions)) return 'markdown';
  if (!allText || URL_HEADER.test(firstLine)) {
    if (lines.every((l) => l.includes('\t'))) return 'tsv';
    // Commas, or the semicolons Excel writes where the comma is the decimal mark.
    if (lines.length > 1 ? lines.every((l) => l.includes(',')) || lines.every((l) => l.includes(';')) : URL_HEADER.test(firstLine)) return 'csv';
  }
  if (!allText && (MD_LINK.test(head) || MD_LIST_URL.test(head) || /<https?:\/\/[^>\s]+>/i.test(head))) return 'markdown';
  return 'text';
}
