#!/usr/bin/env node
// `npm start`: make sure the two things `npm ci` deliberately skipped are here, build, run.
//  1. Electron's runtime binary (npm ci skips its download so installs work offline);
//  2. better-sqlite3 built for Electron's ABI, kept in native/ and loaded through
//     better-sqlite3's `nativeBinding` option, so the Node build the CLI and tests use is
//     never replaced.
// Where a download is impossible, say so in one sentence and stop.
import { spawn, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const req = createRequire(path.join(root, 'package.json'));
const electronDir = path.dirname(req.resolve('electron/package.json'));
const electronVersion = JSON.parse(readFileSync(path.join(electronDir, 'package.json'), 'utf8')).version;
const sqliteDir = path.dirname(req.resolve('better-sqlite3/package.json'));

function fail(sentence) {
  process.stderr.write(`\nSift cannot start: ${sentence}\n`);
  process.exit(1);
}

function run(cmd, args, opts = {}) {
  const r = spawnSync(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'], encoding: 'utf8', ...opts });
  return { ok: r.status === 0, out: `${r.stdout ?? ''}${r.stderr ?? ''}`.trim() };
}

/** The line of a tool's output that says what went wrong (not a stack frame). */
function lastLine(text) {
  const lines = text.split('\n').map((l) => l.trim()).filter((l) => l && !l.startsWith('at '));
  const err = lines.find((l) => /error|ENOTFOUND|EAI_AGAIN|ECONNREFUSED/i.test(l));
  return (err ?? lines.at(-1) ?? 'no output').slice(0, 200);
}

// 1. The Electron binary.
function electronBinary() {
  try {
    const p = req('electron');
    if (typeof p === 'string' && existsSync(p)) return p;
  } catch {}
  return null;
}
let electron = electronBinary();
if (!electron) {
  process.stderr.write(`Downloading the Electron ${electronVersion} runtime (once)…\n`);
  const env = { ...process.env };
  delete env.ELECTRON_SKIP_BINARY_DOWNLOAD;
  const r = run(process.execPath, [path.join(electronDir, 'install.js')], { env });
  electron = electronBinary();
  if (!r.ok || !electron) {
    fail(
      `the Electron ${electronVersion} runtime could not be downloaded (${lastLine(r.out)}); connect this computer to the internet and run \`npm start\` again (the \`npx sift\` command line works without it).`,
    );
  }
}

// 2. better-sqlite3 for Electron's ABI, in its own file.
const binding = path.join(root, 'native', `better_sqlite3-electron-${electronVersion}-${process.platform}-${process.arch}.node`);
if (!existsSync(binding)) {
  process.stderr.write(`Fetching the SQLite module built for Electron ${electronVersion} (once)…\n`);
  const work = mkdtempSync(path.join(os.tmpdir(), 'sift-native-'));
  const pkg = path.join(work, 'better-sqlite3');
  // prebuild-install writes into ./build/Release of the package it runs in, so it runs in a
  // copy: the installed Node build stays untouched.
  spawnSync('cp', ['-R', sqliteDir, pkg]);
  rmSync(path.join(pkg, 'build'), { recursive: true, force: true });
  const prebuild = req.resolve('prebuild-install/bin.js');
  let r = run(process.execPath, [prebuild, '--runtime', 'electron', '--target', electronVersion, '--arch', process.arch, '--platform', process.platform], { cwd: pkg });
  const built = path.join(pkg, 'build', 'Release', 'better_sqlite3.node');
  if (!r.ok || !existsSync(built)) {
    // No prebuilt binary for this platform: compile against Electron's headers.
    const gyp = (() => {
      try {
        return req.resolve('node-gyp/bin/node-gyp.js');
      } catch {
        return null;
      }
    })();
    r = gyp
      ? run(process.execPath, [gyp, 'rebuild', '--release', `--target=${electronVersion}`, '--dist-url=https://electronjs.org/headers', `--arch=${process.arch}`], { cwd: pkg })
      : run('npx', ['--yes', 'node-gyp', 'rebuild', '--release', `--target=${electronVersion}`, '--dist-url=https://electronjs.org/headers'], { cwd: pkg });
  }
  if (!existsSync(built)) {
    rmSync(work, { recursive: true, force: true });
    fail(
      `better-sqlite3 for Electron ${electronVersion} could neither be downloaded nor compiled (${lastLine(r.out)}); connect to the internet (and install a C++ toolchain) and run \`npm start\` again.`,
    );
  }
  mkdirSync(path.dirname(binding), { recursive: true });
  copyFileSync(built, `${binding}.tmp`);
  renameSync(`${binding}.tmp`, binding);
  rmSync(work, { recursive: true, force: true });
}

// 3. Build, then run.
const b = spawnSync(process.execPath, [path.join(root, 'node_modules/electron-vite/bin/electron-vite.js'), 'build'], { cwd: root, stdio: 'inherit' });
if (b.status !== 0) fail('the build failed (see the messages above).');

// V8's guard against runaway regular expressions (see src/main/fetch/compute-worker.mjs),
// which in Electron's main process only takes effect from the command line.
const child = spawn(electron, ['--js-flags=--enable-experimental-regexp-engine-on-excessive-backtracks', root], { stdio: 'inherit', env: { ...process.env, SIFT_SQLITE_BINDING: binding } });
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => child.kill(sig));
