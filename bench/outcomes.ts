/**
 * `npm run bench -- outcomes`: precision and recall per class of classifyPage over real
 * captured pages nobody here wrote: the shared corpus (../shared/corpora/outcomes) plus the
 * pages test/fixtures/outcomes adds. The baseline, measured in the same run, is what Sift did
 * before: every page "ok". Acceptance (issue 12): recall ≥ 0.9 per class, at most 1 real
 * page misclassified.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { classifyPage } from '../src/main/fetch/classify';
import { extractArticle } from '../src/main/fetch/html';

interface Entry {
  file: string;
  class: string;
  source: string;
  status?: number;
  /** The address the page came from, where it says something (a sign-in page reached by a redirect); else https://example.org/. */
  url?: string;
}

const CLASSES = ['challenge', 'login', 'consent', 'soft404', 'needs_js', 'ok'] as const;

function corpus(dir: string): { dir: string; entries: Entry[] } | undefined {
  const manifest = path.join(dir, 'manifest.json');
  if (!existsSync(manifest)) return undefined;
  return { dir, entries: JSON.parse(readFileSync(manifest, 'utf8')) as Entry[] };
}

export default async function main(): Promise<void> {
  const root = path.resolve(__dirname, '..');
  const sets = [corpus(path.resolve(root, '../../shared/corpora/outcomes')) ?? corpus('/work/shared/corpora/outcomes'), corpus(path.join(root, 'test/fixtures/outcomes'))].filter(
    (s): s is NonNullable<typeof s> => s !== undefined,
  );
  const rows: { file: string; want: string; got: string; signal: string }[] = [];
  for (const set of sets) {
    for (const e of set.entries) {
      const html = readFileSync(path.join(set.dir, e.file), 'utf8');
      let text: string | undefined;
      try {
        text = extractArticle(html, 'https://example.org/').text;
      } catch {
        text = undefined;
      }
      const c = classifyPage({ html, status: e.status ?? 200, url: e.url ?? 'https://example.org/', text });
      rows.push({ file: e.file, want: e.class, got: c.reason ?? 'ok', signal: (c.signals ?? c.warnings).join(',') });
    }
  }
  const out = (s: string): boolean => process.stdout.write(`${s}\n`);
  out(`pages: ${rows.length} (${sets.map((s) => `${s.entries.length} in ${path.basename(path.dirname(s.dir))}/${path.basename(s.dir)}`).join(', ')})`);
  out('class       pages  precision  recall   | baseline (all ok): precision  recall');
  for (const k of CLASSES) {
    const n = rows.filter((r) => r.want === k).length;
    const tp = rows.filter((r) => r.want === k && r.got === k).length;
    const said = rows.filter((r) => r.got === k).length;
    const bTp = k === 'ok' ? n : 0;
    const bSaid = k === 'ok' ? rows.length : 0;
    const f = (x: number, d: number): string => (d === 0 ? '   -  ' : (x / d).toFixed(3).padStart(6));
    out(`${k.padEnd(10)} ${String(n).padStart(6)}  ${f(tp, said)}     ${f(tp, n)}   |                    ${f(bTp, bSaid)}   ${f(bTp, n)}`);
  }
  const realWrong = rows.filter((r) => r.want === 'ok' && r.got !== 'ok');
  out(`real (ok) pages misclassified: ${realWrong.length} (acceptance: at most 1)`);
  for (const r of rows.filter((x) => x.want !== x.got)) out(`  miss: ${r.file}: want ${r.want}, got ${r.got} ${r.signal}`);
  if (process.argv.includes('--all')) for (const r of rows) out(`  ${r.want.padEnd(9)} ${r.got.padEnd(9)} ${r.signal.padEnd(24)} ${r.file}`);
}

if (require.main === module) void main();
