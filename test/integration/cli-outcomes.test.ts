/**
 * Honest outcomes (issue 12) through the real `sift batch --json`: loopback servers answer
 * with real captured pages (test/fixtures/outcomes), and every one that is not the content
 * fails with its reason, in --json, `sift status --json` and the CSV export.
 */
import { beforeAll, describe, expect, test } from 'vitest';
import { mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parse as parseCsv } from 'csv-parse/sync';
import { runSift } from '../helpers/cli';
import { closedAfterAll, closedAfterEach, listenLoopback, type Closable } from '../helpers/loopback';

const FIX = path.resolve(__dirname, '../fixtures/outcomes');
const page = (rel: string): string => readFileSync(path.join(FIX, rel), 'utf8');

interface Server {
  base: string;
  hits: Map<string, number>;
}

/** A site on `host` answering each path with `route`'s page (404 where it has none), closed with `open`; what it was asked. */
async function serve(open: Closable[], host: string, route: (pathname: string) => { status: number; body: string; location?: string } | undefined): Promise<Server> {
  const hits = new Map<string, number>();
  const base = await listenLoopback(
    open,
    (req, res) => {
      const pathname = new URL(req.url ?? '/', 'http://x').pathname;
      hits.set(pathname, (hits.get(pathname) ?? 0) + 1);
      const r = route(pathname);
      if (!r) return res.writeHead(404, { 'content-type': 'text/plain' }).end('no such page');
      res.writeHead(r.status, { 'content-type': 'text/html; charset=utf-8', ...(r.location ? { location: r.location } : {}) }).end(r.body);
    },
    host,
  );
  return { base, hits };
}

const sites = closedAfterAll();
const open = closedAfterEach();

let site: Server;
let catchAllNotFound: Server;
let catchAllHome: Server;
let home: string;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  const routes: Record<string, { status: number; body: string; location?: string }> = {
    // Cloudflare's 2021 "Just a moment..." comes with 503: a challenge, not a busy site.
    '/challenge': { status: 503, body: page('batch/cf_uam_just_a_moment_2021.html') },
    '/account': { status: 200, body: page('batch/login_bank_of_ireland_365.html') },
    '/consent': { status: 200, body: page('batch/consent_yahoo_oath_before_you_continue.html') },
    '/app': { status: 200, body: page('batch/needs_js_cra_react_app.html') },
    '/marketplace': { status: 200, body: page('batch/needs_js_next_data_att_api_marketplace.html') },
    '/short': { status: 200, body: page('pages/ok_example_domain_short_2014.html') },
    '/bookmarks': { status: 200, body: page('pages/ok_bookmarks_export_ie11_flat.html') },
    // Sign-in pages inside a site's template (composed as test/fixtures/outcomes/README.md says).
    '/signin-headline': { status: 200, body: page('pages/login_aol_signin_in_site_template_site_name_title.html') },
    '/signin-asks': { status: 200, body: page('pages/login_google_drive_asks_in_site_template.html') },
    '/signin-footer-h1s': { status: 200, body: page('pages/login_github_signin_in_site_template_footer_h1s.html') },
    // A block page and two not-found pages inside a site's template, named only in their first sentences.
    '/blocked-first-sentence': { status: 200, body: page('pages/challenge_cloudfront_request_blocked_in_site_template.html') },
    '/not-found-first-sentence': { status: 200, body: page('pages/soft404_edmodo_not_found_in_site_template.html') },
    '/not-found-under-headline': { status: 200, body: page('pages/soft404_airindia_sorry_in_site_template_headline_title.html') },
    // Anti-bot blocks inside a site's template that say so only in words ("made us think that you
    // are a bot") or in their noscript ("before you are allowed to see this page").
    '/bot-block-words': { status: 200, body: page('pages/challenge_shieldsquare_bot_in_site_template_site_name_title.html') },
    '/bot-block-noscript': { status: 200, body: page('pages/challenge_sucuri_redirect_in_site_template.html') },
    // An ASP.NET site sends the visitor who asked for a page to its sign-in, inside its template.
    '/Pages/Home.aspx': { status: 302, body: '', location: '/Login.aspx?ReturnUrl=%2fPages%2fHome.aspx' },
    '/Login.aspx': { status: 200, body: page('pages/login_aspnet_returnurl_in_site_template.html') },
    // The same page at an address of its own: its form then returns elsewhere from elsewhere, a box beside the page.
    '/Pages/News.aspx': { status: 200, body: page('pages/login_aspnet_returnurl_in_site_template.html') },
    // The same block under the article's headline as title, its h1 only an apology.
    '/bot-block-apology': { status: 200, body: page('pages/challenge_shieldsquare_apology_h1_in_site_template_headline_title.html') },
    // Real pages that must stay ok: a login modal's h1 before a home page's own heading, and an
    // article's sentence that says 'no longer available' of something else where its h1 was.
    '/home-login-modal': { status: 200, body: page('pages/ok_blog_home_login_modal_h1_blank_title.html') },
    '/headless-no-longer-available': { status: 200, body: page('pages/ok_headless_article_sentence_no_longer_available.html') },
    // Real pages with a sign-in box (no dialog markup) before their own headline: a blog's
    // posts and an article's text follow it.
    '/blog-signin-box': { status: 200, body: page('pages/ok_blog_home_signin_box_h1_before_posts_blank_title.html') },
    '/article-signin-box': { status: 200, body: page('pages/ok_news_article_signin_box_h1_before_headline_blank_title.html') },
    // A real home page with a members' box (a password field) in its sidebar, its title blanked.
    '/home-sidebar-login': { status: 200, body: page('pages/ok_url_shortener_home_sidebar_login_2018.html').replace(/<title>[^<]*<\/title>/i, '<title></title>') },
    // A blog's front page: its headlines are links to the posts, and they name what the posts are about.
    '/blog': {
      status: 200,
      body:
        '<!doctype html><html><head><meta charset="utf-8"><title>The Ops Notebook</title></head><body><header><a href="/">The Ops Notebook</a></header><main>' +
        '<article><h2><a href="/2024/cdn-checks">Just a moment: what a CDN checks before your page loads</a></h2><p>A walk through the checks a CDN runs …</p></article>' +
        '<article><h2><a href="/2024/broken-links">Page not found: tracing broken links with a crawler</a></h2><p>How we found 400 broken links …</p></article>' +
        '<article><h2><a href="/2024/consent">Cookie consent banners, measured</a></h2><p>We counted cookies, consent prompts and partners on 100 sites …</p></article>' +
        '</main><footer>© 2024</footer></body></html>',
    },
  };
  site = await serve(sites, '127.0.0.1', (p) => routes[p]);
  // A site that answers every path with 200 and its not-found page, as such sites do.
  const notFound = page('batch/soft404_harvest.html');
  catchAllNotFound = await serve(sites, '127.0.0.2', () => ({ status: 200, body: notFound }));
  // A site that answers every path with the same short page and no not-found words: only
  // the random-path probe can tell.
  const same = page('pages/ok_example_domain_short_2014.html');
  catchAllHome = await serve(sites, '127.0.0.3', () => ({ status: 200, body: same }));
  home = mkdtempSync(path.join(os.tmpdir(), 'sift-outcomes-'));
  writeFileSync(path.join(home, 'settings.json'), JSON.stringify({ allowHosts: ['127.0.0.1', '127.0.0.2', '127.0.0.3'], deadlineSeconds: 20 }));
  env = { SIFT_HOME: home };
});

describe('sift batch reports what came back', () => {
  test('each class fails with its reason, a short real page is ok and thin, status and CSV carry the reasons', async () => {
    const db = path.join(home, 'outcomes.db');
    const urls = [
      `${site.base}/challenge`,
      `${site.base}/account`,
      `${site.base}/consent`,
      `${catchAllNotFound.base}/blog/2019/some-post`,
      `${site.base}/app`,
      `${site.base}/marketplace`,
      `${site.base}/short`,
      `${catchAllHome.base}/docs/guide`,
    ];
    const file = path.join(home, 'outcomes.txt');
    writeFileSync(file, `${urls.join('\n')}\n`);
    const run = await runSift(['batch', file, '--json', '--db', db], { env, timeoutMs: 120_000 });
    expect(run.code, run.stderr.slice(-2000)).toBe(1);
    const id = /^job ([0-9a-f]+)/.exec(run.stderr)![1]!;
    const lines = run.stdout.trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines.map((l) => [l.ok, l.reason])).toEqual([
      [false, 'challenge'],
      [false, 'login'],
      [false, 'consent'],
      [false, 'soft404'],
      [false, 'needs_js'],
      [false, 'needs_js'],
      [true, undefined],
      [false, 'soft404'],
    ]);
    // The challenge kept its 503 and was asked for once: not retried as a busy site.
    expect(lines[0]).toMatchObject({ status: 503 });
    expect(site.hits.get('/challenge')).toBe(1);
    // Hints say what to do.
    expect(String(lines[0]!.hint)).toMatch(/browser/);
    expect(String(lines[1]!.hint)).toMatch(/sign in/);
    expect(String(lines[3]!.hint)).toMatch(/recover/);
    // Rendered in the browser (render auto) and still an empty shell, its bundles answered 404:
    // said so, not "turn on rendering" nor more time.
    expect(String(lines[4]!.error)).toMatch(/its server answered 2 of its scripts with an error \(HTTP 404\), so they never ran/);
    expect(String(lines[4]!.hint)).toMatch(/try again later/);
    expect(String(lines[4]!.hint)).not.toMatch(/--render|Time a page may run/);
    // The short real page is ok, with a warning rather than a failure.
    expect(lines[6]).toMatchObject({ ok: true, warnings: ['thin'] });
    expect(String(lines[6]!.content)).toContain('illustrative examples');
    // The probe asked each host at most once, whatever the number of its targets.
    const probes = (s: Server): number => [...s.hits.keys()].filter((p) => /^\/[0-9a-f]{18}$/.test(p)).length;
    expect(probes(catchAllHome)).toBe(1);
    expect(probes(site)).toBeLessThanOrEqual(1);

    const status = await runSift(['status', id, '--json', '--db', db], { env });
    expect(status.code, status.stderr).toBe(0);
    const [, ...targets] = status.stdout.trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(targets.map((t) => t.reason)).toEqual(['challenge', 'login', 'consent', 'soft404', 'needs_js', 'needs_js', '', 'soft404']);
    for (const t of targets) expect(Object.keys(t)).toEqual(['idx', 'url', 'status', 'error', 'hint', 'reason', 'bytes']);

    const out = path.join(home, 'export');
    const exp = await runSift(['export', id, '--out', out, '--format', 'csv', '--include-failed', '--db', db], { env });
    expect(exp.code, exp.stderr).toBe(0);
    const csvFile = readdirSync(out).find((f) => f.endsWith('.csv'))!;
    const rows = parseCsv(readFileSync(path.join(out, csvFile), 'utf8'), { bom: true, columns: true }) as Record<string, string>[];
    expect(rows.map((r) => [r.status, r.reason])).toEqual([
      ['failed', 'challenge'],
      ['failed', 'login'],
      ['failed', 'consent'],
      ['failed', 'soft404'],
      ['failed', 'needs_js'],
      ['failed', 'needs_js'],
      ['done', ''],
      ['failed', 'soft404'],
    ]);
  }, 180_000);

  test('a page of links is ok, whatever its links are called: a bookmarks export, a blog front page with such headlines', async () => {
    const file = path.join(home, 'links.txt');
    writeFileSync(file, `${site.base}/bookmarks\n${site.base}/blog\n`);
    const run = await runSift(['batch', file, '--json', '--db', path.join(home, 'links.db')], { env, timeoutMs: 60_000 });
    expect(run.code, run.stderr.slice(-2000)).toBe(0);
    const [bookmarks, blog] = run.stdout.trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(bookmarks).toMatchObject({ ok: true });
    expect(String(bookmarks!.content)).toContain('could not be found');
    expect(blog).toMatchObject({ ok: true });
  }, 120_000);

  // Each came back ok: the template's links made the page long, its title said nothing, and
  // the sign-in was named only in the stand-in's h1, in a sentence, or in a <p> above footer h1s.
  test('a sign-in page inside a site template fails as login, however it names the sign-in; a home page with a sidebar sign-in box is ok', async () => {
    const file = path.join(home, 'signin.txt');
    writeFileSync(file, ['/signin-headline', '/signin-asks', '/signin-footer-h1s', '/home-sidebar-login'].map((p) => `${site.base}${p}\n`).join(''));
    const run = await runSift(['batch', file, '--json', '--db', path.join(home, 'signin.db')], { env, timeoutMs: 60_000 });
    expect(run.code, run.stderr.slice(-2000)).toBe(1);
    const lines = run.stdout.trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines.map((l) => [l.ok, l.reason])).toEqual([
      [false, 'login'],
      [false, 'login'],
      [false, 'login'],
      [true, undefined],
    ]);
    expect(String(lines[0]!.hint)).toMatch(/sign in/);
  }, 120_000);

  // Each came back ok: their headings say "403 ERROR", "Your group is being copied" or nothing,
  // and their first sentences were read only on a page short in all.
  test('a block page or a not-found page inside a site template, named only in its first sentences, fails with its reason', async () => {
    const file = path.join(home, 'first-sentences.txt');
    writeFileSync(file, ['/blocked-first-sentence', '/not-found-first-sentence', '/not-found-under-headline'].map((p) => `${site.base}${p}\n`).join(''));
    const run = await runSift(['batch', file, '--json', '--db', path.join(home, 'first-sentences.db')], { env, timeoutMs: 60_000 });
    expect(run.code, run.stderr.slice(-2000)).toBe(1);
    const lines = run.stdout.trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines.map((l) => [l.ok, l.reason])).toEqual([
      [false, 'challenge'],
      [false, 'soft404'],
      [false, 'soft404'],
    ]);
  }, 120_000);

  // Before: the two blocks came back ok (their vendor's marker decides only on a short page), the
  // modal's home page as login and the article as soft404.
  test('an anti-bot block in a site template fails as challenge by its words; a login modal and an unrelated "no longer available" stay ok', async () => {
    const file = path.join(home, 'bot-words.txt');
    writeFileSync(file, ['/bot-block-words', '/bot-block-noscript', '/home-login-modal', '/headless-no-longer-available'].map((p) => `${site.base}${p}\n`).join(''));
    const run = await runSift(['batch', file, '--json', '--render', 'never', '--db', path.join(home, 'bot-words.db')], { env, timeoutMs: 60_000 });
    expect(run.code, run.stderr.slice(-2000)).toBe(1);
    const lines = run.stdout.trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines.map((l) => [l.ok, l.reason])).toEqual([
      [false, 'challenge'],
      [false, 'challenge'],
      [true, undefined],
      [true, undefined],
    ]);
  }, 120_000);

  // Before: both failed as login, the box's "Log in" h1 being the first of the page's own.
  test("a sign-in box before a page's own headline stays ok when the page goes on below it; the sign-in page in a template still fails", async () => {
    const file = path.join(home, 'signin-box.txt');
    writeFileSync(file, ['/blog-signin-box', '/article-signin-box', '/signin-footer-h1s'].map((p) => `${site.base}${p}\n`).join(''));
    const run = await runSift(['batch', file, '--json', '--render', 'never', '--db', path.join(home, 'signin-box.db')], { env, timeoutMs: 60_000 });
    expect(run.code, run.stderr.slice(-2000)).toBe(1);
    const lines = run.stdout.trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines.map((l) => [l.ok, l.reason])).toEqual([
      [true, undefined],
      [true, undefined],
      [false, 'login'],
    ]);
    expect(String(lines[1]!.content)).toContain('stabbed');
  }, 120_000);

  // Before: ok, its h1 'We apologize for the inconvenience...' naming no stand-in under a headline title.
  test("an anti-bot block under the article's headline, its h1 only an apology, fails as challenge", async () => {
    const file = path.join(home, 'bot-apology.txt');
    writeFileSync(file, `${site.base}/bot-block-apology\n`);
    const run = await runSift(['batch', file, '--json', '--render', 'never', '--db', path.join(home, 'bot-apology.db')], { env, timeoutMs: 60_000 });
    expect(run.code, run.stderr.slice(-2000)).toBe(1);
    const lines = run.stdout.trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines.map((l) => [l.ok, l.reason])).toEqual([[false, 'challenge']]);
  }, 120_000);

  // Before: ok, its only sign a form to ?ReturnUrl= that a site's header box carries on any page.
  test('a sign-in page a redirect sends the visitor to fails as login; the same page at an address of its own is ok', async () => {
    const file = path.join(home, 'returnurl.txt');
    writeFileSync(file, ['/Pages/Home.aspx', '/Pages/News.aspx'].map((p) => `${site.base}${p}\n`).join(''));
    const run = await runSift(['batch', file, '--json', '--render', 'never', '--db', path.join(home, 'returnurl.db')], { env, timeoutMs: 60_000 });
    expect(run.code, run.stderr.slice(-2000)).toBe(1);
    const lines = run.stdout.trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines.map((l) => [l.ok, l.reason])).toEqual([
      [false, 'login'],
      [true, undefined],
    ]);
  }, 120_000);

  test('with recover on, a challenge goes to the archive like a 404 does', async () => {
    const snapshot = page('pages/ok_example_domain_short_2014.html');
    const archive = await serve(open, '127.0.0.1', (p) => (p === '/snap' ? { status: 200, body: snapshot } : undefined));
    const archiveApi = await listenLoopback(open, (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' }).end(
        JSON.stringify({ archived_snapshots: { closest: { available: true, url: `${archive.base}/snap`, timestamp: '20140216050221', status: '200' } } }),
      );
    });
    const h = mkdtempSync(path.join(os.tmpdir(), 'sift-recover-'));
    writeFileSync(path.join(h, 'settings.json'), JSON.stringify({ allowHosts: ['127.0.0.1'], deadlineSeconds: 20, archiveService: `${archiveApi}/available` }));
    const file = path.join(h, 'list.txt');
    writeFileSync(file, `${site.base}/challenge recover\n${site.base}/consent recover\n`);
    const run = await runSift(['batch', file, '--json', '--db', path.join(h, 'db.sqlite')], { env: { SIFT_HOME: h }, timeoutMs: 60_000 });
    const [challenge, consent] = run.stdout.trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(challenge).toMatchObject({ ok: true, meta: { recovered: true, recovered_from: 503 } });
    // A consent wall is not recovered: the page exists, the user has to answer it.
    expect(consent).toMatchObject({ ok: false, reason: 'consent' });
  }, 120_000);
});
