// Small fixes to pinned dependencies, applied to node_modules by `npm ci` (prepare) and by
// every CLI build (scripts/build-cli.mjs) before anything is bundled. Each edit names the
// exact text it replaces; one that finds neither that text nor its replacement stops the
// install, so a dependency upgrade that moves the code cannot slip through unpatched.
//
// linkedom 0.18.15, event-target.js: every node's constructor put a new Map into a WeakMap
// for event listeners that almost no node ever gets. Over the article benchmark's 91 pages
// (plus Readability's 4 test pages) that WeakMap entry was 11% of extractArticle's CPU
// profile and a good part of its GC; made lazy (the Map is created by the first
// addEventListener) extraction took 32-35 ms of CPU per page instead of 41-57, the same runs
// interleaved at load ~3, with identical output on all 95 pages.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

const lazyListeners = [
  ['    wm.set(this, new Map);\n', ''],
  [
    '  addEventListener(type, listener, options) {\n    const map = wm.get(this);\n',
    '  addEventListener(type, listener, options) {\n    let map = wm.get(this);\n    if (!map) wm.set(this, map = new Map);\n',
  ],
  [
    '  removeEventListener(type, listener) {\n    const map = wm.get(this);\n    if (map.has(type)) {',
    '  removeEventListener(type, listener) {\n    const map = wm.get(this);\n    if (map && map.has(type)) {',
  ],
];

export const PATCHES = [
  { file: 'node_modules/linkedom/esm/interface/event-target.js', edits: lazyListeners },
  { file: 'node_modules/linkedom/cjs/interface/event-target.js', edits: lazyListeners },
];

/** Applies PATCHES (idempotent); returns the files it changed. Throws when an edit fits nowhere. */
export function patchDeps({ dir = root } = {}) {
  const changed = [];
  for (const { file, edits } of PATCHES) {
    const full = path.join(dir, file);
    const before = readFileSync(full, 'utf8');
    let text = before;
    for (const [from, to] of edits) {
      if (text.includes(from)) text = text.replace(from, to);
      // Neither the code nor its replacement (a pure removal, once done, leaves nothing to find).
      else if (to && !text.includes(to)) throw new Error(`patch-deps: ${file} no longer holds the code this patch edits; see scripts/patch-deps.mjs`);
    }
    if (text !== before) {
      writeFileSync(full, text);
      changed.push(file);
    }
  }
  return changed;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const changed = patchDeps();
  if (!process.argv.includes('--quiet')) process.stdout.write(changed.length ? `patched ${changed.join(', ')}\n` : 'dependencies already patched\n');
}
