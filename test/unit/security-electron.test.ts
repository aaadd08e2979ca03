import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { CSP, hardenWebContents, isExternalSafe } from '../../src/main/app/window';
import { writeResult } from '../helpers/faults-report';
import { launchChromium } from '../helpers/chromium';
import { FakeShell, FakeWebContents } from '../helpers/electron-standin';

const ROOT = path.resolve(__dirname, '../..');
const figures: Record<string, number | string | boolean> = {};
const details: string[] = [];

afterAll(() => {
  writeResult({ name: 'electron', command: 'npm test -- test/unit/security-electron.test.ts', figures, details });
});

/** The `electronFuses:` block of electron-builder.yml: flat `key: value` lines under it. */
function readFuses(yml: string): Record<string, boolean | string> {
  const out: Record<string, boolean | string> = {};
  let inBlock = false;
  for (const line of yml.split(/\r?\n/)) {
    if (/^electronFuses:\s*(#.*)?$/.test(line)) {
      inBlock = true;
      continue;
    }
    if (!inBlock) continue;
    if (/^\S/.test(line)) break;
    const m = /^\s+([A-Za-z0-9]+):\s*([^#]*?)\s*(#.*)?$/.exec(line);
    if (m) out[m[1]!] = m[2] === 'true' ? true : m[2] === 'false' ? false : m[2]!;
  }
  return out;
}

describe('packaging: the Electron fuses', () => {
  test('electron-builder.yml turns runAsNode, NODE_OPTIONS and --inspect off, and asar-only loading and asar integrity on', () => {
    const fuses = readFuses(readFileSync(path.join(ROOT, 'electron-builder.yml'), 'utf8'));
    const want = {
      runAsNode: false,
      enableNodeOptionsEnvironmentVariable: false,
      enableNodeCliInspectArguments: false,
      onlyLoadAppFromAsar: true,
      enableEmbeddedAsarIntegrityValidation: true,
    };
    expect(fuses).toMatchObject(want);
    for (const [k, v] of Object.entries(want)) figures[`fuse ${k}`] = v;
  });

  test('the fuse reader reads only that block (a key elsewhere does not count)', () => {
    expect(readFuses('runAsNode: true\nelectronFuses:\n  runAsNode: false # off\n  onlyLoadAppFromAsar: true\nlinux:\n  runAsNode: true\n')).toEqual({ runAsNode: false, onlyLoadAppFromAsar: true });
  });
});

describe('the window: what leaves the app', () => {
  test('openExternal takes only http(s) URLs, in any case, and nothing a parser reads differently', () => {
    const yes = ['HTTPS://EXAMPLE.ORG/', 'http://example.org:8080/a?b#c', 'https://user@example.org/'];
    const no = ['file:///C:/Windows/System32/calc.exe', '\\\\host\\share', 'vbscript:msgbox', 'data:text/html,<script>alert(1)</script>', 'chrome://settings', 'mailto:a@b.c', 'ms-settings:', 'about:blank', ' javascript:alert(1)'];
    for (const u of yes) expect(isExternalSafe(u), u).toBe(true);
    for (const u of no) expect(isExternalSafe(u), u).toBe(false);
  });

  test('a window.open of any URL is denied in the app; only http(s) reaches the browser', () => {
    const wc = new FakeWebContents();
    const shell = new FakeShell();
    hardenWebContents(wc as never, 'file:///app/index.html', shell);
    const urls = ['https://example.org/', 'file:///etc/passwd', 'data:text/html,x', 'sift://x', 'http://127.0.0.1:9/'];
    for (const url of urls) expect(wc.openHandler!({ url })).toEqual({ action: 'deny' });
    expect(shell.opened).toEqual(['https://example.org/', 'http://127.0.0.1:9/']);
    // A navigation to the app's own file with a different query is still a navigation away.
    expect(wc.fire('will-navigate', 'file:///app/index.html?x=1')).toBe(true);
  });

  test('index.ts enables the sandbox for every renderer and hardens every web contents before the window loads', () => {
    const src = readFileSync(path.join(ROOT, 'src/main/index.ts'), 'utf8');
    expect(src).toMatch(/app\.enableSandbox\(\)/);
    const harden = src.indexOf("app.on('web-contents-created'");
    const create = src.indexOf('new BrowserWindow(');
    expect(harden).toBeGreaterThan(0);
    expect(harden).toBeLessThan(create);
    expect(src.indexOf('hardenSession(session.defaultSession)')).toBeLessThan(create);
  });
});

describe('the CSP in a real Chromium', () => {
  let server: http.Server;
  let other: http.Server;
  let base = '';
  let otherBase = '';
  const otherHits: string[] = [];

  beforeAll(async () => {
    other = http.createServer((req, res) => {
      otherHits.push(req.url ?? '');
      res.writeHead(200, { 'access-control-allow-origin': '*', 'content-type': 'text/plain' });
      res.end('remote');
    });
    await new Promise<void>((r) => other.listen(0, '127.0.0.1', r));
    otherBase = `http://127.0.0.1:${(other.address() as AddressInfo).port}`;
    const page = `<!doctype html><html><head><script src="/app.js"></script></head><body>
<script>window.inlineRan = true;</script><img src="${otherBase}/img.png"><iframe src="${otherBase}/frame"></iframe></body></html>`;
    const app = `window.results = {};
try { eval('1'); window.results.eval = 'ran'; } catch (e) { window.results.eval = 'blocked'; }
try { new Function('return 1')(); window.results.fn = 'ran'; } catch (e) { window.results.fn = 'blocked'; }
window.results.remote = fetch('${otherBase}/data').then(() => 'ran', () => 'blocked');
window.results.sameOrigin = fetch('/app.js').then(() => 'ran', () => 'blocked');`;
    server = http.createServer((req, res) => {
      const body = req.url === '/app.js' ? app : page;
      res.writeHead(200, { 'content-type': req.url === '/app.js' ? 'text/javascript' : 'text/html', 'content-security-policy': CSP });
      res.end(body);
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise<void>((r) => server?.close(() => r()));
    await new Promise<void>((r) => other?.close(() => r()));
  });

  test('our script runs; inline script, eval, new Function, and loads from another origin do not', async () => {
    const browser = await launchChromium();
    try {
      const page = await browser.newPage();
      await page.goto(`${base}/`);
      await page.waitForFunction(() => (window as unknown as { results?: unknown }).results !== undefined);
      const r = await page.evaluate(async () => {
        const w = window as unknown as { results: Record<string, unknown>; inlineRan?: boolean };
        return { eval: w.results.eval, fn: w.results.fn, remote: await w.results.remote, sameOrigin: await w.results.sameOrigin, inline: w.inlineRan === true };
      });
      expect(r).toEqual({ eval: 'blocked', fn: 'blocked', remote: 'blocked', sameOrigin: 'ran', inline: false });
      await page.waitForTimeout(200);
      expect(otherHits).toEqual([]);
      figures.cspEvalBlocked = true;
      figures.cspInlineBlocked = true;
      figures.cspRemoteBlocked = true;
    } finally {
      await browser.close();
    }
  }, 60_000);
});

describe('electronegativity, offline', () => {
  test('every finding on src/ is explained in the allowlist, and every allowlist entry is still needed', () => {
    const allow = JSON.parse(readFileSync(path.join(ROOT, 'test/reliability/electronegativity-allowlist.json'), 'utf8')) as { findings: { check: string; file: string; reason: string }[] };
    for (const a of allow.findings) expect(a.reason.length, `${a.check} ${a.file}`).toBeGreaterThan(40);
    const tmp = mkdtempSync(path.join(os.tmpdir(), 'sift-eneg-'));
    // electronegativity fetches translations from GitHub at start-up (and one check fetches
    // Electron's release list). CI has no network and tests send nothing off loopback: `got`
    // is replaced by a refusal before the tool loads, and the release check is excluded.
    const offline = path.join(tmp, 'offline.cjs');
    writeFileSync(
      offline,
      `const M = require('node:module'); const load = M._load; const no = () => Promise.reject(new Error('offline'));
const got = Object.assign(no, { head: no, get: no, default: no });
M._load = function (req, ...rest) { return req === 'got' ? got : load.call(this, req, ...rest); };\n`,
    );
    const bin = path.join(ROOT, 'node_modules/@doyensec/electronegativity/dist/index.js');
    const electron = (JSON.parse(readFileSync(path.join(ROOT, 'node_modules/electron/package.json'), 'utf8')) as { version: string }).version;
    // src/, not out/: out/ is a build artifact another build may be rewriting, and the
    // bundle hides the file names the allowlist's reasons are about.
    const inputs = ['src'];
    const found: string[] = [];
    try {
      for (const input of inputs) {
        // SARIF, not CSV: the tool writes a CSV's header and its rows with two racing async
        // writes, and under load the header lands over the first row (seen in CI).
        const sarif = path.join(tmp, `${input}.sarif`);
        const run = spawnSync(process.execPath, ['-r', offline, bin, '-i', path.join(ROOT, input), '-x', 'AvailableSecurityFixesGlobalCheck', '-e', electron, '-r', '-o', sarif], {
          encoding: 'utf8',
          timeout: 60_000,
        });
        expect(run.status, run.stderr).toBe(0);
        const report = JSON.parse(readFileSync(sarif, 'utf8')) as {
          runs: { results: { ruleId: string; locations: { physicalLocation: { artifactLocation: { uri: string } } }[] }[] }[];
        };
        const results = report.runs[0]!.results;
        for (const r of results) found.push(`${r.ruleId} ${r.locations[0]!.physicalLocation.artifactLocation.uri}`);
        figures[`electronegativity findings on ${input}/`] = results.length;
      }
    } finally {
      rmSync(tmp, { recursive: true, force: true });
    }
    const allowed = new Set(allow.findings.map((a) => `${a.check} ${a.file}`));
    const unexplained = [...new Set(found)].filter((f) => !allowed.has(f));
    expect(unexplained, 'findings with no reason in test/reliability/electronegativity-allowlist.json').toEqual([]);
    const stale = allow.findings.filter((a) => !found.includes(`${a.check} ${a.file}`)).map((a) => `${a.check} ${a.file}`);
    expect(stale, 'allowlist entries no finding needs').toEqual([]);
    figures.electronegativityUnexplained = unexplained.length;
    details.push(...[...new Set(found)].map((f) => `electronegativity: ${f} (explained)`));
  }, 120_000);
});
