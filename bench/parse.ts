/**
 * `npm run bench -- parse`: parseList over a 200,000-line list (the default line cap), which
 * must take under 2 s (issue 5), against a baseline measured in the same run: split('\n')
 * and new URL() per line, the least any list reader has to do.
 */
import { formatOptionsLine, parseList } from '../src/shared/urllist';

const LINES = 200_000;
const RUNS = 5;

function plainList(): string {
  const out: string[] = [];
  for (let i = 0; i < LINES; i++) out.push(`https://example${i % 997}.org/path/${i}/article?ref=list&n=${i}`);
  return out.join('\n');
}

// What a real list mixes in: options, comments, blank lines, duplicates and bad lines.
function mixedList(): string {
  const out: string[] = [];
  for (let i = 0; i < LINES; i++) {
    const k = i % 20;
    if (k === 0) out.push('# section');
    else if (k === 1) out.push('');
    else if (k === 2) out.push(formatOptionsLine({ url: `https://example.org/r${i}.pdf`, options: { pages: '1-5', grep: 'net revenue', context: true } }));
    else if (k === 3) out.push(`https://api.example.org/items${i}.json jq='.items[] | .name'`);
    else if (k === 4) out.push(`https://example.org/path/${i - 10}/article`);
    else if (k === 5) out.push(`ftp://files.example.org/${i}`);
    else out.push(`https://example.org/path/${i}/article`);
  }
  return out.join('\n');
}

function baseline(input: string): number {
  let ok = 0;
  for (const line of input.split('\n')) {
    try {
      new URL(line);
      ok++;
    } catch {}
  }
  return ok;
}

function best(fn: () => unknown): number {
  let min = Infinity;
  for (let i = 0; i < RUNS; i++) {
    const t0 = performance.now();
    fn();
    min = Math.min(min, performance.now() - t0);
  }
  return min;
}

function fmtList(name: string, input: string): void {
  const html = `<!DOCTYPE NETSCAPE-Bookmark-file-1>\n<DL><p>\n${input
    .split('\n')
    .map((l) => `<DT><A HREF="${l.split(' ')[0]?.replace(/&/g, '&amp;')}" ADD_DATE="1700000000">t</A>`)
    .join('\n')}\n</DL>`;
  const json = JSON.stringify(input.split('\n').map((l) => l.split(' ')[0]), null, 1);
  const csv = `title,url\n${input.split('\n').map((l, i) => `"row ${i}, quoted",${l.split(' ')[0]}`).join('\n')}`;
  // A sitemap: each URL in its <url><loc>, with the lastmod most carry.
  const xml = `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${input
    .split('\n')
    .map((l) => `<url><loc>${l.split(' ')[0]?.replace(/&/g, '&amp;')}</loc><lastmod>2024-05-01</lastmod></url>`)
    .join('\n')}\n</urlset>`;
  const base = best(() => baseline(input));
  process.stdout.write(`${name}: ${LINES.toLocaleString('en')} lines; baseline split+new URL ${base.toFixed(0)} ms\n`);
  for (const [fmt, text] of [['text', input], ['html', html], ['json', json], ['csv', csv], ['xml', xml]] as const) {
    let targets = 0;
    const ms = best(() => {
      const r = parseList(text, { format: fmt });
      targets = r.targets.length;
    });
    const verdict = ms < 2000 ? 'ok' : 'OVER the 2 s budget';
    process.stdout.write(
      `  ${fmt.padEnd(5)} ${ms.toFixed(0).padStart(5)} ms  ${(ms / base).toFixed(2)}× baseline  ${targets} targets  ${verdict}\n`,
    );
  }
}

export default async function (): Promise<void> {
  fmtList('plain list', plainList());
  fmtList('mixed list', mixedList());
}
