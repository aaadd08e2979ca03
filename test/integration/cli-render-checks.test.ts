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
