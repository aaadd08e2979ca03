import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { siftInProcess } from '../helpers/cli-main';
import { closedAfterAll, listenLoopback } from '../helpers/loopback';

/**
 * A single-page app that routes on location.hash, through `sift batch` and the CLI's own
 * wiring (list parser, runner, fetcher, the guarding proxy, /usr/bin/chromium): each route
 * is a target of its own, rendered with its fragment, stored, exported and found under it.
 *
 * Two apps, both answering every path with themselves, as hash-routed apps are served:
 * /shell/ is an empty app root (a needs_js shell), /guide/ has a page of text of its own
 * around the app's root, so only its route says the static HTML is not the page.
 */
const ROUTES: Record<string, { heading: string; text: string }> = {
  '#/reports/1': { heading: 'Quarterly revenue report', text: 'Revenue in the first quarter rose by eleven percent, driven by the northern warehouses and a mild winter that kept the delivery routes open.' },
  '#/reports/2': { heading: 'Staff survey results', text: 'Most of the staff who answered the survey asked for quieter meeting rooms, longer lunch breaks and a bicycle shed beside the east entrance.' },
  '#!/item/7': { heading: 'Item seven of the catalogue', text: 'The seventh item is a hand-bound notebook of recycled paper, sewn with linen thread and sold in three sizes at the spring market.' },
};
const PLAIN = { heading: 'Choose a report', text: 'Pick one of the reports from the menu to read it here; nothing is shown until you do.' };

// The router: the page for location.hash, drawn a moment after load (as an app that fetches
// first would), and again on hashchange.
const APP_JS = `
const routes = ${JSON.stringify(ROUTES)};
function draw() {
  const r = routes[location.hash] || ${JSON.stringify(PLAIN)};
  const root = document.getElementById('app');
  root.innerHTML = '';
  const h = document.createElement('h1');
  h.textContent = r.heading;
  root.appendChild(h);
  for (let i = 0; i < 3; i++) {
    const p = document.createElement('p');
    p.textContent = r.text + ' (' + (i + 1) + ')';
    root.appendChild(p);
  }
}
setTimeout(draw, 50);
window.addEventListener('hashchange', draw);
`;
const SHELL = '<!doctype html><html><head><title>Reports</title></head><body><div id="app"></div><script src="/app.js"></script></body></html>';
const GUIDE_TEXT = 'This guide to the reports explains how each one is gathered, who reads it and when it is published. Every report is written by the team that owns the figures, checked by a second team, and kept for seven years in the archive. ';
const GUIDE = `<!doctype html><html><head><title>Reports guide</title></head><body><header><p>${GUIDE_TEXT.repeat(3)}</p></header><main id="app"></main><script src="/app.js"></script></body></html>`;

const open = closedAfterAll();
let origin = '';
const hits: string[] = [];
const dir = mkdtempSync(path.join(tmpdir(), 'sift-cli-hash-'));
const db = path.join(dir, 'sift.db');

const sift = siftInProcess(dir, { HOME: dir, SIFT_HOME: dir });

type Line = { url: string; ok: boolean; content?: string; meta?: Record<string, unknown>; status?: number; error?: string; hint?: string; reason?: string };
const lines = (out: string): Line[] =>
  out
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Line);

async function batch(list: string[], ...args: string[]): Promise<{ code: number; err: string; lines: Line[] }> {
  writeFileSync(path.join(dir, 'list.txt'), `${list.join('\n')}\n`);
  const r = await sift('batch', 'list.txt', '--allow-host', '127.0.0.1', '--mode', 'text', '--json', '--db', db, ...args);
  return { code: r.code, err: r.err, lines: lines(r.out) };
}

beforeAll(async () => {
  origin = await listenLoopback(open, (req, res) => {
    hits.push(req.url ?? '');
    const p = (req.url ?? '/').split('?')[0] ?? '/';
    if (p === '/app.js') return void res.writeHead(200, { 'content-type': 'text/javascript' }).end(APP_JS);
    // Every other path is the app, as a history-fallback server answers.
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(p.startsWith('/shell') ? SHELL : GUIDE);
  });
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe('sift batch of a hash-routed app', () => {
  it('with --render always gives each route its own page, stored, exported and found under its URL', async () => {
    const routes = Object.keys(ROUTES).map((h) => `${origin}/shell/${h}`);
    // The first route again and the app with an anchor: the one a duplicate, the other the app's own page.
    const r = await batch([...routes, routes[0] as string, `${origin}/shell/#top`], '--render', 'always');
    expect(r.err).toMatch(/^job [0-9a-f-]+\n/);
    expect(r.err).toContain('line 4: duplicate of line 1');
    expect(r.code).toBe(0);
    expect(r.lines.map((l) => l.url)).toEqual([...routes, `${origin}/shell/`]);
    const pages = [...Object.values(ROUTES), PLAIN];
    r.lines.forEach((l, i) => {
      expect(l.meta).toMatchObject({ rendered: true, url: l.url });
      // Its own route's text, and no other route's.
      pages.forEach((p, j) => expect(l.content?.includes(p.text), `target ${i}, page ${j}`).toBe(i === j));
    });
    // HTTP carries no fragment: the server saw the app's path, never a route.
    expect(hits.filter((h) => h.includes('#'))).toEqual([]);

    const id = /^job ([0-9a-f-]+)/.exec(r.err)?.[1] as string;
    const ex = await sift('export', id, '--out', path.join(dir, 'export'), '--format', 'md', '--db', db);
    expect(ex.code).toBe(0);
    const out = path.join(dir, 'export', readdirSync(path.join(dir, 'export'))[0] as string);
    const manifest = readFileSync(path.join(out, 'manifest.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { url: string; file: string });
    expect(manifest.map((m) => m.url)).toEqual([...routes, `${origin}/shell/`]);
    // The app keeps one title for every route: the route names the file.
    expect(manifest.map((m) => m.file)).toEqual(['Reports - reports 1.md', 'Reports - reports 2.md', 'Item seven of the catalogue - item 7.md', 'Reports.md']);
    for (const [i, m] of manifest.entries()) expect(readFileSync(path.join(out, m.file), 'utf8')).toContain(pages[i]?.text);

    const found = await sift('search', 'bicycle shed', '--job', id, '--json', '--db', db);
    expect(found.code).toBe(0);
    expect(lines(found.out).map((h) => (h as unknown as { url: string }).url)).toEqual([routes[1]]);
  }, 180_000);

  it('with --render auto renders a route of an app that has text of its own, and the catch-all is no soft 404', async () => {
    const routes = ['#/reports/1', '#/reports/2'].map((h) => `${origin}/guide/${h}`);
    const r = await batch(routes);
    expect(r.code).toBe(0);
    r.lines.forEach((l, i) => {
      expect(l).toMatchObject({ ok: true, url: routes[i], meta: { rendered: true, render_why: 'route' } });
      expect(l.content).toContain(Object.values(ROUTES)[i]?.text);
    });
  }, 180_000);

  it('with --render never fails each route as needs_js, saying to turn rendering on', async () => {
    const list = ['#/reports/1', '#!/item/7'].flatMap((h) => [`${origin}/shell/${h}`, `${origin}/guide/${h}`]);
    const r = await batch(list, '--render', 'never');
    expect(r.code).toBe(1);
    expect(r.lines.map((l) => l.url)).toEqual(list);
    for (const l of r.lines) {
      expect(l).toMatchObject({ ok: false, status: 422, reason: 'needs_js' });
      expect(l.hint).toMatch(/Turn on rendering/);
    }
    // The shell is an app shell; the guide's own text is there, but not its route's page.
    expect(r.lines[0]?.error).toMatch(/app shell/);
    expect(r.lines[1]?.error).toMatch(/route of a single-page app/);
  }, 120_000);
});
