import Database from 'better-sqlite3';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { hitText, searchStore } from '../../src/main/search';
import type { Result } from '../../src/shared/types';
import { migrate, openStore, SCHEMA_VERSION, type Store } from '../../src/main/store';
import { searchTable } from '../../src/main/store/search';
import { CUT_SHORT_COUNT } from '../../src/main/store/jobs';
import { cutShortGroups, OUTCOME_GROUPS, ROW_COLUMNS, RUNNING_TARGETS_JOBS } from '../../src/main/store/targets';
import { CUT_SHORT_ERRORS } from '../../src/shared/types';
import { tempDir } from '../helpers/store';
import { unspacedWords } from '../../src/main/search/fold';

let t: ReturnType<typeof tempDir>;
let p: string;
beforeEach(() => {
  t = tempDir('sift-migrate-');
  p = path.join(t.dir, 'sift.db');
});
afterEach(() => t.remove());

/** A database as Sift at schema version v left it. */
function atVersion(file: string, v: number): Database.Database {
  const raw = new Database(file);
  migrate(raw, v);
  return raw;
}

/** A job whose targets all finished with these contents, through the store's write path. */
function newJobWith(store: Store, id: string, contents: string[]): void {
  store.insertJob({ id, caller: 'a', callerClass: 'u', idemKey: id, targetsTotal: contents.length, nowMs: 1, leaseExpires: 9e15 }, contents.map((_, i) => ({ url: `https://x.test/${i}` })));
  store.transition(id, 'queued', 'running', '', 1);
  contents.forEach((content, i) => {
    store.startTarget(id, i, 2);
    store.finishTarget(id, i, { status: 'done', result: { content, meta: {} }, error: '', hint: '', bytes: content.length, title: '', errorStatus: 0 }, 3, 9e15);
  });
}

/** The indexes migrations 10 to 13 made, which queries name or lean on. */
const INDEXES_NAMED = ['targets_cut_short', 'targets_running', 'targets_by_outcome', 'targets_rows'] as const;

const version = (file: string): number => {
  const raw = new Database(file, { readonly: true });
  const v = raw.pragma('user_version', { simple: true }) as number;
  raw.close();
  return v;
};

/** The targets table after a rebuild: `result` still its last column, the file intact. Returns its column names. */
function expectRebuilt(file: string): string[] {
  const check = new Database(file, { readonly: true });
  const cols = (check.prepare("SELECT name FROM pragma_table_info('targets')").all() as { name: string }[]).map((c) => c.name);
  const integrity = check.pragma('integrity_check', { simple: true });
  check.close();
  expect(cols.at(-1)).toBe('result');
  expect(integrity).toBe('ok');
  return cols;
}

/** A partial job row as an old Sift wrote it (targets_failed exists from version 2 on). */
function insertOldJob(raw: Database.Database, id: string, caller: string, total: number, done: number, failed: number): void {
  raw
    .prepare(
      `INSERT INTO jobs (id, caller, caller_class, idem_key, status, targets_total, targets_done, targets_failed, created_at, updated_at, lease_expires)
       VALUES (?, ?, 'user', ?, 'partial', ?, ?, ?, 100, 200, 300)`,
    )
    .run(id, caller, `k-${id}`, total, done, failed);
}

/**
 * Done results of job `id` as an earlier version stored them, each with its search entry: the
 * text that version handed FTS5, `indexed` (by default the content as it is), at
 * https://`host`/idx, all titled T.
 */
function storeIndexedAsOld(raw: Database.Database, id: string, contents: string[], o: { host?: string; indexed?: (content: string, idx: number) => string } = {}): void {
  const ins = raw.prepare('INSERT INTO targets (job_id, idx, url, status, result, bytes, title) VALUES (?,?,?,?,?,?,?)');
  const doc = raw.prepare<[string, number]>('INSERT INTO search_docs (job_id, idx) VALUES (?, ?)');
  const fts = raw.prepare<[number | bigint, string, string, string, string]>('INSERT INTO search_fts (rowid, title, url, body, job) VALUES (?, ?, ?, ?, ?)');
  contents.forEach((content, idx) => {
    const url = `https://${o.host ?? 'f.test'}/${idx}`;
    ins.run(id, idx, url, 'done', JSON.stringify({ content, meta: { title: 'T' } }), content.length, 'T');
    fts.run(doc.run(id, idx).lastInsertRowid, 'T', url, o.indexed ? o.indexed(content, idx) : content, id);
  });
}

/** A search of `store` as the migrated tests read it: each hit's result, line and marked text. */
const finderIn = (store: Store) => (q: string) => searchStore(store, q).hits.map((h) => ({ idx: h.idx, line: h.line, text: hitText(h) }));

describe('migrations', () => {
  it('has one test per earlier version (this file covers 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22 and 23)', () => {
    expect(SCHEMA_VERSION).toBe(24);
  });

  it('migrates an empty database (version 0) to the latest and works', () => {
    new Database(p).close();
    expect(version(p)).toBe(0);
    const store = openStore(p);
    store.insertJob({ id: 'j', caller: 'a', callerClass: 'u', idemKey: 'k', targetsTotal: 1, nowMs: 1, leaseExpires: 2 }, [{ url: 'https://x.test/' }]);
    expect(store.getJob('j')).toMatchObject({ status: 'queued', targetsFailed: 0 });
    store.close();
    expect(version(p)).toBe(SCHEMA_VERSION);
  });

  it('migrates a version 1 database: keeps every row, counts failed targets and backfills titles', () => {
    const raw = atVersion(p, 1);
    expect(raw.pragma('user_version', { simple: true })).toBe(1);
    raw
      .prepare(
        `INSERT INTO jobs (id, caller, caller_class, idem_key, status, targets_total, targets_done, created_at, updated_at, lease_expires)
         VALUES ('j1', 'alice', 'user', 'k1', 'partial', 3, 3, 100, 200, 300)`,
      )
      .run();
    const ins = raw.prepare(
      'INSERT INTO targets (job_id, idx, url, options, status, result, error, hint, bytes, started_at, finished_at) VALUES (?,?,?,?,?,?,?,?,?,?,?)',
    );
    ins.run('j1', 0, 'https://x.test/0', '{"mode":"text"}', 'done', JSON.stringify({ content: 'zero', meta: { title: 'Zero' } }), '', '', 4, 110, 120);
    ins.run('j1', 1, 'https://x.test/1', null, 'failed', null, 'not found', 'check it', 0, 130, 140);
    ins.run('j1', 2, 'https://x.test/2', null, 'done', JSON.stringify({ content: 'two', meta: { title: 7 } }), '', '', 3, 150, 160);
    raw.close();

    const store = openStore(p);
    expect(store.getJob('j1')).toMatchObject({ status: 'partial', targetsTotal: 3, targetsDone: 3, targetsFailed: 1, leaseExpires: 300 });
    expect(store.targetRows('j1')).toEqual([
      { idx: 0, url: 'https://x.test/0', options: { mode: 'text' }, status: 'done', error: '', hint: '', bytes: 4, errorStatus: 0, reason: '', title: 'Zero', startedAt: 110, finishedAt: 120 },
      { idx: 1, url: 'https://x.test/1', status: 'failed', error: 'not found', hint: 'check it', bytes: 0, errorStatus: 500, reason: 'internal', title: '', startedAt: 130, finishedAt: 140 },
      { idx: 2, url: 'https://x.test/2', status: 'done', error: '', hint: '', bytes: 3, errorStatus: 0, reason: '', title: '', startedAt: 150, finishedAt: 160 },
    ]);
    expect(store.targetResult('j1', 0)?.result).toEqual({ content: 'zero', meta: { title: 'Zero' } });
    store.close();
    expect(version(p)).toBe(SCHEMA_VERSION);

    // result stays the last column, so listing rows never walks a result's overflow pages.
    expectRebuilt(p);
  });

  it('migrates a version 2 database: failed targets get a stored status, result stays last', () => {
    const raw = atVersion(p, 2);
    insertOldJob(raw, 'j2', 'bob', 2, 2, 1);
    const ins = raw.prepare(
      'INSERT INTO targets (job_id, idx, url, options, status, result, error, hint, bytes, title, started_at, finished_at) VALUES (?,?,?,?,?,?,?,?,?,?,?,?)',
    );
    ins.run('j2', 0, 'https://y.test/0', null, 'done', JSON.stringify({ content: 'a', meta: { title: 'A' } }), '', '', 1, 'A', 110, 120);
    ins.run('j2', 1, 'https://y.test/1', null, 'failed', null, 'timeout', 'slow', 0, '', 130, 140);
    raw.close();

    const store = openStore(p);
    expect(store.targetRows('j2').map((r) => [r.status, r.errorStatus, r.title])).toEqual([
      ['done', 0, 'A'],
      ['failed', 500, ''],
    ]);
    expect(store.targetResult('j2', 0)?.result).toEqual({ content: 'a', meta: { title: 'A' } });
    store.close();
    expect(expectRebuilt(p)).toContain('error_status');
  });

  it('migrates a version 3 database: failed targets get the reason their status implies, jobs a label', () => {
    const raw = atVersion(p, 3);
    insertOldJob(raw, 'j3', 'carol', 9, 9, 8);
    const ins = raw.prepare(
      'INSERT INTO targets (job_id, idx, url, status, result, error, hint, bytes, title, error_status) VALUES (?,?,?,?,?,?,?,?,?,?)',
    );
    ins.run('j3', 0, 'https://z.test:8080/a', 'done', JSON.stringify({ content: 'a' }), '', '', 1, 'A', 0);
    const failures: [string, number][] = [
      ['upstream 404 Not Found', 404],
      ['blocked', 403],
      ['timeout: fetching', 504],
      ['upstream 503 Service Unavailable: busy, retry later', 503],
      ['document too long: 900 pages', 422],
      ['invalid URL: no host', 400],
      ['restart', 500],
      ['internal error', 500],
    ];
    failures.forEach(([error, status], i) => ins.run('j3', i + 1, `https://z.test/${i}`, 'failed', null, error, '', 0, '', status));
    raw.close();

    const store = openStore(p);
    expect(store.targetRows('j3').map((r) => r.reason)).toEqual(['', 'upstream', 'blocked', 'timeout', 'busy', 'too_long', 'bad_option', 'restart', 'internal']);
    expect(store.getJob('j3')?.label).toBe('z.test:8080');
    store.close();
    expectRebuilt(p);
  });

  it('migrates a version 4 database: builds the search index from the results already stored', () => {
    const raw = atVersion(p, 4);
    insertOldJob(raw, 'j3', 'carol', 4, 3, 1);
    const ins = raw.prepare(
      'INSERT INTO targets (job_id, idx, url, status, result, error, bytes, title, error_status) VALUES (?,?,?,?,?,?,?,?,?)',
    );
    const doc = (content: string, title: string): string => JSON.stringify({ content, meta: { title } });
    ins.run('j3', 0, 'https://z.test/0', 'done', doc('Intro\nThe quarterly net revenue was high.', 'Q1'), '', 10, 'Q1', 0);
    ins.run('j3', 1, 'https://z.test/1', 'failed', null, 'timeout', 0, '', 504);
    ins.run('j3', 2, 'https://z.test/2', 'done', doc('東京都は日本の首都です', 'Tokyo'), '', 10, 'Tokyo', 0);
    ins.run('j3', 3, 'https://z.test/3', 'pending', null, '', 0, '', 0);
    raw.close();

    const store = openStore(p);
    expect(searchStore(store, '"net revenue"').hits).toMatchObject([{ jobId: 'j3', idx: 0, url: 'https://z.test/0', title: 'Q1', line: 2 }]);
    expect(searchStore(store, '東京').hits.map((h) => h.idx)).toEqual([2]);
    expect(searchStore(store, 'tokyo').hits.map((h) => h.idx)).toEqual([2]);
    store.close();
    expect(version(p)).toBe(SCHEMA_VERSION);
    const check = new Database(p, { readonly: true });
    expect((check.prepare('SELECT count(*) AS n FROM search_docs').get() as { n: number }).n).toBe(2);
    expect(check.pragma('integrity_check', { simple: true })).toBe('ok');
    check.close();
  });

  it('migrates a version 5 database: done targets get the warnings their results hold, the search index still finds them, result stays last', () => {
    const raw = atVersion(p, 5);
    insertOldJob(raw, 'j6', 'dan', 3, 3, 1);
    const ins = raw.prepare('INSERT INTO targets (job_id, idx, url, status, result, error, bytes, title, error_status, reason) VALUES (?,?,?,?,?,?,?,?,?,?)');
    const teaser = { content: 'A short teaser.', meta: { title: 'Teaser', warnings: ['thin', 7, 'no_text'] } };
    const full = { content: 'A whole article with no warnings at all.', meta: { title: 'Whole' } };
    ins.run('j6', 0, 'https://w.test/0', 'done', JSON.stringify(teaser), '', 15, 'Teaser', 0, '');
    ins.run('j6', 1, 'https://w.test/1', 'done', JSON.stringify(full), '', 40, 'Whole', 0, '');
    ins.run('j6', 2, 'https://w.test/2', 'failed', null, 'timeout', 0, '', 504, 'timeout');
    const index = searchTable(raw);
    index.index('j6', 0, 'https://w.test/0', 'Teaser', teaser, undefined);
    index.index('j6', 1, 'https://w.test/1', 'Whole', full, undefined);
    raw.close();

    const store = openStore(p);
    expect(store.targetRows('j6').map((r) => r.warnings)).toEqual([['thin', 'no_text'], undefined, undefined]);
    expect(searchStore(store, 'teaser').hits.map((h) => h.idx)).toEqual([0]);
    expect(searchStore(store, 'article').hits.map((h) => h.idx)).toEqual([1]);
    store.close();
    expect(version(p)).toBe(SCHEMA_VERSION);
    expectRebuilt(p);
  });

  it('migrates a version 6 database: a page stored in mode raw or html is searched as its text, not its markup', () => {
    const raw = atVersion(p, 6);
    insertOldJob(raw, 'j7', 'dan', 3, 3, 0);
    const ins = raw.prepare('INSERT INTO targets (job_id, idx, url, options, status, result, bytes, title) VALUES (?,?,?,?,?,?,?,?)');
    const page = (words: string): Result => ({
      content: `<html><head><script>var tracker = "quokka";</script><style>.quokka{}</style></head>\n<body class="quokka-menu">\n<p>The ${words} &amp; friends.</p></body></html>`,
      meta: { kind: 'html', title: 'Page' },
    });
    const rows: [number, string | null, Result][] = [
      [0, '{"mode":"raw"}', page('wombat')],
      [1, '{"mode":"html"}', page('numbat')],
      [2, null, { content: 'A markdown result that names the quokka.', meta: { kind: 'html', title: 'Markdown' } }],
    ];
    const index = searchTable(raw);
    for (const [idx, options, result] of rows) {
      ins.run('j7', idx, `https://m.test/${idx}`, options, 'done', JSON.stringify(result), result.content.length, 'Page');
      // As version 6 indexed them: the content as stored, markup and all.
      index.index('j7', idx, `https://m.test/${idx}`, 'Page', result, undefined);
    }
    expect(searchTable(raw).query('quokka', undefined, 10).map((r) => r.idx).sort()).toEqual([0, 1, 2]);
    raw.close();

    const store = openStore(p);
    // Only the markdown result says quokka in its text; the pages had it in a script, a style and a class.
    expect(searchStore(store, 'quokka').hits.map((h) => h.idx)).toEqual([2]);
    const [hit] = searchStore(store, 'wombat').hits;
    expect(hit).toMatchObject({ idx: 0, line: 3 });
    expect(hitText(hit!)).toBe('The «wombat» & friends.');
    expect(searchStore(store, 'numbat').hits.map((h) => h.idx)).toEqual([1]);
    store.close();
    expect(version(p)).toBe(SCHEMA_VERSION);
  });

  it('migrates a version 7 database: results indexed before the fold read words as people type them are found by those words', () => {
    const raw = atVersion(p, 7);
    insertOldJob(raw, 'j8', 'erin', 5, 5, 0);
    const contents = [
      'Εισαγωγή\nΗ βιβλιοθήκη της πόλης.',
      'Праздник\nНовогодняя ёлка.\nDie Straßenbahn fährt.',
      'مقدمة\nأنواع الكتب في المكتبة.',
      'บทนำ\nฉันกินข้าวที่บ้าน',
      'Typesetting\nHyphen\u00ADation rules.',
    ];
    // Version 7 handed FTS5 these texts as they are: its fold changed only vowel marks and CJK.
    storeIndexedAsOld(raw, 'j8', contents);
    // The old index did not know these words as typed.
    expect(searchTable(raw).query('"βιβλιοθηκη" OR "елка" OR "strassenbahn" OR "انواع" OR "กิน" OR "hyphenation"', undefined, 10)).toEqual([]);
    raw.close();

    const store = openStore(p);
    const found = finderIn(store);
    expect(found('βιβλιοθηκη')).toEqual([{ idx: 0, line: 2, text: 'Εισαγωγή Η «βιβλιοθήκη» της πόλης.' }]);
    expect(found('елка')).toEqual([{ idx: 1, line: 2, text: 'Праздник Новогодняя «ёлка». Die Straßenbahn fährt.' }]);
    expect(found('strassenbahn')).toEqual([{ idx: 1, line: 3, text: 'Праздник Новогодняя ёлка. Die «Straßenbahn» fährt.' }]);
    expect(found('انواع')).toEqual([{ idx: 2, line: 2, text: 'مقدمة «أنواع» الكتب في المكتبة.' }]);
    expect(found('กิน')).toEqual([{ idx: 3, line: 2, text: 'บทนำ ฉัน«กิน»ข้าวที่บ้าน' }]);
    expect(found('hyphenation')).toEqual([{ idx: 4, line: 2, text: 'Typesetting «Hyphen\u00ADation» rules.' }]);
    // Re-indexed in place: one entry per result still, the file intact.
    store.close();
    expect(version(p)).toBe(SCHEMA_VERSION);
    const check = new Database(p, { readonly: true });
    expect((check.prepare('SELECT count(*) AS n FROM search_docs').get() as { n: number }).n).toBe(5);
    expect((check.prepare("SELECT count(*) AS n FROM search_fts WHERE search_fts MATCH 'job : j8'").get() as { n: number }).n).toBe(5);
    expect(check.pragma('integrity_check', { simple: true })).toBe('ok');
    check.close();
  });

  it('migrates a version 8 database: results indexed before emoji were words are found by their emoji', () => {
    const raw = atVersion(p, 8);
    insertOldJob(raw, 'j9', 'finn', 3, 3, 0);
    const contents = ['Menu\nOur 🍕 is baked daily.', 'Reviews\nGreat service 👍🏽 would come back.', 'Hours\nOpen from nine to five.'];
    // Version 8 handed FTS5 these texts as they are, where unicode61 reads no emoji.
    storeIndexedAsOld(raw, 'j9', contents);
    raw.close();

    const store = openStore(p);
    const found = finderIn(store);
    expect(found('🍕')).toEqual([{ idx: 0, line: 2, text: 'Menu Our «🍕» is baked daily.' }]);
    expect(found('👍')).toEqual([{ idx: 1, line: 2, text: 'Reviews Great service «👍»🏽 would come back.' }]);
    expect(found('baked')).toEqual([{ idx: 0, line: 2, text: 'Menu Our 🍕 is «baked» daily.' }]);
    expect(found('nine')).toEqual([{ idx: 2, line: 2, text: 'Hours Open from «nine» to five.' }]);
    store.close();
    expect(version(p)).toBe(SCHEMA_VERSION);
    const check = new Database(p, { readonly: true });
    expect((check.prepare('SELECT count(*) AS n FROM search_docs').get() as { n: number }).n).toBe(3);
    expect(check.pragma('integrity_check', { simple: true })).toBe('ok');
    check.close();
  });

  it('migrates a version 13 database: Arabic results indexed with their words as written are found by the word without و, ف, ب, ك, ل and the article', () => {
    const raw = atVersion(p, 13);
    insertOldJob(raw, 'j12', 'gina', 3, 3, 0);
    const contents = ['مقدمة\nقرأ الطالب والكتاب الجديد.', 'مقدمة\nكتبت الرسالة بالقلم.', 'Notes\nThe book and the pen.'];
    // Version 13 handed FTS5 every Arabic word as written, the letters joined to its start included.
    storeIndexedAsOld(raw, 'j12', contents);
    raw.close();

    const store = openStore(p);
    const found = finderIn(store);
    expect(found('الكتاب')).toEqual([{ idx: 0, line: 2, text: 'مقدمة قرأ الطالب «والكتاب» الجديد.' }]);
    expect(found('"الكتاب الجديد"')).toEqual([{ idx: 0, line: 2, text: 'مقدمة قرأ الطالب «والكتاب الجديد».' }]);
    expect(found('قلم')).toEqual([{ idx: 1, line: 2, text: 'مقدمة كتبت الرسالة «بالقلم».' }]);
    expect(found('book')).toEqual([{ idx: 2, line: 2, text: 'Notes The «book» and the pen.' }]);
    store.close();
    expect(version(p)).toBe(SCHEMA_VERSION);
    const check = new Database(p, { readonly: true });
    expect((check.prepare('SELECT count(*) AS n FROM search_docs').get() as { n: number }).n).toBe(3);
    expect(check.pragma('integrity_check', { simple: true })).toBe('ok');
    check.close();
  });

  it('migrates a version 14 database: Hindi results indexed with their words cut at the vowel signs are found by the whole word', () => {
    const raw = atVersion(p, 14);
    insertOldJob(raw, 'j14', 'hema', 3, 3, 0);
    const contents = ['सूची\nमराठी और हिंदी में पढ़ें।', 'सूची\nहिंदू धर्म के त्योहार।', 'Notes\nHindi and Marathi.'];
    // Version 14 handed FTS5 the marks as written, which it read as the ends of words.
    storeIndexedAsOld(raw, 'j14', contents);
    raw.close();

    const store = openStore(p);
    const found = finderIn(store);
    expect(found('हिंदी')).toEqual([{ idx: 0, line: 2, text: 'सूची मराठी और «हिंदी» में पढ़ें।' }]);
    expect(found('हिंदू')).toEqual([{ idx: 1, line: 2, text: 'सूची «हिंदू» धर्म के त्योहार।' }]);
    expect(found('marathi')).toEqual([{ idx: 2, line: 2, text: 'Notes Hindi and «Marathi».' }]);
    store.close();
    expect(version(p)).toBe(SCHEMA_VERSION);
  });

  /** Thai or Khmer text as version 15 handed it to FTS5: cut into words, their marks as written. */
  const foldForIndexAt15 = (text: string): string => unspacedWords(text).join(' ');
  /** Hindi as version 15 handed it to FTS5: each vowel sign and virama as a private-use character of plane 15, U+095B as it is. */
  const foldHindiAt15 = (text: string): string => text.replace(/(?=\p{M})[\u0900-\u0DFF]/gu, (m) => String.fromCodePoint(0xf0000 + (m.codePointAt(0) as number)));

  it('migrates a version 15 database: Thai and Khmer results indexed with their words cut at the marks are found by the whole word alone, Hindi with ज़ as one character by ज and the nukta', () => {
    const raw = atVersion(p, 15);
    insertOldJob(raw, 'j15', 'tida', 5, 5, 0);
    // And Hindi ज़ as U+095B, which the index held as one letter, where a query's ज and nukta were two.
    const contents = ['สารบัญ\nขอให้ทุกคนอยู่ที่นี่', 'สารบัญ\nขอให้ทุกคนมีความสุข', 'មាតិកា\nទឹកនេះស្អាត', 'មាតិកា\nយើងទិញទូកថ្មី', 'सूची\nउसे \u095B्यादा मिला।'];
    // Version 15 handed FTS5 the marks as written, which it read as the ends of words: ที่ was ท, ទឹក ទ and ក.
    storeIndexedAsOld(raw, 'j15', contents, { indexed: (content, idx) => idx < 4 ? foldForIndexAt15(content) : foldHindiAt15(content) });
    raw.close();

    const store = openStore(p);
    const found = finderIn(store);
    expect(found('ที่')).toEqual([{ idx: 0, line: 2, text: 'สารบัญ ขอให้ทุกคนอยู่«ที่»นี่' }]);
    expect(found('ទឹក')).toEqual([{ idx: 2, line: 2, text: 'មាតិកា «ទឹក»នេះស្អាត' }]);
    expect(found('ទូក')).toEqual([{ idx: 3, line: 2, text: 'មាតិកា យើងទិញ«ទូក»ថ្មី' }]);
    expect(found('\u091C\u093C्यादा')).toEqual([{ idx: 4, line: 2, text: 'सूची उसे «\u095B्यादा» मिला।' }]);
    store.close();
    expect(version(p)).toBe(SCHEMA_VERSION);
  });

  it('migrates a version 16 database: Hindi results indexed with the nukta are found by the word typed without it, and only they are indexed again', () => {
    const raw = atVersion(p, 16);
    insertOldJob(raw, 'j16', 'ravi', 3, 3, 0);
    // क़लम (pen) with क़ as U+0958, ज़रूर with ज and the nukta; and a result with no nukta.
    const contents = ['सूची\nउसने \u0958लम से लिखा।', 'सूची\nवह \u091C\u093Cरूर आएगा।', 'Notes\nA pen.'];
    // Version 16 handed FTS5 a letter written as one character as its two, the nukta as a mark kept in its word.
    // The English result's entry says "quill", not its text: a result indexed again would lose it.
    storeIndexedAsOld(raw, 'j16', contents, { indexed: (content, idx) => idx < 2 ? foldHindiAt15(content.normalize('NFD')) : 'Notes quill' });
    raw.close();

    const store = openStore(p);
    const found = finderIn(store);
    expect(found('कलम')).toEqual([{ idx: 0, line: 2, text: 'सूची उसने «\u0958लम» से लिखा।' }]);
    expect(found('\u0958लम')).toEqual([{ idx: 0, line: 2, text: 'सूची उसने «\u0958लम» से लिखा।' }]);
    expect(found('जरूर')).toEqual([{ idx: 1, line: 2, text: 'सूची वह «\u091C\u093Cरूर» आएगा।' }]);
    expect(found('quill').map((h) => h.idx)).toEqual([2]);
    store.close();
    expect(version(p)).toBe(SCHEMA_VERSION);
  });

  it('migrates a version 17 database: pages indexed with their inline marks and HTML are found by a phrase across them, and only they are indexed again', () => {
    const raw = atVersion(p, 17);
    insertOldJob(raw, 'j17', 'mia', 4, 4, 0);
    const ins = raw.prepare('INSERT INTO targets (job_id, idx, url, options, status, result, bytes, title) VALUES (?,?,?,?,?,?,?,?)');
    const rows: [string | null, string][] = [
      [null, 'Notes\nThe <mark>harbour</mark> <ins>pilot</ins> came aboard.'],
      ['{"mode":"markdown"}', 'Notes\nAn un*break*able rule of the quay.'],
      // In mode text the asterisks are the page's own; a page without either is read and left.
      ['{"mode":"text"}', 'Notes\nAn un*break*able rule in text.'],
      [null, 'Notes\nA plain page.'],
    ];
    // Version 17 indexed a page's Markdown as it is; the plain page's entry says "quill", not its text: indexed again, it would lose it.
    const doc = raw.prepare<[string, number]>('INSERT INTO search_docs (job_id, idx) VALUES (?, ?)');
    const fts = raw.prepare<[number | bigint, string, string, string, string]>('INSERT INTO search_fts (rowid, title, url, body, job) VALUES (?, ?, ?, ?, ?)');
    rows.forEach(([options, content], idx) => {
      ins.run('j17', idx, `https://i.test/${idx}`, options, 'done', JSON.stringify({ content, meta: { kind: 'html', title: 'T' } }), content.length, 'T');
      fts.run(doc.run('j17', idx).lastInsertRowid, 't', `https://i.test/${idx}`, idx === 3 ? 'notes quill' : content.toLowerCase(), 'j17');
    });
    expect(searchTable(raw).query('"harbour pilot"', undefined, 10)).toEqual([]);
    raw.close();

    const store = openStore(p);
    const found = finderIn(store);
    expect(found('"harbour pilot"')).toEqual([{ idx: 0, line: 2, text: 'Notes The «harbour pilot» came aboard.' }]);
    expect(found('"unbreakable rule"')).toEqual([{ idx: 1, line: 2, text: 'Notes An «unbreakable rule» of the quay.' }]);
    expect(found('quill').map((h) => h.idx)).toEqual([3]);
    store.close();
    expect(version(p)).toBe(SCHEMA_VERSION);
  });

  it('migrates a version 18 database: results indexed with full-width, half-width, ligature and superscript forms are found as typed, and only they are indexed again', () => {
    const raw = atVersion(p, 18);
    insertOldJob(raw, 'j18', 'kenji', 5, 5, 0);
    const contents = [
      'スペック\nこのＧＰＵは１０倍速い。',
      'マニュアル\nｶﾞｲﾄﾞを読む。',
      'Report\nThe ﬁnal ﬁgures, as Einstein¹ said. 𝗕𝗥𝗘𝗔𝗞𝗜𝗡𝗚.',
      // Only the full-width comma and brackets of Chinese text: no word of it changes, so it is read and left.
      '东京，（大阪）\n人口很多。',
      'Notes\nA pen.',
    ];
    // Version 18 handed FTS5 these forms as they are (a Japanese character, ｶ among them, a word of its own).
    // The last two entries say "quill", not their text: a result indexed again would lose it.
    storeIndexedAsOld(raw, 'j18', contents, { host: 'w.test', indexed: (content, idx) => idx < 3 ? content.replace(/[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/gu, ' $& ') : 'Notes quill' });
    expect(searchTable(raw).query('"gpu"', undefined, 10)).toEqual([]);
    raw.close();

    const store = openStore(p);
    const found = finderIn(store);
    expect(found('GPU')).toEqual([{ idx: 0, line: 2, text: 'スペック このＧＰＵは１０倍速い。'.replace('ＧＰＵ', '«ＧＰＵ»') }]);
    expect(found('10')).toEqual([{ idx: 0, line: 2, text: 'スペック このＧＰＵは１０倍速い。'.replace('１０', '«１０»') }]);
    expect(found('ガイド')).toEqual([{ idx: 1, line: 2, text: 'マニュアル «ｶﾞｲﾄﾞ»を読む。' }]);
    expect(found('"final figures"')).toEqual([{ idx: 2, line: 2, text: 'Report The «ﬁnal ﬁgures», as Einstein¹ said. 𝗕𝗥𝗘𝗔𝗞𝗜𝗡𝗚.' }]);
    expect(found('einstein').map((h) => h.idx)).toEqual([2]);
    expect(found('breaking').map((h) => h.idx)).toEqual([2]);
    expect(found('quill').map((h) => h.idx).sort()).toEqual([3, 4]);
    store.close();
    expect(version(p)).toBe(SCHEMA_VERSION);
  });

  it('migrates a version 19 database: results indexed with units written as one character or a lone half-width sound mark are found as typed, and only they are indexed again', () => {
    const raw = atVersion(p, 19);
    insertOldJob(raw, 'j19', 'kenji', 4, 4, 0);
    const contents = ['Recipe\nAdd 5㎏ of rice at 20℃.', 'ملاحظة\nقال وولﾞو مرة.', 'Notes\nA pen.', 'Notes\nA cup.'];
    // Version 19 handed FTS5 ㎏ and ℃ as they are (symbols, no word) and the lone mark as NFKC's U+3099.
    // The last two entries say "quill", not their text: a result indexed again would lose it.
    storeIndexedAsOld(raw, 'j19', contents, { host: 'w.test', indexed: (content, idx) => idx === 0 ? content : idx === 1 ? 'ملاحظة قال وول\u3099و مره' : 'Notes quill' });
    expect(searchTable(raw).query('"kg"', undefined, 10)).toEqual([]);
    raw.close();

    const store = openStore(p);
    const found = finderIn(store);
    expect(found('kg')).toEqual([{ idx: 0, line: 2, text: 'Recipe Add 5«㎏» of rice at 20℃.' }]);
    expect(found('"20 °C"')).toEqual([{ idx: 0, line: 2, text: 'Recipe Add 5㎏ of rice at «20℃».' }]);
    expect(found('ولو').map((h) => h.idx)).toEqual([1]);
    expect(found('quill').map((h) => h.idx).sort()).toEqual([2, 3]);
    store.close();
    expect(version(p)).toBe(SCHEMA_VERSION);
  });

  it('migrates a version 20 database: results indexed with a vulgar fraction are found by what is typed for it, and only they are indexed again', () => {
    const raw = atVersion(p, 20);
    insertOldJob(raw, 'j20', 'rosa', 4, 4, 0);
    const contents = ['Bread\nAdd ½ cup of water and 1½ cups of flour.', 'Clock\nWait ¾ of an hour, then ⅓ more.', 'Notes\nA pen.', 'Notes\nA cup.'];
    // Version 20 handed FTS5 ½ as it is, a word of its own (unicode61 reads No as a word's), and 1½ as one word.
    // The last two entries say "quill", not their text: a result indexed again would lose it.
    storeIndexedAsOld(raw, 'j20', contents, { host: 'v.test', indexed: (content, idx) => idx < 2 ? content : 'Notes quill' });
    expect(searchTable(raw).query('"1 2 cup"', undefined, 10)).toEqual([]);
    raw.close();

    const store = openStore(p);
    const found = finderIn(store);
    expect(found('"1/2 cup"')).toEqual([{ idx: 0, line: 2, text: 'Bread Add «½ cup» of water and 1½ cups of flour.' }]);
    expect(found('"1 1/2 cups"')).toEqual([{ idx: 0, line: 2, text: 'Bread Add ½ cup of water and «1½ cups» of flour.' }]);
    expect(found('"3/4 of"').map((h) => h.idx)).toEqual([1]);
    expect(found('"1/3 more"').map((h) => h.idx)).toEqual([1]);
    expect(found('quill').map((h) => h.idx).sort()).toEqual([2, 3]);
    store.close();
    expect(version(p)).toBe(SCHEMA_VERSION);
  });

  it('migrates a version 21 database: results indexed with a hyphenated compound are found by it written joined, and only they are indexed again', () => {
    const raw = atVersion(p, 21);
    insertOldJob(raw, 'j21', 'rosa', 4, 4, 0);
    const contents = ['Contact\nSend us an e-mail, we co-operate.', 'Support\nWrite an email; we cooperate.', 'Notes\nFrom day to day.', 'Notes\nA cup.'];
    // Version 21 handed FTS5 e-mail as it is, the words e and mail.
    // The last two entries say "quill", not their text: a result indexed again would lose it.
    storeIndexedAsOld(raw, 'j21', contents, { host: 'v.test', indexed: (content, idx) => (idx < 2 ? content : 'Notes quill') });
    expect(searchTable(raw).query('"email"', undefined, 10).map((r) => r.idx)).toEqual([1]);
    raw.close();

    const store = openStore(p);
    const found = finderIn(store);
    expect(found('email').sort((a, b) => a.idx - b.idx)).toEqual([
      { idx: 0, line: 2, text: 'Contact Send us an «e-mail», we co-operate.' },
      { idx: 1, line: 2, text: 'Support Write an «email»; we cooperate.' },
    ]);
    expect(found('e-mail').map((h) => h.idx).sort()).toEqual([0, 1]);
    expect(found('cooperate').map((h) => h.idx).sort()).toEqual([0, 1]);
    expect(found('today')).toEqual([]);
    expect(found('quill').map((h) => h.idx).sort()).toEqual([2, 3]);
    store.close();
    expect(version(p)).toBe(SCHEMA_VERSION);
  });

  it("migrates a version 23 database: results indexed with a compound of three parts or a name with an apostrophe are found by it written as one word, and only they are indexed again", () => {
    const raw = atVersion(p, 23);
    insertOldJob(raw, 'j23', 'rosa', 4, 4, 0);
    const contents = ['Lab\nA state-of-the-art lab.', 'Letters\nDear Mr O\u2019Brien, thank you.', 'Notes\nAn e-mail came.', 'Notes\nIt\u2019s a cup.'];
    // Version 23 held a compound's neighbouring pairs joined (stateof, ofthe, theart), and no name joined.
    // The last two entries say "quill", not their text: a result indexed again would lose it.
    const asAt23: Record<number, string> = { 0: `${contents[0]} \u{F0000} stateof \u{F0000} ofthe \u{F0000} theart`, 1: contents[1] as string };
    storeIndexedAsOld(raw, 'j23', contents, { host: 'v.test', indexed: (_content, idx) => asAt23[idx] ?? 'Notes quill' });
    expect(searchTable(raw).query('"stateoftheart" OR "obrien"', undefined, 10)).toEqual([]);
    raw.close();

    const store = openStore(p);
    const found = finderIn(store);
    expect(found('stateoftheart')).toEqual([{ idx: 0, line: 2, text: 'Lab A «state-of-the-art» lab.' }]);
    expect(found('OBrien')).toEqual([{ idx: 1, line: 2, text: 'Letters Dear Mr «O\u2019Brien», thank you.' }]);
    expect(found('quill').map((h) => h.idx).sort()).toEqual([2, 3]);
    store.close();
    expect(version(p)).toBe(SCHEMA_VERSION);
  });

  it('leaves a version 7 index whole when re-indexing it fails halfway, and re-indexes it at the next open', () => {
    const raw = atVersion(p, 7);
    insertOldJob(raw, 'j9', 'erin', 2, 2, 0);
    const ins = raw.prepare('INSERT INTO targets (job_id, idx, url, status, result, bytes, title) VALUES (?,?,?,?,?,?,?)');
    // The first result is in the old index as version 7 wrote it; the second was stored
    // without one, so re-indexing inserts its key, where a trigger makes the step fail.
    ins.run('j9', 0, 'https://f.test/0', 'done', JSON.stringify({ content: 'Η βιβλιοθήκη.' }), 20, 'A');
    ins.run('j9', 1, 'https://f.test/1', 'done', JSON.stringify({ content: 'Η πόλη.' }), 20, 'B');
    const rowid = raw.prepare('INSERT INTO search_docs (job_id, idx) VALUES (?, ?)').run('j9', 0).lastInsertRowid;
    raw.prepare('INSERT INTO search_fts (rowid, title, url, body, job) VALUES (?, ?, ?, ?, ?)').run(rowid, 'A', 'https://f.test/0', 'Η βιβλιοθήκη.', 'j9');
    raw.exec("CREATE TRIGGER halfway BEFORE INSERT ON search_docs WHEN NEW.idx = 1 BEGIN SELECT RAISE(ABORT, 'disk went away'); END");
    raw.close();

    expect(() => openStore(p)).toThrow(/disk went away/);
    expect(version(p)).toBe(7);
    const check = new Database(p);
    // The first result's old entry is still there, not deleted and not half rewritten.
    expect(searchTable(check).query('"βιβλιοθήκη"', undefined, 10).map((r) => r.idx)).toEqual([0]);
    expect(searchTable(check).query('"βιβλιοθηκη"', undefined, 10)).toEqual([]);
    expect(check.pragma('integrity_check', { simple: true })).toBe('ok');
    check.exec('DROP TRIGGER halfway');
    check.close();

    const store = openStore(p);
    expect(searchStore(store, 'βιβλιοθηκη').hits.map((h) => h.idx)).toEqual([0]);
    expect(searchStore(store, 'πολη').hits.map((h) => h.idx)).toEqual([1]);
    store.close();
    expect(version(p)).toBe(SCHEMA_VERSION);
  });

  it('re-indexes stored results walking the targets in key order: no step sorts the rows left (10,000 results took 234 s)', () => {
    const raw = atVersion(p, 6);
    // The statements steps 7, 8, 9, 14, 15, 16, 17, 18, 19, 20, 21, 22 and 24 read the targets with, one row per step.
    const walks: string[] = [];
    const prepare = raw.prepare.bind(raw);
    raw.prepare = ((sql: string) => {
      if (/FROM targets/.test(sql) && /ORDER BY job_id, idx\s+LIMIT 1/.test(sql)) walks.push(sql);
      return prepare(sql);
    }) as typeof raw.prepare;
    migrate(raw);
    raw.prepare = prepare;
    expect(walks).toHaveLength(13);
    for (const sql of walks) {
      const plan = raw.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...(sql.match(/\?/g) ?? []).map(() => '')) as { detail: string }[];
      // A MULTI-INDEX OR with a TEMP B-TREE FOR ORDER BY read and sorted every row after the last one at each step.
      expect(plan.map((r) => r.detail)).toEqual([expect.stringMatching(/^SEARCH targets USING INDEX sqlite_autoindex_targets_1 /)]);
    }
    raw.close();
  });

  it("counts a finished job's targets cut short on an index, not by reading every target of the job (100,000 took 0.6-1.2 s at each read of the job)", () => {
    const raw = atVersion(p, 9);
    insertOldJob(raw, 'j1', 'a', 3, 3, 2);
    const target = raw.prepare("INSERT INTO targets (job_id, idx, url, status, error) VALUES ('j1', ?, 'https://x.test/', ?, ?)");
    target.run(0, 'done', '');
    target.run(1, 'failed', 'cancelled');
    target.run(2, 'failed', 'HTTP 404');
    raw.close();
    const store = openStore(p);
    expect(store.getJob('j1')?.targetsCutShort).toBe(1);
    store.close();
    const check = new Database(p, { readonly: true });
    const plan = check.prepare(`EXPLAIN QUERY PLAN ${CUT_SHORT_COUNT}`).all('j1') as { detail: string }[];
    check.close();
    expect(plan.map((r) => r.detail)).toEqual([expect.stringMatching(/^SEARCH targets USING (COVERING )?INDEX targets_cut_short /)]);
    // The index's words are the errors the app calls cut short, every one of them.
    for (const e of CUT_SHORT_ERRORS) expect(CUT_SHORT_COUNT).toContain(`'${e}'`);
  });

  it('migrates a version 22 database: counts each job\'s ok targets that came back empty, and goes on counting them', () => {
    const raw = atVersion(p, 22);
    insertOldJob(raw, 'j1', 'a', 4, 4, 1);
    insertOldJob(raw, 'j2', 'b', 1, 1, 0);
    const target = raw.prepare('INSERT INTO targets (job_id, idx, url, status, bytes) VALUES (?, ?, ?, ?, ?)');
    target.run('j1', 0, 'https://x.test/0', 'done', 0);
    target.run('j1', 1, 'https://x.test/1', 'done', 12);
    target.run('j1', 2, 'https://x.test/2', 'failed', 0);
    target.run('j1', 3, 'https://x.test/3', 'done', 0);
    target.run('j2', 0, 'https://x.test/4', 'done', 7);
    raw.close();
    const store = openStore(p);
    expect(store.getJob('j1')).toMatchObject({ targetsDone: 4, targetsFailed: 1, targetsEmpty: 2 });
    // None empty: no count, as a job with none cut short has none.
    expect(store.getJob('j2')).not.toHaveProperty('targetsEmpty');
    newJobWith(store, 'j3', ['', 'text', '']);
    expect(store.getJob('j3')).toMatchObject({ targetsDone: 3, targetsFailed: 0, targetsEmpty: 2 });
    store.close();
    expect(version(p)).toBe(SCHEMA_VERSION);
  });

  it('finds the targets a dead process left running on an index, not by reading every stored target at each open (0.48 s for 100,000)', () => {
    const raw = atVersion(p, 10);
    insertOldJob(raw, 'j1', 'a', 2, 0, 0);
    const target = raw.prepare("INSERT INTO targets (job_id, idx, url, status, error) VALUES ('j1', ?, 'https://x.test/', ?, '')");
    target.run(0, 'done');
    target.run(1, 'running');
    raw.prepare("UPDATE jobs SET status = 'running' WHERE id = 'j1'").run();
    raw.close();
    const store = openStore(p);
    store.markInFlightFailed('restart', 400);
    expect(store.targetRows('j1').map((r) => [r.status, r.error])).toEqual([
      ['done', ''],
      ['failed', 'restart'],
    ]);
    store.close();
    const check = new Database(p, { readonly: true });
    const plans = [RUNNING_TARGETS_JOBS, "UPDATE targets SET error = 'x' WHERE status = 'running'"].map((sql) =>
      (check.prepare(`EXPLAIN QUERY PLAN ${sql}`).all() as { detail: string }[]).map((r) => r.detail),
    );
    check.close();
    for (const plan of plans) expect(plan).toEqual([expect.stringMatching(/^(SCAN|SEARCH) targets USING (COVERING )?INDEX targets_running\b/)]);
  });

  it('counts the targets after a page by outcome on indexes, the ones cut short apart, without reading stored results', () => {
    const raw = atVersion(p, 11);
    insertOldJob(raw, 'j1', 'a', 7, 6, 3);
    const target = raw.prepare("INSERT INTO targets (job_id, idx, url, status, error, reason, warnings, result) VALUES ('j1', ?, 'https://x.test/', ?, ?, ?, ?, '{}')");
    target.run(0, 'failed', 'HTTP 404', 'upstream', '');
    target.run(1, 'done', '', '', 'thin');
    target.run(2, 'done', '', '', '');
    target.run(3, 'failed', 'HTTP 404', 'upstream', '');
    target.run(4, 'done', '', '', 'thin');
    target.run(5, 'failed', 'cancelled', 'cancelled', '');
    target.run(6, 'pending', '', '', '');
    raw.close();
    const store = openStore(p);
    const byKey = (from: number) => store.targetGroups('j1', from).sort((a, b) => `${a.status}${a.reason}${a.error}`.localeCompare(`${b.status}${b.reason}${b.error}`));
    expect(byKey(1)).toEqual([
      { status: 'done', error: '', reason: '', n: 1 },
      { status: 'done', error: '', reason: '', warnings: ['thin'], n: 2 },
      { status: 'failed', error: 'cancelled', reason: 'cancelled', n: 1 },
      { status: 'failed', error: '', reason: 'upstream', n: 1 },
      { status: 'pending', error: '', reason: '', n: 1 },
    ]);
    expect(byKey(7)).toEqual([]);
    store.close();
    const check = new Database(p, { readonly: true });
    const plans = [OUTCOME_GROUPS, cutShortGroups()].map((sql) => (check.prepare(`EXPLAIN QUERY PLAN ${sql}`).all('j1', 1) as { detail: string }[]).map((r) => r.detail));
    check.close();
    expect(plans[0]).toEqual(['SEARCH targets USING COVERING INDEX targets_by_outcome (job_id=?)']);
    expect(plans[1]![0]).toMatch(/^SEARCH targets USING INDEX targets_cut_short /);
  });

  it('lists a page of rows from an index of their own, not from the table whose leaf pages hold the results', () => {
    const raw = atVersion(p, 12);
    insertOldJob(raw, 'j1', 'a', 3, 3, 1);
    const target = raw.prepare("INSERT INTO targets (job_id, idx, url, status, error, reason, title, result) VALUES ('j1', ?, ?, ?, ?, ?, ?, ?)");
    target.run(0, 'https://x.test/0', 'done', '', '', 'Zero', JSON.stringify({ content: 'x'.repeat(5000) }));
    target.run(1, 'https://x.test/1', 'failed', 'HTTP 404', 'upstream', '', null);
    target.run(2, 'https://x.test/2', 'done', '', '', 'Two', '{"content":"two"}');
    raw.close();
    const store = openStore(p);
    expect(store.targetRowsPage('j1', 1, 5).map((r) => [r.idx, r.url, r.status, r.reason, r.title])).toEqual([
      [1, 'https://x.test/1', 'failed', 'upstream', ''],
      [2, 'https://x.test/2', 'done', '', 'Two'],
    ]);
    store.close();
    const check = new Database(p, { readonly: true });
    const plan = check.prepare(`EXPLAIN QUERY PLAN SELECT ${ROW_COLUMNS} FROM targets WHERE job_id = ? AND idx >= ? ORDER BY idx LIMIT ?`).all('j1', 1, 5) as { detail: string }[];
    check.close();
    expect(plan.map((r) => r.detail)).toEqual(['SEARCH targets USING COVERING INDEX targets_rows (job_id=? AND idx>?)']);
  });

  it("gives a search index made before them the index's merge settings, and keeps them", () => {
    atVersion(p, 5).close();
    const config = (): Record<string, unknown> => {
      const check = new Database(p, { readonly: true });
      const rows = check.prepare("SELECT k, v FROM search_fts_config WHERE k IN ('automerge', 'crisismerge')").all() as { k: string; v: unknown }[];
      check.close();
      return Object.fromEntries(rows.map((r) => [r.k, r.v]));
    };
    expect(config()).toEqual({});
    for (let i = 0; i < 2; i++) {
      const store = openStore(p);
      newJobWith(store, 'j5', ['net revenue rose']);
      expect(searchStore(store, 'revenue').hits.map((h) => h.jobId)).toEqual(['j5']);
      store.deleteJob('j5');
      store.close();
      expect(config()).toEqual({ automerge: 16, crisismerge: 32 });
    }
  });

  it('opens a database whose indexes of migrations 10 to 13 were dropped by hand, and makes them again', () => {
    const store = openStore(p);
    newJobWith(store, 'j1', ['a', 'b']);
    store.close();
    const raw = new Database(p);
    for (const name of INDEXES_NAMED) raw.exec(`DROP INDEX ${name}`);
    raw.close();
    // The counts and the job name their indexes (INDEXED BY), which SQLite refuses at prepare when one is gone.
    const again = openStore(p);
    expect(again.getJob('j1')?.targetsDone).toBe(2);
    expect(again.targetGroups('j1', 0)).toEqual([{ status: 'done', error: '', reason: '', n: 2 }]);
    again.close();
    const check = new Database(p, { readonly: true });
    const present = (check.prepare("SELECT name FROM sqlite_master WHERE type = 'index'").all() as { name: string }[]).map((r) => r.name);
    check.close();
    expect(present).toEqual(expect.arrayContaining([...INDEXES_NAMED]));
  });

  it('leaves a database at its version when a migration step fails', () => {
    const raw = atVersion(p, 1);
    // A table in the way of step 2's rebuild makes that step fail halfway.
    raw.exec('CREATE TABLE targets_v2 (x)');
    raw.close();
    expect(() => openStore(p)).toThrow(/targets_v2/);
    expect(version(p)).toBe(1);
    const again = new Database(p, { readonly: true });
    const jobCols = (again.prepare("SELECT name FROM pragma_table_info('jobs')").all() as { name: string }[]).map((c) => c.name);
    again.close();
    expect(jobCols).not.toContain('targets_failed');
  });
});
