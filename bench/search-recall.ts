/**
 * `npm run bench -- search-recall`: does a phrase copied from a stored result find that result
 * first? The 91 pages of the article benchmark (../shared/corpora/article-extraction) are
 * extracted as a job extracts them (the fetcher's extractBuffer, mode markdown) and stored in
 * a temporary store through the store's own write path; then, for each page, what a user
 * would copy from it is searched as `sift search` searches it (searchStore):
 *
 * - fragment: 3 to 6 words from the middle of a line of its text, as written (commas, a
 *   sentence's period, curly quotes and all), pasted bare;
 * - quoted: the same fragment "in quotes";
 * - rare: its word (5 letters or more) the fewest other pages hold, as a double-click selects it;
 * - title: its title as stored;
 * - accent: 2 to 4 words around a word with an accented letter or an apostrophe, as written.
 *
 * Each kind's share of queries whose page is hit 1, in the first 3, and not among the 50
 * hits, against the baseline a store without an index offers: a LIKE scan of the typed text
 * over the same rows (title and content), found at "rank 1" only when it matches that page
 * alone (a LIKE scan has no order). SIFT_RECALL_MISSES=1 prints each query that missed rank 1.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { groundTruthPages } from './_corpus';
import { createFetcher } from '../src/main/fetch';
import { searchStore } from '../src/main/search';
import { openStore } from '../src/main/store';
import type { Result } from '../src/shared/types';
import { seeded } from './_seeded';

const KINDS = ['fragment', 'quoted', 'rare', 'title', 'accent'] as const;
type Kind = (typeof KINDS)[number];

const rand = seeded(20_261_207);
const pick = <T>(xs: readonly T[]): T | undefined => xs[Math.floor(rand() * xs.length)];

/** The lines of prose a reader would copy from: not a heading, link list, table, image or code. */
function proseLines(content: string): string[] {
  return content
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l.split(/\s+/).length >= 8 && !/^(#|\||!\[|```|>|\[)/.test(l) && !/\]\(/.test(l));
}

/** Letters of a word as a double-click selects it. */
const WORD = /[\p{L}\p{N}][\p{L}\p{N}\p{M}'’]*[\p{L}\p{N}\p{M}]|[\p{L}\p{N}]/gu;

interface Query {
  kind: Kind;
  idx: number;
  text: string;
}

function queriesOf(idx: number, title: string, content: string, df: Map<string, number>): Query[] {
  const out: Query[] = [];
  const lines = proseLines(content);
  // The middle half of the text's prose, as a reader who has read into it.
  const middle = lines.slice(Math.floor(lines.length / 4), Math.max(Math.floor(lines.length / 4) + 1, Math.ceil((3 * lines.length) / 4)));
  const line = pick(middle);
  if (line) {
    const words = line.split(/\s+/);
    const n = 3 + Math.floor(rand() * 4);
    const at = Math.floor(rand() * Math.max(1, words.length - n));
    const fragment = words.slice(at, at + n).join(' ');
    out.push({ kind: 'fragment', idx, text: fragment }, { kind: 'quoted', idx, text: `"${fragment}"` });
  }
  const own = [...new Set((content.match(WORD) ?? []).filter((w) => w.length >= 5 && /\p{L}/u.test(w)))];
  const fewest = Math.min(...own.map((w) => df.get(w.toLowerCase()) ?? 0));
  const rare = pick(own.filter((w) => (df.get(w.toLowerCase()) ?? 0) === fewest));
  if (rare) out.push({ kind: 'rare', idx, text: rare });
  if (title.trim()) out.push({ kind: 'title', idx, text: title });
  const marked = lines.flatMap((l) => {
    const words = l.split(/\s+/);
    return words.flatMap((w, i) => (/[^\p{ASCII}]/u.test(w.replace(/[^\p{L}'’]/gu, '')) || /\p{L}['’]\p{L}/u.test(w) ? [{ words, i }] : []));
  });
  const m = pick(marked);
  if (m) {
    const n = 2 + Math.floor(rand() * 3);
    const from = Math.max(0, Math.min(m.i - Math.floor(rand() * n), m.words.length - n));
    out.push({ kind: 'accent', idx, text: m.words.slice(from, from + n).join(' ') });
  }
  return out;
}

const share = (n: number, of: number): string => (of ? (n / of).toFixed(2) : '-');

export default async function main(): Promise<void> {
  const pages = groundTruthPages();
  if (typeof pages === 'string') {
    console.log(`skipped: ${pages}`);
    return;
  }
  const started = Date.now();
  const fetcher = createFetcher();
  const dir = mkdtempSync(path.join(os.tmpdir(), 'sift-bench-recall-'));
  try {
    const stored: { title: string; content: string }[] = [];
    for (const p of pages) {
      const r: Result = await fetcher.extractBuffer(Buffer.from(p.html), 'text/html; charset=utf-8', {}, { url: p.url });
      stored.push({ title: typeof r.meta?.title === 'string' ? r.meta.title : '', content: r.content });
    }
    const dbPath = path.join(dir, 'recall.db');
    const store = openStore(dbPath);
    const id = 'recall';
    store.insertJob({ id, caller: 'bench', callerClass: 'bench/batch', idemKey: id, targetsTotal: pages.length, nowMs: 1, leaseExpires: 9e15 }, pages.map((p) => ({ url: p.url })));
    store.transition(id, 'queued', 'running', '', 1);
    for (const [i, s] of stored.entries()) {
      store.startTarget(id, i, 2);
      store.finishTarget(id, i, { status: 'done', result: { content: s.content, meta: { title: s.title } }, error: '', hint: '', bytes: s.content.length, title: s.title, errorStatus: 0 }, 3, 9e15);
    }
    // Each word's document frequency, for the rare word.
    const df = new Map<string, number>();
    for (const s of stored) for (const w of new Set((s.content.match(WORD) ?? []).map((x) => x.toLowerCase()))) df.set(w, (df.get(w) ?? 0) + 1);
    const queries = stored.flatMap((s, i) => queriesOf(i, s.title, s.content, df));

    const tally = new Map<Kind, { n: number; first: number; top3: number; missed: number; errors: number; like: number; likeAny: number }>(
      KINDS.map((k) => [k, { n: 0, first: 0, top3: 0, missed: 0, errors: 0, like: 0, likeAny: 0 }]),
    );
    const misses: string[] = [];
    for (const q of queries) {
      const t = tally.get(q.kind)!;
      t.n++;
      let rank = 0;
      try {
        const { hits } = searchStore(store, q.text, { limit: 50 });
        rank = hits.findIndex((h) => h.jobId === id && h.idx === q.idx) + 1;
      } catch (err) {
        t.errors++;
        misses.push(`${q.kind} ${q.idx} error ${err instanceof Error ? err.message : String(err)}: ${q.text}`);
      }
      if (rank === 1) t.first++;
      if (rank >= 1 && rank <= 3) t.top3++;
      if (rank === 0) t.missed++;
      if (rank !== 1) misses.push(`${q.kind} page ${q.idx} rank ${rank || 'none'}: ${q.text}`);
    }
    store.close();
    // The store holds its file while open: the scan reads it after.
    const raw = new Database(dbPath, { readonly: true });
    const like = raw.prepare<[string], { idx: number }>(
      "SELECT idx FROM targets WHERE status = 'done' AND (title || ' ' || coalesce(json_extract(result, '$.content'), '')) LIKE ? ESCAPE '\\'",
    );
    for (const q of queries) {
      const t = tally.get(q.kind)!;
      const typed = q.kind === 'quoted' ? q.text.slice(1, -1) : q.text;
      const matches = like.all(`%${typed.replace(/[\\%_]/g, '\\$&')}%`).map((r) => r.idx);
      if (matches.includes(q.idx)) t.likeAny++;
      if (matches.length === 1 && matches[0] === q.idx) t.like++;
    }
    raw.close();
    console.log(`${pages.length} pages stored as a job stores them; ${queries.length} queries copied from them, through searchStore (limit 50)`);
    console.log('kind       queries  rank 1  rank <= 3  not found   LIKE scan: rank 1 (sole match)  found');
    for (const k of KINDS) {
      const t = tally.get(k)!;
      console.log(`${k.padEnd(10)} ${String(t.n).padStart(7)}  ${share(t.first, t.n).padStart(6)}  ${share(t.top3, t.n).padStart(9)}  ${share(t.missed, t.n).padStart(9)}   ${share(t.like, t.n).padStart(29)}  ${share(t.likeAny, t.n).padStart(5)}${t.errors ? `  (${t.errors} errors)` : ''}`);
    }
    const all = [...tally.values()].reduce((a, t) => ({ n: a.n + t.n, first: a.first + t.first, top3: a.top3 + t.top3, missed: a.missed + t.missed, like: a.like + t.like }), { n: 0, first: 0, top3: 0, missed: 0, like: 0 });
    console.log(`all        ${String(all.n).padStart(7)}  ${share(all.first, all.n).padStart(6)}  ${share(all.top3, all.n).padStart(9)}  ${share(all.missed, all.n).padStart(9)}   ${share(all.like, all.n).padStart(29)}`);
    if (process.env['SIFT_RECALL_MISSES']) for (const m of misses) console.log(`  ${m}`);
    console.log(`bench search-recall took ${((Date.now() - started) / 1000).toFixed(1)} s`);
  } finally {
    await fetcher.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
