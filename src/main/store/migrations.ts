import type Database from 'better-sqlite3';
import { hostLabel } from '../../shared/urllist/url';
import { buildSearchIndex, reindexArabic, reindexCompat, reindexCompounds, reindexFolded, reindexIndic, reindexInlineMarks, reindexLongerJoins, reindexMarkup, reindexNukta, reindexFractions, reindexPictographs, reindexUnitsAndSoundMarks, reindexWordMarks } from './search';

/**
 * The schema, as numbered steps. `PRAGMA user_version` holds the number of the last step
 * applied; each step runs once, in its own transaction, so a crash mid-migration leaves the
 * database at the previous version and the next open retries that step.
 */
export const MIGRATIONS: readonly ((db: Database.Database) => void)[] = [
  // 1: the seed's tables (02-runner over task 01's store).
  (db) => {
    db.exec(`
      CREATE TABLE jobs (
        id            TEXT PRIMARY KEY,
        caller        TEXT NOT NULL,
        caller_class  TEXT NOT NULL,
        idem_key      TEXT NOT NULL,
        status        TEXT NOT NULL CHECK (status IN ('queued','running','done','failed','partial','cancelled')),
        error         TEXT NOT NULL DEFAULT '',
        targets_total INTEGER NOT NULL,
        targets_done  INTEGER NOT NULL DEFAULT 0,
        created_at    INTEGER NOT NULL,
        updated_at    INTEGER NOT NULL,
        lease_expires INTEGER NOT NULL
      );
      CREATE INDEX jobs_by_idem ON jobs (caller, idem_key, lease_expires);
      CREATE INDEX jobs_by_status ON jobs (status, caller);
      CREATE INDEX jobs_by_lease ON jobs (lease_expires);
      CREATE TABLE targets (
        job_id      TEXT NOT NULL,
        idx         INTEGER NOT NULL,
        url         TEXT NOT NULL,
        options     TEXT,
        status      TEXT NOT NULL CHECK (status IN ('pending','running','done','failed')),
        error       TEXT NOT NULL DEFAULT '',
        hint        TEXT NOT NULL DEFAULT '',
        bytes       INTEGER NOT NULL DEFAULT 0,
        started_at  INTEGER,
        finished_at INTEGER,
        result      TEXT,
        PRIMARY KEY (job_id, idx)
      );
    `);
  },
  // 2: what the desktop lists without reading results: the failed count per job and the
  // title per target. The targets table is rebuilt rather than ALTERed so `result` stays the
  // last column: SQLite reaches a column stored after an 8 MiB value by walking that value's
  // overflow pages, which would make listing 10,000 rows read every result.
  (db) => {
    db.exec(`
      ALTER TABLE jobs ADD COLUMN targets_failed INTEGER NOT NULL DEFAULT 0;
      UPDATE jobs SET targets_failed = (SELECT count(*) FROM targets t WHERE t.job_id = jobs.id AND t.status = 'failed');
      CREATE INDEX jobs_by_created ON jobs (created_at DESC);
      CREATE TABLE targets_v2 (
        job_id      TEXT NOT NULL,
        idx         INTEGER NOT NULL,
        url         TEXT NOT NULL,
        options     TEXT,
        status      TEXT NOT NULL CHECK (status IN ('pending','running','done','failed')),
        error       TEXT NOT NULL DEFAULT '',
        hint        TEXT NOT NULL DEFAULT '',
        bytes       INTEGER NOT NULL DEFAULT 0,
        title       TEXT NOT NULL DEFAULT '',
        started_at  INTEGER,
        finished_at INTEGER,
        result      TEXT,
        PRIMARY KEY (job_id, idx)
      );
      INSERT INTO targets_v2 (job_id, idx, url, options, status, error, hint, bytes, title, started_at, finished_at, result)
        SELECT job_id, idx, url, options, status, error, hint, bytes,
               CASE WHEN json_valid(result) AND json_type(result, '$.meta.title') = 'text'
                    THEN json_extract(result, '$.meta.title') ELSE '' END,
               started_at, finished_at, result
        FROM targets;
      DROP TABLE targets;
      ALTER TABLE targets_v2 RENAME TO targets;
    `);
  },
  // 3: the HTTP-like status of a failed target (404, 403 blocked, 504 timeout, …), which
  // `sift batch --json` prints and the UI shows. Rebuilt again, for the reason of step 2.
  (db) => {
    db.exec(`
      CREATE TABLE targets_v3 (
        job_id       TEXT NOT NULL,
        idx          INTEGER NOT NULL,
        url          TEXT NOT NULL,
        options      TEXT,
        status       TEXT NOT NULL CHECK (status IN ('pending','running','done','failed')),
        error        TEXT NOT NULL DEFAULT '',
        hint         TEXT NOT NULL DEFAULT '',
        bytes        INTEGER NOT NULL DEFAULT 0,
        title        TEXT NOT NULL DEFAULT '',
        started_at   INTEGER,
        finished_at  INTEGER,
        error_status INTEGER NOT NULL DEFAULT 0,
        result       TEXT,
        PRIMARY KEY (job_id, idx)
      );
      INSERT INTO targets_v3 (job_id, idx, url, options, status, error, hint, bytes, title, started_at, finished_at, error_status, result)
        SELECT job_id, idx, url, options, status, error, hint, bytes, title, started_at, finished_at,
               CASE WHEN status = 'failed' THEN 500 ELSE 0 END, result
        FROM targets;
      DROP TABLE targets;
      ALTER TABLE targets_v3 RENAME TO targets;
    `);
  },
  // 4 (issue 12): why each failed target failed (SPEC §5.9's reason), and what each job's
  // list is called. Rebuilt again, for the reason of step 2. Rows written before this step
  // get the reason their stored status and message imply.
  (db) => {
    db.exec(`
      CREATE TABLE targets_v4 (
        job_id       TEXT NOT NULL,
        idx          INTEGER NOT NULL,
        url          TEXT NOT NULL,
        options      TEXT,
        status       TEXT NOT NULL CHECK (status IN ('pending','running','done','failed')),
        error        TEXT NOT NULL DEFAULT '',
        hint         TEXT NOT NULL DEFAULT '',
        bytes        INTEGER NOT NULL DEFAULT 0,
        title        TEXT NOT NULL DEFAULT '',
        started_at   INTEGER,
        finished_at  INTEGER,
        error_status INTEGER NOT NULL DEFAULT 0,
        reason       TEXT NOT NULL DEFAULT '',
        result       TEXT,
        PRIMARY KEY (job_id, idx)
      );
      INSERT INTO targets_v4 (job_id, idx, url, options, status, error, hint, bytes, title, started_at, finished_at, error_status, reason, result)
        SELECT job_id, idx, url, options, status, error, hint, bytes, title, started_at, finished_at, error_status,
               CASE WHEN status <> 'failed' THEN ''
                    WHEN error = 'restart' THEN 'restart'
                    WHEN error = 'cancelled' OR error_status = 499 THEN 'cancelled'
                    WHEN error = 'blocked' THEN 'blocked'
                    WHEN error LIKE 'timeout%' OR error_status = 504 THEN 'timeout'
                    WHEN error LIKE 'document too long%' THEN 'too_long'
                    WHEN error LIKE 'unsupported%' OR error_status = 415 THEN 'unsupported'
                    WHEN error LIKE 'invalid%' OR error_status = 400 OR error_status = 422 THEN 'bad_option'
                    WHEN error LIKE 'upstream%' AND error_status IN (429, 503) THEN 'busy'
                    WHEN error LIKE 'upstream%' OR error_status BETWEEN 400 AND 499 THEN 'upstream'
                    WHEN error = 'busy' OR error LIKE '%busy, retry later' THEN 'busy'
                    ELSE 'internal' END,
               result
        FROM targets;
      DROP TABLE targets;
      ALTER TABLE targets_v4 RENAME TO targets;
      ALTER TABLE jobs ADD COLUMN label TEXT NOT NULL DEFAULT '';
    `);
    // A job's label is its first URL's host until a caller names the list.
    const firsts = db.prepare<[], { job_id: string; url: string }>('SELECT job_id, url FROM targets WHERE idx = 0').all();
    const setLabel = db.prepare<[string, string]>('UPDATE jobs SET label = ? WHERE id = ?');
    for (const f of firsts) setLabel.run(hostLabel(f.url), f.job_id);
  },
  // 5 (issue 16): the full-text index of stored results (search.ts), built from the results already stored.
  // It reads targets by (job_id, idx) only, so a step before it that rebuilds targets or
  // adds a column changes nothing here.
  (db) => buildSearchIndex(db),
  // 6: the warnings of a result that is ok but may not be what was wanted (a thin page, a
  // PDF without a text layer), comma-separated, so a listing shows them without reading
  // results. Rebuilt, for the reason of step 2; the index keys on (job_id, idx), not rowids.
  (db) => {
    db.exec(`
      CREATE TABLE targets_v6 (
        job_id       TEXT NOT NULL,
        idx          INTEGER NOT NULL,
        url          TEXT NOT NULL,
        options      TEXT,
        status       TEXT NOT NULL CHECK (status IN ('pending','running','done','failed')),
        error        TEXT NOT NULL DEFAULT '',
        hint         TEXT NOT NULL DEFAULT '',
        bytes        INTEGER NOT NULL DEFAULT 0,
        title        TEXT NOT NULL DEFAULT '',
        started_at   INTEGER,
        finished_at  INTEGER,
        error_status INTEGER NOT NULL DEFAULT 0,
        reason       TEXT NOT NULL DEFAULT '',
        warnings     TEXT NOT NULL DEFAULT '',
        result       TEXT,
        PRIMARY KEY (job_id, idx)
      );
      INSERT INTO targets_v6 (job_id, idx, url, options, status, error, hint, bytes, title, started_at, finished_at, error_status, reason, warnings, result)
        SELECT job_id, idx, url, options, status, error, hint, bytes, title, started_at, finished_at, error_status, reason,
               CASE WHEN status = 'done' AND json_valid(result) AND json_type(result, '$.meta.warnings') = 'array'
                    THEN coalesce((SELECT group_concat(w.value, ',') FROM json_each(result, '$.meta.warnings') w WHERE w.type = 'text'), '')
                    ELSE '' END,
               result
        FROM targets;
      DROP TABLE targets;
      ALTER TABLE targets_v6 RENAME TO targets;
    `);
  },
  // 7: results in markup (a page in mode raw or html) were indexed with their tags, scripts
  // and styles; they are indexed again as the text a person reads in them.
  (db) => reindexMarkup(db),
  // 8 (issue 16): the index folds more of how people type words (search/fold.ts: Greek
  // without accents, е for ё, ss for ß, the bare Arabic alef, Thai and its neighbours cut into
  // words, no soft hyphens or zero-width characters); the results it folds differently are
  // indexed again. In this step's one transaction, as every step: a crash halfway leaves the
  // old index whole, at version 7, and the next open does it again.
  (db) => reindexFolded(db),
  // 9: emoji and pictographs are words of the index (search/fold.ts, PICTOGRAPH); the results
  // that hold any are indexed again, the rest read and left as they are.
  (db) => reindexPictographs(db),
  // 10: the targets of a job that a cancel, a close or a crash cut short (CUT_SHORT_ERRORS),
  // indexed: a finished job with failures counted them by reading every target of it each
  // time it was read (jobs.ts toJob), 0.6-1.2 s for 100,000 targets, twice per opening.
  (db) => db.exec(indexDdl.cutShort()),
  // 11: the targets left running, indexed: at each open as owner, finding those a dead process
  // left read every stored target (0.48 s for 100,000 one-line results), where a few at most
  // are running. The index holds only those, so a target's start and end cost one entry.
  (db) => db.exec(indexDdl.running()),
  // 12: a job's targets by what the table's filter and chips count (targets.ts groups): the
  // counts of a big job came from its rows, so they waited for the last page (~5 s for
  // 100,000), and a GROUP BY over the table read every stored result (0.5 s). On this index,
  // in its order (no sort), 35 ms for 100,000 on a loaded 2-core machine; 4 MB for them.
  (db) => db.exec(indexDdl.byOutcome()),
  // 13: a job's rows as the table lists them (targets.ts ROW_COLUMNS), in an index of their
  // own: in the table they share leaf pages with the results stored inline, so a page of
  // 5,000 rows of 1 KB results read 6 MB from disk; 20 such pages from a cold cache took
  // 2.7-3.4 s, 1.2-1.6 s from this index (10 MB for 100,000 rows).
  (db) => db.exec(indexDdl.rows()),
  // 14: the index holds each Arabic word without the و, ف, ب, ك, ل and article written joined
  // to its start (search/arabic.ts), so الكتاب finds والكتاب; the results holding Arabic are
  // indexed again, the rest read and left as they are, as at step 8.
  (db) => reindexArabic(db),
  // 15: the index keeps the vowel signs of Hindi and the other Indic scripts inside their word
  // (search/fold.ts INDIC_MARK), where it cut the word at each; the results holding one are
  // indexed again, the rest read and left as they are.
  (db) => reindexIndic(db),
  // 16: the index keeps the vowel signs and tone marks of Thai, Lao, Khmer and Burmese inside
  // their word too, where it cut the word at each (ที่ was ท, and ทุก held it); the results
  // holding one are indexed again, the rest read and left as they are; so are those holding
  // an Indic letter written as one character where Unicode holds it equal to two (ज़ as
  // U+095B, now read as ज and the nukta, as the other spelling is).
  (db) => reindexWordMarks(db),
  // 17: the index leaves the Devanagari nukta out (search/fold.ts NUKTA), so कलम finds क़लम; the
  // results holding one are indexed again, the rest read and left as they are.
  (db) => reindexNukta(db),
  // 18: a page's Markdown is indexed without its inline marks and HTML (search/text.ts
  // inlineMarksAsRead), so "unbreakable rule" finds "un*break*able rule" and "harbour pilot"
  // "<mark>harbour</mark> <ins>pilot</ins>"; the pages holding a "*" or a "<" are indexed again.
  (db) => reindexInlineMarks(db),
  // 19: the index reads Unicode's compatibility forms as NFKC writes them (search/fold.ts COMPAT),
  // so GPU finds ＧＰＵ, ガイド ｶﾞｲﾄﾞ, final ﬁnal, Einstein Einstein¹; the results holding a letter or
  // digit so written are indexed again, the rest read and left as they are.
  (db) => reindexCompat(db),
  // 20: the index reads units and signs written as one character as NFKC writes them (search/fold.ts
  // COMPAT_UNITS), so kg finds 5㎏ and "20 °C" 20℃, and a half-width sound mark after no kana as
  // nothing, as the highlighter does; the results holding either are indexed again, the rest read
  // and left as they are.
  (db) => reindexUnitsAndSoundMarks(db),
  // 21: the index reads the vulgar fractions as NFKC writes them (search/fold.ts COMPAT), so 1/2
  // finds ½ and "1 1/2 cups" 1½ cups; the results holding one are indexed again, the rest read
  // and left as they are.
  (db) => reindexFractions(db),
  // 22: the index holds a hyphenated compound's parts joined too, after the text's words
  // (search/fold.ts joinedCompounds), so email finds e-mail and cooperate co-operate; the results
  // holding one are indexed again, the rest read and left as they are.
  (db) => reindexCompounds(db),
  // 23: a job counts its targets that came back ok and empty (0 B: no passage answered its
  // question, no line matched its grep, the page had no text), as it counts its failed ones:
  // Find in a job whose every ok result was empty said "Try fewer words", where no words could
  // find anything in them, and the job list had no count to say otherwise with.
  (db) =>
    db.exec(`
      ALTER TABLE jobs ADD COLUMN targets_empty INTEGER NOT NULL DEFAULT 0;
      UPDATE jobs SET targets_empty = (SELECT count(*) FROM targets t WHERE t.job_id = jobs.id AND ${EMPTY_TARGETS});
    `),
  // 24: the index holds every run of a compound's parts joined, not its pairs alone, and a word
  // with an apostrophe before three letters joined (search/fold.ts joinedCompounds), so
  // stateoftheart finds state-of-the-art and OBrien O'Brien; the results holding either are
  // indexed again, the rest read and left as they are.
  (db) => reindexLongerJoins(db),
];

/** The targets that came back ok with nothing in them (Job.targetsEmpty), as the job counts them. */
export const EMPTY_TARGETS = "t.status = 'done' AND t.bytes = 0";

/**
 * The targets cut short (CUT_SHORT_ERRORS), written out: SQLite uses a partial index only
 * for a query whose WHERE holds its own terms as written, not bound parameters.
 */
export const CUT_SHORT_TARGETS = "status = 'failed' AND error IN ('restart', 'cancelled', 'interrupted')";

/**
 * The indexes of steps 10 to 13, as those steps make them; `IF NOT EXISTS` for openStore,
 * which makes again one dropped by hand: the counts name two of them (INDEXED BY), and SQLite
 * refuses such a query at prepare, so the database did not open at all without them.
 */
const indexDdl = {
  cutShort: (ifNot = '') => `CREATE INDEX ${ifNot}targets_cut_short ON targets (job_id) WHERE ${CUT_SHORT_TARGETS}`,
  running: (ifNot = '') => `CREATE INDEX ${ifNot}targets_running ON targets (job_id) WHERE status = 'running'`,
  byOutcome: (ifNot = '') => `CREATE INDEX ${ifNot}targets_by_outcome ON targets (job_id, status, reason, warnings, idx)`,
  rows: (ifNot = '') => `CREATE INDEX ${ifNot}targets_rows ON targets
      (job_id, idx, url, options, status, error, hint, bytes, title, error_status, reason, warnings, started_at, finished_at)`,
};

/** Makes again any of the indexes of steps 10 to 13 that is gone; nothing when all are there (each open). */
export function restoreIndexes(db: Database.Database): void {
  for (const ddl of Object.values(indexDdl)) db.exec(ddl('IF NOT EXISTS '));
}

export const SCHEMA_VERSION = MIGRATIONS.length;

/** Applies every step above the database's version; `upTo` stops early (for tests). */
export function migrate(db: Database.Database, upTo = SCHEMA_VERSION): void {
  const from = db.pragma('user_version', { simple: true }) as number;
  if (from > SCHEMA_VERSION) {
    throw new Error(`database schema ${from} is newer than this Sift (${SCHEMA_VERSION})`);
  }
  for (let v = from; v < upTo; v++) {
    const step = MIGRATIONS[v];
    if (!step) break;
    db.transaction(() => {
      step(db);
      // user_version cannot be bound as a parameter; v + 1 is an integer we made.
      db.pragma(`user_version = ${v + 1}`);
    }).immediate();
  }
}
