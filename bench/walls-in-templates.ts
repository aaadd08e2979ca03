/**
 * `npm run bench -- walls-in-templates [--class=login,consent] [--templates=10] [--beside] [--detail]`:
 * how often a stand-in put inside a real site's template is still judged ok. Every wall of the
 * outcome corpora (../shared/corpora/outcomes and test/fixtures/outcomes, the captures, not the
 * composed pages) has its <body> content put in place of the first <h1> of the article
 * benchmark's first pages by name (every <p> taken out, as a template is left around a stand-in),
 * and is judged under three titles: blank, the site's name (og:site_name, else the canonical
 * address's host) and the article's headline (its first h1). The 91 articles, whole, are judged
 * under the same three titles and must all stay ok. With --beside, each wall of the chosen
 * classes is also put after <body> and before </body> of every article, whole: a box beside an
 * article, which must stay ok too. Baseline: every page ok (a catch rate of 0). Each page goes
 * through extractArticle, then classifyPage, as bench/outcomes does.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { classifyPage } from '../src/main/fetch/classify';
import { extractArticle } from '../src/main/fetch/html';
import { parseHTML } from 'linkedom';
import { articlePages } from './_corpus';

interface Entry {
  file: string;
  class: string;
  source: string;
}

const WALLS = ['challenge', 'login', 'consent', 'soft404'];
const TITLES = ['blank', 'site', 'headline'] as const;
type TitleKind = (typeof TITLES)[number];

function walls(root: string, classes: string[]): { file: string; cls: string; html: string }[] {
  const dirs = [path.resolve(root, '../../shared/corpora/outcomes'), '/work/shared/corpora/outcomes', path.join(root, 'test/fixtures/outcomes')];
  const seen = new Set<string>();
  const out: { file: string; cls: string; html: string }[] = [];
  for (const dir of dirs) {
    let entries: Entry[];
    try {
      entries = JSON.parse(readFileSync(path.join(dir, 'manifest.json'), 'utf8')) as Entry[];
    } catch {
      continue;
    }
    if (seen.has(entries.map((e) => e.file).join())) continue;
    seen.add(entries.map((e) => e.file).join());
    for (const e of entries) if (classes.includes(e.class) && !e.source.startsWith('composed')) out.push({ file: e.file, cls: e.class, html: readFileSync(path.join(dir, e.file), 'utf8') });
  }
  return out;
}

const bodyOf = (h: string): string => /<body[^>]*>([\s\S]*)<\/body>/i.exec(h)?.[1] ?? h.replace(/<head[\s\S]*?<\/head>/i, '').replace(/<!doctype[^>]*>/i, '').replace(/<\/?html[^>]*>/gi, '');
const titleOf = (h: string): string => /<title[^>]*>([^<]*)<\/title>/i.exec(h)?.[1] ?? '';
const siteName = (h: string): string =>
  /<meta[^>]+property="og:site_name"[^>]+content="([^"]*)"/i.exec(h)?.[1] ?? /https?:\/\/(?:www\.)?([^/"]+)/.exec(/<link[^>]+rel="canonical"[^>]+href="([^"]+)"/i.exec(h)?.[1] ?? '')?.[1] ?? 'News';
const headline = (h: string): string => (/<h1[^>]*>([\s\S]*?)<\/h1>/i.exec(h)?.[1] ?? titleOf(h)).replace(/<[^>]+>/g, '').trim() || titleOf(h);
const titled = (h: string, kind: TitleKind, from: string): string => {
  const t = kind === 'blank' ? '' : kind === 'site' ? siteName(from) : headline(from);
  return /<title[^>]*>[^<]*<\/title>/i.test(h) ? h.replace(/<title[^>]*>[^<]*<\/title>/i, () => `<title>${t}</title>`) : h.replace(/<head[^>]*>/i, (m) => `${m}<title>${t}</title>`);
};

/**
 * The template around a stand-in: the article without its <p> elements, the wall's body where
 * its first <h1> was (or first in the body). Read as a browser reads it (linkedom): a regex
 * cut a <p> left open (HTML allows it) up to a later "</p>", the headline or a script's end
 * with it, and put the wall in a script in 2 of the 10 templates, where no reader sees it.
 */
function inTemplate(article: string, wall: string): string {
  const { document } = parseHTML(article);
  for (const p of [...document.querySelectorAll('p')]) p.remove();
  const h1 = document.querySelector('body h1');
  const box = document.createElement('div');
  box.innerHTML = bodyOf(wall);
  const parts = [...box.childNodes];
  if (h1) h1.replaceWith(...parts);
  else document.body.prepend(...parts);
  return document.toString();
}

function judge(html: string): { got: string; signal: string } {
  let text: string | undefined;
  try {
    text = extractArticle(html, 'https://example.org/').text;
  } catch {
    text = undefined;
  }
  const c = classifyPage({ html, status: 200, url: 'https://example.org/', text });
  return { got: c.reason ?? 'ok', signal: (c.signals ?? c.warnings).join(',') };
}

export default async function main(): Promise<void> {
  const arg = (name: string): string | undefined => process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
  const classes = arg('class')?.split(',') ?? WALLS;
  const detail = process.argv.includes('--detail');
  const root = path.resolve(__dirname, '..');
  const stands = walls(root, classes);
  const articles = articlePages();
  const templates = articles.slice(0, Number(arg('templates') ?? 10));
  const out = (s: string): boolean => process.stdout.write(`${s}\n`);
  out(`${stands.length} walls (${classes.map((k) => `${stands.filter((w) => w.cls === k).length} ${k}`).join(', ')}) in ${templates.length} templates, ${articles.length} articles; baseline (all ok): caught 0`);

  const rows: { cls: string; wall: string; template: string; title: TitleKind; got: string; signal: string }[] = [];
  for (const t of templates)
    for (const w of stands) {
      const page = inTemplate(t.html, w.html);
      for (const kind of TITLES) rows.push({ cls: w.cls, wall: w.file, template: t.id.slice(0, 10), title: kind, ...judge(titled(page, kind, t.html)) });
    }
  out('class      title     caught      ok  other');
  for (const k of classes)
    for (const kind of TITLES) {
      const r = rows.filter((x) => x.cls === k && x.title === kind);
      const caught = r.filter((x) => x.got === k).length;
      const ok = r.filter((x) => x.got === 'ok').length;
      out(`${k.padEnd(10)} ${kind.padEnd(9)} ${`${caught}/${r.length}`.padStart(7)} ${String(ok).padStart(7)} ${String(r.length - caught - ok).padStart(6)}`);
    }
  const okByWall = new Map<string, number>();
  for (const r of rows) if (r.got === 'ok') okByWall.set(`${r.cls} ${r.wall}`, (okByWall.get(`${r.cls} ${r.wall}`) ?? 0) + 1);
  out(`judged ok, by wall (of ${templates.length * TITLES.length} each):`);
  for (const [k, v] of [...okByWall].sort((a, b) => b[1] - a[1])) out(`  ${String(v).padStart(3)} ${k}`);

  let wrong = 0;
  for (const a of articles)
    for (const kind of TITLES) {
      const { got, signal } = judge(titled(a.html, kind, a.html));
      if (got !== 'ok') out(`  article not ok: ${a.id.slice(0, 10)} ${kind} ${got} ${signal}`);
      if (got !== 'ok') wrong++;
    }
  out(`articles judged a wall: ${wrong} of ${articles.length * TITLES.length} (91 articles x 3 titles; acceptance: 0)`);

  if (process.argv.includes('--beside')) {
    let beside = 0;
    let n = 0;
    for (const a of articles)
      for (const w of stands)
        for (const at of ['after <body>', 'before </body>']) {
          const html = at === 'after <body>' ? a.html.replace(/<body[^>]*>/i, (m) => m + bodyOf(w.html)) : a.html.replace(/<\/body>(?![\s\S]*<\/body>)/i, () => `${bodyOf(w.html)}</body>`);
          const { got, signal } = judge(html);
          n++;
          if (got !== 'ok') beside++;
          if (got !== 'ok' && detail) out(`  beside not ok: ${a.id.slice(0, 10)} ${w.file} ${at} ${got} ${signal}`);
        }
    out(`articles with a wall beside them judged a wall: ${beside} of ${n}`);
  }
  if (detail) for (const r of rows) out(`  ${r.cls.padEnd(9)} ${r.got.padEnd(9)} ${r.title.padEnd(8)} ${r.template} ${r.wall} ${r.signal}`);
}

if (require.main === module) void main();
