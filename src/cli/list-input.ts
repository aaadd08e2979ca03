import { existsSync } from 'node:fs';
import { DAMAGED_GZIP, DEFAULT_MAX_LINES, GZIP_TOO_LARGE, MAX_LIST_BYTES, decodeListFile, officeFile, type ListFormat, type ListProblem } from '../shared/urllist';
import { UsageError, userPath, type CliIO } from './io';
import { counted, formatCount } from './progress';
import { readFileUpTo, readStdinUpTo, TooLarge, unreadableWhy } from './read-file';
import { oneLine } from './terminal';

/** What to do with a file that is not a list, by what it seems to be. */
const NOT_A_LIST_HINT: Record<string, string> = {
  'a PDF document': 'sift extract FILE reads its text; a list is text with one URL a line',
  'a gzip file': 'unpack it first (gunzip -k FILE) and give the list inside',
  'a zip archive': 'unpack it first and give the list inside',
};

/**
 * A host name with a dot, or a host and port, then a path: example.org/sitemap.xml or
 * localhost:8080/list.txt, typed without its https://. As no file, it was told to give "the
 * path of a list of URLs", when it was one's address. A name alone (list.txt) or a name and
 * a number (notes:2026), or under a folder that is here (data.backup/urls.txt), stays a file's.
 */
const ADDRESS_WITHOUT_SCHEME = /^(?:(?:[a-z0-9-]+\.)+[a-z]{2,}|[a-z0-9.-]+:\d{1,5})\/\S*$/i;

/**
 * A list from FILE, or stdin for "-" (gzip unpacked); an unreadable file, or one that is no text (a PDF,
 * an archive, a program), is a usage error (exit 2). UTF-16 lists (Windows Notepad's
 * "Unicode", PowerShell's `>`) are read as such. Once the signal is aborted it throws its
 * reason: the caller checks `signal.aborted`.
 */
export async function readListInput(file: string, io: CliIO, signal: AbortSignal, command: string): Promise<string> {
  const name = file === '-' ? 'stdin' : file;
  let bytes: Buffer;
  try {
    bytes =
      file === '-'
        ? await readStdinUpTo(io, MAX_LIST_BYTES, signal, { command, what: 'the list' })
        : await readFileUpTo(userPath(io, file), MAX_LIST_BYTES, signal);
  } catch (err) {
    if (signal.aborted) throw err;
    if (err instanceof TooLarge) throw new UsageError(`cannot read ${name}: a list of URLs ${err.message} is more than Sift reads; split it into smaller lists`);
    // What to give instead: "no such file" alone left a script's author to guess whether sift
    // wanted a file, a URL or stdin.
    if (file !== '-' && command === 'batch' && (err as NodeJS.ErrnoException).code === 'ENOENT' && ADDRESS_WITHOUT_SCHEME.test(file) && !existsSync(userPath(io, file.split('/')[0] as string))) {
      throw new UsageError(`cannot read ${name}: no such file; for the list at that address on the web, give it with its scheme: sift batch https://${file}`);
    }
    throw new UsageError(`cannot read ${name}: ${unreadableWhy(err)}${file === '-' ? '' : '; give the path of a list of URLs, or - to read one from stdin'}`);
  }
  // A sitemap.xml.gz is read as the sitemap inside it.
  const decoded = await decodeListFile(bytes, MAX_LIST_BYTES);
  if (decoded.ok) return decoded.text;
  if (decoded.kind === GZIP_TOO_LARGE) {
    throw new UsageError(`cannot read ${name}: it unpacks to more than ${MAX_LIST_BYTES / 1048576} MiB, more than Sift reads as a list of URLs; unpack it (gunzip -k ${name}) and split the list inside into smaller lists`);
  }
  if (decoded.kind === DAMAGED_GZIP) throw new UsageError(`cannot read ${name}: it is a damaged gzip file (it ends early, or is no gzip inside); download it again`);
  // An .xlsx is a zip and an .xls an office binary: "unpack it first" sent the user with URLs in
  // a spreadsheet's column into its XML.
  const office = officeFile(name);
  if (office === 'workbook') {
    throw new UsageError(`${name} is a spreadsheet workbook, not a list of URLs: save the sheet that holds the URLs as CSV (in Excel: File › Save As › CSV UTF-8) and give the .csv file`);
  }
  if (office === 'document') {
    throw new UsageError(`${name} is a word-processor document, not a list of URLs: save it as a web page (HTML keeps its links) or as plain text and give that file`);
  }
  const hint = (NOT_A_LIST_HINT[decoded.kind] ?? 'give a text file of URLs, one a line, or a CSV, bookmarks HTML, JSON, sitemap or OPML file').replace('FILE', name);
  throw new UsageError(`${name} is ${decoded.kind}, not a list of URLs: ${hint}`);
}

/** Invalid lines and duplicates, one per line, in line order, as `sift parse` prints them. */
export function problemLines(invalid: ListProblem[], duplicates: ListProblem[]): string {
  const all = [
    // The input is shown unless the reason already quotes it ("not an http(s) URL: ftp://…").
    // A line of the user's input is quoted with its control characters written out: a CSV cell
    // over several lines stays on its report's line.
    ...invalid.map((p) => ({
      line: p.line,
      text: oneLine(`line ${p.line}: invalid: ${p.reason}${p.text && !p.reason.includes(p.text) ? ` (${p.text})` : ''}`),
    })),
    ...duplicates.map((p) => ({ line: p.line, text: `line ${p.line}: ${p.reason}` })),
  ];
  // Stable sort: problems on one line keep the order the parser found them in.
  all.sort((a, b) => a.line - b.line);
  return all.map((p) => `${p.text}\n`).join('');
}

/**
 * How many invalid lines, and how many duplicates, sift batch lists before the job's progress.
 * A bookmarks export or a spreadsheet column can hold thousands of either (a list of 13,800
 * lines with 4,800 problems printed 4,800 lines before the first target's), which push the
 * progress and the job's ID off the screen; sift parse lists every one.
 */
export const LISTED_PROBLEMS = 20;

/**
 * sift batch's report of a list's problems: at most LISTED_PROBLEMS invalid lines and as many
 * duplicates, in line order, then how many more there are and the command (`parseCmd`) that
 * lists them all.
 */
export function batchProblemLines(invalid: ListProblem[], duplicates: ListProblem[], parseCmd: string): string {
  const listed = problemLines(invalid.slice(0, LISTED_PROBLEMS), duplicates.slice(0, LISTED_PROBLEMS));
  const more = [
    invalid.length > LISTED_PROBLEMS ? `${formatCount(invalid.length - LISTED_PROBLEMS)} more invalid ${invalid.length - LISTED_PROBLEMS === 1 ? 'line' : 'lines'}` : '',
    duplicates.length > LISTED_PROBLEMS ? counted(duplicates.length - LISTED_PROBLEMS, 'more duplicate') : '',
  ].filter(Boolean);
  return more.length ? `${listed}… and ${more.join(' and ')}: \`${parseCmd}\` lists every one\n` : listed;
}

/**
 * What sift batch made of a list that had lines it skipped: how many URLs it read and how many
 * lines it left out, and why, in one line after them (the problems alone said neither: a
 * bookmarks file's 3 "place:" lines were listed, and nothing said 21 URLs were read); '' when
 * it skipped nothing, as the progress's "[1/21]" then says it all.
 */
export function listReadNote(name: string, urls: number, invalid: number, duplicates: number): string {
  if (invalid === 0 && duplicates === 0) return '';
  const skipped = [invalid ? counted(invalid, 'invalid line') : '', duplicates ? counted(duplicates, 'duplicate') : ''].filter(Boolean).join(' and ');
  return `read ${counted(urls, 'URL')} from ${name}; skipped ${skipped}\n`;
}

/**
 * How to split a list too long for Sift into parts that each run: parts of one job's URLs
 * (`perJob`, 10,000 by default), not of the 200,000 lines a list is read to, whose parts were
 * each refused again for holding more URLs than one job may.
 */
export function splitAdvice(name: string, perJob: number): string {
  const lines = Math.min(perJob, DEFAULT_MAX_LINES);
  return `Split it (e.g. \`split -l ${lines} ${name === '-' ? 'list.txt' : name} part-\`) and run each part`;
}

const GIVE_A_LIST = 'Give one URL a line, or a CSV, bookmarks HTML, JSON, sitemap or OPML file.';

/** Said of a list that gave no target, by sift batch and sift parse alike: why, and what to give. */
export function noTargetsNote(cmd: string, name: string, invalid: number, input: string, format: ListFormat): string {
  const said = `sift ${cmd}: ${name} holds no valid http(s) URL`;
  if (invalid > 0) return `${said} (${counted(invalid, 'invalid line')}). ${GIVE_A_LIST}\n`;
  if (input.trim() === '') return `${said}: it is empty. ${GIVE_A_LIST}\n`;
  const commented = commentedUrls(input, format);
  if (commented === undefined) return `${said}. ${GIVE_A_LIST}\n`;
  // A list whose URLs were all commented out (to skip them) read as if no URL were in it.
  const only = `${said}: every line in it is blank or a # comment, which Sift skips`;
  return commented > 0 ? `${only}, ${counted(commented, 'of them a URL', 'of them URLs')}. Remove the # before each URL you want fetched.\n` : `${only}. ${GIVE_A_LIST}\n`;
}

/**
 * In a list read as lines with # comments (text, uri-list) whose every line is blank or a
 * comment, how many comments are a URL; undefined for any other list. In Markdown, # is a heading.
 */
function commentedUrls(input: string, format: ListFormat): number | undefined {
  if (format !== 'text' && format !== 'uri-list') return undefined;
  const lines = input.split(/\r\n|\r|\n/).map((l) => l.trim()).filter(Boolean);
  if (!lines.every((l) => l.startsWith('#'))) return undefined;
  return lines.filter((l) => /^#+\s*https?:\/\/\S/i.test(l)).length;
}
