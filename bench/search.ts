/**
 * `npm run bench -- search`: 10,000 stored results of ~20 KB of prose each.
 *
 * - Write throughput: the store's real write path (startTarget + finishTarget, one
 *   transaction per target, committed to the WAL and synced in the background) with the
 *   search index against the same store opened without it, in alternating blocks so the
 *   machine's noise hits both alike.
 * - Index size: the FTS5 index and its key table (SQLite's dbstat) as a share of the
 *   results' bytes.
 * - Query latency, median and p99, for one-word, three-word and phrase queries through
 *   searchStore (the CLI's and the app's path: FTS5 + BM25 + snippets and citations of the top
 *   20), against the baseline a store without an index has: a LIKE scan over the same rows.
 *
 * The prose: words drawn from a 30,000-word vocabulary with Zipf's law (s = 1.07), as natural
 * language has it, so some words are in every result and most in a few.
 */
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseQuery, searchStore } from '../src/main/search';
import { foldForIndex } from '../src/main/search/fold';
import { openStore, type Store } from '../src/main/store';
import { seeded } from './_seeded';

const TARGETS = Number(process.env['SIFT_BENCH_SEARCH_TARGETS'] ?? 10_000);
const RESULT_CHARS = 20 * 1024;
const VOCAB = 30_000;
const QUERIES = Number(process.env['SIFT_BENCH_SEARCH_QUERIES'] ?? 200);
const LIKE_QUERIES = 5;
const BLOCK = 250;

const rand = seeded(20_240_601);

const CONS = 'bcdfghjklmnprstvz';
const VOW = 'aeiou';
/** Distinct pronounceable words; rank 0 is the most common. */
const words: string[] = (() => {
  const seen = new Set<string>();
  while (seen.size < VOCAB) {
    let w = '';
    const syl = 1 + Math.floor(rand() * 3) + (seen.size > 200 ? 1 : 0);
    for (let i = 0; i < syl; i++) w += (CONS[Math.floor(rand() * CONS.length)] ?? 'b') + (VOW[Math.floor(rand() * VOW.length)] ?? 'a');
    seen.add(w);
  }
  return [...seen];
})();
const cdf: number[] = (() => {
  const out: number[] = [];
  let sum = 0;
  for (let r = 1; r <= VOCAB; r++) out.push((sum += 1 / r ** 1.07));
  return out.map((x) => x / sum);
})();
function zipfWord(): string {
  const u = rand();
  let lo = 0;
  let hi = VOCAB - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((cdf[mid] as number) < u) lo = mid + 1;
    else hi = mid;
  }
  return words[lo] as string;
}

function makeContent(i: number): string {
  const parts: string[] = [`# Report ${i}\n\n`];
  let n = parts[0]!.length;
  let sentence = 0;
  while (n < RESULT_CHARS) {
    const w = zipfWord();
    const sep = ++sentence % 14 === 0 ? '.\n' : ' ';
    parts.push(w + sep);
    n += w.length + 1;
  }
  return parts.join('');
}

const ms = (ns: bigint): number => Number(ns) / 1e6;
const pct = (xs: number[], p: number): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] as number;
};
const f1 = (x: number): string => x.toFixed(1);
const f2 = (x: number): string => x.toFixed(2);

function newJob(store: Store, id: string): void {
  const targets = Array.from({ length: TARGETS }, (_, i) => ({ url: `https://reports.example/${id}/${i}` }));
  store.insertJob({ id, caller: 'bench', callerClass: 'bench/batch', idemKey: id, targetsTotal: TARGETS, nowMs: 1, leaseExpires: 9e15 }, targets);
  store.transition(id, 'queued', 'running', '', 1);
}

/** Writes targets [from, to) as the runner does; returns the nanoseconds spent in the store. */
function writeBlock(store: Store, id: string, docs: string[], from: number, to: number): bigint {
  let spent = 0n;
  for (let i = from; i < to; i++) {
    const content = docs[i - from] as string;
    const title = `Report ${i}: ${content.slice(content.indexOf('\n\n') + 2, content.indexOf('\n\n') + 40).trim()}`;
    const t0 = process.hrtime.bigint();
    store.startTarget(id, i, 2);
    store.finishTarget(id, i, { status: 'done', result: { content, meta: { title } }, error: '', hint: '', bytes: content.length, title, errorStatus: 0 }, 3, 9e15);
    spent += process.hrtime.bigint() - t0;
  }
  return spent;
}

/**
 * What FTS5's tokenizer and postings alone cost per result: the same kind of texts into an
 * in-memory FTS5 table of the same columns and tokenizer, all in one transaction, so no page
 * reaches a file, nothing commits and no per-target segment is written or merged. Also the JS
 * fold (foldForIndex).
 */
function tokenizerFloor(): { tokenize: number; fold: number } {
  const n = 500;
  const docs = Array.from({ length: n }, (_, i) => makeContent(TARGETS + i));
  const db = new Database(':memory:');
  db.exec("CREATE VIRTUAL TABLE f USING fts5(title, url, body, job, content = '', contentless_delete = 1, tokenize = 'unicode61 remove_diacritics 2')");
  const insert = db.prepare<[number, string, string, string, string]>('INSERT INTO f (rowid, title, url, body, job) VALUES (?, ?, ?, ?, ?)');
  const t0 = process.hrtime.bigint();
  db.transaction(() => docs.forEach((d, i) => insert.run(i + 1, `Report ${i}`, `https://reports.example/bench/${i}`, d, 'bench')))();
  const tokenize = ms(process.hrtime.bigint() - t0) / n;
  db.close();
  const t1 = process.hrtime.bigint();
  for (const d of docs) foldForIndex(d);
  return { tokenize, fold: ms(process.hrtime.bigint() - t1) / n };
}

export default async function main(): Promise<void> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'sift-bench-search-'));
  const withPath = path.join(dir, 'with-index.db');
  const withoutPath = path.join(dir, 'without-index.db');
  const started = Date.now();
  try {
    // ---- writes ----
    let withStore = openStore(withPath);
    const withoutStore = openStore(withoutPath, { searchIndex: false });
    newJob(withStore, 'bench');
    newJob(withoutStore, 'bench');
    let tWith = 0n;
    let tWithout = 0n;
    let resultBytes = 0;
    // Three queries of each kind come from a stored result, so every one of them has a hit.
    const picked: { one: string[]; three: string[]; phrase: string[] } = { one: [], three: [], phrase: [] };
    for (let from = 0; from < TARGETS; from += BLOCK) {
      const to = Math.min(TARGETS, from + BLOCK);
      const docs = Array.from({ length: to - from }, (_, k) => makeContent(from + k));
      for (const d of docs) {
        resultBytes += Buffer.byteLength(d);
        if (picked.one.length < QUERIES && rand() < (QUERIES * 1.5) / TARGETS) {
          const ws = d.split(/[\s.#]+/).filter((w) => /^[a-z]+$/.test(w));
          const at = Math.floor(rand() * (ws.length - 3));
          picked.one.push(ws[at] as string);
          picked.three.push([ws[at], ws[Math.floor(rand() * ws.length)], ws[Math.floor(rand() * ws.length)]].join(' '));
          picked.phrase.push(`"${ws.slice(at, at + 3).join(' ')}"`);
        }
      }
      // Alternate which store goes first, so neither always writes to a warmer cache.
      if ((from / BLOCK) % 2 === 0) {
        tWith += writeBlock(withStore, 'bench', docs, from, to);
        tWithout += writeBlock(withoutStore, 'bench', docs, from, to);
      } else {
        tWithout += writeBlock(withoutStore, 'bench', docs, from, to);
        tWith += writeBlock(withStore, 'bench', docs, from, to);
      }
    }
    withStore.close();
    withoutStore.close();
    const perSecWith = TARGETS / (ms(tWith) / 1000);
    const perSecWithout = TARGETS / (ms(tWithout) / 1000);
    console.log(`${TARGETS} results, ${f1(resultBytes / 1024 / 1024)} MiB of content (${f1(resultBytes / TARGETS / 1024)} KiB each)`);
    console.log(`store writes   without index ${f1(perSecWithout)}/s   with index ${f1(perSecWith)}/s   ratio ${f2(perSecWith / perSecWithout)} (aim >= 0.80)`);
    const floor = tokenizerFloor();
    const msWithout = ms(tWithout) / TARGETS;
    const msWith = ms(tWith) / TARGETS;
    console.log(
      `  per result: without index ${f2(msWithout)} ms, with ${f2(msWith)} ms; of the index's ${f2(msWith - msWithout)} ms, FTS5 indexing the text in memory ` +
        `(tokenizer and postings, one transaction, no file) takes ${f2(floor.tokenize)} ms and the JS fold ${f2(floor.fold * 1000)} µs, ` +
        `so even if writing, committing and merging the index cost nothing the ratio could be at most ${f2(msWithout / (msWithout + floor.tokenize))}`,
    );

    // ---- size ----
    const raw = new Database(withPath);
    const size = (where: string): number => (raw.prepare(`SELECT coalesce(sum(pgsize), 0) AS b FROM dbstat WHERE ${where}`).get() as { b: number }).b;
    const indexBytes = size("name LIKE 'search_fts%' OR name = 'search_docs' OR name LIKE 'sqlite_autoindex_search_docs%'");
    const targetsBytes = size("name = 'targets' OR name LIKE 'sqlite_autoindex_targets%'");
    console.log(
      `index size     ${f1(indexBytes / 1024 / 1024)} MiB = ${f2(indexBytes / resultBytes)} of the results' content (targets table: ${f1(targetsBytes / 1024 / 1024)} MiB)`,
    );

    // ---- LIKE baseline ----
    const like = raw.prepare<[string], { job_id: string; idx: number }>("SELECT job_id, idx FROM targets WHERE status = 'done' AND result LIKE ?");
    const like3 = raw.prepare<[string, string, string], { job_id: string; idx: number }>(
      "SELECT job_id, idx FROM targets WHERE status = 'done' AND result LIKE ? AND result LIKE ? AND result LIKE ?",
    );
    const likeTimes = { one: [] as number[], three: [] as number[], phrase: [] as number[] };
    for (let i = 0; i < LIKE_QUERIES; i++) {
      let t0 = process.hrtime.bigint();
      like.all(`%${picked.one[i]}%`);
      likeTimes.one.push(ms(process.hrtime.bigint() - t0));
      const [a, b, c] = (picked.three[i] as string).split(' ') as [string, string, string];
      t0 = process.hrtime.bigint();
      like3.all(`%${a}%`, `%${b}%`, `%${c}%`);
      likeTimes.three.push(ms(process.hrtime.bigint() - t0));
      t0 = process.hrtime.bigint();
      like.all(`%${(picked.phrase[i] as string).slice(1, -1)}%`);
      likeTimes.phrase.push(ms(process.hrtime.bigint() - t0));
    }
    // How many results each query matches, and what merely counting them costs: FTS5 ranks
    // every matching row by BM25 before it can keep the best 20.
    const countStmt = raw.prepare<[string], { n: number }>('SELECT count(*) AS n FROM search_fts WHERE search_fts MATCH ?');
    const matched = { one: [] as number[], three: [] as number[], phrase: [] as number[] };
    const countTimes = { one: [] as number[], three: [] as number[], phrase: [] as number[] };
    for (const kind of ['one', 'three', 'phrase'] as const) {
      for (const q of picked[kind]) {
        const match = parseQuery(q)?.match ?? '';
        const t0 = process.hrtime.bigint();
        matched[kind].push(countStmt.get(match)?.n ?? 0);
        countTimes[kind].push(ms(process.hrtime.bigint() - t0));
      }
    }
    raw.close();

    // ---- FTS queries through searchStore ----
    withStore = openStore(withPath);
    const ftsTimes = { one: [] as number[], three: [] as number[], phrase: [] as number[] };
    // The FTS5 query alone (BM25 over every matching row, top 20), without reading results
    // or cutting snippets, to show where searchStore's time goes.
    const rawTimes = { one: [] as number[], three: [] as number[], phrase: [] as number[] };
    let firstIsSource = 0;
    // Warm-up: the first query pays for reading the index's pages from disk.
    searchStore(withStore, picked.one[0] as string, { limit: 20 });
    for (const kind of ['one', 'three', 'phrase'] as const) {
      for (const q of picked[kind]) {
        const t0 = process.hrtime.bigint();
        const { hits } = searchStore(withStore, q, { limit: 20 });
        ftsTimes[kind].push(ms(process.hrtime.bigint() - t0));
        const match = parseQuery(q)?.match ?? '';
        const t1 = process.hrtime.bigint();
        withStore.searchResults(match, undefined, 20);
        rawTimes[kind].push(ms(process.hrtime.bigint() - t1));
        if (kind === 'phrase' && hits.length > 0) firstIsSource++;
      }
    }
    withStore.close();
    for (const [kind, label] of [
      ['one', 'one word  '],
      ['three', 'three words'],
      ['phrase', 'phrase    '],
    ] as const) {
      const f = ftsTimes[kind];
      const l = likeTimes[kind];
      console.log(
        `query ${label}  search median ${f2(pct(f, 50))} ms  p99 ${f2(pct(f, 99))} ms (aim < 50; FTS5 alone median ${f2(pct(rawTimes[kind], 50))} p99 ${f2(pct(rawTimes[kind], 99))})   LIKE scan median ${f1(pct(l, 50))} ms   speed-up ${f1(pct(l, 50) / pct(f, 50))}x`,
      );
      // The slowest 5% (p95 and up): how many results they match, and counting vs ranking them.
      const slow = f
        .map((t, i) => ({ t, i }))
        .sort((a, b) => b.t - a.t)
        .slice(0, Math.max(1, Math.ceil(f.length / 20)))
        .map((x) => x.i);
      const mean = (xs: number[]): number => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);
      const pick = (xs: number[]): number[] => slow.map((i) => xs[i] as number);
      console.log(
        `  slowest 5%: match ${f1(mean(pick(matched[kind])))} of ${TARGETS} results on average (all queries: median ${pct(matched[kind], 50)}); ` +
          `counting their matches ${f1(mean(pick(countTimes[kind])))} ms, FTS5 ranking them (BM25 over every match, top 20) ${f1(mean(pick(rawTimes[kind])))} ms`,
      );
    }
    console.log(`(${picked.one.length} queries of each kind through searchStore, top 20 with snippets; ${LIKE_QUERIES} LIKE scans of each kind; ${firstIsSource}/${picked.phrase.length} phrases found)`);
    console.log(`bench search took ${f1((Date.now() - started) / 1000)} s`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
