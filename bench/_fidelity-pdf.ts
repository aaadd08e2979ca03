/**
 * The PDF half of `npm run bench -- fidelity`: for every PDF in the shared corpus and in
 * bench/fixtures/pdfs, the agreement of Sift's text (the real pipeline, mode text) with
 * poppler's pdftotext on the same file, as 4-token shingle F1 after the same normalisation
 * of both sides, and ms per page of each, measured in the same run.
 *
 * Normalisation: NFKC, bidi marks dropped, lower case, CJK characters one token each; and
 * furniture (lines repeated at the page edges or on most pages: running heads, page
 * numbers, printer marks) dropped from pdftotext's pages, and words broken at a column's or
 * a page's end joined, by the same rules as in Sift's text mode. "F1 raw" compares with
 * pdftotext's text as it is.
 */
import { execFile } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { createFetcher } from '../src/main/fetch';
import { dehyphenateBreaks, dropFurniture, vocabulary } from '../src/main/fetch/pdf-text';

const CORPUS = path.resolve(__dirname, '../../../shared/corpora/pdfs');
const SHARED = existsSync(CORPUS) ? CORPUS : '/work/shared/corpora/pdfs';
const ADDED = path.join(__dirname, 'fixtures/pdfs');

// Bidi controls (pdftotext wraps RTL runs in U+202B…U+202C) carry no text.
const BIDI_MARKS = /[\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;
// A CJK ideograph or kana is a word of its own: those scripts do not separate words, and a
// line break in the middle of a run must not make two different "words" on the two sides.
const TOKEN = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]|[\p{L}\p{M}\p{Nd}\p{No}\p{Nl}_]+/gu;

/**
 * pdftotext's pages as Sift's text mode reads the same layout: furniture dropped, and a word
 * broken at the end of a column or a page joined with its second half, which pdftotext leaves
 * apart ("al-" at the foot of a page, "lowed" on the next): each such word differed in up to
 * seven shingles, 0.001 of a book's or a two-column paper's F1, for a difference of hyphens.
 */
function readableReference(refPages: string[]): string {
  const { pages } = dropFurniture(refPages);
  return dehyphenateBreaks(
    pages,
    pages.map((_p, i) => i + 1),
    vocabulary(pages),
  ).pages.join('\n\n');
}

/** The normalisation both sides get: NFKC (presentation forms, ligatures), no bidi marks, lower case. */
export function tokens(text: string): string[] {
  return text.normalize('NFKC').replace(BIDI_MARKS, '').toLowerCase().match(TOKEN) ?? [];
}

function shingles(tok: string[], n = 4): Map<string, number> {
  const m = new Map<string, number>();
  for (let i = 0; i < Math.max(1, tok.length - n + 1); i++) {
    const s = tok.slice(i, i + n);
    if (!s.length) continue;
    const k = s.join('\u0001');
    m.set(k, (m.get(k) ?? 0) + 1);
  }
  return m;
}

/** 4-token shingle precision, recall and F1 of `ours` against `ref` (multiset overlap). */
export function shingleF1(ours: string, ref: string): { p: number; r: number; f1: number } {
  const a = shingles(tokens(ref));
  const b = shingles(tokens(ours));
  let tp = 0;
  let fp = 0;
  let fn = 0;
  for (const k of new Set([...a.keys(), ...b.keys()])) {
    const x = a.get(k) ?? 0;
    const y = b.get(k) ?? 0;
    tp += Math.min(x, y);
    fp += Math.max(0, y - x);
    fn += Math.max(0, x - y);
  }
  if (fp === 0 && fn === 0) return { p: 1, r: 1, f1: 1 };
  const p = tp + fp ? tp / (tp + fp) : 0;
  const r = tp + fn ? tp / (tp + fn) : 0;
  return { p, r, f1: p + r ? (2 * p * r) / (p + r) : 0 };
}

const run = promisify(execFile);

async function pdftotext(file: string): Promise<{ text: string; ms: number } | { error: string }> {
  const t = process.hrtime.bigint();
  try {
    const { stdout } = await run('pdftotext', ['-enc', 'UTF-8', file, '-'], { maxBuffer: 256 * 1024 * 1024 });
    return { text: stdout, ms: Number(process.hrtime.bigint() - t) / 1e6 };
  } catch (err) {
    return { error: String((err as Error).message).split('\n')[0] ?? 'failed' };
  }
}

function pdfsIn(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => f.toLowerCase().endsWith('.pdf'))
    .sort()
    .map((f) => path.join(dir, f));
}

const pad = (s: string, n: number): string => (s.length >= n ? s.slice(0, n) : s + ' '.repeat(n - s.length));

export async function runPdfFidelity(): Promise<void> {
  try {
    await run('pdftotext', ['-v']);
  } catch {
    process.stdout.write('pdf fidelity: pdftotext not installed (apt-get install -y poppler-utils); skipped\n');
    return;
  }
  const files = [...pdfsIn(SHARED), ...pdfsIn(ADDED)];
  const fetcher = createFetcher({ maxPdfPages: 2000 });
  // Warm the pool's workers so module loading is not counted against the first file.
  await fetcher.extractBuffer(readFileSync(files[0] as string), 'application/pdf', { mode: 'text' }).catch(() => undefined);
  process.stdout.write(`pdf fidelity vs pdftotext (4-token shingle F1 after NFKC, bidi marks dropped, lower case):\n`);
  process.stdout.write(`  ${pad('file', 44)} ${pad('pages', 5)}  F1     P      R      F1 raw  sift ms/p  pdftotext ms/p\n`);
  const f1s: number[] = [];
  for (const file of files) {
    const name = path.relative(path.dirname(SHARED), file).startsWith('..') ? path.relative(path.join(__dirname, '..'), file) : path.basename(file);
    const buf = readFileSync(file);
    const ref = await pdftotext(file);
    const t = process.hrtime.bigint();
    let ours: { content: string; meta?: Record<string, unknown> } | undefined;
    let err = '';
    try {
      ours = await fetcher.extractBuffer(buf, 'application/pdf', { mode: 'text' });
    } catch (e) {
      err = (e as Error).message;
    }
    const ms = Number(process.hrtime.bigint() - t) / 1e6;
    if ('error' in ref) {
      process.stdout.write(`  ${pad(name, 44)} pdftotext fails (${ref.error.slice(0, 60)}); sift: ${ours ? `${ours.content.length} chars` : `error "${err.slice(0, 60)}"`}\n`);
      continue;
    }
    const pages = ref.text.split('\f').length - (ref.text.endsWith('\f') ? 1 : 0);
    if (!ours) {
      process.stdout.write(`  ${pad(name, 44)} ${pad(String(pages), 5)}  sift fails: ${err.slice(0, 80)}\n`);
      f1s.push(0);
      continue;
    }
    const refPages = ref.text.split('\f');
    const s = shingleF1(ours.content, readableReference(refPages));
    const raw = shingleF1(ours.content, ref.text);
    f1s.push(s.f1);
    const pdfMeta = (ours.meta?.pdf ?? {}) as Record<string, unknown>;
    const done = Object.entries(pdfMeta)
      .filter(([, v]) => v !== 0 && v !== false)
      .map(([k, v]) => `${k}=${String(v)}`)
      .join(' ');
    process.stdout.write(
      `  ${pad(name, 44)} ${pad(String(pages), 5)}  ${s.f1.toFixed(3)}  ${s.p.toFixed(3)}  ${s.r.toFixed(3)}  ${raw.f1.toFixed(3)}   ${pad((ms / pages).toFixed(1), 9)}  ${(ref.ms / pages).toFixed(1)}${done ? `   [${done}]` : ''}\n`,
    );
  }
  await fetcher.close();
  if (f1s.length) process.stdout.write(`  min F1 ${Math.min(...f1s).toFixed(3)} over ${f1s.length} PDFs with a pdftotext reference\n`);
}
