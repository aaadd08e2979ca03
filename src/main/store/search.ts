import type Database from 'better-sqlite3';
import type { Mode, Result } from '../../shared/types';
import { foldForIndex, hasCompatWord, indexedText, joinedCompounds, hasUnitOrSoundMark, hasComposedLetter, hasIndicMark, hasLongerJoin, hasNukta, hasUnspacedMark, mayHavePictograph, PICTOGRAPH, quoteTerm } from '../search/fold';
import { searchableText } from '../search/text';
import { hasFraction } from '../../shared/fraction';
import { hasArabicLetter } from '../search/arabic';
import { foldsIntoUtf8, type Needle } from '../search/needle';
import { modeOf } from './targets';

/**
 * BM25 with a match in the title worth 8 in the body, one in the URL 3; the job column only
 * scopes a query. Queries order by this expression, not by the rank column: ORDER BY rank
 * takes FTS5's sorted cursor, which sorts every match with its phrase positions before the
 * LIMIT applies, where ORDER BY bm25(...) LIMIT keeps SQLite's top-N sorter of scores only.
 * Measured on bench/search.ts's 10,000 results (600 queries, the same 20 rows and scores for
 * every one): one word 14% less time, three words 13%, phrases 30% (p99 185 -> 119 ms).
 */
const BM25_WEIGHTS = '8.0, 3.0, 1.0, 0.0';
const BM25_RANK = `bm25(search_fts, ${BM25_WEIGHTS})`;

/**
 * The full-text index of stored results: an FTS5 table that keeps only the index (contentless),
 * and search_docs, which maps its rowids to (job_id, idx).
 *
 * Why not an external-content table over targets: FTS5 would then read snippets from
 * targets by rowid, and targets is rebuilt by migrations (steps 2 and 3 did, to keep `result`
 * the last column), which renumbers rowids and silently detaches the index. A view over
 * targets as the content does not survive a rebuild either: SQLite's ALTER TABLE RENAME
 * refuses to run while a view names a table that was just dropped. Contentless with our own
 * key needs neither, and stores no second copy of the text: snippets are cut from
 * targets.result for the few hits shown (src/main/search/snippet.ts).
 *
 * Why positions (detail=full), unicode61 and contentless_delete, when each costs writes: over
 * bench/search.ts's kind of text (3,000 results of 20 KB, one commit each, the variants
 * written in alternating blocks, two runs), this table wrote at 0.17-0.23 of a table without
 * an index; detail=column 0.18-0.24, detail=none 0.21-0.27, the ascii tokenizer 0.17-0.22,
 * no contentless_delete 0.17-0.22, column + ascii + no delete 0.20-0.26. None comes near the
 * issue's 0.8, and each gives up phrases, term counts for BM25, accents or deleting a job.
 */
export const SEARCH_SCHEMA = `
  CREATE TABLE search_docs (
    rowid  INTEGER PRIMARY KEY,
    job_id TEXT NOT NULL,
    idx    INTEGER NOT NULL,
    UNIQUE (job_id, idx)
  );
  CREATE VIRTUAL TABLE search_fts USING fts5(
    title, url, body, job,
    content = '', contentless_delete = 1,
    tokenize = 'unicode61 remove_diacritics 2'
  );
  -- The rank column's weights, as BM25_RANK has them, for whoever queries the table by hand.
  INSERT INTO search_fts (search_fts, rank) VALUES ('rank', 'bm25(${BM25_WEIGHTS})');
`;

/**
 * How FTS5 merges the index, set for one commit per stored target (see tuneSearchIndex).
 * FTS5 writes each commit's words as a new segment and, during later commits, merges
 * `automerge` segments of a level into one of the next; crisismerge is where a level stops
 * waiting for that and merges at once, so it sits above automerge.
 */
const MERGE_SETTINGS: Record<string, number> = { automerge: 16, crisismerge: 32 };

/**
 * Sets MERGE_SETTINGS on the index (once; a database keeps them). With FTS5's default of 4,
 * a target's postings are rewritten at every level, about log4(N) times (7 for 10,000
 * results); at 16 about log16(N) times (3 to 4). Measured on bench/search.ts's texts (3,000
 * to 4,000 targets written in alternating blocks to stores that differ only in this): the
 * index cost 17-19% less CPU per target, and the store wrote 0.45 as fast as without an index
 * instead of 0.36. Never merging (automerge 0) was slower than both: every commit rewrites
 * the list of segments, which then grows to one per target. The price is more segments for
 * a query to read, and it is small: 25 segments against 1 cost the same queries under 10%
 * more CPU, so no merge is run after a job either.
 */
export function tuneSearchIndex(db: Database.Database): void {
  const get = db.prepare<[string], { v: unknown }>('SELECT v FROM search_fts_config WHERE k = ?');
  // FTS5 takes these as integers only; better-sqlite3 binds a JS number as a real, a BigInt as an integer.
  const set = db.prepare<[string, bigint]>('INSERT INTO search_fts (search_fts, rank) VALUES (?, ?)');
  for (const [k, v] of Object.entries(MERGE_SETTINGS)) {
    if (get.get(k)?.v !== v) set.run(k, BigInt(v));
  }
}

export interface SearchRow {
  jobId: string;
  idx: number;
  /** BM25, higher is better. */
  score: number;
}

/** The search index: one prepared statement per operation. */
export function searchTable(db: Database.Database) {
  const docOf = db.prepare<[string, number], { rowid: number }>('SELECT rowid FROM search_docs WHERE job_id = ? AND idx = ?');
  const insertDoc = db.prepare<[string, number], { rowid: number }>('INSERT INTO search_docs (job_id, idx) VALUES (?, ?) RETURNING rowid');
  const insertFts = db.prepare<[number, string, string, string, string]>('INSERT INTO search_fts (rowid, title, url, body, job) VALUES (?, ?, ?, ?, ?)');
  const deleteFts = db.prepare<[number]>('DELETE FROM search_fts WHERE rowid = ?');
  const deleteFtsOfJob = db.prepare<[string]>('DELETE FROM search_fts WHERE rowid IN (SELECT rowid FROM search_docs WHERE job_id = ?)');
  const deleteDocsOfJob = db.prepare<[string]>('DELETE FROM search_docs WHERE job_id = ?');
  // bm25() is lower for a better match; `cost` is that, best first.
  const query = db.prepare<[string, number], { job_id: string; idx: number; cost: number }>(
    `SELECT d.job_id, d.idx, f.cost
     FROM (SELECT rowid, ${BM25_RANK} AS cost FROM search_fts WHERE search_fts MATCH ? ORDER BY cost LIMIT ?) f
     JOIN search_docs d ON d.rowid = f.rowid
     ORDER BY f.cost`,
  );
  // With needles: the matches whose target holds one needle of each group (in its title, URL
  // or stored result, or in the one column its term named: title:C++ is no hit for a page titled
  // "Greenhouse C" that says C++ in its text) before the LIMIT. C++ among 2,000 results of 20 KB that all hold a lone c
  // took 1.8-2.2 s read and checked in JS, one result at a time; this reads each match's row
  // once, in SQLite. lower() folds ASCII only, and the index reads Ｃ＋＋ and Ĉ# as c: a text
  // lower() finds no needle in is read as the index reads it (search/needle.ts).
  db.function('folds_into', { deterministic: true }, (bytes: unknown, needle: unknown) => (Buffer.isBuffer(bytes) && typeof needle === 'string' && foldsIntoUtf8(bytes, needle) ? 1 : 0));
  const queryHolding = db.prepare<[string, string, number], { job_id: string; idx: number; cost: number }>(
    `SELECT d.job_id, d.idx, f.cost
     FROM (SELECT rowid, ${BM25_RANK} AS cost FROM search_fts WHERE search_fts MATCH ?) f
     JOIN search_docs d ON d.rowid = f.rowid
     JOIN targets t ON t.job_id = d.job_id AND t.idx = d.idx
     WHERE NOT EXISTS (SELECT 1 FROM json_each(?) g
                       WHERE NOT EXISTS (SELECT 1 FROM (SELECT value ->> 'word' AS w, value ->> 'column' AS c FROM json_each(g.value)) n
                                         WHERE (n.c IS NOT 'url' AND instr(lower(t.title), n.w) > 0) OR (n.c IS NOT 'title' AND instr(lower(t.url), n.w) > 0)
                                            OR (n.c IS NULL AND instr(lower(coalesce(t.result, '')), n.w) > 0)
                                            OR (n.c IS NOT 'url' AND folds_into(CAST(t.title AS BLOB), n.w)) OR (n.c IS NOT 'title' AND folds_into(CAST(t.url AS BLOB), n.w))
                                            OR (n.c IS NULL AND folds_into(CAST(t.result AS BLOB), n.w))))
     ORDER BY f.cost LIMIT ?`,
  );
  /** Indexes (or re-indexes) one target's searchable text. */
  function indexText(jobId: string, idx: number, url: string, title: string, text: string): void {
    const old = docOf.get(jobId, idx);
    if (old) deleteFts.run(old.rowid);
    const rowid = old?.rowid ?? (insertDoc.get(jobId, idx) as { rowid: number }).rowid;
    insertFts.run(rowid, indexedText(title), foldForIndex(url), indexedText(text), jobId);
  }
  return {
    indexText,
    /** Indexes (or re-indexes) one target's result, as its mode shaped it; call inside the transaction that stores it. */
    index(jobId: string, idx: number, url: string, title: string, result: Result | undefined, mode: Mode | undefined): void {
      indexText(jobId, idx, url, title, searchableText(result, mode));
    },
    deleteOfJob(jobId: string): void {
      deleteFtsOfJob.run(jobId);
      deleteDocsOfJob.run(jobId);
    },
    /**
     * Best first; `match` is FTS5 syntax (see parseQuery), `jobId` scopes it to one job, and
     * `needles` (groups of ASCII words, folded as foldWithMap folds them, each in its column if it names one) keep only
     * the targets that hold one needle of each group.
     */
    query(match: string, jobId: string | undefined, limit: number, needles: readonly (readonly Needle[])[] = []): SearchRow[] {
      const scoped = jobId === undefined ? match : `job : ${quoteTerm(jobId)} AND (${match})`;
      const rows = needles.length > 0 ? queryHolding.all(scoped, JSON.stringify(needles), limit) : query.all(scoped, limit);
      return rows.map((r) => ({ jobId: r.job_id, idx: r.idx, score: -r.cost }));
    },
  };
}
export type SearchTable = ReturnType<typeof searchTable>;

/**
 * Creates the index and fills it from the results already stored. Reads only the targets
 * columns every version has had since step 3 (job_id, idx, url, options, title, status,
 * result), one row per step by primary key, so neither the column list nor the table's
 * rowids matter.
 */
export function buildSearchIndex(db: Database.Database): void {
  db.exec(SEARCH_SCHEMA);
  indexStored(db, '1');
}

/** Re-indexes the stored results in markup (mode raw or html) as their text (search/text.ts). */
export function reindexMarkup(db: Database.Database): void {
  indexStored(db, "json_valid(options) AND json_extract(options, '$.mode') IN ('raw', 'html')");
}

/**
 * What the fold of step 8 (issue 16) reads differently from the one before it: the soft
 * hyphen and ß, accented Greek, ё and ґ, Arabic alef with hamza, madda or wasla, final ى and
 * ة, Thai, Lao, Myanmar and Khmer, ẞ and polytonic Greek, the zero-width characters and the BOM.
 * A text without any of them was indexed as the fold indexes it now.
 */
const REFOLDED = /[\u00AD\u00DF\u0386-\u03D4\u0401\u0451\u0490\u0491\u0622\u0623\u0625\u0629\u0649\u0671\u0E00-\u0EFF\u1000-\u109F\u1780-\u17FF\u19E0-\u19FF\u1E9E\u1F00-\u1FFF\u200B-\u200D\u2060\uA9E0-\uA9FF\uAA60-\uAA7F\uFEFF]/;

/**
 * Re-indexes the stored results whose words the fold now reads differently (search/fold.ts):
 * an index made before held βιβλιοθήκη where a query for βιβλιοθηκη looks for βιβλιοθηκη.
 * Only those are written again; the rest (most results: English, French, Chinese) are read
 * and left as they are.
 */
export function reindexFolded(db: Database.Database): void {
  indexStoredHolding(db, (s) => REFOLDED.test(s));
}

/** Re-indexes the stored results that hold an emoji or pictograph, which the index now holds as words (search/fold.ts). */
export function reindexPictographs(db: Database.Database): void {
  const holds = (s: string): boolean => mayHavePictograph(s) && PICTOGRAPH.test(s);
  indexStoredHolding(db, holds);
}

/**
 * Re-indexes the stored results that hold Arabic, whose words the index now holds without the
 * و, ف, ب, ك, ل and article written joined to their start (search/arabic.ts); the rest are
 * read and left as they are.
 */
export function reindexArabic(db: Database.Database): void {
  indexStoredHolding(db, hasArabicLetter);
}

/**
 * Re-indexes the stored results that hold a vowel sign or other mark of an Indic script, which
 * the index now keeps inside its word (search/fold.ts INDIC_MARK); the rest are read and left as
 * they are, as at step 8.
 */
export function reindexIndic(db: Database.Database): void {
  indexStoredHolding(db, hasIndicMark);
}

/**
 * Re-indexes the stored results that hold a vowel sign or tone mark of Thai, Lao, Khmer or
 * Burmese, which the index now keeps inside its word as it does Indic ones (search/fold.ts
 * INDIC_MARK), or a letter of those scripts or the Indic ones written as one character that
 * Unicode holds equal to two (ज़ as U+095B), which it now reads as the two (search/fold.ts
 * COMPOSED); the rest are read and left as they are, as at step 8.
 */
export function reindexWordMarks(db: Database.Database): void {
  const holds = (s: string): boolean => hasUnspacedMark(s) || hasComposedLetter(s);
  indexStoredHolding(db, holds);
}

/**
 * Re-indexes the pages stored as Markdown (kind html, mode markdown or none) that hold an
 * asterisk or a "<", whose inline marks and HTML the index now reads as their words do
 * (search/text.ts inlineMarksAsRead); the rest are read and left as they are.
 */
export function reindexInlineMarks(db: Database.Database): void {
  indexStored(
    db,
    `json_valid(result) AND json_extract(result, '$.meta.kind') = 'html'
     AND (options IS NULL OR NOT json_valid(options) OR coalesce(json_extract(options, '$.mode'), 'markdown') = 'markdown')
     AND (instr(json_extract(result, '$.content'), '*') > 0 OR instr(json_extract(result, '$.content'), '<') > 0)`,
  );
}

/**
 * Re-indexes the stored results that hold a Devanagari nukta, alone or in a letter written as
 * one character (क़ as U+0958), which the index now leaves out (search/fold.ts NUKTA); the rest
 * are read and left as they are, as at step 8.
 */
export function reindexNukta(db: Database.Database): void {
  indexStoredHolding(db, hasNukta);
}

/**
 * Re-indexes the stored results that hold a full-width or half-width letter, digit or katakana, a
 * ligature, a superscript or subscript, a Roman numeral or a circled number, which the index now
 * reads as NFKC writes them (search/fold.ts COMPAT: ＧＰＵ as GPU, ｶﾞｲﾄﾞ as ガイド, ﬁnal as final);
 * the rest are read and left as they are, as at step 8, those whose only such characters are
 * the full-width commas and brackets of Chinese and Japanese text among them.
 */
export function reindexCompat(db: Database.Database): void {
  indexStoredHolding(db, hasCompatWord);
}

/**
 * Re-indexes the stored results that hold a unit or sign written as one character (㎏, ℃, №,
 * ㍻) or a half-width sound mark (ﾞ, ﾟ), which the index now reads as NFKC writes them, and a sound
 * mark after no kana as nothing (search/fold.ts COMPAT_UNITS, compatForm); the rest are read and
 * left as they are, as at step 8.
 */
export function reindexUnitsAndSoundMarks(db: Database.Database): void {
  indexStoredHolding(db, hasUnitOrSoundMark);
}

/**
 * Re-indexes the stored results that hold a vulgar fraction (½ ⅓ ¾), which the index now reads as
 * NFKC writes it, a word of its own (search/fold.ts COMPAT: ½ as 1/2, as typed); the rest are
 * read and left as they are, as at step 8.
 */
export function reindexFractions(db: Database.Database): void {
  indexStoredHolding(db, hasFraction);
}

/**
 * Re-indexes the stored results that hold a compound written with a hyphen (e-mail), whose
 * parts the index now holds joined too (search/fold.ts joinedCompounds: email finds e-mail);
 * the rest are read and left as they are, as at step 8.
 */
export function reindexCompounds(db: Database.Database): void {
  indexStoredHolding(db, (s) => joinedCompounds(foldForIndex(s)) !== '');
}

/**
 * Re-indexes the stored results that hold a compound of three parts or more, or a word with an
 * apostrophe before three letters, whose runs of parts the index now holds joined too
 * (search/fold.ts joinedCompounds: stateoftheart finds state-of-the-art, OBrien O'Brien); the
 * rest are read and left as they are, as at step 8.
 */
export function reindexLongerJoins(db: Database.Database): void {
  indexStoredHolding(db, hasLongerJoin);
}

/**
 * (Re-)indexes each done target that `where` (SQL over targets' columns) picks and `keep`
 * (over its title, URL and searchable text) keeps, one row per step.
 */
/** Re-indexes the stored results whose title, URL or text holds what `holds` looks for; the rest are read and left as they are. */
function indexStoredHolding(db: Database.Database, holds: (s: string) => boolean): void {
  indexStored(db, '1', (title, url, text) => holds(title) || holds(url) || holds(text));
}

function indexStored(db: Database.Database, where: string, keep: (title: string, url: string, text: string) => boolean = () => true): void {
  const table = searchTable(db);
  // The row after the last as one row-value comparison, which SQLite answers from the primary
  // key in order. Written as job_id > ? OR (job_id = ? AND idx > ?) it took the OR's two index
  // searches and sorted all the rows they found, every step: 234 s for 10,000 results of
  // 20 KB, 9 s this way.
  const next = db.prepare<[string, number], { job_id: string; idx: number; url: string; options: string | null; title: string; result: string | null }>(
    `SELECT job_id, idx, url, options, title, result FROM targets
     WHERE status = 'done' AND (${where}) AND (job_id, idx) > (?, ?)
     ORDER BY job_id, idx LIMIT 1`,
  );
  for (let r = next.get('', -1); r; r = next.get(r.job_id, r.idx)) {
    let result: Result | undefined;
    try {
      result = r.result === null ? undefined : (JSON.parse(r.result) as Result);
    } catch {
      result = undefined;
    }
    const text = searchableText(result, modeOf(r.options));
    if (keep(r.title, r.url, text)) table.indexText(r.job_id, r.idx, r.url, r.title, text);
  }
}
