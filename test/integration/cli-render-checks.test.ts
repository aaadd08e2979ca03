/**
 * An anti-bot check under `--render always`, through the built CLI and the system Chromium:
 * rendered, a check may clear; one that does not clear stays a challenge, whatever the browser
 * made of it. Sucuri's cookie check reloads the page, and a site whose check never clears sends
 * it again: the render ran out its budget and the target failed as "timeout: the page's
 * JavaScript did not yield", a failure "that may pass with time", with a hint to raise the
 * render budget, where --render never (and auto) said "challenge".
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { jsonLines, runSift } from '../helpers/cli';
import { closedAfterAll, listenLoopback } from '../helpers/loopback';

const FIX = path.resolve(__dirname, '../fixtures/outcomes/pages');
const open = closedAfterAll();
let base: string;
let home: string;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  const check = readFileSync(path.join(FIX, 'sucuri_cookie_challenge.html'));
  // Every address is the check, the cookie its script sets or not: a check that never clears.
  base = await listenLoopback(open, (_req, res) => void res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(check));
  home = mkdtempSync(path.join(os.tmpdir(), 'sift-render-checks-'));
  // 4 s: the reloads never settle, so the render runs the whole budget; the default 15 s only makes the test slower.
  writeFileSync(path.join(home, 'settings.json'), JSON.stringify({ allowHosts: ['127.0.0.1'], renderBudgetSeconds: 4 }));
  env = { SIFT_HOME: home, HOME: home, NO_COLOR: '1' };
});
afterAll(() => rmSync(home, { recursive: true, force: true }));

describe('sift batch --render always on a check that does not clear', () => {
  test('fails it as a challenge, as --render never does, not as a timeout', async () => {
    const list = path.join(home, 'list.txt');
    writeFileSync(list, `${base}/products/1\n`);
    const never = await runSift(['batch', list, '--db', path.join(home, 'never.db'), '--render', 'never', '--json'], { env });
    expect(jsonLines(never.stdout)).toEqual([expect.objectContaining({ ok: false, reason: 'challenge' })]);

    const always = await runSift(['batch', list, '--db', path.join(home, 'always.db'), '--render', 'always', '--json'], { env });
    expect(always.code, always.stderr).toBe(1);
    const [line] = jsonLines(always.stdout);
    expect(line).toMatchObject({ ok: false, reason: 'challenge', error: (jsonLines(never.stdout)[0] as { error: string }).error });
    expect(always.stderr).not.toContain('--retry-failed');
  }, 180_000);
});

/**
 * A check's stub answered 200 whose script sets a cookie and loads the page again. It was an
 * app shell (needs_js): under --render auto one that never clears reloaded until the render
 * budget ran out ("timeout: the page's JavaScript did not yield", whose hint said --render
 * never), and one whose script threw was "needs JavaScript … ReferenceError". Rendered as a
 * shell is, it is the page once it clears and a challenge while it does not.
 */
describe('sift batch --render auto on a check that sets a cookie and reloads', () => {
  const article = `<!doctype html><html><head><title>Opening hours</title></head><body><article><h1>Opening hours</h1>${'<p>The reading room is open from nine to five on weekdays, and the archive on Saturday mornings by appointment with the desk.</p>'.repeat(4)}</article></body></html>`;
  const stub = (script: string, body = ''): string => `<!doctype html><html><head><meta charset="utf-8"><title></title></head><body>${body}<script>${script}</script></body></html>`;
  const noscript = '<noscript>This site requires Javascript to work, please enable Javascript in your browser or use a browser with Javascript support</noscript>';
  let checks: string;

  beforeAll(async () => {
    checks = await listenLoopback(open, (req, res) => {
      const url = new URL(req.url ?? '/', 'http://x');
      const [, kind] = url.pathname.split('/');
      const html = (body: string): void => void res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(body);
      // The check's library is not there: its script stops at a ReferenceError.
      if (kind === 'aes.js') return void res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      if (kind === 'clears' && /(?:^|; )check=1/.test(req.headers.cookie ?? '')) return html(article);
      if (kind === 'reload' || kind === 'clears') return html(stub('document.cookie = "check=1; path=/"; location.reload();'));
      // Every visit sets a new cookie the site never accepts.
      if (kind === 'replace') return html(stub('var t = Date.now(); document.cookie = "vc=" + t + "; path=/"; location.replace(location.pathname + "?vc=" + t);', '<p>Redirecting…</p>'));
      if (kind === 'testcookie') return html(`<!doctype html><html><body><script src="/aes.js"></script><script>document.cookie = "__test=" + slowAES.decrypt("c", 2) + "; path=/"; location.href = "${url.pathname}?i=1";</script>${noscript}</body></html>`);
      return void res.writeHead(404, { 'content-type': 'text/plain' }).end('no such page');
    });
  });

  test('each that does not clear fails as a challenge that did not clear in a browser, in --json and in the stored job; the one that clears is its page', async () => {
    const list = path.join(home, 'cookie-checks.txt');
    writeFileSync(list, ['reload', 'testcookie', 'replace', 'clears'].map((k) => `${checks}/${k}/products/1`).join('\n') + '\n');
    const db = path.join(home, 'cookie-auto.db');
    const auto = await runSift(['batch', list, '--db', db, '--render', 'auto', '--json'], { env, timeoutMs: 150_000 });
    expect(auto.code, auto.stderr).toBe(1);
    const lines = jsonLines(auto.stdout);
    const failed = { ok: false, reason: 'challenge', error: 'challenge: the site answered with an anti-bot check instead of the page', hint: expect.stringContaining('It did not clear in a browser either') };
    expect(lines.slice(0, 3)).toEqual([expect.objectContaining(failed), expect.objectContaining(failed), expect.objectContaining(failed)]);
    expect(lines[3]).toMatchObject({ ok: true, meta: { rendered: true, title: 'Opening hours' } });
    expect(String(lines[3]!.content)).toContain('The reading room is open');

    // What the user reads of the stored job: a challenge each, not a timeout or a script's error.
    const id = /^job ([0-9a-f]+)/m.exec(auto.stderr)![1]!;
    const status = await runSift(['status', id, '--db', db], { env });
    expect(status.code, status.stderr).toBe(0);
    const said = `${status.stdout}${status.stderr}`;
    expect(said).toContain('3 × challenge:');
    expect(said).not.toMatch(/timeout|ReferenceError|needs JavaScript|--render never/);
  }, 240_000);

  test('under --render never each fails as a challenge whose hint says rendering may pass it', async () => {
    const list = path.join(home, 'cookie-checks-never.txt');
    writeFileSync(list, ['reload', 'testcookie', 'replace'].map((k) => `${checks}/${k}/products/1`).join('\n') + '\n');
    const never = await runSift(['batch', list, '--db', path.join(home, 'cookie-never.db'), '--render', 'never', '--json'], { env });
    expect(never.code, never.stderr).toBe(1);
    for (const line of jsonLines(never.stdout)) {
      expect(line).toMatchObject({ ok: false, reason: 'challenge', hint: "The check's script sets a cookie and loads the page again, which a browser may pass. Turn on rendering (--render auto) so Sift runs the page in a browser." });
    }
    expect(jsonLines(never.stdout)).toHaveLength(3);
  }, 120_000);
});
