import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { siftInProcess } from '../helpers/cli-main';
import { closedAfterAll, listenLoopback } from '../helpers/loopback';

/**
 * A single-page app that routes by path (history API), served as such apps are: the host
 * answers every path with the app's index page, so the soft-404 probe's random path gets the
 * very same page as a real route. Through `sift batch` and the CLI's own wiring (runner,
 * fetcher, the guarding proxy, /usr/bin/chromium): a route the app draws is its page, and a
 * host whose every path is one page its scripts draw nothing into is still a soft 404.
 *
 * One host is the app: a header of its own text around an empty <div id="root">, which its
 * script fills with the path's report. Another (127.0.0.2) is a catch-all: a shop's front
 * page with the same kind of root and a script, which draws nothing.
 */
const REPORTS: Record<string, { heading: string; text: string }> = {
  '/app/reports/1': { heading: 'Quarterly revenue report', text: 'Revenue in the first quarter rose by eleven percent, driven by the northern warehouses and a mild winter that kept the delivery routes open.' },
  '/app/reports/2': { heading: 'Staff survey results', text: 'Most of the staff who answered the survey asked for quieter meeting rooms, longer lunch breaks and a bicycle shed beside the east entrance.' },
};
const APP_JS = `
const reports = ${JSON.stringify(REPORTS)};
const r = reports[location.pathname];
const root = document.getElementById('root');
const h = document.createElement('h1');
h.textContent = r ? r.heading : 'No such report';
root.appendChild(h);
for (let i = 0; r && i < 3; i++) {
  const p = document.createElement('p');
  p.textContent = r.text + ' (' + (i + 1) + ')';
  root.appendChild(p);
}
`;
const HEADER =
  'Acme Reports is where the finance and people teams publish what they measure. Every report is written by the team that owns the figures, checked by a second team, and kept for seven years in the archive. ';
const APP = `<!doctype html><html><head><title>Acme Reports</title></head><body><header><nav><a href="/app/">Home</a> <a href="/app/reports/1">Revenue</a></nav><p>${HEADER.repeat(2)}</p></header><div id="root"></div><footer><p>Questions about a report go to the team that wrote it.</p></footer><script src="/app.js"></script></body></html>`;
const SHOP_TEXT = 'Oak and Iron makes desks, shelves and lamps from reclaimed oak in a small workshop by the river, and ships them across the country within a week. ';
const SHOP = `<!doctype html><html><head><title>Oak &amp; Iron</title></head><body><div id="root"><h1>Oak &amp; Iron</h1><p>${SHOP_TEXT.repeat(3)}</p></div><script src="/stats.js"></script></body></html>`;

const open = closedAfterAll();
let origin = '';
let shopOrigin = '';
const dir = mkdtempSync(path.join(tmpdir(), 'sift-cli-path-'));
const db = path.join(dir, 'sift.db');
const sift = siftInProcess(dir, { HOME: dir, SIFT_HOME: dir });

type Line = { url: string; ok: boolean; content?: string; meta?: Record<string, unknown>; status?: number; error?: string; hint?: string; reason?: string };

async function batch(list: string[], ...args: string[]): Promise<{ code: number; err: string; lines: Line[] }> {
  writeFileSync(path.join(dir, 'list.txt'), `${list.join('\n')}\n`);
  const r = await sift('batch', 'list.txt', '--allow-host', '127.0.0.1', '--allow-host', '127.0.0.2', '--mode', 'text', '--json', '--db', db, ...args);
  return {
    code: r.code,
    err: r.err,
    lines: r.out
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Line),
  };
}

beforeAll(async () => {
  origin = await listenLoopback(open, (req, res) => {
    const p = (req.url ?? '/').split('?')[0] ?? '/';
    if (p === '/app.js') return void res.writeHead(200, { 'content-type': 'text/javascript' }).end(APP_JS);
    // Every other path is the app, as a single-page fallback answers.
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(APP);
  });
  shopOrigin = await listenLoopback(
    open,
    (req, res) => {
      const p = (req.url ?? '/').split('?')[0] ?? '/';
      if (p === '/stats.js') return void res.writeHead(200, { 'content-type': 'text/javascript' }).end('window.seen = Date.now();');
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(SHOP);
    },
    '127.0.0.2',
  );
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe('sift batch of an app that routes by path, behind a host that answers every path with it', () => {
  it('renders each route and gives it its own page, where the static page alone read as a soft 404; a catch-all whose scripts draw nothing stays a soft 404', async () => {
    const list = [...Object.keys(REPORTS).map((p) => `${origin}${p}`), `${shopOrigin}/2019/spring-catalogue`];
    const r = await batch(list);
    expect(r.lines.map((l) => l.url)).toEqual(list);
    Object.values(REPORTS).forEach((report, i) => {
      expect(r.lines[i], r.err).toMatchObject({ ok: true, meta: { rendered: true, render_why: 'catch_all' } });
      expect(r.lines[i]?.content).toContain(report.text);
    });
    expect(r.lines[2]).toMatchObject({ ok: false, reason: 'soft404', status: 404 });
    expect(r.lines[2]?.error).toMatch(/answers every address with this same page/);
    expect(r.code).toBe(1);
  }, 180_000);

  it('with --render always a catch-all is a soft 404 as under auto, not the ok page it read as once rendered', async () => {
    const r = await batch([`${shopOrigin}/2019/autumn-catalogue`], '--render', 'always');
    expect(r.code).toBe(1);
    expect(r.lines[0]).toMatchObject({ ok: false, reason: 'soft404', status: 404 });
  }, 120_000);

  it('with --render never says the route needs JavaScript, not that it does not exist', async () => {
    const r = await batch([`${origin}/app/reports/1`], '--render', 'never');
    expect(r.code).toBe(1);
    expect(r.lines[0]).toMatchObject({ ok: false, reason: 'needs_js', status: 422 });
    expect(r.lines[0]?.hint).toMatch(/Turn on rendering/);
  }, 120_000);
});
