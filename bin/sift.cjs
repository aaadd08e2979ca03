#!/usr/bin/env node
'use strict';
// The `sift` command. It runs the bundle scripts/build-cli.mjs writes (out/cli/sift.mjs,
// built by `npm ci` and `npm run build`). In a checkout whose bundle is missing or older
// than the TypeScript sources it runs the sources through tsx instead, and says so: that
// costs about a second per start, the bundle about 1.2x `node -e 0`.
const fs = require('node:fs');
const path = require('node:path');
const { pathToFileURL } = require('node:url');

// undici parses HTTP with llhttp, compiled to WebAssembly. After ~1.8 MB of bytes run through
// a function, V8 compiles it again, optimized, on a background thread, and a process cannot
// exit while such a compile runs: llhttp's parser is one huge function, and `sift batch` of
// one URL waited 130-190 ms at its end (a `sift fetch` less, the compile mostly overlapping
// its extraction), with a core busy meanwhile. Eleven times the budget leaves that compile to
// runs long enough to gain from it. Measured on this project's machines: a one-URL batch
// 718-807 -> 499-594 ms, sift fetch of one page 574 -> 543 ms (medians of 12 alternated), a
// 1,000-page batch and jq-wasm's programs on a 9 MB file (which the same flag reaches, in the
// compute worker) within noise.
require('node:v8').setFlagsFromString('--wasm-tiering-budget=20000000');

const root = path.join(__dirname, '..');
const bundle = path.join(root, 'out', 'cli', 'sift.mjs');
const sources = ['src/cli', 'src/main', 'src/shared'].map((d) => path.join(root, d));

/** The newest mtime under dir (0 for a folder that does not exist: an installed package). */
function newest(dir) {
  let max = 0;
  let entries;
  try {
    entries = fs.readdirSync(dir, { withFileTypes: true });
  } catch {
    return 0;
  }
  for (const e of entries) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) max = Math.max(max, newest(p));
    else if (/\.(ts|tsx|mjs|json)$/.test(e.name)) max = Math.max(max, fs.statSync(p).mtimeMs);
  }
  return max;
}

/** Why the bundle cannot be used, or '' when it can. */
function staleness() {
  let built;
  try {
    built = fs.statSync(bundle).mtimeMs;
  } catch {
    return 'no CLI bundle (out/cli/sift.mjs)';
  }
  const pkg = fs.statSync(path.join(root, 'package.json')).mtimeMs;
  for (const dir of sources) if (newest(dir) > built || pkg > built) return 'the CLI bundle is older than the sources';
  return '';
}

async function load() {
  const why = staleness();
  if (!why) return import(pathToFileURL(bundle).href);
  process.stderr.write(`sift: ${why}; running the sources through tsx (slower). Run \`npm run build:cli\` to rebuild it.\n`);
  const tsconfig = path.join(root, 'tsconfig.node.json');
  // Both hooks: the commands are loaded with import() (the ESM loader), the rest with require.
  require('tsx/cjs/api').register({ tsconfig });
  await import('tsx/esm');
  return require('../src/cli/main.ts');
}

load().then(
  (cli) =>
    cli.main(process.argv.slice(2)).then(
      (code) => {
        process.exitCode = code;
      },
      (err) => {
        process.stderr.write(`sift: ${err && err.message ? err.message : String(err)}\n`);
        process.exitCode = 2;
      },
    ),
  (err) => {
    process.stderr.write(`sift: cannot start: ${err && err.message ? err.message : String(err)}\n`);
    process.exitCode = 2;
  },
);
