import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { collect, startSift } from '../helpers/cli';
import { siftInProcess } from '../helpers/cli-main';
import { until } from '../helpers/store';
import { ARTICLE, startRenderSites, type RenderSites } from '../helpers/render-sites';

/**
 * The user's path: `sift fetch --render` and `sift batch` with render options, through the
 * CLI's own wiring (settings, engine, batch runner, fetcher, the guarding proxy, Chromium).
 * --allow-host lets the fixtures' origin through; 127.0.0.2 stays forbidden.
 */
let sites: RenderSites;
const dir = mkdtempSync(path.join(tmpdir(), 'sift-cli-render-'));

const sift = siftInProcess(dir, { HOME: dir, SIFT_HOME: dir });

const hasArticle = (content: string): boolean => ARTICLE.paragraphs.every((p) => content.includes(p));
type Line = { url: string; ok: boolean; content?: string; meta?: Record<string, unknown>; status?: number; error?: string; reason?: string };

beforeAll(async () => {
  sites = await startRenderSites();
});
afterAll(() => sites.close());

describe('sift fetch --render', () => {
  it('renders an app shell with --render always and says meta.rendered', async () => {
    const r = await sift('fetch', `${sites.allowed.origin}/fetch.html`, '--render', 'always', '--allow-host', '127.0.0.1', '--mode', 'text', '--json');
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    const line = JSON.parse(r.out) as Line;
    expect(line.meta).toMatchObject({ rendered: true });
    expect(hasArticle(line.content ?? '')).toBe(true);
  }, 90_000);
  it('with --render never an app shell is an honest needs_js, with a hint to render it', async () => {
    const r = await sift('fetch', `${sites.allowed.origin}/fetch.html`, '--render', 'never', '--allow-host', '127.0.0.1', '--json');
    expect(JSON.parse(r.out) as Line).toMatchObject({ ok: false, status: 422, reason: 'needs_js' });
  });
  it('refuses a bad --render value and an --allow-host with a port (exit 2)', async () => {
    const bad = await sift('fetch', `${sites.allowed.origin}/x`, '--render', 'sometimes');
    expect(bad.code).toBe(2);
    expect(bad.err).toMatch(/unknown render "sometimes": use one of auto, always, never/);
    const port = await sift('fetch', `${sites.allowed.origin}/x`, '--allow-host', '127.0.0.1:8080');
    expect(port.code).toBe(2);
    expect(port.err).toMatch(/give the host alone/);
  });
  it('--allow-host lets one host through, not the other loopback address', async () => {
    const r = await sift('fetch', `${sites.forbidden.origin}/`, '--allow-host', '127.0.0.1', '--json');
    expect(JSON.parse(r.out) as Line).toMatchObject({ ok: false, status: 403, error: 'blocked' });
    expect(sites.forbidden.connections).toBe(0);
  }, 180_000);
});

describe('sift batch with render options', () => {
  it('renders what needs it, per line and list-wide, and no channel reaches the forbidden host', async () => {
    const o = sites.allowed.origin;
    const list = [`${o}/inline.html`, `${o}/module.html render=always`, `${o}/static.html`, `${o}/next.html render=never`, `${o}/ssrf.html`, `${o}/busy.html`].join('\n');
    writeFileSync(path.join(dir, 'list.txt'), `${list}\n`);
    // The app's saved settings apply to the CLI: a 5 s render budget keeps the busy loop short.
    writeFileSync(path.join(dir, 'settings.json'), JSON.stringify({ renderBudgetSeconds: 5 }));
    const r = await sift('batch', 'list.txt', '--allow-host', '127.0.0.1', '--mode', 'text', '--json', '--db', path.join(dir, 'sift.db'));
    expect(r.err).toMatch(/^job [0-9a-f-]+\n/);
    expect(r.code).toBe(1);
    const lines = r.out.trim().split('\n').map((l) => JSON.parse(l) as Line);
    expect(lines.map((l) => [l.ok, l.meta?.rendered])).toEqual([
      [true, true],
      [true, true],
      [true, false],
      [false, undefined],
      [true, true],
      [false, undefined],
    ]);
    for (const i of [0, 1, 2, 4]) expect(hasArticle(lines[i]?.content ?? ''), `line ${i + 1}`).toBe(true);
    // render=never leaves the shell unrendered: not the page, so not ok (SPEC §5.9).
    expect(lines[3]).toMatchObject({ ok: false, reason: 'needs_js' });
    // The busy loop ran into the render budget: a timeout, not a hang.
    expect(lines[5]).toMatchObject({ ok: false, status: 504 });
    expect(sites.forbidden.connections).toBe(0);
  }, 180_000);
});

describe('an app whose scripts the guard refused', () => {
  it('fails as needs_js naming the refused host and --allow-host, stored so, not ok and thin', async () => {
    // Its header says something (so it is no empty shell), and its app's bundle is on
    // 127.0.0.2: it rendered as it was sent, and was stored "ok, thin page".
    const home = path.join(dir, 'refused-bundle');
    mkdirSync(home, { recursive: true });
    const run = siftInProcess(home, { HOME: home, SIFT_HOME: home });
    writeFileSync(path.join(home, 'list.txt'), `${sites.allowed.origin}/refused-bundle.html\n`);
    const db = path.join(home, 'sift.db');
    const r = await run('batch', 'list.txt', '--allow-host', '127.0.0.1', '--mode', 'text', '--json', '--db', db);
    expect(r.code).toBe(1);
    const line = JSON.parse(r.out) as Line & { hint: string };
    expect(line).toMatchObject({ ok: false, status: 422, reason: 'needs_js' });
    expect(line.error).toMatch(/scripts .*address Sift does not fetch/);
    expect(line.hint).toMatch(/^Sift's guard refused 1 request the page made, to 127\.0\.0\.2: a loopback address \(this computer\)\./);
    expect(line.hint).toContain('--allow-host HOST');
    expect(r.err).not.toMatch(/thin page/);
    const id = /^job ([0-9a-f]+)/.exec(r.err)?.[1] ?? '';
    const status = await run('status', id, '--json', '--db', db);
    expect(JSON.parse(status.out.trim().split('\n')[1] ?? '{}')).toMatchObject({ status: 'failed', reason: 'needs_js', hint: line.hint });
    expect(sites.forbidden.connections).toBe(0);
  }, 120_000);
});

describe('a browser path that names a program which is not a browser', () => {
  it('says rendering is unavailable and how to point Sift at a browser, not that the page failed to load', async () => {
    // /usr/bin/false is executable, so it is found and launched; it exits at once.
    const home = path.join(dir, 'not-a-browser');
    mkdirSync(home, { recursive: true });
    writeFileSync(path.join(home, 'settings.json'), JSON.stringify({ chromiumPath: '/usr/bin/false' }));
    const r = await siftInProcess(home, { HOME: home, SIFT_HOME: home })('fetch', `${sites.allowed.origin}/static.html`, '--render', 'always', '--allow-host', '127.0.0.1', '--json');
    expect(r.code).toBe(1);
    expect(JSON.parse(r.out) as Line).toMatchObject({ ok: false, status: 422, error: 'rendering unavailable: /usr/bin/false did not start as a browser', reason: 'bad_option' });
    expect((JSON.parse(r.out) as { hint: string }).hint).toMatch(/^Install Chromium or Google Chrome, or point Sift at one/);
  });
});

describe('a thin page with scripts and no browser to run them', () => {
  it('says it was not rendered and how to get a browser, not only that the page is thin', async () => {
    const home = path.join(dir, 'no-browser');
    mkdirSync(home, { recursive: true });
    writeFileSync(path.join(home, 'settings.json'), JSON.stringify({ chromiumPath: path.join(home, 'no-such-chrome') }));
    const run = siftInProcess(home, { HOME: home, SIFT_HOME: home });
    const url = `${sites.allowed.origin}/thin-scripts.html`;
    const r = await run('fetch', url, '--allow-host', '127.0.0.1', '--mode', 'text');
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/Our plans start at 5 dollars a month/);
    expect(r.err).toMatch(/not rendered: .*no browser to run them.*Install Chromium or Google Chrome/);
    expect(r.err).not.toMatch(/thin page/);
    const line = JSON.parse((await run('fetch', url, '--allow-host', '127.0.0.1', '--mode', 'text', '--json')).out) as Line;
    expect(line).toMatchObject({ ok: true, meta: { rendered: false, warnings: ['not_rendered'] } });
    expect(line.meta?.render_skipped).toMatch(/names no executable browser/);
  });
});

/** The processes under pid (Linux /proc): pid → its parent, read once. */
function descendants(pid: number): number[] {
  const parent = new Map<number, number>();
  for (const d of readdirSync('/proc').filter((n) => /^\d+$/.test(n))) {
    try {
      parent.set(Number(d), parentOf(Number(d)));
    } catch {
      /* gone meanwhile */
    }
  }
  const under = (p: number): boolean => p === pid || (p > 1 && parent.has(p) && under(parent.get(p)!));
  return [...parent.keys()].filter((p) => p !== pid && under(p));
}
function parentOf(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
}
/** Running or sleeping: not gone, and not a zombie waiting for its parent. */
function alive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return false;
  }
}

describe('Ctrl-C while a page renders', () => {
  it('exits 130 and leaves no browser process behind, though the page keeps its tab busy', async () => {
    const home = path.join(dir, 'ctrl-c');
    mkdirSync(home, { recursive: true });
    const seen = sites.allowed.hits.length;
    const child = startSift(['fetch', `${sites.allowed.origin}/busy.html`, '--render', 'always', '--allow-host', '127.0.0.1', '--json'], { env: { HOME: home, SIFT_HOME: home } });
    child.stdin!.end();
    const done = collect(child);
    // Only the browser asks for the page's script (the static fetch reads the HTML alone).
    await until(() => sites.allowed.hits.slice(seen).includes('/busy.js'), 120_000);
    const tree = descendants(child.pid!);
    const browser = tree.filter((p) => parentOf(p) === child.pid && /chrom/i.test(readFileSync(`/proc/${p}/comm`, 'utf8')));
    expect(browser).toHaveLength(1);
    child.kill('SIGINT');
    const run = await done;
    expect(run.code, run.stderr).toBe(130);
    // The browser is closed before sift exits; the rest of its tree (zygotes, the page's renderer) follows it out.
    expect(alive(browser[0]!)).toBe(false);
    await until(() => !tree.some(alive), 30_000);
  }, 180_000);
});
