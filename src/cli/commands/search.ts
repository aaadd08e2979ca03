import { EXIT_BUG, type Command } from '../command';
import { parse } from '../args';
import { EXIT, UsageError } from '../io';
import { namedJob, NOTHING_STORED, nothingStoredYet, withStore } from '../context';
import { codePointMarks, emptyQueryHint, hitText, MAX_LIMIT, noWordsIn, parseQuery, searchStore, shownQuery, type SearchHit } from '../../main/search';
import { alsoIn, filterNote, formatScore, lineLabel, plainWordsNote, queryTooLong } from '../../shared/search';
import { jsonLine } from '../../shared/json';
import { readableUrl } from '../../shared/readable-url';
import { cutTitle } from '../../shared/shown';
import { forTerminal } from '../terminal';

const USAGE = `usage: sift search WORDS... [--job ID] [--limit N] [--json] [--db PATH] [--log PATH]

Finds the stored results that contain the words, best first (BM25; a match in the title
counts more than one in the text), each with the text around the match and where it is.

  WORDS       words to find, all of them; "an exact phrase" (quote it for your shell too),
              prefix* , a OR b, a NOT b (or a -b), (a OR b) c, title:word or url:word
              (in the title or the URL alone), title:(a group -word). Anything else is searched
              as plain words. Accents do not matter; Chinese, Japanese and Korean are
              found inside unspaced text.
  --job ID    only this job's results (its ID from sift jobs, or the start of it)
  --limit N   at most N hits (default 20, at most 1000)
  --db PATH   the database (default: the desktop app’s)
  --log PATH  also append its JSON log lines to PATH
  --json      one object per hit {"jobId","idx","url","title","score","snippet","text",
              "marks","field","line","page","sourceLine"}: field is where the match is
              (body, title or url); line (of the result's text) and page (of a PDF) when
              the match is in the text; sourceLine, for a result of some lines of a
              document (--grep, --question), that line's number in the whole document.
              Matched words are marked «like this» in snippet; text is the snippet
              unmarked and marks the matched words' [start, end) in it, counted in
              characters (code points), which a page's own «» cannot be mistaken for. A
              result that several jobs stored alike (the same list run again) is one hit,
              the newest job's, with "sameIn": [{"jobId","idx"}] for the others.

When more results match than --limit lets through, stderr says so.

exit codes: 0 searched (also when nothing matched: stderr says so),
1 ${EXIT_BUG}, 2 bad usage, no words,
or no such job.
`;

function printHit(h: SearchHit, n: number, write: (s: string) => void): void {
  const where = [`job ${h.jobId} #${h.idx + 1}`];
  const line = lineLabel(h);
  if (line !== undefined) where.push(line);
  if (h.page !== undefined) where.push(`page ${h.page}`);
  if (h.field !== 'body') where.push(`in the ${h.field}`);
  where.push(`score ${formatScore(h.score, 2)}`);
  if (h.sameIn) where.push(`also in ${alsoIn(h, ', ')}`);
  write(forTerminal(`${n}. ${cutTitle(h.title) || '(no title)'}  ${readableUrl(h.url)}\n   ${where.join(' · ')}\n   ${hitText(h)}\n\n`));
}

/** What a search says before any job has stored anything, rather than that no result matches its words. */
const NOTHING_STORED_TO_SEARCH = `sift search: ${NOTHING_STORED} to search\n`;

/** What an argument that is a word of the query stands as while the flags are read. */
const WORD_MARK = '\u0000';

/**
 * The query's words that start with a dash (-draft, -"a phrase", -C++, -5) set apart from
 * the flags: the usage's own "a -b", typed unquoted (`sift search revenue -draft`), was
 * "unknown option -draft". A dash word that names one of the options (-json, -job) stays a
 * flag, whose error says which was meant, as does one after an option that takes a value.
 * `word` turns a positional back into what was typed.
 */
function dashWords(argv: readonly string[], spec: Record<string, { type: string }>): { args: string[]; word: (positional: string) => string } {
  const args = argv.map((a, i) => {
    const prev = argv[i - 1];
    const takesValue = prev !== undefined && /^--[^=]+$/.test(prev) && spec[prev.slice(2)]?.type === 'string';
    const name = a.slice(1).replace(/=.*$/s, '');
    if (argv.slice(0, i).includes('--') || !/^-[^-]/.test(a) || takesValue || name in spec || name === 'h') return a;
    return `${WORD_MARK}${i}`;
  });
  return { args, word: (p) => (p.startsWith(WORD_MARK) ? (argv[Number(p.slice(1))] as string) : p) };
}

export const searchCommand: Command = {
  name: 'search',
  summary: 'find stored results that contain words, best first, with where they are',
  usage: USAGE,
  async run(argv, io, signal) {
    const spec = {
      job: { type: 'string' },
      limit: { type: 'string' },
      json: { type: 'boolean' },
      db: { type: 'string' },
      log: { type: 'string' },
    } as const;
    const { args, word } = dashWords(argv, spec);
    const { values, positionals } = parse(args, spec);
    const query = positionals.map(word).join(' ');
    // The app's limit, said as the app says it: 10,200 Chinese characters cost FTS5 1.4 s to read as one phrase.
    const tooLong = queryTooLong('search', query);
    if (tooLong) throw new UsageError(`${tooLong.message} ${tooLong.hint}`);
    // Nothing but signs ('(((', '"') is no words either.
    if (!parseQuery(query)) throw new UsageError(`give the words to find. ${[noWordsIn(query), emptyQueryHint(query, values.job)].filter(Boolean).join(' ')}`);
    let limit = 20;
    if (values.limit !== undefined) {
      if (!/^\d+$/.test(values.limit) || Number(values.limit) < 1 || Number(values.limit) > MAX_LIMIT) {
        throw new UsageError(`--limit takes a whole number from 1 to ${MAX_LIMIT}, not "${values.limit}"`);
      }
      limit = Number(values.limit);
    }
    // Opened, the app's database is made where there was none, and the search found nothing in it.
    if (nothingStoredYet(values, io)) {
      io.stderr.write(NOTHING_STORED_TO_SEARCH);
      return EXIT.ok;
    }
    return withStore('search', values, io, signal, (store) => {
      if (store.listJobs(1).length === 0) {
        io.stderr.write(NOTHING_STORED_TO_SEARCH);
        return EXIT.ok;
      }
      let jobId: string | undefined;
      if (values.job !== undefined) {
        const named = namedJob(store, values.job);
        if ('problem' in named) {
          io.stderr.write(`sift search: ${named.problem}\n`);
          return EXIT.usage;
        }
        jobId = named.job.id;
      }
      const { hits, plain, why, more } = searchStore(store, query, { jobId, limit });
      if (plain) io.stderr.write(`sift search: ${plainWordsNote(why)}\n`);
      const filters = filterNote(query);
      if (filters) io.stderr.write(`sift search: ${filters}\n`);
      hits.forEach((h, i) => {
        if (values.json) {
          const { jobId, idx, url, title, score, field, line, page, sourceLine, sameIn } = h;
          const text = { text: h.snippet, marks: codePointMarks({ text: h.snippet, marks: h.marks }) };
          io.stdout.write(`${jsonLine({ jobId, idx, url, title, score, snippet: hitText(h), ...text, field, line, page, sourceLine, sameIn })}\n`);
        } else printHit(h, i + 1, (s) => io.stdout.write(s));
      });
      if (more) {
        io.stderr.write(
          `sift search: the best ${hits.length} ${hits.length === 1 ? 'hit is' : 'hits are'} shown; more stored results match: ${limit < MAX_LIMIT ? `--limit N (up to ${MAX_LIMIT}) shows more, or ` : ''}add a word to narrow them\n`,
        );
      }
      if (hits.length === 0) {
        // A long query (a pasted paragraph) is not printed back whole.
        io.stderr.write(`sift search: no stored result matches ${shownQuery(query, 80)}${jobId ? ` in job ${jobId}` : ''}\n`);
      }
      return EXIT.ok;
    });
  },
};
